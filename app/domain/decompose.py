"""The regular split of standing tiles into sets and a pair, and its waits.

The regular split is memoised per suit: a suit's nine counts map to every way of cutting them
into sets and at most one pair, so a hand is the product of its suits' splits. Honours split
trivially (a pair or a pung each). `regular_splits` and `is_regular_complete` read a hand's
counts, `regular_waits` the tiles that complete a hand one tile short; the standing tiles read
part by part (`app.domain.standing`) build on the same suit splits.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Final

from app.domain.hand import PUNG
from app.domain.readings import PAIR, Group, shared_group
from app.domain.tiles import TileSet

# A suit split: the sets (kind, rank index 0..8) and the pair's rank index or -1.
SuitSplit = tuple[tuple[tuple[str, int], ...], int]


# Bounds of the memos of suit patterns (see `app.scoring.memory` for how they were chosen):
# since parts are kept whole (`app.domain.standing.Part`), these are asked only when a new
# part is read, and by `regular_splits` and `regular_waits`. On bench/memory.py's mix they
# hit little at any size, so the smaller bound costs a negligible share of the scoring time
# in misses and holds less memory (the figures: bench/README.md, `memory.py`).
SPLITS_LIMIT: Final = 1024


@lru_cache(maxsize=SPLITS_LIMIT)
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


def _sets_only(c: list[int]) -> bool:
    """Whether nine counts split into pungs and chows alone, read rank by rank from the lowest.

    Three chows from one rank hold the same tiles as three pungs, so if the counts split at
    all, some split begins fewer than three chows at each rank. Then, rank by rank, the
    chows begun at a rank are what is left of its count after the chows running through it
    from the two ranks below, modulo 3, and the rest are pungs: one split to try, none
    enumerated.
    """
    one = two = 0  # chows begun one and two ranks below, still to take a tile here
    for r in range(9):
        left = c[r] - one - two
        if left < 0:
            return False
        two = one
        one = left % 3
    return one == 0 and two == 0


def suit_complete(counts: tuple[int, ...] | list[int]) -> bool:
    """Whether one suit's counts split into sets and at most one pair: a pair exactly when
    they hold 3n+2 tiles, none at 3n, never at 3n+1 (the same answer as
    `bool(suit_splits(counts))`, without enumerating the splits)."""
    c = list(counts)
    n = weight = 0
    for r in range(9):
        n += c[r]
        weight += r * c[r]
    return _whole(c, n, weight)


def _whole(c: list[int], n: int, weight: int) -> bool:
    """`suit_complete` of nine counts `c` (a list, restored before returning) holding `n`
    tiles, `weight` their sum(rank * count). Compiled, a list's items are read directly,
    where a union of tuple and list is read through the generic protocol; `part_ranks` asks
    it up to ten times a part, carrying `n` and `weight` along."""
    if n % 3 == 1:
        return False
    if n % 3 == 0:
        return _sets_only(c)
    # A pung at rank r and a chow from r each weigh 0 modulo 3 in sum(rank * count), so
    # the pair's rank p has 2p = that sum modulo 3: only ranks of that residue can hold it.
    for r in range(2 * weight % 3, 9, 3):
        if c[r] >= 2:
            c[r] -= 2
            whole = _sets_only(c)
            c[r] += 2
            if whole:
                return True
    return False


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


@lru_cache(maxsize=1024)  # one entry per suit pattern regular_splits reads
def _suit_groups(start: int, part: tuple[int, ...]) -> tuple[tuple[tuple[Group, ...], ...], int]:
    """A suit's splits as ready-made groups (memoised), and 1 if they hold the pair."""
    splits = suit_splits(part)
    options = []
    for sets, pair in splits:
        groups = [shared_group(kind, start + r) for kind, r in sets]
        if pair >= 0:
            groups.append(shared_group(PAIR, start + pair))
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


# Every set of positions in a part (0..8) as a frozenset, by bitmask: `part_ranks` hands out
# these instead of a new frozenset per pattern (one fewer object in each of its entries), and
# `app.domain.standing` shares segments by them. A table made once at import (512 sets),
# shared by the workers of a preloaded master.
RANK_SETS: Final[tuple[frozenset[int], ...]] = tuple(
    frozenset(r for r in range(9) if mask >> r & 1) for mask in range(512))


@lru_cache(maxsize=SPLITS_LIMIT)
def part_ranks(seg: tuple[int, ...]) -> tuple[bool, frozenset[int]]:
    """For one part of the hand (a numbered suit's nine counts, or one honour's count):
    whether it splits as it is, and the positions whose one extra tile would make it split."""
    if len(seg) == 1:
        c = seg[0]
        return c in (0, 2, 3), RANK_SETS[1 if c + 1 in (2, 3) else 0]
    grown = list(seg)
    n = 0
    weight = 0  # sum(rank * count), which places the pair (`suit_complete`)
    for r in range(9):
        n += grown[r]
        weight += r * grown[r]
    complete = _whole(grown, n, weight)
    adds = 0
    for r in range(9):
        if (r > 0 and seg[r - 1]) or seg[r] or (r < 8 and seg[r + 1]) or (
                r > 1 and seg[r - 2]) or (r < 7 and seg[r + 2]):
            grown[r] += 1
            if _whole(grown, n + 1, weight + r):
                adds |= 1 << r
            grown[r] -= 1
    return complete, RANK_SETS[adds]


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
        if all(part_ranks(other)[0] for st, other, _ in info if st != start):
            out.update(start + r for r in part_ranks(seg)[1])
    return out
