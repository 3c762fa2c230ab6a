"""Reading and writing tiles as text.

Tile notation (every form may be mixed in one string; whitespace may separate groups):

- compact groups: digits followed by a suit letter, ``123m``, ``1112345678999m``, ``19m19p19s``;
  ``m`` 万 characters, ``p`` 筒 dots, ``s`` 条 bamboo, ``f`` flowers (``1f``..``8f``);
- honours by letter: ``E S W N`` winds, ``C`` 中 red, ``F`` 发 green, ``P`` 白 white, so a pung
  of east is ``EEE``;
- riichi-style honours ``1z``..``7z``: 1z..4z the winds, then 5z 白, 6z 发, 7z 中 (the riichi
  order, which is why 5z is P and not C);
- Chinese names: 一万 .. 九筒 (also 饼, 索, 萬 ...), 东 南 西 北 (and 东风 ...), 中 发 白 (and
  红中, 發, 发财, 白板), flowers 春夏秋冬梅兰竹菊.

Letters are case-sensitive: ``P`` is 白 while ``p`` is the dots suit, ``F`` is 发 while ``f``
is the flower suit.

A whole hand, declared melds in brackets, is read by `app.domain.hand_notation`.

Only the tile set is consulted: codes, aliases and suit letters come from the `TileSet`, so a
rule set with another tile set gets its own notation for free. The per-tile-set lookup tables
are built once and cached; parsing is a single left-to-right pass with dict lookups.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from app.domain.errors import Code, NotationError
from app.domain.hand import Meld
from app.domain.tiles import TileSet

_DIGITS: Final = "0123456789"
_ASCII: Final = 128
# The suit letters of the notation (万 筒 条, riichi-style honours, flowers): a tile set may
# lack some of them, and a tile written with one is then not a tile of that set.
NOTATION_SUITS: Final = "mpszf"


@dataclass(frozen=True, slots=True)
class _Grammar:
    """Lookup tables for one tile set, derived from its codes and aliases."""

    # suit letter -> {digit -> tile}: "1m" is digit_codes["m"]["1"]
    digit_codes: dict[str, dict[str, int]]
    # one-character codes and names: "E", "东", "中", "春" ...
    singles: dict[str, int]
    # multi-character names by first character, longest first: "东风" before "东"
    words: dict[str, tuple[tuple[str, int], ...]]
    # per tile: the suit letter when the canonical code is digit+letter, else None
    group_suit: tuple[str | None, ...]
    # per tile: the digit of a digit+letter code (unused when group_suit is None)
    group_digit: tuple[str, ...]
    # "m/p/s/z/f", for messages
    suit_letters: str
    # per suit letter: the digits it takes, "1-9", for messages
    suit_digits: dict[str, str]
    # what a tile looks like, for messages
    hint: str
    # the flower tiles, which may not stand in a hand
    flowers: frozenset[int]
    # Tokens already read (`read_tiles`): a compact group or one character -> its tiles. A
    # memo, emptied when it reaches `tokens_limit()`.
    tokens: dict[str, tuple[int, ...]]
    # Declared melds read from notation strings (by the request reader, `app.service
    # .hand_reading`): (kind, tiles, concealed) -> the meld. A memo, emptied when it reaches
    # MELDS_LIMIT.
    melds: dict[tuple[str, str, bool], Meld]
    # By a character's code point below 128 (`read_tiles`' compact reading): for a suit
    # letter, its tile per digit (-1: none), else None; and the tile of a one-character code
    # that starts no longer name, else -1.
    ascii_suits: tuple[tuple[int, ...] | None, ...]
    ascii_singles: tuple[int, ...]


_GRAMMARS: Final[dict[int, tuple[TileSet, _Grammar]]] = {}


def _is_digit_code(code: str) -> bool:
    return len(code) == 2 and code[0] in _DIGITS and code[1] not in _DIGITS


def _build_grammar(tileset: TileSet) -> _Grammar:
    digit_codes: dict[str, dict[str, int]] = {}
    singles: dict[str, int] = {}
    words: dict[str, list[tuple[str, int]]] = {}
    for code, tile in tileset.by_code.items():
        if _is_digit_code(code):
            digit_codes.setdefault(code[1], {})[code[0]] = tile
        elif len(code) == 1:
            singles[code] = tile
        elif code:
            words.setdefault(code[0], []).append((code, tile))
    group_suit: list[str | None] = []
    group_digit: list[str] = []
    for kind in tileset.kinds:
        if _is_digit_code(kind.code):
            group_suit.append(kind.code[1])
            group_digit.append(kind.code[0])
        else:
            group_suit.append(None)
            group_digit.append("")
    # Suit letters in the display order of their tiles: m, p, s, z, f for the standard set.
    rank = tileset.display_rank
    letters = sorted(digit_codes, key=lambda s: (min(rank[t] for t in digit_codes[s].values()), s))
    suit_digits = {s: _digit_ranges(table) for s, table in digit_codes.items()}
    letter_codes = [k.code for k in tileset.kinds if len(k.code) == 1]
    hint = f"expected digits followed by a suit letter {'/'.join(letters)}"
    if letter_codes:
        hint += f", an honour letter {' '.join(letter_codes)}"
    if words:
        example = min((w for ws in words.values() for w, _ in ws), key=len)
        hint += f" or a Chinese name such as {example}"
    ascii_suits: list[tuple[int, ...] | None] = [None] * _ASCII
    ascii_singles = [-1] * _ASCII
    for letter, table in digit_codes.items():
        if ord(letter) < _ASCII:
            ascii_suits[ord(letter)] = tuple(table.get(str(d), -1) for d in range(10))
    for code, tile in singles.items():
        if ord(code) < _ASCII and code not in words:
            ascii_singles[ord(code)] = tile
    return _Grammar(
        digit_codes=digit_codes,
        singles=singles,
        words={c: tuple(sorted(ws, key=lambda w: -len(w[0]))) for c, ws in words.items()},
        group_suit=tuple(group_suit),
        group_digit=tuple(group_digit),
        suit_letters="/".join(letters),
        suit_digits=suit_digits,
        hint=hint,
        flowers=frozenset(tileset.flowers),
        tokens={},
        melds={},
        ascii_suits=tuple(ascii_suits),
        ascii_singles=tuple(ascii_singles),
    )


def _digit_ranges(table: dict[str, int]) -> str:
    """The digits a suit takes, as "1-9" or "1-4, 6"."""
    ds = sorted(int(d) for d in table)
    runs: list[str] = []
    start = prev = ds[0]
    for d in [*ds[1:], None]:
        if d is not None and d == prev + 1:
            prev = d
            continue
        runs.append(str(start) if start == prev else f"{start}-{prev}")
        if d is not None:
            start = prev = d
    return ", ".join(runs)


def _grammar(tileset: TileSet) -> _Grammar:
    # Keyed by identity: TileSet holds a dict and is not hashable. The entry keeps the tile
    # set alive, so its id cannot be reused by another object.
    last = _LAST[0]
    if last is not None and last[0] is tileset:
        return last[1]
    entry = _GRAMMARS.get(id(tileset))
    if entry is None or entry[0] is not tileset:
        entry = (tileset, _build_grammar(tileset))
        _GRAMMARS[id(tileset)] = entry
    _LAST[0] = entry
    return entry[1]


# The entry of the tile set whose grammar was asked for last: a log's lines, a request's
# fields, are mostly of one tile set, told so by an identity test alone. One slot holding the
# (tile set, grammar) pair, replaced whole, so that no thread reads a tile set with another
# one's grammar.
_LAST: Final[list[tuple[TileSet, _Grammar] | None]] = [None]


def _scan(
    text: str,
    g: _Grammar,
    pointer: str,
    start: int,
    end: int,
    tiles: list[int],
    positions: list[int],
) -> None:
    """Append the tiles written in ``text[start:end]`` and the position of each."""
    digits_at = -1  # where the pending run of digits began, -1 when none is pending
    i = start
    while i < end:
        ch = text[i]
        if ch in _DIGITS:
            if digits_at < 0:
                digits_at = i
            i += 1
            continue
        if digits_at >= 0:
            _digit_run(text, g, pointer, digits_at, i, tiles, positions)
            digits_at = -1
            i += 1
            continue
        if ch.isspace():
            i += 1
            continue
        # Multi-character names first, longest first, so that 东风 is one tile, not 东 + 风.
        for word, tile in g.words.get(ch, ()):
            if text.startswith(word, i, end):
                tiles.append(tile)
                positions.append(i)
                i += len(word)
                break
        else:
            word = ""
        if word:
            continue
        single = g.singles.get(ch)
        if single is not None:
            tiles.append(single)
            positions.append(i)
            i += 1
            continue
        raise _not_a_tile(ch, i, g, pointer)
    if digits_at >= 0:
        raise NotationError(
            Code.INVALID_NOTATION,
            f"digits {text[digits_at:end]!r} at position {digits_at} are not followed by a "
            f"suit letter {g.suit_letters} (the text ends at position {end})",
            pointer,
            digits_at,
        )


def _digit_run(text: str, g: _Grammar, pointer: str, digits_at: int, i: int, tiles: list[int],
               positions: list[int]) -> None:
    """Append the tiles of the run of digits ``text[digits_at:i]``, which take the suit letter
    at `i`: "123m"."""
    ch = text[i]
    table = g.digit_codes.get(ch)
    if table is None and ch in NOTATION_SUITS:
        # A suit of the notation that this tile set lacks (万 in an 84-tile set).
        raise NotationError(
            Code.UNKNOWN_TILE,
            f"{text[digits_at] + ch!r} at position {digits_at} is not a tile of this "
            f"rule set: its tiles are written with the suit letters {g.suit_letters}",
            pointer,
            digits_at,
        )
    if table is None:
        raise NotationError(
            Code.INVALID_NOTATION,
            f"digits {text[digits_at:i]!r} at position {digits_at} are not followed by "
            f"a suit letter {g.suit_letters} (found {ch!r} at position {i})",
            pointer,
            digits_at,
        )
    for k in range(digits_at, i):
        tile = table.get(text[k])
        if tile is None:
            raise NotationError(
                Code.UNKNOWN_TILE,
                f"{text[k] + ch!r} at position {k} is not a tile: suit {ch!r} takes "
                f"digits {g.suit_digits[ch]}",
                pointer,
                k,
            )
        tiles.append(tile)
        positions.append(k)


def _not_a_tile(ch: str, i: int, g: _Grammar, pointer: str) -> NotationError:
    """The error of a character `ch` at `i` that starts no tile."""
    if ch in g.digit_codes:
        return NotationError(
            Code.INVALID_NOTATION,
            f"suit letter {ch!r} at position {i} has no digits before it "
            f"(write e.g. '123{ch}')",
            pointer,
            i,
        )
    return NotationError(
        Code.UNKNOWN_TILE,
        f"{ch!r} at position {i} is not a tile: {g.hint}",
        pointer,
        i,
    )


def scan_tiles(
    text: str, tileset: TileSet, *, pointer: str = ""
) -> tuple[list[int], list[int]]:
    """Parse tile notation into tiles (in written order) and the position each was written at.

    Raises `NotationError` (`invalid_notation`, `unknown_tile`) with ``pointer`` and the
    position of the offending character.
    """
    tiles: list[int] = []
    positions: list[int] = []
    _scan(text, _grammar(tileset), pointer, 0, len(text), tiles, positions)
    return tiles, positions


def scan_span(text: str, tileset: TileSet, pointer: str, start: int, end: int,
              tiles: list[int], positions: list[int]) -> None:
    """`scan_tiles` of `text[start:end]`, adding to `tiles` and `positions` (positions in the
    whole of `text`): a part of a longer text, such as a meld between brackets."""
    _scan(text, _grammar(tileset), pointer, start, end, tiles, positions)


def parse_tiles(text: str, tileset: TileSet, *, pointer: str = "") -> list[int]:
    """Parse tile notation (any mix of the forms in the module docstring) into tiles.

    Tiles come back in written order. Flowers are accepted here (they are tiles of the set);
    whether they may stand where they were written is the caller's concern.
    Raises `NotationError` with code `invalid_notation` or `unknown_tile`.
    """
    tiles: list[int] = []
    positions: list[int] = []
    _scan(text, _grammar(tileset), pointer, 0, len(text), tiles, positions)
    return tiles


# A token of `read_tiles`: a run of digits with the character after it ("123m"), or one
# character. One after another, these cover a text that does not end in a digit.
# Distinct tokens a tile set's memo holds: real traffic writes a suit's tiles in a few
# thousand ways (one group per suit and hand); past the bound the memo starts again. The
# bound of a served worker; a process that scores many different hands one after another may
# widen it (`set_tokens_limit`, from `app.scoring.memory.widen`).
TOKENS_LIMIT: Final = 4096
_tokens_limit = TOKENS_LIMIT


def tokens_limit() -> int:
    """How many tokens a tile set's memo holds at most."""
    return _tokens_limit


