"""Readings of a hand that holds wild tiles (混).

A wild tile may stand for any tile, or for itself, but a reading never holds more than four
of a kind (the `caps`: the tile set's copies less those in declared melds). The standing
tiles split into the natural tiles (not wild) and a budget of wilds; a reading cuts the
naturals into groups as `decompose` does, a wild filling each missing tile of a group, and
the wilds left over make groups of their own ("free" groups).

- Groups holding a natural tile ("anchored") are worked out per suit and combined across
  suits and honours within the budget. Without a `Reducer` every option of a suit is listed
  (`_suit_options`). With one, the rule set's checks have said what they tell apart (see
  `check(tells_apart=)`), and options of a suit that look alike to every check (the same
  profile: group keys, places for the winning tile, wilds used, pair) are one: a search that
  shares every state it reaches (`profiled_options`) finds one stand-in per profile without
  listing the others.
- A free group is made of wilds only, so any identity would do. The rule set says which
  identities its fans can tell apart (`FreeClasses`, `app.domain.free_groups`); one member of
  each class is tried, the first with room left (never a fifth copy). Without declarations
  every identity is a class.
  When a stand-in leaves no room for the free groups, an equivalent option may: the search is
  run again with that room kept back (`_Bucket.fits`), so the answer stays exact.
- Each reading names where the winning tile sits (`Reading.win`, `Reading.win_as`): a natural
  winning tile in a group holding that kind naturally; a wild winning tile in any group with
  a wild, read as one of the tiles its wilds stand for. Different places score differently
  (混儿吊, 捉五), so each is its own reading.

Shapes: the regular shape (sets and one pair) and seven pairs (four of a kind is two pairs).
The other special shapes are not read with wilds; the loader refuses a rule set that has both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any, Final, NamedTuple

from app.domain.free_groups import (
    ClassInfos,
    FreeClasses,
    Identity,
    assign,
    assign_pairs,
    assignments,
    class_infos,
    every_identity,
    group_tiles,
    left_fits,
    room_left,
    sets_info,
)
from app.domain.hand import PUNG
from app.domain.readings import PAIR, Group, Reading, wild_group
from app.domain.shapes import REGULAR, SEVEN_PAIRS
from app.domain.suit_search import (
    Entry,
    GroupDescriber,
    GroupInfo,
    Profile,
    SuitOption,
    clear_cuts,
    cuts,
    entry_least,
    entry_option,
    profiled_entries,
)
from app.domain.tiles import TileSet

# Hot-path named tuples are built with `tuple.__new__(Type, fields)`: a NamedTuple's own
# constructor runs a Python-level __new__ that costs several times more.
_new: Final = tuple.__new__

# Bounded: an entry for many naturals and wilds holds thousands of options (the full
# reading only: `wild.read: full`).
SUIT_OPTIONS_LIMIT: Final = 256


@lru_cache(maxsize=SUIT_OPTIONS_LIMIT)
def _suit_options(start: int, counts: tuple[int, ...], caps: tuple[int, ...],
                  budget: int) -> tuple[SuitOption, ...]:
    """Every way to cut one suit's natural tiles into groups that each hold at least one of
    them, filling with at most `budget` wilds; at most one pair (the cuts of `cuts`, every
    option listed: the full reading, and the measure the reduced searches are tested by)."""
    found: dict[tuple[Group, ...], SuitOption] = {}
    left = list(counts)
    used = [0] * 9  # wilds standing for each rank
    groups: list[Group] = []

    def walk(wilds: int, pair: bool) -> None:
        i = 0
        while i < 9 and not left[i]:
            i += 1
        if i == 9:
            key = tuple(sorted(groups))
            if key not in found:
                found[key] = (key, wilds, pair, tuple(used))
            return
        for group, take, put, is_pair in cuts(start, i, left, used, counts, caps, pair,
                                                budget - wilds):
            for r in take:
                left[r] -= 1
            for r in put:
                used[r] += 1
            groups.append(group)
            walk(wilds + len(put), pair or is_pair)
            groups.pop()
            for r in take:
                left[r] += 1
            for r in put:
                used[r] -= 1

    walk(0, False)
    return tuple(found.values())


def clear_cache() -> None:
    """Empty the module-wide caches of suit options, honours' buckets and cuts."""
    _suit_options.cache_clear()
    _HONOURS.clear()
    clear_cuts()


