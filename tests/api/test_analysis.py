"""POST /v1/rulesets/{ruleset}/analysis and /analysis/batch: the discard analysis over HTTP.

Each answer is held to openapi.yaml; the waits of a ready hand are what /waits answers for
the same hand and context; the refusals are 422 problems with the pointer at fault."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.api.helpers import problem, validate_live

PATH = "/v1/rulesets/{ruleset}/analysis"
BATCH_PATH = "/v1/rulesets/{ruleset}/analysis/batch"
SELF_DRAW = {"win_type": "self_draw"}


def _analyse(client: FlaskClient, spec: dict[str, Any], ruleset: str,
             body: dict[str, Any]) -> Any:
    response = client.post(f"/v1/rulesets/{ruleset}/analysis", json=body)
    validate_live(spec, PATH, "post", response)
    return response


def _ok(client: FlaskClient, spec: dict[str, Any], ruleset: str,
        body: dict[str, Any]) -> dict[str, Any]:
    response = _analyse(client, spec, ruleset, body)
    assert response.status_code == 200, response.get_json()
    answer: dict[str, Any] = response.get_json()
    return answer


def test_a_ready_hand_has_the_waits_of_the_waits_endpoint(
        client: FlaskClient, spec: dict[str, Any]) -> None:
    body = {"hand": "123m456m789m123p5s", "context": {"win_type": "discard", "discarder": 2}}
    got = _ok(client, spec, "mcr", body)
    waits = client.post("/v1/rulesets/mcr/waits", json=body).get_json()
    assert got["tiles"] == 13 and got["shanten"] == 0
    assert got["shapes"]["regular"] == 0 and got["shapes"]["seven_pairs"] == 6
    assert got["useful"] == [{"tile": "5s", "left": 3}] and got["useful_left"] == 3
    assert got["waits"] == waits["waits"] and got["best"] == waits["best"]
    assert got["can_win"] is True
    assert got["discards"] is None and got["win"] is None


def test_visible_tiles_lower_the_copies_left(client: FlaskClient, spec: dict[str, Any]) -> None:
    hand = "123m456m789m12p5s9s"
    alone = _ok(client, spec, "mcr", {"hand": hand, "context": SELF_DRAW})
    seen = _ok(client, spec, "mcr", {"hand": hand, "context": SELF_DRAW,
                                     "visible": ["3p", "3p", "5s"]})
    assert alone["shanten"] == seen["shanten"] == 1
    left = {u["tile"]: u["left"] for u in seen["useful"]}
    assert left == {"3p": 2, "5s": 2, "9s": 3}
    assert seen["useful_left"] == alone["useful_left"] - 3 == 7


def test_fourteen_tiles_rank_the_discards(client: FlaskClient, spec: dict[str, Any]) -> None:
    got = _ok(client, spec, "mcr", {"hand": "123m456m789m12p5s9sE", "context": SELF_DRAW})
    rows = got["discards"]
    assert got["tiles"] == 14 and got["shanten"] == 1 and got["useful"] is None
    assert len(rows) == 14
    assert {r["tile"] for r in rows[:3]} == {"5s", "9s", "E"}
    assert all(r["shanten"] == 1 and r["useful_left"] == 10 for r in rows[:3])
    assert all(r["shanten"] == 2 for r in rows[3:])
    keys = [(r["shanten"], -r["useful_left"]) for r in rows]
    assert keys == sorted(keys)


def test_a_complete_hand_is_shanten_minus_one_and_scored(
        client: FlaskClient, spec: dict[str, Any]) -> None:
    body = {"hand": "123m456m789m123p5s5s", "context": SELF_DRAW}
    got = _ok(client, spec, "mcr", body)
    scored = client.post("/v1/rulesets/mcr/score", json=body).get_json()
    assert got["shanten"] == -1 and got["win"] == scored
    assert got["discards"][0]["shanten"] == 0  # discarding a 5s: ready on 5s again


def test_a_ready_hand_under_the_minimum_cannot_win(
        client: FlaskClient, spec: dict[str, Any]) -> None:
    # Ready on 5s and 8s, each 门前清 2 + 平和 2 + 连六 1 = 5, under the 8 番 minimum.
    got = _ok(client, spec, "mcr", {"hand": "123456m234p678s5s",
                                    "context": {"win_type": "discard", "discarder": 1}})
    assert got["shanten"] == 0 and got["waits"]
    assert got["can_win"] is False and got["best"] is None
    assert all(not w["winning"] for w in got["waits"])


def test_a_void_suit_hand_is_not_ready_and_discards_its_void_first(
        client: FlaskClient, spec: dict[str, Any]) -> None:
    # sichuan: a win holds at most two suits. Four sets and a pair of m and s, and a 4p.
    thirteen = _ok(client, spec, "sichuan", {"hand": "111m234m567m999s4p",
                                              "context": SELF_DRAW})
    assert thirteen["shanten"] == 1
    fourteen = _ok(client, spec, "sichuan", {"hand": "111m234m567m999s5s4p",
                                              "context": SELF_DRAW})
    first = fourteen["discards"][0]
    assert first["tile"] == "4p" and first["void"] is True and first["shanten"] == 0
    assert [w["tile"] for w in first["waits"]] == ["5s"] and first["can_win"] is True
    assert all(r["shanten"] >= 1 and not r["void"] for r in fourteen["discards"][1:])


def test_a_tile_outside_the_deck_is_never_useful(
        client: FlaskClient, spec: dict[str, Any]) -> None:
    got = _ok(client, spec, "kawuxing", {"hand": "123s456s789s12p5p9p", "context": SELF_DRAW})
    assert got["useful"] and not any(u["tile"].endswith("m") for u in got["useful"])


def test_wild_tiles_count_as_any_tile(client: FlaskClient, spec: dict[str, Any]) -> None:
    # Indicator 3s: 3s and 4s are wild, the flipped 3s out of play.
    got = _ok(client, spec, "tianjin", {
        "hand": "123m456m789s5p5p3s9s",
        "context": {"win_type": "self_draw", "wild_indicator": "3s"}})
    assert got["shanten"] == 0 and got["waits"]
    left = {u["tile"]: u["left"] for u in got["useful"]}
    assert left["3s"] == 2 and left["4s"] == 4  # a drawn wild is useful


@pytest.mark.parametrize(("ruleset", "body", "code", "pointer"), [
    ("mcr", {"hand": "123m456m789m12p", "context": SELF_DRAW}, "wrong_tile_count", "/hand"),
    ("mcr", {"hand": "123m456m789m123p5s5sE", "context": SELF_DRAW}, "wrong_tile_count",
     "/hand"),
    ("mcr", {"hand": {"concealed": "123m456m789m12p", "melds": []}, "context": SELF_DRAW},
     "wrong_tile_count", "/hand/concealed"),
    ("mcr", {"hand": "123m456m789m123p5s", "context": SELF_DRAW, "visible": "5s5s5s5s"},
     "too_many_copies", "/visible"),
    ("mcr", {"hand": "123m456m789m123p5s", "context": SELF_DRAW,
             "visible": ["1m", "1m", "1m", "1m"]}, "too_many_copies", "/visible/3"),
    ("tianjin", {"hand": "123m456m789s5p5p3s9s",
                 "context": {"win_type": "self_draw", "wild_indicator": "3s"},
                 "visible": "3s3s3s"}, "too_many_copies", "/visible"),
    ("mcr", {"hand": "123m456m789m123p5s", "context": SELF_DRAW, "visible": "1f"},
     "invalid_field", "/visible"),
    ("mcr", {"hand": "123m456m789m123p5s", "context": SELF_DRAW, "visible": "9x"},
     "invalid_notation", "/visible"),
])
def test_refusals_point_at_the_field(client: FlaskClient, spec: dict[str, Any], ruleset: str,
                                     body: dict[str, Any], code: str, pointer: str) -> None:
    answer = problem(_analyse(client, spec, ruleset, body), 422, code)
    assert [e["pointer"] for e in answer["errors"]] == [pointer], answer


def test_a_winning_tile_is_refused(client: FlaskClient, spec: dict[str, Any]) -> None:
    answer = problem(_analyse(client, spec, "mcr", {
        "hand": {"concealed": "123m456m789m123p5s", "win_tile": "5s"}, "context": SELF_DRAW}),
        422, "invalid_request")
    assert answer["errors"][0]["pointer"] == "/hand/win_tile"


def test_a_game_of_word_cards_is_not_analysed(client: FlaskClient) -> None:
    response = client.post("/v1/rulesets/hengyang/analysis",
                           json={"hand": "123m456m789m123p5s", "context": SELF_DRAW})
    body = problem(response, 422, "analysis_not_supported")
    assert "hengyang" in body["detail"]


def test_a_batch_answers_each_item_as_the_single_call(
        client: FlaskClient, spec: dict[str, Any]) -> None:
    items = [{"hand": "123m456m789m123p5s", "context": SELF_DRAW},
             {"hand": "123m456m789m12p", "context": SELF_DRAW}, 7]
    response = client.post("/v1/rulesets/mcr/analysis/batch", json={"requests": items})
    validate_live(spec, BATCH_PATH, "post", response)
    results = response.get_json()["results"]
    single = client.post("/v1/rulesets/mcr/analysis", json=items[0]).get_json()
    assert results[0] == {"result": single}
    assert results[1]["error"]["code"] == "wrong_tile_count"
    assert set(results[2]) == {"error"}  # not an object: its own error item


def test_waits_left_unscored_on_request(client: FlaskClient, spec: dict[str, Any]) -> None:
    body = {"hand": "123m456m789m123p5s5s", "context": SELF_DRAW}
    scored = _ok(client, spec, "mcr", body)
    bare = _ok(client, spec, "mcr", {**body, "score_waits": False})
    assert bare["discards"][0]["waits"] is None and bare["discards"][0]["can_win"] is None
    assert [(r["tile"], r["shanten"], r["useful_left"]) for r in bare["discards"]] == [
        (r["tile"], r["shanten"], r["useful_left"]) for r in scored["discards"]]
    assert scored["discards"][0]["waits"]


def test_tianjin_waits_are_those_of_the_waits_endpoint(
        client: FlaskClient, spec: dict[str, Any]) -> None:
    """With wild tiles the analysis scores only the tiles its counts say may complete the
    hand: the waits are still exactly /waits' (random ready hands with 1-3 wilds)."""
    import random

    rng = random.Random(5)
    codes = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "5p", "9p", "2s",
             "3s", "4s", "E", "C"]
    compared = 0
    while compared < 12:
        tiles = "".join(rng.choice(codes) for _ in range(10))
        body = {"hand": tiles + "3s4s" + rng.choice(("3s", "4s", "9m")),
                "context": {"win_type": "self_draw", "wild_indicator": "3s"}}
        response = client.post("/v1/rulesets/tianjin/analysis", json=body)
        if response.status_code != 200 or response.get_json()["shanten"] != 0:
            continue
        waits = client.post("/v1/rulesets/tianjin/waits", json=body).get_json()
        got = response.get_json()
        assert got["waits"] == waits["waits"] and got["best"] == waits["best"], body
        compared += 1


