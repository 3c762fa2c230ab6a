"""Winning shapes: a registry of the ways a hand may be read, as rule-set YAML names them.

A shape is registered with two functions and what it supports:

- `read(standing, declared, win_tile, tileset) -> list[Reading]`: every reading of a complete
  hand in this shape; `standing` are the standing tiles (the winning tile included), counted
  and summed up part by part (`app.domain.standing.Standing`), `declared` the declared melds
  as groups (never re-split);
- `completes(before, n_melds, tileset) -> set[int]`: the tiles that make a hand one tile short
  (`before`, its standing tiles as `read` takes them, with `n_melds` declared melds) complete
  in this shape; a tile already held four times included (formal waits);
- `wilds`: `app.domain.wildcards` reads this shape in hands holding wild tiles (混).

Readings come in registration order, the special shapes before the regular one; a rule set
breaks ties between equal readings by that order and its own priorities. A new shape is one
registered function pair here and an entry under `shapes:` in a rule set.

- `seven_pairs` 七对: seven pairs; four of a kind counts as two pairs.
- `thirteen_orphans` 十三幺: one of each terminal and honour, one of them twice.
- `honors_and_knitted` 全不靠 / 七星不靠: fourteen different tiles, the numbered ones taken
  from one knitted arrangement (147, 258, 369 spread over the three suits), the rest honours.
- `knitted_straight` 组合龙: a full knitted arrangement (nine tiles) plus one set and a pair;
  the set may be a declared meld.
- `nine_gates` 九莲宝灯: 1112345678999 of one suit standing, won on any tile of that suit.
- `regular`: four sets (chows, pungs, kongs) and a pair (`app.domain.decompose`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations, product
from typing import Final

from app.domain.decompose import is_regular_complete, regular_splits, regular_waits
from app.domain.hand import KONG, Hand
from app.domain.readings import KNIT, PAIR, Group, Reading
from app.domain.standing import (
    Standing,
    layout,
    standing,
    standing_waits,
    standing_waits_less,
    without,
)
from app.domain.tiles import TileSet

REGULAR: Final = "regular"
SEVEN_PAIRS: Final = "seven_pairs"
THIRTEEN_ORPHANS: Final = "thirteen_orphans"
HONORS_AND_KNITTED: Final = "honors_and_knitted"
KNITTED_STRAIGHT: Final = "knitted_straight"
NINE_GATES: Final = "nine_gates"

# Hot-path named tuples are built with `tuple.__new__(Type, fields)`: a NamedTuple's own
# constructor runs a Python-level __new__ that costs about twice as much.
_new: Final = tuple.__new__

ReadFn = Callable[[Standing, tuple[Group, ...], int, TileSet], list[Reading]]
CompletesFn = Callable[[Standing, int, TileSet], set[int] | frozenset[int]]


@dataclass(frozen=True)
class Shape:
    name: str
    read: ReadFn
    completes: CompletesFn
    wilds: bool = False
    # A promise about `read`, kept by its own first lines and tested: it finds nothing in a
    # hand with more declared melds than `melds`, or whose standing tiles hold a number of
    # kinds outside `kinds` (least, most). `decompose` then does not ask; nor does
    # `completing_tiles` ask `completes` about a hand one short holding fewer than
    # `kinds[0] - 1` or more than `kinds[1]` kinds.
    melds: int = 4
    kinds: tuple[int, int] = (0, 34)


SHAPES: Final[dict[str, Shape]] = {}


def shape(name: str, *, completes: CompletesFn, wilds: bool = False, melds: int = 4,
          kinds: tuple[int, int] = (0, 34)) -> Callable[[ReadFn], ReadFn]:
    """Register a shape's reader under `name`, with its waits, whether wilds read it and
    the hands it can read at all (`melds`, `kinds`: see `Shape`)."""

    def register(read: ReadFn) -> ReadFn:
        if name in SHAPES:
            raise RuntimeError(f"shape {name!r} registered twice")
        SHAPES[name] = Shape(name, read, completes, wilds, melds, kinds)
        _READERS.clear()
        _COMPLETERS.clear()
        return read

    return register


# The readers `decompose` asks, by set of shapes: a table by declared melds (0..4) and kinds
# of standing tile (0..34). One table per set of shapes a rule set admits (a few); bounded
# all the same, since callers may pass any collection of shapes.
_READERS: Final[dict[frozenset[str], tuple[tuple[tuple[ReadFn, ...], ...], ...]]] = {}
_READERS_LIMIT: Final = 64


def _readers(shapes: frozenset[str], melds: int, kinds: int) -> tuple[ReadFn, ...]:
    table = _READERS.get(shapes)
    if table is None or melds > 4 or kinds > 34:
        if melds > 4 or kinds > 34:
            return tuple(s.read for s in SHAPES.values()
                         if s.name in shapes and melds <= s.melds
                         and s.kinds[0] <= kinds <= s.kinds[1])
        if len(_READERS) >= _READERS_LIMIT:
            _READERS.clear()
        table = _READERS[shapes] = tuple(
            tuple(tuple(s.read for s in SHAPES.values()
                        if s.name in shapes and m <= s.melds and s.kinds[0] <= k <= s.kinds[1])
                  for k in range(35))
            for m in range(5))
    return table[melds][kinds]


# The same for `completing_tiles` (a hand one short holds one kind fewer, or as many).
_COMPLETERS: Final[dict[frozenset[str], tuple[tuple[tuple[CompletesFn, ...], ...], ...]]] = {}


def _completers(shapes: frozenset[str], melds: int, kinds: int) -> tuple[CompletesFn, ...]:
    if melds > 4 or kinds > 34:
        return tuple(s.completes for s in SHAPES.values()
                     if s.name in shapes and melds <= s.melds
                     and s.kinds[0] - 1 <= kinds <= s.kinds[1])
    table = _COMPLETERS.get(shapes)
    if table is None:
        if len(_COMPLETERS) >= _READERS_LIMIT:
            _COMPLETERS.clear()
        table = _COMPLETERS[shapes] = tuple(
            tuple(tuple(s.completes for s in SHAPES.values()
                        if s.name in shapes and m <= s.melds
                        and s.kinds[0] - 1 <= k <= s.kinds[1])
                  for k in range(35))
            for m in range(5))
    return table[melds][kinds]


def declared_groups(hand: Hand) -> tuple[Group, ...]:
    """The declared melds as groups; a kong is concealed only when declared so."""
    return tuple([_new(Group, (m.kind, m.tiles[0], True, m.concealed and m.kind == KONG, ()))
                  for m in hand.melds])


def decompose(hand: Hand, shapes: Collection[str], tileset: TileSet,
              tiles: Standing | None = None,
              declared: tuple[Group, ...] | None = None) -> list[Reading]:
    """Every reading of a complete hand in the given shapes, in registration order.

    `tiles` may pass the standing tiles (`standing(hand.concealed, tileset)`) and `declared`
    the melds as groups (`declared_groups(hand)`) when the caller has them already.
    """
    if tiles is None:
        tiles = standing(hand.concealed, tileset)
    if type(shapes) is not frozenset:
        shapes = frozenset(shapes)
    melds = hand.melds
    if declared is None:
        declared = declared_groups(hand) if melds else ()
    table = _READERS.get(shapes)
    n, kinds = len(melds), tiles.distinct
    readers = (table[n][kinds] if table is not None and n <= 4 and kinds <= 34
               else _readers(shapes, n, kinds))
    if len(readers) == 1:
        return readers[0](tiles, declared, hand.win_tile, tileset)
    out: list[Reading] = []
    for read in readers:
        found = read(tiles, declared, hand.win_tile, tileset)
        if found:
            out += found
    return out


def completing_tiles(before: list[int] | Standing, n_melds: int, shapes: Collection[str],
                     tileset: TileSet) -> frozenset[int]:
    """Every tile that makes `before` (the standing tiles one tile short of a win, as counts
    or read part by part, with `n_melds` declared melds) a winning hand in one of `shapes`; a
    tile already held four times included."""
    if isinstance(before, list):
        before = standing([t for t, n in enumerate(before) for _ in range(n)], tileset)
    if type(shapes) is not frozenset:
        shapes = frozenset(shapes)
    found = _completers(shapes, n_melds, before.distinct)
    if len(found) == 1:
        return frozenset(found[0](before, n_melds, tileset))
    out: set[int] = set()
    for completes in found:
        out |= completes(before, n_melds, tileset)
    return frozenset(out)


def waits_alone(tiles: Standing, tile: int, n_melds: int, shapes: Collection[str],
                tileset: TileSet) -> bool:
    """Whether the standing tiles `tiles` less one `tile` (which they hold), with `n_melds`
    declared melds, wait on `tile` alone in `shapes`: `completing_tiles` of them is exactly
    {tile}. 独听 (边张, 嵌张, 单钓) asks this of a complete hand and its winning tile.

    It stops at the first other completing tile: the regular shape's waits come first, read
    part by part without building the tiles less `tile` (`standing_waits_less`); only when
    they say nothing else is another shape asked, and only the shapes whose bounds admit
    the hand one short (`Shape.melds`, `Shape.kinds`)."""
    if type(shapes) is not frozenset:
        shapes = frozenset(shapes)
    # The hand one short holds one kind fewer when `tile` was its only copy (counted in a
    # compiled loop: `count` is a method call through Python's calling protocol).
    copies = 0
    for t in tiles.ordered:
        if t == tile:
            copies += 1
    distinct = tiles.distinct - (copies == 1)
    found = _completers(shapes, n_melds, distinct)
    seen = False
    by_parts = _regular_completes in found and bool(layout(tileset).parts)
    if by_parts:
        for t in standing_waits_less(tiles, tile, tileset):
            if t != tile:
                return False
            seen = True
    before: Standing | None = None
    for completes in found:
        if by_parts and completes is _regular_completes:
            continue
        if before is None:
            before = without(tiles, tile, tileset)
        for t in completes(before, n_melds, tileset):
            if t != tile:
                return False
            seen = True
    return seen


# --- 七对 --------------------------------------------------------------------------------


def _seven_pairs_completes(tiles: Standing, n_melds: int, tileset: TileSet) -> set[int]:
    # Six pairs and a single hold at most seven kinds; the single is the wait.
    if n_melds or tiles.distinct > 7:
        return set()
    ordered = tiles.ordered
    odd = [t for t in tiles.kinds if ordered.count(t) % 2]
    return set(odd) if len(odd) == 1 else set()


@shape(SEVEN_PAIRS, completes=_seven_pairs_completes, wilds=True, melds=0, kinds=(1, 7))
def _seven_pairs(tiles: Standing, declared: tuple[Group, ...], win_tile: int,
                 tileset: TileSet) -> list[Reading]:
    if declared or tiles.size != 14 or tiles.distinct > 7 or tiles.odd:
        return []
    # Every count is even: the sorted tiles pair off in order (a kind held four times twice).
    ordered = tiles.ordered
    pairs = tuple([_new(Group, (PAIR, ordered[i], False, True, ())) for i in range(0, 14, 2)])
    return [_new(Reading, (SEVEN_PAIRS, pairs, -1, -1, ()))]


# --- 十三幺 -------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _orphans(tileset: TileSet) -> frozenset[int]:
    return frozenset(
        i for i in tileset.playing if tileset.kinds[i].is_terminal or tileset.kinds[i].is_honor
    )


def _thirteen_orphans_completes(tiles: Standing, n_melds: int,
                                tileset: TileSet) -> set[int]:
    orphans = _orphans(tileset)
    if n_melds or tiles.distinct < 12 or not tiles.kinds <= orphans:
        return set()
    before = tiles.counts
    held = [t for t, n in enumerate(before) if n]
    if not all(t in orphans for t in held):
        return set()
    missing = [t for t in orphans if not before[t]]
    if not missing:
        return set(orphans)  # all thirteen held: any of them makes the pair
    if len(missing) == 1 and len(held) == 12:
        return {missing[0]}
    return set()


@shape(THIRTEEN_ORPHANS, completes=_thirteen_orphans_completes, melds=0, kinds=(13, 13))
def _thirteen_orphans(tiles: Standing, declared: tuple[Group, ...], win_tile: int,
                      tileset: TileSet) -> list[Reading]:
    if declared or tiles.distinct != 13 or tiles.size != 14:
        return []
    return ([_new(Reading, (THIRTEEN_ORPHANS, (), -1, -1, ()))]
            if tiles.kinds == _orphans(tileset) else [])


# --- 全不靠 and 组合龙: the knitted arrangements ------------------------------------------


@lru_cache(maxsize=8)
def knitted_arrangements(tileset: TileSet) -> tuple[tuple[int, ...], ...]:
    """The six knitted arrangements: 147, 258, 369 assigned to the three suits."""
    starts = [tileset.suit_starts[s] for s in tileset.suits]
    out = []
    for perm in permutations(range(3)):
        tiles: list[int] = []
        for suit_no, offset in enumerate(perm):
            tiles.extend(starts[suit_no] + offset + k for k in (0, 3, 6))
        out.append(tuple(sorted(tiles)))
    return tuple(out)


def _honors_and_knitted_completes(tiles: Standing, n_melds: int,
                                  tileset: TileSet) -> set[int]:
    if n_melds or tiles.distinct != 13 or tiles.size != 13:
        return set()
    before = tiles.counts
    held = [t for t, n in enumerate(before) if n]
    if n_melds or len(held) != 13 or any(before[t] != 1 for t in held):
        return set()
    kinds = tileset.kinds
    numbered = {t for t in held if kinds[t].is_number}
    honours = [t for t in tileset.playing if kinds[t].is_honor]
    out: set[int] = set()
    for arr in knitted_arrangements(tileset):
        if numbered <= set(arr):
            out.update(t for t in (*arr, *honours) if not before[t])
    return out


@shape(HONORS_AND_KNITTED, completes=_honors_and_knitted_completes, melds=0, kinds=(14, 14))
def _honors_and_knitted(tiles: Standing, declared: tuple[Group, ...], win_tile: int,
                        tileset: TileSet) -> list[Reading]:
    if declared or tiles.distinct != 14 or tiles.size != 14:
        return []
    suit = tileset.suit_no
    numbered = {t for t in tiles.kinds if suit[t] >= 0}
    if any(numbered.issubset(arr) for arr in knitted_arrangements(tileset)):
        return [_new(Reading, (HONORS_AND_KNITTED, (), -1, -1, ()))]
    return []


def _knitted_straight_completes(tiles: Standing, n_melds: int,
                                tileset: TileSet) -> set[int]:
    # One tile short of an arrangement's nine: every numbered suit but one at most holds its
    # share.
    if n_melds > 1 or tiles.distinct < 8 or tiles.knits < len(layout(tileset).suits) - 1:
        return set()
    before = tiles.counts
    out: set[int] = set()
    for arr in knitted_arrangements(tileset):
        missing = [t for t in arr if not before[t]]
        if len(missing) > 1:
            continue
        rest = before[:]
        for t in arr:
            if rest[t]:
                rest[t] -= 1
        if not missing:
            out |= regular_waits(rest, tileset)
        elif is_regular_complete(rest, tileset):
            out.add(missing[0])
    return out


@shape(KNITTED_STRAIGHT, completes=_knitted_straight_completes, melds=1, kinds=(9, 14))
def _knitted_straight(tiles: Standing, declared: tuple[Group, ...], win_tile: int,
                      tileset: TileSet) -> list[Reading]:
    # Each numbered suit holds its share of the arrangement (147, 258 or 369).
    # Nine kinds at least, and a pair among them (no pair: every kind held once).
    if (len(declared) > 1 or tiles.distinct < 9 or tiles.distinct == tiles.size
            or tiles.knits < len(layout(tileset).suits)):
        return []
    out = []
    kinds = tiles.kinds
    for arr in knitted_arrangements(tileset):
        if not kinds.issuperset(arr):
            continue
        rest = list(tiles.ordered)
        for t in arr:
            rest.remove(t)
        splits: list[list[Group]]
        if len(rest) == 2:
            # Beside a declared meld only the pair is left.
            if rest[0] != rest[1]:
                continue
            splits = [[_new(Group, (PAIR, rest[0], False, True, ()))]]
        else:
            counts = [0] * len(tileset.kinds)
            for t in rest:
                counts[t] += 1
            splits = regular_splits(counts, tileset)
            if len(splits) != 1:
                continue
        # Each suit's three knitted tiles (147, 258 or 369) make one knit, headed by its lowest;
        # `arr` is sorted and each suit is a contiguous run, so the heads are every third tile.
        knits = tuple([_new(Group, (KNIT, t, False, True, ())) for t in arr[::3]])
        out.append(_new(Reading, (KNITTED_STRAIGHT, declared + knits + tuple(splits[0]), -1,
                                  -1, ())))
    return out


# --- 九莲宝灯 ------------------------------------------------------------------------------

_NINE_GATES: Final = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _nine_gates_completes(tiles: Standing, n_melds: int, tileset: TileSet) -> set[int]:
    # 1112345678999 of one suit standing waits on every tile of that suit.
    if n_melds or tiles.size != 13 or tiles.distinct != 9:
        return set()
    before = tiles.counts
    for start in tileset.suit_starts.values():
        if tuple(before[start:start + 9]) == _NINE_GATES:
            return set(range(start, start + 9))
    return set()


@shape(NINE_GATES, completes=_nine_gates_completes, melds=0, kinds=(9, 9))
def _nine_gates(tiles: Standing, declared: tuple[Group, ...], win_tile: int,
                tileset: TileSet) -> list[Reading]:
    # Fourteen tiles of one category (its bit alone), nine kinds.
    categories = tiles.categories
    if (declared or tiles.size != 14 or tiles.distinct != 9
            or categories & (categories - 1)):
        return []
    kind = tileset.kinds[win_tile]
    if not kind.is_number:
        return []
    start = tileset.suit_starts[kind.suit]
    counts = tiles.counts
    before = counts[:]
    before[win_tile] -= 1
    if tuple(before[start:start + 9]) != _NINE_GATES or sum(before) != 13:
        return []
    return [Reading(NINE_GATES, tuple(regular_splits(counts, tileset)[0]))]


# --- four sets and a pair ----------------------------------------------------------------


def _regular_completes(tiles: Standing, n_melds: int,
                       tileset: TileSet) -> set[int] | frozenset[int]:
    if not layout(tileset).parts:
        return regular_waits(tiles.counts, tileset)
    return standing_waits(tiles)


@shape(REGULAR, completes=_regular_completes, wilds=True)
def _regular(tiles: Standing, declared: tuple[Group, ...], win_tile: int,
             tileset: TileSet) -> list[Reading]:
    cuts = tiles.cuts
    if cuts is None:
        if layout(tileset).parts:
            return []
        # A tile set whose parts do not lay end to end: read by counts.
        return [Reading(REGULAR, declared + tuple(split))
                for split in regular_splits(tiles.counts, tileset)]
    # The product of the parts' cuts (the order of `regular_splits`), each reading with its
    # pieces.
    out = []
    for combo in product(*cuts):
        groups = declared
        for piece in combo:
            groups += piece.groups
        out.append(_new(Reading, (REGULAR, groups, -1, -1, combo)))
    return out