# An honour's buckets (`_honour_buckets`), by (tile, naturals, cap): 7 honours x 4 x 5 in a
# standard set; bounded all the same.
HONOURS_LIMIT: Final = 512
_HONOURS: Final[dict[tuple[int, int, int], tuple[_Bucket, ...]]] = {}


def _honour_buckets(t: int, n: int, cap: int) -> tuple[_Bucket, ...]:
    """The options of `n` naturals of honour `t` (a pair or a pung, wilds filling it), each
    its own bucket; remembered (they depend on nothing else)."""
    found = _HONOURS.get((t, n, cap))
    if found is None:
        if len(_HONOURS) >= HONOURS_LIMIT:
            _HONOURS.clear()
        fixed = _Fixed((cap,), (n,))
        found = _HONOURS[(t, n, cap)] = tuple(_listed(o, fixed)
                                              for o in _honour_options(t, n, cap))
    return found


def _honour_options(t: int, n: int, cap: int) -> tuple[SuitOption, ...]:
    out: list[SuitOption] = []
    if n <= 2 and cap >= 2:
        out.append(((wild_group(PAIR, t, (t,) * (2 - n)),), 2 - n, True, (2 - n,)))
    if n <= 3 and cap >= 3:
        out.append(((wild_group(PUNG, t, (t,) * (3 - n)),), 3 - n, False, (3 - n,)))
    return tuple(out)


# Bounds of the wild searches' memos (`Reducer`), emptied when full. The memo keeps a hand
# seen again from being read from scratch; the states help within a hand, and fewer of them
# kept from other hands (rarely met again) run a discard analysis's slowest hands faster.
# One hand alone never comes near either bound. Measured sizes and timings: bench/README.md
# ("The bounds of the engine's memos"); what they hold: `app.scoring.memory`.
MEMO_LIMIT: Final = 1024
STATES_LIMIT: Final = 1500


class Reducer(NamedTuple):
    # A group's weight and bits (`GroupInfo`): the bits may depend on the winning tile only
    # through `places` of the group (the searches' memos are shared on that ground).
    info: GroupDescriber
    # Per part (suit, counts, caps, budget, winning tile as `_reduced` keys it): its buckets.
    memo: dict[tuple[object, ...], tuple[_Bucket, ...]]
    # The search's states (see `profiled_options`), shared by every search of a suit with
    # this winning tile (or one that cannot sit in what is left): a state is described by
    # what is left and the room, never by the caps or the counts it came from, so searches
    # with room kept back reuse most of them.
    states: dict[tuple[object, ...], Any]


def wild_readings(naturals: Sequence[int], wilds: int, declared: tuple[Group, ...],
                  caps: Sequence[int], win_tile: int, win_wild: bool, shapes: frozenset[str],
                  tileset: TileSet, free: FreeClasses,
                  reducer: Reducer | None = None) -> Iterator[Reading]:
    """Every reading of standing `naturals` (counts) plus `wilds` wild tiles, after the
    `declared` melds, with the winning tile placed (see the module docstring). Readings of
    one grouping come together, one per place of the winning tile."""
    for shape, groups in wild_groupings(naturals, wilds, declared, caps, win_tile, win_wild,
                                        shapes, tileset, free, reducer):
        yield from _placed(shape, groups, win_tile, win_wild)


