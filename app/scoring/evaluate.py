"""score(hand, context, rule set) -> ScoreResult: every reading scored, the best one kept.

For each reading of the hand (`app.domain.decompose`), the rule set's fans are decided in
their evaluation order: a fan already excluded (不计) by a counted fan is skipped without
running its check; a counted fan excludes what its `excludes` lists. Checks that look only at
the whole hand run once per request. The best reading has the highest total; ties go to a
reading with one of the rule set's `tie_break_fans`, then to the shape with the lower
priority, then to the reading found first. Flowers are added after the choice.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.domain.decompose import CHOW, KNIT, KONG, PAIR, PUNG, Group, Reading, decompose
from app.domain.hand import Hand, WinContext
from app.domain.notation import format_tiles
from app.domain.tiles import TileSet
from app.rules.checks import CHECKS
from app.rules.model import FanDef, RuleSet, ShapeDef
from app.scoring.payments import pay
from app.scoring.policies import POLICIES, Policy
from app.scoring.result import DecompositionView, FanResult, Reason, ScoreResult
from app.scoring.view import HandFacts, View

NO_WINNING_SHAPE = "no_winning_shape"
BELOW_MINIMUM = "below_minimum"


@dataclass(frozen=True)
class _Step:
    """One fan in evaluation order, with what the hot loop needs at hand."""

    fan: FanDef
    index: int
    hand_scope: bool
    excludes: frozenset[str]


@dataclass(frozen=True)
class _Plan:
    steps: tuple[_Step, ...]
    last: tuple[FanDef, ...]  # 无番和-like fans, decided when nothing else counts
    shapes: frozenset[str]
    finals: frozenset[str]
    policy: Policy | None
    tie_fans: frozenset[str]
    flower: FanDef | None


_PLANS: dict[int, tuple[RuleSet, _Plan]] = {}


def _plan(rs: RuleSet) -> _Plan:
    cached = _PLANS.get(id(rs))
    if cached is not None and cached[0] is rs:
        return cached[1]
    steps = []
    last = []
    flower = None
    for i, fan in enumerate(rs.fans):
        if fan.id == rs.flower_fan:
            flower = fan
        elif fan.when_nothing_else:
            last.append(fan)
        else:
            steps.append(_Step(fan, i, CHECKS[fan.check].scope == "hand", frozenset(fan.excludes)))
    plan = _Plan(
        steps=tuple(steps), last=tuple(last), shapes=frozenset(rs.shapes),
        finals=frozenset(s for s, d in rs.shapes.items() if d.final),
        policy=POLICIES[rs.combination_policy] if rs.combination_policy else None,
        tie_fans=frozenset(rs.tie_break_fans), flower=flower,
    )
    _PLANS[id(rs)] = (rs, plan)
    return plan


def _evaluate(view: View, ctx: WinContext, plan: _Plan, shape: ShapeDef,
              hand_cache: dict[int, int], win_rank: int,
              fan_by_id: dict[str, FanDef]) -> list[tuple[FanDef, int]]:
    only = shape.only_fans
    excluded: set[str] = set()
    counted: list[tuple[FanDef, int]] = []
    for step in plan.steps:
        fan = step.fan
        fid = fan.id
        if fid in excluded or (only is not None and fid not in only):
            continue
        if fan.shapes is not None and view.shape not in fan.shapes:
            continue
        if step.hand_scope:
            n = hand_cache.get(step.index)
            if n is None:
                n = hand_cache[step.index] = fan.bound(view, ctx)  # type: ignore[misc]
        else:
            n = fan.bound(view, ctx)  # type: ignore[misc]
        if n:
            counted.append((fan, n))
            if step.excludes:
                excluded |= step.excludes
    for fid in shape.extras_by_win_rank.get(win_rank, ()):
        counted.append((fan_by_id[fid], 1))
    if not any(f.counts_toward_minimum for f, _ in counted):
        for fan in plan.last:
            if (only is None or fan.id in only) and (fan.shapes is None
                                                      or view.shape in fan.shapes):
                counted.append((fan, 1))
                break
    return counted


def score(hand: Hand, ctx: WinContext, rs: RuleSet) -> ScoreResult:
    plan = _plan(rs)
    readings = decompose(hand, plan.shapes, rs.tileset)
    if plan.finals and any(r.shape in plan.finals for r in readings):
        readings = [r for r in readings if r.shape in plan.finals]
    flowers: list[tuple[FanDef, int]] = []
    facts = HandFacts(hand, ctx, rs.tileset, plan.shapes)
    if not readings:
        return ScoreResult(
            ruleset=rs.id, winning=False,
            reason=Reason(NO_WINNING_SHAPE,
                          "the tiles do not form a winning hand in any shape this rule set "
                          "accepts"),
            fans=(), fan_total=0, decomposition=None, payments=None,
        )
    fan_by_id = dict(rs.fan_by_id)
    win_rank = rs.tileset.kinds[hand.win_tile].rank
    hand_cache: dict[int, int] = {}
    best: tuple[tuple[int, int, int, int], Reading, list[tuple[FanDef, int]]] | None = None
    for idx, reading in enumerate(readings):
        view = View(reading, facts, plan.policy)
        counted = _evaluate(view, ctx, plan, rs.shapes[reading.shape], hand_cache, win_rank,
                            fan_by_id)
        total = sum(f.value * n for f, n in counted)
        tie = 1 if any(f.id in plan.tie_fans for f, _ in counted) else 0
        key = (total, tie, -rs.shapes[reading.shape].priority, -idx)
        if best is None or key > best[0]:
            best = (key, reading, counted)
    assert best is not None
    _, reading, counted = best
    if plan.flower is not None:
        n = plan.flower.bound(View(reading, facts, None), ctx)  # type: ignore[misc]
        if n:
            flowers.append((plan.flower, n))
    fans = counted + flowers
    fan_total = sum(f.value * n for f, n in fans)
    toward_min = sum(f.value * n for f, n in fans if f.counts_toward_minimum)
    fan_results = tuple(FanResult(f.id, f.name, f.name_en, f.value, n) for f, n in fans)
    decomposition = describe(reading, hand, rs.tileset)
    if toward_min < rs.min_fan:
        return ScoreResult(
            ruleset=rs.id, winning=False,
            reason=Reason(BELOW_MINIMUM,
                          f"the hand scores {toward_min} fan not counting flowers; "
                          f"{rs.name} needs at least {rs.min_fan} to win"),
            fans=fan_results, fan_total=fan_total, decomposition=decomposition, payments=None,
        )
    payments = pay(rs.payment.scheme, dict(rs.payment.params), fan_total, ctx, rs.players)
    return ScoreResult(ruleset=rs.id, winning=True, reason=None, fans=fan_results,
                       fan_total=fan_total, decomposition=decomposition, payments=payments)


def _group_tiles(g: Group) -> list[int]:
    if g.kind == CHOW:
        return [g.tile, g.tile + 1, g.tile + 2]
    if g.kind == PUNG:
        return [g.tile] * 3
    if g.kind == KONG:
        return [g.tile] * 4
    if g.kind == PAIR:
        return [g.tile] * 2
    if g.kind == KNIT:
        return [g.tile, g.tile + 3, g.tile + 6]
    raise ValueError(g.kind)


def describe(reading: Reading, hand: Hand, tileset: TileSet) -> DecompositionView:
    """The chosen reading in compact notation; declared melds in brackets as on input
    (`[123p]`, `{5555s}` for a concealed kong)."""
    if not reading.groups:
        return DecompositionView(reading.shape, (format_tiles(sorted(hand.concealed), tileset),))
    rank = tileset.display_rank
    groups = sorted(reading.groups, key=lambda g: (rank[g.tile], g.kind != PAIR))
    out = []
    for g in groups:
        text = format_tiles(_group_tiles(g), tileset)
        if g.declared:
            text = "{" + text + "}" if g.concealed and g.kind == KONG else "[" + text + "]"
        out.append(text)
    return DecompositionView(reading.shape, tuple(out))
