"""The standing tiles of a hand, part by part.

The tile set's playing kinds fall into parts: each numbered suit (a run of nine), then the
honours (`layout`). What one pattern of a part holds, its cuts included, is worked out once
(`Part`) and kept by the part's tiles, sorted: hands share their suits' patterns, so a hand is
read by looking its parts up (`standing`, `without`). The waits of the regular shape are read
from the parts' segments (`standing_waits`, `standing_waits_less`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Final, NamedTuple

from app.domain.decompose import RANK_SETS, counts_of, part_ranks, suit_splits
from app.domain.hand import CHOW, PUNG
from app.domain.readings import (
    EDGE,
    IN_CHOW,
    IN_PUNG,
    MIDDLE,
    PAIR,
    Piece,
    shared_group,
    shared_written,
)
from app.domain.tiles import STANDARD, TileSet

# Hot-path named tuples are built with `tuple.__new__(Type, fields)`: a NamedTuple's own
# constructor runs a Python-level __new__ that costs about twice as much.
_new: Final = tuple.__new__


class Part(NamedTuple):
    """What one pattern of one part of the standing tiles holds (made by `_new_part`)."""

    counts: tuple[int, ...]  # per tile of the part
    size: int  # how many tiles
    # The regular cuts: a suit's into sets and at most one pair (as `suit_splits`), the
    # honours' into a pung or a pair each; () when there is none.
    pieces: tuple[Piece, ...]
    pairs: int  # how many pairs each cut holds
    even: bool  # every count is even (seven pairs)
    knit: bool  # a suit holding ranks r, r+3 and r+6 for some r (a knitted straight's share)
    fours: tuple[int, ...]  # kinds held four times
    categories: int  # bit `TileSet.category` set for each category held
    # For the waits of the regular shape: the part as `regular_waits` sees it, one segment
    # for a suit and one per honour held.
    segments: tuple[Segment, ...]
    # categories | pairs << 8 | knit << 16 | (not even) << 20: what `standing` adds up over
    # the parts (the parts' categories are apart, so their sum is their union).
    packed: int
    # The segments at 3n+1 and at 3n+2 tiles, and how many segments do not split.
    ones: tuple[Segment, ...]
    twos: tuple[Segment, ...]
    incomplete: int


def _new_part(counts: tuple[int, ...], size: int, pieces: tuple[Piece, ...], pairs: int,
              even: bool, knit: bool, fours: tuple[int, ...], categories: int,
              segments: tuple[Segment, ...]) -> Part:
    """A `Part` with the fields it derives from the others (a part is made once per pattern
    seen, so this is on the path of every hand bringing a new one)."""
    ones: tuple[Segment, ...] = ()
    twos: tuple[Segment, ...] = ()
    incomplete = 0
    for seg in segments:
        if seg.mod == 1:
            ones += (seg,)
        elif seg.mod == 2:
            twos += (seg,)
        if not seg.complete:
            incomplete += 1
    packed = categories | pairs << 8 | int(knit) << 16 | int(not even) << 20
    return _new(Part, (counts, size, pieces, pairs, even, knit, fours, categories, segments,
                       packed, ones, twos, incomplete))


@dataclass(frozen=True, slots=True)
class Segment:
    """A suit, or one honour, as the waits of the regular shape see it."""

    mod: int  # its tiles modulo 3
    complete: bool  # it splits into sets and at most one pair as it is
    adds: frozenset[int]  # the tiles whose one more copy would make it split


@dataclass(frozen=True, slots=True)
class _PartSpec:
    tiles: tuple[int, ...]  # the part's kinds of tile, in order, consecutive
    end: int  # the kind after the part's last
    suit: bool  # a numbered suit (a run of nine) rather than the honours
    empty: Part  # the part holding nothing
    # What the part's memo key starts with: () when the part's kinds are those of the
    # standard set at the same indices (its parts are the standard set's, written the same);
    # else a tag of its kinds, so that a part is never handed to a tile set that lays other
    # kinds at those indices (卡五星's 条 sit where the standard set has 万, its 中发白 at
    # 1p-3p).
    tag: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Layout:
    """How a tile set's playing kinds fall into parts (the numbered suits in the tile set's
    order, then the honours). `parts` is empty when they are not consecutive runs that lay
    end to end from kind 0: hands of such a set are counted tile by tile."""

    parts: tuple[_PartSpec, ...]
    suits: tuple[int, ...]  # positions of the numbered suits among the parts
    where: tuple[int, ...]  # per playing kind of tile: the position of its part
    # The parts lie apart in the written order (`written`): every group of one part is
    # written before every group of another, or after.
    apart: bool = False


class Standing(NamedTuple):
    """A hand's standing tiles, part by part."""

    ordered: tuple[int, ...]  # the tiles, sorted
    parts: tuple[Part, ...]  # in the layout's order
    kinds: frozenset[int]
    distinct: int  # len(kinds)
    size: int  # len(ordered)
    fours: tuple[int, ...]  # kinds held four times
    categories: int  # bit `TileSet.category` set for each category held
    # The regular cuts of each part holding tiles, in the layout's order (their product is
    # the regular readings); None when some part has none or the cuts hold no pair or more
    # than one.
    cuts: tuple[tuple[Piece, ...], ...] | None
    knits: int  # numbered suits holding a knitted straight's share (`Part.knit`)
    odd: int  # parts holding an odd count of some kind (seven pairs holds none)

    @property
    def counts(self) -> list[int]:
        """The count of each playing kind (a new list)."""
        out: list[int] = []
        for part in self.parts:
            out += part.counts
        return out


