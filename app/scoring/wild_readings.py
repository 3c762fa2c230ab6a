"""Readings of a hand holding wild tiles (混), as the checks see them.

`app.domain.wildcards` lists the ways wilds can fill a hand; here each becomes a `View` on the
facts of its substitution (the hand as read, the wilds replaced by what they stand for), whose
hand fans are decided once. Where every check of the rule set says what it tells apart in a
group (`WildPlan.group_keys`), readings that look the same to every check are scored once and
the searches keep their memos in the rule set's plan.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final

from app.domain.hand import Hand
from app.domain.readings import Group, Reading
from app.domain.shapes import REGULAR, declared_groups
from app.domain.suit_search import GroupDescriber
from app.domain.tiles import TileSet
from app.domain.wildcards import (
    GroupInfo,
    Reducer,
    Wanted,
    places,
    wild_groupings,
    wild_readings,
)
from app.domain.wildcards import clear_cache as _suit_options_cache_clear
from app.rules.model import RuleSet
from app.rules.plan import KEYS_LIMIT, WildPlan
from app.rules.view import HandFacts, SubstitutedFacts, View
from app.scoring.fans import HandFans

# Hot-path named tuples are built with `tuple.__new__(Type, fields)`: a NamedTuple's own
# constructor runs a Python-level __new__ that costs several times more.
_new: Final = tuple.__new__


def forget_wild_memos(rs: RuleSet, keys: bool = False) -> None:
    """Forget what was memoised about hands with wilds for this rule set (and the module-wide
    cache of suit options), so the next wild hand is read from scratch (benchmarks time it).
    With `keys`, also the table of group keys, which holds one entry per kind of group and
    fills up with a rule set's first few hands."""
    _suit_options_cache_clear()
    if rs.plan.wild is not None:
        rs.plan.wild.forget(keys)


# What one describer remembers by group (each of `mine` and `infos`), and how many describers
# a plan keeps (one per winning tile and whether it is wild): emptied when full.
DESCRIBED_LIMIT: Final = 256
DESCRIBERS_LIMIT: Final = 128


class _Describer(GroupDescriber):
    """What the searches and the signatures of readings are told of a group, for one hand
    (its winning tile): per group, its weight (by its key, and for a declared meld how it
    was declared), and per place of the winning tile (the tile it is read as, its key
    there). Kept in the plan for every hand with this winning tile (the key and numbers of
    a group depend on nothing else), and by group in the describer itself (a lookup that
    hashes the group alone), which the plan keeps for the next hand with this winning tile."""

    def __init__(self, wp: WildPlan, tileset: TileSet, win_tile: int, win_wild: bool) -> None:
        self.wp = wp
        self.tileset = tileset
        self.win_tile = win_tile
        self.win_wild = win_wild
        self.numbers = wp.numbers
        self.counts = wp.number_counts
        self.seen = wp.described
        self.mine: dict[Group, tuple[int, int, int, tuple[tuple[int, int], ...]]] = {}
        self.infos: dict[Group, GroupInfo] = {}

    def number(self, thing: tuple[object, ...]) -> int:
        """A small number for what the checks tell apart, within its family (`thing[0]`): a
        weight's digit, a bit of places."""
        found = self.numbers.get(thing)
        if found is None:
            found = self.numbers[thing] = self.counts.get(thing[0], 0)
            self.counts[thing[0]] = found + 1
        return found

    def described(self, g: Group) -> tuple[int, int, int, tuple[tuple[int, int], ...]]:
        """(weight, bits of its places, key, ((tile read as, key there) per place))."""
        known = self.mine.get(g)
        if known is not None:
            return known
        win_tile, win_wild, seen = self.win_tile, self.win_wild, self.seen
        found = seen.get((g, win_tile, win_wild))
        if found is None:
            if len(seen) >= KEYS_LIMIT:
                seen.clear()  # a plain bound: an entry is worked out again alike
            wp, tileset = self.wp, self.tileset
            key = wp.group_key(g.kind, g.tile, tileset)
            number = self.number(("weight", key, g.declared, g.concealed))
            wp.weight_things[number] = (key, g.declared, g.concealed)
            weight = 1 << (4 * number)
            at = tuple(
                (w, wp.group_key(g.kind, g.tile, tileset, (w, len(g.subs) - win_wild)))
                for w in places(g, win_tile, win_wild))
            bits = 0
            for _, win_key in at:
                bit = self.number(("held", key, win_key))
                wp.held_things[bit] = (key, win_key)
                bits |= 1 << bit
            found = seen[(g, win_tile, win_wild)] = (weight, bits, key, at)
        if len(self.mine) >= DESCRIBED_LIMIT:
            self.mine.clear()  # a plain bound: an entry is looked up again alike
        self.mine[g] = found
        return found

    def info(self, g: Group) -> GroupInfo:
        # Kept per group as made (the searches ask it of each cut they try).
        found = self.infos.get(g)
        if found is None:
            described = self.described(g)
            if len(self.infos) >= DESCRIBED_LIMIT:
                self.infos.clear()
            found = self.infos[g] = (described[0], described[1])
        return found


