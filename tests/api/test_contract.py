"""Drift tests: openapi.yaml (generated from the code, `./run openapi`; tests/tools/test_openapi.py
fails when it is stale) is the contract the app actually serves.

- the document is valid OpenAPI 3.1 and is served byte for byte;
- the app's routes and the document's operations are the same set of (path, method), a word-card
  game's own paths read as the templated ones;
- each family of rule sets has its own bodies: the tile games' on the templated paths (the
  `ruleset` parameter lists exactly them), each word-card game's on paths of its own; the settle
  operation lists exactly the rule sets that settle rounds;
- every operation has an operationId, tags, a summary and examples, and every example is
  valid against its own schema;
- the live responses to the example requests validate against the documented schemas, and
  each score example request answers exactly the response example of the same name;
- the problem codes and field-error codes listed in the document are the ones the app uses;
- the request schema agrees with the marshmallow schema: bodies generated from the document
  are all accepted by marshmallow, and the bodies marshmallow refuses the document refuses.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from jsonschema import Draft202012Validator
from marshmallow import ValidationError
from openapi_spec_validator import validate

from app.rules.families import CARDS, TILES, family_of
from app.service.families import settles_rounds
from app.service.problems import PROBLEM_CODES
from app.service.schema_fields import FIELD_ERROR_CODES
from app.service.tiles.request_schemas import load_score_request
from app.service.tiles.settle_schemas import load_settle_request
from tests.api.helpers import (
    OPENAPI_FILE,
    escape,
    resolve,
    validate_live,
    validator_for,
)
from tests.api.test_errors import INVALID
from tests.loaded import repo_rulesets
from tests.schema_strategies import from_schema

HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
SCORE_OPERATION = ("/v1/rulesets/{ruleset}/score", "post")
RULESETS = repo_rulesets()
CARD_RULESETS = sorted(rid for rid, rs in RULESETS.items() if family_of(rs) == CARDS)
TILE_RULESETS = sorted(rid for rid, rs in RULESETS.items() if family_of(rs) == TILES)
CARD_OPERATIONS = ("score", "waits", "score/batch", "waits/batch")


def operations(spec: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in spec["paths"].items():
        for method in HTTP_METHODS:
            if method in item:
                yield path, method, item[method]


# --- the document itself --------------------------------------------------------------------

def test_document_is_valid_openapi_3_1(spec: dict[str, Any]) -> None:
    assert spec["openapi"] == "3.1.0"
    validate(spec)


def test_served_document_is_the_file(client: FlaskClient) -> None:
    response = client.get("/openapi.yaml")
    assert response.get_data() == OPENAPI_FILE.read_bytes()
    assert response.mimetype in ("application/yaml", "text/yaml")


def _flask_routes(app: Flask) -> set[tuple[str, str]]:
    routes = set()
    for rule in app.url_map.iter_rules():
        path = re.sub(r"<(?:[a-z_]+:)?([a-z_]+)>", r"{\1}", rule.rule)
        for method in rule.methods or ():
            if method not in ("HEAD", "OPTIONS"):
                routes.add((path, method.lower()))
    return routes


def _templated(path: str) -> str:
    """A word-card game's own path (`/v1/rulesets/hengyang/score`) as the route that serves it."""
    for rid in CARD_RULESETS:
        path = path.replace(f"/v1/rulesets/{rid}/", "/v1/rulesets/{ruleset}/")
    return path


def test_routes_and_operations_are_the_same(app: Flask, spec: dict[str, Any]) -> None:
    served = _flask_routes(app)
    documented = {(_templated(path), method) for path, method, _ in operations(spec)}
    assert served == documented
    # The API's own routes, at least these, are there.
    assert {("/v1/rulesets", "get"), ("/v1/rulesets/{ruleset}", "get"), SCORE_OPERATION,
            ("/healthz", "get"), ("/openapi.yaml", "get")} <= served


def _request_schema(spec: dict[str, Any], path: str) -> str:
    content = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    return str(content["schema"]["$ref"]).rsplit("/", 1)[1]


