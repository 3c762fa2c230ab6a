"""All decompositions (readings) of a winning hand.

A reading splits the whole hand into groups: the declared melds as given (never re-split),
and the standing tiles split into chows, pungs and one pair (the regular shape), or one of the
special shapes a rule set admits:

- `seven_pairs` 七对: seven pairs; four of a kind counts as two pairs.
- `thirteen_orphans` 十三幺: one of each terminal and honour, one of them twice.
- `honors_and_knitted` 全不靠 / 七星不靠: fourteen different tiles, the numbered ones taken
  from one knitted arrangement (147, 258, 369 spread over the three suits), the rest honours.
- `knitted_straight` 组合龙: a full knitted arrangement (nine tiles) plus one set and a pair;
  the set may be a declared meld.
- `nine_gates` 九莲宝灯: 1112345678999 of one suit standing, won on any tile of that suit.

The regular split is memoised per suit: a suit's nine counts map to every way of cutting them
into sets and at most one pair, so a hand is the product of its suits' splits. Honours split
trivially (a pair or a pung each).

Hands holding wild tiles (混) are read by `app.domain.wildcards`, which builds the same
`Reading`s with each group's `subs` (what its wilds stand for) and the winning tile's place.
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import permutations, product
from typing import NamedTuple

from app.domain.hand import CHOW, KONG, PUNG, Hand
from app.domain.tiles import TileSet

PAIR = "pair"
KNIT = "knit"  # three tiles of one suit three apart (147, 258, 369) in a knitted straight

REGULAR = "regular"
SEVEN_PAIRS = "seven_pairs"
THIRTEEN_ORPHANS = "thirteen_orphans"
HONORS_AND_KNITTED = "honors_and_knitted"
KNITTED_STRAIGHT = "knitted_straight"
NINE_GATES = "nine_gates"
SHAPES = (REGULAR, SEVEN_PAIRS, THIRTEEN_ORPHANS, HONORS_AND_KNITTED, KNITTED_STRAIGHT,
          NINE_GATES)


class Group(NamedTuple):
    """One group of a reading. `tile` is the lowest tile (a chow's first, a knit's first)."""

    kind: str  # chow, pung, kong, pair, knit
    tile: int
    declared: bool = False
    # For pungs and kongs: concealed (暗) before the winning tile is considered; a declared
    # kong is concealed only when declared so. Chows, pairs and knits from the standing tiles
    # are concealed too.
    concealed: bool = True
    # The tiles this group's wild tiles (混) stand for, sorted; () when it holds none.
    subs: tuple[int, ...] = ()


class Reading(NamedTuple):
    """One way to read the whole hand."""

    shape: str
    groups: tuple[Group, ...]  # declared melds first, then the standing groups in tile order
    # Readings of a hand with wild tiles say where the winning tile sits: the index of its
    # group and the tile it is read as (itself, unless it is a wild). -1: not designated (a
    # hand without wilds: the checks find the winning tile's place themselves).
    win: int = -1
    win_as: int = -1


# A suit split: the sets (kind, rank index 0..8) and the pair's rank index or -1.
SuitSplit = tuple[tuple[tuple[str, int], ...], int]


@cache
def suit_splits(counts: tuple[int, ...]) -> tuple[SuitSplit, ...]:
    """Every way to cut one suit's nine counts into pungs, chows and at most one pair.

    A suit holding 3n tiles has no pair; 3n+2 has exactly one; 3n+1 cannot be split.
    Splits come in a fixed order: at the lowest remaining rank, pung before chow before pair.
    """
    n = sum(counts)
    if n % 3 == 1:
        return ()
    # Taking the pair before or after a set at the same rank reaches the same split twice;
    # keep each distinct split once, in the order first found.
    unique: dict[SuitSplit, None] = {}
    for sets, pair in _split(list(counts), n % 3 == 2):
        unique.setdefault((tuple(sorted(sets, key=lambda s: (s[1], s[0] != "pung"))), pair))
    return tuple(unique)


def _split(c: list[int], need_pair: bool) -> list[SuitSplit]:
    i = 0
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        return [((), -1)] if not need_pair else []
    out: list[SuitSplit] = []
    if c[i] >= 3:
        c[i] -= 3
        for sets, pair in _split(c, need_pair):
            out.append(((("pung", i), *sets), pair))
        c[i] += 3
    if i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        for sets, pair in _split(c, need_pair):
            out.append(((("chow", i), *sets), pair))
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
    if need_pair and c[i] >= 2:
        c[i] -= 2
        for sets, _ in _split(c, False):
            out.append((sets, i))
        c[i] += 2
    return out


@cache
def suit_complete(counts: tuple[int, ...]) -> bool:
    """Whether one suit's counts split into sets and at most one pair (used for waits)."""
    return bool(suit_splits(counts))


