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
Cases of the `mcr` rule set are also checked against the reference calculator: it must find
the same completing tiles, and the same totals unless a context flag depends on the tile
(抢杠和, 和绝张).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from app.api.hand_requests import build_waiting
from app.domain.hand import Hand
from app.rules.loader import load_rulesets
from app.scoring.waits import waits
from tests.cases.test_cases import _fan_key
from tests.mcr_reference.generator import call_oracle, oracle_args

ROOT = Path(__file__).resolve().parents[2]
CASES = Path(__file__).resolve().parent
RULESETS = load_rulesets(ROOT / "rulesets")
EXPECT_KEYS = {"waits", "not_winning", "fans", "best"}


def _collect() -> list[Any]:
    params = []
    for path in sorted(CASES.glob("*/waits/*.yaml")):
        ruleset = path.parent.parent.name
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for i, case in enumerate(data["cases"]):
            params.append(pytest.param(ruleset, case, id=f"{ruleset}/waits/{path.stem}/{i}"))
    return params


ALL_CASES = _collect()


def test_there_are_waits_cases() -> None:
    assert len(ALL_CASES) >= 5


@pytest.mark.parametrize(("ruleset", "case"), ALL_CASES)
def test_waits_case(ruleset: str, case: dict[str, Any]) -> None:
    rs = RULESETS[ruleset]
    exp = case["expect"]
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
