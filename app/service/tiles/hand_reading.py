"""Reading the hand of a score or waits request: the standing tiles, the declared melds and
the winning tile, from a whole-hand notation string or an object of fields, each checked
where it was written (notation, flowers, meld shapes, number of melds), then the tile count,
the copies of each kind and the winning tile. Also the tiles of a field read with the place
each was written at.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from app.domain.errors import Code, HandError, NotationError
from app.domain.hand import CHOW, HAND_SIZE, KONG, MAX_MELDS, Meld
from app.domain.hand_notation import meld_kind, parse_hand_string
from app.domain.notation import (
    MELDS_LIMIT,
    format_meld,
    format_tiles,
    melds_memo,
    parse_tile,
    read_tiles,
    scan_tiles,
)
from app.domain.tiles import TileSet
from app.service.reading import field_name

# A tile as read: the tile, the pointer of the field it was written in, and its position in
# that field's string (None for a list item).
ReadTile = tuple[int, str, int | None]


def read_hand(data: str | Mapping[str, Any], tileset: TileSet, *, waiting: bool
              ) -> tuple[tuple[int, ...], tuple[Meld, ...], int | None]:
    """(standing tiles, melds, winning tile); a waiting hand is one tile short and has no
    winning tile (None)."""
    if type(data) is dict:
        read = _read_fields(data, tileset, waiting)
        if read is not None:
            return read
    return _read_in_order(data, tileset, waiting)


def _read_fields(fields: dict[str, Any], tileset: TileSet, waiting: bool
                 ) -> tuple[tuple[int, ...], tuple[Meld, ...], int | None] | None:
    """`read_hand` of a hand of fields that holds no fault, or None: then `_read_in_order`
    reads it again and finds its first fault. Its flowers and copies are told by one count
    of its tiles (`_limits`: none of a flower may stand, where `_read_in_order` looks each
    tile up among the flowers, the winning tile too, before counting the copies)."""
    try:
        raw = fields["concealed"]
        if isinstance(raw, str):
            standing = read_tiles(raw, tileset, pointer="/hand/concealed")
        else:
            return None
        raw_melds = fields.get("melds") or ()
        if len(raw_melds) > MAX_MELDS:
            return None
        melds = [_read_known_meld(m if type(m) is dict else dict(m), tileset, k)
                 for k, m in enumerate(raw_melds)]
        written = fields.get("win_tile")
        win_tile = None if written is None else parse_tile(written, tileset, "/hand/win_tile")
    except HandError:
        return None
    most = _limits(tileset)
    if len(standing) != _needed(len(melds), waiting) or not _within_limits(
            standing, melds, most):
        return None
    if win_tile is not None and most[win_tile] == 0:  # a flower (even for a waiting hand)
        return None
    if waiting:
        return tuple(standing), tuple(melds), None
    if win_tile is None:
        win_tile = standing[-1]
    elif win_tile not in standing:
        return None
    return tuple(standing), tuple(melds), win_tile


def _within_limits(standing: list[int], melds: list[Meld], most: list[int]) -> bool:
    counts = [0] * len(most)
    for t in standing:
        n = counts[t] = counts[t] + 1
        if n > most[t]:
            return False
    for m in melds:
        for t in m.tiles:
            n = counts[t] = counts[t] + 1
            if n > most[t]:
                return False
    return True


# The most copies of each kind a hand may hold (its copies, a flower's none), of the tile set
# read last: a log's hands are mostly of one rule set. One slot holding the (tile set, limits)
# pair, replaced whole, as `app.domain.notation` keeps its last grammar.
_LAST_LIMITS: Final[list[tuple[TileSet, list[int]] | None]] = [None]


def _limits(tileset: TileSet) -> list[int]:
    last = _LAST_LIMITS[0]
    if last is not None and last[0] is tileset:
        return last[1]
    flowers = tileset.flower_set
    most = [0 if t in flowers else n for t, n in enumerate(tileset.copies)]
    _LAST_LIMITS[0] = (tileset, most)
    return most


def _read_in_order(data: str | Mapping[str, Any], tileset: TileSet, waiting: bool
                   ) -> tuple[tuple[int, ...], tuple[Meld, ...], int | None]:
    """`read_hand`, each field checked where it was written, in order (so the first fault
    found is the same whatever else the hand holds)."""
    win_tile: int | None
    if isinstance(data, str):
        standing, melds, win_tile = _parse_hand_string(data, tileset, waiting)
        standing_ptr = "/hand"
        if len(melds) > MAX_MELDS:
            raise _too_many_melds(len(melds), "/hand")
    else:
        # The schema's reading is a dict (so are its melds): read as one, each field is a
        # direct lookup rather than a call of the mapping's methods.
        fields: dict[str, Any] = data if type(data) is dict else dict(data)
        standing_ptr = "/hand/concealed"
        standing = _read_standing(fields["concealed"], tileset, standing_ptr)
        raw_melds = fields.get("melds") or ()
        if len(raw_melds) > MAX_MELDS:
            raise _too_many_melds(len(raw_melds), "/hand/melds")
        melds = [_read_known_meld(m if type(m) is dict else dict(m), tileset, k)
                 for k, m in enumerate(raw_melds)]
        win_tile = _read_win_tile(fields.get("win_tile"), tileset)

    if len(standing) != _needed(len(melds), waiting):
        where = "outside brackets in hand" if standing_ptr == "/hand" else "in hand.concealed"
        raise _wrong_tile_count(f"{len(standing)} standing tile{_s(len(standing))} {where}",
                                len(melds), waiting, standing_ptr)
    _check_copies(standing, standing_ptr, melds, tileset)

    if waiting:
        return tuple(standing), tuple(melds), None
    if win_tile is None:
        # Default: the last tile written, as in the whole-hand notation.
        win_tile = standing[-1]
    elif win_tile not in standing:
        raise HandError(
            Code.WIN_TILE_MISSING,
            f"hand.win_tile {tileset.code(win_tile)} is not among the standing tiles "
            f"({format_tiles(standing, tileset)}): hand.concealed must include the winning tile",
            "/hand/win_tile",
        )
    return tuple(standing), tuple(melds), win_tile


def _needed(n_melds: int, waiting: bool) -> int:
    return HAND_SIZE - (1 if waiting else 0) - 3 * n_melds


def _wrong_tile_count(what: str, n_melds: int, waiting: bool, pointer: str) -> HandError:
    if waiting:
        rule = ("13 minus 3 per meld, a kong counting as 3: a waiting hand is one tile short "
                "of a win")
    else:
        rule = ("14 minus 3 per meld, a kong counting as 3; the standing tiles include the "
                "winning tile")
    return HandError(
        Code.WRONG_TILE_COUNT,
        f"{what}, but {_needed(n_melds, waiting)} are needed with {n_melds} declared "
        f"meld{_s(n_melds)} ({rule})",
        pointer,
    )


def _parse_hand_string(text: str, tileset: TileSet, waiting: bool
                       ) -> tuple[list[int], list[Meld], int | None]:
    """Whole-hand notation; for a waiting hand every tile outside brackets is standing."""
    if not waiting:
        return parse_hand_string(text, tileset, "/hand")
    try:
        standing, melds, _ = parse_hand_string(text, tileset, "/hand")
    except NotationError as exc:
        if exc.code != Code.WIN_TILE_MISSING:
            raise
        # The parser read every meld before it found nothing outside the brackets, so each
        # opening bracket is one well-formed meld.
        n_melds = text.count("[") + text.count("{")
        if n_melds > MAX_MELDS:
            raise _too_many_melds(n_melds, "/hand") from None
        raise _wrong_tile_count("no standing tiles are written outside brackets in hand",
                                n_melds, True, "/hand") from None
    return standing, melds, None


def _read_standing(raw: str | list[str], tileset: TileSet, pointer: str) -> list[int]:
    """Standing tiles (or a meld's), refusing a flower where it was written."""
    if isinstance(raw, str):
        tiles = read_tiles(raw, tileset, pointer=pointer)
    else:
        tiles = [parse_tile(item, tileset, f"{pointer}/{k}") for k, item in enumerate(raw)]
    flowers = tileset.flower_set
    if flowers:
        # A compiled loop: cheaper than calling `isdisjoint`, and it finds the first flower.
        for k, t in enumerate(tiles):
            if t in flowers:
                if isinstance(raw, str):
                    positions = scan_tiles(raw, tileset, pointer=pointer)[1]
                    raise _flower_in_hand(tileset, t, pointer, positions[k])
                raise _flower_in_hand(tileset, t, f"{pointer}/{k}", None)
    return tiles


def read_field_tiles(raw: str | Sequence[str], tileset: TileSet, pointer: str) -> list[ReadTile]:
    """Tiles of a string or list field, each with the pointer and position it was written at."""
    if isinstance(raw, str):
        tiles, positions = scan_tiles(raw, tileset, pointer=pointer)
        return [(t, pointer, at) for t, at in zip(tiles, positions, strict=True)]
    return [(parse_tile(item, tileset, f"{pointer}/{k}"), f"{pointer}/{k}", None)
            for k, item in enumerate(raw)]


def _read_known_meld(raw: dict[str, Any], tileset: TileSet, k: int) -> Meld:
    """Meld `k` of the hand's `melds`, from the memo when its tiles are a notation string
    read before."""
    tiles = raw["tiles"]
    concealed = raw.get("concealed")
    if type(tiles) is not str or not (concealed is None or type(concealed) is bool):
        return _read_meld(raw, tileset, f"/hand/melds/{k}")
    # A meld read once without a fault is the same meld wherever it is written again.
    memo = melds_memo(tileset)
    key = (raw["kind"], tiles, bool(concealed))
    meld = memo.get(key)
    if meld is None:
        meld = _read_meld(raw, tileset, f"/hand/melds/{k}")
        if len(memo) >= MELDS_LIMIT:
            memo.clear()
        memo[key] = meld
    return meld


def _read_meld(raw: Mapping[str, Any], tileset: TileSet, pointer: str) -> Meld:
    kind = raw["kind"]
    tiles_ptr = f"{pointer}/tiles"
    tiles = _read_standing(raw["tiles"], tileset, tiles_ptr)
    concealed = bool(raw.get("concealed"))
    size = 4 if kind == KONG else 3
    if len(tiles) == size and meld_kind(tiles, tileset) == kind and (not concealed
                                                                     or kind == KONG):
        return Meld(kind, tuple(sorted(tiles)), concealed)
    # What is wrong with it, in words.
    name = field_name(pointer)
    written = format_meld(tiles, tileset) or "no tiles"
    if len(tiles) != size:
        raise HandError(
            Code.ILLEGAL_MELD,
            f"{name} is a {kind}, which has {size} tiles, but {len(tiles)} "
            f"{'was' if len(tiles) == 1 else 'were'} given ({written})",
            tiles_ptr,
        )
    actual = meld_kind(tiles, tileset)
    if actual != kind:
        if kind == CHOW:
            if any(not tileset.kinds[t].is_number for t in tiles):
                why = "honours never form a chow"
            else:
                why = "a chow is 3 consecutive tiles of one numbered suit"
        elif kind == KONG:
            why = "a kong is 4 identical tiles"
        else:
            why = "a pung is 3 identical tiles"
        seen = f" ({written} is a {actual})" if actual else ""
        raise HandError(
            Code.ILLEGAL_MELD, f"{name} {written} is not a {kind}: {why}{seen}", tiles_ptr
        )
    if concealed and kind != KONG:
        # Only a kong is declared while concealed (暗杠); a concealed chow or pung is simply
        # part of the standing tiles.
        raise HandError(
            Code.ILLEGAL_MELD,
            f"{name} is a {kind} with concealed: true, but only a kong can be declared "
            f"concealed; put a concealed {kind} among the standing tiles instead",
            f"{pointer}/concealed",
        )
    raise AssertionError("a meld refused for no reason")  # pragma: no cover


def _read_win_tile(raw: str | None, tileset: TileSet) -> int | None:
    if raw is None:
        return None
    tile = parse_tile(raw, tileset, "/hand/win_tile")
    if tileset.kinds[tile].is_flower:
        raise _flower_in_hand(tileset, tile, "/hand/win_tile", None)
    return tile


def _check_copies(standing: list[int], standing_ptr: str, melds: list[Meld],
                  tileset: TileSet) -> None:
    """No kind may appear more often than the tile set has copies of it (4 in a standard set).

    The pointer names the field where the count first goes over: the standing tiles', or a
    meld's (`/hand` for a whole-hand string, where the melds are written too).
    """
    copies = tileset.copies
    counts = [0] * len(copies)
    over = False
    for t in standing:
        n = counts[t] = counts[t] + 1
        over |= n > copies[t]
    for m in melds:
        for t in m.tiles:
            n = counts[t] = counts[t] + 1
            over |= n > copies[t]
    if not over:
        return
    seen = [0] * len(counts)
    groups: list[tuple[Sequence[int], str]] = [(standing, standing_ptr)]
    groups += [(m.tiles, "/hand" if standing_ptr == "/hand" else f"/hand/melds/{k}/tiles")
               for k, m in enumerate(melds)]
    for tiles, ptr in groups:
        for t in tiles:
            seen[t] += 1
            if seen[t] > copies[t]:
                raise HandError(
                    Code.TOO_MANY_COPIES,
                    f"{tileset.code(t)} appears {counts[t]} times in the hand (standing tiles "
                    f"and melds together), but there are only {copies[t]} of it",
                    ptr,
                )


def _too_many_melds(n: int, pointer: str) -> HandError:
    return HandError(
        Code.TOO_MANY_MELDS,
        f"the hand declares {n} melds, but a hand has at most {MAX_MELDS}",
        pointer,
    )


def _flower_in_hand(tileset: TileSet, tile: int, pointer: str, at: int | None) -> HandError:
    where = "" if at is None else f" at position {at}"
    message = (
        f"{tileset.code(tile)}{where} is a flower: flowers are not part of the hand; list them "
        f"in context.flowers"
    )
    if at is None:
        return HandError(Code.FLOWER_IN_HAND, message, pointer)
    return NotationError(Code.FLOWER_IN_HAND, message, pointer, at)


def _s(n: int) -> str:
    return "" if n == 1 else "s"
