"""score(hand, context, rule set) -> ScoreResult: every reading scored, the best one kept.

For each reading of the hand (`app.domain.decompose`; with wild tiles,
`app.domain.wildcards`, one view per distinct substitution), the rule set's fans are decided
in their evaluation order: a fan already excluded (不计) by a counted fan is skipped without
running its check; a counted fan excludes what its `excludes` lists. Checks that look only at
the whole hand run once per request (with wilds: once per substitution). The best reading has
the highest total; under a payment scheme that prices the fans themselves (`by_fans`), the
highest value first, then the highest total. Between equals the reading found first stays,
unless a later one has one of the rule set's `tie_break_fans` or a shape of lower priority
(readings come special shapes first, then the regular ones in tile order). Flowers are added
after the choice.

A fan whose `enabled_by` option the request switched off is left out from the start. After
the choice, the rule set's requirements (四川 定缺), its minimum and its requirements on the
counted fans (天津 `min_hand`) decide whether the hand wins; if it does, the payment scheme
gives its money and its value.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from app.domain.decompose import KNIT, PAIR, Group, Reading
from app.domain.hand import CHOW, KONG, PUNG, Hand, WinContext
from app.domain.notation import format_tiles
from app.domain.shapes import decompose
from app.domain.tiles import TileSet
from app.domain.wildcards import (
    FreeClasses,
    GroupInfo,
    Reducer,
    every_identity,
    places,
    wild_groupings,
    wild_readings,
)
from app.domain.wildcards import (
    clear_cache as _suit_options_cache_clear,
)
from app.rules.checks import CHECKS
from app.rules.model import FanDef, RuleSet
from app.rules.payments import SCHEMES, resolve_params
from app.rules.policies import POLICIES, Policy
from app.rules.view import FEATURES, HandFacts, SubstitutedFacts, View
from app.scoring.result import Decomposition, FanResult, Reason, ScoreResult

NO_WINNING_SHAPE = "no_winning_shape"
_NO_WILDS: frozenset[int] = frozenset()
BELOW_MINIMUM = "below_minimum"


# One fan in evaluation order, as the hot loop wants it: id, bound check, slot in the
# per-request cache of hand-scope results (-1 for reading-scope checks), fans it excludes,
# the reading features its check needs (a bit mask, see app.rules.view.FEATURES), the fan,
# its value, whether it counts toward the minimum, whether it breaks ties.
_Step = tuple[str, Callable[[View, WinContext], int], int, frozenset[str], int, FanDef, int,
              bool, bool]


@dataclass(frozen=True)
class _Plan:
    # Per shape, the fans looked for in that shape, in evaluation order.
    steps: Mapping[str, tuple[_Step, ...]]
    last: Mapping[str, FanDef | None]  # 无番和-like fan per shape, when nothing else counts
    extras: Mapping[str, Mapping[int, tuple[FanDef, ...]]]
    shapes: frozenset[str]
    finals: frozenset[str]
    priority: Mapping[str, int]
    policy: Policy | None
    flower: FanDef | None
    hand_slots: int
    # Fans a bool request option switches on or off: (fan id, option name).
    gates: tuple[tuple[str, str], ...]
    # Steps per (shape, reading features), filtered by what each check needs; filled lazily.
    by_features: dict[tuple[str, int], tuple[_Step, ...]]
    # Hands with wild tiles: what the checks tell apart in a group (None: some check sees
    # everything, so readings are compared exactly), and the free-group classes.
    group_keys: tuple[tuple[Callable[..., object], Mapping[str, object]], ...] | None = None
    free: FreeClasses | None = None
    key_cache: dict[tuple[str, int, tuple[int, int] | None], int] | None = None
    key_ids: dict[tuple[object, ...], int] | None = None
    suit_memo: dict[tuple[object, ...], Any] | None = None
    search_states: dict[tuple[object, ...], Any] | None = None
    # Small numbers for what the checks tell apart (weights and bits of app.domain.wildcards).
    numbers: dict[object, int] | None = None

    def group_key(self, kind: str, tile: int, tileset: TileSet,
                  win: tuple[int, int] | None = None) -> int:
        """What the rule set's checks can tell about a group (kind, tile), as a small int:
        groups with the same number look the same to every check. `win`: for the group
        holding the winning tile, (the tile it is read as, wilds in the group besides it)."""
        assert self.group_keys is not None and self.key_cache is not None
        assert self.key_ids is not None
        key = self.key_cache.get((kind, tile, win))
        if key is None:
            combined = tuple(fn(kind, tile, tileset, win, **params)
                             for fn, params in self.group_keys)
            key = self.key_cache[(kind, tile, win)] = self.key_ids.setdefault(
                combined, len(self.key_ids))
        return key

    def steps_for(self, shape: str, features: int) -> tuple[_Step, ...]:
        key = (shape, features)
        found = self.by_features.get(key)
        if found is None:
            found = self.by_features[key] = tuple(
                s for s in self.steps[shape] if s[4] & features == s[4])
        return found


# Per rule set, by identity; an entry leaves with its rule set (a rule set built for a test
# or a variant is not kept alive here). A plain dict: it is read on every request.
_PLANS: dict[int, _Plan] = {}


def _plan(rs: RuleSet) -> _Plan:
    """What `score` needs from a rule set, arranged once per rule set."""
    cached = _PLANS.get(id(rs))
    if cached is not None:
        return cached
    by_id = rs.fan_by_id
    hand_slot: dict[str, int] = {}
    for fan in rs.fans:
        if CHECKS[fan.check].scope == "hand":
            hand_slot[fan.id] = len(hand_slot)
    steps: dict[str, tuple[_Step, ...]] = {}
    last: dict[str, FanDef | None] = {}
    for name, shape in rs.shapes.items():
        chosen = [
            f for f in rs.fans
            if f.id != rs.flower_fan
            and (shape.only_fans is None or f.id in shape.only_fans)
            and (f.shapes is None or name in f.shapes)
        ]
        steps[name] = tuple(
            (f.id, f.bound, hand_slot.get(f.id, -1), frozenset(f.excludes),  # type: ignore[misc]
             _mask(CHECKS[f.check].needs), f, f.value, f.counts_toward_minimum,
             f.id in rs.tie_break_fans)
            for f in chosen if not f.when_nothing_else
        )
        last[name] = next((f for f in chosen if f.when_nothing_else), None)
    group_keys, free = _wild_plan(rs) if rs.wild is not None else (None, None)
    plan = _Plan(
        group_keys=group_keys, free=free, key_cache={} if group_keys is not None else None,
        key_ids={} if group_keys is not None else None,
        suit_memo={} if group_keys is not None else None,
        search_states={} if group_keys is not None else None,
        numbers={} if group_keys is not None else None,
        steps=steps, last=last,
        extras={name: {rank: tuple(by_id[f] for f in fans)
                       for rank, fans in shape.extras_by_win_rank.items()}
                for name, shape in rs.shapes.items()},
        shapes=frozenset(rs.shapes),
        finals=frozenset(s for s, d in rs.shapes.items() if d.final),
        priority={s: d.priority for s, d in rs.shapes.items()},
        policy=POLICIES[rs.combination_policy] if rs.combination_policy else None,
        flower=by_id[rs.flower_fan] if rs.flower_fan else None,
        hand_slots=len(hand_slot), by_features={},
        gates=tuple((f.id, f.enabled_by) for f in rs.fans if f.enabled_by),
    )
    _PLANS[id(rs)] = plan
    weakref.finalize(rs, _PLANS.pop, id(rs), None)
    return plan


def forget_wild_memos(rs: RuleSet, keys: bool = False) -> None:
    """Forget what was memoised about hands with wilds for this rule set (and the module-wide
    cache of suit options), so the next wild hand is read from scratch (benchmarks time it).
    With `keys`, also the table of group keys, which holds one entry per kind of group and
    fills up with a rule set's first few hands."""
    _suit_options_cache_clear()
    plan = _PLANS.get(id(rs))
    if plan is None:
        return
    memos: list[dict[Any, Any] | None] = [plan.suit_memo, plan.search_states]
    if keys:
        # The searches' memos hold numbers made from these: they go first (above).
        memos += [plan.key_cache, plan.key_ids, plan.numbers]
    for memo in memos:
        if memo is not None:
            memo.clear()


