"""score(hand, context, rule set) -> ScoreResult.

How a hand is scored, in seven steps, each a function of this module that `_score` calls in
turn (the rule set's plan, `app.rules.plan`, says which fans each step looks for):

1. Facts (`_facts`): what the whole hand holds, counted once (`app.rules.view.HandFacts`).
2. Readings (`_readings`): every way the rule set's shapes read the hand (`app.domain.shapes`),
   but those a request option switches off (`enabled_by`); with wild tiles, every way they
   can fill it, alike readings once (`app.scoring.wild_readings`). When a final shape is
   among them (MCR's special forms), only its readings are compared.
3. Fans of each reading (`_fans`, which `_best` calls for each reading; counted by
   `app.scoring.fans`): the hand fans, decided once per hand (with the reading fans when the
   hand reads one way only), and the reading fans whose checks can find something in it
   (answers the checks share by key are remembered, bounded: see `app.scoring.memory`),
   counted in evaluation order, each counted fan leaving out (不计) what it excludes; a fan
   that needs another fan is left out when none counts beside it; then the shape's fixed
   extras and, when nothing else counts toward the minimum, its 无番和-like fan. Fans an
   option switches off are left out from the start.
4. The best reading (`_best`): among the readings meeting the rule set's requirements if any
   does (长春 有刻: a hand read with a pung rather than without), the highest total; under a
   payment scheme that prices the fans themselves (`by_fans`), the highest value first,
   then the highest total (prices kept for the request's options: `ceiling.Pricing`).
   Between equals the reading found first stays, unless a later one has a tie-break fan or
   a shape of lower priority. The comparison ends at a reading no later one can better: one
   counting a final fan (MCR 连七对), or one reaching the most the fans could add up to in
   the hand, where the checks say it (`app.scoring.ceiling`: 天津's many readings of wild
   hands), worked out at the third reading, or the first for a hand read through its wild
   substitutions.
5. Flowers (`_flowers`) are added to the best reading's fans; the total is capped where the
   rule set caps it (`_capped`: `max_fan`, 封顶).
6. Whether it wins (`_refused`): the rule set's requirements (四川 定缺), its minimum (flowers
   aside where they do not count toward it), then its requirements on the counted fans
   (天津 min_hand). A hand that does not win still says what it would have scored, and why
   not.
7. Money (`_paid`): the payment scheme's transfers and the hand's value
   (`app.rules.payments`).

A rule set with a stand-in winning tile (长春 摸宝, `stand_in`) scores the hand once for each
tile completing the rest of it, and answers the best, saying what the tile stood for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final

from app.domain import deadline
from app.domain.hand import Hand, WinContext
from app.domain.shapes import completing_tiles, decompose
from app.rules.definitions import Requirement
from app.rules.model import FixedPayment, RuleSet
from app.rules.payments import Scheme, resolve_params
from app.rules.plan import Plan, RuleTerms, ShapePlan
from app.rules.view import HandFacts, SubstitutedFacts, View, held
from app.scoring.ceiling import Pricing, ceiling
from app.scoring.describe import describe
from app.scoring.fans import HandFans, Hit, Tally, fan_ids, tally
from app.scoring.result import FanResult, Reason, ScoreResult
from app.scoring.wild_readings import wild_views

NO_WINNING_SHAPE: Final = "no_winning_shape"
BELOW_MINIMUM: Final = "below_minimum"
_NO_WILDS: Final[frozenset[int]] = frozenset()
# The readings compared before the most a reading can score is worked out (see step 4;
# `_readings` says which applies): a hand read in one or two ways has nothing to save, so a
# hand whose readings are listed waits for the third; a hand with wilds, whose readings are
# made as they are compared and are often many, works it out at the first, which may then
# end the comparison.
_CEILING_AFTER: Final = 3
_CEILING_AFTER_WILDS: Final = 1

# Hot-path named tuples are built with `tuple.__new__(Type, fields)`: a NamedTuple's own
# constructor runs a slower Python-level __new__.
_new: Final = tuple.__new__


class Trace:
    """What an explanation needs of one scoring (`app.scoring.explain`): every reading
    read, with its tally and whether it met the rule set's requirements, the reading
    chosen, the facts it was read on, and the fans the request's options switched off."""

    __slots__ = ("best", "compared", "disabled", "hand", "plan", "readings", "stood_for",
                 "wild_set")

    def __init__(self) -> None:
        self.readings: list[tuple[View, Tally, bool]] = []
        # How many of them were compared: those after a reading no later one could better
        # were read, not compared.
        self.compared = 0
        self.best: tuple[View, Tally] | None = None
        self.disabled = 0
        self.hand: Hand | None = None
        self.plan: Plan | None = None  # the plan scored by (fan values a request option gives)
        self.wild_set: frozenset[int] = _NO_WILDS
        # 摸宝: (the tile held, the tile it stood for), as the result's decomposition shows.
        self.stood_for: tuple[tuple[str, str], ...] = ()


