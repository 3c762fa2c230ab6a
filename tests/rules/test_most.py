"""The `most` promise of checks (see app.rules.checks): no reading of a hand counts a fan more
times than its check's `most` says of the hand; and the comparison of readings that stops at
the ceiling it makes (`app.scoring.ceiling`) chooses what the whole comparison chooses.

Hands are random complete hands of the served rule sets whose checks make the promise, a few
of their tiles replaced by wild tiles where the rule set has them; every reading of each is
read through a traced scoring (a trace lists the readings after the comparison ended too).
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from app.domain.hand import CHOW, PUNG, Hand, WinContext
from app.domain.readings import PAIR
from app.domain.wildcards import group_tiles
from app.rules.checks import CHECKS, bound_params, check
from app.rules.model import RuleSet
from app.rules.view import held
from app.scoring.evaluate import Trace, score
from tests.loaded import repo_rulesets

RULESETS = {rid: rs for rid, rs in repo_rulesets().items()
            if isinstance(rs, RuleSet) and rs.plan.ceilings}
PROMISING = sorted({(rs.id, f.id) for rs in RULESETS.values() for f in rs.fans
                    if CHECKS[f.check].most is not None})


def test_some_rule_sets_stop_at_a_ceiling() -> None:
    # 天津's fans all say their most; MCR's do not (its readings are few).
    assert "tianjin" in RULESETS and "mcr" not in RULESETS
    assert {fan for rid, fan in PROMISING if rid == "tianjin"} >= {
        "long", "ben_hun_long", "zhuo_wu", "hun_diao"}


def _hand(rs: RuleSet, rng: random.Random) -> tuple[Hand, WinContext]:
    """A random complete hand of four sets and a pair, with up to seven wild tiles where the
    rule set has them, self-drawn."""
    ts = rs.tileset
    while True:
        tiles: list[int] = []
        # One hand in three holds 1 to 9 of a suit (龙), and then often wilds of that suit.
        suit = rng.choice(ts.suits) if rng.random() < 0.35 else None
        if suit is not None:
            start = ts.suit_starts[suit]
            tiles += [*range(start, start + 9)]
        for _ in range(4 - len(tiles) // 3):
            if rng.random() < 0.6:
                start = rng.choice(sorted(ts.chow_starts))
                tiles += group_tiles(CHOW, start)
            else:
                tiles += group_tiles(PUNG, rng.choice(ts.playing))
        tiles += group_tiles(PAIR, rng.choice(ts.playing))
        if any(tiles.count(t) > 4 for t in tiles):
            continue
        win = rng.choice(tiles)
        if rs.wild is None:
            return (Hand(tuple(sorted(tiles)), (), win),
                    WinContext(win_type="self_draw", options=rs.option_defaults))
        indicator = rng.choice(ts.playing)
        if suit is not None and rng.random() < 0.5:
            indicator = ts.suit_starts[suit] + rng.randrange(9)
        wilds = tuple(sorted({indicator, ts.next_kinds[indicator]}))
        held = list(tiles)
        for i in rng.sample(range(14), rng.randint(0, 7)):
            held[i] = rng.choice(wilds)
        if any(held.count(t) + (t == indicator) > 4 for t in held):
            continue
        win = held[rng.randrange(14)]
        return (Hand(tuple(sorted(held)), (), win),
                WinContext(win_type="self_draw", wild_indicator=indicator, wilds=wilds,
                           options=rs.option_defaults))


@pytest.mark.parametrize(("ruleset", "fan"), PROMISING)
def test_no_reading_counts_a_fan_more_than_its_most(ruleset: str, fan: str) -> None:
    rs = RULESETS[ruleset]
    f = rs.fan_by_id[fan]
    spec = CHECKS[f.check]
    assert spec.most is not None
    params = bound_params(f.bound)  # type: ignore[arg-type]
    rng = random.Random(f"{ruleset}/{fan}")
    reached = 0
    for _ in range(150):
        hand, ctx = _hand(rs, rng)
        trace = Trace()
        score(hand, ctx, rs, trace)
        if not trace.readings:
            continue
        most = spec.most(held(hand, ctx.wilds, rs.tileset), ctx, **params)
        counts = [spec.func(view, ctx, **params) for view, _, _ in trace.readings]
        assert max(counts) <= most, (fan, hand, ctx, counts, most)
        reached += max(counts) == most > 0
    # The test can fail: the fan counts in some hands, at its most.
    assert reached > 0, fan


def _without_ceiling(rs: RuleSet) -> RuleSet:
    """The rule set with every reading compared (its plan's ceilings switched off)."""
    copy = dataclasses.replace(rs)
    vars(copy)["plan"] = dataclasses.replace(rs.plan, ceilings=False)
    return copy


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_the_ceiling_stops_the_comparison_and_chooses_the_same(ruleset: str) -> None:
    rs = RULESETS[ruleset]
    every = _without_ceiling(rs)
    rng = random.Random(ruleset)
    stopped = 0
    for _ in range(150):
        hand, ctx = _hand(rs, rng)
        for options in ({}, *({"table": "tjmj"},) * ("table" in rs.option_defaults)):
            c = ctx._replace(options={**rs.option_defaults, **options})
            trace, whole = Trace(), Trace()
            assert score(hand, c, rs, trace) == score(hand, c, every, whole)
            assert whole.compared == len(whole.readings)
            assert [(v.reading, t, m) for v, t, m in trace.readings] == [
                (v.reading, t, m) for v, t, m in whole.readings]
            stopped += trace.compared < len(trace.readings)
            assert score(hand, c, rs) == score(hand, c, every)
    # With wild tiles a hand reads many ways, and most comparisons end early.
    assert stopped > 10 or rs.wild is None


def test_most_is_refused_where_it_cannot_hold() -> None:
    def hand_fan(v: object, ctx: object) -> int:
        """测试: a hand check."""
        return 1

    def most(facts: object, ctx: object, *, other: int = 1) -> int:
        return 1

    def reading_fan(v: object, ctx: object, *, tiles: int = 0) -> int:
        """测试: a reading check."""
        return 1

    with pytest.raises(RuntimeError, match="most is for reading checks"):
        check("test_most_hand", scope="hand", most=lambda facts, ctx: 1)(hand_fan)
    with pytest.raises(RuntimeError, match="other parameters"):
        check("test_most_params", most=most)(reading_fan)
    assert "test_most_hand" not in CHECKS and "test_most_params" not in CHECKS
