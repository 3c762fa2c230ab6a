"""`POST /v1/rulesets/{ruleset}/match` through the real app: false wins classified and priced,
penalties, the body limit, and every refusal with its pointer into the hand at fault. The
worked matches and each rule set's own cases are data (tests/cases/*/matches)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from app.api import create_app
from app.rules.load_files import load_yaml
from app.settings import DEFAULT_RULESETS_DIR, MAX_MATCH_CONTENT_LENGTH
from tests.loaded import repo_app

Body = dict[str, Any]
N9 = "[123m][456p]789s23sNN4s"  # 花龙: 8 on a discard, 9 self-drawn


@pytest.fixture(scope="module")
def client() -> Iterator[FlaskClient]:
    with repo_app().test_client() as c:
        yield c


def _win(hand: str, winner: int, discarder: int | None = None, **context: Any) -> Body:
    ctx: Body = {"win_type": "self_draw" if discarder is None else "discard", "winner": winner,
                 **context}
    if discarder is not None:
        ctx["discarder"] = discarder
    return {"hand": hand, "context": ctx}


def _post(client: FlaskClient, body: Body, ruleset: str = "mcr") -> tuple[int, Body]:
    answer = client.post(f"/v1/rulesets/{ruleset}/match", json=body)
    return answer.status_code, answer.get_json()


def _refused(client: FlaskClient, body: Body, code: str, pointer: str,
             ruleset: str = "mcr") -> Body:
    status, problem = _post(client, body, ruleset)
    assert (status, problem["code"]) == (422, code), problem
    assert problem["errors"][0]["pointer"] == pointer, problem
    return problem


@pytest.mark.parametrize(("hand", "kind", "net"), [
    # A complete hand under 8 fan: 错和, 10 to each other player.
    ("[234m][567s]345p888s9m9m", "wrong_shape", [-30, 10, 10, 10]),
    # Ready on 1s and 4s, claiming 9s: 和错牌, 10 to each.
    ("123m456m789m11p23s9s", "wrong_tile", [-30, 10, 10, 10]),
    # Not ready at all: 诈和, 20 to each.
    ("123m456m789m1p5p23s9s", "not_ready", [-60, 20, 20, 20]),
])
def test_a_false_win_is_classified_and_priced(client: FlaskClient, hand: str, kind: str,
                                              net: list[int]) -> None:
    status, answer = _post(client, {"hands": [
        {"drawn": {}, "false_wins": [{"player": 0, "win": _win(hand, 0, 1)}]}]})
    assert status == 200, answer
    first = answer["hands"][0]
    assert first["false_wins"] == [{"player": 0, "kind": kind, "net": net,
                                    "deducted": [0, 0, 0, 0], "kongs_returned": 0}]
    assert first["net"] == net and first["totals"] == net


def test_mil2025_deducts_a_false_win_and_shows_it_apart(client: FlaskClient) -> None:
    status, answer = _post(client, {"match_options": {"false_win": "mil2025"}, "hands": [
        {"win": _win(N9, 2), "false_wins": [
            {"player": 0, "win": _win("[234m][567s]345p888s9m9m", 0, 1)}]}]})
    assert status == 200, answer
    first = answer["hands"][0]
    assert first["net"] == [-17, -17, 51, -17]
    assert first["deducted"] == [40, 0, 0, 0]
    assert first["totals"] == [-57, -17, 51, -17]
    standings = answer["standings"]
    assert standings["deducted"] == [40, 0, 0, 0]
    assert sum(standings["totals"]) == -40
    assert standings["points"] == [443, 483, 551, 483]


def test_penalties_are_paid_or_deducted(client: FlaskClient) -> None:
    status, answer = _post(client, {"hands": [{"drawn": {}, "penalties": [
        {"player": 1, "points": 5, "to": 3, "reason": "disturbing"},
        {"player": 2, "points": 10}]}]})
    assert status == 200, answer
    first = answer["hands"][0]
    assert first["net"] == [0, -5, 0, 5]
    assert first["deducted"] == [0, 0, 10, 0]
    assert first["totals"] == [0, -5, -10, 5]
    assert first["penalties"][1] == {"player": 2, "points": 10, "to": None, "reason": None}


def test_a_false_win_gives_back_the_offenders_kong_money_where_the_rules_say(
        client: FlaskClient) -> None:
    # 四川: seat 1's 暗杠 (2 from each) goes back when seat 1 false-wins in that hand, beside
    # the 24 points deducted.
    status, answer = _post(client, {"hands": [{"round": {"events": [
        {"type": "kong", "seat": 1, "kind": "concealed", "tile": "9s"},
        {"type": "win", "seat": 3, "hand": "123m456m789m123p55p",
         "context": {"win_type": "discard", "discarder": 0}}]},
        "false_wins": [{"player": 1, "kind": "not_ready"}]}]}, "sichuan")
    assert status == 200, answer
    first = answer["hands"][0]
    assert first["result"]["net"] == [-3, 6, -2, -1]
    assert first["false_wins"] == [{"player": 1, "kind": "not_ready", "net": [2, -6, 2, 2],
                                    "deducted": [0, 24, 0, 0], "kongs_returned": 6}]
    assert first["net"] == [-1, 0, 0, 1] and first["totals"] == [-1, -24, 0, 1]


def test_a_false_win_offender_may_not_win_the_hand(client: FlaskClient) -> None:
    # 国标 陪打: player 0's false win, then player 0's own win of the same hand.
    _refused(client, {"hands": [{"win": _win(N9, 0), "false_wins": [
        {"player": 0, "kind": "wrong_shape"}]}]}, "inconsistent_context",
        "/hands/0/false_wins/0/player")


def test_a_false_win_where_none_is_priced_is_refused(client: FlaskClient) -> None:
    _refused(client, {"hands": [{"drawn": {}, "false_wins": [
        {"player": 1, "kind": "not_ready"}]}]}, "false_win_unpriced", "/hands/0/false_wins/0",
        ruleset="tianjin")


@pytest.mark.parametrize(("body", "code", "pointer"), [
    ({"hands": [{"win": _win("123m123p123s789s5p5p", 7, 1)}]},
     "player_out_of_range", "/hands/0/win/context/winner"),
    ({"hands": [{"drawn": {}, "dealer": 1}]}, "inconsistent_dealer", "/hands/0/dealer"),
    ({"hands": [{"win": _win("123m123p123s789s5p5p", 1, 2, dealer=3)}]},
     "inconsistent_dealer", "/hands/0/win/context/dealer"),
    ({"hands": [{"win": _win("123m123p123s789s5p5p", 1, 2, seat_wind="E")}]},
     "inconsistent_winds", "/hands/0/win/context/seat_wind"),
    ({"hands": [{"drawn": {}}, {"win": _win("123m123p123s789s5p5X", 1, 2)}]},
     "invalid_notation", "/hands/1/win/hand"),
    ({"hands": [{"win": _win("[234m][567s]345p888s9m9m", 0, 1)}]},
     "not_a_win", "/hands/0/win"),
    ({"hands": [{"round": {"events": []}}]}, "wrong_hand_kind", "/hands/0/round"),
    ({"hands": [{"claims": {"discarder": 2, "claims": [
        {"win": _win("[234m][567s]345p888s9m9m", 1, 2)},
        {"win": _win("[234m][567s]345p888s9m9m", 3, 2)}]}}]},
     "no_claim_stands", "/hands/0/claims"),
    ({"hands": [{"drawn": {}, "false_wins": [{"player": 0, "win": _win(N9, 0)}]}]},
     "not_a_false_win", "/hands/0/false_wins/0/win"),
    ({"first_dealer": 2, "hands": [{"drawn": {}}]}, "inconsistent_dealer", "/first_dealer"),
    ({"state": {"hands": 3, "dealer": 0, "circle": 0, "dealerships": 4, "repeat": 0,
                "totals": [0, 0, 0], "deducted": [0, 0, 0, 0], "ended": False},
      "hands": [{"drawn": {}}]}, "invalid_state", "/state/totals"),
    ({"state": {"hands": 16, "dealer": 0, "circle": 4, "dealerships": 17, "repeat": 0,
                "totals": [0, 0, 0, 0], "deducted": [0, 0, 0, 0], "ended": True},
      "hands": [{"drawn": {}}]}, "match_over", "/hands/0"),
    ({"hands": [{"drawn": {}, "win": _win(N9, 0)}]}, "wrong_hand_kind", "/hands/0"),
    ({"hands": [{"win": {"hand": N9, "context": [1]}}]}, "invalid_request",
     "/hands/0/win/context"),
])
def test_a_match_that_cannot_be_is_refused_at_the_hand_at_fault(
        client: FlaskClient, body: Body, code: str, pointer: str) -> None:
    _refused(client, body, code, pointer)


def test_a_player_claims_one_discard_once(client: FlaskClient) -> None:
    _refused(client, {"hands": [{"claims": {"discarder": 2, "claims": [
        {"win": _win(N9, 1, 2)}, {"win": _win(N9, 1, 2)}]}}]}, "inconsistent_context",
        "/hands/0/claims/claims/1/win/context/winner")


def test_a_17th_hand_is_refused(client: FlaskClient) -> None:
    problem = _refused(client, {"hands": [{"drawn": {}}] * 17}, "match_over", "/hands/16")
    assert "16 hands" in problem["detail"]


def test_claims_where_a_discard_may_win_for_several_are_a_round(client: FlaskClient) -> None:
    _refused(client, {"hands": [{"claims": {"discarder": 2, "claims": [
        {"win": _win("123m456m789m22p33p3p", 1, 2)},
        {"win": _win("123m456m789m22p33p3p", 3, 2)}]}}]},
        "wrong_hand_kind", "/hands/0/claims", ruleset="sichuan")


def test_a_blood_battle_winner_cannot_win_again_in_its_round(client: FlaskClient) -> None:
    win = {"type": "win", "seat": 2, "hand": "123m456m789m22p33p3p",
           "context": {"win_type": "discard", "discarder": 0}}
    _refused(client, {"hands": [{"round": {"events": [win, win]}}]}, "seat_already_won",
             "/hands/0/round/events/1/seat", ruleset="sichuan")


def test_a_match_body_may_be_larger_than_a_single_request(client: FlaskClient) -> None:
    round_ = {"events": [{"type": "win", "seat": 2, "hand": "123m456m789m22p33p3p",
                          "context": {"win_type": "discard", "discarder": 0}}]}
    body = {"hands": [{"round": round_, "penalties": [
        {"player": 1, "points": 1, "reason": "x" * 190}] * 8}] * 64}
    status, answer = _post(client, body, "sichuan")
    assert status == 200, answer
    assert len(answer["hands"]) == 64
    too_large = {"hands": [{"drawn": {}, "penalties": [
        {"player": 1, "points": 1, "reason": "x" * 200}]}],
        "pad": "x" * MAX_MATCH_CONTENT_LENGTH}
    status, problem = _post(client, too_large)
    assert (status, problem["code"]) == (413, "payload_too_large")


def test_a_rule_set_without_match_rules_refuses_a_match(tmp_path: Path) -> None:
    data = load_yaml((DEFAULT_RULESETS_DIR / "hebei.yaml").read_text(encoding="utf-8"))
    text = (DEFAULT_RULESETS_DIR / "hebei.yaml").read_text(encoding="utf-8")
    cut = text.index("\nmatch:")
    assert "match" in data
    (tmp_path / "hebei.yaml").write_text(text[:cut] + "\n", encoding="utf-8")
    shutil.copy(DEFAULT_RULESETS_DIR / "mcr.yaml", tmp_path / "mcr.yaml")
    app = create_app({"RULESETS_DIR": str(tmp_path), "ACCESS_LOG": False})
    with app.test_client() as c:
        status, problem = _post(c, {"hands": [{"drawn": {}}]}, "hebei")
        assert (status, problem["code"]) == (422, "match_not_supported")
        assert c.get("/v1/rulesets/hebei").get_json()["match"] is None