def score(hand: Hand, ctx: WinContext, rs: RuleSet, trace: Trace | None = None,
          transfers: bool = True) -> ScoreResult:
    """The hand scored under the rule set; with `trace`, what the scoring compared is
    recorded in it (the hand the stand-in winning tile was read as, for 摸宝). Without
    `transfers`, who pays whom is not worked out (`payments` None; the value and multiplier
    are): the waits of a hand list no payments."""
    plan = rs.plan
    terms = _terms(plan)
    stand_in = terms.stand_in
    if stand_in is not None and stand_in.holds(ctx.options):
        return _stood_in(hand, ctx, rs, trace, transfers)
    return _score(hand, ctx, rs, plan, terms, trace, transfers)


def _terms(plan: Plan) -> RuleTerms:
    """The rule set's terms the plan carries (`RuleSet.plan` sets them)."""
    terms = plan.terms
    assert terms is not None
    return terms


def _stood_in(hand: Hand, ctx: WinContext, rs: RuleSet, trace: Trace | None,
              transfers: bool) -> ScoreResult:
    """宝 (摸宝): the winning tile stands for the completing tile of the rest of the hand
    that scores best (a win first, then the highest value, then the highest fan total; the
    first in tile order among equals), never a copy beyond the tile set's. The result's
    decomposition pairs the tile held with the tile it stood for. With no completing tile,
    the hand is scored as it is written."""
    tileset = rs.tileset
    win = hand.win_tile
    standing = list(hand.concealed)
    standing.remove(win)
    before = [0] * tileset.size
    for t in standing:
        before[t] += 1
    held = before[:]
    for m in hand.melds:
        for t in m.tiles:
            held[t] += 1
    candidates = completing_tiles(before, len(hand.melds), frozenset(rs.shapes), tileset)
    kinds = tileset.kinds
    best: ScoreResult | None = None
    best_key = (False, -1, -1)
    read_as = win
    for t in tileset.display_order:
        if t not in candidates or held[t] >= kinds[t].copies:
            continue
        result = _score(Hand((*standing, t), hand.melds, t), ctx, rs, rs.plan, _terms(rs.plan),
                        None, transfers)
        if result.decomposition is None:
            continue
        key = (result.winning, result.value if result.value is not None else -1,
               result.fan_total)
        if best is None or key > best_key:
            best, best_key, read_as = result, key, t
    if best is None or best.decomposition is None:
        return _score(hand, ctx, rs, rs.plan, _terms(rs.plan), trace, transfers)
    stood_for = ((tileset.code(win), tileset.code(read_as)),)
    if trace is not None:  # the hand read as it scored best, scored again to be traced
        _score(Hand((*standing, read_as), hand.melds, read_as), ctx, rs, rs.plan,
               _terms(rs.plan), trace)
        trace.stood_for = stood_for
    shown = best.decomposition._replace(wilds=stood_for)
    return best._replace(decomposition=shown)


