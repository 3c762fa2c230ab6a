"""POST /v1/rulesets/{ruleset}/waits: the endpoint, each hand form, every error path, its
examples in openapi.yaml, agreement with /score, and realistic fuzzing of every rule set."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.api.routes import RULESETS_KEY
from app.service.problems import HAND_ERROR_CODES
from app.service.tiles.request_schemas import load_waits_request
from tests.api.helpers import REPO_ROOT, problem, resolve, validate_live, validator_for
from tests.api.test_contract import _comparable
from tests.mcr_reference.generator import (
    ALL_TILES,
    format_meld,
    format_tiles,
    random_hands,
)

WAITS_OPERATION = ("/v1/rulesets/{ruleset}/waits", "post")
WAITS_URL = "/v1/rulesets/mcr/waits"
SCORE_URL = "/v1/rulesets/mcr/score"
NINE_GATES = "1112345678999m"
SELF_DRAW = {"win_type": "self_draw"}
DISCARD = {"win_type": "discard", "discarder": 2}


def post(client: FlaskClient, hand: Any, context: dict[str, Any] | None = None,
         url: str = WAITS_URL) -> Any:
    return client.post(url, json={"hand": hand, "context": context or SELF_DRAW})


def ok(client: FlaskClient, spec: dict[str, Any], hand: Any,
       context: dict[str, Any] | None = None, url: str = WAITS_URL) -> dict[str, Any]:
    response = post(client, hand, context, url)
    assert response.status_code == 200, response.get_data(as_text=True)
    validate_live(spec, *WAITS_OPERATION, response)
    body: dict[str, Any] = response.get_json()
    return body


def tiles(body: dict[str, Any]) -> list[str]:
    return [w["tile"] for w in body["waits"]]


# --- success, one case per hand form ---------------------------------------------------------

NINE_TILES = [f"{n}m" for n in range(1, 10)]


@pytest.mark.parametrize("hand", [
    pytest.param(NINE_GATES, id="notation"),
    pytest.param({"concealed": NINE_GATES}, id="object-string"),
    pytest.param({"concealed": [f"{c}m" for c in "1112345678999"], "melds": None},
                 id="object-list"),
    pytest.param({"concealed": "1112345678999m", "melds": []}, id="object-no-melds"),
    pytest.param("一万一万一万二万三万四万五万六万七万八万九万九万九万", id="chinese-names"),
])
def test_nine_gates_in_every_form(client: FlaskClient, spec: dict[str, Any], hand: Any) -> None:
    body = ok(client, spec, hand, DISCARD)
    assert body["ruleset"] == "mcr" and body["ready"] is True
    assert tiles(body) == NINE_TILES
    assert all(w["winning"] and w["fans"][0]["id"] == "nine_gates" for w in body["waits"])
    assert body["best"] == body["waits"][0]


@pytest.mark.parametrize("hand", [
    pytest.param("[123m][EEE,3]4567895m", id="notation-melds"),
    pytest.param({"concealed": "4567895m", "melds": [{"kind": "chow", "tiles": "123m"},
                                                      {"kind": "pung", "tiles": "EEE"}]},
                 id="object-melds-string"),
    pytest.param({"concealed": ["4m", "5m", "6m", "7m", "8m", "9m", "5m"],
                  "melds": [{"kind": "chow", "tiles": ["1m", "2m", "3m"], "concealed": None},
                            {"kind": "pung", "tiles": ["E", "E", "E"], "concealed": False}]},
                 id="object-melds-list"),
])
def test_one_wait_with_melds(client: FlaskClient, spec: dict[str, Any], hand: Any) -> None:
    body = ok(client, spec, hand, {"win_type": "discard", "discarder": 3})
    assert tiles(body) == ["5m"]
    assert body["waits"][0]["fan_total"] == 27
    assert body["waits"][0]["decomposition"]["melds"] == ["[123m]", "456m", "55m", "789m",
                                                          "[EEE]"]


def test_concealed_kong_forms(client: FlaskClient, spec: dict[str, Any]) -> None:
    forms = ["{5555s}123m456p99sEE", "[5555s,0]123m456p99sEE",
             {"concealed": "123m456p99sEE",
              "melds": [{"kind": "kong", "tiles": "5555s", "concealed": True}]}]
    bodies = [ok(client, spec, hand, {"win_type": "self_draw", "kong": "replacement"})
              for hand in forms]
    assert bodies[0] == bodies[1] == bodies[2]
    assert tiles(bodies[0]) == ["9s", "E"]
    assert "{5555s}" in bodies[0]["waits"][0]["decomposition"]["melds"]


def test_not_ready_and_below_minimum(client: FlaskClient, spec: dict[str, Any]) -> None:
    body = ok(client, spec, "1112345678m9pEE")
    assert body == {"ruleset": "mcr", "ready": False, "can_win": False, "waits": [],
                    "best": None}
    body = ok(client, spec, "123456m234p678s5s", {"win_type": "discard", "discarder": 1})
    assert body["ready"] is True and body["best"] is None and body["can_win"] is False
    assert [(w["tile"], w["winning"], w["reason"]["code"]) for w in body["waits"]] == [
        ("5s", False, "below_minimum"), ("8s", False, "below_minimum")]


def test_context_applies_to_every_tile(client: FlaskClient, spec: dict[str, Any]) -> None:
    plain = ok(client, spec, NINE_GATES, DISCARD)
    rich = ok(client, spec, NINE_GATES, {"win_type": "self_draw", "flowers": ["1f", "2f"],
                                         "last_tile": True})
    for a, b in zip(plain["waits"], rich["waits"], strict=True):
        ids = {f["id"] for f in b["fans"]}
        assert {"last_tile_draw", "flower_tiles"} <= ids
        assert b["fan_total"] > a["fan_total"]


@pytest.mark.parametrize("ruleset", ["mcr", "sichuan", "chengdu"])
def test_every_rule_set(client: FlaskClient, spec: dict[str, Any], app: Flask,
                        ruleset: str) -> None:
    if ruleset not in app.extensions[RULESETS_KEY]:
        pytest.skip(f"no rule set {ruleset}")
    body = ok(client, spec, NINE_GATES, SELF_DRAW, f"/v1/rulesets/{ruleset}/waits")
    assert body["ruleset"] == ruleset
    assert tiles(body) == NINE_TILES
    for w in body["waits"]:
        hand = {"concealed": NINE_GATES + w["tile"], "win_tile": w["tile"]}
        scored = client.post(f"/v1/rulesets/{ruleset}/score",
                             json={"hand": hand, "context": SELF_DRAW}).get_json()
        assert w == {"tile": w["tile"], **{k: scored[k] for k in w if k != "tile"}}


# --- the same totals as /score --------------------------------------------------------------

def _waiting_request(seed: int, drop: int, junk: int | None) -> dict[str, Any] | None:
    """A random legal MCR hand minus one standing tile (and maybe one tile swapped for junk),
    as a waits request in whole-hand notation, with the hand's own context."""
    case = random_hands(1, seed)[0]
    standing = list(case.hand.concealed)
    del standing[drop % len(standing)]
    if junk is not None:
        standing[seed % len(standing)] = junk
    if max(standing.count(t) + sum(m.tiles.count(t) for m in case.hand.melds)
           for t in standing) > 4:
        return None
    ctx = case.ctx
    context: dict[str, Any] = {
        "win_type": ctx.win_type, "discarder": ctx.discarder, "winner": ctx.winner,
        "dealer": ctx.dealer, "seat_wind": "ESWN"[ctx.seat_wind],
        "round_wind": "ESWN"[ctx.round_wind], "flowers": ctx.flowers,
        "last_tile": ctx.last_tile, "last_of_kind": ctx.last_of_kind, "kong": ctx.kong,
    }
    hand = "".join(format_meld(m) for m in case.hand.melds) + format_tiles(standing)
    return {"hand": hand, "context": context, "melds": "".join(format_meld(m)
                                                               for m in case.hand.melds),
            "standing": format_tiles(standing)}


