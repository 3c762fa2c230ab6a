"""Shanten (向听数): how far a hand is from a win, on tile counts, for every winning shape.

Everything here is counted as a *need*: the fewest tiles that must be added to the tiles a
hand keeps to make a complete hand of fourteen (declared melds counted as three). A hand
of thirteen (one short) or fourteen standing tiles is `need - 1` from a win: every tile
added beyond what it keeps takes the place of one it does not keep, so a hand needing one
tile is ready (听, shanten 0), and a complete hand needs none (shanten -1). The same count
serves both sizes.

The counts given here are the *usable* standing tiles only: wild tiles (混) are taken out
first, each fills one needed tile whatever it is, so a hand with `w` wilds needs
`need - w` (`shanten_of`); tiles the hand may not win with (a void suit, 定缺) are taken out
as well and simply never kept. Copies left in the wall are not counted: a wait on a kind the
hand already holds four of still counts as a wait, as the scoring engine's formal waits do;
the caller (`app.scoring.analysis`) leaves such tiles out of the useful ones.

The regular shape (four sets and a pair) is read part by part: each numbered suit and the
honours are split on their own into sets, partial sets (two tiles one away from a set) and
at most one pair kept as the head, and a part's answer is the list of its best
(sets, partials, head) triples (`part_front`), memoised on the part's counts. Adding or
taking one tile touches one part only, so the probes of a useful-tile search (one per kind)
and the discards of a fourteen-tile hand redo one small lookup each
(`RegularHand.need_with`). The triples are combined by `regular_need_of`:

    need = 3·b + 2·h + t - min(L, b + h)

with `t` partials (at most as many as blocks still missing), `b` blocks still missing, `h`
1 without a head, and `L` tiles kept in no group: each can seed a missing set (two more
tiles instead of three) or the head (one more instead of two). More sets, partials or a
head never need more, so dominated triples are dropped.

Special shapes have their own counts (`SHAPE_NEEDS`, by the shape names of
`app.domain.shapes`): 七对 (a four of a kind is two pairs, as the reader has it), 十三幺,
全不靠, 组合龙 (the nine knitted tiles, then one set and a pair read as the regular shape)
and 九莲宝灯. A rule set may only name shapes that have one (the loader refuses others).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from operator import itemgetter
from typing import Final

from app.domain.shapes import (
    HONORS_AND_KNITTED,
    KNITTED_STRAIGHT,
    NINE_GATES,
    REGULAR,
    SEVEN_PAIRS,
    THIRTEEN_ORPHANS,
    knitted_arrangements,
)
from app.domain.tiles import TileSet

# A need no hand can reach: the shape cannot be made at all (七对 with a declared meld).
IMPOSSIBLE: Final = 99

# (sets, partials, head) of a part of the hand; a part's answer is its undominated triples.
Triple = tuple[int, int, int]
Front = tuple[Triple, ...]

NeedFn = Callable[[Sequence[int], int, TileSet], int]


# --- the parts of a tile set --------------------------------------------------------------


@lru_cache(maxsize=8)
def parts(tileset: TileSet) -> tuple[tuple[tuple[int, ...], bool], ...]:
    """The parts the regular shape is read in: each numbered suit (nine consecutive
    indices, chows allowed) and the honours (pungs and pairs only), as (indices, chows)."""
    out: list[tuple[tuple[int, ...], bool]] = []
    for s in tileset.suits:
        start = tileset.suit_starts.get(s)
        if start is not None:
            out.append((tuple(range(start, start + 9)), True))
    honours = tuple(t for t in tileset.playing if not tileset.kinds[t].is_number)
    if honours:
        out.append((honours, False))
    return tuple(out)


@lru_cache(maxsize=8)
def part_of(tileset: TileSet) -> tuple[tuple[int, int], ...]:
    """`part_of[t]`: (part number, position in the part) of each playing tile; (-1, -1) for
    a tile of no part (flowers)."""
    out = [(-1, -1)] * len(tileset.kinds)
    for n, (indices, _) in enumerate(parts(tileset)):
        for pos, t in enumerate(indices):
            out[t] = (n, pos)
    return tuple(out)


# --- one part -----------------------------------------------------------------------------


def _prune(triples: set[Triple]) -> Front:
    """The undominated triples (no other is at least as large in all three), largest
    first."""
    ordered = sorted(triples, reverse=True)
    kept: list[Triple] = []
    for m, t, p in ordered:
        if not any(m <= a and t <= b and p <= c for a, b, c in kept):
            kept.append((m, t, p))
    return tuple(kept)


# Bounds (app.scoring.memory): random and near-ready hands of every tile rule set reach a
# few thousand part keys; the hot ones stay.
@lru_cache(maxsize=1 << 14)
def part_front(counts: tuple[int, ...], chows: bool) -> Front:
    """Every undominated (sets, partials, head) a part's counts split into: sets are pungs
    (and chows where `chows`), partials a pair or two tiles of a chow with one missing, the
    head one pair (at most one); a tile may stay in no group."""
    n = len(counts)
    i = 0
    while i < n and not counts[i]:
        i += 1
    if i == n:
        return ((0, 0, 0),)
    found: set[Triple] = set()
    c = list(counts)

    def take(delta: Triple, *tiles: int) -> None:
        for t in tiles:
            c[t] -= 1
        dm, dt, dp = delta
        for m, t, p in part_front(tuple(c), chows):
            if p + dp <= 1:
                found.add((m + dm, t + dt, p + dp))
        for t in tiles:
            c[t] += 1

    take((0, 0, 0), i)  # tile i kept in no group
    if c[i] >= 3:
        take((1, 0, 0), i, i, i)
    if c[i] >= 2:
        take((0, 0, 1), i, i)
        take((0, 1, 0), i, i)
    if chows and i + 1 < n and c[i + 1]:
        if i + 2 < n and c[i + 2]:
            take((1, 0, 0), i, i + 1, i + 2)
        take((0, 1, 0), i, i + 1)
    if chows and i + 2 < n and c[i + 2]:
        take((0, 1, 0), i, i + 2)
    return _prune(found)


@lru_cache(maxsize=1 << 13)
def combine(a: Front, b: Front) -> Front:
    """The undominated sums of two parts' triples (one head at most)."""
    return _prune({(m + m2, t + t2, p + p2) for m, t, p in a for m2, t2, p2 in b
                   if p + p2 <= 1})