# The layouts of the tile sets met (a tile set is compared by identity), emptied when full:
# a process meets a few tile sets. A dict rather than `lru_cache`: compiled code finds a
# layout without a call through Python's calling protocol, and every hand asks for it.
_LAYOUTS: Final[dict[TileSet, Layout]] = {}
LAYOUTS_LIMIT: Final = 8


def layout(tileset: TileSet) -> Layout:
    """How a tile set's kinds fall into parts (one layout per tile set)."""
    found = _LAYOUTS.get(tileset)
    if found is None:
        if len(_LAYOUTS) >= LAYOUTS_LIMIT:
            _LAYOUTS.clear()
        found = _LAYOUTS[tileset] = _layout(tileset)
    return found


def _layout(tileset: TileSet) -> Layout:
    runs = [tuple(range(start, start + 9))
            for start in (tileset.suit_starts[s] for s in tileset.suits)]
    honours = tuple(t for t in tileset.playing if tileset.kinds[t].is_honor)
    groups = [*runs, honours] if honours else runs
    if [t for tiles in groups for t in tiles] != list(range(tileset.size)):
        return Layout((), (), ())
    specs = []
    for i, tiles in enumerate(groups):
        suit = i < len(runs)
        spec = _PartSpec(tiles, tiles[-1] + 1, suit, _NOTHING, _part_tag(tiles, tileset))
        specs.append(replace(spec, empty=_make_part((), spec, tileset)))
    spans = sorted((min(tileset.display_rank[t] for t in tiles),
                    max(tileset.display_rank[t] for t in tiles)) for tiles in groups)
    apart = all(a[1] < b[0] for a, b in pairwise(spans))
    return Layout(tuple(specs), tuple(range(len(runs))),
                  tuple(i for i, tiles in enumerate(groups) for _ in tiles), apart)


_NOTHING: Final = _new_part((), 0, (), 0, True, False, (), 0, ())
# The parts laid out by the tile sets met, by their kinds: their tags (`_PartSpec.tag`).
_PART_TAGS: Final[dict[tuple[tuple[int, str], ...], int]] = {}
# The kinds of each part of the standard set: its suits' runs of nine, then the honours.
_STANDARD_PARTS: Final = frozenset([
    *(tuple(range(STANDARD.suit_starts[s], STANDARD.suit_starts[s] + 9))
      for s in STANDARD.suits),
    tuple(t for t in STANDARD.playing if STANDARD.kinds[t].is_honor)])


def _part_tag(tiles: tuple[int, ...], tileset: TileSet) -> tuple[int, ...]:
    """() for a part of the standard set's layout with its kinds (every tile set laying the
    same kinds out the same way shares its parts); else a tag of the part's kinds."""
    kinds, standard = tileset.kinds, STANDARD.kinds
    if tiles in _STANDARD_PARTS and all(standard[t].code == kinds[t].code for t in tiles):
        return ()
    signature = tuple((t, kinds[t].code) for t in tiles)
    return (_PART_TAGS.setdefault(signature, -1 - len(_PART_TAGS)),)


