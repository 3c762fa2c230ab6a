"""Explanations: what a scored hand had but did not count, and why; the readings compared.

`?explain=true` on the score, waits and batch endpoints. The hand is scored as always, with a
`Trace` of what the scoring compared (`app.scoring.evaluate`); then, on the reading chosen:

1. Every fan of the rule set whose check finds something in that reading is asked again,
   chow combinations counted without the combination policy's limits (`UNLIMITED` of
   `app.rules.policies`: every 一般高, 喜相逢 ... the chows form).
2. Each fan found more times than it counts is not counted, for the first of these that
   holds, in this order:
   - `option`: a request option switches it off (`enabled_by`, `when`);
   - `shape`: the reading's shape does not score it (`only_fans` of the shape, or the fan's
     `shapes`: 七对 never scores 门前清);
   - `fan`: a counted fan excludes it (不计); the first such fan in evaluation order, which
     is the one that left it out;
   - `needs_other_fan`: it counts only beside another fan, and none counted;
   - `account_once`: a chow combination the policy's limits (套算一次) did not count.
   The 无番和-like fan of a shape (counted only when nothing else is) and the flower fan are
   never listed: the one is not a pattern of the hand, the other always counts.
3. The readings compared, the chosen one first, then the others by total (those meeting the
   rule set's requirements first), at most `MAX_READINGS`, each with its fans and total
   (flowers included, as the response's total) and, for wild tiles, what each stood for.

Nothing here changes what is counted: an explained result is the result without `explain`.
"""

from __future__ import annotations

from app.domain.hand import Hand, WinContext
from app.domain.readings import Reading
from app.rules.checks import CHECKS
from app.rules.model import RuleSet
from app.rules.plan import Plan, ShapePlan, needs_mask
from app.rules.policies import UNLIMITED
from app.rules.view import View
from app.scoring.describe import describe
from app.scoring.evaluate import Trace, score
from app.scoring.fans import Tally, fan_ids
from app.scoring.result import (
    Decomposition,
    Explanation,
    NotCounted,
    ReadingTotal,
    ScoreResult,
)

MAX_READINGS = 5

# Why a fan the reading had is not counted (the `rule` of a `NotCounted`).
BY_OPTION = "option"
BY_SHAPE = "shape"
BY_FAN = "fan"
NEEDS_OTHER_FAN = "needs_other_fan"
ACCOUNT_ONCE = "account_once"
RULES = (BY_OPTION, BY_SHAPE, BY_FAN, NEEDS_OTHER_FAN, ACCOUNT_ONCE)


NO_EXPLANATION = Explanation((), (), 0)


def explained(hand: Hand, ctx: WinContext, rs: RuleSet) -> tuple[ScoreResult, Explanation]:
    """The hand scored as `score` scores it, and its explanation."""
    trace = Trace()
    result = score(hand, ctx, rs, trace)
    if trace.best is None or trace.hand is None or trace.plan is None:
        # No winning shape: nothing was compared.
        return result, NO_EXPLANATION
    return result, _explanation(trace, ctx, rs, result)


def chosen_reading(hand: Hand, ctx: WinContext, rs: RuleSet) -> Reading | None:
    """The reading `score` chose for the hand (None when no shape is made): its groups say
    which tiles its wild tiles stood for group by group, and where the winning tile sits.
    A picture lays a hand with wilds out by it, as it was scored."""
    trace = Trace()
    score(hand, ctx, rs, trace)
    return None if trace.best is None else trace.best[0].reading


def _explanation(trace: Trace, ctx: WinContext, rs: RuleSet,
                 result: ScoreResult) -> Explanation:
    assert trace.best is not None and trace.hand is not None and trace.plan is not None
    plan = trace.plan
    view, tally = trace.best
    # Flowers count the same on every reading: added to each, as to the response's total.
    flowers = result.fan_total - tally.total
    compared = [(v, t, meets, v is view) for v, t, meets in trace.readings]
    compared.sort(key=lambda r: (not r[3], not r[2], -r[1].total))
    readings = tuple(
        ReadingTotal(_described(v, trace, rs),
                     fan_ids(plan, t.counted), t.total + flowers,
                     meets, chosen)
        for v, t, meets, chosen in compared[:MAX_READINGS])
    return Explanation(tuple(_not_counted(view, tally, trace.disabled, ctx, rs, plan)), readings,
                       len(compared))


def _described(view: View, trace: Trace, rs: RuleSet) -> Decomposition:
    assert trace.hand is not None
    shown = describe(view.reading, trace.hand, rs.tileset, trace.wild_set)
    return shown._replace(wilds=trace.stood_for) if trace.stood_for else shown


def _not_counted(view: View, tally: Tally, disabled: int, ctx: WinContext,
                 rs: RuleSet, plan: Plan) -> list[NotCounted]:
    shape = plan.shapes[view.shape]
    policy_name = rs.combination_policy
    unlimited = (View(view.reading, view.facts, UNLIMITED[policy_name])
                 if policy_name is not None else view)
    counted = dict(tally.counted)
    in_shape = _positions(shape)
    flower = plan.flower.position if plan.flower is not None else -1
    out = []
    for position, fan in enumerate(plan.fans):
        if position == flower or fan.when_nothing_else or fan.bound is None:
            continue
        needs = needs_mask(CHECKS[fan.check].needs)
        if needs & unlimited.features != needs:
            continue
        found = fan.bound(unlimited, ctx)
        missing = found - counted.get(position, 0)
        if missing <= 0:
            continue
        limited = unlimited is not view and fan.bound(view, ctx) < found
        out.append(_why(position, missing, limited, disabled, in_shape, tally, view.shape, rs,
                        plan))
    return out


def _why(position: int, missing: int, limited: bool, disabled: int, in_shape: frozenset[int],
         tally: Tally, shape: str, rs: RuleSet, plan: Plan) -> NotCounted:
    fan = plan.fans[position]
    bit = 1 << position
    rule: str
    by: str | None
    if disabled & bit:
        by = _option_of(plan, bit)
        rule, message = BY_OPTION, f"the request's option {by!r} switches it off"
    elif position not in in_shape:
        rule, by = BY_SHAPE, shape
        message = f"a {shape} reading does not score it"
    else:
        excluder = next((p for p, _ in tally.counted if plan.excludes[p] & bit), None)
        if excluder is not None:
            other = plan.fans[excluder]
            rule, by = BY_FAN, other.id
            message = f"not counted (不计) with {other.name} ({other.name_en}), which counts"
        elif plan.needs_company & bit:
            rule, by = NEEDS_OTHER_FAN, None
            message = "it counts only beside another fan, and none counts"
        elif limited:
            rule, by = ACCOUNT_ONCE, rs.combination_policy
            message = (f"the chows combine in the fans counted already; {by!r} lets each "
                       "chow combine with the others once (套算一次)")
        else:
            raise AssertionError(f"{rs.id}: {fan.id} is found but neither counted nor left "
                                 "out by a rule")
    return NotCounted(fan.id, fan.name, fan.name_en, fan.value, missing, rule, by, message)


def _option_of(plan: Plan, bit: int) -> str:
    for b, option in plan.gates:
        if b == bit:
            return option
    for b, conditions in plan.conditions:
        if b == bit:
            return conditions[0].option
    raise AssertionError("a disabled fan has a gate or a condition")


def _positions(shape: ShapePlan) -> frozenset[int]:
    """The fans a reading of this shape finds by their checks (its fixed extras, 九莲宝灯's,
    are counted once whatever the checks find: a fan among them found more is left out by
    the shape too)."""
    return frozenset(s.position for s in shape.hand + shape.reading)
