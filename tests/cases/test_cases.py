"""Hand cases as data: every `tests/cases/<ruleset>/*.yaml` file, one test per case.

A case file holds `cases:`, a list of
    name: what the case shows
    hand: a hand string or a hand object, exactly as in a score request
    context: the request's context
    expect:
      winning: true | false
      reason: the reason code when not winning
      shape: the decomposition shape
      fans: {fan id or Chinese name: count, ...}
      fan_total: n
      value: what the hand is worth under its payment scheme (null when not winning)
      net: [money per seat]
      error: a 422 code, for a request that is not a real hand (nothing else is checked;
        for a card game, the code of the whole request path: invalid_request for a field
        its schema refuses)
      not_counted: {fan id or Chinese name: what left it out, ...}: the fans the explanation
        (`?explain=true`) lists as had but not counted, exactly, each with the counted fan
        that excludes it (its id or Chinese name) or the rule (`shape`, `option`,
        `account_once`, `needs_other_fan`)
`fans` lists the whole fan list unless a count is 0, which asserts only that the fan is
absent (then the other fans are not checked, so a case can pin down one point). Cases of the
`mcr` rule set are also scored by the reference calculator, which must agree.

A card game scored by groups (a rule set with a deck) has its own figures; its cases may pin
    huxi: the points (胡息) of the chosen arrangement
    tun: the units (囤), score: units × multiplier (the `value`), multiplier: the product
      of the counted patterns (名堂), listed in `fans` ({pattern id or name: count}, `{}`:
      none)
    red_cards (each figure the rule set counts, by its name)
    groups: ["kind cards", ...], the chosen arrangement as a multiset (table groups as
      finished, hand groups by kind)
    not_counted: {pattern: option}, the patterns an option leaves out
besides winning, reason, net and error.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.domain.errors import HandError
from app.rules.cards.model import CardRuleSet
from app.rules.model import AnyRuleSet
from app.scoring import arranged
from app.scoring.evaluate import score
from app.scoring.explain import RULES, explained
from app.service.cards.requests import build_card_hand, read_card_score_request
from app.service.problems import ApiError
from app.service.tiles.requests import build
from tests.cases import CASES, CASES_MATCH_RULESETS, case_rulesets, collect
from tests.mcr_reference.generator import call_oracle, oracle_args

ROOT = Path(__file__).resolve().parents[2]
RULESETS = case_rulesets()
EXPECT_KEYS = {"winning", "reason", "shape", "fans", "fan_total", "value", "net", "error",
               "not_counted"}
CARD_EXPECT_KEYS = {"winning", "reason", "huxi", "tun", "fans", "multiplier", "score", "value",
                    "fan_total", "net", "groups", "error", "not_counted"}




ALL_CASES = collect()


def test_every_rule_set_directory_is_a_rule_set() -> None:
    for d in CASES.iterdir() if CASES_MATCH_RULESETS else ():
        if d.is_dir() and not d.name.startswith(("_", ".")):
            assert d.name in RULESETS, f"tests/cases/{d.name}: no rule set of that id"
    assert ALL_CASES, "no hand cases found"


def _fan_key(rs: AnyRuleSet, name: str) -> str:
    # What a result lists as `fans`: a tile game's fans, a card game's 名堂 (patterns).
    counted = rs.patterns if isinstance(rs, CardRuleSet) else rs.fans
    if any(f.id == name for f in counted):
        return name
    for f in counted:
        if f.name == name:
            return f.id
    raise AssertionError(f"case names unknown fan {name!r} of rule set {rs.id}")


@pytest.mark.parametrize(("ruleset", "case"), ALL_CASES)
def test_case(ruleset: str, case: dict[str, Any]) -> None:
    rs = RULESETS[ruleset]
    if isinstance(rs, CardRuleSet):
        _card_case(rs, case)
        return
    unknown = set(case["expect"]) - EXPECT_KEYS
    assert not unknown, f"{case['name']}: unknown expect keys {unknown}"
    if "error" in case["expect"]:
        with pytest.raises(HandError) as info:
            build(case["hand"], case["context"], rs)
        assert info.value.code == case["expect"]["error"], info.value.message
        return
    hand, ctx = build(case["hand"], case["context"], rs)
    result = score(hand, ctx, rs)
    got = {f.id: f.count for f in result.fans}
    exp = case["expect"]
    label = f"{case['name']}: got {got}"
    if "winning" in exp:
        assert result.winning is exp["winning"], label
    if "reason" in exp:
        assert result.reason is not None and result.reason.code == exp["reason"], label
    if "shape" in exp:
        assert result.decomposition is not None, label
        assert result.decomposition.shape == exp["shape"], label
    if "fans" in exp:
        want = {_fan_key(rs, k): v for k, v in exp["fans"].items()}
        if all(v > 0 for v in want.values()):
            assert got == want, label
        for fid, count in want.items():
            assert got.get(fid, 0) == count, f"{label}: {fid} should count {count}"
    if "fan_total" in exp:
        assert result.fan_total == exp["fan_total"], label
    if "value" in exp:
        assert result.value == exp["value"], f"{label}: value {result.value}"
    if "net" in exp:
        assert result.payments is not None, label
        assert list(result.payments.net) == exp["net"], label
    if result.payments is not None:
        assert sum(result.payments.net) == 0
    if "not_counted" in exp:
        explained_result, why = explained(hand, ctx, rs)
        assert explained_result == result
        listed = {n.id: (n.by if n.rule == "fan" else n.rule) for n in why.not_counted}
        want_left = {_fan_key(rs, k): (_fan_key(rs, v) if v not in RULES else v)
                     for k, v in exp["not_counted"].items()}
        assert listed == want_left, f"{case['name']}: not counted {listed}"
    if ruleset == "mcr" and result.decomposition is not None:
        ref = call_oracle(oracle_args(hand, ctx))
        ours = sorted((f.name, f.value, f.count) for f in result.fans)
        assert ours == sorted(ref.fans), f"{case['name']}: the reference says {ref.fans}"


def _card_case(rs: CardRuleSet, case: dict[str, Any]) -> None:
    exp = case["expect"]
    unknown = set(exp) - CARD_EXPECT_KEYS - set(rs.figures)
    assert not unknown, f"{case['name']}: unknown expect keys {unknown}"
    if "error" in exp:
        # The whole path of a request: a field the schema refuses is invalid_request.
        with pytest.raises((HandError, ApiError)) as info:
            read_card_score_request({"hand": case["hand"], "context": case["context"]}, rs)
        assert info.value.code == exp["error"], info.value
        return
    hand, ctx = build_card_hand(case["hand"], case["context"], rs)
    result = arranged.score(hand, ctx, rs)
    got = {f.id: f.count for f in result.fans}
    label = f"{case['name']}: got {result}"
    figures = dict(result.figures)
    plain = {"winning": result.winning, "huxi": result.points, "tun": result.units,
             "multiplier": result.multiplier, "score": result.score, "value": result.value,
             "fan_total": result.fan_total, **figures}
    for key, value in plain.items():
        if key in exp:
            assert value == exp[key], f"{label}: {key} {value}, expected {exp[key]}"
    if "reason" in exp:
        assert result.reason is not None and result.reason.code == exp["reason"], label
    if "fans" in exp:
        assert got == {_fan_key(rs, k): v for k, v in exp["fans"].items()}, label
    if "groups" in exp:
        assert result.groups is not None, label
        assert sorted(f"{g.kind} {g.cards}" for g in result.groups) == sorted(exp["groups"]), \
            label
    if "net" in exp:
        assert result.payments is not None and list(result.payments.net) == exp["net"], label
    if result.payments is not None:
        assert sum(result.payments.net) == 0
    explained_result, why = arranged.explained(hand, ctx, rs)
    assert explained_result == result
    if "not_counted" in exp:
        listed = {n.id: n.by for n in why.not_counted}
        assert listed == {_fan_key(rs, k): v for k, v in exp["not_counted"].items()}, listed