def set_tokens_limit(limit: int) -> None:
    """Let a tile set's memo hold `limit` tokens (at least 1); a smaller bound takes effect
    when the next token is read."""
    global _tokens_limit
    if limit < 1:
        raise ValueError(f"a memo of tokens holds at least 1, not {limit}")
    _tokens_limit = limit


# Distinct declared melds a tile set's memo holds: a few hundred (each pung, kong and chow,
# open or concealed), each written in a few ways; past the bound the memo starts again.
MELDS_LIMIT: Final = 4096


def melds_memo(tileset: TileSet) -> dict[tuple[str, str, bool], Meld]:
    """The memo of the declared melds read from `tileset`'s notation strings, (kind, tiles,
    concealed) -> the meld; its user keeps it within MELDS_LIMIT and stores only melds
    read without a fault."""
    return _grammar(tileset).melds


def read_tiles(text: str, tileset: TileSet, *, pointer: str = "") -> list[int]:
    """The tiles written in ``text``, as `parse_tiles` reads them, faster.

    A text of ASCII compact groups and one-character codes is read from the grammar's tables
    (`_read_compact`). Any other text is cut into tokens (a compact group such as ``123m``,
    or one character), each looked up in a memo of tokens already read; a token read for the
    first time is read by the scanner alone. A token the scanner refuses, a text ending in
    digits, or a character that may start a Chinese name of several characters (东风) sends
    the whole text to the scanner, which reads it in context and names the fault's position.
    """
    g = _grammar(tileset)
    compact = _read_compact(text, g)
    if compact is not None:
        return compact
    memo = g.tokens
    out: list[int] = []
    if text and text[-1] not in _DIGITS:
        for token in _tokens(text):
            tiles = memo.get(token)
            if tiles is None:
                tiles = _read_token(token, g)
                if tiles is None:
                    break
            out += tiles
        else:
            return out
    return parse_tiles(text, tileset, pointer=pointer)


