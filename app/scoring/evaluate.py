"""score(hand, context, rule set) -> ScoreResult: every reading scored, the best one kept.

For each reading of the hand (`app.domain.decompose`), the rule set's fans are decided in
their evaluation order: a fan already excluded (不计) by a counted fan is skipped without
running its check; a counted fan excludes what its `excludes` lists. Checks that look only at
the whole hand run once per request. The best reading has the highest total. Between equal
totals the reading found first stays, unless a later one has one of the rule set's
`tie_break_fans` or a shape of lower priority (readings come special shapes first, then the
regular ones in tile order). Flowers are added after the choice.

A fan whose `enabled_by` option the request switched off is left out from the start. After
the choice, the rule set's requirements (四川 定缺) and minimum decide whether the hand wins;
if it does, the payment scheme gives its money and its value.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from app.domain.decompose import CHOW, KNIT, KONG, PAIR, PUNG, Reading, decompose
from app.domain.hand import Hand, WinContext
from app.domain.notation import format_tiles
from app.domain.tiles import TileSet
from app.rules.checks import CHECKS
from app.rules.model import FanDef, RuleSet
from app.scoring.payments import SCHEMES, resolve_params
from app.scoring.policies import POLICIES, Policy
from app.scoring.result import DecompositionView, FanResult, Reason, ScoreResult
from app.scoring.view import FEATURES, HandFacts, View

NO_WINNING_SHAPE = "no_winning_shape"
BELOW_MINIMUM = "below_minimum"


# One fan in evaluation order, as the hot loop wants it: id, bound check, slot in the
# per-request cache of hand-scope results (-1 for reading-scope checks), fans it excludes,
# the reading features its check needs (a bit mask, see app.scoring.view.FEATURES), the fan,
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
    plan = _Plan(
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
    readings = decompose(hand, plan.shapes, rs.tileset, facts.standing_counts)
    if plan.finals and any(r.shape in plan.finals for r in readings):
        readings = [r for r in readings if r.shape in plan.finals]
    flowers: list[tuple[FanDef, int]] = []
    if not readings:
        return ScoreResult(
            ruleset=rs.id, winning=False,
            reason=Reason(NO_WINNING_SHAPE,
                          "the tiles do not form a winning hand in any shape this rule set "
                          "accepts"),
            fans=(), fan_total=0, decomposition=None, payments=None,
        )
    win_rank = rs.tileset.kinds[hand.win_tile].rank
    hand_cache: list[int | None] = [None] * plan.hand_slots
    disabled = frozenset(
        fid for fid, option in plan.gates if not ctx.options.get(option, True)
    ) if plan.gates else frozenset()
    best: tuple[int, int, View, list[tuple[FanDef, int]]] | None = None
    for reading in readings:
        shape = reading.shape
        view = View(reading, facts, plan.policy)
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
        if best is None or total > best[0] or (total == best[0]
                                                and (tie or priority < best[1])):
            best = (total, priority, view, counted)
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
    decomposition = describe(view.reading, hand, rs.tileset)
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
    scheme = SCHEMES[rs.payment.scheme]
    params = resolve_params(rs.payment.params, ctx)
    payments = scheme.pay(fan_total, ctx, rs.players, None, **params)
    worth, multiplier = scheme.value(fan_total, **params)
    return ScoreResult(ruleset=rs.id, winning=True, reason=None, fans=fan_results,
                       fan_total=fan_total, decomposition=decomposition, payments=payments,
                       value=worth, multiplier=multiplier)


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


def describe(reading: Reading, hand: Hand, tileset: TileSet) -> DecompositionView:
    """The chosen reading in compact notation, groups in display order; declared melds in
    brackets as on input (`[123p]`, `{5555s}` for a concealed kong)."""
    if not reading.groups:
        return DecompositionView(reading.shape, (format_tiles(sorted(hand.concealed), tileset),))
    rank = tileset.display_rank
    groups = sorted(reading.groups, key=lambda g: (rank[g.tile], g.kind != PAIR))
    return DecompositionView(reading.shape, tuple(
        _group_text(tileset, g.kind, g.tile, g.declared, g.concealed) for g in groups))