def test_a_ready_hands_useful_tiles_are_its_waits(
        client: FlaskClient, spec: dict[str, Any]) -> None:
    # 3p wild (indicator 3p, 3p and 4p wild): the lone wild pairs with any drawn tile but 1p,
    # which with the wild as a 1p would make five.
    body = {"hand": "123m456m789m111p3p",
            "context": {"win_type": "self_draw", "wild_indicator": "3p"}}
    got = _ok(client, spec, "tianjin", body)
    assert [u["tile"] for u in got["useful"]] == [w["tile"] for w in got["waits"]]
    assert "1p" not in {u["tile"] for u in got["useful"]} and len(got["useful"]) == 33
    bare = _ok(client, spec, "tianjin", {**body, "score_waits": False})
    assert "1p" in {u["tile"] for u in bare["useful"]}  # the counts alone


def test_a_two_suit_hand_has_no_void_rows(client: FlaskClient, spec: dict[str, Any]) -> None:
    # Undeclared, any two suits win: the 4p of a hand of 万 and 筒 is no void tile, and 1m
    # (39 copies of useful tiles left) ranks above it (23), both one from ready.
    got = _ok(client, spec, "chengdu", {"hand": "1223335566778m4p", "context": SELF_DRAW})
    rows = {r["tile"]: r for r in got["discards"]}
    assert not any(r["void"] for r in got["discards"])
    assert [r["tile"] for r in got["discards"]][:2] == ["1m", "2m"]
    assert rows["1m"]["shanten"] == rows["4p"]["shanten"] == 1
    assert rows["1m"]["useful_left"] == 39 and rows["4p"]["useful_left"] == 23