def wild_groupings(naturals: Sequence[int], wilds: int, declared: tuple[Group, ...],
                   caps: Sequence[int], win_tile: int, win_wild: bool, shapes: frozenset[str],
                   tileset: TileSet, free: FreeClasses, reducer: Reducer | None = None,
                   distinct: bool = False, wanted: Wanted | None = None
                   ) -> Iterator[tuple[str, tuple[Group, ...]]]:
    """The groupings of `wild_readings` (shape, groups), before the winning tile is placed:
    the caller places it (`places`) when it can tell places apart more cheaply.

    `distinct` (with a `reducer`): of the regular groupings, only the first of those whose
    groups add up to the same weights and the same bits for the winning tile (`GroupInfo`):
    for a caller that tells readings apart by no more than these (the weights sum and the
    key of each place of the winning tile, which the bits stand for), a later one adds no
    reading. They are told apart from the parts' profiles, before the groups are put
    together or described. `wanted` (with `distinct`): asked instead whether to make each
    regular grouping (its parts' weights and bits, the declared groups' left out)."""
    if SEVEN_PAIRS in shapes and not declared:
        for groups in _seven_pairs(naturals, wilds, caps, free):
            yield SEVEN_PAIRS, groups
    if REGULAR in shapes:
        for groups in _regular(naturals, wilds, len(declared), caps, tileset, free, reducer,
                               (win_tile, win_wild), distinct and reducer is not None,
                               wanted):
            yield REGULAR, declared + groups


class _Bucket:
    """The options of one part the rule set's checks cannot tell apart: the first stands for
    all (`first`); when it leaves no room for the free groups, another may: `least_used` (the
    fewest wilds any of them places at each rank) says whether one could, and `fits(need)`
    finds one leaving at least `need` tiles of room at each rank of the part (None if none
    does). `wilds`, `pair` and `size` are the first's wilds used, whether it holds the pair
    and its groups. With a `Reducer`, `weight` and `held` are their profile's weights and
    bits (`Profile`), 0 without one. A bucket of the reduced search makes its first option
    and `least_used` only when asked (from the search's `Entry`): most buckets are only
    weighed by the groupings they could make."""

    def __init__(self, option: SuitOption | None, entry: Entry | None, profile: Profile,
                 least: tuple[int, ...] | None, size: int, weight: int, held: int,
                 finder: _Finder) -> None:
        self.option = option
        self.entry = entry
        self.profile = profile
        self.wilds = profile[2]
        self.pair = profile[3]
        self.size = size
        self.least = least
        self.weight = weight
        self.held = held
        self.finder = finder

    def first(self) -> SuitOption:
        option = self.option
        if option is None:
            assert self.entry is not None
            option = self.option = entry_option(self.profile, self.entry)
        return option

    def least_used(self) -> tuple[int, ...]:
        least = self.least
        if least is None:
            assert self.entry is not None
            least = self.least = entry_least(self.entry)
        return least

    def fits(self, need: tuple[int, ...]) -> SuitOption | None:
        return self.finder.find(self, need)

    def weighed(self, weight: int, held: int) -> _Bucket:
        """This bucket with other weights and bits."""
        return _Bucket(self.first(), None, self.profile, self.least_used(), self.size, weight,
                       held, self.finder)


class _Finder:
    """How a part finds an option of a bucket leaving some room (`_Bucket.fits`)."""

    def find(self, bucket: _Bucket, need: tuple[int, ...]) -> SuitOption | None:
        raise NotImplementedError


class _Fixed(_Finder):
    """A part whose buckets each hold a single option: it fits if it leaves the room."""

    def __init__(self, caps: tuple[int, ...], counts: tuple[int, ...]) -> None:
        self.caps = caps
        self.counts = counts

    def find(self, bucket: _Bucket, need: tuple[int, ...]) -> SuitOption | None:
        option = bucket.first()
        ok = all(n + u + d <= c for c, n, u, d in zip(self.caps, self.counts, option[3], need,
                                                       strict=True))
        return option if ok else None


class _Searched(_Finder):
    """A part read by the reduced search: an option of the bucket's profile that leaves
    `need` at each rank, if there is one: the caps lowered by `need`, a search for that
    profile alone (`_find_option`), remembered."""

    def __init__(self, start: int, seg: tuple[int, ...], caps: tuple[int, ...], budget: int,
                 info: GroupDescriber) -> None:
        self.start = start
        self.seg = seg
        self.caps = caps
        self.budget = budget
        self.info = info
        self.found: dict[tuple[Profile, tuple[int, ...]], SuitOption | None] = {}

    def find(self, bucket: _Bucket, need: tuple[int, ...]) -> SuitOption | None:
        profile = bucket.profile
        if (profile, need) not in self.found:
            less = tuple(c - d for c, d in zip(self.caps, need, strict=True))
            self.found[(profile, need)] = (
                _find_option(self.start, self.seg, less, self.budget, self.info.info, profile)
                if all(n <= c for n, c in zip(self.seg, less, strict=True)) else None)
        return self.found[(profile, need)]


