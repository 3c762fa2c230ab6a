"""Every endpoint's success path, against the real app and the real rule sets."""

from __future__ import annotations

import copy
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from app import __version__
from app.api.routes import RULESETS_KEY
from tests.api.helpers import (
    NINE_GATES_REQUEST,
    NINE_GATES_RESPONSE,
    OPENAPI_FILE,
    SCORE_URL,
)


def test_healthz(client: FlaskClient, app: Flask) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.get_json() == {"status": "ok", "version": __version__,
                                   "rulesets": sorted(app.extensions[RULESETS_KEY])}
    assert "mcr" in response.get_json()["rulesets"]


def test_list_rulesets(client: FlaskClient, app: Flask) -> None:
    response = client.get("/v1/rulesets")
    assert response.status_code == 200
    listed = response.get_json()["rulesets"]
    assert [r["id"] for r in listed] == sorted(app.extensions[RULESETS_KEY])
    mcr = next(r for r in listed if r["id"] == "mcr")
    assert set(mcr) == {"id", "name", "name_en", "players", "description"}
    assert mcr["name"] == "国标麻将"
    assert mcr["players"] == 4


def test_get_ruleset_mcr(client: FlaskClient, app: Flask) -> None:
    response = client.get("/v1/rulesets/mcr")
    assert response.status_code == 200
    body = response.get_json()
    assert set(body) == {"id", "name", "name_en", "players", "description", "tiles",
                         "tile_kinds", "min_fan",
                         "max_fan", "first_turn_claims", "max_flowers", "meld_kinds",
                         "requirements", "fan_requirements", "fans", "options", "payment",
                         "settlement", "wild", "match", "limits"}
    assert body["limits"] == {"request_bytes": 65536, "batch_bytes": 2 * 1024 * 1024,
                              "match_bytes": 1024 * 1024, "batch_items": 1000,
                              "time_limit_seconds": 10.0}
    assert (body["meld_kinds"], body["requirements"], body["fan_requirements"],
            body["settlement"], body["wild"]) == (["chow", "pung", "kong"], [], [], None, None)
    assert (body["id"], body["players"], body["tiles"]) == ("mcr", 4, "standard")
    assert [k["code"] for k in body["tile_kinds"]][26:] == [
        "9s", "E", "S", "W", "N", "C", "F", "P", "1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f"]
    assert body["tile_kinds"][0] == {"code": "1m", "name": "一万", "suit": "m"}
    assert (body["min_fan"], body["max_fan"], body["max_flowers"]) == (8, None, 8)
    assert body["first_turn_claims"] is False
    ruleset = app.extensions[RULESETS_KEY]["mcr"]
    # In the rule set's order, all of them: 81 fans + 明暗杠 + 花牌.
    assert [f["id"] for f in body["fans"]] == [f.id for f in ruleset.fans]
    assert len(body["fans"]) >= 82
    by_id = {f["id"]: f for f in body["fans"]}
    assert by_id["nine_gates"] == {
        "id": "nine_gates", "name": "九莲宝灯", "name_en": "Nine Gates", "value": 88,
        "excludes": [], "description": by_id["nine_gates"]["description"],
    }
    assert by_id["nine_gates"]["description"]
    big_four = set(by_id["big_four_winds"]["excludes"])
    assert {"all_pungs", "pung_of_terminals_or_honors"} <= big_four
    ids = {f["id"] for f in body["fans"]}
    assert all(e in ids for f in body["fans"] for e in f["excludes"])
    assert body["payment"]["scheme"] == "base_plus_fan"
    assert body["payment"]["params"] == {"base": 8}
    assert body["payment"]["description"]


def test_get_ruleset_options_rendering(options_client: FlaskClient) -> None:
    body = options_client.get("/v1/rulesets/mcr").get_json()
    assert body["options"] == [
        {"name": "cap", "type": "int", "default": 0, "minimum": 0, "maximum": 3,
         "description": "A test option: an integer from 0 to 3."},
        {"name": "strict", "type": "bool", "default": False, "description": "A test switch."},
        {"name": "style", "type": "enum", "default": "a", "choices": ["a", "b"],
         "description": "A test choice."},
    ]


def test_score_nine_gates_is_the_design_response(client: FlaskClient) -> None:
    response = client.post(SCORE_URL, json=NINE_GATES_REQUEST)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    assert response.get_json() == NINE_GATES_RESPONSE
    # Keys in the documented order, Chinese names as UTF-8 rather than \u escapes.
    text = response.get_data(as_text=True)
    assert text.index('"ruleset"') < text.index('"winning"') < text.index('"payments"')
    assert "九莲宝灯" in text


def test_score_minimal_context_uses_defaults(client: FlaskClient) -> None:
    response = client.post(SCORE_URL, json={"hand": "1112345678999m5m",
                                            "context": {"win_type": "discard", "discarder": 2}})
    assert response.get_json() == NINE_GATES_RESPONSE