@settings(max_examples=40, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(seed=st.integers(0, 2**32 - 1), drop=st.integers(0, 13),
       junk=st.one_of(st.none(), st.sampled_from(ALL_TILES)))
def test_every_wait_is_what_score_answers(app: Flask, seed: int, drop: int,
                                          junk: int | None) -> None:
    request = _waiting_request(seed, drop, junk)
    if request is None:
        return
    with app.test_client() as client:
        response = client.post(WAITS_URL, json={"hand": request["hand"],
                                                "context": request["context"]})
        assert response.status_code == 200, response.get_data(as_text=True)
        body = response.get_json()
        for w in body["waits"]:
            # The completed hand in notation: the waiting tile written last wins.
            hand = request["melds"] + request["standing"] + w["tile"]
            scored = client.post(SCORE_URL, json={"hand": hand, "context": request["context"]})
            if scored.status_code == 422:
                # Only a context the completed hand contradicts: 抢杠和 on a held tile.
                assert scored.get_json()["code"] == "inconsistent_context"
                assert (request["context"]["kong"] == "robbed"  # 抢杠和 or 和绝张 on a held tile
                        or request["context"].get("last_of_kind") is True)
                assert not any(f["id"] == "robbing_the_kong" for f in w["fans"])
                continue
            result = scored.get_json()
            assert w == {"tile": w["tile"], **{k: result[k] for k in w if k != "tile"}}
    assert body["ready"] == bool(body["waits"])


def test_acceptance_nine_gates_totals_equal_score(client: FlaskClient) -> None:
    """`waits` for a 13-tile MCR hand lists each winning tile with the total /score gives."""
    body = post(client, NINE_GATES, DISCARD).get_json()
    for w in body["waits"]:
        scored = client.post(SCORE_URL, json={"hand": NINE_GATES + w["tile"],
                                              "context": DISCARD}).get_json()
        assert (w["fan_total"], w["value"]) == (scored["fan_total"], scored["value"])
    assert [w["fan_total"] for w in body["waits"]] == [106, 92, 89, 89, 91, 89, 89, 92, 106]


# --- errors ----------------------------------------------------------------------------------

def test_malformed_json(client: FlaskClient, spec: dict[str, Any]) -> None:
    response = client.post(WAITS_URL, data=b"{", content_type="application/json")
    problem(response, 400, "malformed_json")
    validate_live(spec, *WAITS_OPERATION, response)


def test_unknown_ruleset(client: FlaskClient, spec: dict[str, Any]) -> None:
    response = post(client, NINE_GATES, url="/v1/rulesets/riichi/waits")
    assert "mcr" in problem(response, 404, "unknown_ruleset")["detail"]
    validate_live(spec, *WAITS_OPERATION, response)


def test_payload_too_large(client: FlaskClient, spec: dict[str, Any]) -> None:
    response = client.post(WAITS_URL, data=b" " * 70000, content_type="application/json")
    problem(response, 413, "payload_too_large")
    validate_live(spec, *WAITS_OPERATION, response)


def test_unsupported_media_type(client: FlaskClient, spec: dict[str, Any]) -> None:
    response = client.post(WAITS_URL, data=json.dumps({"hand": NINE_GATES,
                                                       "context": SELF_DRAW}),
                           content_type="text/plain")
    problem(response, 415, "unsupported_media_type")
    validate_live(spec, *WAITS_OPERATION, response)


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE"])
def test_method_not_allowed(client: FlaskClient, method: str) -> None:
    response = client.open(WAITS_URL, method=method)
    problem(response, 405, "method_not_allowed")
    assert {m.strip() for m in response.headers["Allow"].split(",")} == {"POST", "OPTIONS"}


INVALID: list[tuple[str, dict[str, Any], list[tuple[str, str]]]] = [
    ("win_tile given", {"hand": {"concealed": NINE_GATES, "win_tile": "5m"},
                        "context": SELF_DRAW}, [("/hand/win_tile", "unknown_field")]),
    ("win_tile null", {"hand": {"concealed": NINE_GATES, "win_tile": None},
                       "context": SELF_DRAW}, [("/hand/win_tile", "unknown_field")]),
    ("empty object", {}, [("/hand", "required"), ("/context", "required")]),
    ("unknown top-level field", {"hand": NINE_GATES, "context": SELF_DRAW, "tile": "5m"},
     [("/tile", "unknown_field")]),
    ("unknown hand field", {"hand": {"concealed": NINE_GATES, "tiles": []},
                            "context": SELF_DRAW}, [("/hand/tiles", "unknown_field")]),
    ("hand a number", {"hand": 13, "context": SELF_DRAW}, [("/hand", "invalid_type")]),
    ("concealed missing", {"hand": {"melds": []}, "context": SELF_DRAW},
     [("/hand/concealed", "required")]),
    ("notation too long", {"hand": "1m" * 101, "context": SELF_DRAW},
     [("/hand", "invalid_value")]),
    ("bad meld kind", {"hand": {"concealed": NINE_GATES, "melds": [{"kind": "chi",
                                                                    "tiles": "123m"}]},
                       "context": SELF_DRAW}, [("/hand/melds/0/kind", "invalid_value")]),
    ("win_type missing", {"hand": NINE_GATES, "context": {}},
     [("/context/win_type", "required")]),
    ("seat a string", {"hand": NINE_GATES, "context": {"win_type": "self_draw",
                                                       "winner": "0"}},
     [("/context/winner", "invalid_type")]),
]


@pytest.mark.parametrize("body,expected", [pytest.param(b, e, id=n) for n, b, e in INVALID])
def test_invalid_request(client: FlaskClient, spec: dict[str, Any], body: dict[str, Any],
                         expected: list[tuple[str, str]]) -> None:
    response = client.post(WAITS_URL, json=body)
    result = problem(response, 422, "invalid_request")
    validate_live(spec, *WAITS_OPERATION, response)
    assert [(e["pointer"], e["code"]) for e in result["errors"]] == expected
    # The document refuses it too.
    assert not validator_for(spec, "/components/schemas/WaitsRequest").is_valid(body)


def test_win_tile_message_says_why(client: FlaskClient) -> None:
    result = problem(post(client, {"concealed": NINE_GATES, "win_tile": "5m"}), 422,
                     "invalid_request")
    assert "no winning tile" in result["errors"][0]["message"]


def _ctx(**fields: Any) -> dict[str, Any]:
    return {"hand": NINE_GATES, "context": {"win_type": "self_draw", **fields}}


HAND_ERRORS: list[tuple[str, dict[str, Any], str, int | None]] = [
    ("invalid_notation", {"hand": "[123m1112345678m", "context": SELF_DRAW}, "/hand", 0),
    ("unknown_tile", {"hand": "111234567899m0m", "context": SELF_DRAW}, "/hand", 13),
    ("unknown_tile", {"hand": {"concealed": ["1m", "0m"]}, "context": SELF_DRAW},
     "/hand/concealed/1", 0),
    ("flower_in_hand", {"hand": "111234567899m1f", "context": SELF_DRAW}, "/hand", 13),
    ("illegal_meld", {"hand": "[124m]1112345678m", "context": SELF_DRAW}, "/hand", 0),
    ("illegal_meld", {"hand": {"concealed": "1112345678m",
                               "melds": [{"kind": "pung", "tiles": "123m"}]},
                      "context": SELF_DRAW}, "/hand/melds/0/tiles", None),
    ("too_many_melds", {"hand": "[111m][222m][333m][444m][555m]5p", "context": SELF_DRAW},
     "/hand", None),
    ("too_many_melds", {"hand": "[111m][222m][333m][444m][555m]", "context": SELF_DRAW},
     "/hand", None),
    ("too_many_copies", {"hand": "11111m23456789m", "context": SELF_DRAW}, "/hand", None),
    ("too_many_copies", {"hand": {"concealed": "1m23456789m1p",
                                  "melds": [{"kind": "kong", "tiles": "1111m"}]},
                         "context": SELF_DRAW}, "/hand/melds/0/tiles", None),
    ("wrong_tile_count", {"hand": NINE_GATES + "5m", "context": SELF_DRAW}, "/hand", None),
    ("wrong_tile_count", {"hand": {"concealed": "123m"}, "context": SELF_DRAW},
     "/hand/concealed", None),
    ("wrong_tile_count", {"hand": "[123m][EEE]", "context": SELF_DRAW}, "/hand", None),
    ("seat_out_of_range", _ctx(winner=4), "/context/winner", None),
    ("flowers_out_of_range", _ctx(flowers=9), "/context/flowers", None),
    ("not_a_flower", _ctx(flowers=["1m"]), "/context/flowers/0", 0),
    ("inconsistent_context", {"hand": NINE_GATES, "context": {"win_type": "discard"}},
     "/context/discarder", None),
    ("inconsistent_context", _ctx(kong="robbed"), "/context/kong", None),
    ("inconsistent_context", _ctx(kong="replacement"), "/context/kong", None),
    ("unknown_option", _ctx(options={"x": 1}), "/context/options/x", None),
    ("wilds_not_supported", _ctx(wild_indicator="5m"), "/context/wild_indicator", None),
]


@pytest.mark.parametrize("code,body,pointer,position",
                         [pytest.param(*case, id=f"{case[0]}-{i}")
                          for i, case in enumerate(HAND_ERRORS)])
def test_hand_errors(client: FlaskClient, spec: dict[str, Any], code: str,
                     body: dict[str, Any], pointer: str, position: int | None) -> None:
    response = client.post(WAITS_URL, json=body)
    result = problem(response, 422, code)
    validate_live(spec, *WAITS_OPERATION, response)
    assert len(result["errors"]) == 1
    error = result["errors"][0]
    assert (error["code"], error["pointer"]) == (code, pointer)
    assert error.get("position") == position
    assert error["message"] == result["detail"]


def test_wrong_tile_count_names_the_numbers(client: FlaskClient) -> None:
    detail = problem(post(client, NINE_GATES + "5m"), 422, "wrong_tile_count")["detail"]
    assert "14 standing tiles" in detail and "13 are needed with 0 declared melds" in detail
    detail = problem(post(client, "[123m][EEE]"), 422, "wrong_tile_count")["detail"]
    assert "no standing tiles" in detail and "7 are needed with 2 declared melds" in detail
    detail = problem(post(client, {"concealed": "123m", "melds": [
        {"kind": "pung", "tiles": "EEE"}]}), 422, "wrong_tile_count")["detail"]
    assert "3 standing tiles" in detail and "10 are needed with 1 declared meld " in detail


def test_robbed_is_judged_per_tile(client: FlaskClient, spec: dict[str, Any]) -> None:
    """抢杠和 while holding a copy of the tile cannot be refused up front (there is no tile
    yet): the held tile simply scores no 抢杠和."""
    body = ok(client, spec, "34567m234p678sEE",
              {"win_type": "discard", "discarder": 1, "kong": "robbed"})
    robbed = {w["tile"]: any(f["id"] == "robbing_the_kong" for f in w["fans"])
              for w in body["waits"]}
    assert robbed == {"2m": True, "5m": False, "8m": True}


@pytest.mark.parametrize("options,code", [({"cap": 4}, "invalid_option"),
                                          ({"nope": 1}, "unknown_option")])
def test_options(options_client: FlaskClient, options: dict[str, Any], code: str) -> None:
    body = {"hand": NINE_GATES, "context": {"win_type": "self_draw", "options": options}}
    problem(options_client.post(WAITS_URL, json=body), 422, code)
    body["context"]["options"] = {"cap": 2, "strict": True, "style": "b"}
    assert options_client.post(WAITS_URL, json=body).status_code == 200


def test_every_hand_error_code_is_covered() -> None:
    """Every domain code a waits request can cause is above; win_tile_missing cannot happen
    (no winning tile), invalid_field (a flower as the wild indicator) is read as in a score
    request (tests/api/test_errors.py)."""
    from tests.api.test_card_requests import WAITS_CODES  # the word-card codes, on hengyang

    covered = {code for code, *_ in HAND_ERRORS} | {"invalid_option"} | WAITS_CODES
    # A word-card waiting hand has no winning card, nor (in these cases) a bad card code.
    assert set(HAND_ERROR_CODES) - covered == {"invalid_field", "win_tile_missing",
                                                "win_card_missing", "unknown_card"}


def test_unexpected_exception_is_a_problem_500(client: FlaskClient, spec: dict[str, Any],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any) -> Any:
        raise RuntimeError("engine bug")

    monkeypatch.setattr("app.scoring.waits.waits", broken)
    response = post(client, NINE_GATES)
    problem(response, 500, "internal_error")
    validate_live(spec, *WAITS_OPERATION, response)


# --- the examples in openapi.yaml are real --------------------------------------------------

def _operation(spec: dict[str, Any]) -> dict[str, Any]:
    path, method = WAITS_OPERATION
    op: dict[str, Any] = spec["paths"][path][method]
    return op


def _request_examples(spec: dict[str, Any]) -> dict[str, Any]:
    content = _operation(spec)["requestBody"]["content"]["application/json"]
    return {name: ex["value"] for name, ex in content["examples"].items()}


def _response_examples(spec: dict[str, Any]) -> dict[str, tuple[int, Any]]:
    out = {}
    for status, response in _operation(spec)["responses"].items():
        for content in resolve(spec, response).get("content", {}).values():
            for name, ex in content.get("examples", {}).items():
                out[name] = (int(status), ex["value"])
    return out


def test_operation_is_documented(spec: dict[str, Any]) -> None:
    op = _operation(spec)
    assert op["operationId"] == "listWaits"
    assert op["tags"] and op["summary"] and op["description"]
    assert {"200", "400", "404", "413", "415", "422", "500"} <= set(op["responses"])


def test_waits_examples_are_real(client: FlaskClient, spec: dict[str, Any]) -> None:
    """Each request example answers the response example of the same name, exactly."""
    requests = _request_examples(spec)
    responses = _response_examples(spec)
    paired = 0
    for name, body in requests.items():
        response = client.post(WAITS_URL, json=body)
        validate_live(spec, *WAITS_OPERATION, response)
        if name == "notation":  # the same hand as one_wait, written as one string
            name = "one_wait"
        assert name in responses, f"request example {name} has no response example"
        status, expected = responses[name]
        assert response.status_code == status, (name, response.get_json())
        assert _waits_comparable(status, response.get_json()) == _waits_comparable(
            status, expected), name
        paired += 1
    assert paired == len(requests) >= 6
    assert {"nine_gates", "one_wait", "not_ready"} <= set(requests)
    # The response examples without a request example of their own.
    with_win_tile = {"hand": {"concealed": NINE_GATES, "win_tile": "5m"}, "context": SELF_DRAW}
    response = client.post(WAITS_URL, json=with_win_tile)
    status, expected = responses["with_win_tile"]
    assert response.status_code == status
    live = response.get_json()
    assert live.pop("request_id") == response.headers["X-Request-ID"]
    assert live == expected  # the message too: it is the point


def _waits_comparable(status: int, body: dict[str, Any]) -> Any:
    if status >= 400:
        return _comparable(status, body)
    out = dict(body)
    out["waits"] = [_comparable(200, w) for w in body["waits"]]
    out["best"] = _comparable(200, body["best"]) if body["best"] else None
    return out


def test_nine_gates_example_matches_the_acceptance(spec: dict[str, Any]) -> None:
    _, body = _response_examples(spec)["nine_gates"]
    assert [w["tile"] for w in body["waits"]] == NINE_TILES
    assert all(w["fans"][0]["name"] == "九莲宝灯" for w in body["waits"])


def test_documented_request_schema_and_marshmallow_agree(spec: dict[str, Any]) -> None:
    validator = validator_for(spec, "/components/schemas/WaitsRequest")
    for body in _request_examples(spec).values():
        assert validator.is_valid(body)
        load_waits_request(body)

    from tests.schema_strategies import from_schema

    @settings(max_examples=100, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(from_schema({"$ref": "#/components/schemas/WaitsRequest",
                        "components": spec["components"]}))
    def check(body: dict[str, Any]) -> None:
        load_waits_request(json.loads(json.dumps(body)))

    check()


# --- realistic fuzzing of every rule set ----------------------------------------------------

SUITS = "mps"
HONOURS = "ESWNCFP"
TILE_CODES = [f"{r}{s}" for s in SUITS for r in range(1, 10)] + list(HONOURS)


@st.composite
def waiting_bodies(draw: st.DrawFn) -> dict[str, Any]:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    n_melds = draw(st.integers(0, 4))
    melds = []
    for _ in range(n_melds):
        kind = rng.choice(["chow", "pung", "kong"])
        if kind == "chow":
            start, suit = rng.randint(1, 7), rng.choice(SUITS)
            tiles = [f"{start + i}{suit}" for i in range(3)]
        else:
            tiles = [rng.choice(TILE_CODES)] * (4 if kind == "kong" else 3)
        melds.append({"kind": kind, "tiles": tiles,
                      "concealed": kind == "kong" and rng.random() < 0.5})
    # Mostly one or two suits, so that the 108-tile rule sets see real hands too.
    pool = rng.choice([TILE_CODES, TILE_CODES[:27], TILE_CODES[:18], TILE_CODES[:9]])
    standing = [rng.choice(pool) for _ in range(13 - 3 * n_melds)]
    if draw(st.booleans()):
        hand: Any = {"concealed": standing, "melds": melds}
    else:
        hand = "".join(("{%s}" if m["concealed"] else "[%s]") % "".join(m["tiles"])
                       for m in melds) + "".join(standing)
    win_type = rng.choice(["self_draw", "discard"])
    context: dict[str, Any] = {
        "win_type": win_type,
        "kong": rng.choice([None] * 6 + ["replacement", "robbed", "after_kong_discard"]),
        "last_tile": rng.random() < 0.2, "last_of_kind": rng.random() < 0.2,
        "seat_wind": rng.choice("ESWN"), "round_wind": rng.choice("ESWN"),
        "flowers": rng.randint(0, 8),
    }
    if win_type == "discard":
        context["discarder"] = rng.randint(1, 3)
    return {"hand": hand, "context": context}


@settings(max_examples=150, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(body=waiting_bodies(), ruleset=st.sampled_from(["mcr", "sichuan", "chengdu"]))
def test_realistic_waits_requests_never_fail(app: Flask, spec: dict[str, Any],
                                             body: dict[str, Any], ruleset: str) -> None:
    if ruleset not in app.extensions[RULESETS_KEY]:
        ruleset = "mcr"
    with app.test_client() as client:
        response = client.post(f"/v1/rulesets/{ruleset}/waits", json=body)
    assert response.status_code in (200, 422), response.get_data(as_text=True)
    validate_live(spec, *WAITS_OPERATION, response)
    result = response.get_json()
    if response.status_code == 422:
        assert result["code"] in HAND_ERROR_CODES, result
        return
    assert result["ready"] == bool(result["waits"])
    assert len({w["tile"] for w in result["waits"]}) == len(result["waits"])
    if result["best"] is not None:
        assert result["best"] in result["waits"] and result["best"]["winning"]


def test_the_documented_example_is_real(client: FlaskClient) -> None:
    """The curl example of docs/api.md's waits section answers exactly the output shown."""
    text = (REPO_ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    section = text[text.index("## Waits"):]
    body = json.loads(re.search(r"-d '(\{.*\})'", section).group(1))  # type: ignore[union-attr]
    shown = json.loads(section.split("```json\n", 1)[1].split("```", 1)[0])
    assert client.post(WAITS_URL, json=body).get_json() == shown