class _Wanted(Wanted):
    """Whether a regular grouping of these weights and bits (its parts', as `wild_groupings`
    tells them) would add a reading to those `wild_views` has handed on: the signatures of
    its readings follow from them (with the declared groups' weights; a declared group holds
    no place of the winning tile, so no bit), each bit standing for a group's key and its key
    holding the winning tile (`WildPlan.held_things`). One adding none is not made, nor its
    groups described; once a grouping is handed on, every signature of its readings has
    been seen, so one like it adds none."""

    def __init__(self, wp: WildPlan, tileset: TileSet, seen: set[object],
                 merged: set[int] | None, declared: int) -> None:
        super().__init__()
        self.wp = wp
        self.tileset = tileset
        self.seen = seen
        self.merged = merged
        self.declared = declared
        # Per weights added: the bits whose readings were seen (or merged into one seen),
        # which stay so.
        self.done: dict[int, int] = {}

    def wants(self, weight: int, held: int) -> bool:
        plain = weight + self.declared
        done = self.done.get(plain, 0)
        rest = held & ~done
        if not rest:
            return False
        before = done
        wp, seen, merged = self.wp, self.seen, self.merged
        things = wp.held_things
        wanted = False
        while rest:
            low = rest & -rest
            rest ^= low
            bit = low.bit_length() - 1
            thing = things.get(bit)
            if thing is None:
                wanted = True  # not told what the bit stands for: made, and looked at
                break
            # With merging, a signature seen has its merged form among those seen too.
            if (merged is not None and _merged_held(wp, self.tileset, plain, bit, thing)
                    in merged) or (merged is None
                                   and (REGULAR, plain, thing[0], thing[1]) in seen):
                done |= low
            else:
                wanted = True
                break
        if done != before:
            self.done[plain] = done
        return wanted

    def would_want(self, weight: int, held: int) -> bool:
        # `wants` takes nothing (what it remembers, the bits found seen, stays so).
        return self.wants(weight, held)


class _Substitutions:
    """The views of one hand with wilds, with the facts of each substitution (the hand as
    read, the wilds replaced by what they stand for): made once per substitution, with its
    hand fans (`shared`: one set of hand fans for every substitution, when the hand checks
    look only at the physical tiles)."""

    def __init__(self, hand: Hand, facts: HandFacts, wild_set: frozenset[int],
                 tileset: TileSet, policy: Callable[[View], dict[str, int]] | None,
                 shared: HandFans | None) -> None:
        self.hand = hand
        self.facts = facts
        self.tileset = tileset
        self.policy = policy
        self.shared = shared
        self.natural_tiles = [t for t in hand.concealed if t not in wild_set]
        self.by_subs: dict[tuple[tuple[int, ...], int], tuple[HandFacts, HandFans]] = {}

    def view_of(self, reading: Reading) -> tuple[View, HandFans]:
        subs = tuple(sorted([s for g in reading.groups for s in g.subs]))
        entry = self.by_subs.get((subs, reading.win_as))
        if entry is None:
            hand, facts = self.hand, self.facts
            as_read = Hand(tuple(sorted((*self.natural_tiles, *subs))), hand.melds,
                           reading.win_as)
            sub_facts = SubstitutedFacts(as_read, facts.ctx, self.tileset, facts.shapes, hand,
                                         facts.wild_count, facts.win_wild)
            shared = self.shared
            entry = self.by_subs[(subs, reading.win_as)] = (
                sub_facts, shared if shared is not None else HandFans())
        return View(reading, entry[0], self.policy), entry[1]


