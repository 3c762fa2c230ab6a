"""An operation is one declaration (`app.service.operations`): a toy operation, declared here
and nowhere else, is routed by a new app (its JSON path and its batch form), answered by the
direct path for its common request (the same bytes as Flask's route), counted in the metrics,
and written in the generated contract (tools/openapi); removed after the test, it is no longer
served."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from werkzeug.test import Client

from app.api import create_app
from app.api.direct import ENDPOINTS, Direct, refresh_endpoints
from app.rules.families import TILES, ServedRuleSet
from app.service.batch import score_body
from app.service.operations import (
    BatchForm,
    OperationDecl,
    operations,
    register_operation,
    unregister_operation,
)
from app.settings import DEFAULT_RULESETS_DIR

HAND = {"hand": "1112345678999m5m", "context": {"win_type": "self_draw"}}


def fan_count(body: dict[str, Any], rs: ServedRuleSet, explain: bool) -> dict[str, Any]:
    """The toy operation's answer: how many fans the hand scores, and their names when asked."""
    fans = score_body(body, rs, False)["fans"]
    answer: dict[str, Any] = {"ruleset": rs.id, "fans": len(fans)}
    if explain:
        answer["names"] = [fan["name_en"] for fan in fans]
    return answer


def fan_count_item(body: object, rs: ServedRuleSet) -> dict[str, Any]:
    assert isinstance(body, dict)
    return {"result": fan_count(body, rs, False)}


TOY = OperationDecl(
    "fan_count", fan_count, "countFans", "ScoreRequest", "ScoreResponse",
    "Count the fans of one hand", serves=lambda family: family.name == TILES, explain=True,
    direct=True,
    batch=BatchForm(fan_count_item, None, "countFansOfHands"))


@pytest.fixture
def toy() -> Iterator[OperationDecl]:
    register_operation(TOY)
    try:
        yield TOY
    finally:
        unregister_operation(TOY.name)
        refresh_endpoints()
    assert TOY.name not in {op.name for op in operations()} and TOY.name not in ENDPOINTS


@pytest.fixture
def app(toy: OperationDecl) -> Flask:
    return create_app({"ACCESS_LOG": False})


def _direct(app: Flask) -> Direct:
    layer: Any = app.wsgi_app
    while not isinstance(layer, Direct):
        layer = layer.wsgi_app if hasattr(layer, "wsgi_app") else layer.app
    return layer


def test_a_declared_operation_is_routed(app: Flask) -> None:
    client = app.test_client()
    answer = client.post("/v1/rulesets/mcr/fan_count?explain=true", json=HAND)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    names = [fan["name_en"] for fan in client.post("/v1/rulesets/mcr/score",
                                                     json=HAND).get_json()["fans"]]
    assert answer.get_json() == {"ruleset": "mcr", "fans": len(names), "names": names}
    assert "Nine Gates" in names
    batch = client.post("/v1/rulesets/mcr/fan_count/batch", json={"requests": [HAND]})
    assert batch.get_json() == {"results": [{"result": {"ruleset": "mcr",
                                                        "fans": len(names)}}]}
    # Its errors are every operation's.
    unknown = client.post("/v1/rulesets/riichi/fan_count", json=HAND)
    assert unknown.status_code == 404 and unknown.get_json()["code"] == "unknown_ruleset"
    bad = client.post("/v1/rulesets/mcr/fan_count?explain=maybe", json=HAND)
    assert bad.status_code == 400 and bad.get_json()["code"] == "invalid_query"
    metrics = client.get("/metrics").get_data(as_text=True)
    assert 'mahjong_hands_scored_total{endpoint="fan_count",ruleset="mcr"} 1.0' in metrics
    assert 'mahjong_hands_scored_total{endpoint="fan_count_batch",ruleset="mcr"} 1.0' in metrics


def test_the_direct_path_answers_it_as_flask_does(app: Flask) -> None:
    direct = _direct(app)
    flask_app = direct.wsgi_app
    client = Client(app.wsgi_app)
    sent = {"X-Request-ID": "toy-0001"}

    def post() -> tuple[str, list[tuple[str, str]], bytes]:
        got = client.post("/v1/rulesets/mcr/fan_count", json=HAND, headers=sent)
        return got.status, sorted(got.headers.items()), got.get_data()

    def unreachable(environ: Any, start_response: Any) -> Any:
        raise AssertionError(f"Flask was asked {environ['PATH_INFO']}")

    direct.wsgi_app = unreachable  # Flask's dispatch out of reach: the direct path answers
    try:
        fast = post()
    finally:
        direct.wsgi_app = flask_app
    direct.rulesets, rulesets = {}, direct.rulesets  # no rule set: every request to Flask
    try:
        slow = post()
    finally:
        direct.rulesets = rulesets
    assert fast == slow
    assert fast[0] == "200 OK" and b'"fans":4' in fast[2]


def test_a_removed_operation_is_not_served(toy: OperationDecl) -> None:
    unregister_operation(toy.name)
    try:
        client = create_app({"ACCESS_LOG": False}).test_client()
        answer = client.post("/v1/rulesets/mcr/fan_count", json=HAND)
        assert answer.status_code == 404
    finally:
        register_operation(toy)


def test_the_contract_lists_it(toy: OperationDecl) -> None:
    from tools.openapi.build import Builder  # the generator needs apispec, a test dependency

    document = Builder(DEFAULT_RULESETS_DIR).document()
    single = document["paths"]["/v1/rulesets/{ruleset}/fan_count"]["post"]
    assert single["operationId"] == "countFans"
    assert single["summary"] == "Count the fans of one hand"
    assert single["parameters"] == [{"$ref": "#/components/parameters/TileRuleset"},
                                    {"$ref": "#/components/parameters/Explain"}]
    assert single["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ScoreRequest"}
    batch = document["paths"]["/v1/rulesets/{ruleset}/fan_count/batch"]["post"]
    assert batch["operationId"] == "countFansOfHands"
    # Declared for the tile games only: no word-card game's paths of it.
    assert not [p for p in document["paths"] if p.endswith("/fan_count")
                and "{ruleset}" not in p]