def test_a_declared_void_suit_is_exactly_the_void(
        client: FlaskClient, spec: dict[str, Any]) -> None:
    hand = "1223335566778m4p"
    declared = {"win_type": "self_draw", "options": {"void_suit": ["p", None, None, None]}}
    got = _ok(client, spec, "chengdu", {"hand": hand, "context": declared})
    first = got["discards"][0]
    assert first["tile"] == "4p" and first["void"] is True
    assert [r["tile"] for r in got["discards"] if r["void"]] == ["4p"]
    # Kept 万 only: 1m leaves 20 useful copies, no 筒 among them.
    one_m = next(r for r in got["discards"] if r["tile"] == "1m")
    assert one_m["useful_left"] == 20 and not any(u["tile"].endswith("p")
                                                  for u in one_m["useful"])
    # Another seat's declaration does not bind the winner (seat 1): no void.
    other = _ok(client, spec, "chengdu", {"hand": hand, "context": {**declared, "winner": 1}})
    assert not any(r["void"] for r in other["discards"])
    # A declared suit the hand does not hold: no void either.
    bamboo = {"win_type": "self_draw", "options": {"void_suit": ["s", None, None, None]}}
    assert not any(r["void"] for r in _ok(client, spec, "chengdu", {
        "hand": hand, "context": bamboo})["discards"])