def counts_of(tiles: tuple[int, ...] | list[int], size: int) -> list[int]:
    c = [0] * size
    for t in tiles:
        c[t] += 1
    return c


def regular_splits(counts: list[int], tileset: TileSet) -> list[list[Group]]:
    """Every regular split of standing-tile counts into sets and exactly one pair."""
    per_part: list[tuple[tuple[Group, ...], ...]] = []
    pairs_seen = 0
    for start in _suit_run_starts(tileset):
        part = tuple(counts[start:start + 9])
        if not any(part):
            continue
        options, has_pair = _suit_groups(start, part)
        if not options:
            return []
        pairs_seen += has_pair
        per_part.append(options)
    honours: list[Group] = []
    for t in _honour_tiles(tileset):
        n = counts[t]
        if n == 0:
            continue
        if n == 3:
            honours.append(Group(PUNG, t))
        elif n == 2:
            honours.append(Group(PAIR, t))
            pairs_seen += 1
        else:
            return []
    if pairs_seen != 1:
        return []
    if len(per_part) == 1:
        return [[*opt, *honours] for opt in per_part[0]]
    return [[g for part in combo for g in part] + honours for combo in product(*per_part)]


@cache
def _suit_groups(start: int, part: tuple[int, ...]) -> tuple[tuple[tuple[Group, ...], ...], int]:
    """A suit's splits as ready-made groups (memoised), and 1 if they hold the pair."""
    splits = suit_splits(part)
    options = []
    for sets, pair in splits:
        groups = [Group(kind, start + r) for kind, r in sets]
        if pair >= 0:
            groups.append(Group(PAIR, start + pair))
        options.append(tuple(groups))
    return tuple(options), 1 if splits and splits[0][1] >= 0 else 0


@lru_cache(maxsize=8)
def _suit_run_starts(tileset: TileSet) -> tuple[int, ...]:
    return tuple(tileset.suit_starts[s] for s in tileset.suits)


@lru_cache(maxsize=8)
def _honour_tiles(tileset: TileSet) -> tuple[int, ...]:
    return tuple(t for t in tileset.playing if tileset.kinds[t].is_honor)


def is_regular_complete(counts: list[int], tileset: TileSet) -> bool:
    """Whether counts split into sets plus exactly one pair (no enumeration)."""
    pairs = 0
    for start in _suit_run_starts(tileset):
        part = tuple(counts[start:start + 9])
        n = sum(part)
        if n == 0:
            continue
        if n % 3 == 1 or not suit_complete(part):
            return False
        if n % 3 == 2:
            pairs += 1
    for t in _honour_tiles(tileset):
        n = counts[t]
        if n == 2:
            pairs += 1
        elif n not in (0, 3):
            return False
    return pairs == 1


@cache
def _part_ranks(seg: tuple[int, ...]) -> tuple[bool, frozenset[int]]:
    """For one part of the hand (a numbered suit's nine counts, or one honour's count):
    whether it splits as it is, and the positions whose one extra tile would make it split."""
    if len(seg) == 1:
        c = seg[0]
        return c in (0, 2, 3), frozenset({0} if c + 1 in (2, 3) else ())
    complete = bool(suit_splits(seg))
    adds = set()
    for r in range(9):
        if (r > 0 and seg[r - 1]) or seg[r] or (r < 8 and seg[r + 1]) or (
                r > 1 and seg[r - 2]) or (r < 7 and seg[r + 2]):
            grown = (*seg[:r], seg[r] + 1, *seg[r + 1:])
            if suit_splits(grown):
                adds.add(r)
    return complete, frozenset(adds)


