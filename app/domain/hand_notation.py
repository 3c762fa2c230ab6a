"""Reading a whole hand written as text, declared melds in brackets, and telling what kind
of meld some tiles form.

Whole-hand notation (the reference MCR calculator's, with one addition); the tiles themselves
are written as `app.domain.notation` reads them:

- ``[...]`` is a declared (exposed) meld, ``[123p]``, ``[555s]``, ``[5555s]`` (exposed kong);
- ``{5555s}`` is a concealed kong (our addition: the reference has no bracket for it);
- for compatibility with the reference an offer suffix is accepted: ``[555s,1]`` (1..3 = the
  relative seat the tile was claimed from; ignored) and ``[5555s,0]`` (0 = concealed kong);
- everything outside brackets is the standing tiles, and the LAST tile written outside
  brackets is the winning tile (it is one of the standing tiles), e.g.
  ``[123p][555s]11123m5m`` wins on 5m.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from operator import attrgetter
from typing import Final

from app.domain.errors import Code, NotationError
from app.domain.hand import CHOW, KONG, PUNG, Meld
from app.domain.notation import format_meld, scan_span
from app.domain.tiles import TileSet

# Any bracket: the whole-hand parser reads the standing tiles between brackets in one go.
_BRACKET: Final = re.compile(r"[\[\]{}]")
_CLOSE: Final = {"[": "]", "{": "}"}
# Offer digit of the reference notation: 0 = concealed kong, 1..3 = claimed from that seat.
_OFFERS: Final = "0123"
_RANK: Final = attrgetter("rank")


def meld_kind(tiles: Sequence[int], tileset: TileSet) -> str | None:
    """The kind of meld these tiles form (`chow`, `pung`, `kong`), or None if they form none.

    3 identical tiles are a pung, 4 identical a kong, and 3 consecutive ranks of one numbered
    suit a chow (honours and flowers never form a chow). Flowers are not checked here.
    """
    n = len(tiles)
    if n != 3 and n != 4:
        return None
    if tiles.count(tiles[0]) == n:
        return PUNG if n == 3 else KONG
    if n == 4:
        return None
    low, mid, high = sorted([tileset.kinds[t] for t in tiles], key=_RANK)
    if not (
        low.is_number
        and low.suit == mid.suit == high.suit
        and mid.rank == low.rank + 1
        and high.rank == low.rank + 2
    ):
        return None
    return CHOW


def meld_problem(tiles: Sequence[int], tileset: TileSet) -> str:
    """Why these tiles are not a meld, in words, for an `illegal_meld` message."""
    text = format_meld(tiles, tileset) or "nothing"
    if len(tiles) not in (3, 4):
        return (
            f"{text} is {len(tiles)} tile{'s' if len(tiles) != 1 else ''}; a meld is 3 tiles "
            f"(chow or pung) or 4 (kong)"
        )
    if len(tiles) == 4:
        return f"{text} is not a kong: a kong is 4 identical tiles"
    if any(not tileset.kinds[t].is_number for t in tiles) and len(set(tiles)) > 1:
        return f"{text} is not a meld: honours form pungs and kongs but never a chow"
    return (
        f"{text} is not a meld: a pung is 3 identical tiles and a chow 3 consecutive tiles "
        f"of one numbered suit"
    )


def parse_hand_string(
    text: str, tileset: TileSet, pointer: str = "/hand"
) -> tuple[list[int], list[Meld], int]:
    """Parse whole-hand notation into (standing tiles, declared melds, winning tile).

    Brackets are declared melds (``[123p]``, ``[5555s]`` exposed kong, ``{5555s}`` or
    ``[5555s,0]`` concealed kong, ``[555s,2]`` offer suffix ignored); the tiles outside
    brackets, in written order, are the standing tiles, and the last of them is the winning
    tile. Melds may be written anywhere, conventionally first.

    Raises `NotationError` with codes `invalid_notation`, `unknown_tile`, `illegal_meld`,
    `flower_in_hand` (flowers belong in ``context.flowers``) or `win_tile_missing` (nothing
    written outside brackets). Counts are not checked here (see `app.service.tiles.requests`).
    """
    flowers = tileset.flower_set
    standing: list[int] = []
    standing_at: list[int] = []
    melds: list[Meld] = []
    n = len(text)
    i = 0
    while i < n:
        ch = text[i]
        close = _CLOSE.get(ch)
        if close is None:
            i = _read_standing(text, tileset, pointer, i, standing, standing_at)
            continue
        j = _meld_end(text, pointer, i, close)
        melds.append(_read_meld(text, tileset, pointer, i, j))
        i = j + 1
    if not flowers.isdisjoint(standing):
        for tile, at in zip(standing, standing_at, strict=True):
            if tile in flowers:
                raise _flower_error(tileset, tile, pointer, at)
    if not standing:
        raise NotationError(
            Code.WIN_TILE_MISSING,
            "no tiles are written outside brackets, so there is no winning tile: write the "
            "standing tiles after the melds, the winning tile last",
            pointer,
            n,
        )
    return standing, melds, standing[-1]


def _read_standing(text: str, tileset: TileSet, pointer: str, i: int, standing: list[int],
                   standing_at: list[int]) -> int:
    """Read the standing tiles written from position `i` to the next bracket (or the end)
    into `standing`, with their positions into `standing_at`; answer where they end."""
    ch = text[i]
    n = len(text)
    if ch in "]}":
        raise NotationError(
            Code.INVALID_NOTATION,
            f"{ch!r} at position {i} closes a meld that was never opened",
            pointer,
            i,
        )
    m = _BRACKET.search(text, i)
    j = n if m is None else m.start()
    comma = text.find(",", i, j)
    if comma >= 0:
        raise NotationError(
            Code.INVALID_NOTATION,
            f"',' at position {comma} is outside brackets: an offer suffix belongs "
            f"inside a meld, e.g. [555s,1]",
            pointer,
            comma,
        )
    scan_span(text, tileset, pointer, i, j, standing, standing_at)
    return j


def _meld_end(text: str, pointer: str, i: int, close: str) -> int:
    """Where the meld opened at position `i` is closed with `close` (an error if it is not,
    or if another bracket comes first)."""
    m = _BRACKET.search(text, i + 1)
    if m is None or m.group() != close:
        n = len(text)
        found = (
            f"the text ends at position {n}" if m is None
            else f"found {m.group()!r} at position {m.start()}"
        )
        raise NotationError(
            Code.INVALID_NOTATION,
            f"{text[i]!r} at position {i} opens a meld that is not closed with {close!r} "
            f"({found})",
            pointer,
            i,
        )
    return m.start()


def _read_meld(
    text: str, tileset: TileSet, pointer: str, open_at: int, close_at: int
) -> Meld:
    """Read the meld between the brackets at ``open_at`` and ``close_at``."""
    braces = text[open_at] == "{"
    concealed = braces
    end = close_at
    comma = text.find(",", open_at + 1, close_at)
    if comma >= 0:
        if braces:
            raise NotationError(
                Code.INVALID_NOTATION,
                f"',' at position {comma}: a concealed kong in braces takes no offer suffix",
                pointer,
                comma,
            )
        offer = text[comma + 1 : close_at].strip()
        if len(offer) != 1 or offer not in _OFFERS:
            raise NotationError(
                Code.INVALID_NOTATION,
                f"offer suffix {text[comma:close_at]!r} at position {comma} must be ',0' "
                f"(concealed kong) or ',1'..',3' (the seat the tile was claimed from)",
                pointer,
                comma,
            )
        concealed = offer == "0"
        end = comma
    tiles: list[int] = []
    positions: list[int] = []
    scan_span(text, tileset, pointer, open_at + 1, end, tiles, positions)
    flowers = tileset.flower_set
    if not flowers.isdisjoint(tiles):
        for tile, at in zip(tiles, positions, strict=True):
            if tile in flowers:
                raise _flower_error(tileset, tile, pointer, at)
    kind = meld_kind(tiles, tileset)
    if kind is None:
        written = text[open_at : close_at + 1]
        raise NotationError(
            Code.ILLEGAL_MELD,
            f"{written} at position {open_at}: {meld_problem(tiles, tileset)}",
            pointer,
            open_at,
        )
    if concealed and kind != KONG:
        written = text[open_at : close_at + 1]
        how = "braces mark" if braces else "offer 0 marks"
        raise NotationError(
            Code.ILLEGAL_MELD,
            f"{written} at position {open_at}: {how} a concealed kong, but this is a {kind}; "
            f"only a kong can be declared concealed (write [{format_meld(tiles, tileset)}])",
            pointer,
            open_at,
        )
    return Meld(kind, tuple(sorted(tiles)), concealed)


def _flower_error(tileset: TileSet, tile: int, pointer: str, at: int) -> NotationError:
    code = tileset.kinds[tile].code
    return NotationError(
        Code.FLOWER_IN_HAND,
        f"{code} at position {at} is a flower: flowers are not part of the hand; "
        f"list them in context.flowers",
        pointer,
        at,
    )