def _wild_plan(rs: RuleSet) -> tuple[
        tuple[tuple[Callable[..., object], Mapping[str, object]], ...] | None, FreeClasses]:
    """What the checks of a rule set with wilds tell apart (see `check(tells_apart=)`), and
    the classes of identities a group made only of wilds tries: one per distinct key."""
    # The parameters as the checks were bound (converted: a TileGroup is a set of tiles).
    used = [(CHECKS[f.check], f.bound.__kwdefaults__ or {}) for f in rs.fans]  # type: ignore[union-attr]
    used += [(CHECKS[r.check], r.bound.__kwdefaults__ or {})  # type: ignore[union-attr]
             for r in rs.requirements]
    if (rs.wild is not None and rs.wild.read == "full") or any(
            spec.tells_apart is None for spec, _ in used):
        return None, every_identity(rs.tileset)
    keys = tuple((spec.tells_apart, params) for spec, params in used
                 if callable(spec.tells_apart))

    def classes(identities: list[tuple[str, int]]) -> tuple[tuple[tuple[str, int], ...], ...]:
        by_key: dict[object, list[tuple[str, int]]] = {}
        for kind, t in identities:
            key = tuple(fn(kind, t, rs.tileset, None, **params) for fn, params in keys)
            by_key.setdefault(key, []).append((kind, t))
        return tuple(tuple(members) for members in by_key.values())

    every = every_identity(rs.tileset)
    return keys, FreeClasses(classes([m for cls in every.sets for m in cls]),
                             classes([m for cls in every.pairs for m in cls]))


