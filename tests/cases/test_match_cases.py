"""Match cases as data: every `tests/cases/<ruleset>/matches/*.yaml` file, one test per case,
each sent as `POST /v1/rulesets/<ruleset>/match` to the real app (Flask's test client).

A case file holds `cases:`, a list of
    name: what the case shows
    first_dealer, options, match_options, state, hands: the match request body, exactly as the
      HTTP API takes it (every hand one of `win`, `claims`, `round`, `drawn`, with its
      `false_wins` and `penalties`; players numbered by the seat each held at the start);
      every key of the case but `name` and `expect` goes into the body, so a misspelt key is
      refused
    expect:
      hands: one entry per hand answered, in order, each checking the keys it gives of
        dealer, repeat, circle, round_wind, seating, seat_winds, kind, winners, discarder,
        net, deducted, totals, claims ([{player, outcome, kind?}]), false_wins
        ([{player, kind, net?, deducted?}]) and penalties ([{player, points, to?}]); an
        entry may be {} (nothing checked but the invariants)
      standings: {totals, deducted, base_points, points, ranks, table_points}, the keys it
        gives
      next: the next hand's table ({number, dealer, repeat, circle, round_wind, seating,
        seat_winds}, the keys it gives), or null when the match has ended
      ended: true | false
      state: {hands, dealer, circle, dealerships, repeat, totals, deducted, ended}, the keys
        it gives
      error: a 422 problem code, for a match that cannot be scored (nothing else is checked
        but `pointer`, the first error's pointer, when given)
      pointer: /hands/3/dealer
Every answer that scores is also checked on its own: each hand's net sums to zero (points
deducted are paid to nobody, so they are outside the net); each running total is the one
before (the posted state's, else 0) plus the hand's net less its deductions; the deductions
add up to the state's; the standings' totals are the last hand's and its points the base
points plus them; `ended` and `next` agree.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.cases import CASES, CASES_MATCH_RULESETS, PROJECT_RULESETS, case_rulesets, collect
from tests.loaded import repo_app

RULESETS = case_rulesets()
EXPECT_KEYS = {"hands", "standings", "next", "ended", "state", "error", "pointer"}
HAND_KEYS = {"dealer", "repeat", "circle", "round_wind", "seating", "seat_winds", "kind",
             "winners", "discarder", "net", "deducted", "totals", "claims", "false_wins",
             "penalties"}
STANDINGS_KEYS = {"totals", "deducted", "base_points", "points", "ranks", "table_points"}
TABLE_KEYS = {"number", "dealer", "repeat", "circle", "round_wind", "seating", "seat_winds"}
STATE_KEYS = {"hands", "dealer", "circle", "dealerships", "repeat", "totals", "deducted",
              "ended"}

ALL_CASES = collect("matches")


@pytest.fixture(scope="module")
def client() -> Iterator[FlaskClient]:
    """The real app with the real rule sets, without the access log."""
    with repo_app().test_client() as c:
        yield c


def test_there_are_match_cases() -> None:
    assert len(ALL_CASES) >= 24 or not PROJECT_RULESETS
    for path in CASES.glob("*/matches/*.yaml") if CASES_MATCH_RULESETS else ():
        assert path.parent.parent.name in RULESETS, f"{path}: no rule set of that id"


def test_every_rule_set_has_match_cases() -> None:
    """At least two cases per rule set that has match rules."""
    if not PROJECT_RULESETS:
        return
    counts: dict[str, int] = {}
    for param in ALL_CASES:
        counts[param.values[0]] = counts.get(param.values[0], 0) + 1
    for rid, rs in RULESETS.items():
        if getattr(rs, "match", None) is not None:
            assert counts.get(rid, 0) >= 2, f"{rid}: {counts.get(rid, 0)} match cases"


def check_invariants(body: dict[str, Any], answer: dict[str, Any], label: str) -> None:
    """What every scored match answers, whatever its rules: see the module's docstring."""
    state = body.get("state")
    players = len(answer["standings"]["totals"])
    totals = list(state["totals"]) if state else [0] * players
    deducted = list(state["deducted"]) if state else [0] * players
    for hand in answer["hands"]:
        where = f"{label}: hand {hand['number']}"
        assert sum(hand["net"]) == 0, f"{where}: net {hand['net']} does not sum to 0"
        assert all(d >= 0 for d in hand["deducted"]), where
        totals = [t + n - d for t, n, d in zip(totals, hand["net"], hand["deducted"],
                                               strict=True)]
        deducted = [a + d for a, d in zip(deducted, hand["deducted"], strict=True)]
        assert hand["totals"] == totals, f"{where}: totals {hand['totals']}, not {totals}"
    standings = answer["standings"]
    assert standings["totals"] == totals == answer["state"]["totals"], label
    assert standings["deducted"] == deducted == answer["state"]["deducted"], label
    assert standings["points"] == [standings["base_points"] + t for t in totals], label
    assert answer["ended"] is answer["state"]["ended"], label
    assert (answer["next"] is None) is answer["ended"], label
    first = state["hands"] if state else 0
    assert [h["number"] for h in answer["hands"]] == list(
        range(first + 1, first + 1 + len(answer["hands"]))), label
    assert answer["state"]["hands"] == first + len(answer["hands"]), label