def _counts(hand: Hand, wild_set: frozenset[int], tileset: TileSet
            ) -> tuple[list[int], int, list[int]]:
    """(the count of each kind among the standing tiles that are not wild, how many standing
    tiles are wild, how many more of each kind the melds leave for the wilds to stand for).
    Counted from the hand itself: the facts may be filled in lazily (`SubstitutedFacts`), and
    a hand read only through its substitutions never needs the rest of them."""
    naturals = [0] * tileset.size
    for t in hand.concealed:
        naturals[t] += 1
    held = [0] * tileset.size
    for m in hand.melds:
        for t in m.tiles:
            held[t] += 1
    wilds = 0
    for t in wild_set:
        wilds += naturals[t]
        naturals[t] = 0
    copies = tileset.copies
    return naturals, wilds, [copies[t] - n for t, n in enumerate(held)]


def _merged(wp: WildPlan, tileset: TileSet, signature: tuple[str, int, int, int]) -> int:
    """What the checks tell apart of a reading of this signature (shape, its groups' weights
    added, the winning tile's group's key, and its key there), where some check tells
    readings apart by less than its keys (`check(tells_readings_apart=)`): each such check's
    key of the reading in place of its keys, as a number (`WildPlan.told_ids`: equal numbers
    for equal answers). Remembered per signature (what the numbers stand for lives as long as
    they do)."""
    found = wp.merged.get(signature)
    if found is None:
        if len(wp.merged) >= KEYS_LIMIT:
            # A plain bound: an entry is worked out again alike, under a new number (never
            # one given before, so two readings the checks tell apart never share one; one
            # numbered before and after is merged no more, its reading scored again).
            wp.merged.clear()
            wp.told_ids.clear()
            wp.merged_held.clear()
        told = _merge(wp, tileset, signature)
        found = wp.told_ids.get(told)
        if found is None:
            found = wp.told_ids[told] = wp.told_next
            wp.told_next += 1
        wp.merged[signature] = found
    return found


# `_merged_held`'s key: the weights added above the number of the bit (below this many bits).
_BIT_ROOM: Final = 16


def _merged_held(wp: WildPlan, tileset: TileSet, plain: int, bit: int,
                 thing: tuple[int, int]) -> int:
    """`_merged` of a regular reading's signature given by its weights added (`plain`) and
    the number of the bit standing for its winning tile's keys (`thing`, that bit's
    `WildPlan.held_things`), remembered by one int made of the two (hashed faster than the
    signature; the numbers stand for the same things as long as the memo lives)."""
    if bit >> _BIT_ROOM:
        return _merged(wp, tileset, (REGULAR, plain, thing[0], thing[1]))
    key = plain << _BIT_ROOM | bit
    found = wp.merged_held.get(key)
    if found is None:
        found = _merged(wp, tileset, (REGULAR, plain, thing[0], thing[1]))
        if len(wp.merged_held) >= KEYS_LIMIT:
            wp.merged_held.clear()  # a plain bound: an entry is worked out again alike
        wp.merged_held[key] = found
    return found


def _merge(wp: WildPlan, tileset: TileSet, signature: tuple[str, int, int, int]) -> object:
    shape, plain, key, win_key = signature
    apart = wp.readings_apart
    combos = wp.key_list
    things = wp.weight_things
    # The groups as the other checks tell them apart (with how they were declared), counted;
    # and each merging check's keys of every group.
    rest: dict[tuple[object, ...], int] = {}
    keys: list[list[object]] = [[] for _ in apart]
    digit = 0
    while plain:
        n = plain & 15
        if n:
            thing = things[digit]
            combined = combos[thing[0]]
            item = (_others(wp, thing[0]), thing[1], thing[2])
            rest[item] = rest.get(item, 0) + n
            for i, a in enumerate(apart):
                if a is not None:
                    keys[i].extend([combined[i]] * n)
        plain >>= 4
        digit += 1
    # The winning tile's group is seen with its key there.
    held, there = combos[key], combos[win_key]
    told: list[object] = []
    for i, a in enumerate(apart):
        if a is not None:
            keys[i].remove(held[i])
            keys[i].append(there[i])
            told.append(a(tuple(keys[i]), tileset))
    return (shape, frozenset(rest.items()), _others(wp, key), _others(wp, win_key),
            tuple(told))