# Parts by their tiles (sorted): a bounded dict in two generations (cheaper on the hot path
# than an LRU, and unlike one dict emptied when full it keeps what is in use): `standing`
# looks a part up in `_PARTS`; a miss (`_part`) takes it from `_OLD_PARTS` if it is there,
# else makes it; when `_PARTS` is full it becomes `_OLD_PARTS` and a new one starts, so at
# most 2 * `parts_limit()` parts are held. Wild hands bring parts of their substitutions,
# seldom asked for again: the old generation lets them go. Miss rates and sizes:
# bench/README.md ("The bounds of the engine's memos"); see also `app.scoring.memory`.
_PARTS: dict[tuple[int, ...], Part] = {}
_OLD_PARTS: dict[tuple[int, ...], Part] = {}
# A generation's bound in a served worker; a process that scores many different hands one
# after another may widen it (`set_parts_limit`, from `app.scoring.memory.widen`).
PARTS_LIMIT: Final = 4096
_parts_limit = PARTS_LIMIT


def standing(tiles: tuple[int, ...] | list[int], tileset: TileSet) -> Standing:
    """The standing tiles of a hand, part by part."""
    ordered = tuple(sorted(tiles))
    specs = layout(tileset).parts
    if not specs:
        return _standing_by_tile(ordered, tileset)
    memo = _PARTS
    parts = []
    cuts = []
    uncut = False  # some part holding tiles has no cut (`all(cuts)`, without a builtin call)
    fours: tuple[int, ...] = ()
    packed = lo = 0
    n = len(ordered)
    for spec in specs:
        # The part's tiles follow the previous part's: a compiled loop over at most 14
        # tiles costs less than a call to `bisect_left`.
        end = spec.end
        hi = lo
        while hi < n and ordered[hi] < end:
            hi += 1
        if hi == lo:
            parts.append(spec.empty)
            continue
        key = ordered[lo:hi]
        if spec.tag:
            key = spec.tag + key
        part = memo.get(key)
        if part is None:
            part = _part(key, spec, tileset)
        parts.append(part)
        packed += part.packed
        cuts.append(part.pieces)
        if not part.pieces:
            uncut = True
        if part.fours:
            fours += part.fours
        lo = hi
    kinds = frozenset(ordered)
    return _new(Standing, (ordered, tuple(parts), kinds, len(kinds), len(ordered), fours,
                           packed & 0xFF,
                           tuple(cuts) if packed >> 8 & 0xFF == 1 and not uncut else None,
                           packed >> 16 & 0xF, packed >> 20))


def without(st: Standing, tile: int, tileset: TileSet) -> Standing:
    """The standing tiles `st` less one copy of `tile` (which they hold): only the part
    holding it is looked up again."""
    rest = list(st.ordered)
    rest.remove(tile)
    ordered = tuple(rest)
    lay = layout(tileset)
    if not lay.parts:
        return _standing_by_tile(ordered, tileset)
    i = lay.where[tile]
    spec = lay.parts[i]
    lo, hi = _span(ordered, spec.tiles[0], spec.end)
    if hi == lo:
        part = spec.empty
    else:
        key = spec.tag + ordered[lo:hi]
        found = _PARTS.get(key)
        part = found if found is not None else _part(key, spec, tileset)
    parts = (*st.parts[:i], part, *st.parts[i + 1:])
    cuts = []
    uncut = False  # as in `standing`
    fours: tuple[int, ...] = ()
    packed = 0
    for p in parts:
        if p.size:
            packed += p.packed
            cuts.append(p.pieces)
            if not p.pieces:
                uncut = True
            if p.fours:
                fours += p.fours
    kinds = st.kinds if tile in ordered[lo:hi] else st.kinds - {tile}
    return _new(Standing, (ordered, parts, kinds, len(kinds), len(ordered), fours,
                           packed & 0xFF,
                           tuple(cuts) if packed >> 8 & 0xFF == 1 and not uncut else None,
                           packed >> 16 & 0xF, packed >> 20))


def _span(ordered: tuple[int, ...], first: int, end: int) -> tuple[int, int]:
    """Where the tiles from `first` to before `end` lie in `ordered` (sorted): a compiled
    loop over at most 14 tiles costs less than two calls to `bisect_left`."""
    n = len(ordered)
    lo = 0
    while lo < n and ordered[lo] < first:
        lo += 1
    hi = lo
    while hi < n and ordered[hi] < end:
        hi += 1
    return lo, hi


