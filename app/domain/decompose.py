"""Readings of a hand: groups, and the regular split of standing tiles into sets and a pair.

A reading splits the whole hand into groups: the declared melds as given (never re-split),
and the standing tiles cut into chows, pungs and one pair (the regular shape) or as a special
shape reads them (`app.domain.shapes`, the registry of shapes).

The regular split is memoised per suit: a suit's nine counts map to every way of cutting them
into sets and at most one pair, so a hand is the product of its suits' splits. Honours split
trivially (a pair or a pung each).

Hands holding wild tiles (混) are read by `app.domain.wildcards`, which builds the same
`Reading`s with each group's `subs` (what its wilds stand for) and the winning tile's place.
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import product
from typing import NamedTuple

from app.domain.hand import PUNG
from app.domain.tiles import TileSet

PAIR = "pair"
KNIT = "knit"  # three tiles of one suit three apart (147, 258, 369) in a knitted straight



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