def _others(wp: WildPlan, key: int) -> tuple[object, ...]:
    """A group's keys (by their number), those of the checks that tell readings apart by
    less left out."""
    found = wp.key_others.get(key)
    if found is None:
        found = wp.key_others[key] = tuple(
            [None if a is not None else k
             for k, a in zip(wp.key_list[key], wp.readings_apart, strict=True)])
    return found


def wild_views(hand: Hand, facts: HandFacts, wild_set: frozenset[int],
               rs: RuleSet, merge: bool = False) -> Iterator[tuple[View, HandFans]]:
    """The readings of a hand holding wild tiles, as views, each with the hand fans of its
    substitution. Readings the checks cannot tell apart (the same group keys, the winning
    tile's group included) are scored once. With `merge` (the caller compares readings only
    by what they score, the first of equals kept), so are readings that the checks telling
    readings apart by less than their keys (`check(tells_readings_apart=)`) cannot: every
    check answers the same for both, so a later one could never replace the earlier."""
    plan = rs.plan
    wp = plan.wild
    assert wp is not None
    if len(wp.key_cache) > KEYS_LIMIT or len(wp.numbers) > KEYS_LIMIT:
        wp.forget(keys=True)
    tileset = rs.tileset
    naturals, wilds, caps = _counts(hand, wild_set, tileset)
    declared = declared_groups(hand)
    win_tile, win_wild = hand.win_tile, facts.win_wild
    reducer = None
    describer: _Describer | None = None
    if wp.group_keys is not None:
        # The describer of this winning tile, kept in the plan for the next hand with it.
        kept = wp.describers.get((win_tile, win_wild))
        if isinstance(kept, _Describer):
            describer = kept
        else:
            if len(wp.describers) >= DESCRIBERS_LIMIT:
                wp.describers.clear()
            describer = wp.describers[(win_tile, win_wild)] = _Describer(
                wp, tileset, win_tile, win_wild)
        reducer = _new(Reducer, (describer, wp.suit_memo, wp.search_states))
    free = wp.free
    seen: set[object] = set()
    merged: set[int] | None = set() if merge and wp.readings_apart else None
    views = _Substitutions(hand, facts, wild_set, tileset, plan.policy,
                           HandFans() if wp.physical_hand_fans else None)

    if describer is None:
        for reading in wild_readings(naturals, wilds, declared, caps, win_tile, win_wild,
                                     facts.shapes, tileset, free):
            exact: object = (reading.shape, tuple(sorted(reading.groups)),
                             reading.groups[reading.win], reading.win_as)
            if exact not in seen:
                seen.add(exact)
                yield views.view_of(reading)
        return
    # Readings are told apart below by their groups' weights and the key of each place of
    # the winning tile, which the groupings' weights and bits already tell: a grouping
    # matching an earlier one in both would add no reading, and is not made; nor is one
    # whose every reading those tell would be one already handed on (or merged into one).
    wanted = _Wanted(wp, tileset, seen, merged,
                     sum([describer.described(g)[0] for g in declared]))
    for shape, groups in wild_groupings(naturals, wilds, declared, caps, win_tile, win_wild,
                                        facts.shapes, tileset, free, reducer, distinct=True,
                                        wanted=wanted):
        # Each group described once per grouping (a lookup keyed by the group, which hashes
        # its tiles): its weight for the grouping's sum, then its places.
        infos = [describer.described(g) for g in groups]
        plain = 0
        for info in infos:
            plain += info[0]
        for i, info in enumerate(infos):
            key, at = info[2], info[3]
            for as_tile, win_key in at:
                signature = (shape, plain, key, win_key)
                if signature not in seen:
                    seen.add(signature)
                    if merged is not None:
                        told = _merged(wp, tileset, signature)
                        if told in merged:
                            continue
                        merged.add(told)
                    yield views.view_of(_new(Reading, (shape, groups, i, as_tile, ())))
