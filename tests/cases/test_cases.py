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
      error: a 422 code, for a request that is not a real hand (nothing else is checked)
      not_counted: {fan id or Chinese name: what left it out, ...}: the fans the explanation
        (`?explain=true`) lists as had but not counted, exactly, each with the counted fan
        that excludes it (its id or Chinese name) or the rule (`shape`, `option`,
        `account_once`, `needs_other_fan`)
`fans` lists the whole fan list unless a count is 0, which asserts only that the fan is
absent (then the other fans are not checked, so a case can pin down one point). Cases of the
`mcr` rule set are also scored by the reference calculator, which must agree.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from app.api.hand_requests import build
from app.domain.errors import HandError
from app.rules.loader import load_rulesets
from app.rules.model import RuleSet
from app.scoring.evaluate import score
from app.scoring.explain import RULES, explained
from tests.mcr_reference.generator import call_oracle, oracle_args

ROOT = Path(__file__).resolve().parents[2]
CASES = Path(__file__).resolve().parent
RULESETS = load_rulesets(ROOT / "rulesets")
EXPECT_KEYS = {"winning", "reason", "shape", "fans", "fan_total", "value", "net", "error",
               "not_counted"}


def _collect() -> list[Any]:
    params = []
    for path in sorted(CASES.glob("*/*.yaml")):
        ruleset = path.parent.name
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for i, case in enumerate(data["cases"]):
            params.append(pytest.param(ruleset, case, id=f"{ruleset}/{path.stem}/{i}"))
    return params


ALL_CASES = _collect()


def test_every_rule_set_directory_is_a_rule_set() -> None:
    for d in CASES.iterdir():
        if d.is_dir() and not d.name.startswith(("_", ".")):
            assert d.name in RULESETS, f"tests/cases/{d.name}: no rule set of that id"
    assert ALL_CASES, "no hand cases found"


def _fan_key(rs: RuleSet, name: str) -> str:
    if name in rs.fan_by_id:
        return name
    for f in rs.fans:
        if f.name == name:
            return f.id
    raise AssertionError(f"case names unknown fan {name!r} of rule set {rs.id}")


@pytest.mark.parametrize(("ruleset", "case"), ALL_CASES)
def test_case(ruleset: str, case: dict[str, Any]) -> None:
    rs = RULESETS[ruleset]
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
