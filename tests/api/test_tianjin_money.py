"""The tianjin rule set's money over HTTP: its options as `GET /v1/rulesets/tianjin` documents
them, per-seat option values and their 422s (code and pointer, in a score and in a settle
request), the tables and the dealer's stakes in a score, and a settled round with 铲."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from marshmallow import ValidationError

from app.service.tiles.request_schemas import load_score_request
from app.service.tiles.settle_schemas import load_settle_request
from tests.api.helpers import problem, validate_live, validator_for

SCORE = "/v1/rulesets/tianjin/score"
SETTLE = "/v1/rulesets/tianjin/settle"
SU = "234m678m22s35s777p4s"  # indicator 3p, no wild in hand, 4s drawn: 素 = 2


def context(**extra: Any) -> dict[str, Any]:
    return {"win_type": "self_draw", "wild_indicator": "3p", **extra}


def score(client: FlaskClient, hand: str = SU, **extra: Any) -> Any:
    return client.post(SCORE, json={"hand": hand, "context": context(**extra)})


def test_every_option_is_documented(client: FlaskClient, spec: dict[str, Any]) -> None:
    response = client.get("/v1/rulesets/tianjin")
    validate_live(spec, "/v1/rulesets/{ruleset}", "get", response)
    body = response.get_json()
    options = {o["name"]: o for o in body["options"]}
    assert list(options) == ["base", "table", "dealer_sits", "pulls", "min_hand",
                             "golden_kong", "drawn_kongs_stand"]
    for option in options.values():
        assert option["description"] and "default" in option and option["type"]
    assert options["pulls"] == {**options["pulls"], "type": "per_seat", "default": [0, 0, 0, 0],
                                "minimum": 0, "maximum": 2, "dealer_entry": 0}
    assert options["table"]["choices"] == ["default", "tjmj"]
    assert options["min_hand"]["choices"] == ["any", "no_plain", "no_plain_or_wild_wait"]
    assert options["golden_kong"]["choices"] == ["off", 4]
    assert (options["dealer_sits"]["type"], options["dealer_sits"]["default"]) == ("bool", False)
    assert body["payment"]["scheme"] == "points"
    assert body["payment"]["params"]["tables"]["tjmj"] == {
        "doubling": False, "add": {"zhuo_wu": 3, "long": 4, "ben_hun_long": 4},
        "times": {"hun_diao": 2, "su": 2, "gang_kai": 2, "ben_hun_long": 2}}
    assert [r["when"] for r in body["fan_requirements"]] == [
        {"option": "min_hand", "in": ["no_plain", "no_plain_or_wild_wait"]},
        {"option": "min_hand", "in": ["no_plain_or_wild_wait"]}]
    assert body["settlement"]["win_ends_round"] is True


def test_the_stakes_and_the_tables(client: FlaskClient, spec: dict[str, Any]) -> None:
    response = score(client, "123m44m789m777pEE5m", wild_indicator="3m", winner=2, dealer=1,
                     options={"table": "tjmj", "dealer_sits": True, "pulls": [2, 0, 1, 0]})
    validate_live(spec, "/v1/rulesets/{ruleset}/score", "post", response)
    body = response.get_json()
    assert (body["fan_total"], body["multiplier"], body["value"]) == (5, 28, 28)
    # The dealer (seat 1) pays 28 × 2 (坐庄) × 2 (seat 2 pulls once); seat 0's two pulls
    # concern the dealer only; seats 0 and 3 pay 28.
    assert body["payments"]["net"] == [-28, -112, 168, -28]


@pytest.mark.parametrize(("pulls", "dealer", "pointer", "words"), [
    ([0, 0, 3, 0], 0, "/context/options/pulls/2", "entry 2 (seat 2) must be at most 2"),
    ([0, -1, 0, 0], 0, "/context/options/pulls/1", "must be at least 0"),
    ([1, 0, 0, 0], 0, "/context/options/pulls/0", "seat 0 is the dealer (context.dealer)"),
    ([0, 0, 2, 0], 2, "/context/options/pulls/2", "the dealer's own entry is always 0"),
    ([0, 0, 0], 0, "/context/options/pulls", "one integer per seat: 4 entries"),
    ([0, 0, 0, 0, 0], 0, "/context/options/pulls", "one integer per seat"),
    (2, 0, "/context/options/pulls", "one integer per seat"),
    # The schema takes strings and nulls in a per-seat list (an option with choices, 定缺):
    # the rule set's option refuses them here.
    ([0, 0, "1", 0], 0, "/context/options/pulls/2", "entry 2 (seat 2) must be an integer"),
    ([0, None, 0, 0], 0, "/context/options/pulls/1", "entry 1 (seat 1) must be an integer"),
])
def test_a_bad_per_seat_value_is_invalid_option(client: FlaskClient, spec: dict[str, Any],
                                                pulls: Any, dealer: int, pointer: str,
                                                words: str) -> None:
    response = score(client, dealer=dealer, options={"pulls": pulls})
    validate_live(spec, "/v1/rulesets/{ruleset}/score", "post", response)
    body = problem(response, 422, "invalid_option")
    assert body["errors"][0]["pointer"] == pointer
    assert words in body["detail"]


@pytest.mark.parametrize(("options", "pointer", "code"), [
    ({"pulls": [0, 0, 1.5, 0]}, "/context/options/pulls/2", "invalid_type"),
    ({"pulls": [0, True, 0, 0]}, "/context/options/pulls/1", "invalid_type"),
    ({"pulls": [0] * 9}, "/context/options/pulls", "invalid_value"),
    ({"pulls": [[0]]}, "/context/options/pulls/0", "invalid_type"),
    ({"pulls": [0, 0, "x" * 65, 0]}, "/context/options/pulls/2", "invalid_value"),
    ({"pulls": {"0": 1}}, "/context/options/pulls", "invalid_type"),
])
def test_a_list_of_non_integers_is_refused_by_the_schema(
        client: FlaskClient, spec: dict[str, Any], options: dict[str, Any], pointer: str,
        code: str) -> None:
    """The schema (and the document) take a list option of at most 8 entries, each an
    integer, a short string or null; anything else is `invalid_request`, pointing at the
    item."""
    body = {"hand": SU, "context": context(options=options)}
    response = client.post(SCORE, json=body)
    validate_live(spec, "/v1/rulesets/{ruleset}/score", "post", response)
    errors = problem(response, 422, "invalid_request")["errors"]
    assert (errors[0]["pointer"], errors[0]["code"]) == (pointer, code)
    assert not validator_for(spec, "/components/schemas/ScoreRequest").is_valid(body)


def test_a_list_of_integers_passes_both_schemas(spec: dict[str, Any]) -> None:
    body = {"hand": SU, "context": context(options={"pulls": [0, 1, 2, 0]})}
    load_score_request(body)
    assert validator_for(spec, "/components/schemas/ScoreRequest").is_valid(body)


def test_a_list_is_only_for_a_per_seat_option(client: FlaskClient) -> None:
    body = problem(score(client, options={"dealer_sits": [1, 0, 0, 0]}), 422, "invalid_option")
    assert body["errors"][0]["pointer"] == "/context/options/dealer_sits"
    assert "must be true or false" in body["detail"]
    body = problem(client.post("/v1/rulesets/sichuan/score", json={
        "hand": "111m444m777s22s55s5s",
        "context": {"win_type": "self_draw", "options": {"base": [1, 2, 3, 4]}}}),
        422, "invalid_option")
    assert body["errors"][0]["pointer"] == "/context/options/base"


def test_integral_floats_in_a_list_are_integers(client: FlaskClient) -> None:
    wire = json.dumps({"hand": SU, "context": context(winner=1, options={
        "dealer_sits": True, "pulls": [0, 1.0, 0, 0]})})
    response = client.post(SCORE, data=wire, content_type="application/json")
    assert response.status_code == 200
    assert response.get_json()["payments"]["net"] == [-8, 12, -2, -2]


def test_min_hand_over_http(client: FlaskClient) -> None:
    plain = "234m678m22s35s77p4p4s"  # 提溜
    body = score(client, plain, options={"min_hand": "no_plain"}).get_json()
    assert (body["winning"], body["reason"]["code"], body["payments"]) == (
        False, "below_minimum", None)
    assert score(client, plain).get_json()["value"] == 1


def test_waits_use_the_options_too(client: FlaskClient) -> None:
    """The waits of a plain hand under min_hand no_plain list the plain completions as not
    winning."""
    response = client.post("/v1/rulesets/tianjin/waits", json={
        "hand": "234m678m22s35s77p4p",
        "context": context(options={"min_hand": "no_plain", "pulls": [0, 1, 1, 1]})})
    assert response.status_code == 200
    waits = {w["tile"]: w for w in response.get_json()["waits"]}
    assert waits["4s"]["winning"] is False
    assert waits["4s"]["reason"]["code"] == "below_minimum"


# --- settle ---------------------------------------------------------------------------------

SEED_ROUND: dict[str, Any] = {
    "dealer": 0, "wild_indicator": "3p",
    "options": {"dealer_sits": True, "pulls": [0, 0, 1, 2]},
    "events": [{"type": "follow_dealer"}],
}


def test_the_seed_example_of_chan_over_http(client: FlaskClient, spec: dict[str, Any]) -> None:
    response = client.post(SETTLE, json=SEED_ROUND)
    validate_live(spec, "/v1/rulesets/{ruleset}/settle", "post", response)
    body = response.get_json()
    assert body["transfers"] == [
        {"from": 0, "to": s, "amount": a, "reason": "follow_dealer", "event": 0}
        for s, a in ((1, 2), (2, 4), (3, 8))]
    assert body["net"] == [-14, 2, 4, 8]


@pytest.mark.parametrize(("body", "code", "pointer"), [
    ({**SEED_ROUND, "options": {"pulls": [1, 0, 0, 0]}}, "invalid_option", "/options/pulls/0"),
    ({**SEED_ROUND, "dealer": 3}, "invalid_option", "/options/pulls/3"),
    ({**SEED_ROUND, "dealer": 7}, "seat_out_of_range", "/dealer"),
    ({**SEED_ROUND, "wild_indicator": "x"}, "unknown_tile", "/wild_indicator"),
    ({**SEED_ROUND, "events": [{"type": "follow_dealer"}] * 2}, "inconsistent_event",
     "/events/1/type"),
])
def test_settle_refusals(client: FlaskClient, spec: dict[str, Any], body: dict[str, Any],
                         code: str, pointer: str) -> None:
    response = client.post(SETTLE, json=body)
    validate_live(spec, "/v1/rulesets/{ruleset}/settle", "post", response)
    assert problem(response, 422, code)["errors"][0]["pointer"] == pointer


@pytest.mark.parametrize(("body", "pointer"), [
    ({"events": [{"type": "follow_dealer", "seat": 0}]}, "/events/0/seat"),
    ({"dealer": "0", "events": []}, "/dealer"),
    ({"wild_indicator": 3, "events": []}, "/wild_indicator"),
    ({"events": [{"type": "chan"}]}, "/events/0/type"),
])
def test_settle_schema_refusals(client: FlaskClient, spec: dict[str, Any],
                                body: dict[str, Any], pointer: str) -> None:
    """Refused by the schema and by the document alike."""
    response = client.post(SETTLE, json=body)
    errors = problem(response, 422, "invalid_request")["errors"]
    assert errors[0]["pointer"] == pointer
    with pytest.raises(ValidationError):
        load_settle_request(body)
    assert not validator_for(spec, "/components/schemas/SettleRequest").is_valid(body)


def test_the_round_fields_pass_both_schemas(spec: dict[str, Any]) -> None:
    body = {**SEED_ROUND, "wilds": None}
    load_settle_request(body)
    assert validator_for(spec, "/components/schemas/SettleRequest").is_valid(body)


def test_sichuan_refuses_follow_dealer(client: FlaskClient) -> None:
    response = client.post("/v1/rulesets/sichuan/settle", json={"events": [
        {"type": "follow_dealer"}]})
    assert problem(response, 422, "invalid_field")["errors"][0]["pointer"] == "/events/0/type"
