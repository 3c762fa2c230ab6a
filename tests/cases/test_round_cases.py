"""Round cases as data: every `tests/cases/<ruleset>/rounds/*.yaml` file, one test per case,
each sent as `POST /v1/rulesets/<ruleset>/settle` to the real app (Flask's test client).

A case file holds `cases:`, a list of
    name: what the case shows
    options, dealer, wild_indicator, wilds, events: the settle request body, exactly as the
      HTTP API takes it (docs/api.md, "Settle": every event with its `type`); every key of
      the case but `name` and `expect` goes into the body, so a misspelt key is refused
    expect:
      net: [money per seat]
      transfers: [{from, to, amount, reason}, ...]: every transfer of the answer, in its
        order; an entry that also gives `event` has it checked
      finished: true | false
      wins: [{seat, fans, fan_total, value}, ...]: one entry per win, in event order, each
        checking the keys it gives (`fans`: {fan id or Chinese name: count}, the whole list)
      error: a 422 problem code, for a round that cannot be settled (nothing else is
        checked but `pointer`, the first error's pointer, when given)
      pointer: /events/1/context/kong
Every answer that settles is also checked on its own: `net` sums to zero and is what the
transfers add up to. `net` is required unless the case expects an `error`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.cases import (
    CASES,
    CASES_MATCH_RULESETS,
    PROJECT_RULESETS,
    case_rulesets,
    collect,
)
from tests.cases.test_cases import _fan_key
from tests.loaded import repo_app

RULESETS = case_rulesets()
EXPECT_KEYS = {"net", "transfers", "finished", "wins", "error", "pointer"}
TRANSFER_KEYS = {"from", "to", "amount", "reason", "event"}
WIN_KEYS = {"seat", "fans", "fan_total", "value"}




ALL_CASES = collect("rounds")


@pytest.fixture(scope="module")
def client() -> Iterator[FlaskClient]:
    """The real app with the real rule sets, without the access log."""
    with repo_app().test_client() as c:
        yield c


def test_there_are_round_cases() -> None:
    assert len(ALL_CASES) >= 3 or not PROJECT_RULESETS
    for path in CASES.glob("*/rounds/*.yaml") if CASES_MATCH_RULESETS else ():
        assert path.parent.parent.name in RULESETS, f"{path}: no rule set of that id"


@pytest.mark.parametrize(("ruleset", "case"), ALL_CASES)
def test_round_case(client: FlaskClient, ruleset: str, case: dict[str, Any]) -> None:
    exp = case["expect"]
    name = case["name"]
    assert set(exp) <= EXPECT_KEYS, f"{name}: unknown expect keys {set(exp) - EXPECT_KEYS}"
    assert "net" in exp or "error" in exp, f"{name}: expect a net or an error"
    body = {k: v for k, v in case.items() if k not in ("name", "expect")}
    response = client.post(f"/v1/rulesets/{ruleset}/settle", json=body)
    answer = response.get_json()
    if "error" in exp:
        assert response.status_code == 422, f"{name}: {response.status_code} {answer}"
        assert answer["code"] == exp["error"], f"{name}: {answer}"
        if "pointer" in exp:
            assert answer["errors"][0]["pointer"] == exp["pointer"], f"{name}: {answer}"
        return
    assert response.status_code == 200, f"{name}: {answer}"
    net = [0] * len(answer["net"])
    for t in answer["transfers"]:
        net[t["from"]] -= t["amount"]
        net[t["to"]] += t["amount"]
    assert net == answer["net"] and sum(net) == 0, f"{name}: {answer}"
    moves = [(t["from"], t["to"], t["amount"], t["reason"], t["event"])
             for t in answer["transfers"]]
    label = f"{name}: net {answer['net']}, transfers {moves}"
    assert answer["net"] == exp["net"], label
    if "transfers" in exp:
        assert all(set(t) <= TRANSFER_KEYS for t in exp["transfers"]), f"{name}: transfer keys"
        assert len(answer["transfers"]) == len(exp["transfers"]), label
        got = [{k: t[k] for k in want}
               for t, want in zip(answer["transfers"], exp["transfers"], strict=True)]
        assert got == exp["transfers"], label
    if "finished" in exp:
        assert answer["finished"] is exp["finished"], label
    if "wins" in exp:
        wins = answer["wins"]
        assert len(wins) == len(exp["wins"]), f"{name}: wins {wins}"
        for got_win, want in zip(wins, exp["wins"], strict=True):
            assert set(want) <= WIN_KEYS, f"{name}: unknown win keys {set(want) - WIN_KEYS}"
            for key, value in want.items():
                if key == "fans":
                    rs = RULESETS[ruleset]
                    assert {f["id"]: f["count"] for f in got_win["fans"]} == {
                        _fan_key(rs, k): v for k, v in value.items()}, f"{name}: {got_win}"
                else:
                    assert got_win[key] == value, f"{name}: win {got_win}"