def test_each_family_has_its_own_bodies(spec: dict[str, Any]) -> None:
    schemas = spec["components"]["schemas"]
    assert schemas["TileRulesetId"]["enum"] == TILE_RULESETS
    assert schemas["RoundRulesetId"]["enum"] == sorted(
        rid for rid, rs in RULESETS.items() if settles_rounds(rs))
    assert set(schemas["RoundRulesetId"]["enum"]) <= set(TILE_RULESETS)
    for op in CARD_OPERATIONS:
        assert _request_schema(spec, f"/v1/rulesets/{{ruleset}}/{op}") in (
            "ScoreRequest", "WaitsRequest", "ScoreBatchRequest", "WaitsBatchRequest")
    assert CARD_RULESETS
    for rid in CARD_RULESETS:
        prefix = "".join(part.capitalize() for part in re.split(r"[-_]", rid))
        for op in CARD_OPERATIONS:
            name = _request_schema(spec, f"/v1/rulesets/{rid}/{op}")
            assert name.startswith(prefix), (rid, op, name)
        # Nothing of a card game's request is a tile game's, and the other way round.
        card = json.dumps(schemas[f"{prefix}ScoreRequest"])
        assert "/Hand\"" not in card and "/Context\"" not in card
    tile = json.dumps({k: v for k, v in schemas.items() if k in ("ScoreRequest", "Context")})
    assert "Card" not in tile


def test_every_operation_is_described(spec: dict[str, Any]) -> None:
    tag_names = {t["name"] for t in spec["tags"]}
    ids = []
    for path, method, op in operations(spec):
        where = f"{method.upper()} {path}"
        assert op.get("operationId"), where
        ids.append(op["operationId"])
        assert op.get("summary"), where
        assert op.get("tags") and set(op["tags"]) <= tag_names, where
        if "requestBody" in op:
            for media, content in op["requestBody"]["content"].items():
                assert content.get("examples"), f"{where} request {media}"
        for status, response in op["responses"].items():
            for media, content in resolve(spec, response).get("content", {}).items():
                assert content.get("examples"), f"{where} {status} {media}"
    assert len(ids) == len(set(ids))


def _examples(spec: dict[str, Any]) -> Iterator[tuple[str, str, Any]]:
    """(where, schema pointer, example value) for every example in the document."""
    for path, method, op in operations(spec):
        base = f"/paths/{escape(path)}/{method}"
        for media, content in op.get("requestBody", {}).get("content", {}).items():
            for name, example in content.get("examples", {}).items():
                yield (f"{method} {path} request {name}",
                       f"{base}/requestBody/content/{escape(media)}/schema", example["value"])
        for status, response in op["responses"].items():
            if "$ref" in response:
                base_r = response["$ref"].removeprefix("#")
            else:
                base_r = f"{base}/responses/{status}"
            for media, content in resolve(spec, response).get("content", {}).items():
                for name, example in content.get("examples", {}).items():
                    yield (f"{method} {path} {status} {name}",
                           f"{base_r}/content/{escape(media)}/schema", example["value"])


def test_every_example_matches_its_schema(spec: dict[str, Any]) -> None:
    count = 0
    for where, pointer, value in _examples(spec):
        errors = list(validator_for(spec, pointer).iter_errors(value))
        assert not errors, f"{where}: {errors[0].message}"
        count += 1
    assert count >= 20


def test_problem_codes_are_the_apps(spec: dict[str, Any]) -> None:
    schemas = spec["components"]["schemas"]
    assert set(schemas["ProblemCode"]["enum"]) == set(PROBLEM_CODES)
    field_codes = schemas["FieldError"]["properties"]["code"]["anyOf"][0]["enum"]
    assert set(field_codes) == set(FIELD_ERROR_CODES)


# --- live responses ------------------------------------------------------------------------

def _request_examples(spec: dict[str, Any], path: str = SCORE_OPERATION[0]) -> dict[str, Any]:
    content = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    return {name: ex["value"] for name, ex in content["examples"].items()}


def _response_examples(spec: dict[str, Any], path: str = SCORE_OPERATION[0]
                       ) -> dict[str, tuple[int, Any]]:
    method = "post"
    out = {}
    for status, response in spec["paths"][path][method]["responses"].items():
        for content in resolve(spec, response).get("content", {}).values():
            for name, ex in content.get("examples", {}).items():
                out[name] = (int(status), ex["value"])
    return out


def _comparable(status: int, body: dict[str, Any]) -> dict[str, Any]:
    """Bodies compared without their prose (detail, messages), which may be reworded."""
    if status < 400:
        if body.get("reason"):
            return {**body, "reason": {"code": body["reason"]["code"]}}
        return body
    # The request ID is new on every request.
    out = {k: v for k, v in body.items() if k not in ("detail", "request_id")}
    if "errors" in out:
        out["errors"] = [{k: v for k, v in e.items() if k != "message"} for e in out["errors"]]
    return out