def _score(hand: Hand, ctx: WinContext, rs: RuleSet, plan: Plan, terms: RuleTerms,
           trace: Trace | None = None, transfers: bool = True) -> ScoreResult:
    """The hand scored under the rule set (`plan` its plan, `terms` what the plan carries of
    it), step by step (the module's overview)."""
    # Each hand is a unit of work: a caller's time limit (waits and rounds score many) is
    # checked here.
    deadline.check()
    if plan.value_options:
        plan = plan.valued(ctx.options)  # fan values a request option gives
    facts, wild_set = _facts(hand, ctx, terms, plan)
    candidates, same_hand_fans, ceiling_after = _readings(hand, facts, wild_set, rs, plan,
                                                          trace is None)
    disabled = _disabled(plan, ctx)
    fixed = terms.fixed_params
    params: Mapping[str, Any] = (resolve_params(rs.payment.params, ctx) if fixed is None
                                 else fixed)
    best = _best(candidates, hand, ctx, terms, plan, facts.shapes, wild_set, disabled,
                 same_hand_fans, ceiling_after, params, trace)
    if best is None:
        return _unread(terms)
    view, t = best[3], best[4]
    if trace is not None:
        trace.best, trace.disabled, trace.hand, trace.wild_set, trace.plan = (
            (view, t), disabled, hand, wild_set, plan)
    counted, fan_total, min_total = _flowers(plan, view, ctx, disabled, t)
    fan_total = _capped(terms, fan_total)
    table = _SHOWN.get(plan)
    shown = table if table is not None else _shown(plan)
    fans_shown: list[FanResult] = []
    size = len(plan.fans)
    for position, n in counted:
        found = shown.get(position + n * size)
        fans_shown.append(found if found is not None else _show(plan, shown, position, n))
    fans = tuple(fans_shown)
    decomposition = describe(view.reading, hand, terms.tileset, wild_set)
    refused = _refused(terms, plan, view, ctx, counted, min_total)
    if refused is not None:
        return _new(ScoreResult, (terms.id, False, refused, fans, fan_total, decomposition,
                                  None, None, None))
    return _paid(terms, plan, ctx, terms.scheme, params, counted, fan_total, fans,
                 decomposition, transfers)


def _facts(hand: Hand, ctx: WinContext, terms: RuleTerms, plan: Plan
           ) -> tuple[HandFacts, frozenset[int]]:
    """Step 1: the facts of the hand, and the wild tiles of the request (none where the rule
    set has no wild tiles). A hand holding wild tiles standing is read through their
    substitutions, each with facts of its own: the hand's own facts are filled in only if
    something asks for them. A shape an option switches off reads nothing (a house rule's
    七对)."""
    shape_names = plan.shapes_for(ctx.options) if plan.shape_gates else plan.shape_names
    wild_set = _NO_WILDS
    wild_count = 0
    win_wild = False
    if ctx.wilds and terms.wild is not None:
        wild_set = frozenset(ctx.wilds)
        wild_count = sum(1 for t in hand.concealed if t in wild_set) + sum(
            1 for m in hand.melds for t in m.tiles if t in wild_set)
        win_wild = hand.win_tile in wild_set
        if not wild_set.isdisjoint(hand.concealed):
            return SubstitutedFacts(hand, ctx, terms.tileset, shape_names, hand, wild_count,
                                    win_wild), wild_set
    facts = HandFacts(hand, ctx, terms.tileset, shape_names)
    facts.wild_count = wild_count
    facts.win_wild = win_wild
    return facts, wild_set


def _readings(hand: Hand, facts: HandFacts, wild_set: frozenset[int], rs: RuleSet,
              plan: Plan, untraced: bool = False
              ) -> tuple[Iterable[tuple[View, HandFans | None]], bool, int]:
    """Step 2: the hand's readings as views to compare, each with the hand fans it shares
    (None: read one way only, its hand fans decided with its reading fans); whether the
    hand fans are the same in every reading (decided once for the hand); and the readings
    compared before the ceiling is worked out (`_CEILING_AFTER`). `untraced`: no trace lists
    the readings, so that of readings scoring alike only the first need be read when no fan
    breaks ties (`wild_views`' `merge`): a later one could never replace it."""
    if isinstance(facts, SubstitutedFacts):
        same_hand_fans = plan.wild is not None and plan.wild.physical_hand_fans
        return (wild_views(hand, facts, wild_set, rs, untraced and not plan.ties),
                same_hand_fans, _CEILING_AFTER_WILDS)
    readings = decompose(hand, facts.shapes, facts.tileset, facts.standing,
                         facts.declared().groups)
    finals = plan.finals
    if finals:
        for r in readings:
            if r.shape in finals:
                readings = [r for r in readings if r.shape in finals]
                break
    policy = plan.policy
    candidates: Iterable[tuple[View, HandFans | None]]
    if len(readings) == 1:
        # Read one way only: its hand fans are decided with its reading fans.
        candidates = ((View(readings[0], facts, policy), None),)
    else:
        shared = HandFans()
        # Made as they are compared: a final fan may end the comparison early.
        candidates = ((View(r, facts, policy), shared) for r in readings)
    return candidates, True, _CEILING_AFTER