def _listed(option: SuitOption, finder: _Finder) -> _Bucket:
    """A bucket of one listed option (the full reading, an honour)."""
    return _Bucket(option, None, (0, 0, option[1], option[2]), option[3], len(option[0]), 0, 0,
                   finder)


def _profile(option: SuitOption, info: Callable[[Group], GroupInfo]) -> Profile:
    """The profile of one listed option (what `profiled_options` groups them by)."""
    weight = held = 0
    for g in option[0]:
        w, bits = info(g)
        weight += w
        held |= bits
    return weight, held, option[1], option[2]


def _reduced(start: int, seg: tuple[int, ...], caps: tuple[int, ...], budget: int,
             reducer: Reducer | None, win: tuple[int, bool]) -> tuple[_Bucket, ...]:
    if reducer is None:
        fixed = _Fixed(caps, seg)
        return tuple(_listed(o, fixed) for o in _suit_options(start, seg, caps, budget))
    # The winning tile tells a suit's options apart only through where it can sit in their
    # groups (`places`): a wild one on a group's wilds, whatever wild it is; a natural one
    # outside the suit in none of them. Searches differing only so share memo and states.
    if win[1] or not start <= win[0] < start + len(seg):
        win = (-1, win[1])
    key = (start, seg, caps, budget, win)
    kept = reducer.memo.get(key)
    if kept is None:
        if len(reducer.memo) >= MEMO_LIMIT:
            reducer.memo.clear()  # a plain bound: hands with wilds are a small share
            reducer.states.clear()
        info = reducer.info
        # The searches' states, all suits and winning tiles together, kept within a bound.
        if sum(map(len, reducer.states.values())) > STATES_LIMIT:
            reducer.states.clear()
        states = reducer.states.setdefault((start, win), {})
        # A natural winning tile of the suit sits only in a group holding it naturally: once
        # a search has cut every natural of its rank, the rest is read as with the winning
        # tile outside the suit, and shares those states.
        rank = win[0] - start if win[0] >= 0 else -1
        after = reducer.states.setdefault((start, (-1, False)), {}) if rank >= 0 else states
        finder = _Searched(start, seg, caps, budget, info)
        kept = reducer.memo[key] = tuple([
            _Bucket(None, e, p, None, e.size, p[0], p[1], finder)
            for p, e in profiled_entries(start, seg, caps, budget, info, states, rank,
                                         after).items()])
    return kept


def _find_option(start: int, counts: tuple[int, ...], caps: tuple[int, ...], budget: int,
                 info: Callable[[Group], GroupInfo], target: Profile) -> SuitOption | None:
    """One option of a suit with exactly the profile `target`, within `caps`, or None.

    The same cuts as `profiled_options`, depth first, dropping a branch as soon as its
    groups cannot add up to the target: their weights exceed it in some key (weights are
    counts in 4-bit digits, at most five groups, so a digit never carries), their bits are
    not the target's, or they use more wilds. Dead states are remembered.
    """
    t_weight, t_bits, t_wilds, t_pair = target
    digits = t_weight.bit_length() // 4 + 1
    guard = int("8" * digits, 16)  # the top bit of every digit
    dead: set[tuple[object, ...]] = set()
    groups: list[Group] = []
    left = list(counts)
    used = [0] * 9

    def within(weight: int) -> bool:
        # Every digit of `weight` at most the target's: subtracting it from the target with
        # each digit's top bit set borrows (clears that bit) exactly where it is larger.
        return weight.bit_length() <= 4 * digits and ((t_weight | guard) - weight) & guard == guard

    def walk(weight: int, bits: int, wilds: int, pair: bool) -> bool:
        i = 0
        while i < 9 and not left[i]:
            i += 1
        if i == 9:
            return (weight, bits, wilds, pair) == target
        state = (tuple(left[i:]), tuple(used[max(0, i - 2):]), weight, bits, wilds, pair)
        if state in dead:
            return False
        for group, take, put, is_pair in cuts(start, i, left, used, counts, caps, pair,
                                                min(budget, t_wilds) - wilds):
            w, b = info(group)
            if (not within(weight + w) or (bits | b) & ~t_bits or (is_pair and not t_pair)):
                continue
            for r in take:
                left[r] -= 1
            for r in put:
                used[r] += 1
            groups.append(group)
            if walk(weight + w, bits | b, wilds + len(put), pair or is_pair):
                return True
            groups.pop()
            for r in take:
                left[r] += 1
            for r in put:
                used[r] -= 1
        dead.add(state)
        return False

    if not walk(0, 0, 0, False):
        return None
    return tuple(sorted(groups)), t_wilds, t_pair, tuple(used)