def _mask(needs: tuple[str, ...]) -> int:
    mask = 0
    for n in needs:
        mask |= FEATURES[n]
    return mask


def _evaluate(view: View, ctx: WinContext, steps: tuple[_Step, ...],
              hand_cache: list[int | None],
              disabled: frozenset[str]) -> tuple[list[tuple[FanDef, int]], int, bool, bool]:
    """The fans one reading counts (in evaluation order, with counts), their total, whether
    any counts toward the minimum, and whether one breaks ties. `disabled` fans are switched
    off by the request's options."""
    excluded: set[str] = set(disabled)
    counted: list[tuple[FanDef, int]] = []
    total = 0
    toward_min = tie = False
    for fid, fn, slot, excludes, _, fan, value, min_, tie_ in steps:
        if fid in excluded:
            continue
        if slot >= 0:
            n = hand_cache[slot]
            if n is None:
                n = hand_cache[slot] = fn(view, ctx)
        else:
            n = fn(view, ctx)
        if n:
            counted.append((fan, n))
            total += value * n
            toward_min = toward_min or min_
            tie = tie or tie_
            if excludes:
                excluded |= excludes
    return counted, total, toward_min, tie


def score(hand: Hand, ctx: WinContext, rs: RuleSet) -> ScoreResult:
    plan = _plan(rs)
    facts = HandFacts(hand, ctx, rs.tileset, plan.shapes)
    wild_set = frozenset(ctx.wilds) if ctx.wilds and rs.wild is not None else _NO_WILDS
    if wild_set:
        facts.wild_count = sum(1 for t in hand.concealed if t in wild_set) + sum(
            1 for m in hand.melds for t in m.tiles if t in wild_set)
        facts.win_wild = hand.win_tile in wild_set
    flowers: list[tuple[FanDef, int]] = []
    if wild_set and any(t in wild_set for t in hand.concealed):
        candidates: Iterator[tuple[View, list[int | None]]] = _wild_views(
            hand, facts, wild_set, rs, plan)
    else:
        readings = decompose(hand, plan.shapes, rs.tileset, facts.standing_counts)
        if plan.finals and any(r.shape in plan.finals for r in readings):
            readings = [r for r in readings if r.shape in plan.finals]
        shared: list[int | None] = [None] * plan.hand_slots
        candidates = ((View(r, facts, plan.policy), shared) for r in readings)
    win_rank = rs.tileset.kinds[hand.win_tile].rank
    disabled = frozenset(
        fid for fid, option in plan.gates if not ctx.options.get(option, True)
    ) if plan.gates else frozenset()
    scheme = SCHEMES[rs.payment.scheme]
    params = resolve_params(rs.payment.params, ctx)
    # A scheme that prices the fans themselves (天津 tjmj: 捉五 3 and 龙 4 add, 混儿吊 doubles)
    # may pay two readings of one fan total differently: the reading paying more is the best.
    priced = scheme.by_fans
    best_worth = 0
    best: tuple[int, int, View, list[tuple[FanDef, int]]] | None = None
    for view, hand_cache in candidates:
        shape = view.shape
        counted, total, toward_min, tie = _evaluate(
            view, ctx, plan.steps_for(shape, view.features), hand_cache, disabled)
        extras = plan.extras[shape].get(win_rank)
        if extras:
            for fan in extras:
                if fan.id in disabled:
                    continue
                counted.append((fan, 1))
                total += fan.value
                toward_min = toward_min or fan.counts_toward_minimum
        if not toward_min:
            nothing = plan.last[shape]
            if nothing is not None and nothing.id not in disabled:
                counted.append((nothing, 1))
                total += nothing.value
        priority = plan.priority[shape]
        if priced:
            worth = scheme.value(total, fans=tuple((f.id, n) for f, n in counted),
                                 **params)[0]
            if best is None or worth > best_worth or (
                    worth == best_worth and (total > best[0] or (
                        total == best[0] and (tie or priority < best[1])))):
                best = (total, priority, view, counted)
                best_worth = worth
        elif best is None or total > best[0] or (total == best[0]
                                                  and (tie or priority < best[1])):
            best = (total, priority, view, counted)
    if best is None:
        return ScoreResult(
            ruleset=rs.id, winning=False,
            reason=Reason(NO_WINNING_SHAPE,
                          "the tiles do not form a winning hand in any shape this rule set "
                          "accepts"),
            fans=(), fan_total=0, decomposition=None, payments=None,
        )
    assert best is not None
    _, _, view, counted = best
    if plan.flower is not None and plan.flower.id not in disabled:
        n = plan.flower.bound(view, ctx)  # type: ignore[misc]
        if n:
            flowers.append((plan.flower, n))
    fans = counted + flowers
    fan_total = sum(f.value * n for f, n in fans)
    min_total = sum(f.value * n for f, n in fans if f.counts_toward_minimum)
    fan_results = tuple(FanResult(f.id, f.name, f.name_en, f.value, n) for f, n in fans)
    decomposition = describe(view.reading, hand, rs.tileset, wild_set)
    for req in rs.requirements:
        if not req.bound(view, ctx):  # type: ignore[misc]
            return ScoreResult(
                ruleset=rs.id, winning=False, reason=Reason(req.reason, req.message),
                fans=fan_results, fan_total=fan_total, decomposition=decomposition,
                payments=None,
            )
    if min_total < rs.min_fan:
        return ScoreResult(
            ruleset=rs.id, winning=False,
            reason=Reason(BELOW_MINIMUM,
                          f"the hand scores {min_total} fan toward the minimum"
                          f"{_not_counted(fans)}; {rs.name} needs at least {rs.min_fan} to win"),
            fans=fan_results, fan_total=fan_total, decomposition=decomposition, payments=None,
        )
    # Requirements on the counted fans (a house rule refusing a plain 提溜), then the money;
    # a scheme that prices the fans themselves (`by_fans`) gets them.
    counted_ids = tuple((f.id, n) for f, n in fans)
    for freq in rs.fan_requirements:
        if freq.refuses((fid for fid, _ in counted_ids), ctx.options):
            return ScoreResult(
                ruleset=rs.id, winning=False, reason=Reason(freq.reason, freq.message),
                fans=fan_results, fan_total=fan_total, decomposition=decomposition,
                payments=None,
            )
    if priced:
        params["fans"] = counted_ids
    payments = scheme.pay(fan_total, ctx, rs.players, None, **params)
    worth, multiplier = scheme.value(fan_total, **params)
    return ScoreResult(ruleset=rs.id, winning=True, reason=None, fans=fan_results,
                       fan_total=fan_total, decomposition=decomposition, payments=payments,
                       value=worth, multiplier=multiplier)