def regular_waits(counts: list[int], tileset: TileSet) -> set[int]:
    """Tiles that complete `counts` (one tile short) into sets plus one pair.

    A part's tile count modulo 3 says its role: in a complete hand every part holds 3n tiles
    but the one holding the pair (3n+2). So a waiting hand has either one part at 3n+1 (the
    wait is there, and it becomes the pair part) or two parts at 3n+2 (the wait is in one,
    the other keeps the pair); every other part must already be complete.
    """
    info = []
    for start in _suit_run_starts(tileset):
        seg = tuple(counts[start:start + 9])
        n = sum(seg)
        if n:
            info.append((start, seg, n % 3))
    for t in _honour_tiles(tileset):
        n = counts[t]
        if n:
            info.append((t, (n,), n % 3))
    ones = [p for p in info if p[2] == 1]
    twos = [p for p in info if p[2] == 2]
    if len(ones) == 1 and not twos:
        targets = ones
    elif len(twos) == 2 and not ones:
        targets = twos
    else:
        return set()
    out: set[int] = set()
    for start, seg, _ in targets:
        if all(_part_ranks(other)[0] for st, other, _ in info if st != start):
            out.update(start + r for r in _part_ranks(seg)[1])
    return out


def special_waits(counts: list[int], n_melds: int, shapes: frozenset[str],
                  tileset: TileSet) -> set[int]:
    """Tiles that complete `counts` (one tile short) into 十三幺 or a knitted shape."""
    out: set[int] = set()
    # Each of these shapes needs many different tiles: skip the work for ordinary hands.
    if len(counts) - counts.count(0) < 8:
        return out
    held = [t for t, n in enumerate(counts) if n]
    if n_melds == 0 and THIRTEEN_ORPHANS in shapes and len(held) >= 12:
        orphans = _orphans(tileset)
        if all(t in orphans for t in held):
            missing = [t for t in orphans if not counts[t]]
            if not missing:
                out |= orphans  # all thirteen held: any of them makes the pair
            elif len(missing) == 1 and len(held) == 12:
                out.add(missing[0])
    arrangements = knitted_arrangements(tileset)
    if (n_melds == 0 and HONORS_AND_KNITTED in shapes and len(held) == 13
            and all(counts[t] == 1 for t in held)):
        kinds = tileset.kinds
        numbered = {t for t in held if kinds[t].is_number}
        honours = [t for t in tileset.playing if kinds[t].is_honor]
        for arr in arrangements:
            if numbered <= set(arr):
                out.update(t for t in (*arr, *honours) if not counts[t])
    if KNITTED_STRAIGHT in shapes and n_melds <= 1:
        for arr in arrangements:
            missing = [t for t in arr if not counts[t]]
            if len(missing) > 1:
                continue
            rest = counts[:]
            for t in arr:
                if rest[t]:
                    rest[t] -= 1
            if not missing:
                out |= regular_waits(rest, tileset)
            elif is_regular_complete(rest, tileset):
                out.add(missing[0])
    return out


def knitted_arrangements(tileset: TileSet) -> tuple[tuple[int, ...], ...]:
    """The six knitted arrangements: 147, 258, 369 assigned to the three suits."""
    return _knitted(tileset)


@lru_cache(maxsize=8)
def _knitted(tileset: TileSet) -> tuple[tuple[int, ...], ...]:
    starts = [tileset.suit_starts[s] for s in tileset.suits]
    out = []
    for perm in permutations(range(3)):
        tiles: list[int] = []
        for suit_no, offset in enumerate(perm):
            tiles.extend(starts[suit_no] + offset + k for k in (0, 3, 6))
        out.append(tuple(sorted(tiles)))
    return tuple(out)