def _read_compact(text: str, g: _Grammar) -> list[int] | None:
    """The tiles of a text of ASCII compact groups and one-character codes alone ("123m45pE"),
    read as `_scan` reads them, from the grammar's tables by code point; None for any other
    text (a space, a name, a character past ASCII, a fault), which the scanner reads."""
    out: list[int] = []
    suits = g.ascii_suits
    singles = g.ascii_singles
    digits_at = -1  # where the pending run of digits began, -1 when none is pending
    for i in range(len(text)):
        code = ord(text[i])
        if 48 <= code <= 57:  # "0".."9"
            if digits_at < 0:
                digits_at = i
            continue
        if code >= _ASCII:
            return None
        if digits_at >= 0:
            table = suits[code]
            if table is None:
                return None
            for k in range(digits_at, i):
                tile = table[ord(text[k]) - 48]
                if tile < 0:
                    return None
                out.append(tile)
            digits_at = -1
            continue
        tile = singles[code]
        if tile < 0:
            return None
        out.append(tile)
    return out if digits_at < 0 else None


def _tokens(text: str) -> list[str]:
    """The tokens of `text` (which does not end in a digit), in order: cut after each
    character that is not a digit (a scan, compiled: a regular expression costs more)."""
    out: list[str] = []
    start = 0
    for i in range(len(text)):
        code = ord(text[i])
        if code < 48 or code > 57:  # not "0".."9": compiled, two integer comparisons
            out.append(text[start:i + 1])
            start = i + 1
    return out