@lru_cache(maxsize=1 << 13)
def regular_need_of(front: Front, blocks: int, usable: int) -> int:
    """The need of a hand whose parts combine to `front`, with `blocks` sets still to make
    (4 less the declared melds) and `usable` tiles in all (see the module docstring)."""
    best = IMPOSSIBLE
    for m, t, p in front:
        if m > blocks:
            m = blocks
        if t > blocks - m:
            t = blocks - m
        b = blocks - m - t
        h = 1 - p
        left = usable - 3 * m - 2 * t - 2 * p
        seeds = b + h if left > b + h else left
        need = 3 * b + 2 * h + t - seeds
        if need < best:
            best = need
    return best


def _keys(counts: Sequence[int], tileset: TileSet) -> list[tuple[int, ...]]:
    out = []
    for start, stop, indices in _spans(tileset):
        out.append(tuple(counts[start:stop]) if indices is None
                   else tuple(counts[t] for t in indices))
    return out


@lru_cache(maxsize=8)
def _spans(tileset: TileSet) -> tuple[tuple[int, int, tuple[int, ...] | None], ...]:
    """Each part as (start, stop) when its indices are consecutive (a slice of the counts),
    else with its indices."""
    out: list[tuple[int, int, tuple[int, ...] | None]] = []
    for indices, _ in parts(tileset):
        consecutive = indices == tuple(range(indices[0], indices[0] + len(indices)))
        out.append((indices[0], indices[0] + len(indices), None if consecutive else indices))
    return tuple(out)


@lru_cache(maxsize=8)
def _chows(tileset: TileSet) -> tuple[bool, ...]:
    return tuple(chows for _, chows in parts(tileset))


