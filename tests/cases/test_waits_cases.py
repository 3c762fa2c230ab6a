"""Waits cases as data: every `tests/cases/<ruleset>/waits/*.yaml` file, one test per case.

A case file holds `cases:`, a list of
    name: what the case shows
    hand: a hand one tile short, exactly as in a waits request
    context: the request's context
    expect:
      waits: {tile: fan total, ...}  every completing tile, in the order the answer lists them
      not_winning: [tile, ...]       completing tiles that are no legal win (default none)
      fans: {tile: {fan id or Chinese name: count, ...}}  the whole fan list of some tiles
      best: tile or null
For a card game scored by groups the keys are "card win_type" (`"3d self_draw"`) and the
values the score (胡息 × … as the rule set prices it; null for a finish below its minimum).
Cases of the `mcr` rule set are also checked against the reference calculator: it must find
the same completing tiles, and the same totals unless a context flag depends on the tile
(抢杠和, 和绝张).
"""

from __future__ import annotations

from typing import Any

import pytest

from app.domain.card_hand import CardHand
from app.domain.hand import Hand
from app.rules.cards.model import CardRuleSet
from app.scoring import arranged
from app.scoring.waits import waits
from app.service.cards.requests import build_card_waiting
from app.service.tiles.requests import build_waiting
from tests.cases import PROJECT_RULESETS, case_rulesets, collect
from tests.cases.test_cases import _fan_key
from tests.mcr_reference.generator import call_oracle, oracle_args

RULESETS = case_rulesets()
EXPECT_KEYS = {"waits", "not_winning", "fans", "best"}




ALL_CASES = collect("waits")


def test_there_are_waits_cases() -> None:
    assert len(ALL_CASES) >= 5 or not PROJECT_RULESETS


@pytest.mark.parametrize(("ruleset", "case"), ALL_CASES)
def test_waits_case(ruleset: str, case: dict[str, Any]) -> None:
    rs = RULESETS[ruleset]
    exp = case["expect"]
    if isinstance(rs, CardRuleSet):
        _card_waits_case(rs, case)
        return
    assert set(exp) <= EXPECT_KEYS, f"{case['name']}: unknown expect keys {set(exp) - EXPECT_KEYS}"
    standing, melds, ctx = build_waiting(case["hand"], case["context"], rs)
    result = waits(standing, melds, ctx, rs)
    got = {w.tile: w.fan_total for w in result.waits}
    label = f"{case['name']}: got {got}"
    assert list(got.items()) == list(exp["waits"].items()), label
    assert result.ready == bool(exp["waits"]), label
    assert [w.tile for w in result.waits if not w.winning] == exp.get("not_winning", []), label
    by_tile = {w.tile: w for w in result.waits}
    for tile, fans in (exp.get("fans") or {}).items():
        want = {_fan_key(rs, k): v for k, v in fans.items()}
        assert {f.id: f.count for f in by_tile[tile].fans} == want, f"{case['name']}: {tile}"
    if "best" in exp:
        assert (result.best.tile if result.best else None) == exp["best"], label

    if ruleset == "mcr":
        # The reference takes 抢杠和 and 和绝张 as given; our engine drops them where they
        # cannot hold. Compare the completing tiles always, the totals without such flags.
        flags = ctx.kong == "robbed" or ctx.last_of_kind
        neutral = ctx._replace(kong=None if ctx.kong == "robbed" else ctx.kong,
                          last_of_kind=False)
        theirs: dict[str, int] = {}
        for t in rs.tileset.playing:
            if standing.count(t) + sum(m.tiles.count(t) for m in melds) >= 4:
                continue
            try:
                ref = call_oracle(oracle_args(Hand((*standing, t), melds, t), neutral))
            except TypeError:  # ERROR_NOT_WIN
                continue
            theirs[rs.tileset.code(t)] = ref.total
        assert set(theirs) == set(got), f"{case['name']}: the reference finds {theirs}"
        if not flags:
            assert theirs == got, f"{case['name']}: the reference says {theirs}"


def _card_waits_case(rs: CardRuleSet, case: dict[str, Any]) -> None:
    exp = case["expect"]
    assert set(exp) <= {"waits", "not_winning", "best"}, case["name"]
    cards, table, ctx = build_card_waiting(case["hand"], case["context"], rs)
    result = arranged.waits(cards, table, ctx, rs)
    got = {f"{w.card} {w.win_type}": w.result.score for w in result.waits}
    label = f"{case['name']}: got {got}"
    assert list(got.items()) == list(exp["waits"].items()), label
    assert result.ready == bool(exp["waits"]), label
    assert [f"{w.card} {w.win_type}" for w in result.waits if not w.result.winning] == \
        exp.get("not_winning", []), label
    if "best" in exp:
        best = result.best
        assert (f"{best.card} {best.win_type}" if best else None) == exp["best"], label
    for w in result.waits:  # each wait is the score of the finished hand
        hand = CardHand((*cards, rs.deck.by_code[w.card]), table,
                                 rs.deck.by_code[w.card])
        payer = None if rs.win_types[w.win_type].payer_field is None else (
            ctx.payer if ctx.payer is not None else (ctx.winner + 1) % ctx.players)
        assert arranged.score(hand, ctx._replace(win_type=w.win_type, payer=payer), rs) == \
            w.result, label
