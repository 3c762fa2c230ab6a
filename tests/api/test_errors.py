"""Every error code the API answers, each from a request that really causes it."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.service.problems import HAND_ERROR_CODES, MAX_LISTED_ERRORS, REQUEST_PROBLEMS
from tests.api.helpers import (
    NINE_GATES_REQUEST,
    NINE_GATES_RESPONSE,
    SCORE_URL,
    AppLog,
    problem,
)

SELF_DRAW = {"win_type": "self_draw"}
NINE_GATES = "1112345678999m5m"


def post_raw(client: FlaskClient, data: bytes | str, content_type: str = "application/json",
             **kwargs: Any) -> Any:
    return client.post(SCORE_URL, data=data, content_type=content_type, **kwargs)


# --- 400 malformed_json ------------------------------------------------------------------

@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b"{", id="truncated"),
        pytest.param(b"{'hand': 1}", id="single-quotes"),
        pytest.param(b'{"hand": "1m",}', id="trailing-comma"),
        pytest.param(b"\xff\xfe{}", id="not-utf8"),
        pytest.param(b'{"hand": "\xe4\xb8"}', id="truncated-utf8"),
        pytest.param(b"[]", id="array"),
        pytest.param(b'"hand"', id="string"),
        pytest.param(b"42", id="number"),
        pytest.param(b"null", id="null"),
        pytest.param(b'{"hand": NaN, "context": {}}', id="nan"),
        pytest.param(b'{"hand": Infinity, "context": {}}', id="infinity"),
        pytest.param(b'{"hand": "\\ud800", "context": {"win_type": "self_draw"}}',
                     id="lone-surrogate"),
        pytest.param(b'{"\\udfff": 1}', id="lone-surrogate-key"),
        pytest.param(b"[" * 30000 + b"]" * 30000, id="deep-nesting"),
        pytest.param(b'{"a":' * 10000 + b"1" + b"}" * 10000, id="deep-objects"),
    ],
)
def test_malformed_json(client: FlaskClient, data: bytes) -> None:
    body = problem(post_raw(client, data), 400, "malformed_json")
    assert "errors" not in body


def test_malformed_json_names_the_place(client: FlaskClient) -> None:
    body = problem(post_raw(client, b'{\n "hand": }'), 400, "malformed_json")
    assert "line 2" in body["detail"]


# --- 400 duplicate_key -------------------------------------------------------------------

_POSTS = ["/v1/rulesets/mcr/score", "/v1/rulesets/mcr/waits", "/v1/rulesets/mcr/analysis",
          "/v1/rulesets/mcr/settle", "/v1/rulesets/kawuxing/settle",
          "/v1/rulesets/mcr/score/batch", "/v1/rulesets/mcr/waits/batch",
          "/v1/rulesets/mcr/analysis/batch"]


@pytest.mark.parametrize("url", _POSTS)
@pytest.mark.parametrize(("data", "pointers"), [
    pytest.param(b'{"hand": "1112345678999m5m", "hand": "123m", "context": {}}', ["/hand"],
                 id="top"),
    pytest.param(b'{"hand": "1112345678999m5m", "context": {"win_type": "self_draw", '
                 b'"flowers": 1, "win_type": "discard"}}', ["/context/win_type"], id="nested"),
    pytest.param(b'{"requests": [{"hand": "1m"}, {"a/b": 1, "x~": [{"k": 1, "k": 1}], '
                 b'"a/b": 2}]}', ["/requests/1/a~1b", "/requests/1/x~0/0/k"],
                 id="in-a-list-escaped"),
])
def test_a_repeated_key_is_refused(client: FlaskClient, url: str, data: bytes,
                                   pointers: list[str]) -> None:
    """Both JSON parsers keep the last of a repeated key; the service refuses the body
    instead of scoring what the client may not have meant."""
    body = problem(client.post(url, data=data, content_type="application/json"), 400,
                   "duplicate_key")
    assert [e["pointer"] for e in body["errors"]] == pointers
    assert {e["code"] for e in body["errors"]} == {"duplicate_key"}
    assert pointers[0] in body["detail"]


def test_colons_inside_strings_are_no_repeated_key(client: FlaskClient) -> None:
    """A colon inside a string raises the count of colons above the count of keys: the body
    is read again, finds no repeat, and is answered as usual."""
    data = b'{"hand": "1112345678999m5m", "context": {"win_type": "self_draw"}, "x:": ":"}'
    body = problem(post_raw(client, data), 422, "invalid_request")
    assert body["errors"][0]["pointer"] == "/x:"
    data = b'{"hand": "1112345678999m5m", "context": {"win_type": "self_draw"}}'
    assert post_raw(client, data).status_code == 200


def test_the_same_key_in_two_objects_is_no_repeat(client: FlaskClient) -> None:
    data = (b'{"hand": {"concealed": "1112345678999m5m", "win_tile": "5m", "melds": []}, '
            b'"context": {"win_type": "self_draw", "options": {}}}')
    assert post_raw(client, data).status_code == 200


# --- 415 unsupported_media_type ------------------------------------------------------------

@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", "application/xml",
                                          "application/jsonx", ""])
def test_unsupported_media_type(client: FlaskClient, content_type: str) -> None:
    data = json.dumps(NINE_GATES_REQUEST)
    problem(post_raw(client, data, content_type), 415, "unsupported_media_type")


def test_missing_content_type(client: FlaskClient) -> None:
    response = client.post(SCORE_URL, data=json.dumps(NINE_GATES_REQUEST))
    problem(response, 415, "unsupported_media_type")


# --- 413 payload_too_large ------------------------------------------------------------------

def _big_json(size: int) -> bytes:
    return json.dumps({"hand": "1" * size, "context": SELF_DRAW}).encode()


def test_payload_too_large(client: FlaskClient, app: Flask) -> None:
    limit = app.config["MAX_CONTENT_LENGTH"]
    assert limit == 64 * 1024
    problem(post_raw(client, _big_json(limit)), 413, "payload_too_large")


def _padded_request(size: int) -> bytes:
    data = json.dumps(NINE_GATES_REQUEST).encode()
    return data + b" " * (size - len(data))


def test_payload_of_exactly_the_limit_is_scored(client: FlaskClient, app: Flask) -> None:
    data = _padded_request(app.config["MAX_CONTENT_LENGTH"])
    assert post_raw(client, data).get_json() == NINE_GATES_RESPONSE


def test_payload_one_byte_over_the_limit(client: FlaskClient, app: Flask) -> None:
    data = _padded_request(app.config["MAX_CONTENT_LENGTH"] + 1)
    problem(post_raw(client, data), 413, "payload_too_large")


def test_payload_too_large_even_for_wrong_media_type(client: FlaskClient) -> None:
    problem(post_raw(client, b"x" * (70 * 1024), "text/plain"), 413, "payload_too_large")


def test_content_length_claiming_too_much(client: FlaskClient) -> None:
    """The declared length alone decides: no need to read 1 GB to refuse it."""
    response = post_raw(client, b"{}", environ_overrides={"CONTENT_LENGTH": str(2**30)})
    problem(response, 413, "payload_too_large")


def test_content_length_lying_small_reads_only_that_much(client: FlaskClient) -> None:
    """A body longer than its Content-Length is cut there (and then is not valid JSON)."""
    data = json.dumps(NINE_GATES_REQUEST).encode()
    response = post_raw(client, data, environ_overrides={"CONTENT_LENGTH": "10"})
    problem(response, 400, "malformed_json")


def _chunked(client: FlaskClient, data: bytes) -> Any:
    # What gunicorn hands over for Transfer-Encoding: chunked: no Content-Length, and a stream
    # the server terminates (wsgi.input_terminated).
    return client.post(
        SCORE_URL,
        input_stream=io.BytesIO(data),
        content_type="application/json",
        headers={"Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},
    )


def test_chunked_body_over_the_limit(client: FlaskClient) -> None:
    problem(_chunked(client, _big_json(100 * 1024)), 413, "payload_too_large")


def test_chunked_body_one_byte_over_the_limit(client: FlaskClient, app: Flask) -> None:
    data = _padded_request(app.config["MAX_CONTENT_LENGTH"] + 1)
    problem(_chunked(client, data), 413, "payload_too_large")


@pytest.mark.parametrize("size", [0, 64 * 1024])
def test_chunked_body_within_the_limit_is_scored(client: FlaskClient, size: int) -> None:
    response = _chunked(client, _padded_request(size))
    assert response.get_json() == NINE_GATES_RESPONSE


# --- 404 / 405 ----------------------------------------------------------------------------

@pytest.mark.parametrize("method,url", [("GET", "/v1/rulesets/riichi"),
                                        ("POST", "/v1/rulesets/riichi/score"),
                                        ("GET", "/v1/rulesets/MCR")])
def test_unknown_ruleset(client: FlaskClient, method: str, url: str) -> None:
    body = problem(client.open(url, method=method, json=NINE_GATES_REQUEST), 404,
                   "unknown_ruleset")
    assert "mcr" in body["detail"]


@pytest.mark.parametrize("url", ["/", "/v1", "/v1/rulesets/", "/v2/rulesets",
                                 "/v1/rulesets/mcr/tenpai", "/v1/rulesets/mcr/score/x",
                                 "/static/x.css", "/healthz/"])
def test_not_found(client: FlaskClient, url: str) -> None:
    problem(client.get(url), 404, "not_found")


@pytest.mark.parametrize("method,url,allowed", [
    ("DELETE", "/v1/rulesets", {"GET", "HEAD", "OPTIONS"}),
    ("POST", "/v1/rulesets/mcr", {"GET", "HEAD", "OPTIONS"}),
    ("GET", SCORE_URL, {"POST", "OPTIONS"}),
    ("PUT", SCORE_URL, {"POST", "OPTIONS"}),
    ("POST", "/healthz", {"GET", "HEAD", "OPTIONS"}),
    ("PATCH", "/openapi.yaml", {"GET", "HEAD", "OPTIONS"}),
])
def test_method_not_allowed(client: FlaskClient, method: str, url: str,
                            allowed: set[str]) -> None:
    response = client.open(url, method=method)
    problem(response, 405, "method_not_allowed")
    assert {m.strip() for m in response.headers["Allow"].split(",")} == allowed


# --- 422 invalid_request ------------------------------------------------------------------

def _ctx(**fields: Any) -> dict[str, Any]:
    return {"hand": NINE_GATES, "context": {"win_type": "self_draw", **fields}}


INVALID: list[tuple[str, dict[str, Any], list[tuple[str, str]]]] = [
    ("empty object", {}, [("/hand", "required"), ("/context", "required")]),
    ("missing win_type", {"hand": NINE_GATES, "context": {}},
     [("/context/win_type", "required")]),
    ("unknown top-level field", {**_ctx(), "extra": 1}, [("/extra", "unknown_field")]),
    ("unknown field escaped", {**_ctx(), "a/b~c": 1}, [("/a~1b~0c", "unknown_field")]),
    ("unknown context field", _ctx(seat=1), [("/context/seat", "unknown_field")]),
    ("unknown hand field", {"hand": {"concealed": NINE_GATES, "tiles": []}, "context": SELF_DRAW},
     [("/hand/tiles", "unknown_field")]),
    ("unknown meld field",
     {"hand": {"concealed": "55m", "melds": [{"kind": "pung", "tiles": "EEE", "open": True}]},
      "context": SELF_DRAW}, [("/hand/melds/0/open", "unknown_field")]),
    ("hand is a number", {"hand": 5, "context": SELF_DRAW}, [("/hand", "invalid_type")]),
    ("hand is null", {"hand": None, "context": SELF_DRAW}, [("/hand", "invalid_type")]),
    ("hand is a list", {"hand": ["1m"], "context": SELF_DRAW}, [("/hand", "invalid_type")]),
    ("context is a string", {"hand": NINE_GATES, "context": "self_draw"},
     [("/context", "invalid_type")]),
    ("context is null", {"hand": NINE_GATES, "context": None}, [("/context", "invalid_type")]),
    ("concealed missing", {"hand": {}, "context": SELF_DRAW}, [("/hand/concealed", "required")]),
    ("concealed is a number", {"hand": {"concealed": 1}, "context": SELF_DRAW},
     [("/hand/concealed", "invalid_type")]),
    ("concealed list holds a number", {"hand": {"concealed": ["1m", 2]}, "context": SELF_DRAW},
     [("/hand/concealed/1", "invalid_type")]),
    ("concealed list too long", {"hand": {"concealed": ["1m"] * 33}, "context": SELF_DRAW},
     [("/hand/concealed", "invalid_value")]),
    ("tile code too long", {"hand": {"concealed": ["1m" * 5]}, "context": SELF_DRAW},
     [("/hand/concealed/0", "invalid_value")]),
    ("notation too long", {"hand": "1m" * 101, "context": SELF_DRAW}, [("/hand", "invalid_value")]),
    ("melds not a list", {"hand": {"concealed": NINE_GATES, "melds": {}}, "context": SELF_DRAW},
     [("/hand/melds", "invalid_type")]),
    ("meld not an object", {"hand": {"concealed": NINE_GATES, "melds": ["123m"]},
                            "context": SELF_DRAW}, [("/hand/melds/0", "invalid_type")]),
    ("too many melds for the schema",
     {"hand": {"concealed": "55m", "melds": [{"kind": "pung", "tiles": "EEE"}] * 9},
      "context": SELF_DRAW}, [("/hand/melds", "invalid_value")]),
    ("bad meld kind", {"hand": {"concealed": "55m", "melds": [{"kind": "chi", "tiles": "123m"}]},
                       "context": SELF_DRAW}, [("/hand/melds/0/kind", "invalid_value")]),
    ("meld without tiles", {"hand": {"concealed": "55m", "melds": [{"kind": "chow"}]},
                            "context": SELF_DRAW}, [("/hand/melds/0/tiles", "required")]),
    ("meld concealed as string",
     {"hand": {"concealed": "55m", "melds": [{"kind": "kong", "tiles": "EEEE",
                                             "concealed": "yes"}]},
      "context": SELF_DRAW}, [("/hand/melds/0/concealed", "invalid_type")]),
    ("win_tile a number", {"hand": {"concealed": NINE_GATES, "win_tile": 5}, "context": SELF_DRAW},
     [("/hand/win_tile", "invalid_type")]),
    ("bad win_type", {"hand": NINE_GATES, "context": {"win_type": "tsumo"}},
     [("/context/win_type", "invalid_value")]),
    ("bad kong", _ctx(kong="rinshan"), [("/context/kong", "invalid_value")]),
    ("bad wind", _ctx(seat_wind="East"), [("/context/seat_wind", "invalid_value")]),
    ("wind lower case", _ctx(round_wind="e"), [("/context/round_wind", "invalid_value")]),
    ("flag as string", _ctx(last_tile="true"), [("/context/last_tile", "invalid_type")]),
    ("flag as number", _ctx(last_of_kind=1), [("/context/last_of_kind", "invalid_type")]),
    ("seat as string", _ctx(winner="0"), [("/context/winner", "invalid_type")]),
    ("seat as boolean", _ctx(dealer=True), [("/context/dealer", "invalid_type")]),
    ("seat a fraction", _ctx(winner=1.5), [("/context/winner", "invalid_type")]),
    ("seat negative", _ctx(winner=-1), [("/context/winner", "invalid_value")]),
    ("seat huge", _ctx(winner=2**31), [("/context/winner", "invalid_value")]),
    ("seat very huge", _ctx(winner=10**40), [("/context/winner", "invalid_value")]),
    ("seat huge negative", _ctx(dealer=-(10**400)), [("/context/dealer", "invalid_type")]),
    ("flowers negative", _ctx(flowers=-1), [("/context/flowers", "invalid_value")]),
    ("flowers huge", _ctx(flowers=10**25), [("/context/flowers", "invalid_value")]),
    ("flowers a fraction", _ctx(flowers=0.5), [("/context/flowers", "invalid_type")]),
    ("flowers boolean", _ctx(flowers=True), [("/context/flowers", "invalid_type")]),
    ("flowers object", _ctx(flowers={"1f": 1}), [("/context/flowers", "invalid_type")]),
    ("flowers list of numbers", _ctx(flowers=[1, 2]), [("/context/flowers/0", "invalid_type"),
                                                         ("/context/flowers/1", "invalid_type")]),
    ("flowers list too long", _ctx(flowers=["1f"] * 17), [("/context/flowers", "invalid_value")]),
    ("wilds a number", _ctx(wilds=5), [("/context/wilds", "invalid_type")]),
    ("wild_indicator a list", _ctx(wild_indicator=["5m"]),
     [("/context/wild_indicator", "invalid_type")]),
    ("options a list", _ctx(options=[]), [("/context/options", "invalid_type")]),
    ("option value nested", _ctx(options={"a": {"b": 1}}), [("/context/options/a",
                                                             "invalid_type")]),
    ("option value null", _ctx(options={"a": None}), [("/context/options/a", "invalid_type")]),
    ("option value huge", _ctx(options={"a": 2**40}), [("/context/options/a", "invalid_value")]),
    ("option value a fraction", _ctx(options={"a": 0.5}),
     [("/context/options/a", "invalid_type")]),
    ("option string too long", _ctx(options={"a": "x" * 65}),
     [("/context/options/a", "invalid_value")]),
    ("option name too long", _ctx(options={"a" * 65: 1}),
     [("/context/options/" + "a" * 65, "invalid_value")]),
    ("too many options", _ctx(options={f"o{i}": 1 for i in range(33)}),
     [("/context/options", "invalid_value")]),
]


@pytest.mark.parametrize("body,expected", [pytest.param(b, e, id=n) for n, b, e in INVALID])
def test_invalid_request(client: FlaskClient, body: dict[str, Any],
                         expected: list[tuple[str, str]]) -> None:
    response = client.post(SCORE_URL, data=json.dumps(body), content_type="application/json")
    result = problem(response, 422, "invalid_request")
    assert [(e["pointer"], e["code"]) for e in result["errors"]] == expected
    assert all(e["message"] for e in result["errors"])


@pytest.mark.parametrize("number", ["1e400", "-1e400", "0.5", "1" * 5000, "-" + "9" * 5000])
def test_number_literals_that_are_not_seats(client: FlaskClient, number: str) -> None:
    """Huge or fractional numbers are a schema error, never a crash (Python's int() refuses
    more than 4300 digits; 1e400 is infinity as a float)."""
    data = '{"hand": "' + NINE_GATES + '", "context": {"win_type": "self_draw", "winner": ' + (
        number + "}}")
    result = problem(post_raw(client, data), 422, "invalid_request")
    assert [(e["pointer"], e["code"]) for e in result["errors"]] == [("/context/winner",
                                                                      "invalid_type")]


@pytest.mark.parametrize("number", ["2.0", "2e0", "0.2E1"])
def test_integral_numbers_are_integers(client: FlaskClient, number: str) -> None:
    """As in JSON Schema, 2.0 is the integer 2."""
    data = '{"hand": "' + NINE_GATES + '", "context": {"win_type": "discard", "discarder": ' + (
        number + "}}")
    assert post_raw(client, data).get_json() == NINE_GATES_RESPONSE


def test_invalid_request_lists_every_fault(client: FlaskClient) -> None:
    body = {"hand": {"concealed": 1, "melds": [{"kind": "x", "tiles": 1}]},
            "context": {"win_type": "x", "winner": "x", "zz": 0}}
    result = problem(client.post(SCORE_URL, json=body), 422, "invalid_request")
    assert {e["pointer"] for e in result["errors"]} == {
        "/hand/concealed", "/hand/melds/0/kind", "/hand/melds/0/tiles", "/context/win_type",
        "/context/winner", "/context/zz"}


def test_invalid_request_error_list_is_bounded(client: FlaskClient) -> None:
    body = {**_ctx(), **{f"x{i}": i for i in range(2000)}}
    result = problem(client.post(SCORE_URL, json=body), 422, "invalid_request")
    assert len(result["errors"]) == MAX_LISTED_ERRORS


# --- 422 from the domain: a well-formed request that is not a real hand or win ------------

HAND_ERRORS: list[tuple[str, dict[str, Any], str, int | None]] = [
    ("invalid_notation", {"hand": "[123m1112345678999m5m", "context": SELF_DRAW}, "/hand", 0),
    ("unknown_tile", {"hand": "1112345678999m0m", "context": SELF_DRAW}, "/hand", 14),
    ("flower_in_hand", {"hand": "1f112345678999m5m", "context": SELF_DRAW}, "/hand", 0),
    ("illegal_meld", {"hand": {"concealed": "2345678999m5m",
                               "melds": [{"kind": "chow", "tiles": "124m"}]},
                      "context": SELF_DRAW}, "/hand/melds/0/tiles", None),
    ("too_many_melds", {"hand": "[111m][222m][333m][444m][555m]55m", "context": SELF_DRAW},
     "/hand", None),
    ("too_many_copies", {"hand": "11111m234567899m", "context": SELF_DRAW}, "/hand", None),
    ("wrong_tile_count", {"hand": "1112345678999m", "context": SELF_DRAW}, "/hand", None),
    ("win_tile_missing", {"hand": {"concealed": NINE_GATES, "win_tile": "5p"},
                          "context": SELF_DRAW}, "/hand/win_tile", None),
    ("seat_out_of_range", _ctx(winner=4), "/context/winner", None),
    ("seat_out_of_range", _ctx(dealer=2**31 - 1), "/context/dealer", None),
    ("flowers_out_of_range", _ctx(flowers=9), "/context/flowers", None),
    ("flowers_out_of_range", _ctx(flowers=2**31 - 1), "/context/flowers", None),
    ("inconsistent_context", {"hand": NINE_GATES, "context": {"win_type": "discard"}},
     "/context/discarder", None),
    ("inconsistent_context", _ctx(kong="robbed"), "/context/kong", None),
    ("inconsistent_context", _ctx(kong="replacement"), "/context/kong", None),
    ("inconsistent_context", _ctx(last_of_kind=True), "/context/last_of_kind", None),
    ("inconsistent_context", {"hand": NINE_GATES,
                              "context": {"win_type": "discard", "discarder": 0}},
     "/context/discarder", None),
    ("unknown_option", _ctx(options={"x": 1}), "/context/options/x", None),
    ("wilds_not_supported", _ctx(wild_indicator="5m"), "/context/wild_indicator", None),
    ("wilds_not_supported", _ctx(wilds=["5m"]), "/context/wilds", None),
    ("not_a_flower", _ctx(flowers=["1m"]), "/context/flowers/0", 0),
]


@pytest.mark.parametrize("code,body,pointer,position",
                         [pytest.param(*case, id=f"{case[0]}-{i}")
                          for i, case in enumerate(HAND_ERRORS)])
def test_hand_errors(client: FlaskClient, code: str, body: dict[str, Any], pointer: str,
                     position: int | None) -> None:
    result = problem(client.post(SCORE_URL, json=body), 422, code)
    assert len(result["errors"]) == 1
    error = result["errors"][0]
    assert (error["code"], error["pointer"]) == (code, pointer)
    assert error.get("position") == position
    assert error["message"] == result["detail"]


@pytest.mark.parametrize("options,pointer", [({"cap": 4}, "/context/options/cap"),
                                             ({"strict": 1}, "/context/options/strict"),
                                             ({"style": "c"}, "/context/options/style")])
def test_invalid_option(options_client: FlaskClient, options: dict[str, Any],
                        pointer: str) -> None:
    body = {"hand": NINE_GATES, "context": {"win_type": "self_draw", "options": options}}
    result = problem(options_client.post(SCORE_URL, json=body), 422, "invalid_option")
    assert result["errors"][0]["pointer"] == pointer


def test_a_flower_as_the_wild_indicator_is_an_invalid_field(client: FlaskClient) -> None:
    body = {"hand": "123m456p789s11sEEE", "context": {"win_type": "self_draw",
                                                     "wild_indicator": "1f"}}
    result = problem(client.post("/v1/rulesets/tianjin/score", json=body), 422, "invalid_field")
    assert result["errors"][0]["pointer"] == "/context/wild_indicator"


def test_every_hand_error_code_is_covered() -> None:
    """Each documented domain code has a request above that causes it: invalid_option with a
    rule set that declares options, invalid_field with one that plays with wilds."""
    from tests.api.test_card_requests import CARD_CODES  # the word-card codes, on hengyang

    covered = {code for code, *_ in HAND_ERRORS} | {"invalid_option", "invalid_field"}
    assert set(HAND_ERROR_CODES) == covered | CARD_CODES


# --- 500 internal_error --------------------------------------------------------------------

def test_unexpected_exception_is_a_problem_500(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, app_log: AppLog
) -> None:
    """The catch-all: an engine bug answers problem+json 500 and is logged (the fuzz tests
    show that no request reaches it with the real engine)."""

    def broken(*args: Any) -> Any:
        raise RuntimeError("engine bug")

    monkeypatch.setattr("app.scoring.evaluate.score", broken)
    response = client.post(SCORE_URL, json=NINE_GATES_REQUEST)
    body = problem(response, 500, "internal_error")
    assert "engine bug" not in body["detail"]
    assert any("RuntimeError: engine bug" in line.get("exception", "")
               for line in app_log.lines())


def test_every_request_problem_code_is_tested() -> None:
    tested = {"malformed_json", "duplicate_key", "unsupported_media_type", "payload_too_large",
              "unknown_ruleset", "not_found", "method_not_allowed", "invalid_request",
              "internal_error",
              "settle_not_supported",  # tests/api/test_settle.py
              "analysis_not_supported",  # tests/api/test_analysis.py
              "match_not_supported",  # tests/api/test_match.py
              "time_limit_exceeded",  # tests/api/test_time_limit.py
              "not_ready",  # tests/api/test_observe.py
              "invalid_query",  # tests/api/test_explain.py
              "malformed_gzip", "unsupported_content_encoding",  # tests/api/test_compression.py
              "request_timeout",  # tests/api/test_body_deadline.py
              # tests/api/test_serve_faults.py (refused by the server before the app)
              "invalid_request_line", "request_line_too_long", "http_version_not_supported",
              "invalid_header", "too_many_headers", "header_too_large",
              "duplicate_content_length", "content_length_with_transfer_encoding",
              "unsupported_transfer_coding"}
    # http_error: any other HTTP-level refusal; no route of this API produces one, nor does
    # the server (a PROXY protocol line, which the service does not turn on).
    assert set(REQUEST_PROBLEMS) - tested == {"http_error"}
