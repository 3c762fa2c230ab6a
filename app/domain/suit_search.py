"""One suit of a hand with wild tiles (混), read one option per profile: the search behind
`app.domain.wildcards`'s reduced readings.

A suit's option cuts its natural tiles into groups that each hold at least one of them, wilds
filling the rest (`cuts`). Options whose groups the rule set's checks cannot tell apart (the
same profile: their groups' weights added, their bits for the winning tile or-ed, the wilds
they use, whether one is the pair) score alike, so the search finds one option per profile
without listing the others: what is left after a group depends only on the naturals left,
the wilds placed near them, the wilds still free and whether the pair is taken, and each
such state is worked out once, as the profiles its rest can take.

The states are many and small, so they are kept as ints: a suit's counts per rank packed
three bits a rank (no rank holds more than four tiles, naturals and wilds together), a cut as
the packed ranks it takes and places. The search is a class so that the compiled build calls
its steps directly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import product
from typing import Any, Final

from mypy_extensions import i64

from app.domain.hand import CHOW, PUNG
from app.domain.readings import PAIR, Group, wild_group

# One suit's option: its groups, the wilds they use, whether one is the pair, and the wilds
# per rank (to keep the caps when free groups are added).
SuitOption = tuple[tuple[Group, ...], int, bool, tuple[int, ...]]

# What the rule set's checks can tell apart in a group, given the winning tile, as numbers the
# caller assigns: the group's weight (groups look alike to every check when their weights are
# equal; the weights of a part's groups add up, so equal sums mean equal multisets) and a
# bit for each way it can hold the winning tile (its key and its key holding it).
GroupInfo = tuple[int, int]
# A part's profile: its groups' weights added, their bits for the winning tile or-ed, the
# wilds it uses and whether it holds the pair. Options of a part with one profile score alike.
Profile = tuple[int, int, int, bool]


class GroupDescriber:
    """What the rule set's checks tell apart in a group, given the winning tile: its weight
    and bits (`GroupInfo`). The engine's describer is `app.scoring.wild_readings`'s; a class
    rather than a function so that the compiled build calls it directly.

    `free_infos` is kept for `app.domain.free_groups` (what this describer tells of the free
    groups' classes, worked out once per describer); `near` and `coded`, what it told the
    searches of the cuts of each neighbourhood and of each cut's group (`infos_near`)."""

    free_infos: Any = None
    near: dict[int, list[tuple[int, int]]] | None = None
    coded: dict[Group, tuple[int, int]] | None = None

    def info(self, g: Group) -> GroupInfo:
        raise NotImplementedError

    def infos_near(self, key: int, cuts: tuple[_Cut, ...]) -> list[tuple[int, int]]:
        """What each of `cuts` (the cuts of the neighbourhood `key`, `_cuts_near`) adds to
        a profile's key and or-s into it (`_Search.rest`: its weight and wilds, its bits and
        pair), remembered by the key: the cuts of a key are always alike, and a search asks
        for them at every state of that neighbourhood (one lookup by an int instead of one
        by each group). At most `NEAR_LIMIT` keys."""
        near = self.near
        if near is None:
            near = self.near = {}
        found = near.get(key)
        if found is None:
            if len(near) >= NEAR_LIMIT:
                near.clear()  # a plain bound: an entry is worked out again alike
            found = near[key] = [self.coded_cut(cut) for cut in cuts]
        return found

    def coded_cut(self, cut: _Cut) -> tuple[int, int]:
        """What a cut adds to a profile's key and or-s into it (`infos_near`), remembered by
        its group (at most `NEAR_LIMIT` groups; the neighbourhoods share them)."""
        coded = self.coded
        if coded is None:
            coded = self.coded = {}
        group, _, _, spent, is_pair = cut
        found = coded.get(group)
        if found is None:
            if len(coded) >= NEAR_LIMIT:
                coded.clear()  # a plain bound: an entry is worked out again alike
            weight, bits = self.info(group)
            found = coded[group] = (_spread(weight, 0) << _PROFILE_LOW | spent << 1,
                                    _spread(0, bits) << _PROFILE_LOW | (1 if is_pair else 0))
        return found


class FunctionDescriber(GroupDescriber):
    """A describer that calls a function (group) -> `GroupInfo`: code that is not compiled
    (the tests) cannot subclass the compiled `GroupDescriber`, so it passes a function."""

    def __init__(self, fn: Callable[[Group], GroupInfo]) -> None:
        self.fn = fn

    def info(self, g: Group) -> GroupInfo:
        return self.fn(g)


# How many neighbourhoods' cuts a describer remembers what it told of (`infos_near`).
NEAR_LIMIT: Final = 256

# A profile as the search keys its states' answers: one int, the pair in bit 0, the wilds in
# the next five bits (a part never places more than 31), then per number n of what the
# checks tell apart a digit of five bits: the count of groups of weight number n in its low
# four (a part has at most five groups, so it never carries), bit n of the bits in its top
# one. A cut's weight and wilds are added to it and its bits and pair or-ed in, as they are
# to the profile; equal keys stand for equal profiles. An int hashes and compares faster
# than the tuple, and adding to it makes one object, not three.
_PROFILE_LOW: Final = 6
_WILDS_MAX: Final = 31


def _spread(weight: int, bits: int) -> int:
    """A profile key's digits (`_PROFILE_LOW` bits below them left out) for these weights
    (4-bit digits) and bits."""
    out = 0
    n = 0
    while weight:
        out |= (weight & 15) << (5 * n)
        weight >>= 4
        n += 1
    n = 0
    while bits:
        if bits & 1:
            out |= 1 << (5 * n + 4)
        bits >>= 1
        n += 1
    return out


def _profile_of(key: int) -> Profile:
    """The `Profile` a search's key stands for; read twelve digits at a time as native ints
    (shifting the whole key by each digit would make a new int at every step)."""
    code = key >> _PROFILE_LOW
    weight = held = 0
    done = 0  # digits read
    while code:
        chunk: i64 = code & _CHUNK
        code >>= 60
        w: i64 = 0
        h: i64 = 0
        n: i64 = 0
        while chunk:
            w |= (chunk & 15) << (4 * n)
            h |= ((chunk >> 4) & 1) << n
            chunk >>= 5
            n += 1
        # As ints, not native: shifted past the chunk, they may pass 64 bits.
        wide_w: int = w
        wide_h: int = h
        weight |= wide_w << (4 * done)
        held |= wide_h << done
        done += 12
    return weight, held, (key >> 1) & _WILDS_MAX, bool(key & 1)


_CHUNK: Final = (1 << 60) - 1  # twelve digits of a profile key

# Three bits per rank: a count of 0..4 (naturals left, wilds placed, room at a rank).
_BITS: Final = 3
_MASK: Final = 7  # (1 << _BITS) - 1
_SUIT: Final = 9


def packed(counts: Sequence[int]) -> int:
    """Counts per rank (each 0..4) as one int, rank 0 in the lowest bits."""
    code = 0
    for r in range(len(counts) - 1, -1, -1):
        code = (code << _BITS) | counts[r]
    return code


# `unpacked`'s answers: a search hands on two per profile, and few distinct ones recur (the
# wilds of a suit's options per rank). Emptied when full.
UNPACKED_LIMIT: Final = 4096
_UNPACKED: Final[dict[int, tuple[int, ...]]] = {}


def unpacked(code: int) -> tuple[int, ...]:
    """The nine counts of `packed` (remembered)."""
    found = _UNPACKED.get(code)
    if found is None:
        if len(_UNPACKED) >= UNPACKED_LIMIT:
            _UNPACKED.clear()  # a plain bound: an entry is worked out again alike
        found = _UNPACKED[code] = tuple([(code >> (_BITS * r)) & _MASK for r in range(_SUIT)])
    return found


def cuts(start: int, i: int, left: Sequence[int], used: Sequence[int], counts: Sequence[int],
         caps: Sequence[int], pair: bool, budget: int
         ) -> Iterator[tuple[Group, tuple[int, ...], tuple[int, ...], bool]]:
    """The groups that can hold the lowest natural left (rank i): (group, ranks of the
    naturals it takes, ranks of the wilds it places, whether it is the pair)."""
    for kind, size in ((PUNG, 3), (PAIR, 2)):
        if kind == PAIR and pair:
            continue
        for naturals in range(1, min(left[i], size) + 1):
            need = size - naturals
            if need > budget or counts[i] + used[i] + need > caps[i]:
                continue
            yield (wild_group(kind, start + i, (start + i,) * need), (i,) * naturals,
                   (i,) * need, kind == PAIR)
    for first in (i - 2, i - 1, i):
        if first < 0 or first > 6:
            continue
        # Each rank of the chow: the natural (required at i, none left below it) or a wild.
        choices = []
        for r in range(first, first + 3):
            ways = []
            if r >= i and left[r]:
                ways.append(False)
            if r != i and counts[r] + used[r] < caps[r]:
                ways.append(True)
            choices.append(ways)
        for pick in product(*choices):
            wild_ranks = tuple(first + k for k, w in enumerate(pick) if w)
            if len(wild_ranks) > budget:
                continue
            yield (wild_group(CHOW, start + first, tuple([start + r for r in wild_ranks])),
                   tuple(first + k for k, w in enumerate(pick) if not w), wild_ranks, False)


# A cut as the search applies it: the group, the naturals it takes and the wilds it places
# (packed), how many wilds, and whether it is the pair.
_Cut = tuple[Group, int, int, int, bool]

# `_cuts_near`'s entries: one per neighbourhood of a rank (the naturals there and the room
# around it), a few hundred per suit position.
CUTS_LIMIT: Final = 4096
_CUTS: Final[dict[int, tuple[_Cut, ...]]] = {}


def near_key(start: int, i: int, left: int, room: int) -> int:
    """The key of `_cuts_near`'s neighbourhood: all its cuts depend on."""
    return ((start * _SUIT + i) << 16 | room) << 9 | left


def _cuts_near(start: int, i: int, left: int, room: int, key: int) -> tuple[_Cut, ...]:
    """`cuts` at rank i, from what it reads there: `left` the naturals (packed) of the three
    ranks from i, `room` (packed) the room of each rank from two below i to two above (capped
    at two at rank i, at one elsewhere: all a cut asks of it); the pair not yet taken and two
    wilds to spend (no cut places more: the caller drops what its state cannot take).
    Remembered by all of these (the groups' tiles start at `start`): `key`, their
    `near_key`."""
    found = _CUTS.get(key)
    if found is None:
        low = i - 2 if i >= 2 else 0
        full = [0] * _SUIT
        caps = [0] * _SUIT
        for r in range(i, min(i + 3, _SUIT)):
            full[r] = (left >> (_BITS * (r - i))) & _MASK
        for r in range(low, min(i + 3, _SUIT)):
            caps[r] = (room >> (_BITS * (r - low))) & _MASK
        zero = [0] * _SUIT
        found = tuple((group, packed_ranks(take), packed_ranks(put), len(put), is_pair)
                      for group, take, put, is_pair
                      in cuts(start, i, full, zero, zero, caps, False, 2))
        if len(_CUTS) >= CUTS_LIMIT:
            _CUTS.clear()  # a plain bound: an entry is worked out again alike
        _CUTS[key] = found
    return found


def packed_ranks(ranks: Sequence[int]) -> int:
    """One tile at each of `ranks` (a rank may repeat), packed."""
    code = 0
    for r in ranks:
        code += 1 << (_BITS * r)
    return code


def clear_cuts() -> None:
    """Forget the remembered cuts (`_cuts_near`) and unpacked counts (`unpacked`)."""
    _CUTS.clear()
    _UNPACKED.clear()


def cuts_held() -> int:
    """How many neighbourhoods' cuts are remembered (`app.scoring.memory`)."""
    return len(_CUTS)


def unpacked_held() -> int:
    """How many unpacked counts are remembered (`app.scoring.memory`)."""
    return len(_UNPACKED)


class Entry:
    """A state's answer for one profile: one option, as its first group and the entry of
    the state after it (`group` and `rest`, None both at the end: a state's stand-in adds
    its group to its rest's without copying the others; `size` groups in all), the wilds it
    places (packed), its crowding (`_crowding`; -1 until two options of the profile meet)
    and the fewest wilds any option of the profile places at each rank (packed). A native
    object changed in place while its state is worked out (a tuple would be made anew at
    each option met), never after: the states' memo shares it, and so do the entries of
    the states before it."""

    __slots__ = ("added", "crowding", "group", "least", "rest", "size")

    def __init__(self, group: Group | None, rest: Entry | None, added: i64, crowding: i64,
                 least: i64, size: i64) -> None:
        self.group = group
        self.rest = rest
        self.added = added
        self.crowding = crowding
        self.least = least
        self.size = size


def _chained(entry: Entry) -> list[Group]:
    out: list[Group] = []
    group = entry.group
    while group is not None:
        out.append(group)
        nxt = entry.rest
        assert nxt is not None
        entry = nxt
        group = entry.group
    return out


def _crowding(added: i64, seen: i64, low: i64) -> i64:
    """How many ranks from `low` the wilds `added` fill to the room `seen` (the state's room,
    packed from `low`), then how unevenly they are spread (the sum of their squares, under 256):
    fewer full ranks first, then the more even."""
    full: i64 = 0
    spread: i64 = 0
    for r in range(low, _SUIT):
        a = (added >> (_BITS * r)) & _MASK
        room = (seen >> (_BITS * (r - low))) & _MASK
        if a:
            spread += a * a
            if a >= room:
                full += 1
        elif room <= 0:
            full += 1
    return full << 8 | spread


def _fewest(a: i64, b: i64, low: i64) -> i64:
    """Rank by rank the smaller of two packed counts (ranks below `low` are 0 in both)."""
    out: i64 = 0
    for r in range(low, _SUIT):
        shift = _BITS * r
        x = (a >> shift) & _MASK
        y = (b >> shift) & _MASK
        out |= (x if x < y else y) << shift
    return out


class _Search:
    """The states of one suit's search (see `profiled_options`)."""

    def __init__(self, start: int, free: list[int], info: GroupDescriber,
                 memo: dict[Any, Any], rank: int, later: dict[Any, Any]) -> None:
        self.start = start
        self.free = free  # per rank: the caps less the naturals (the room for wilds)
        self.info = info
        self.memo = memo
        self.rank = rank
        self.later = later
        self.done: dict[int, Entry] = {0: Entry(None, None, 0, -1, 0, 0)}

    def _seen(self, left: i64, used: i64, budget: i64, i: i64, low: i64) -> i64:
        """The room each rank from `low` has before the next group of a state whose lowest
        natural is at rank `i` (`free` less the wilds `used`), packed. Later groups hold rank
        i or above and reach down two ranks at most. Of the room left at a rank only as much
        matters as they could still fill: no more than the `budget`, and no more than one
        wild per natural two ranks around (a chow through the rank) and two per natural of
        the rank (its pung)."""
        free = self.free
        seen: i64 = 0
        window: i64 = 0  # the naturals of ranks r - 2 .. r + 2 (none below i)
        for q in range(i, low + 3 if low + 3 < _SUIT else _SUIT):
            window += (left >> (_BITS * q)) & _MASK
        for r in range(low, _SUIT):
            reach = ((left >> (_BITS * r)) & _MASK) + window
            room: i64 = free[r] - ((used >> (_BITS * r)) & _MASK)
            if room < 0:
                room = 0
            if budget < room:
                room = budget
            if reach < room:
                room = reach
            seen |= room << (_BITS * (r - low))
            if r >= 2:
                window -= (left >> (_BITS * (r - 2))) & _MASK
            if r + 3 < _SUIT:
                window += (left >> (_BITS * (r + 3))) & _MASK
        return seen

    def _room_near(self, used: i64, i: i64, low: i64, hi: i64) -> i64:
        """The room of ranks `low` to `hi` (whether there is any; at rank `i`, up to two),
        packed: all the cuts at rank `i` depend on."""
        free = self.free
        room_near: i64 = 0
        for r in range(low, hi):
            near: i64 = free[r] - ((used >> (_BITS * r)) & _MASK)
            cap = 2 if r == i else 1
            if near < 0:
                near = 0
            room_near |= (near if near < cap else cap) << (_BITS * (r - low))
        return room_near

    def rest(self, left: i64, used: i64, budget: i64, pair: bool) -> dict[int, Entry]:
        """The profiles the naturals `left` (packed) can still take, with the wilds `used`
        (packed) placed so far, `budget` wilds free and the pair taken or not."""
        if not left:
            return self.done
        i: i64 = 0
        while not (left >> (_BITS * i)) & _MASK:
            i += 1
        low: i64 = i - 2 if i >= 2 else 0
        seen = self._seen(left, used, budget, i, low)
        # The state: the naturals left (from rank i: none below), the room seen, the budget
        # and the pair, in one int (the budget highest, so it may take any number of bits).
        state: i64 = ((budget << 1 | (1 if pair else 0)) << (_BITS * _SUIT) | seen) << (
            _BITS * _SUIT) | left
        rank = self.rank
        states = self.memo if rank < 0 or (left >> (_BITS * rank)) & _MASK else self.later
        found: dict[int, Entry] | None = states.get(state)
        if found is not None:
            return found
        out: dict[int, Entry] = {}
        # The cuts depend only on the naturals from rank i and the room two ranks around it
        # (whether there is any; at rank i, up to two): remembered with two wilds to spend
        # and the pair free, the cuts this state cannot take are dropped here.
        hi: i64 = i + 3 if i < _SUIT - 3 else _SUIT
        room_near = self._room_near(used, i, low, hi)
        left_near = (left >> (_BITS * i)) & ((1 << (_BITS * (hi - i))) - 1)
        key = near_key(self.start, i, left_near, room_near)
        near = _cuts_near(self.start, i, left_near, room_near, key)
        told = self.info.infos_near(key, near)
        for k in range(len(near)):
            group, take, put, spent, is_pair = near[k]
            if spent > budget or (is_pair and pair):
                continue
            adds, ors = told[k]
            after = self.rest(left - take, used + put, budget - spent, pair or is_pair)
            for taken, option in after.items():
                profile = (taken + adds) | ors
                total = option.added + put
                fewest = option.least + put
                entry = out.get(profile)
                if entry is None:
                    out[profile] = Entry(group, option, total, -1, fewest, option.size + 1)
                    continue
                entry.least = _fewest(entry.least, fewest, low)
                # Keep as the stand-in the option that fills the fewest ranks to their cap
                # (a full rank keeps out every free chow through it), then the one placing
                # its wilds most evenly (worked out only when two options meet). The room
                # is the state's own (`seen`; below `low` no option places a wild), so the
                # stand-in of a state is the same whichever search first met it: a hand's
                # reading never depends on the hands scored before it.
                crowding = _crowding(total, seen, low)
                standing = entry.crowding if entry.crowding >= 0 else _crowding(entry.added,
                                                                                 seen, low)
                if crowding < standing:
                    entry.group = group
                    entry.rest = option
                    entry.added = total
                    entry.crowding = crowding
                else:
                    entry.crowding = standing
        states[state] = out
        return out


def profiled_entries(start: int, counts: tuple[int, ...], caps: tuple[int, ...], budget: int,
                     info: GroupDescriber, memo: dict[Any, Any],
                     rank: int = -1, after: dict[Any, Any] | None = None
                     ) -> dict[Profile, Entry]:
    """`profiled_options` as the search answers it, each option an `Entry` (made into an
    option by `entry_option`, its fewest wilds per rank by `entry_least`): a caller that
    looks at few of them makes only those."""
    if max(caps, default=0) > _MASK:
        raise ValueError(f"caps of more than {_MASK} tiles of a kind cannot be packed: {caps}")
    if budget > _WILDS_MAX:
        raise ValueError(f"more than {_WILDS_MAX} wilds cannot be packed: {budget}")
    free = [c - n for c, n in zip(caps, counts, strict=True)]
    search = _Search(start, free, info, memo, rank, memo if after is None else after)
    return {_profile_of(k): e for k, e in search.rest(packed(counts), 0, budget, False).items()}


def entry_option(profile: Profile, entry: Entry) -> SuitOption:
    """The option of a profile's `Entry` (`profiled_entries`)."""
    return tuple(sorted(_chained(entry))), profile[2], profile[3], unpacked(entry.added)


def entry_least(entry: Entry) -> tuple[int, ...]:
    """The fewest wilds any option of an `Entry`'s profile places at each rank."""
    return unpacked(entry.least)


def profiled_options(start: int, counts: tuple[int, ...], caps: tuple[int, ...], budget: int,
                     info: GroupDescriber, memo: dict[Any, Any],
                     rank: int = -1, after: dict[Any, Any] | None = None
                     ) -> dict[Profile, tuple[SuitOption, tuple[int, ...]]]:
    """One option of a suit per profile (as listing every option would, then keeping one per
    profile), the one crowding the fewest ranks (most room for free groups), with the
    fewest wilds any option of the profile places at each rank.

    `rank`: the rank of a natural winning tile in this suit (-1: none). `info` tells groups
    holding it apart from the others, so its states are kept in `memo` while naturals of that
    rank are left, in `after` (the states of searches whose winning tile is outside the
    suit) once none is: no group of the rest can hold it.
    """
    return {p: (entry_option(p, e), entry_least(e))
            for p, e in profiled_entries(start, counts, caps, budget, info, memo, rank,
                                         after).items()}
