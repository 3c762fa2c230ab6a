"""Explanations (`app.scoring.explain`) hold on random hands, against the rule sets' data.

On `EXPLAIN_MCR_HANDS` random legal MCR hands (default 4,000) and `EXPLAIN_TIANJIN_HANDS`
tianjin hands holding wild tiles (default 1,000), each hand is scored with and without an
explanation, and:

- the result is the same either way (every counted fan unchanged);
- each fan listed as not counted is found by its own check on the chosen reading (chow
  combinations counted without the policy's limits) that many times more than it counts,
  and the rule named is true of the rule set's YAML: `fan` names a counted fan whose
  `excludes` lists it, and no counted fan before it in evaluation order does; `shape` names
  the reading's shape, which does not score it; `account_once` is a chow combination the
  policy counted fewer times than the chows form;
- no fan the reading had is missing from the list;
- the readings listed start with the chosen one, whose fans and total are the result's, and
  no other reading listed scores more where the rule set picks by total.

    EXPLAIN_MCR_HANDS=500 EXPLAIN_TIANJIN_HANDS=100 ./run test tests/scoring/test_explain.py -s
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

from app.domain.hand import Hand, WinContext
from app.rules.load_files import load_yaml
from app.rules.model import RuleSet
from app.rules.policies import UNLIMITED
from app.rules.view import View
from app.scoring.describe import describe
from app.scoring.evaluate import Trace, score
from app.scoring.explain import (
    ACCOUNT_ONCE,
    BY_FAN,
    BY_OPTION,
    BY_SHAPE,
    NEEDS_OTHER_FAN,
    chosen_reading,
    explained,
)
from app.scoring.result import Explanation, ScoreResult
from app.service.tiles.requests import build
from tests.loaded import repo_rulesets
from tests.mcr_reference.generator import random_hands
from tests.scoring.test_wild_brute_force import random_cases

MCR_HANDS = int(os.environ.get("EXPLAIN_MCR_HANDS", "4000"))
TIANJIN_HANDS = int(os.environ.get("EXPLAIN_TIANJIN_HANDS", "1000"))
SEED = int(os.environ.get("EXPLAIN_SEED", "20261201"))
ROOT = Path(__file__).resolve().parents[2]
# The tile games: word cards are explained by another engine (tests/scoring/test_card_explain.py).
RULESETS = {rid: rs for rid, rs in repo_rulesets().items()
            if isinstance(rs, RuleSet)}
CASES = ROOT / "tests" / "cases"


def _option_off(rs: RuleSet, fan_id: str, ctx: WinContext) -> bool:
    fan = rs.fan_by_id[fan_id]
    defaults = {o.name: o.default for o in rs.options}
    options = {**defaults, **ctx.options}
    return any(not c.holds(options) for c in fan.when)


def verify(rs: RuleSet, hand: Hand, ctx: WinContext, seen: Counter[str]) -> None:
    """Every claim of the hand's explanation, checked against the rule set (see above)."""
    plain = score(hand, ctx, rs)
    result, why = explained(hand, ctx, rs)
    assert result == plain
    if plain.decomposition is None:
        assert why == Explanation((), (), 0)
        return
    trace = Trace()
    score(hand, ctx, rs, trace)
    assert trace.best is not None
    view, _ = trace.best
    policy = rs.combination_policy
    unlimited = View(view.reading, view.facts, UNLIMITED[policy]) if policy else view
    counted = {f.id: f.count for f in result.fans}
    order = [f.id for f in rs.fans]
    listed = {n.id: n for n in why.not_counted}
    assert len(listed) == len(why.not_counted)
    for fan in rs.fans:
        if fan.id == rs.flower_fan or fan.when_nothing_else:
            assert fan.id not in listed
            continue
        assert fan.bound is not None
        found = fan.bound(unlimited, ctx)
        missing = found - counted.get(fan.id, 0)
        if missing <= 0:
            assert fan.id not in listed, (fan.id, found, counted)
            continue
        # Found more than counted: listed, with its rule, which the YAML bears out.
        n = listed.get(fan.id)
        assert n is not None, (fan.id, found, counted)
        assert n.count == missing
        seen[n.rule] += 1
        shape = rs.shapes[view.shape]
        # Found by its check in this shape (a fixed extra is counted once, whatever is found).
        in_shape = ((shape.only_fans is None or fan.id in shape.only_fans)
                    and (fan.shapes is None or view.shape in fan.shapes))
        if n.rule == BY_OPTION:
            assert _option_off(rs, fan.id, ctx)
        elif n.rule == BY_SHAPE:
            assert n.by == view.shape and not in_shape
        elif n.rule == BY_FAN:
            assert in_shape and not _option_off(rs, fan.id, ctx)
            assert n.by in counted and fan.id in rs.fan_by_id[n.by].excludes
            before = [f for f in order[:order.index(n.by)] if f in counted]
            assert not [f for f in before if fan.id in rs.fan_by_id[f].excludes]
        elif n.rule == ACCOUNT_ONCE:
            assert n.by == policy and fan.bound(view, ctx) == counted.get(fan.id, 0)
            assert not any(fan.id in rs.fan_by_id[f].excludes for f in counted)
        else:
            assert n.rule == NEEDS_OTHER_FAN and fan.needs_other_fan
            assert all(rs.fan_by_id[f].needs_other_fan for f in counted)
    # The readings: the chosen one first, as the result scored it.
    chosen = why.readings[0]
    assert chosen.chosen and not any(r.chosen for r in why.readings[1:])
    assert chosen.fan_total == result.fan_total
    assert dict(chosen.fans) == {f.id: f.count for f in result.fans if f.id != rs.flower_fan}
    assert chosen.decomposition == result.decomposition
    assert why.readings_compared >= len(why.readings)
    if not rs.payment_scheme.by_fans:
        assert all(r.fan_total <= chosen.fan_total for r in why.readings
                   if r.meets_requirements == chosen.meets_requirements)
    if result.decomposition.wilds:
        assert all(r.decomposition.wilds for r in why.readings)
    seen["hands"] += 1


