"""The batch endpoints: every item is what the single call answers for the same request, and
only a body that is not a batch is refused as a whole."""

from __future__ import annotations

import io
import json
import time
from collections import defaultdict
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.api import create_app
from app.domain import deadline
from app.domain.deadline import TimeLimitExceeded, check
from app.rules.model import RuleSet
from app.service import batch
from app.service.batch import StepwiseItem, run_batch, score_item
from tests.api.helpers import AppLog, batch_item, problem, validate_live
from tests.service.batch_faults import FAILS_ON_DISCARD_WINS
from tools import loggen

BATCH_PATHS = {"score": "/v1/rulesets/{ruleset}/score/batch",
               "waits": "/v1/rulesets/{ruleset}/waits/batch"}


def _single(client: FlaskClient, endpoint: str, ruleset: str, item: Any) -> dict[str, Any]:
    """What the single call answers for `item`, as a batch item."""
    response = client.post(f"/v1/rulesets/{ruleset}/{endpoint}",
                           data=json.dumps(item, ensure_ascii=False).encode(),
                           content_type="application/json")
    body = response.get_json()
    if response.status_code == 200:
        return {"result": body}
    assert response.mimetype == "application/problem+json"
    # The single call's problem also names its request (the batch's response carries the ID
    # in its header instead).
    assert body.pop("request_id") == response.headers["X-Request-ID"]
    return {"error": body}


def _batch(client: FlaskClient, endpoint: str, ruleset: str, items: list[Any]) -> Any:
    return client.post(BATCH_PATHS[endpoint].format(ruleset=ruleset),
                       data=json.dumps({"requests": items}, ensure_ascii=False).encode(),
                       content_type="application/json")


def _tile_rulesets(app: Flask) -> dict[str, RuleSet]:
    return {rid: rs for rid, rs in app.extensions["mahjong_rulesets"].items()
            if isinstance(rs, RuleSet)}


def _items_by_ruleset(app: Flask, n: int, seed: int, waits: bool) -> dict[str, list[Any]]:
    """A generated log of every tile rule set with malformed lines mixed in, as batch items:
    each line that is JSON, under the rule set it names (the rest of the malformed lines cannot
    be items of a JSON body). The log generator writes tile hands; the word-card rule sets'
    batches are compared in tests/api/test_hengyang_api.py."""
    rulesets = _tile_rulesets(app)
    by_ruleset: dict[str, list[Any]] = defaultdict(list)
    for line in loggen.log_lines(rulesets, sorted(rulesets), n, seed, waits=waits,
                                 malformed=0.05):
        try:
            item = json.loads(line)
        except ValueError:
            continue
        named = item.pop("ruleset", None) if type(item) is dict else None
        ruleset = named if named in rulesets else sorted(rulesets)[len(line) % len(rulesets)]
        by_ruleset[ruleset].append(item)
    return by_ruleset


@pytest.fixture(scope="module")
def patient_app() -> Flask:
    # A batch of waits on wild hands may take more than the default 10 s on a slow machine
    # (its items past it are time_limit_exceeded): these tests compare answers, not times.
    return create_app({"REQUEST_TIME_LIMIT": 600, "ACCESS_LOG": False})


@pytest.mark.parametrize(("endpoint", "hands"), [("score", 3_000), ("waits", 600)])
def test_batch_items_are_the_single_calls_answers(patient_app: Flask, spec: dict[str, Any],
                                                  endpoint: str, hands: int) -> None:
    app = patient_app
    client = app.test_client()
    by_ruleset = _items_by_ruleset(app, hands, seed=2026, waits=endpoint == "waits")
    assert set(by_ruleset) == set(_tile_rulesets(app))
    compared = errors = 0
    for ruleset, items in by_ruleset.items():
        for start in range(0, len(items), 1000):
            part = items[start:start + 1000]
            response = _batch(client, endpoint, ruleset, part)
            assert response.status_code == 200
            if start == 0:
                validate_live(spec, BATCH_PATHS[endpoint], "post", response)
            results = response.get_json()["results"]
            assert len(results) == len(part)
            for item, got in zip(part, results, strict=True):
                assert got == _single(client, endpoint, ruleset, item), item
                errors += "error" in got
            compared += len(part)
    assert compared >= 0.97 * hands
    # Malformed items were among them, and most requests were answered.
    assert 0.02 * compared < errors < 0.2 * compared


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["hand", "context", "win_type", "melds", "x"]), inner, max_size=3),
    max_leaves=8)


@given(items=st.lists(json_values, min_size=1, max_size=8))
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
def test_any_json_item_gets_the_single_calls_answer(app: Flask, items: list[Any]) -> None:
    with app.test_client() as client:
        response = _batch(client, "score", "mcr", items)
        assert response.status_code == 200
        results = response.get_json()["results"]
        assert results == [_single(client, "score", "mcr", item) for item in items]