def _standing_by_tile(ordered: tuple[int, ...], tileset: TileSet) -> Standing:
    """A tile set whose parts do not lay end to end: one part of every playing kind, no
    regular cut (`regular_splits` reads such hands)."""
    spec = _PartSpec(tileset.playing, len(tileset.playing), False, _NOTHING)
    counts = counts_of(ordered, tileset.size)
    part = _new_part(tuple(counts), len(ordered), (), 0, all(n % 2 == 0 for n in counts),
                     False, tuple(t for t, n in enumerate(counts) if n == 4),
                     _categories(spec.tiles, counts, tileset), ())
    kinds = frozenset(ordered)
    return Standing(ordered, (part,), kinds, len(kinds), len(ordered), part.fours,
                    part.categories, None, 0, int(not part.even))


def _categories(tiles: tuple[int, ...], counts: tuple[int, ...] | list[int],
                tileset: TileSet) -> int:
    category = tileset.category  # a cached property: looked up once, not per tile
    bits = 0
    for t, n in zip(tiles, counts, strict=True):
        if n:
            bits |= 1 << category[t]
    return bits


def _part(key: tuple[int, ...], spec: _PartSpec, tileset: TileSet) -> Part:
    """A part `_PARTS` does not hold (`key`: its tiles after the spec's tag): from the old
    generation, or made."""
    global _PARTS, _OLD_PARTS
    part = _OLD_PARTS.pop(key, None)
    if part is None:
        part = _make_part(key[len(spec.tag):], spec, tileset)
    if len(_PARTS) >= _parts_limit:
        _OLD_PARTS, _PARTS = _PARTS, {}
    _PARTS[key] = part
    return part


def forget_parts() -> None:
    """Empty both generations of parts."""
    _PARTS.clear()
    _OLD_PARTS.clear()


def parts_limit() -> int:
    """How many parts a generation holds at most (both together: twice as many)."""
    return _parts_limit


def set_parts_limit(limit: int) -> None:
    """Let a generation hold `limit` parts (at least 1); what is held stays, and a smaller
    bound takes effect when the next part is made."""
    global _parts_limit
    if limit < 1:
        raise ValueError(f"a generation holds at least 1 part, not {limit}")
    _parts_limit = limit


def parts_held() -> int:
    """How many parts both generations hold."""
    return len(_PARTS) + len(_OLD_PARTS)


# Segments are made once and shared by the parts, as their groups are (`app.domain.readings`).
_SEGMENTS: Final[dict[tuple[int, bool, int, frozenset[int]], Segment]] = {}
# Segments are bounded by the parts' patterns rather than by the tile sets: 3 starts x 3
# counts mod 3 x 512 sets of waits at most per tile set. Emptied when full (the parts keep
# theirs); what a mix of requests fills is in bench/README.md (`bench/memory.py`).
SEGMENTS_LIMIT: Final = 2048


def _segment(mod: int, complete: bool, start: int, adds: frozenset[int]) -> Segment:
    """The segment of a part starting at tile `start`, `adds` given as positions in the
    part, shared."""
    key = (mod, complete, start, adds)
    found = _SEGMENTS.get(key)
    if found is None:
        if len(_SEGMENTS) >= SEGMENTS_LIMIT:
            _SEGMENTS.clear()
        found = _SEGMENTS[key] = Segment(mod, complete, frozenset(start + r for r in adds))
    return found


def _make_part(key: tuple[int, ...], spec: _PartSpec, tileset: TileSet) -> Part:
    first = spec.tiles[0]  # the part's kinds are consecutive
    held = [0] * len(spec.tiles)
    for t in key:
        held[t - first] += 1
    counts = tuple(held)
    pieces: tuple[Piece, ...]
    segments: tuple[Segment, ...]
    if spec.suit:
        pieces = tuple(_piece(first, sets, pair, tileset)
                       for sets, pair in suit_splits(counts))
        pairs = 1 if len(key) % 3 == 2 else 0
        knit = any(counts[r] and counts[r + 3] and counts[r + 6] for r in range(3))
        complete, adds = part_ranks(counts)
        segments = (_segment(len(key) % 3, complete, first, adds),)
    else:
        pairs = counts.count(2)
        knit = False
        pieces = ()
        if not any(n == 1 or n >= 4 for n in counts):
            groups = tuple(shared_group(PUNG if n == 3 else PAIR, t)
                           for t, n in zip(spec.tiles, counts, strict=True) if n)
            pungs = tuple(g.tile for g in groups if g.kind == PUNG)
            pair = next((g.tile for g in groups if g.kind == PAIR), -1) if pairs == 1 else -1
            pieces = (Piece(groups, (), pungs, pair, 0,
                            {t: IN_PUNG for t in pungs},
                            tuple(shared_written(g, tileset) for g in groups)),)
        segments = tuple(_segment(n % 3, n in (2, 3), t, RANK_SETS[n in (1, 2)])
                         for t, n in zip(spec.tiles, counts, strict=True) if n)
    return _new_part(counts, len(key), pieces, pairs, all(n % 2 == 0 for n in counts), knit,
                     tuple(t for t, n in zip(spec.tiles, counts, strict=True) if n == 4),
                     _categories(spec.tiles, counts, tileset), segments)