def _subset(got: dict[str, Any], want: dict[str, Any], keys: set[str], label: str) -> None:
    assert set(want) <= keys, f"{label}: unknown expect keys {set(want) - keys}"
    for key, value in want.items():
        if key in ("claims", "false_wins", "penalties"):
            assert len(got[key]) == len(value), f"{label}: {key} {got[key]}"
            for item, expected in zip(got[key], value, strict=True):
                assert {k: item[k] for k in expected} == expected, f"{label}: {key} {got[key]}"
        else:
            assert got[key] == value, f"{label}: {key} is {got[key]}, not {value}"


@pytest.mark.parametrize(("ruleset", "case"), ALL_CASES)
def test_match_case(client: FlaskClient, ruleset: str, case: dict[str, Any]) -> None:
    exp = case["expect"]
    name = case["name"]
    assert set(exp) <= EXPECT_KEYS, f"{name}: unknown expect keys {set(exp) - EXPECT_KEYS}"
    assert "hands" in exp or "error" in exp, f"{name}: expect hands or an error"
    body = {k: v for k, v in case.items() if k not in ("name", "expect")}
    response = client.post(f"/v1/rulesets/{ruleset}/match", json=body)
    answer = response.get_json()
    if "error" in exp:
        assert response.status_code == 422, f"{name}: {response.status_code} {answer}"
        assert answer["code"] == exp["error"], f"{name}: {answer}"
        if "pointer" in exp:
            assert answer["errors"][0]["pointer"] == exp["pointer"], f"{name}: {answer}"
        return
    assert response.status_code == 200, f"{name}: {answer}"
    check_invariants(body, answer, name)
    assert len(answer["hands"]) == len(exp["hands"]), f"{name}: {len(answer['hands'])} hands"
    for i, (got, want) in enumerate(zip(answer["hands"], exp["hands"], strict=True)):
        _subset(got, want, HAND_KEYS, f"{name}: hand {i + 1}")
    if "standings" in exp:
        _subset(answer["standings"], exp["standings"], STANDINGS_KEYS, f"{name}: standings")
    if "next" in exp:
        if exp["next"] is None:
            assert answer["next"] is None, f"{name}: next {answer['next']}"
        else:
            _subset(answer["next"], exp["next"], TABLE_KEYS, f"{name}: next")
    if "ended" in exp:
        assert answer["ended"] is exp["ended"], f"{name}: ended {answer['ended']}"
    if "state" in exp:
        _subset(answer["state"], exp["state"], STATE_KEYS, f"{name}: state")
