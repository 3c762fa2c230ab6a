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

from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import pairwise, product
from typing import NamedTuple

from app.domain.hand import CHOW, KONG, PUNG
from app.domain.notation import format_tiles
from app.domain.tiles import STANDARD, TileSet

PAIR = "pair"
KNIT = "knit"  # three tiles of one suit three apart (147, 258, 369) in a knitted straight

# Hot-path named tuples are built with `tuple.__new__(Type, fields)`: a NamedTuple's own
# constructor runs a Python-level __new__ that costs about twice as much.
_new = tuple.__new__



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


# Where a cut may hold the winning tile (the bits of `Piece.places`): in a chow, in the
# middle of one (嵌张), at the edge of 12-3 or 7-89 (边张), as a pung.
IN_CHOW, MIDDLE, EDGE, IN_PUNG = 1, 2, 4, 8


@dataclass(frozen=True, slots=True)
class Piece:
    """One cut of one part of the standing tiles (a numbered suit, or the honours) into sets
    and pairs, with what a reading's view is made of: worked out once per pattern of the part
    (`Part`), shared by every hand that holds it."""

    groups: tuple[Group, ...]  # in tile order, a suit's pair last
    chows: tuple[int, ...]  # first tiles, sorted
    pungs: tuple[int, ...]  # sorted
    pair: int  # the pair's tile, -1 without one (or with several: honours)
    numbered_pungs: int  # how many of the pungs are of numbered tiles
    # Tile -> where the cut may place it as the winning tile (IN_CHOW | MIDDLE | EDGE |
    # IN_PUNG); tiles it cannot place are absent. A plain dict, never changed once made
    # (a View asks it of every reading: a mappingproxy's `get` costs several times more).
    places: Mapping[int, int] = field(compare=False)
    # Each group written out, with its place in the written order (`written`).
    written: tuple[tuple[int, str], ...] = field(compare=False, default=())
    # The groups written out in the written order (`written` sorted), and the place of the
    # first: a reading of cuts of parts lying apart in that order is written by putting its
    # pieces' `shown` end to end (`Layout.apart`).
    shown: tuple[str, ...] = field(compare=False, default=())
    at: int = field(compare=False, default=0)

    def __post_init__(self) -> None:
        if self.written:
            ordered = sorted(self.written, key=lambda keyed: keyed[0])  # stable
            object.__setattr__(self, "shown", tuple(text for _, text in ordered))
            object.__setattr__(self, "at", ordered[0][0])


class Reading(NamedTuple):
    """One way to read the whole hand."""

    shape: str
    groups: tuple[Group, ...]  # declared melds first, then the standing groups in tile order
    # Readings of a hand with wild tiles say where the winning tile sits: the index of its
    # group and the tile it is read as (itself, unless it is a wild). -1: not designated (a
    # hand without wilds: the checks find the winning tile's place themselves).
    win: int = -1
    win_as: int = -1
    # A regular reading of a hand without wilds: the cut of each part holding standing tiles
    # (its groups are `groups` after the declared melds). () for other readings.
    pieces: tuple[Piece, ...] = ()


def written(group: Group, tileset: TileSet) -> tuple[int, str]:
    """A group in compact notation (declared melds in brackets as on input: `[123p]`,
    `{5555s}` for a concealed kong), with its place in the written order: by the display
    order of its first tile, a pair after a set of the same tile."""
    kind, tile = group.kind, group.tile
    if kind == CHOW:
        tiles = [tile, tile + 1, tile + 2]
    elif kind == KNIT:
        tiles = [tile, tile + 3, tile + 6]
    else:
        tiles = [tile] * {PUNG: 3, KONG: 4, PAIR: 2}[kind]
    text = format_tiles(tiles, tileset)
    if group.declared:
        text = ("{" + text + "}" if group.concealed and kind == KONG else "[" + text + "]")
    return tileset.display_rank[tile] * 2 + (kind != PAIR), text


# A suit split: the sets (kind, rank index 0..8) and the pair's rank index or -1.
SuitSplit = tuple[tuple[tuple[str, int], ...], int]