# Rule sets whose examples are named after them (`tianjin_dealer`, `kawuxing_...`); mcr's and
# sichuan's are not.
NAMED_EXAMPLES = ("tianjin", "kawuxing", "changchun")


def _example_ruleset(name: str, default: str) -> str:
    """Examples named `<rule set>_...` (tianjin, kawuxing, changchun) are posted to that rule
    set, the others to `default`."""
    prefix = name.split("_", 1)[0]
    return prefix if prefix in NAMED_EXAMPLES else default


@pytest.mark.parametrize("path", [SCORE_OPERATION[0], *(
    f"/v1/rulesets/{rid}/score" for rid in CARD_RULESETS)])
def test_score_examples_are_real(client: FlaskClient, spec: dict[str, Any], path: str) -> None:
    """Each request example answers the response example of the same name, exactly."""
    method = "post"
    requests = _request_examples(spec, path)
    responses = _response_examples(spec, path)
    paired = 0
    for name, body in requests.items():
        # Examples named `explained_...` (or `<rule set>_explained_...`) are posted with
        # ?explain=true.
        query = "?explain=true" if "explained" in name.split("_")[:2] else ""
        url = path.replace("{ruleset}", _example_ruleset(name, "mcr"))
        response = client.post(f"{url}{query}", json=body)
        validate_live(spec, path, method, response)
        assert name in responses, f"request example {name} has no response example"
        status, expected = responses[name]
        assert response.status_code == status, (name, response.get_json())
        assert _comparable(status, response.get_json()) == _comparable(status, expected), name
        paired += 1
    assert paired == len(requests) >= (6 if "{" in path else 2)


@pytest.mark.parametrize("name,request_line", [
    ("malformed_json", ("POST", "/v1/rulesets/mcr/score", b"{", "application/json")),
    ("invalid_query", ("POST", "/v1/rulesets/mcr/score?explain=maybe", json.dumps(
        {"hand": "1112345678999m5m", "context": {"win_type": "self_draw"}}).encode(),
        "application/json")),
    ("unknown_ruleset", ("POST", "/v1/rulesets/riichi/score", b"{}", "application/json")),
    ("unsupported_media_type", ("POST", "/v1/rulesets/mcr/score", b"a=1",
                                "application/x-www-form-urlencoded")),
    ("payload_too_large", ("POST", "/v1/rulesets/mcr/score", b" " * 70000, "application/json")),
    ("bad_type", ("POST", "/v1/rulesets/mcr/score", json.dumps(
        {"hand": "1112345678999m5m", "context": {"win_type": "tsumo", "winner": "0", "extra": 1}}
    ).encode(), "application/json")),
])
def test_problem_examples_are_real(client: FlaskClient, spec: dict[str, Any], name: str,
                                   request_line: tuple[str, str, bytes, str]) -> None:
    method, url, data, content_type = request_line
    response = client.open(url, method=method, data=data, content_type=content_type)
    validate_live(spec, *SCORE_OPERATION, response)
    status, expected = _response_examples(spec)[name]
    assert response.status_code == status
    assert _comparable(status, response.get_json()) == _comparable(status, expected)


def test_get_examples_are_real(client: FlaskClient, spec: dict[str, Any]) -> None:
    def example(path: str) -> Any:
        content = spec["paths"][path]["get"]["responses"]["200"]["content"]
        return next(iter(next(iter(content.values()))["examples"].values()))["value"]

    for path, url in (("/v1/rulesets", "/v1/rulesets"), ("/v1/rulesets/{ruleset}",
                                                         "/v1/rulesets/mcr"),
                      ("/healthz", "/healthz")):
        response = client.get(url)
        validate_live(spec, path, "get", response)
        live = response.get_json()
        expected = example(path)
        if path == "/v1/rulesets":
            assert all(r in live["rulesets"] for r in expected["rulesets"])
        elif path == "/v1/rulesets/{ruleset}":
            # The example lists a few of the fans; each is exactly the live one.
            live_fans = {f["id"]: f for f in live.pop("fans")}
            for fan in expected.pop("fans"):
                assert live_fans[fan["id"]] == fan
            assert live == expected
        else:
            # The example lists some of the rule sets: a rule set added is no change here.
            assert set(expected.pop("rulesets")) <= set(live.pop("rulesets"))
            assert live == expected
    unknown = client.get("/v1/rulesets/riichi")
    validate_live(spec, "/v1/rulesets/{ruleset}", "get", unknown)
    openapi = client.get("/openapi.yaml")
    assert openapi.get_data().startswith(example("/openapi.yaml").encode())