def regular_need_plain(counts: Sequence[int], blocks: int, tileset: TileSet) -> int:
    """The regular need of `counts` with `blocks` sets to make, without keeping the parts
    for probes."""
    total: Front = ((0, 0, 0),)
    usable = 0
    for key, chows in zip(_keys(counts, tileset), _chows(tileset), strict=True):
        if any(key):
            usable += sum(key)
            total = combine(total, part_front(key, chows))
    return regular_need_of(total, blocks, usable)


class RegularHand:
    """The regular shape's need of some counts, kept part by part so that the need with one
    tile more or less (`need_with`) redoes only the part it touches."""

    __slots__ = ("_lone", "blocks", "chows", "fronts", "keys", "need", "others", "part_of",
                 "total", "usable")

    def __init__(self, counts: Sequence[int], n_melds: int, tileset: TileSet) -> None:
        self.part_of = part_of(tileset)
        self.blocks = 4 - n_melds
        self.keys = _keys(counts, tileset)
        self.chows = _chows(tileset)
        self.fronts = [part_front(k, ch) for k, ch in zip(self.keys, self.chows, strict=True)]
        self.usable = sum(map(sum, self.keys))
        # others[n]: the parts but n, combined.
        fronts = self.fronts
        n = len(fronts)
        self.others: list[Front] = []
        for skip in range(n):
            acc: Front = ((0, 0, 0),)
            for k in range(n):
                if k != skip:
                    acc = combine(acc, fronts[k])
            self.others.append(acc)
        self.total = combine(self.others[0], fronts[0]) if n else ((0, 0, 0),)
        self.need = regular_need_of(self.total, self.blocks, self.usable)
        self._lone = -1

    def need_with(self, tile: int, delta: int = 1) -> int:
        """The need with one `tile` added (`delta` 1) or taken away (-1)."""
        n, pos = self.part_of[tile]
        key = self.keys[n]
        if delta == 1 and not key[pos] and (not self.chows[n]
                                            or not any(key[max(pos - 2, 0):pos + 3])):
            # A tile alone in its part (none of its kind, none within two in a suit) is
            # kept in no group: only one tile more to seed a set or the head with.
            if self._lone < 0:
                self._lone = regular_need_of(self.total, self.blocks, self.usable + 1)
            return self._lone
        changed = list(key)
        changed[pos] += delta
        return _need_beside(self.others[n], tuple(changed), self.chows[n], self.blocks,
                            self.usable + delta)


@lru_cache(maxsize=1 << 14)
def _need_beside(others: Front, key: tuple[int, ...], chows: bool, blocks: int,
                 usable: int) -> int:
    """The regular need of a part's counts `key` beside the other parts' `others`."""
    return regular_need_of(combine(others, part_front(key, chows)), blocks, usable)


# --- the shapes ---------------------------------------------------------------------------


def regular_need(counts: Sequence[int], n_melds: int, tileset: TileSet) -> int:
    """Four sets (declared melds included) and a pair."""
    if n_melds > 4:
        return IMPOSSIBLE
    return regular_need_plain(counts, 4 - n_melds, tileset)


def seven_pairs_need(counts: Sequence[int], n_melds: int, tileset: TileSet) -> int:
    """Seven pairs; four of a kind is two pairs. A kind held an odd number of times leaves
    a single that one more copy pairs."""
    if n_melds:
        return IMPOSSIBLE
    threes = counts.count(3)
    return seven_pairs_from(counts.count(2) + threes + 2 * counts.count(4),
                            counts.count(1) + threes)


def seven_pairs_from(pairs: int, singles: int) -> int:
    """Seven pairs' need from the pairs held and the kinds with a copy left unpaired."""
    short = 7 - pairs
    if short <= 0:
        return 0
    return 2 * short - min(singles, short)


@lru_cache(maxsize=8)
def _orphans(tileset: TileSet) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """The counts of the terminals and honours, read at once."""
    return itemgetter(*(t for t in tileset.playing
                        if tileset.kinds[t].is_terminal or tileset.kinds[t].is_honor))