def _disabled(plan: Plan, ctx: WinContext) -> int:
    """The bits of the fans the request's options switch off."""
    disabled = 0
    for bit, option in plan.gates:
        if not ctx.options.get(option, True):
            disabled |= bit
    for bit, conditions in plan.conditions:
        for condition in conditions:
            if not condition.holds(ctx.options):
                disabled |= bit
                break
    return disabled


# (worth, total, priority, view, tally) of the best reading so far (`_best`).
_Best = tuple[int, int, int, View, Tally]


def _best(candidates: Iterable[tuple[View, HandFans | None]], hand: Hand, ctx: WinContext,
          terms: RuleTerms, plan: Plan, shape_names: frozenset[str], wild_set: frozenset[int],
          disabled: int, same_hand_fans: bool, ceiling_after: int, params: Mapping[str, Any],
          trace: Trace | None) -> _Best | None:
    """Steps 3 and 4: (worth, total, priority, view, tally) of the best reading, or None
    when the hand reads in no way; with `trace`, every reading is recorded (those after the
    comparison ended are read, not compared: an explanation still lists them)."""
    # A scheme that prices the fans themselves (天津 tjmj: 捉五 3 and 龙 4 add, 混儿吊 doubles)
    # may pay two readings of one fan total differently: the reading paying more is the best.
    pricing = (_pricing(plan, terms.scheme, params, ctx.options)
               if terms.by_fans else None)
    requirements = terms.requirements
    best: _Best | None = None
    best_meets = decided = False
    # The requirements decided by the hand alone (`Requirement.per_hand`) are asked of the
    # first reading only: their answer holds for every reading.
    hand_meets: bool | None = None
    may_stop = bool(plan.ceilings and same_hand_fans and not plan.ties & ~disabled
                    and terms.requirements_per_hand)
    top: tuple[int, int] | None = None
    first_priority = compared = 0
    for view, of_hand in candidates:
        meets = True
        if requirements:
            if hand_meets is None:
                hand_meets = _meets(requirements, view, ctx, True)
            meets = hand_meets and _meets(requirements, view, ctx, False)
            # A reading meeting every requirement (长春 有刻) beats any that does not.
            if not decided and best is not None and meets != best_meets:
                if not meets:
                    continue
                best = None
        shape = plan.shapes[view.shape]
        t = _fans(view, of_hand, ctx, plan, shape, disabled, hand.win_tile)
        worth = pricing.worth(t.total, t.counted) if pricing is not None else 0
        if trace is not None:
            trace.readings.append((view, t, meets))
            if decided:
                continue
            trace.compared += 1
        if t.bits & plan.finals_by_fan and meets:  # a final fan (MCR 连七对) ends it
            best = (worth, t.total, shape.priority, view, t)
            best_meets = decided = True
        else:
            compared += 1
            better = _better(best, worth, t, shape.priority)
            if better:
                best = (worth, t.total, shape.priority, view, t)
                best_meets = meets
            # The ceiling, once `ceiling_after` readings are compared, against each new best.
            if may_stop and compared >= ceiling_after and (better or top is None):
                if top is None:
                    first_priority, top = _top(plan, shape_names, view, of_hand, hand,
                                               wild_set, ctx, disabled, pricing)
                    may_stop = top is not None
                decided = _ceiling_reached(best, top, first_priority)
        # Ended, no later reading is made (a wild hand's are made as they are compared).
        if decided and trace is None:
            break
    return best


def _meets(requirements: tuple[Requirement, ...], view: View, ctx: WinContext,
           per_hand: bool) -> bool:
    """Whether the reading meets the rule set's requirements decided by the hand alone
    (`per_hand`), or those decided by the reading."""
    for req in requirements:
        if req.per_hand == per_hand and not req.bound(view, ctx):  # type: ignore[misc]
            return False
    return True


