"""The two-player rule sets over HTTP: documents (two players, a fan value an option gives),
a score and its waits, seats 2 and 3 refused with 422 seat_out_of_range in every place a
seat is named, and settle (not supported), each conforming to openapi.yaml."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.api.helpers import problem, validate_live

HAND = "123m456m123p55s78m9m"


@pytest.mark.parametrize("rid", ["erren", "erren-gb"])
def test_the_document_has_two_players(client: FlaskClient, spec: dict[str, Any],
                                      rid: str) -> None:
    response = client.get(f"/v1/rulesets/{rid}")
    validate_live(spec, "/v1/rulesets/{ruleset}", "get", response)
    body = response.get_json()
    assert body["players"] == 2 and body["tiles"] == "no_flowers" and body["max_flowers"] == 0
    assert body["min_fan"] == 0 and body["settlement"] is None
    ids = {f["id"] for f in body["fans"]}
    assert not ids & {"prevalent_wind", "seat_wind", "flower_tiles"}


def test_erren_scores_with_the_options_values(client: FlaskClient,
                                              spec: dict[str, Any]) -> None:
    fans = {f["id"]: f for f in client.get("/v1/rulesets/erren").get_json()["fans"]}
    assert fans["qing_yi_se"]["value"] == 6 and fans["ping_he"]["value"] == 1  # defaults
    response = client.post("/v1/rulesets/erren/score", json={
        "hand": "123m456m789m55m23m4m",
        "context": {"win_type": "self_draw", "options": {"qing_yi_se": 10, "ping_he": 2,
                                                         "self_draw_bonus": 1}}})
    validate_live(spec, "/v1/rulesets/{ruleset}/score", "post", response)
    body = response.get_json()
    assert {f["id"]: f["value"] for f in body["fans"]} == {"qing_yi_se": 10, "ping_he": 2,
                                                           "men_qing": 1}
    assert (body["fan_total"], body["value"], body["multiplier"]) == (13, 13, 13)
    assert body["payments"]["net"] == [13, -13]  # 14 with the bonus, capped at 13


def test_erren_waits(client: FlaskClient, spec: dict[str, Any]) -> None:
    response = client.post("/v1/rulesets/erren/waits", json={
        "hand": "123m456m123p55s78m", "context": {"win_type": "discard", "discarder": 1}})
    validate_live(spec, "/v1/rulesets/{ruleset}/waits", "post", response)
    body = response.get_json()
    # 3m: 12-3 is an edge, but 45-3 (123 345 678) is two-sided: 平和 too.
    assert [(w["tile"], w["fan_total"]) for w in body["waits"]] == [("3m", 2), ("6m", 2),
                                                                    ("9m", 2)]
    assert all(w["value"] == 2 for w in body["waits"])


@pytest.mark.parametrize("rid", ["erren", "erren-gb"])
@pytest.mark.parametrize(("field", "seat"), [("winner", 2), ("discarder", 2), ("dealer", 3)])
def test_a_seat_beyond_two_players_is_refused(client: FlaskClient, rid: str, field: str,
                                              seat: int) -> None:
    context: dict[str, Any] = {"win_type": "discard", "discarder": 1, field: seat}
    for op in ("score", "waits"):
        hand = HAND if op == "score" else HAND[:-2]
        body = problem(client.post(f"/v1/rulesets/{rid}/{op}",
                                   json={"hand": hand, "context": context}),
                       422, "seat_out_of_range")
        assert "0..1 (2 players)" in body["detail"]


def test_rounds_are_not_settled(client: FlaskClient) -> None:
    for rid in ("erren", "erren-gb"):
        problem(client.post(f"/v1/rulesets/{rid}/settle", json={"events": []}), 422,
                "settle_not_supported")
