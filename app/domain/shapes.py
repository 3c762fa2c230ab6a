"""Winning shapes: a registry of the ways a hand may be read, as rule-set YAML names them.

A shape is registered with two functions and what it supports:

- `read(counts, declared, win_tile, tileset) -> list[Reading]`: every reading of a complete
  hand in this shape; `counts` are the standing tiles' counts (the winning tile included),
  `declared` the declared melds as groups (never re-split);
- `completes(before, n_melds, tileset) -> set[int]`: the tiles that make a hand one tile short
  (`before`, with `n_melds` declared melds) complete in this shape; a tile already held four
  times included (formal waits);
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
from itertools import permutations

from app.domain.decompose import (
    KNIT,
    PAIR,
    Group,
    Reading,
    counts_of,
    is_regular_complete,
    regular_splits,
    regular_waits,
)
from app.domain.hand import KONG, Hand
from app.domain.tiles import TileSet

REGULAR = "regular"
SEVEN_PAIRS = "seven_pairs"
THIRTEEN_ORPHANS = "thirteen_orphans"
HONORS_AND_KNITTED = "honors_and_knitted"
KNITTED_STRAIGHT = "knitted_straight"
NINE_GATES = "nine_gates"

ReadFn = Callable[[list[int], tuple[Group, ...], int, TileSet], list[Reading]]
CompletesFn = Callable[[list[int], int, TileSet], set[int]]


@dataclass(frozen=True)
class Shape:
    name: str
    read: ReadFn
    completes: CompletesFn
    wilds: bool = False


SHAPES: dict[str, Shape] = {}


def shape(name: str, *, completes: CompletesFn,
          wilds: bool = False) -> Callable[[ReadFn], ReadFn]:
    """Register a shape's reader under `name`, with its waits and whether wilds read it."""

    def register(read: ReadFn) -> ReadFn:
        if name in SHAPES:
            raise RuntimeError(f"shape {name!r} registered twice")
        SHAPES[name] = Shape(name, read, completes, wilds)
        return read

    return register


def declared_groups(hand: Hand) -> tuple[Group, ...]:
    """The declared melds as groups; a kong is concealed only when declared so."""
    return tuple(Group(m.kind, m.tiles[0], True, m.concealed and m.kind == KONG)
                 for m in hand.melds)


def decompose(hand: Hand, shapes: Collection[str], tileset: TileSet,
              counts: list[int] | None = None) -> list[Reading]:
    """Every reading of a complete hand in the given shapes, in registration order.

    `counts` may pass the standing tiles' counts when the caller has them already.
    """
    if counts is None:
        counts = counts_of(hand.concealed, tileset.size)
    declared = declared_groups(hand)
    out: list[Reading] = []
    for s in SHAPES.values():
        if s.name in shapes:
            out += s.read(counts, declared, hand.win_tile, tileset)
    return out


def completing_tiles(before: list[int], n_melds: int, shapes: Collection[str],
                     tileset: TileSet) -> frozenset[int]:
    """Every tile that makes `before` (counts one tile short of a win, with `n_melds`
    declared melds) a winning hand in one of `shapes`; a tile already held four times
    included."""
    out: set[int] = set()
    for s in SHAPES.values():
        if s.name in shapes:
            out |= s.completes(before, n_melds, tileset)
    return frozenset(out)


def _distinct(counts: list[int]) -> int:
    return len(counts) - counts.count(0)


# --- 七对 --------------------------------------------------------------------------------


def _seven_pairs_completes(before: list[int], n_melds: int, tileset: TileSet) -> set[int]:
    # Six pairs and a single hold at most seven kinds; the single is the wait.
    if n_melds or _distinct(before) > 7:
        return set()
    odd = [t for t, n in enumerate(before) if n % 2]
    return set(odd) if len(odd) == 1 else set()