def _fans(view: View, of_hand: HandFans | None, ctx: WinContext, plan: Plan,
          shape: ShapePlan, disabled: int, win: int) -> Tally:
    """Step 3: the fans the reading counts (`app.scoring.fans.tally`), with the hand fans
    `of_hand` shares between readings (None: decided with the reading's own)."""
    return tally(view, ctx, plan, shape,
                 of_hand.hits(shape, view, ctx) if of_hand is not None else None,
                 disabled, win)


def _better(best: _Best | None, worth: int, t: Tally, priority: int) -> bool:
    """Whether a reading of this worth, tally and shape priority replaces the best so far:
    the highest worth, then the highest total; between equals the one found first stays,
    unless the new one has a tie-break fan or a shape of lower priority."""
    return best is None or worth > best[0] or (worth == best[0] and (
        t.total > best[1] or (t.total == best[1] and (t.breaks_ties or priority < best[2]))))


def _ceiling_reached(best: _Best | None, top: tuple[int, int] | None,
                     first_priority: int) -> bool:
    """Whether the best reading reaches the most any reading can score (`top`, from `_top`),
    so that no later reading could replace it. `_best` asks only where a later reading of
    as much could not win a tie: no tie-break fan, requirements decided by the hand alone,
    the hand fans the same in every reading; and the best's shape must be first among
    equals."""
    assert best is not None
    return top is not None and best[2] == first_priority and (best[0], best[1]) >= top


def _unread(terms: RuleTerms) -> ScoreResult:
    """The result of a hand that reads in no way."""
    return ScoreResult(
        ruleset=terms.id, winning=False,
        reason=Reason(NO_WINNING_SHAPE,
                      "the tiles do not form a winning hand in any shape this rule set "
                      "accepts"),
        fans=(), fan_total=0, decomposition=None, payments=None,
    )


def _flowers(plan: Plan, view: View, ctx: WinContext, disabled: int, t: Tally
             ) -> tuple[list[Hit], int, int]:
    """Step 5: the best reading's fans with the flowers added: (the counted fans, their
    total, the part of it counted toward the rule set's minimum)."""
    counted, fan_total, bits = t.counted, t.total, t.bits
    values = plan.values
    min_total = fan_total
    if bits & plan.beside_minimum:
        for position, n in counted:
            if plan.beside_minimum >> position & 1:
                min_total -= values[position] * n
    flower = plan.flower
    if flower is not None and not disabled & flower.bit:
        n = flower.check(view, ctx)
        if n:
            counted = [*counted, (flower.position, n)]
            fan_total += flower.value * n
            if flower.toward_minimum:
                min_total += flower.value * n
    return counted, fan_total, min_total


def _capped(terms: RuleTerms, fan_total: int) -> int:
    """Step 5, 封顶: the total never exceeds the rule set's cap (二人麻将 13); the fans stay
    listed."""
    max_fan = terms.max_fan
    return max_fan if max_fan is not None and fan_total > max_fan else fan_total


def _refused(terms: RuleTerms, plan: Plan, view: View, ctx: WinContext,
             counted: list[tuple[int, int]], min_total: int) -> Reason | None:
    """Step 6: why the hand does not win (None: it wins)."""
    refused: Reason | None = None
    for req in terms.requirements:
        if not req.bound(view, ctx):  # type: ignore[misc]
            refused = Reason(req.reason, req.message)
            break
    if refused is None and min_total < terms.min_fan:
        refused = _new(Reason, (BELOW_MINIMUM,
                                f"the hand scores {min_total} fan toward the minimum"
                                f"{_not_counted(plan, counted)}; {terms.name} needs at least "
                                f"{terms.min_fan} to win"))
    if refused is None and terms.fan_requirements:
        counted_ids = fan_ids(plan, counted)
        for freq in terms.fan_requirements:
            if freq.refuses((fid for fid, _ in counted_ids), ctx.options, ctx.win_type):
                refused = Reason(freq.reason, freq.message)
                break
    return refused