@lru_cache(maxsize=8)
def _knitted(tileset: TileSet) -> tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]:
    """The counts of each knitted arrangement's nine tiles, read at once."""
    return tuple(itemgetter(*arr) for arr in knitted_arrangements(tileset))


@lru_cache(maxsize=8)
def _honours(tileset: TileSet) -> Callable[[Sequence[int]], tuple[int, ...]]:
    return itemgetter(*(t for t in tileset.playing if tileset.kinds[t].is_honor))


def thirteen_orphans_need(counts: Sequence[int], n_melds: int, tileset: TileSet) -> int:
    """One of each terminal and honour, one of them twice."""
    if n_melds:
        return IMPOSSIBLE
    held = _orphans(tileset)(counts)
    return len(held) + 1 - (len(held) - held.count(0)) - (max(held) >= 2)


def honors_and_knitted_need(counts: Sequence[int], n_melds: int, tileset: TileSet) -> int:
    """Fourteen different tiles: the numbered ones of one knitted arrangement, the rest
    honours."""
    if n_melds:
        return IMPOSSIBLE
    honours = _honours(tileset)(counts)
    best = 9 - min(arr(counts).count(0) for arr in _knitted(tileset))
    return 14 - min(14, best + len(honours) - honours.count(0))


def knitted_straight_bound(counts: Sequence[int], n_melds: int, tileset: TileSet) -> int:
    """At least what 组合龙 needs: the tiles missing from the nearest arrangement."""
    if n_melds > 1:
        return IMPOSSIBLE
    return min(arr(counts).count(0) for arr in _knitted(tileset))


def knitted_straight_need(counts: Sequence[int], n_melds: int, tileset: TileSet) -> int:
    """A knitted arrangement's nine tiles, then one set (or a declared meld) and a pair."""
    if n_melds > 1:
        return IMPOSSIBLE
    best = IMPOSSIBLE
    for arr in knitted_arrangements(tileset):
        rest = list(counts)
        held = 0
        for t in arr:
            if rest[t]:
                rest[t] -= 1
                held += 1
        need = 9 - held + regular_need_plain(rest, 1 - n_melds, tileset)
        if need < best:
            best = need
    return best


_NINE_GATES: Final = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def nine_gates_bound(counts: Sequence[int], n_melds: int, tileset: TileSet) -> int:
    """At least what 九莲宝灯 needs: the tiles missing from the fullest suit."""
    if n_melds:
        return IMPOSSIBLE
    return 14 - max(sum(counts[s:s + 9]) for s in tileset.suit_starts.values())


def nine_gates_need(counts: Sequence[int], n_melds: int, tileset: TileSet) -> int:
    """1112345678999 of one suit and one more tile of that suit, no declared meld."""
    if n_melds:
        return IMPOSSIBLE
    best = IMPOSSIBLE
    for start in tileset.suit_starts.values():
        run = counts[start:start + 9]
        kept = sum(min(n, k) for n, k in zip(run, _NINE_GATES, strict=True))
        extra = any(n > k for n, k in zip(run, _NINE_GATES, strict=True))
        best = min(best, 14 - kept - extra)
    return best


# --- probes: the need with one tile more -------------------------------------------------


class Probe:
    """A shape's need of some counts (`need`) and its need with one tile more
    (`need_with`); this one counts again from scratch, the shapes with many probes to
    answer have their own."""

    __slots__ = ("counts", "fn", "n_melds", "need", "tileset")

    def __init__(self, fn: NeedFn, counts: Sequence[int], n_melds: int,
                 tileset: TileSet) -> None:
        self.fn = fn
        self.counts = list(counts)
        self.n_melds = n_melds
        self.tileset = tileset
        self.need = fn(counts, n_melds, tileset)

    def need_with(self, tile: int) -> int:
        self.counts[tile] += 1
        try:
            return self.fn(self.counts, self.n_melds, self.tileset)
        finally:
            self.counts[tile] -= 1