def _read_token(token: str, g: _Grammar) -> tuple[int, ...] | None:
    """One token's tiles (and remember them), or None when only the whole text can tell."""
    if token[-1] in g.words:
        return None
    tiles: list[int] = []
    try:
        _scan(token, g, "", 0, len(token), tiles, [])
    except NotationError:
        return None
    if len(g.tokens) >= _tokens_limit:
        g.tokens.clear()
    found = g.tokens[token] = tuple(tiles)
    return found


def parse_tile(text: str, tileset: TileSet, pointer: str = "") -> int:
    """Parse exactly one tile ("5m", "E", "7z", "中", "1f").

    Raises `NotationError` `invalid_notation` when the text names no tile or several.
    """
    known = _grammar(tileset).tokens.get(text)
    if known is not None and len(known) == 1:
        return known[0]
    tiles, positions = scan_tiles(text, tileset, pointer=pointer)
    if len(tiles) == 1:
        if len(text) <= 2 and text[-1] not in _DIGITS:
            _read_token(text, _grammar(tileset))
        return tiles[0]
    if not tiles:
        raise NotationError(
            Code.INVALID_NOTATION,
            f"no tile given ({text!r}): expected exactly one tile code such as 5m, E or 中",
            pointer,
            0,
        )
    raise NotationError(
        Code.INVALID_NOTATION,
        f"{text!r} names {len(tiles)} tiles; exactly one tile is expected here",
        pointer,
        positions[1],
    )