# Bounds of the memos of suit patterns (see `app.scoring.memory` for how they were chosen):
# since parts are kept whole (`Part`), these are asked only when a new part is read, and by
# `regular_splits` and `regular_waits`. On 4,000 requests of bench/memory.py's mix they hit
# little either way (suit_splits 30% at 4,096 entries, 26% at 1,024; _part_ranks 25% and
# 9%): 1,024 costs ~12,000 more misses of 2-34 us, under 0.5% of the scoring time, and
# holds ~2 MB less (measured RSS of the run, with `near` at 1,024 too: 12.2 -> 9.1 MiB).
SPLITS_LIMIT = 1024


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


@lru_cache(maxsize=SPLITS_LIMIT)
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


@lru_cache(maxsize=1024)  # one entry per suit pattern regular_splits reads (369 seen)
def _suit_groups(start: int, part: tuple[int, ...]) -> tuple[tuple[tuple[Group, ...], ...], int]:
    """A suit's splits as ready-made groups (memoised), and 1 if they hold the pair."""
    splits = suit_splits(part)
    options = []
    for sets, pair in splits:
        groups = [_group(kind, start + r) for kind, r in sets]
        if pair >= 0:
            groups.append(_group(PAIR, start + pair))
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


# Every set of positions in a part (0..8) as a frozenset, by bitmask: `_part_ranks` hands out
# these instead of a new frozenset per pattern (about 200 bytes of each of its entries), and
# `_segment` shares segments by them. A table made once at import: 512 sets, ~150 KB, shared
# by the workers of a preloaded master.
_RANK_SETS: tuple[frozenset[int], ...] = tuple(
    frozenset(r for r in range(9) if mask >> r & 1) for mask in range(512))


@lru_cache(maxsize=SPLITS_LIMIT)
def _part_ranks(seg: tuple[int, ...]) -> tuple[bool, frozenset[int]]:
    """For one part of the hand (a numbered suit's nine counts, or one honour's count):
    whether it splits as it is, and the positions whose one extra tile would make it split."""
    if len(seg) == 1:
        c = seg[0]
        return c in (0, 2, 3), _RANK_SETS[1 if c + 1 in (2, 3) else 0]
    complete = bool(suit_splits(seg))
    adds = 0
    for r in range(9):
        if (r > 0 and seg[r - 1]) or seg[r] or (r < 8 and seg[r + 1]) or (
                r > 1 and seg[r - 2]) or (r < 7 and seg[r + 2]):
            grown = (*seg[:r], seg[r] + 1, *seg[r + 1:])
            if suit_splits(grown):
                adds |= 1 << r
    return complete, _RANK_SETS[adds]


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


# --- The standing tiles, part by part -----------------------------------------------------
#
# The tile set's playing kinds fall into parts: each numbered suit (a run of nine), then the
# honours. What one pattern of a part holds, its cuts included, is worked out once (`Part`)
# and kept by the part's tiles, sorted: hands share their suits' patterns, so a hand is read by
# looking its parts up.


@dataclass(frozen=True, slots=True)
class Part:
    """What one pattern of one part of the standing tiles holds."""

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
    packed: int = 0
    # The segments at 3n+1 and at 3n+2 tiles, and how many segments do not split.
    ones: tuple[Segment, ...] = ()
    twos: tuple[Segment, ...] = ()
    incomplete: int = 0

    def __post_init__(self) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "packed", self.categories | self.pairs << 8 | int(self.knit) << 16
                 | int(not self.even) << 20)
        setattr_(self, "ones", tuple(seg for seg in self.segments if seg.mod == 1))
        setattr_(self, "twos", tuple(seg for seg in self.segments if seg.mod == 2))
        setattr_(self, "incomplete", sum(1 for seg in self.segments if not seg.complete))


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


@lru_cache(maxsize=8)
def layout(tileset: TileSet) -> Layout:
    """How a tile set's kinds fall into parts (one layout per tile set)."""
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