@shape(SEVEN_PAIRS, completes=_seven_pairs_completes, wilds=True)
def _seven_pairs(counts: list[int], declared: tuple[Group, ...], win_tile: int,
                 tileset: TileSet) -> list[Reading]:
    if declared or counts.count(1) or counts.count(3) or sum(counts) != 14:
        return []
    pairs: list[Group] = []
    for t, n in enumerate(counts):
        if n:
            pairs += [Group(PAIR, t)] * (n // 2)
    return [Reading(SEVEN_PAIRS, tuple(pairs))]


# --- 十三幺 -------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _orphans(tileset: TileSet) -> frozenset[int]:
    return frozenset(
        i for i in tileset.playing if tileset.kinds[i].is_terminal or tileset.kinds[i].is_honor
    )


def _thirteen_orphans_completes(before: list[int], n_melds: int,
                                tileset: TileSet) -> set[int]:
    if n_melds or _distinct(before) < 12:
        return set()
    orphans = _orphans(tileset)
    held = [t for t, n in enumerate(before) if n]
    if not all(t in orphans for t in held):
        return set()
    missing = [t for t in orphans if not before[t]]
    if not missing:
        return set(orphans)  # all thirteen held: any of them makes the pair
    if len(missing) == 1 and len(held) == 12:
        return {missing[0]}
    return set()


@shape(THIRTEEN_ORPHANS, completes=_thirteen_orphans_completes)
def _thirteen_orphans(counts: list[int], declared: tuple[Group, ...], win_tile: int,
                      tileset: TileSet) -> list[Reading]:
    if declared or _distinct(counts) != 13 or sum(counts) != 14:
        return []
    held = {t for t, n in enumerate(counts) if n}
    return [Reading(THIRTEEN_ORPHANS, ())] if held == _orphans(tileset) else []


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


def _honors_and_knitted_completes(before: list[int], n_melds: int,
                                  tileset: TileSet) -> set[int]:
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


@shape(HONORS_AND_KNITTED, completes=_honors_and_knitted_completes)
def _honors_and_knitted(counts: list[int], declared: tuple[Group, ...], win_tile: int,
                        tileset: TileSet) -> list[Reading]:
    if declared or _distinct(counts) != 14 or sum(counts) != 14:
        return []
    numbered = {t for t, n in enumerate(counts) if n and tileset.kinds[t].is_number}
    if any(numbered <= set(arr) for arr in knitted_arrangements(tileset)):
        return [Reading(HONORS_AND_KNITTED, ())]
    return []


def _knitted_straight_completes(before: list[int], n_melds: int,
                                tileset: TileSet) -> set[int]:
    if n_melds > 1 or _distinct(before) < 8:
        return set()
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


@shape(KNITTED_STRAIGHT, completes=_knitted_straight_completes)
def _knitted_straight(counts: list[int], declared: tuple[Group, ...], win_tile: int,
                      tileset: TileSet) -> list[Reading]:
    if len(declared) > 1 or _distinct(counts) < 9:
        return []
    out = []
    held = counts.__getitem__
    for arr in knitted_arrangements(tileset):
        if 0 in map(held, arr):
            continue
        rest = counts[:]
        for t in arr:
            rest[t] -= 1
        splits = regular_splits(rest, tileset)
        if len(splits) != 1:
            continue
        # Each suit's three knitted tiles (147, 258 or 369) make one knit, headed by its lowest;
        # `arr` is sorted and each suit is a contiguous run, so the heads are every third tile.
        knits = tuple(Group(KNIT, t) for t in arr[::3])
        out.append(Reading(KNITTED_STRAIGHT, declared + knits + tuple(splits[0])))
    return out


# --- 九莲宝灯 ------------------------------------------------------------------------------

_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _nine_gates_completes(before: list[int], n_melds: int, tileset: TileSet) -> set[int]:
    # 1112345678999 of one suit standing waits on every tile of that suit.
    if n_melds or sum(before) != 13:
        return set()
    for start in tileset.suit_starts.values():
        if tuple(before[start:start + 9]) == _NINE_GATES:
            return set(range(start, start + 9))
    return set()


@shape(NINE_GATES, completes=_nine_gates_completes)
def _nine_gates(counts: list[int], declared: tuple[Group, ...], win_tile: int,
                tileset: TileSet) -> list[Reading]:
    kind = tileset.kinds[win_tile]
    if declared or not kind.is_number:
        return []
    start = tileset.suit_starts[kind.suit]
    before = counts[:]
    before[win_tile] -= 1
    if tuple(before[start:start + 9]) != _NINE_GATES or sum(before) != 13:
        return []
    return [Reading(NINE_GATES, tuple(regular_splits(counts, tileset)[0]))]


# --- four sets and a pair ----------------------------------------------------------------


def _regular_completes(before: list[int], n_melds: int, tileset: TileSet) -> set[int]:
    return regular_waits(before, tileset)


@shape(REGULAR, completes=_regular_completes, wilds=True)
def _regular(counts: list[int], declared: tuple[Group, ...], win_tile: int,
             tileset: TileSet) -> list[Reading]:
    return [Reading(REGULAR, declared + tuple(split))
            for split in regular_splits(counts, tileset)]