def standing_waits(st: Standing) -> frozenset[int]:
    """`regular_waits` of standing tiles read part by part (the tile set's layout has parts:
    `layout(tileset).parts`)."""
    return _waits_of_parts(st.parts)


def standing_waits_less(st: Standing, tile: int, tileset: TileSet) -> frozenset[int]:
    """`standing_waits(without(st, tile, tileset))`: the regular waits of the standing tiles
    less one `tile` (which they hold), the tile set's layout having parts. Only the part
    holding the tile is looked up again; no other part and no `Standing` is built (the
    unique-wait test of every 边张/嵌张/单钓 reading asks this)."""
    lay = layout(tileset)
    i = lay.where[tile]
    spec = lay.parts[i]
    ordered = st.ordered
    lo, hi = _span(ordered, spec.tiles[0], spec.end)
    # The tile's first copy among the part's tiles (a compiled loop: `index` is a method
    # call through Python's calling protocol).
    j = lo
    while ordered[j] != tile:
        j += 1
    key = ordered[lo:j] + ordered[j + 1:hi]
    if key:
        key = spec.tag + key
        found = _PARTS.get(key)
        part = found if found is not None else _part(key, spec, tileset)
    else:
        part = spec.empty
    return _waits_of_parts(st.parts, i, part)


def _waits_of_parts(parts: tuple[Part, ...], at: int = -1,
                    instead: Part | None = None) -> frozenset[int]:
    """The regular waits of `parts`, read with `instead` for the part at `at` (if any): no
    new tuple of parts is built."""
    # A waiting hand has one segment at 3n+1 tiles (the wait is there) or two at 3n+2 (the
    # wait is in one, the other keeps the pair), every other segment complete.
    ones: tuple[Segment, ...] = ()
    twos: tuple[Segment, ...] = ()
    incomplete = 0
    for k in range(len(parts)):
        part = parts[k]
        if k == at and instead is not None:
            part = instead
        if part.size:
            if part.ones:
                ones += part.ones
            if part.twos:
                twos += part.twos
            incomplete += part.incomplete
    if len(ones) == 1 and not twos:
        one = ones[0]
        return one.adds if incomplete == (0 if one.complete else 1) else frozenset()
    if len(twos) == 2 and not ones:
        out: frozenset[int] = frozenset()
        for seg in twos:
            if incomplete == (0 if seg.complete else 1):
                out |= seg.adds
        return out
    return frozenset()


def _piece(start: int, sets: tuple[tuple[str, int], ...], pair: int,
           tileset: TileSet) -> Piece:
    """A suit's cut (`suit_splits`) as a piece: its groups as `regular_splits` lists them."""
    groups = [shared_group(kind, start + r) for kind, r in sets]
    if pair >= 0:
        groups.append(shared_group(PAIR, start + pair))
    chows = tuple(start + r for kind, r in sets if kind == CHOW)
    pungs = tuple(start + r for kind, r in sets if kind == PUNG)
    places: dict[int, int] = {}
    for c in chows:
        for t in (c, c + 1, c + 2):
            places[t] = places.get(t, 0) | IN_CHOW
        places[c + 1] |= MIDDLE
        rank = c - start + 1
        if rank == 1:
            places[c + 2] |= EDGE
        elif rank == 7:
            places[c] |= EDGE
    for t in pungs:
        places[t] = places.get(t, 0) | IN_PUNG
    return Piece(tuple(groups), tuple(sorted(chows)), tuple(sorted(pungs)),
                 start + pair if pair >= 0 else -1, len(pungs), places,
                 tuple(shared_written(g, tileset) for g in groups))