def _format(tiles: Iterable[int], tileset: TileSet) -> str:
    """Write tiles in the given order, sharing one suit letter among adjacent digits."""
    g = _grammar(tileset)
    # Read once: the grammar and the tile set are Python objects, each attribute read a
    # lookup by name.
    group_suit, group_digit = g.group_suit, g.group_digit
    parts: list[str] = []
    pending: str | None = None  # suit letter owed to the digits written so far
    for t in tiles:
        suit = group_suit[t]
        if suit is None:
            if pending is not None:
                parts.append(pending)
                pending = None
            parts.append(tileset.kinds[t].code)
            continue
        if pending is not None and pending != suit:
            parts.append(pending)
        parts.append(group_digit[t])
        pending = suit
    if pending is not None:
        parts.append(pending)
    return "".join(parts)


def format_tiles(tiles: Iterable[int], tileset: TileSet) -> str:
    """Canonical compact notation: display order (m, p, s, honours, flowers), digits grouped.

    ``[0, 1, 2, 27, 27, 27]`` -> ``"123mEEE"``. ``parse_tiles(format_tiles(x))`` gives ``x``
    sorted into display order.
    """
    # Sorted by display rank: the ranks sorted as ints and read back as tiles (a rank is one
    # tile's place in the display order) cost less than a key function called back for
    # each tile.
    rank = tileset.display_rank
    ranks = [rank[t] for t in tiles]
    ranks.sort()
    order = tileset.display_order
    return _format([order[r] for r in ranks], tileset)


def format_meld(tiles: Sequence[int], tileset: TileSet) -> str:
    """A meld (or pair, or any group) in compact notation, keeping its own tile order.

    ``"234m"``, ``"EEE"``, ``"5555s"``; a group is written as it is held, without re-sorting.
    """
    return _format(tiles, tileset)