class _RegularProbe(Probe):
    __slots__ = ("hand",)

    def __init__(self, counts: Sequence[int], n_melds: int, tileset: TileSet) -> None:
        self.hand = RegularHand(counts, n_melds, tileset) if n_melds <= 4 else None
        self.need = self.hand.need if self.hand is not None else IMPOSSIBLE

    def need_with(self, tile: int) -> int:
        return self.hand.need_with(tile) if self.hand is not None else IMPOSSIBLE


class _SevenPairsProbe(Probe):
    __slots__ = ("pairs", "singles")

    def __init__(self, counts: Sequence[int], n_melds: int, tileset: TileSet) -> None:
        self.counts = list(counts)
        self.n_melds = n_melds
        self.pairs = sum(n >> 1 for n in counts)
        self.singles = sum(n & 1 for n in counts)  # kinds held 1 or 3 times
        self.need = IMPOSSIBLE if n_melds else seven_pairs_from(self.pairs, self.singles)

    def need_with(self, tile: int) -> int:
        if self.n_melds:
            return IMPOSSIBLE
        if self.counts[tile] & 1:  # the single is paired
            return seven_pairs_from(self.pairs + 1, self.singles - 1)
        return seven_pairs_from(self.pairs, self.singles + 1)


class _KnittedStraightProbe(Probe):
    """Per knitted arrangement: its tiles missing, and the rest read as the regular shape
    with one set to make (part by part, for its probes)."""

    __slots__ = ("arrangements",)

    def __init__(self, counts: Sequence[int], n_melds: int, tileset: TileSet) -> None:
        self.arrangements: list[tuple[frozenset[int], int, RegularHand]] = []
        self.need = IMPOSSIBLE
        if n_melds > 1:
            return
        for arr in knitted_arrangements(tileset):
            rest = list(counts)
            missing = set()
            for t in arr:
                if rest[t]:
                    rest[t] -= 1
                else:
                    missing.add(t)
            reg = RegularHand(rest, n_melds + 3, tileset)
            need = len(missing) + reg.need
            self.arrangements.append((frozenset(missing), need, reg))
            self.need = min(self.need, need)

    def need_with(self, tile: int) -> int:
        best = IMPOSSIBLE
        for missing, need, reg in self.arrangements:
            with_tile = need - 1 if tile in missing else len(missing) + reg.need_with(tile)
            best = min(best, with_tile)
        return best


def probe(shape: str, counts: Sequence[int], n_melds: int, tileset: TileSet) -> Probe:
    """The shape's probe of `counts` (its need, and its need with one tile more)."""
    kind = _PROBES.get(shape)
    if kind is not None:
        return kind(counts, n_melds, tileset)
    return Probe(SHAPE_NEEDS[shape], counts, n_melds, tileset)


_PROBES: Final[dict[str, Callable[[Sequence[int], int, TileSet], Probe]]] = {
    REGULAR: _RegularProbe,
    SEVEN_PAIRS: _SevenPairsProbe,
    KNITTED_STRAIGHT: _KnittedStraightProbe,
}


# The need of each shape by its name in `app.domain.shapes`; the loader refuses a rule set
# naming a shape without one.
SHAPE_NEEDS: Final[dict[str, NeedFn]] = {
    REGULAR: regular_need,
    SEVEN_PAIRS: seven_pairs_need,
    THIRTEEN_ORPHANS: thirteen_orphans_need,
    HONORS_AND_KNITTED: honors_and_knitted_need,
    KNITTED_STRAIGHT: knitted_straight_need,
    NINE_GATES: nine_gates_need,
}


def shanten_of(need: int, wilds: int) -> int | None:
    """The shanten of a hand that needs `need` tiles besides its `wilds` wild tiles (each
    fills one); None when the shape cannot be made."""
    if need >= IMPOSSIBLE:
        return None
    return max(need - wilds, 0) - 1

# A lower bound of a shape's need, cheaper than the need, where one helps: a shape whose
# bound exceeds another shape's need is not worked out exactly when only the least matters.
SHAPE_BOUNDS: Final[dict[str, NeedFn]] = {
    KNITTED_STRAIGHT: knitted_straight_bound,
    NINE_GATES: nine_gates_bound,
}