def test_score_nulls_mean_defaults(client: FlaskClient) -> None:
    body: dict[str, Any] = {
        "hand": {"concealed": "1112345678999m5m", "melds": None, "win_tile": None},
        "context": {"win_type": "discard", "discarder": 2, "kong": None, "last_tile": None,
                    "last_of_kind": None, "seat_wind": None, "round_wind": None,
                    "flowers": None, "wild_indicator": None, "wilds": None, "winner": None,
                    "dealer": None, "options": None},
    }
    assert client.post(SCORE_URL, json=body).get_json() == NINE_GATES_RESPONSE


def test_score_tile_spellings_agree(client: FlaskClient) -> None:
    """Tile lists, riichi honours and Chinese names read as the same hand."""
    as_list = copy.deepcopy(NINE_GATES_REQUEST)
    as_list["hand"]["concealed"] = [f"{d}m" for d in "1112345678999"] + ["5m"]
    chinese = copy.deepcopy(NINE_GATES_REQUEST)
    chinese["hand"] = "一万一万一万二万三万四万五万六万七万八万九万九万九万五万"
    for body in (as_list, chinese):
        assert client.post(SCORE_URL, json=body).get_json() == NINE_GATES_RESPONSE


def test_score_with_melds_object_and_notation_agree(client: FlaskClient) -> None:
    as_object = {
        "hand": {"concealed": "456789m55m", "win_tile": "5m",
                 "melds": [{"kind": "chow", "tiles": "123m", "concealed": False},
                           {"kind": "pung", "tiles": ["E", "E", "E"]}]},
        "context": {"win_type": "discard", "discarder": 3},
    }
    as_notation = {"hand": "[123m][EEE,3]4567895m5m",
                   "context": {"win_type": "discard", "discarder": 3}}
    first = client.post(SCORE_URL, json=as_object)
    second = client.post(SCORE_URL, json=as_notation)
    assert first.status_code == second.status_code == 200
    assert first.get_json() == second.get_json()
    body = first.get_json()
    assert body["winning"] is True
    assert body["fan_total"] == 27
    assert body["payments"]["net"] == [51, -8, -8, -35]
    assert sum(body["payments"]["net"]) == 0


def test_score_concealed_kong_notation(client: FlaskClient) -> None:
    response = client.post(SCORE_URL, json={
        "hand": "{1111m}[EEE]234567m99m", "context": {"win_type": "self_draw"}})
    assert response.status_code == 200, response.get_data(as_text=True)
    fans = {f["id"] for f in response.get_json()["fans"]}
    assert "concealed_kong" in fans


def test_score_not_winning_is_200(client: FlaskClient) -> None:
    response = client.post(SCORE_URL, json={"hand": "123456m234p678s5s5s",
                                            "context": {"win_type": "discard", "discarder": 1}})
    assert response.status_code == 200
    body = response.get_json()
    assert body["winning"] is False
    assert body["reason"]["code"] == "below_minimum"
    assert body["reason"]["message"]
    assert body["fan_total"] == 5
    assert body["payments"] is None


def test_score_no_winning_shape_is_200(client: FlaskClient) -> None:
    response = client.post(SCORE_URL, json={"hand": "13579m2468p13579s",
                                            "context": {"win_type": "self_draw"}})
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_json()
    assert body["winning"] is False
    assert body["reason"]["code"]
    assert body["payments"] is None


def test_score_accepts_json_media_type_variants(client: FlaskClient) -> None:
    import json

    data = json.dumps(NINE_GATES_REQUEST)
    for content_type in ("application/json; charset=utf-8", "application/json",
                         "application/vnd.mahjong+json"):
        response = client.post(SCORE_URL, data=data, content_type=content_type)
        assert response.status_code == 200, (content_type, response.get_data(as_text=True))


def test_score_accepts_utf8_bom(client: FlaskClient) -> None:
    import json

    data = b"\xef\xbb\xbf" + json.dumps(NINE_GATES_REQUEST).encode()
    response = client.post(SCORE_URL, data=data, content_type="application/json")
    assert response.get_json() == NINE_GATES_RESPONSE


def test_score_with_options(options_client: FlaskClient) -> None:
    body = copy.deepcopy(NINE_GATES_REQUEST)
    body["context"]["options"] = {"cap": 2, "strict": True, "style": "b"}
    response = options_client.post(SCORE_URL, json=body)
    assert response.status_code == 200, response.get_data(as_text=True)
    # Declared options that no fan, shape or payment reads are taken and change nothing: the
    # answer is the one without them.
    assert response.get_json() == options_client.post(SCORE_URL, json=NINE_GATES_REQUEST).get_json()
    assert response.get_json() == NINE_GATES_RESPONSE


def test_openapi_document_is_the_committed_file(client: FlaskClient) -> None:
    response = client.get("/openapi.yaml")
    assert response.status_code == 200
    assert response.mimetype == "application/yaml"
    assert response.get_data() == OPENAPI_FILE.read_bytes()


def test_head_and_options_are_answered(client: FlaskClient) -> None:
    assert client.head("/healthz").status_code == 200
    response = client.options(SCORE_URL)
    assert response.status_code == 200
    assert "POST" in response.headers["Allow"]
