"""The hebei rule set over HTTP, a rule set that counts no fan: its document (no fan, the
description saying the source has no scoring table), a score, waits, a batch and settle
(not supported), each conforming to openapi.yaml."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.api.helpers import problem, validate_live

ROOT = "/v1/rulesets/hebei"
HAND = "123m456p789s[EEE]55s"


def test_the_document_lists_no_fan_and_says_why(client: FlaskClient,
                                                spec: dict[str, Any]) -> None:
    response = client.get(ROOT)
    validate_live(spec, "/v1/rulesets/{ruleset}", "get", response)
    body = response.get_json()
    assert body["fans"] == [] and body["min_fan"] == 0 and body["settlement"] is None
    assert "no scoring table" in body["description"]
    assert "legality and a flat stake only" in body["description"]
    assert body["meld_kinds"] == ["pung", "kong"] and body["tiles"] == "no_flowers"
    assert [o["name"] for o in body["options"]] == ["base", "dealer_double", "seven_pairs"]
    assert [o["default"] for o in body["options"]] == [1, False, False]
    listed = client.get("/v1/rulesets").get_json()
    assert "hebei" in {r["id"] for r in listed["rulesets"]}


def test_a_score_and_its_waits(client: FlaskClient, spec: dict[str, Any]) -> None:
    response = client.post(f"{ROOT}/score", json={
        "hand": HAND, "context": {"win_type": "self_draw", "winner": 1,
                                  "options": {"dealer_double": True}}})
    validate_live(spec, "/v1/rulesets/{ruleset}/score", "post", response)
    body = response.get_json()
    assert (body["winning"], body["fans"], body["fan_total"]) == (True, [], 0)
    assert body["payments"]["net"] == [-2, 4, -1, -1]
    response = client.post(f"{ROOT}/waits", json={
        "hand": "123m456p[EEE]45s99s", "context": {"win_type": "discard", "discarder": 2}})
    validate_live(spec, "/v1/rulesets/{ruleset}/waits", "post", response)
    body = response.get_json()
    assert [(w["tile"], w["winning"], w["fans"]) for w in body["waits"]] == [
        ("3s", True, []), ("6s", True, [])]
    assert body["ready"] is True and body["best"]["tile"] == "3s"


def test_a_batch_answers_each_hand_as_the_single_call(client: FlaskClient,
                                                      spec: dict[str, Any]) -> None:
    items = [
        {"hand": HAND, "context": {"win_type": "discard", "discarder": 2}},
        {"hand": "11m22m33p44p55s66sCC", "context": {"win_type": "discard", "discarder": 1}},
        {"hand": "11m22m33p44p55s66sCC",
         "context": {"win_type": "discard", "discarder": 1, "options": {"seven_pairs": True}}},
        {"hand": "123m456p789s234s5s1f", "context": {"win_type": "self_draw"}},
    ]
    response = client.post(f"{ROOT}/score/batch", json={"requests": items})
    validate_live(spec, "/v1/rulesets/{ruleset}/score/batch", "post", response)
    results = response.get_json()["results"]
    for item, got in zip(items, results, strict=True):
        single = client.post(f"{ROOT}/score", json=item)
        if single.status_code == 200:
            assert got == {"result": single.get_json()}
        else:
            assert got["error"]["code"] == single.get_json()["code"]
    assert [r["result"]["winning"] for r in results[:3]] == [True, False, True]
    assert results[0]["result"]["payments"]["net"] == [1, 0, -1, 0]
    assert results[2]["result"]["payments"]["net"] == [1, -1, 0, 0]
    assert results[3]["error"]["code"] == "unknown_tile"


def test_rounds_are_not_settled(client: FlaskClient) -> None:
    problem(client.post(f"{ROOT}/settle", json={"events": []}), 422, "settle_not_supported")