def _parts(naturals: Sequence[int], wilds: int, caps: Sequence[int], tileset: TileSet,
           reducer: Reducer | None, win: tuple[int, bool]
           ) -> list[tuple[int, tuple[_Bucket, ...]]] | None:
    """The parts of the hand holding tiles other than wild (each numbered suit, then each
    honour), each with its first tile and its options (`_reduced`, `_honour_buckets`); None
    when some part cannot be read with the wilds at hand."""
    parts: list[tuple[int, tuple[_Bucket, ...]]] = []
    for suit in tileset.suits:
        start = tileset.suit_starts[suit]
        seg = tuple(naturals[start:start + 9])
        if any(seg):
            buckets = _reduced(start, seg, tuple(caps[start:start + 9]), wilds, reducer, win)
            if not buckets:
                return None
            parts.append((start, buckets))
    kinds = tileset.kinds
    for t in tileset.playing:
        if naturals[t] and kinds[t].is_honor:
            honour = _honour_buckets(t, naturals[t], caps[t])
            if not honour:
                return None
            if reducer is not None:
                # Their weights and bits depend on the winning tile: told here, per hand.
                honour = tuple([b.weighed(*_weighed(b.first()[0], reducer.info))
                                for b in honour])
            parts.append((t, honour))
    return parts


def _weighed(groups: Sequence[Group], info: GroupDescriber) -> tuple[int, int]:
    """The weights added and the bits or-ed of `groups` (`GroupInfo`)."""
    weight = held = 0
    for g in groups:
        w, bits = info.info(g)
        weight += w
        held |= bits
    return weight, held


class Wanted:
    """Asked by `wild_groupings` (`distinct`) of each regular grouping before it is made,
    with its parts' weights and bits: whether to make it. This one says yes to the first of
    each weights and bits. A caller telling readings apart by what these say of them may
    say more precisely whether it would take anything of it: its answer must be no for
    weights and bits like those of a grouping handed on before (it took all it would of
    it), and may turn from yes to no only as groupings are handed on."""

    def __init__(self) -> None:
        self.marks: set[tuple[int, int]] = set()

    def wants(self, weight: int, held: int) -> bool:
        mark = (weight, held)
        if mark in self.marks:
            return False
        self.marks.add(mark)
        return True

    def would_want(self, weight: int, held: int) -> bool:
        """What `wants` would answer now, taking nothing (asked before a grouping that may
        not be made is worked out: no grouping is handed on in between)."""
        return (weight, held) not in self.marks