# --- bodies that are not batches ------------------------------------------------------------


@pytest.mark.parametrize(("body", "pointer"), [
    ({}, "/requests"),
    ({"requests": []}, "/requests"),
    ({"requests": None}, "/requests"),
    ({"requests": {"hand": "1m"}}, "/requests"),
    ({"requests": [{}] * 1001}, "/requests"),
    ({"requests": [{}], "ruleset": "mcr"}, "/ruleset"),
])
def test_a_body_that_is_not_a_batch_is_refused(client: FlaskClient, spec: dict[str, Any],
                                               body: Any, pointer: str) -> None:
    for endpoint in ("score", "waits"):
        response = client.post(BATCH_PATHS[endpoint].format(ruleset="mcr"), json=body)
        found = problem(response, 422, "invalid_request")
        assert pointer in [e["pointer"] for e in found["errors"]]
        validate_live(spec, BATCH_PATHS[endpoint], "post", response)


def test_not_json_not_an_object_and_unknown_ruleset(client: FlaskClient) -> None:
    url = BATCH_PATHS["score"].format(ruleset="mcr")
    problem(client.post(url, data=b"{", content_type="application/json"), 400,
            "malformed_json")
    problem(client.post(url, json=[{"hand": "1m"}]), 400, "malformed_json")
    problem(client.post(url, data=b"requests", content_type="text/plain"), 415,
            "unsupported_media_type")
    problem(client.post(BATCH_PATHS["score"].format(ruleset="riichi"), json={"requests": [{}]}),
            404, "unknown_ruleset")
    problem(client.get(url), 405, "method_not_allowed")


def _padded(size: int) -> bytes:
    """A batch body of exactly `size` bytes (padding inside a string of the one item)."""
    head, tail = b'{"requests": [{"hand": "', b'", "context": {"win_type": "self_draw"}}]}'
    return head + b"1" * (size - len(head) - len(tail)) + tail


def test_the_batch_body_limit_is_its_own(app: Flask, client: FlaskClient) -> None:
    limit = app.config["MAX_BATCH_CONTENT_LENGTH"]
    assert limit == 2 * 1024 * 1024
    url = BATCH_PATHS["score"].format(ruleset="mcr")
    # At the limit the body is read: its one item is refused on its own (a long notation).
    response = client.post(url, data=_padded(limit), content_type="application/json")
    assert response.status_code == 200
    assert response.get_json()["results"][0]["error"]["code"] == "invalid_request"
    found = problem(client.post(url, data=_padded(limit + 1), content_type="application/json"),
                    413, "payload_too_large")
    assert str(limit) in found["detail"]

    # Sent chunked (no Content-Length, a stream the server terminates, as gunicorn hands it
    # over), werkzeug's reading stops at the same limit.
    for size, status in ((limit, 200), (limit + 1, 413)):
        response = client.post(url, input_stream=io.BytesIO(_padded(size)),
                               content_type="application/json",
                               headers={"Transfer-Encoding": "chunked"},
                               environ_overrides={"wsgi.input_terminated": True})
        assert response.status_code == status
    # The single call keeps its own limit of 64 KiB.
    single = b'{"hand": "' + b"1" * (64 * 1024) + b'", "context": {"win_type": "self_draw"}}'
    problem(client.post("/v1/rulesets/mcr/score", data=single,
                        content_type="application/json"), 413, "payload_too_large")


def test_1000_requests_fit_and_keep_their_order(app: Flask, client: FlaskClient) -> None:
    rulesets = app.extensions["mahjong_rulesets"]
    items = loggen.requests(rulesets["mcr"], 1000, seed=5)
    body = json.dumps({"requests": items}).encode()
    assert len(body) < app.config["MAX_BATCH_CONTENT_LENGTH"]
    response = client.post(BATCH_PATHS["score"].format(ruleset="mcr"), data=body,
                           content_type="application/json")
    results = response.get_json()["results"]
    assert len(results) == 1000
    for i in (0, 1, 499, 998, 999):
        assert results[i] == _single(client, "score", "mcr", items[i])


def test_the_limits_follow_the_configuration(tmp_path: Any) -> None:
    small = create_app({"MAX_BATCH_CONTENT_LENGTH": 4096, "REQUEST_TIME_LIMIT": 3})
    with small.test_client() as client:
        limits = client.get("/v1/rulesets/mcr").get_json()["limits"]
        assert limits == {"request_bytes": 65536, "batch_bytes": 4096,
                          "match_bytes": 1024 * 1024, "batch_items": 1000,
                          "time_limit_seconds": 3.0}
        problem(client.post(BATCH_PATHS["score"].format(ruleset="mcr"), data=_padded(4097),
                            content_type="application/json"), 413, "payload_too_large")