def _paid(terms: RuleTerms, plan: Plan, ctx: WinContext, scheme: Scheme,
          params: Mapping[str, Any], counted: list[tuple[int, int]], fan_total: int,
          fans: tuple[FanResult, ...], decomposition: Any, transfers: bool) -> ScoreResult:
    """Step 7: the winning result, with who pays whom (unless not `transfers`) and the
    hand's value."""
    priced = scheme.by_fans
    bound: FixedPayment | None = terms.fixed_payment
    if priced:
        params = {**params, "fans": fan_ids(plan, counted)}
    elif bound is not None:
        # Remembered by (total, what the scheme reads of the context): see `FixedPayment`.
        # `paid_by` read first, then called: compiled, a call on a named tuple's field is
        # made as a method call, which looks the field up by name.
        memo = bound.memo
        paid_by = bound.paid_by
        paid = (memo.get((fan_total, paid_by(ctx))) if memo is not None
                and paid_by is not None else None)
        if paid is None:
            paid = bound.paid(fan_total, ctx, terms.players)
        return _new(ScoreResult, (terms.id, True, None, fans, fan_total, decomposition,
                                  paid[0] if transfers else None, paid[1], paid[2]))
    payments = scheme.pay(fan_total, ctx, terms.players, None, **params) if transfers else None
    worth, multiplier = scheme.value(fan_total, **params)
    return _new(ScoreResult, (terms.id, True, None, fans, fan_total, decomposition, payments,
                              worth, multiplier))


def _top(plan: Plan, shape_names: Any, view: View, of_hand: HandFans | None, hand: Hand,
         wild_set: frozenset[int], ctx: WinContext, disabled: int, pricing: Pricing | None
         ) -> tuple[int, tuple[int, int] | None]:
    """(the first priority among the hand's shapes, the most a reading of the hand can
    score: `app.scoring.ceiling`, its hand fans as `of_hand` decides them; None for a hand
    read one way, with nothing to save)."""
    shapes = [plan.shapes[name] for name in shape_names]
    first_priority = min(sp.priority for sp in shapes)
    if of_hand is None:
        return first_priority, None

    def hits(shape: ShapePlan) -> list[Hit]:
        assert of_hand is not None
        return of_hand.hits(shape, view, ctx)

    return first_priority, ceiling(plan, shapes, hits,
                                   held(hand, wild_set, view.facts.tileset), ctx, disabled,
                                   pricing)


# The pricings of the latest options seen (`_pricing`), by the options' identity; emptied
# when full. A request's scorings share one (its context's options); requests without
# options share the rule set's defaults.
_PRICINGS: Final[dict[int, Pricing]] = {}
PRICINGS_LIMIT: Final = 8


def _pricing(plan: Plan, scheme: Scheme, params: Mapping[str, Any],
             options: Mapping[str, Any]) -> Pricing:
    """The pricing of counted fans under `plan` and the payment `params` that a request's
    `options` resolve to: remembered for those options (the same object, holding the same
    values), so that a request scoring many hands (waits, a discard analysis) prices each
    choice of fans once."""
    found = _PRICINGS.get(id(options))
    if (found is None or found.options is not options or found.plan is not plan
            or found.seen != options):
        if len(_PRICINGS) >= PRICINGS_LIMIT:
            _PRICINGS.clear()
        found = _PRICINGS[id(options)] = Pricing(plan, scheme, params, options)
    return found


def _not_counted(plan: Plan, counted: list[Hit]) -> str:
    names = [plan.fans[position].name for position, _ in counted
             if not plan.toward_minimum >> position & 1]
    return f" ({', '.join(names)} not counted)" if names else ""


def _show(plan: Plan, shown: dict[int, FanResult], position: int, n: int) -> FanResult:
    """A plan's fan as a result lists it, counted `n` times, made when first asked for and
    kept in the plan's table (`_SHOWN`): at most a few per fan of the rule set (times above
    4 are rare: flowers, 幺九刻)."""
    f = plan.fans[position]
    found = shown[position + n * len(plan.fans)] = FanResult(f.id, f.name, f.name_en, f.value,
                                                             n)
    return found


# One table per plan (per rule set loaded; tests load variants), by position + times * the
# number of fans: an int, one per (position, times), which hashes faster than the pair.
# A plain dict (no `__missing__`): compiled code looks it up without a Python-level call.
_SHOWN: Final[dict[Plan, dict[int, FanResult]]] = {}
_SHOWN_LIMIT: Final = 64


def _shown(plan: Plan) -> dict[int, FanResult]:
    found = _SHOWN.get(plan)
    if found is None:
        if len(_SHOWN) >= _SHOWN_LIMIT:
            _SHOWN.clear()
        found = _SHOWN[plan] = {}
    return found