def decompose(hand: Hand, shapes: frozenset[str], tileset: TileSet,
              counts: list[int] | None = None) -> list[Reading]:
    """Every reading of a complete hand in the given shapes, special shapes first.

    `counts` may pass the standing tiles' counts when the caller has them already.
    """
    declared = tuple(
        Group(m.kind, m.tiles[0], True, m.concealed and m.kind == KONG) for m in hand.melds
    )
    if counts is None:
        counts = counts_of(hand.concealed, tileset.size)
    out: list[Reading] = []
    # Distinct kinds held: a cheap filter, since every special shape but 七对 needs many.
    distinct = len(counts) - counts.count(0)
    if not declared:
        if SEVEN_PAIRS in shapes and _is_seven_pairs(counts):
            pairs = []
            for t, n in enumerate(counts):
                pairs.extend([Group(PAIR, t)] * (n // 2))
            out.append(Reading(SEVEN_PAIRS, tuple(pairs)))
        if distinct == 13 and THIRTEEN_ORPHANS in shapes and _is_thirteen_orphans(counts,
                                                                                    tileset):
            out.append(Reading(THIRTEEN_ORPHANS, ()))
        if distinct == 14 and HONORS_AND_KNITTED in shapes and _is_honors_and_knitted(
                counts, tileset):
            out.append(Reading(HONORS_AND_KNITTED, ()))
    if distinct >= 9 and KNITTED_STRAIGHT in shapes and len(declared) <= 1:
        out.extend(_knitted_straight(counts, declared, tileset))
    if NINE_GATES in shapes and not declared:
        ng = _nine_gates(counts, hand.win_tile, tileset)
        if ng is not None:
            out.append(ng)
    if REGULAR in shapes:
        for split in regular_splits(counts, tileset):
            out.append(Reading(REGULAR, declared + tuple(split)))
    return out


def _is_seven_pairs(counts: list[int]) -> bool:
    return sum(counts) == 14 and all(n % 2 == 0 for n in counts)


@lru_cache(maxsize=8)
def _orphans(tileset: TileSet) -> frozenset[int]:
    return frozenset(
        i for i in tileset.playing if tileset.kinds[i].is_terminal or tileset.kinds[i].is_honor
    )


def _is_thirteen_orphans(counts: list[int], tileset: TileSet) -> bool:
    held = {t for t, n in enumerate(counts) if n}
    return sum(counts) == 14 and held == _orphans(tileset)


def _is_honors_and_knitted(counts: list[int], tileset: TileSet) -> bool:
    if sum(counts) != 14 or any(n > 1 for n in counts):
        return False
    numbered = {t for t, n in enumerate(counts) if n and tileset.kinds[t].is_number}
    return any(numbered <= set(arr) for arr in knitted_arrangements(tileset))


def _knitted_straight(
    counts: list[int], declared: tuple[Group, ...], tileset: TileSet
) -> list[Reading]:
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


def _nine_gates(counts: list[int], win_tile: int, tileset: TileSet) -> Reading | None:
    kind = tileset.kinds[win_tile]
    if not kind.is_number:
        return None
    start = tileset.suit_starts[kind.suit]
    before = counts[:]
    before[win_tile] -= 1
    pattern = (3, 1, 1, 1, 1, 1, 1, 1, 3)
    if tuple(before[start:start + 9]) != pattern or sum(before) != 13:
        return None
    split = regular_splits(counts, tileset)
    return Reading(NINE_GATES, tuple(split[0]))


__all__ = [
    "CHOW", "HONORS_AND_KNITTED", "KNIT", "KNITTED_STRAIGHT", "KONG", "NINE_GATES", "PAIR",
    "PUNG", "REGULAR", "SEVEN_PAIRS", "SHAPES", "THIRTEEN_ORPHANS", "Group", "Reading",
    "decompose", "is_regular_complete", "regular_splits", "suit_splits",
]