# --- the time limit and failures, item by item ---------------------------------------------


def test_past_the_time_limit_the_rest_of_the_batch_is_not_scored(app: Flask) -> None:
    mcr = app.extensions["mahjong_rulesets"]["mcr"]
    hand = {"hand": "123m456m789m123p55s", "context": {"win_type": "self_draw"}}

    def slow_on_the_second(body: object, ruleset: RuleSet) -> dict[str, Any]:
        if body == "slow":
            time.sleep(0.3)
            check()  # the engine checks between hands: here it is past the limit
        return score_item(body, ruleset)

    results = run_batch([hand, "slow", hand, hand], mcr, slow_on_the_second, 0.1)
    assert results[0] == score_item(hand, mcr)
    assert [r["error"]["code"] for r in results[1:]] == ["time_limit_exceeded"] * 3
    assert all(r["error"]["status"] == 503 for r in results[1:])
    # Without a limit everything is scored.
    assert run_batch([hand, hand], mcr, slow_on_the_second, None) == [score_item(hand, mcr)] * 2


def test_an_item_the_engine_fails_on_fails_alone(client: FlaskClient, app_log: AppLog) -> None:
    broken = {"hand": "123m456m789m123p55s", "context": {"win_type": "discard",
                                                        "discarder": 2}}
    good = {"hand": "123m456m789m123p55s", "context": {"win_type": "self_draw"}}
    with batch_item("score", FAILS_ON_DISCARD_WINS) as faulty:
        response = _batch(faulty.test_client(), "score", "mcr", [good, broken, good])
    results = response.get_json()["results"]
    assert response.status_code == 200
    assert results[0] == results[2] == _single(client, "score", "mcr", good)
    assert results[1]["error"]["code"] == "internal_error"
    assert any("unhandled error on item 1" in line["message"] for line in app_log.lines())


def test_a_batch_taken_step_by_step_stops_where_the_limit_passes(app: Flask) -> None:
    # Scores are taken a step at a time for a few items (`CHUNK`): the limit is still checked
    # before each item, and stops the batch there, in the middle of a chunk too. The limit
    # passes at the check before item `stop`: `check` calls the pause at every check here (a
    # slice of a nanosecond), and the pause raises as an expired limit would. Every item is
    # checked once, and each hand scored once more (`evaluate.score` checks per hand).
    mcr = app.extensions["mahjong_rulesets"]["mcr"]
    good = {"hand": "123m456m789m123p55s", "context": {"win_type": "self_draw"}}
    bad = {"hand": "123m", "context": {"win_type": "self_draw"}}
    bodies = [good, bad, "not an object", good] * 15
    singles = [score_item(b, mcr) for b in bodies]
    stop = batch.CHUNK + 7
    before = sum(1 + (body is good) for body in bodies[:stop])
    checks = 0

    def limited() -> None:
        nonlocal checks
        checks += 1
        if checks > before:
            raise TimeLimitExceeded(0.1)

    deadline.set_pause(limited, 1e-9)
    try:
        results = run_batch(bodies, mcr, score_item, 100.0)
    finally:
        deadline.set_pause(None)
    assert isinstance(score_item, StepwiseItem)
    assert checks == before + 1
    assert results[:stop] == singles[:stop]
    assert {r["error"]["code"] for r in results[stop:]} == {"time_limit_exceeded"}
    assert len(results) == len(bodies)


def test_a_step_that_fails_fails_its_item_alone(app: Flask, app_log: AppLog) -> None:
    mcr = app.extensions["mahjong_rulesets"]["mcr"]
    good = {"hand": "123m456m789m123p55s", "context": {"win_type": "self_draw"}}
    broken = {"hand": "123m456m789m123p55s", "context": {"win_type": "discard",
                                                        "discarder": 2}}

    results = run_batch([good, broken, good], mcr, FAILS_ON_DISCARD_WINS, None)
    assert results[0] == results[2] == score_item(good, mcr)
    assert results[1]["error"]["code"] == "internal_error"
    assert any("unhandled error on item 1 of a batch for mcr" in line["message"]
               for line in app_log.lines())


@pytest.mark.parametrize("endpoint", ["score", "waits"])
def test_the_documented_examples_are_real(client: FlaskClient, spec: dict[str, Any],
                                          endpoint: str) -> None:
    operation = spec["paths"][BATCH_PATHS[endpoint]]["post"]
    requests = operation["requestBody"]["content"]["application/json"]["examples"]
    responses = operation["responses"]["200"]["content"]["application/json"]["examples"]
    assert set(requests) == set(responses)
    for name, example in requests.items():
        response = client.post(BATCH_PATHS[endpoint].format(ruleset="mcr"),
                               json=example["value"])
        assert response.get_json() == responses[name]["value"], name