def test_explanations_of_random_mcr_hands() -> None:
    rs = RULESETS["mcr"]
    seen: Counter[str] = Counter()
    for case in random_hands(MCR_HANDS, SEED):
        verify(rs, case.hand, case.ctx, seen)
    print(f"\nmcr explanations: {dict(seen)}")
    assert seen["hands"] == MCR_HANDS
    # Each kind of rule the MCR table has is met on random hands.
    assert seen[BY_FAN] and seen[BY_SHAPE] and seen[ACCOUNT_ONCE]


def test_explanations_of_random_tianjin_hands_with_wilds() -> None:
    rs = RULESETS["tianjin"]
    seen: Counter[str] = Counter()
    wild_readings = tried = 0
    # Until TIANJIN_HANDS hands with a winning shape are explained (about 7 in 10 have one;
    # those without are checked too: their explanation is empty).
    for case in random_cases(TIANJIN_HANDS * 3, SEED, tianjin=True):
        hand, ctx = build(*case.request(), rs)
        verify(rs, hand, ctx, seen)
        tried += 1
        result: ScoreResult = score(hand, ctx, rs)
        wild_readings += bool(result.decomposition and result.decomposition.wilds)
        if seen["hands"] == TIANJIN_HANDS:
            break
    print(f"\ntianjin explanations: {dict(seen)} of {tried} hands, {wild_readings} read with "
          "wilds")
    assert seen["hands"] == TIANJIN_HANDS
    assert wild_readings == TIANJIN_HANDS  # every hand holds a wild: each reading shows it
    assert seen[BY_FAN]


def test_an_option_and_a_lonely_fan_are_named() -> None:
    chengdu, kawuxing = RULESETS["chengdu"], RULESETS["kawuxing"]
    # 带幺 switched off by its option.
    hand, ctx = build("123m123m789m99m111s",
                      {"win_type": "discard", "discarder": 1,
                       "options": {"outside_hand": False}}, chengdu)
    _, why = explained(hand, ctx, chengdu)
    assert [(n.id, n.rule, n.by) for n in why.not_counted if n.rule == BY_OPTION] == [
        ("outside_hand", BY_OPTION, "outside_hand")]
    seen: Counter[str] = Counter()
    verify(chengdu, hand, ctx, seen)
    assert seen[BY_OPTION] == 1
    # 卡五星 with last_tile_plain off: 海底 alone on a bare 屁胡 does not count.
    hand, ctx = build("123p456p789p123s55s",
                      {"win_type": "self_draw", "last_tile": True,
                       "options": {"last_tile_plain": False}}, kawuxing)
    _, why = explained(hand, ctx, kawuxing)
    assert NEEDS_OTHER_FAN in {n.rule for n in why.not_counted}
    verify(kawuxing, hand, ctx, seen)
    assert seen[NEEDS_OTHER_FAN] >= 1


def test_explanations_of_every_case_of_every_rule_set() -> None:
    """Every hand case of every rule set (tests/cases/): stand-in tiles (长春 摸宝), payment
    schemes pricing fans, rule sets without fans, 2 and 3 players."""
    seen: Counter[str] = Counter()
    by_ruleset: Counter[str] = Counter()
    for path in sorted(CASES.glob("*/*.yaml")):
        if path.parent.name not in RULESETS:
            continue  # a word-card game: its case runner checks its explanations
        rs = RULESETS[path.parent.name]
        for case in load_yaml(path.read_text(encoding="utf-8"))["cases"]:
            if "error" in case["expect"]:
                continue
            hand, ctx = build(case["hand"], case["context"], rs)
            verify(rs, hand, ctx, seen)
            by_ruleset[rs.id] += 1
    assert set(by_ruleset) == set(RULESETS), set(RULESETS) - set(by_ruleset)


def test_the_chosen_reading_is_the_one_the_answer_describes() -> None:
    """`chosen_reading` (what a picture lays a wild hand out by) is the reading the score
    describes: its groups written out are the decomposition's, and it places the winning
    tile. EES345m789p678s3m3m (E, S wild): 123m of E E and the winning 3m (混儿吊), 33m of S
    and a 3m."""
    rs = RULESETS["tianjin"]
    hand, ctx = build("EES345m789p678s3m3m", {"win_type": "self_draw", "wild_indicator": "E"},
                      rs)
    reading = chosen_reading(hand, ctx, rs)
    assert reading is not None
    ts = rs.tileset
    win_group = reading.groups[reading.win]
    assert (win_group.kind, ts.code(win_group.tile), ts.code(reading.win_as)) == (
        "chow", "1m", "3m")
    assert [ts.code(t) for t in win_group.subs] == ["1m", "2m"]
    checked = 0
    for case in random_cases(300, SEED, tianjin=True):
        hand, ctx = build(*case.request(), rs)
        result = score(hand, ctx, rs)
        reading = chosen_reading(hand, ctx, rs)
        if result.decomposition is None:
            assert reading is None
            continue
        assert reading is not None
        assert describe(reading, hand, ts, frozenset(ctx.wilds)) == result.decomposition
        checked += 1
    assert checked > 100