def _regular(naturals: Sequence[int], wilds: int, n_declared: int, caps: Sequence[int],
             tileset: TileSet, free: FreeClasses, reducer: Reducer | None,
             win: tuple[int, bool], distinct: bool = False,
             wanted: Wanted | None = None) -> Iterator[tuple[Group, ...]]:
    """The regular groupings of the hand: one option of each part (`_parts`), the wilds
    left over making the missing sets (and the pair) on their own. Depth first with a stack
    (nested generators would hand each grouping up through every part), each handed on once
    made: a comparison ending early (`app.scoring.ceiling`) makes no more. `distinct`: see
    `wild_groupings` (needs the `reducer`)."""
    parts = _parts(naturals, wilds, caps, tileset, reducer, win)
    if parts is None:
        return
    # Asked of each grouping before it is made (`distinct`); None: every grouping.
    told = (wanted if wanted is not None else Wanted()) if distinct else None
    info = reducer.info if reducer is not None else None
    base: list[int] | None = None  # the caps less the naturals, once wilds are left over
    sets_needed = 4 - n_declared
    chosen: list[_Bucket] = []
    starts = [start for start, _ in parts]
    n_parts = len(parts)
    # Per depth: the next option to try; the wilds used, pair held, sets made before it.
    following = [0] * (n_parts + 1)
    used = [0] * (n_parts + 1)
    paired = [False] * (n_parts + 1)
    made = [0] * (n_parts + 1)
    weights = [0] * (n_parts + 1)
    helds = [0] * (n_parts + 1)
    k = 0
    while k >= 0:
        if k == n_parts:
            # The wilds left must make the missing sets (and the pair) on their own.
            free_sets = sets_needed - made[k]
            if used[k] == wilds and free_sets == 0 and paired[k]:
                # No wild left over (most groupings): the parts' stand-ins alone.
                if told is None or told.wants(weights[k], helds[k]):
                    yield tuple([g for bucket in chosen for g in bucket.first()[0]])
            elif left_fits(wilds - used[k], free_sets, paired[k]):
                if base is None:
                    base = [c - n for c, n in zip(caps, naturals, strict=True)]
                yield from _with_free(chosen, starts, used[k], paired[k], wilds, free_sets,
                                      base, free, told, info, weights[k], helds[k],
                                      None if info is None else class_infos(free, info))
        else:
            buckets = parts[k][1]
            i = following[k]
            while i < len(buckets):
                bucket = buckets[i]
                i += 1
                if bucket.pair and paired[k]:
                    continue
                if used[k] + bucket.wilds > wilds:
                    continue
                more = made[k] + bucket.size - bucket.pair  # its groups, the pair aside
                if more > sets_needed:
                    continue
                following[k] = i
                chosen.append(bucket)
                used[k + 1] = used[k] + bucket.wilds
                paired[k + 1] = paired[k] or bucket.pair
                made[k + 1] = more
                weights[k + 1] = weights[k] + bucket.weight
                helds[k + 1] = helds[k] | bucket.held
                following[k + 1] = 0
                k += 1
                break
            else:
                following[k] = 0
                k -= 1
                if k >= 0:
                    chosen.pop()
            continue
        k -= 1
        if k >= 0:
            chosen.pop()


def _with_free(chosen: list[_Bucket], starts: list[int], used: int, pair: bool, wilds: int,
               free_sets: int, base: list[int],
               free: FreeClasses, told: Wanted | None = None,
               info: GroupDescriber | None = None, weight: int = 0,
               held: int = 0, infos: ClassInfos | None = None
               ) -> Iterator[tuple[Group, ...]]:
    """The groupings of the parts' stand-ins `chosen` with `free_sets` sets (and the pair
    unless `pair`) made of the wilds left (`left_fits` holds); `base` the room of each kind
    before any wild is placed (the caps less the naturals). With `told` (and `info`),
    only those whose weights and bits, with the parts' `weight` and `held`, it wants
    (`wild_groupings`'s `distinct`). `infos` (`free_groups.class_infos`): where every
    class of a choice has one weight and bits, `told` is asked before the free groups are
    placed (whichever members are placed, their weights and bits are those), and a choice
    it would not take is not placed."""
    left = wilds - used
    free_pair = 0 if pair else 1
    if not left:
        if told is not None and not told.wants(weight, held):
            return
        yield tuple(g for bucket in chosen for g in bucket.first()[0])
        return
    reps: list[SuitOption] = []  # the stand-ins, once a choice is placed
    room: list[int] | None = None
    most_room: list[int] | None = None
    pair_choices: tuple[tuple[Identity, ...] | None, ...] = free.pairs if free_pair else (None,)
    pair_infos: tuple[GroupInfo | None, ...] = (
        (infos[1] if free_pair else (None,)) if infos is not None else ())
    for combo in combinations_with_replacement(range(len(free.sets)), free_sets):
        classes: list[tuple[Identity, ...]] | None = None
        # The sets' weight and bits, asked ahead when each class has one.
        sets = sets_info(combo, infos) if told is not None else None
        for p, pair_class in enumerate(pair_choices):
            if sets is not None and told is not None:
                known = (0, 0) if pair_class is None else pair_infos[p]
                if known is not None and not told.would_want(
                        weight + sets[0] + known[0], held | sets[1] | known[1]):
                    continue
            if classes is None:
                classes = [free.sets[c] for c in combo]
            wanted = classes if pair_class is None else [*classes, pair_class]
            if room is None:
                reps = [bucket.first() for bucket in chosen]
                room = room_left(reps, starts, base)
            picked = assign(wanted, room)
            if picked is not None:
                if told is not None and info is not None:
                    w, b = _weighed(picked, info)
                    if not told.wants(weight + w, held | b):
                        continue
                yield (*(g for option in reps for g in option[0]), *picked)
                continue
            # The stand-ins leave no room: equivalent options of the parts may, if even the
            # most room any of them leaves is enough.
            if most_room is None:
                most_room = room_left([(o[0], o[1], o[2], b.least_used())
                                       for o, b in zip(reps, chosen, strict=True)],
                                      starts, base)
            for trial in assignments(wanted, most_room):
                members = _fitting(trial, chosen, starts)
                if members is not None:
                    if told is not None and info is not None:
                        # The members share their parts' profiles: the same weights, bits.
                        w, b = _weighed(trial, info)
                        if not told.wants(weight + w, held | b):
                            break
                    yield (*(g for option in members for g in option[0]), *trial)
                    break