def test_a_hand_holding_its_declared_suit_is_not_ready(
        client: FlaskClient, spec: dict[str, Any]) -> None:
    declared = {"win_type": "self_draw", "options": {"void_suit": ["p", None, None, None]}}
    ready = _ok(client, spec, "sichuan", {"hand": "123m456m789m123p5p", "context": SELF_DRAW})
    assert ready["shanten"] == 0 and ready["can_win"] is True
    got = _ok(client, spec, "sichuan", {"hand": "123m456m789m123p5p", "context": declared})
    assert got["shanten"] >= 1 and got["waits"] is None
    assert not any(u["tile"].endswith("p") for u in got["useful"])
    # The declared suit in a declared meld: no shape can be made.
    meld = _ok(client, spec, "sichuan", {"hand": "[555p]123m456m789m1m", "context": declared})
    assert meld["shanten"] is None and meld["useful"] == []


def test_a_bad_declared_void_suit_points_at_the_entry(
        client: FlaskClient, spec: dict[str, Any]) -> None:
    body = {"hand": "123m456m789m123p5p",
            "context": {"win_type": "self_draw", "options": {"void_suit": ["p", "z", None,
                                                                          None]}}}
    answer = problem(_analyse(client, spec, "sichuan", body), 422, "invalid_option")
    assert answer["errors"][0]["pointer"] == "/context/options/void_suit/1"


def test_a_ready_rows_useful_tiles_are_its_waits(
        client: FlaskClient, spec: dict[str, Any]) -> None:
    # hebei: discarding the fourth 7p leaves a hand waiting on 7p and 1s; the discarded 7p
    # was the last copy, so 7p is useful with 0 left.
    got = _ok(client, spec, "hebei", {"hand": "345777789p11sSSS", "context": SELF_DRAW})
    row = next(r for r in got["discards"] if r["tile"] == "7p")
    assert [w["tile"] for w in row["waits"]] == ["7p", "1s"]
    assert row["useful"] == [{"tile": "7p", "left": 0}, {"tile": "1s", "left": 2}]
    assert row["useful_left"] == 2
    for r in got["discards"]:
        if r["waits"] is not None:
            assert [u["tile"] for u in r["useful"]] == [w["tile"] for w in r["waits"]]