def _wild_views(hand: Hand, facts: HandFacts, wild_set: frozenset[int], rs: RuleSet,
                plan: _Plan) -> Iterator[tuple[View, list[int | None]]]:
    """The readings of a hand holding wild tiles, as views, each with the hand-scope cache of
    its substitution. Readings the checks cannot tell apart (the same group keys, the winning
    tile's group included) are scored once."""
    tileset = rs.tileset
    naturals = facts.standing_counts[:]
    wilds = 0
    for t in wild_set:
        wilds += naturals[t]
        naturals[t] = 0
    caps = [tileset.kinds[t].copies - n for t, n in enumerate(facts.meld_counts)]
    declared = tuple(
        Group(m.kind, m.tiles[0], True, m.concealed and m.kind == KONG) for m in hand.melds)
    win_tile, win_wild = hand.win_tile, facts.win_wild
    reducer = None
    if plan.group_keys is not None:
        assert plan.suit_memo is not None and plan.numbers is not None
        assert plan.search_states is not None
        numbers = plan.numbers

        def number(thing: object) -> int:
            found = numbers.get(thing)
            if found is None:
                found = numbers[thing] = len(numbers)
            return found

        # Per group: its weight (by its key, and for a declared meld how it was declared),
        # and per place of the winning tile: (the tile it is read as, its key there).
        seen_groups: dict[Group, tuple[int, int, int, tuple[tuple[int, int], ...]]] = {}

        def described(g: Group) -> tuple[int, int, int, tuple[tuple[int, int], ...]]:
            found = seen_groups.get(g)
            if found is None:
                key = plan.group_key(g.kind, g.tile, tileset)
                weight = 1 << (4 * number(("weight", key, g.declared, g.concealed)))
                at = tuple(
                    (w, plan.group_key(g.kind, g.tile, tileset, (w, len(g.subs) - win_wild)))
                    for w in places(g, win_tile, win_wild))
                bits = 0
                for _, win_key in at:
                    bits |= 1 << number(("held", key, win_key))
                found = seen_groups[g] = (weight, bits, key, at)
            return found

        def group_info(g: Group) -> GroupInfo:
            found = described(g)
            return found[0], found[1]

        reducer = Reducer(group_info, plan.suit_memo, plan.search_states)
    free = plan.free or every_identity(tileset)
    by_subs: dict[tuple[tuple[int, ...], int], tuple[HandFacts, list[int | None]]] = {}
    seen: set[object] = set()
    natural_tiles = [t for t in hand.concealed if t not in wild_set]

    def view_of(reading: Reading) -> tuple[View, list[int | None]]:
        subs = tuple(sorted(s for g in reading.groups for s in g.subs))
        entry = by_subs.get((subs, reading.win_as))
        if entry is None:
            as_read = Hand(tuple(sorted((*natural_tiles, *subs))), hand.melds, reading.win_as)
            sub_facts = SubstitutedFacts(as_read, facts.ctx, tileset, plan.shapes, hand,
                                         facts.wild_count, win_wild)
            entry = by_subs[(subs, reading.win_as)] = (sub_facts, [None] * plan.hand_slots)
        return View(reading, entry[0], plan.policy), entry[1]

    if reducer is None:
        for reading in wild_readings(naturals, wilds, declared, caps, win_tile, win_wild,
                                     plan.shapes, tileset, free):
            exact: object = (reading.shape, tuple(sorted(reading.groups)),
                             reading.groups[reading.win], reading.win_as)
            if exact not in seen:
                seen.add(exact)
                yield view_of(reading)
        return
    for shape, groups in wild_groupings(naturals, wilds, declared, caps, win_tile, win_wild,
                                        plan.shapes, tileset, free, reducer):
        plain = 0
        for g in groups:
            plain += described(g)[0]
        for i, g in enumerate(groups):
            _, _, key, at = described(g)
            for as_tile, win_key in at:
                signature = (shape, plain, key, win_key)
                if signature not in seen:
                    seen.add(signature)
                    yield view_of(Reading(shape, groups, i, as_tile))


