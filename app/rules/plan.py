"""A rule set arranged for scoring: compiled once per rule set, read on every request.

For each shape the rule set admits, the fans looked for in it, in evaluation order, split by
what their check looks at:

- hand fans (`scope="hand"`): the check sees only the whole hand and the context, so it is
  decided once per hand (with wild tiles, once per substitution), whatever the reading;
- reading fans: decided per reading, and only for readings that have what the check needs
  (`needs=`, the features of `app.rules.view`).

For each set of features met, the fans are arranged as `Probes`: those decided by their own
check; those whose checks share what they depend on (`depends_on=`), decided together once
per key and remembered (`Shared`, a bounded memo); the 限定牌 fans decided by a table of
kinds (`each_kind=`, `KindTable`); those that need a pung of some tiles (`pungs_of=`),
asked only of readings holding one; and those that need the pair among some tiles
(`pair_of=`), asked only of readings whose pair is. A hand read one way only takes its hand
and reading fans together (`ShapePlan.every_fan`).

Each fan has a position in the evaluation order and a bit at that position; the fans a counted
fan leaves out (不计) are a mask of bits, so exclusions cost one `&` per fan. The plan also
holds the 无番和-like fan of each shape, the fixed extras by the rank of the winning tile, the
flower fan, the fans a request option switches off, and for rule sets with wild tiles what
their checks tell apart (`WildPlan`), with the memos of the wild readings.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, NamedTuple
from weakref import WeakSet

from mypy_extensions import mypyc_attr

from app.domain.tiles import TileSet
from app.domain.wildcards import FreeClasses, every_identity
from app.rules.checks import (
    CHECKS,
    CheckFn,
    DependsOn,
    bound_params,
    engine_call,
    positional,
)
from app.rules.choices import Chosen, resolve
from app.rules.definitions import (
    BoundCheck,
    FanDef,
    FanRequirement,
    OptionCondition,
    Requirement,
    ShapeDef,
    StandInDef,
    WildDef,
)
from app.rules.payments import Scheme
from app.rules.policies import POLICIES, Policy
from app.rules.view import FEATURES


class FanStep(NamedTuple):
    """One fan as the engine decides it."""

    position: int  # in evaluation order: an excluding fan comes before what it excludes
    bit: int  # 1 << position
    check: BoundCheck
    fan: FanDef
    value: int
    excludes: int  # the bits of the fans it leaves out (不计)
    needs: int  # the features a reading must have for the check to find anything
    toward_minimum: bool
    breaks_ties: bool
    # The same check for the counting loop, called `call(view, ctx, *args)` (`engine_call`:
    # faster to call).
    call: CheckFn
    args: tuple[Any, ...]


# A fan found: (its position in evaluation order, how many times).
Hit = tuple[int, int]
# The most times a fan can count in a hand: its position, its check's `most` bound to its
# parameters ((the hand as held, ctx) -> times; None: once), and whether the fans counted
# before it may leave it out (the fixed extras and the 无番和-like fan are added after them).
Most = tuple[int, "Callable[..., int] | None", bool]
# What the counting loop calls for one fan: its check and the values passed after (view, ctx)
# (`FanStep.call`, `FanStep.args`), and its position.
Probe = tuple[CheckFn, tuple[Any, ...], int]
# The largest number of answers a memo of `Shared` keeps, emptied when full. A key's values
# are few: categories of tile (32), kongs held, concealed pungs, claimed melds (a dozen
# each); the most, chows (12,650 multisets of up to four chows), of which realistic hands
# reach a fraction. See `app.scoring.memory`.
SHARED_LIMIT = 16_384
# The largest number of group keys (`WildPlan.key_cache`) and numbers a wild plan keeps
# before it forgets them (and the searches' memos made from them): well above what
# realistic tianjin hands reach.
KEYS_LIMIT = 4096
# The largest number of plans under other fan values a plan keeps (`Plan.valued`), emptied
# when full: one per combination of the values requests choose (a rule set with one such
# option of 13 values needs 12).
VALUED_LIMIT = 64


@mypyc_attr(native_class=False)
class _Token:
    """What `LivePlans` holds of one plan: a Python object, which a weak reference can name
    where a compiled (native) `Plan` cannot be. The plan holds it (`Plan._token`) and it
    holds the plan: the two go together, the cycle collected once nothing else holds the
    plan."""

    __slots__ = ("__weakref__", "plan")

    def __init__(self, plan: Plan) -> None:
        self.plan = plan


class LivePlans:
    """The plans compiled and still in use, held weakly (through their tokens)."""

    def __init__(self) -> None:
        self._tokens: WeakSet[_Token] = WeakSet()

    def add(self, plan: Plan) -> None:
        token = _Token(plan)
        plan._token = token
        self._tokens.add(token)

    def __iter__(self) -> Iterator[Plan]:
        return iter([token.plan for token in list(self._tokens)])

    def __len__(self) -> int:
        return len(self._tokens)


# Every plan compiled and still in use (`app.scoring.memory` reports their memos).
LIVE_PLANS: Final = LivePlans()


@dataclass(frozen=True, slots=True)
class Shared:
    """Fans whose checks declare the same `depends_on`: decided together once per key."""

    depends_on: DependsOn
    probes: tuple[Probe, ...]
    memo: dict[Hashable, list[Hit]]  # key -> the fans found (shared by every request)


@dataclass(frozen=True, slots=True)
class KindTable:
    """Hand fans whose checks declare `each_kind`: decided together, a bit per fan."""

    masks: tuple[int, ...]  # per kind of tile: the bits of the fans whose condition it meets
    every: int  # every fan's bit
    positions: tuple[int, ...]  # the fans' positions, by bit
    # The fans found as (position, 1), by their bits: every value the AND of some kinds'
    # masks can take, listed when the table is made (the masks of a tile set's kinds are
    # few and nested: 49 values for MCR's eleven 限定牌 fans).
    found: Mapping[int, tuple[Hit, ...]]


@dataclass(frozen=True, slots=True)
class Probes:
    """The fans looked for in a reading (or a hand) with some set of features."""

    single: tuple[Probe, ...]  # each decided by its own check
    shared: tuple[Shared, ...]
    kinds: KindTable | None
    # Fans whose checks need a pung of some tiles (`pungs_of`), by those tiles.
    gated: tuple[tuple[frozenset[int], tuple[Probe, ...]], ...] = ()
    # Fans whose checks need the pair to be one of some tiles (`pair_of`), by those tiles.
    paired: tuple[tuple[frozenset[int], tuple[Probe, ...]], ...] = ()


@dataclass(eq=False)
class ShapePlan:
    """The fans of one shape."""

    name: str
    hand: tuple[FanStep, ...]  # decided once per hand
    reading: tuple[FanStep, ...]  # decided per reading
    # Counted only when nothing else toward the minimum is (无番和); None: no such fan.
    last: FanStep | None
    # Fixed fans by the rank of the winning tile (九莲宝灯's extras).
    extras: Mapping[int, tuple[FanStep, ...]]
    priority: int  # ties between equal totals go to the lower
    final: bool  # when a hand has this shape, no other shape's readings are compared
    tileset: TileSet
    # The most times each reading fan (the 无番和-like fan and the fixed extras too) can count
    # in a hand, when every such fan's check says (`check(most=)`); else None
    # (`app.scoring.ceiling`).
    ceiling: tuple[Most, ...] | None = None
    # The probes of the hand fans by the context's features, and of the reading fans by a
    # reading's features: one entry per set of features met, so never more than
    # 2 ** len(FEATURES) (1024) each; a rule set meets a few dozen.
    by_context: dict[int, Probes] = field(default_factory=dict)
    by_features: dict[int, Probes] = field(default_factory=dict)
    every_by_features: dict[int, Probes] = field(default_factory=dict)
    # The memos of shared fans, by the positions of the fans (shared by sets of features).
    _memos: dict[tuple[int, ...], dict[Hashable, list[Hit]]] = field(default_factory=dict)
    # The 限定牌 tables by the positions of their fans: sets of features that choose other
    # fans often choose the same ones of these, and a table is made once.
    _kind_tables: dict[tuple[int, ...], KindTable] = field(default_factory=dict)

    def hand_probes(self, context: int) -> Probes:
        """The hand fans whose checks can find something under a context with these
        features (`CONTEXT_FEATURES` of a view)."""
        found = self.by_context.get(context)
        if found is None:
            found = self.by_context[context] = self._probes(self.hand, context)
        return found

    def reading_fans(self, features: int) -> Probes:
        """The reading fans whose checks can find something in a reading with `features`."""
        found = self.by_features.get(features)
        if found is None:
            found = self.by_features[features] = self._probes(self.reading, features)
        return found

    def every_fan(self, features: int) -> Probes:
        """The hand fans and the reading fans together, for a hand read one way only."""
        found = self.every_by_features.get(features)
        if found is None:
            found = self.every_by_features[features] = self._probes(
                self.hand + self.reading, features)
        return found

    def _probes(self, steps: Sequence[FanStep], features: int) -> Probes:
        chosen = [s for s in steps if s.needs & features == s.needs]
        by_key: dict[DependsOn, list[FanStep]] = {}
        by_kind: list[FanStep] = []
        for s in chosen:
            spec = CHECKS[s.fan.check]
            if spec.depends_on is not None:
                by_key.setdefault(spec.depends_on, []).append(s)
            elif spec.each_kind is not None:
                by_kind.append(s)
        by_gate: dict[frozenset[int], list[FanStep]] = {}
        by_pair: dict[frozenset[int], list[FanStep]] = {}
        for s in chosen:
            spec = CHECKS[s.fan.check]
            for gate_of, gates in ((spec.pungs_of, by_gate), (spec.pair_of, by_pair)):
                if gate_of is not None:
                    gate = gate_of(self.tileset, **bound_params(s.check))
                    if gate is not None:
                        gates.setdefault(frozenset(gate), []).append(s)
        apart = {s.position for group in by_key.values() for s in group}
        apart |= {s.position for s in by_kind}
        apart |= {s.position for group in by_gate.values() for s in group}
        apart |= {s.position for group in by_pair.values() for s in group}
        single = [s for s in chosen if s.position not in apart]
        shared = []
        for depends_on, group in by_key.items():
            if len(group) == 1:
                single += group
                continue
            positions = tuple(s.position for s in group)
            memo = self._memos.setdefault(positions, {})
            shared.append(Shared(depends_on,
                                 tuple((s.call, s.args, s.position) for s in group), memo))
        kinds = None
        if len(by_kind) > 1:
            key = tuple(s.position for s in by_kind)
            kinds = self._kind_tables.get(key)
            if kinds is None:
                kinds = self._kind_tables[key] = _kind_table(by_kind, self.tileset)
        else:
            single += by_kind
        single.sort(key=lambda s: s.position)
        return Probes(tuple((s.call, s.args, s.position) for s in single), tuple(shared), kinds,
                      tuple((gate, tuple((s.call, s.args, s.position) for s in group))
                            for gate, group in by_gate.items()),
                      tuple((gate, tuple((s.call, s.args, s.position) for s in group))
                            for gate, group in by_pair.items()))


def _kind_table(steps: Sequence[FanStep], tileset: TileSet) -> KindTable:
    masks = []
    for t in range(len(tileset.kinds)):
        mask = 0
        for bit, s in enumerate(steps):
            each_kind = CHECKS[s.fan.check].each_kind
            assert each_kind is not None
            if each_kind(t, tileset, **bound_params(s.check)):
                mask |= 1 << bit
        masks.append(mask)
    every = (1 << len(steps)) - 1
    positions = tuple(s.position for s in steps)
    # Every AND of some of the masks (with `every`: no kind at all).
    values = {every}
    for mask in set(masks):
        values |= {v & mask for v in values}
    found = {v: tuple((positions[i], 1) for i in range(len(steps)) if v >> i & 1)
             for v in values}
    return KindTable(tuple(masks), every, positions, MappingProxyType(found))


# What a check tells apart in a group, with the check's parameters (see `check(tells_apart=)`).
GroupKeys = tuple[tuple[Callable[..., object], Mapping[str, object]], ...]


@dataclass(eq=False)
class WildPlan:
    """What a rule set with wild tiles needs to read wild hands, and what it remembers.

    `group_keys` is None when some check sees everything (`wild.read: full`, or a check that
    declares nothing): readings are then compared exactly. The dicts are memos of the wild
    readings (`app.scoring.wild_readings`), filled as hands come."""

    group_keys: GroupKeys | None
    free: FreeClasses
    # Every hand fan's check looks at the physical tiles and the context only (`tells_apart:
    # nothing`): the hand fans are the same for every substitution, decided once per hand.
    physical_hand_fans: bool = False
    # Per entry of `group_keys`: what its check tells apart between readings
    # (`check(tells_readings_apart=)`), bound to the check's parameters: (keys, tileset) ->
    # key; None where it is the keys themselves; () when no check says more.
    readings_apart: tuple[Callable[..., object] | None, ...] = ()
    key_cache: dict[tuple[str, int, tuple[int, int] | None], int] = field(default_factory=dict)
    key_ids: dict[tuple[object, ...], int] = field(default_factory=dict)
    # The keys of each number of `key_ids`, by number.
    key_list: list[tuple[object, ...]] = field(default_factory=list)
    suit_memo: dict[tuple[object, ...], Any] = field(default_factory=dict)
    search_states: dict[tuple[object, ...], Any] = field(default_factory=dict)
    # Small numbers for what the checks tell apart (weights and bits of app.domain.wildcards),
    # each family ("weight", "held": the first item of what is numbered) counted on its own,
    # so that the weights and bits the searches add up stay small ints.
    numbers: dict[tuple[object, ...], int] = field(default_factory=dict)
    number_counts: dict[object, int] = field(default_factory=dict)
    # What the searches are told of a group, per (group, winning tile, whether it is wild):
    # numbers from the above (app.scoring.wild_readings).
    described: dict[tuple[Any, int, bool], tuple[int, int, int, tuple[tuple[int, int], ...]]] = (
        field(default_factory=dict))
    # What each weight's number stands for: (the group's key, declared, concealed); and per
    # signature of a reading, what the checks tell apart of it (app.scoring.wild_readings).
    weight_things: dict[int, tuple[int, bool, bool]] = field(default_factory=dict)
    # What each bit's number stands for: (the group's key, its key holding the winning tile);
    # one entry per number of that family, so bounded with `numbers` and emptied with it.
    held_things: dict[int, tuple[int, int]] = field(default_factory=dict)
    merged: dict[tuple[object, ...], int] = field(default_factory=dict)
    # What the checks tell apart of a signature, by the number `merged` gives it (a number
    # hashes faster): at most one per entry of `merged`, emptied with it; numbers are never
    # given twice (`told_next` only grows).
    told_ids: dict[object, int] = field(default_factory=dict)
    told_next: int = 0
    # `merged`'s numbers of regular readings' signatures by their weights added and the
    # number of the bit standing for their winning tile's keys, as one int; emptied with
    # `merged`, and on its own when full.
    merged_held: dict[int, int] = field(default_factory=dict)
    # The wild readings' describers of groups, by winning tile and whether it is wild (what
    # they tell of a group depends on nothing else; `app.scoring.wild_readings`).
    describers: dict[tuple[int, bool], Any] = field(default_factory=dict)
    # Per number of `key_ids`: its keys, those of the checks in `readings_apart` left out.
    key_others: dict[int, tuple[object, ...]] = field(default_factory=dict)

    def group_key(self, kind: str, tile: int, tileset: TileSet,
                  win: tuple[int, int] | None = None) -> int:
        """What the rule set's checks can tell about a group (kind, tile), as a small int:
        groups with the same number look the same to every check. `win`: for the group
        holding the winning tile, (the tile it is read as, wilds in the group besides it)."""
        assert self.group_keys is not None
        key = self.key_cache.get((kind, tile, win))
        if key is None:
            combined = tuple(fn(kind, tile, tileset, win, **params)
                             for fn, params in self.group_keys)
            key = self.key_ids.get(combined)
            if key is None:
                key = self.key_ids[combined] = len(self.key_list)
                self.key_list.append(combined)
            self.key_cache[(kind, tile, win)] = key
        return key

    def forget(self, keys: bool = False) -> None:
        """Forget what was memoised about wild hands; with `keys`, also the group keys (the
        searches' memos hold numbers made from them, so they go too)."""
        memos: list[dict[Any, Any]] = [self.suit_memo, self.search_states]
        if keys:
            memos += [self.key_cache, self.key_ids, self.numbers, self.number_counts,
                      self.described, self.weight_things, self.held_things, self.merged,
                      self.told_ids, self.merged_held, self.key_others, self.describers]
            self.key_list.clear()
        for memo in memos:
            memo.clear()


class RuleTerms:
    """What the engine reads of its rule set for every hand, copied from the rule set when
    its plan is made (`RuleSet.plan`): compiled code reads them from this object without a
    lookup by name, where the rule set (a plain Python object) needs one per read."""

    def __init__(self, ruleset_id: str, name: str, players: int, tileset: TileSet,
                 min_fan: int, max_fan: int | None, requirements: tuple[Requirement, ...],
                 requirements_per_hand: bool,
                 fan_requirements: tuple[FanRequirement, ...], wild: WildDef | None,
                 stand_in: StandInDef | None, scheme: Scheme, fixed_payment: Any,
                 fixed_params: Mapping[str, Any] | None) -> None:
        self.id = ruleset_id
        self.name = name
        self.players = players
        self.tileset = tileset
        self.min_fan = min_fan
        self.max_fan = max_fan  # 封顶; None: no cap
        self.requirements = requirements
        # Every requirement is decided by the hand alone (`RuleSet.requirements_per_hand`).
        self.requirements_per_hand = requirements_per_hand
        self.fan_requirements = fan_requirements
        self.wild = wild
        self.stand_in = stand_in
        self.scheme = scheme
        self.by_fans = scheme.by_fans  # the scheme prices the fans themselves
        # The rule set's `FixedPayment` (None: some parameter names a request option) and
        # its fixed parameters.
        self.fixed_payment = fixed_payment
        self.fixed_params = fixed_params


@dataclass(eq=False)
class Plan:
    shapes: Mapping[str, ShapePlan]  # in the order of the shape registry
    shape_names: frozenset[str]
    finals: frozenset[str]
    policy: Policy | None  # how fans of several chows combine (MCR: 套算一次)
    flower: FanStep | None
    # The bit of each fan a bool request option switches on or off: (bit, option name).
    gates: tuple[tuple[int, str], ...]
    # The bit of each fan that counts only while conditions on request options hold.
    conditions: tuple[tuple[int, tuple[OptionCondition, ...]], ...]
    wild: WildPlan | None
    # By position in evaluation order: each fan, its value and the bits of what it leaves out.
    fans: tuple[FanDef, ...] = ()
    values: tuple[int, ...] = ()
    excludes: tuple[int, ...] = ()
    # The bits of the fans that count toward the rule set's minimum, of those that do not,
    # and of its tie-breaks.
    toward_minimum: int = 0
    beside_minimum: int = 0
    ties: int = 0
    # The bits of the fans that count only beside some other fan (`FanDef.needs_other_fan`).
    needs_company: int = 0
    # The bits of the final fans (`FanDef.final`): a reading counting one ends the comparison.
    finals_by_fan: int = 0
    # Every shape says the most its reading fans can count (`ShapePlan.ceiling`).
    ceilings: bool = False
    # The shapes a bool request option switches on: (shape, option, the option's default).
    shape_gates: tuple[tuple[str, str, bool], ...] = ()
    # The fans whose value request options choose (`FanDef.value_by`): (position, the
    # chosen value); and this plan under other values of them, by the values (`valued`).
    value_options: tuple[tuple[int, Chosen], ...] = ()
    _valued: dict[tuple[int, ...], Plan] = field(default_factory=dict)
    # The rule set's terms the engine reads per hand (set by `RuleSet.plan`; a plan under
    # other fan values shares them).
    terms: RuleTerms | None = None
    # What `LIVE_PLANS` holds of this plan (set when it is added there).
    _token: _Token | None = field(default=None, init=False, repr=False)

    def valued(self, options: Mapping[str, Any]) -> Plan:
        """The plan under a request's options: the fans whose value an option gives are
        worth the value chosen. This plan when every such option is at its default; others
        are made once and remembered (at most `VALUED_LIMIT`), sharing everything but the
        fans' values."""
        values = list(self.values)
        for position, chosen in self.value_options:
            if chosen.option in options:
                values[position] = resolve(chosen, options)
        key = tuple(values)
        if key == self.values:
            return self
        found = self._valued.get(key)
        if found is None:
            if len(self._valued) >= VALUED_LIMIT:
                self._valued.clear()
            fans = tuple(f if f.value == v else dataclasses.replace(f, value=v)
                         for f, v in zip(self.fans, key, strict=True))
            found = self._valued[key] = dataclasses.replace(self, fans=fans, values=key,
                                                            _valued={})
        return found

    def shapes_for(self, options: Mapping[str, Any]) -> frozenset[str]:
        """The shapes a hand is read in under a request's options: every shape of the rule
        set but those whose option (`ShapeDef.enabled_by`) is false."""
        names = self.shape_names
        for shape, option, default in self.shape_gates:
            if not options.get(option, default):
                names = names - {shape}
        return names


def needs_mask(needs: Sequence[str]) -> int:
    """The bits of the features a check needs (`check(needs=...)`)."""
    mask = 0
    for n in needs:
        mask |= FEATURES[n]
    return mask


def compile_plan(fans: Sequence[FanDef], shapes: Mapping[str, ShapeDef], tileset: TileSet,
                 *, flower_fan: str | None, combination_policy: str | None,
                 tie_break_fans: Sequence[str], requirements: Sequence[Requirement],
                 wild: WildDef | None, shape_order: Sequence[str],
                 option_defaults: Mapping[str, Any] | None = None) -> Plan:
    """Arrange a rule set's fans (in evaluation order) for scoring. `shape_order`: every
    known shape, in the order readings are made; `option_defaults`: the rule set's options
    with their defaults (for a shape an option switches on)."""
    position = {f.id: i for i, f in enumerate(fans)}
    ties = frozenset(tie_break_fans)
    by_id = {f.id: f for f in fans}
    plans = {name: _shape_plan(name, shapes[name], fans, by_id, flower_fan, tileset, position,
                               ties)
             for name in shape_order if name in shapes}
    steps = [_fan_step(f, position, ties) for f in fans]
    plan = Plan(
        shapes=plans,
        shape_names=frozenset(plans),
        finals=frozenset(n for n, p in plans.items() if p.final),
        policy=POLICIES[combination_policy] if combination_policy else None,
        flower=_fan_step(by_id[flower_fan], position, ties) if flower_fan else None,
        # A fan's switch (`enabled_by`) is a gate, tested alone; its other conditions hold
        # or not together.
        gates=tuple((1 << position[f.id], c.option) for f in fans for c in f.when if c.switch),
        conditions=tuple((1 << position[f.id], conds) for f in fans
                         if (conds := tuple(c for c in f.when if not c.switch))),
        wild=_wild_plan(fans, requirements, wild, tileset) if wild is not None else None,
        fans=tuple(fans),
        values=tuple(s.value for s in steps),
        excludes=tuple(s.excludes for s in steps),
        toward_minimum=sum(s.bit for s in steps if s.toward_minimum),
        beside_minimum=sum(s.bit for s in steps if not s.toward_minimum),
        ties=sum(s.bit for s in steps if s.breaks_ties),
        needs_company=sum(s.bit for s in steps if s.fan.needs_other_fan),
        finals_by_fan=sum(s.bit for s in steps if s.fan.final),
        ceilings=all(p.ceiling is not None for p in plans.values()),
        shape_gates=tuple((name, sd.enabled_by,
                           bool((option_defaults or {}).get(sd.enabled_by, False)))
                          for name, sd in shapes.items()
                          if sd.enabled_by is not None and name in plans),
        value_options=tuple((position[f.id], f.value_by) for f in fans
                            if f.value_by is not None),
    )
    LIVE_PLANS.add(plan)
    return plan


def _fan_step(f: FanDef, position: Mapping[str, int], ties: frozenset[str]) -> FanStep:
    """A fan as the counting loop steps through it: `position`, every fan's place in
    evaluation order; `ties`, the tie-break fans."""
    assert f.bound is not None
    excludes = 0
    for x in f.excludes:
        excludes |= 1 << position[x]
    call, args = engine_call(f.bound)
    return FanStep(position[f.id], 1 << position[f.id], f.bound, f, f.value, excludes,
                   needs_mask(CHECKS[f.check].needs), f.counts_toward_minimum, f.id in ties,
                   call, args)


def _shape_plan(name: str, sd: ShapeDef, fans: Sequence[FanDef], by_id: Mapping[str, FanDef],
                flower_fan: str | None, tileset: TileSet, position: Mapping[str, int],
                ties: frozenset[str]) -> ShapePlan:
    """The fans one shape looks for, arranged: those of the whole hand, those of a reading,
    the 无番和-like fan, and the fixed extras by the winning tile's rank."""
    chosen = [f for f in fans if f.id != flower_fan
              and (sd.only_fans is None or f.id in sd.only_fans)
              and (f.shapes is None or name in f.shapes)]
    regular = [f for f in chosen if not f.when_nothing_else]
    last = next((f for f in chosen if f.when_nothing_else), None)
    reading = [f for f in regular if CHECKS[f.check].scope != "hand"]
    extras = {rank: tuple(_fan_step(by_id[fid], position, ties) for fid in ids)
              for rank, ids in sd.extras_by_win_rank.items()}
    return ShapePlan(
        name=name,
        hand=tuple(_fan_step(f, position, ties) for f in regular
                   if CHECKS[f.check].scope == "hand"),
        reading=tuple(_fan_step(f, position, ties) for f in reading),
        last=_fan_step(last, position, ties) if last is not None else None,
        extras=extras,
        priority=sd.priority, final=sd.final, tileset=tileset,
        ceiling=_ceiling(reading, last,
                         {s.position for steps in extras.values() for s in steps},
                         position))


def _ceiling(reading: Sequence[FanDef], last: FanDef | None, extras: set[int],
             position: Mapping[str, int]) -> tuple[Most, ...] | None:
    """The `most` of each reading fan's check bound to the fan's parameters, and the fixed
    extras (once each); None when some check has no `most`."""
    found: list[Most] = []
    for f in [*reading, *([last] if last is not None else [])]:
        most = CHECKS[f.check].most
        if most is None:
            return None
        params = bound_params(f.bound)  # type: ignore[arg-type]
        found.append((position[f.id], positional(functools.partial(most, **params)),
                      f is not last))
    return (*found, *((p, None, False) for p in sorted(extras)))


def _wild_plan(fans: Sequence[FanDef], requirements: Sequence[Requirement], wild: WildDef,
               tileset: TileSet) -> WildPlan:
    """What the checks of a rule set with wilds tell apart (see `check(tells_apart=)`), and
    the classes of identities a group made only of wilds tries: one per distinct key."""
    # The parameters as the checks were bound (converted: a TileGroup is a set of tiles).
    used = [(CHECKS[f.check], bound_params(f.bound)) for f in fans]  # type: ignore[arg-type]
    used += [(CHECKS[r.check], bound_params(r.bound))  # type: ignore[arg-type]
             for r in requirements]
    every = every_identity(tileset)
    if wild.read == "full" or any(spec.tells_apart is None for spec, _ in used):
        return WildPlan(None, every)
    keys = tuple((spec.tells_apart, params) for spec, params in used
                 if callable(spec.tells_apart))
    # Bound as the checks are (`positional`: faster to call).
    apart = tuple(None if spec.tells_readings_apart is None
                  else positional(functools.partial(spec.tells_readings_apart, **params))
                  for spec, params in used if callable(spec.tells_apart))
    physical = all(CHECKS[f.check].tells_apart == "nothing" for f in fans
                   if CHECKS[f.check].scope == "hand")

    def classes(identities: list[tuple[str, int]]) -> tuple[tuple[tuple[str, int], ...], ...]:
        by_key: dict[object, list[tuple[str, int]]] = {}
        for kind, t in identities:
            key = tuple(fn(kind, t, tileset, None, **params) for fn, params in keys)
            by_key.setdefault(key, []).append((kind, t))
        return tuple(tuple(members) for members in by_key.values())

    return WildPlan(keys, FreeClasses(classes([m for cls in every.sets for m in cls]),
                                      classes([m for cls in every.pairs for m in cls])),
                    physical, apart if any(a is not None for a in apart) else ())