def _fitting(groups: list[Group], chosen: list[_Bucket],
             starts: list[int]) -> list[SuitOption] | None:
    """An option of each part's bucket leaving room for the free `groups`, or None."""
    need: dict[int, int] = {}
    for g in groups:
        for x in g.subs:
            need[x] = need.get(x, 0) + 1
    members = []
    for bucket, start in zip(chosen, starts, strict=True):
        width = len(bucket.least_used())
        part_need = tuple(need.get(start + r, 0) for r in range(width))
        if not any(part_need):
            members.append(bucket.first())
            continue
        option = bucket.fits(part_need)
        if option is None:
            return None
        members.append(option)
    return members


def _seven_pairs(naturals: Sequence[int], wilds: int, caps: Sequence[int],
                 free: FreeClasses) -> Iterator[tuple[Group, ...]]:
    """七对 with wilds: an odd count takes one wild; the wilds left make pairs of their own."""
    groups: list[Group] = []
    left = wilds
    room = list(caps)
    for t, n in enumerate(naturals):
        if not n:
            continue
        if n % 2:
            if not left or n + 1 > caps[t]:
                return
            left -= 1
            groups.extend([Group(PAIR, t)] * (n // 2))
            groups.append(Group(PAIR, t, subs=(t,)))
            room[t] -= n + 1
        else:
            groups.extend([Group(PAIR, t)] * (n // 2))
            room[t] -= n
    if len(groups) * 2 + left != 14 or left % 2:
        return
    for combo in combinations_with_replacement(range(len(free.pairs)), left // 2):
        picked = assign_pairs([free.pairs[c] for c in combo], room)
        if picked is not None:
            yield tuple(sorted((*groups, *picked)))


def _placed(shape: str, groups: tuple[Group, ...], win_tile: int,
            win_wild: bool) -> Iterator[Reading]:
    """The reading once per distinct place of the winning tile."""
    seen: set[tuple[Group, int]] = set()
    for i, g in enumerate(groups):
        for as_tile in places(g, win_tile, win_wild):
            if (g, as_tile) not in seen:
                seen.add((g, as_tile))
                yield _new(Reading, (shape, groups, i, as_tile, ()))


def places(g: Group, win_tile: int, win_wild: bool) -> tuple[int, ...]:
    """What the winning tile may be read as in group `g` (empty: it cannot sit there)."""
    if g.declared:
        return ()
    if win_wild:
        return tuple(sorted(set(g.subs)))
    tiles = group_tiles(g.kind, g.tile)
    return (win_tile,) if tiles.count(win_tile) > g.subs.count(win_tile) else ()


__all__ = [
    "FreeClasses",
    "GroupInfo",
    "Identity",
    "Reducer",
    "Wanted",
    "clear_cache",
    "every_identity",
    "group_tiles",
    "places",
    "wild_groupings",
    "wild_readings",
]