# --- the request schema: openapi.yaml and marshmallow agree -------------------------------

def _score_request_schema(spec: dict[str, Any]) -> dict[str, Any]:
    return {"$ref": "#/components/schemas/ScoreRequest", "components": spec["components"]}


@pytest.fixture(scope="module")
def request_validator(spec: dict[str, Any]) -> Draft202012Validator:
    return validator_for(spec, "/components/schemas/ScoreRequest")


def test_refused_bodies_are_refused_by_the_document(
    request_validator: Draft202012Validator,
) -> None:
    for name, body, _ in INVALID:
        assert not request_validator.is_valid(body), name


@pytest.mark.parametrize("body", [
    {"hand": "1112345678999m5m", "context": {"win_type": "self_draw"}},
    {"hand": {"concealed": ["1m", "1m"], "melds": None, "win_tile": None},
     "context": {"win_type": "discard", "discarder": 2, "kong": "robbed", "flowers": ["1f"],
                 "seat_wind": "南", "wilds": "5m", "options": {"a": True, "b": -3, "c": "x"}}},
    {"hand": "x", "context": {"win_type": "discard", "discarder": 1, "winner": 2**31 - 1,
                              "dealer": 2.0, "flowers": "春夏"}},
    {"hand": {"concealed": "1m", "melds": [{"kind": "kong", "tiles": ["1m", "1m", "1m", "1m"]},
                                           {"kind": "chow", "tiles": "1m2m3m4m"}]},
     "context": {"win_type": "self_draw", "discarder": None, "kong": "replacement",
                 "wild_indicator": "5m", "wilds": None}},
])
def test_accepted_bodies_are_accepted_by_the_document(
    request_validator: Draft202012Validator, body: dict[str, Any]
) -> None:
    assert request_validator.is_valid(body)
    load_score_request(body)


_GATES = "1112345678999m5m"


@pytest.mark.parametrize(("body", "code"), [
    ({"hand": "1112345678999m5m", "context": {"win_type": "self_draw", "wild_indicator": "5m",
                                              "wilds": ["5m"]}}, "wilds_not_supported"),
    ({"hand": "[123m][EEE]45m456p11s3m", "context": {"win_type": "self_draw",
                                                    "wild_indicator": "5m", "wilds": "5m"}},
     "wilds_not_supported"),
    ({"hand": {"concealed": "2345678999m5m", "melds": [{"kind": "pung",
                                                         "tiles": ["1m", "1m", "1m", "1m"]}]},
      "context": {"win_type": "self_draw"}}, None),
    ({"hand": {"concealed": "5678999m5m", "melds": [{"kind": "kong", "tiles": ["1m"] * 3},
                                                    {"kind": "chow", "tiles": ["2m", "3m"]}]},
      "context": {"win_type": "self_draw"}}, None),
    ({"hand": {"concealed": "1112345678999m5m",
               "melds": [{"kind": "chow", "tiles": "123p", "concealed": True}]},
      "context": {"win_type": "self_draw"}}, None),
])
def test_what_the_readers_refuse_across_fields_the_document_refuses(
    request_validator: Draft202012Validator, client: FlaskClient, body: dict[str, Any],
    code: str | None,
) -> None:
    """The contract says what the reading refuses across fields where a schema-driven
    generator can follow it cheaply (a meld listed with the wrong count of tiles, a concealed
    chow, an indicator and a list of wilds both), so a fuzzer drawing from it does not send
    such bodies; the service refuses each (422)."""
    assert not request_validator.is_valid(body)
    load_score_request(body)  # the schema alone takes it: the refusal comes after
    answer = client.post("/v1/rulesets/mcr/score", json=body)
    assert answer.status_code == 422, answer.get_json()
    if code is not None:
        assert answer.get_json()["code"] == code
    tianjin = client.post("/v1/rulesets/tianjin/score", json=body)
    assert tianjin.status_code == 422, tianjin.get_json()