def _not_counted(fans: list[tuple[FanDef, int]]) -> str:
    names = [f.name for f, _ in fans if not f.counts_toward_minimum]
    return f" ({', '.join(names)} not counted)" if names else ""


@lru_cache(maxsize=4096)
def _group_text(tileset: TileSet, kind: str, tile: int, declared: bool, concealed: bool) -> str:
    if kind == CHOW:
        tiles = [tile, tile + 1, tile + 2]
    elif kind == KNIT:
        tiles = [tile, tile + 3, tile + 6]
    else:
        tiles = [tile] * {PUNG: 3, KONG: 4, PAIR: 2}[kind]
    text = format_tiles(tiles, tileset)
    if declared:
        # As on input: brackets for a declared meld, braces for a concealed kong.
        return "{" + text + "}" if concealed and kind == KONG else "[" + text + "]"
    return text


def describe(reading: Reading, hand: Hand, tileset: TileSet,
             wild_set: frozenset[int] = frozenset()) -> Decomposition:
    """The chosen reading in compact notation, groups in display order; declared melds in
    brackets as on input (`[123p]`, `{5555s}` for a concealed kong), and what each wild tile
    stood for."""
    if not reading.groups:
        return Decomposition(reading.shape, (format_tiles(sorted(hand.concealed), tileset),))
    rank = tileset.display_rank
    groups = sorted(reading.groups, key=lambda g: (rank[g.tile], g.kind != PAIR))
    return Decomposition(reading.shape, tuple(
        _group_text(tileset, g.kind, g.tile, g.declared, g.concealed) for g in groups),
        _wild_uses(reading, hand, tileset, wild_set))


def _wild_uses(reading: Reading, hand: Hand, tileset: TileSet,
               wild_set: frozenset[int]) -> tuple[tuple[str, str], ...]:
    """Pairs (wild tile held, tile it stood for). The winning tile, if wild, is paired with
    what the reading reads it as; then each wild read as its own kind; then the rest in
    display order (wilds of one kind are interchangeable, so any pairing is as true)."""
    held = [t for t in hand.concealed if t in wild_set]
    if not held:
        return ()
    read = [s for g in reading.groups for s in g.subs]
    code = tileset.code
    pairs: list[tuple[int, int]] = []
    if hand.win_tile in wild_set and reading.win >= 0:
        held.remove(hand.win_tile)
        read.remove(reading.win_as)
        pairs.append((hand.win_tile, reading.win_as))
    rest: list[int] = []
    for t in held:
        if t in read:
            read.remove(t)
            pairs.append((t, t))
        else:
            rest.append(t)
    rank = tileset.display_rank
    rest.sort(key=rank.__getitem__)
    read.sort(key=rank.__getitem__)
    pairs.extend(zip(rest, read, strict=True))
    return tuple((code(a), code(b)) for a, b in pairs)