_NOTHING = Part((), 0, (), 0, True, False, (), 0, ())
# The parts laid out by the tile sets met, by their kinds: their tags (`_PartSpec.tag`).
_PART_TAGS: dict[tuple[tuple[int, str], ...], int] = {}
# The kinds of each part of the standard set: its suits' runs of nine, then the honours.
_STANDARD_PARTS = frozenset([
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
# most 2 * PARTS_LIMIT parts are held. Measured on random MCR hands after 20,000 of them
# (which reach 8,042 parts): one dict of 16,384 parts misses 0.195 parts a fresh hand, one
# of 4,096 0.534, two generations of 4,096 0.263 (of 2,048: 0.447); a miss costs ~70 us.
# Wild hands bring parts of their substitutions (~2 a request on bench/memory.py's mix),
# seldom asked for again: the old generation lets them go. ~0.72 KB a part (5.9 MB at the
# bound). See `app.scoring.memory`.
_PARTS: dict[tuple[int, ...], Part] = {}
_OLD_PARTS: dict[tuple[int, ...], Part] = {}
PARTS_LIMIT = 4096


def standing(tiles: tuple[int, ...] | list[int], tileset: TileSet) -> Standing:
    """The standing tiles of a hand, part by part."""
    ordered = tuple(sorted(tiles))
    specs = layout(tileset).parts
    if not specs:
        return _standing_by_tile(ordered, tileset)
    memo = _PARTS
    parts = []
    cuts = []
    fours: tuple[int, ...] = ()
    packed = lo = 0
    n = len(ordered)
    for spec in specs:
        hi = bisect_left(ordered, spec.end, lo) if lo < n else lo
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
        if part.fours:
            fours += part.fours
        lo = hi
    kinds = frozenset(ordered)
    return _new(Standing, (ordered, tuple(parts), kinds, len(kinds), len(ordered), fours,
                           packed & 0xFF,
                           tuple(cuts) if packed >> 8 & 0xFF == 1 and all(cuts) else None,
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
    lo = bisect_left(ordered, spec.tiles[0])
    hi = bisect_left(ordered, spec.end, lo)
    if hi == lo:
        part = spec.empty
    else:
        key = spec.tag + ordered[lo:hi]
        found = _PARTS.get(key)
        part = found if found is not None else _part(key, spec, tileset)
    parts = (*st.parts[:i], part, *st.parts[i + 1:])
    cuts = []
    fours: tuple[int, ...] = ()
    packed = 0
    for p in parts:
        if p.size:
            packed += p.packed
            cuts.append(p.pieces)
            if p.fours:
                fours += p.fours
    kinds = st.kinds if tile in ordered[lo:hi] else st.kinds - {tile}
    return _new(Standing, (ordered, parts, kinds, len(kinds), len(ordered), fours,
                           packed & 0xFF,
                           tuple(cuts) if packed >> 8 & 0xFF == 1 and all(cuts) else None,
                           packed >> 16 & 0xF, packed >> 20))


def _standing_by_tile(ordered: tuple[int, ...], tileset: TileSet) -> Standing:
    """A tile set whose parts do not lay end to end: one part of every playing kind, no
    regular cut (`regular_splits` reads such hands)."""
    spec = _PartSpec(tileset.playing, len(tileset.playing), False, _NOTHING)
    counts = counts_of(ordered, tileset.size)
    part = Part(tuple(counts), len(ordered), (), 0, all(n % 2 == 0 for n in counts), False,
                tuple(t for t, n in enumerate(counts) if n == 4),
                _categories(spec.tiles, counts, tileset), ())
    kinds = frozenset(ordered)
    return Standing(ordered, (part,), kinds, len(kinds), len(ordered), part.fours,
                    part.categories, None, 0, int(not part.even))


def _categories(tiles: tuple[int, ...], counts: tuple[int, ...] | list[int],
                tileset: TileSet) -> int:
    bits = 0
    for t, n in zip(tiles, counts, strict=True):
        if n:
            bits |= 1 << tileset.category[t]
    return bits


def _part(key: tuple[int, ...], spec: _PartSpec, tileset: TileSet) -> Part:
    """A part `_PARTS` does not hold (`key`: its tiles after the spec's tag): from the old
    generation, or made."""
    global _PARTS, _OLD_PARTS
    part = _OLD_PARTS.pop(key, None)
    if part is None:
        part = _make_part(key[len(spec.tag):], spec, tileset)
    if len(_PARTS) >= PARTS_LIMIT:
        _OLD_PARTS, _PARTS = _PARTS, {}
    _PARTS[key] = part
    return part


def forget_parts() -> None:
    """Empty both generations of parts."""
    _PARTS.clear()
    _OLD_PARTS.clear()


def parts_held() -> int:
    """How many parts both generations hold."""
    return len(_PARTS) + len(_OLD_PARTS)


# What parts hold that is the same from one part to the next is made once and shared: the
# standing groups, each group written out, and the segments. Every part used to hold its own
# copies, 1.25 KB a part on average where it is now 0.72 KB (4,000 requests of
# bench/memory.py's mix, 9,286 parts). Groups and their writing are bounded by the tile sets
# in use (89 groups and 164 written seen; at most 5 kinds x 64 tiles, per tile set for the
# writing), and emptied if ever full; see `app.scoring.memory`.
_GROUPS: dict[tuple[str, int], Group] = {}
GROUPS_LIMIT = 1024
_WRITTEN: dict[tuple[TileSet, Group], tuple[int, str]] = {}
WRITTEN_LIMIT = 2048
_SEGMENTS: dict[tuple[int, bool, int, frozenset[int]], Segment] = {}
# Segments are bounded by the parts' patterns rather than by the tile sets: 487 seen on
# 4,000 requests of bench/memory.py's mix, 3 starts x 3 counts mod 3 x 512 sets of waits at
# most per tile set. Emptied when full (the parts keep theirs).
SEGMENTS_LIMIT = 2048


def _group(kind: str, tile: int) -> Group:
    """The standing group (undeclared, no wilds) of `kind` at `tile`, shared."""
    found = _GROUPS.get((kind, tile))
    if found is None:
        if len(_GROUPS) >= GROUPS_LIMIT:
            _GROUPS.clear()
        found = _GROUPS[(kind, tile)] = Group(kind, tile)
    return found


def _written(group: Group, tileset: TileSet) -> tuple[int, str]:
    """`written(group, tileset)`, shared."""
    found = _WRITTEN.get((tileset, group))
    if found is None:
        if len(_WRITTEN) >= WRITTEN_LIMIT:
            _WRITTEN.clear()  # only with many tile sets at once (tests build variants)
        found = _WRITTEN[(tileset, group)] = written(group, tileset)
    return found


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
    counts = tuple(key.count(t) for t in spec.tiles)
    pieces: tuple[Piece, ...]
    segments: tuple[Segment, ...]
    if spec.suit:
        start = spec.tiles[0]
        pieces = tuple(_piece(start, sets, pair, tileset)
                       for sets, pair in suit_splits(counts))
        pairs = 1 if len(key) % 3 == 2 else 0
        knit = any(counts[r] and counts[r + 3] and counts[r + 6] for r in range(3))
        complete, adds = _part_ranks(counts)
        segments = (_segment(len(key) % 3, complete, start, adds),)
    else:
        pairs = counts.count(2)
        knit = False
        pieces = ()
        if not any(n == 1 or n >= 4 for n in counts):
            groups = tuple(_group(PUNG if n == 3 else PAIR, t)
                           for t, n in zip(spec.tiles, counts, strict=True) if n)
            pungs = tuple(g.tile for g in groups if g.kind == PUNG)
            pair = next((g.tile for g in groups if g.kind == PAIR), -1) if pairs == 1 else -1
            pieces = (Piece(groups, (), pungs, pair, 0,
                            {t: IN_PUNG for t in pungs},
                            tuple(_written(g, tileset) for g in groups)),)
        segments = tuple(_segment(n % 3, n in (2, 3), t, _RANK_SETS[n in (1, 2)])
                         for t, n in zip(spec.tiles, counts, strict=True) if n)
    return Part(counts, len(key), pieces, pairs, all(n % 2 == 0 for n in counts), knit,
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
    lo = bisect_left(ordered, spec.tiles[0])
    hi = bisect_left(ordered, spec.end, lo)
    held = ordered[lo:hi]
    j = held.index(tile)
    key = held[:j] + held[j + 1:]
    if key:
        key = spec.tag + key
        found = _PARTS.get(key)
        part = found if found is not None else _part(key, spec, tileset)
    else:
        part = spec.empty
    parts = st.parts
    return _waits_of_parts((*parts[:i], part, *parts[i + 1:]))


def _waits_of_parts(parts: tuple[Part, ...]) -> frozenset[int]:
    # A waiting hand has one segment at 3n+1 tiles (the wait is there) or two at 3n+2 (the
    # wait is in one, the other keeps the pair), every other segment complete.
    ones: tuple[Segment, ...] = ()
    twos: tuple[Segment, ...] = ()
    incomplete = 0
    for part in parts:
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
    groups = [_group(kind, start + r) for kind, r in sets]
    if pair >= 0:
        groups.append(_group(PAIR, start + pair))
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
                 tuple(_written(g, tileset) for g in groups))