def test_every_body_the_document_allows_passes_the_schema(spec: dict[str, Any]) -> None:
    """Generated from openapi.yaml; marshmallow must accept every one (after a JSON round
    trip, as on the wire)."""

    @settings(max_examples=150, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(from_schema(_score_request_schema(spec)))
    def check(body: dict[str, Any]) -> None:
        wire = json.loads(json.dumps(body))
        try:
            load_score_request(wire)
        except ValidationError as exc:  # pragma: no cover - the failure report
            raise AssertionError(
                f"document allows {wire!r}, schema refuses: {exc.messages}") from exc

    check()


# --- settleRound: examples are real, the request schemas agree ------------------------------

SETTLE_OPERATION = ("/v1/rulesets/{ruleset}/settle", "post")


def _settle_examples(spec: dict[str, Any]) -> tuple[dict[str, Any], dict[str, tuple[int, Any]]]:
    path, method = SETTLE_OPERATION
    op = spec["paths"][path][method]
    requests = {name: ex["value"]
                for name, ex in op["requestBody"]["content"]["application/json"]["examples"]
                .items()}
    responses = {}
    for status, response in op["responses"].items():
        for content in resolve(spec, response).get("content", {}).values():
            for name, ex in content.get("examples", {}).items():
                responses[name] = (int(status), ex["value"])
    return requests, responses


def test_settle_examples_are_real(client: FlaskClient, spec: dict[str, Any]) -> None:
    """Each settle request example, posted to sichuan (tianjin for `tianjin_...`), answers the
    response example of the same name, exactly; the problem examples come from real requests
    too."""
    requests, responses = _settle_examples(spec)
    path, method = SETTLE_OPERATION
    for name, body in requests.items():
        response = client.post(f"/v1/rulesets/{_example_ruleset(name, 'sichuan')}/settle",
                               json=body)
        validate_live(spec, path, method, response)
        status, expected = responses[name]
        assert response.status_code == status, (name, response.get_json())
        assert _comparable(status, response.get_json()) == _comparable(status, expected), name
    assert len(requests) >= 3
    for name, url, body in (
        ("settle_not_supported", "/v1/rulesets/mcr/settle", requests["rule_page"]),
        ("bad_kong", "/v1/rulesets/sichuan/settle",
         {"events": [{"type": "kong", "seat": 1, "kind": "direct", "tile": "5m",
                      "fresh": True}]}),
    ):
        response = client.post(url, json=body)
        validate_live(spec, path, method, response)
        status, expected = responses[name]
        assert response.status_code == status
        assert _comparable(status, response.get_json()) == _comparable(status, expected), name


def test_refused_settle_bodies_are_refused_by_the_document(spec: dict[str, Any]) -> None:
    from tests.api.test_settle import SCHEMA_VIOLATIONS

    validator = validator_for(spec, "/components/schemas/SettleRequest")
    for body, pointer, _ in SCHEMA_VIOLATIONS:
        assert not validator.is_valid(body), pointer


@pytest.mark.parametrize("event", ["DirectKongEvent", "AddedKongEvent", "ConcealedKongEvent",
                                   "WinEvent", "DrawEvent", "FollowDealerEvent"])
def test_every_settle_body_the_document_allows_passes_the_schema(spec: dict[str, Any],
                                                                 event: str) -> None:
    """Generated from openapi.yaml: each kind of event (one of SettleEvent's branches), in a
    SettleRequest with generated options; marshmallow must accept every one. (At most two
    hands per draw, so that generation stays quick; the size limits themselves are checked by
    the refused bodies.)"""
    components = copy.deepcopy(spec["components"])
    components["schemas"]["DrawEvent"]["properties"]["hands"]["maxItems"] = 2
    schema = {"$ref": f"#/components/schemas/{event}", "components": components}
    options = {"$ref": "#/components/schemas/SettleRequest/properties/options",
               "components": components}

    @settings(max_examples=40, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(from_schema(schema), from_schema(options))
    def check(body: dict[str, Any], opts: Any) -> None:
        wire = json.loads(json.dumps({"options": opts, "events": [body]}))
        try:
            load_settle_request(wire)
        except ValidationError as exc:  # pragma: no cover - the failure report
            raise AssertionError(
                f"document allows {wire!r}, schema refuses: {exc.messages}") from exc

    check()
