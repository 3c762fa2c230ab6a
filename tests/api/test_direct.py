"""The direct path (app/api/direct.py) answers the common score and waits request exactly as
the Flask route does: every hand case of every rule set, and the errors, are sent to the same
app twice, once as it is and once with the direct path turned off (it then finds no rule set,
so every request goes to Flask), and the two answers must be the same bytes: status line,
headers and body (the request ID is sent, so that it is the same)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from werkzeug.test import Client

from app.api import create_app
from app.api import direct as direct_module
from app.api.direct import Direct
from app.api.observe import ROUTE_KEY
from tests.api.helpers import wild_waits_requests
from tests.cases.test_cases import ALL_CASES
from tests.loaded import repo_app

pytestmark = pytest.mark.xdist_group("direct")

RID = "test-direct-0001"


def _direct(app: Flask) -> Direct:
    """The app's `Direct` middleware, found down the chain of WSGI wrappers."""
    layer: Any = app.wsgi_app
    while not isinstance(layer, Direct):
        layer = layer.wsgi_app if hasattr(layer, "wsgi_app") else layer.app
    return layer


@pytest.fixture(scope="module")
def app() -> Flask:
    return repo_app()


class Answer:
    def __init__(self, status: str, headers: list[tuple[str, str]], body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body

    def __repr__(self) -> str:
        return f"{self.status} {self.headers} {self.body[:300]!r}"

    def key(self) -> tuple[str, list[tuple[str, str]], bytes]:
        return self.status, sorted(self.headers), self.body


def _send(app: Flask, path: str, body: bytes, headers: dict[str, str] | None = None,
          content_type: str = "application/json", **environ: Any) -> Answer:
    client = Client(app.wsgi_app)
    sent = {"X-Request-ID": RID, **(headers or {})}
    resp = client.post(path, data=body, headers=sent, content_type=content_type,
                       environ_overrides=environ)
    return Answer(resp.status, list(resp.headers.items()), resp.get_data())


@pytest.fixture()
def both(app: Flask) -> Iterator[Any]:
    """`both(path, body, …)`: the answer of the direct path and of Flask's route, and whether
    the direct path took the request."""
    direct = _direct(app)

    def send(path: str, body: bytes, **kw: Any) -> tuple[Answer, Answer]:
        taken = []
        original = direct.wsgi_app

        def flask_app(environ: Any, start_response: Any) -> Any:
            taken.append(ROUTE_KEY not in environ)
            return original(environ, start_response)

        direct.wsgi_app = flask_app
        try:
            fast = _send(app, path, body, **kw)
        finally:
            direct.wsgi_app = original
        rulesets, direct.rulesets = direct.rulesets, {}
        try:
            slow = _send(app, path, body, **kw)
        finally:
            direct.rulesets = rulesets
        send.went_to_flask = bool(taken)  # type: ignore[attr-defined]
        return fast, slow

    return send


def _cases() -> list[tuple[str, dict[str, Any]]]:
    return [(p.values[0], p.values[1]) for p in ALL_CASES]


def test_every_case_answers_the_same_by_both_paths(both: Any) -> None:
    seen = 0
    for ruleset, case in _cases():
        body = json.dumps({"hand": case["hand"], "context": case["context"]}).encode()
        fast, slow = both(f"/v1/rulesets/{ruleset}/score", body)
        assert not both.went_to_flask, (ruleset, case["name"])
        assert fast.key() == slow.key(), (ruleset, case["name"], fast, slow)
        seen += 1
    assert seen > 400  # the cases were found


def test_waits_answer_the_same_and_large_answers_are_gzipped_the_same(both: Any) -> None:
    sent = [("tianjin", json.dumps(r).encode()) for r in wild_waits_requests(2)]
    nine_gates = {"hand": "1112345678999m", "context": {"win_type": "self_draw"}}
    sent.append(("mcr", json.dumps(nine_gates).encode()))
    sent.append(("mcr", json.dumps(nine_gates).encode()[:-1]))  # not JSON
    gzipped = 0
    for ruleset, body in sent:
        for accept in (None, "gzip", "gzip;q=0", "br, gzip;q=0.5, identity;q=0.6", "*"):
            headers = {"Accept-Encoding": accept} if accept else {}
            fast, slow = both(f"/v1/rulesets/{ruleset}/waits", body, headers=headers)
            assert not both.went_to_flask
            assert fast.key() == slow.key(), (accept, fast, slow)
            gzipped += ("Content-Encoding", "gzip") in fast.headers
    assert gzipped == 2  # the nine gates' nine scored waits, to gzip and to *


@pytest.mark.parametrize(("body", "code"), [
    (b"{", "malformed_json"),
    (b"[1, 2]", "malformed_json"),
    (b'{"hand": "1112345678999m5m", "context": {"win_type": "self_draw"}, "hand": "1m"}',
     "duplicate_key"),
    (b'{"hand": "1112345678999m5m", "context": {"win_type": "self_draw", "x": "a:b"}}',
     "invalid_request"),
    (b'\xef\xbb\xbf{"hand": "123m", "context": {"win_type": "self_draw"}}', "wrong_tile_count"),
    (b'{"hand": "11111m234567899m", "context": {"win_type": "self_draw"}}', None),
    (b'{"hand": "1112345678999m", "context": {"seat": 9}}', "invalid_request"),
    (b'{"hand": "1112345678999m", "contxt": {}}', "invalid_request"),
    (b'{"hand": "1112345678999x9m", "context": {"win_type": "self_draw"}}', None),
    (b'{"hand": "1111m1111m", "context": {"win_type": "self_draw"}}', None),
])
def test_request_errors_answer_the_same(both: Any, body: bytes, code: str | None) -> None:
    fast, slow = both("/v1/rulesets/mcr/score", body)
    assert not both.went_to_flask
    assert fast.key() == slow.key(), (fast, slow)
    assert int(fast.status[:3]) >= 400
    problem = json.loads(fast.body)
    assert problem["request_id"] == RID
    if code is not None:
        assert problem["code"] == code


def test_a_body_shorter_than_announced_answers_the_same(both: Any) -> None:
    fast, slow = both("/v1/rulesets/mcr/score", b'{"hand": 1}', CONTENT_LENGTH="40")
    assert fast.key() == slow.key()
    assert json.loads(fast.body)["code"] == "malformed_json"


def test_the_time_limit_answers_the_same(app: Flask, both: Any) -> None:
    body = json.dumps(wild_waits_requests(1)[0]).encode()
    limit = app.config["REQUEST_TIME_LIMIT"]
    # A limit passed by the first hand scored on either path (the request takes a few ms, less
    # with its searches remembered: a limit of 1 ms was not always reached).
    app.config["REQUEST_TIME_LIMIT"] = 1e-6
    try:
        fast, slow = both("/v1/rulesets/tianjin/waits", body)
    finally:
        app.config["REQUEST_TIME_LIMIT"] = limit
    assert not both.went_to_flask
    assert fast.key() == slow.key()
    assert json.loads(fast.body)["code"] == "time_limit_exceeded"


@pytest.mark.parametrize(("path", "kw"), [
    ("/v1/rulesets/mcr/score?explain=true", {}),
    ("/v1/rulesets/mcr/score", {"content_type": "application/json; charset=utf-8"}),
    ("/v1/rulesets/mcr/score", {"content_type": "text/plain"}),
    ("/v1/rulesets/nope/score", {}),
    ("/v1/rulesets/mcr/score/batch", {}),
    ("/v1/rulesets/mcr/score/picture", {}),
    ("/v1/rulesets/mcr/waits/picture", {}),
    ("/v1/rulesets/mcr/score/", {}),
    ("/v1/rulesets/mcr/score", {"body": b""}),
    ("/v1/rulesets/mcr/settle", {}),
    ("/v1/rulesets/mcr/score", {"headers": {"Content-Encoding": "identity"}}),
])
def test_other_requests_go_to_flask(both: Any, path: str, kw: dict[str, Any]) -> None:
    kw = dict(kw)
    body = kw.pop("body", b'{"hand": "1112345678999m9m", "context": {"win_type": "self_draw"}}')
    fast, slow = both(path, body, **kw)
    assert both.went_to_flask
    assert fast.key() == slow.key()


def test_a_body_over_the_limit_goes_to_flask(app: Flask, both: Any) -> None:
    body = b'{"hand": "1112345678999m9m", "x": "' + b"x" * 70_000 + b'"}'
    assert len(body) > app.config["MAX_CONTENT_LENGTH"]
    fast, slow = both("/v1/rulesets/mcr/score", body)
    assert both.went_to_flask
    assert fast.key() == slow.key()
    assert fast.status.startswith("413")


def test_an_unexpected_error_is_answered_by_flask_with_the_body_replayed(
        app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any) -> Any:
        raise RuntimeError("a fault in the engine")

    route, endpoint, _ = direct_module.ENDPOINTS["score"]
    monkeypatch.setitem(direct_module.ENDPOINTS, "score", (route, endpoint, broken))
    body = b'{"hand": "1112345678999m9m", "context": {"win_type": "self_draw"}}'
    answer = _send(app, "/v1/rulesets/mcr/score", body)
    # Flask's route (the real engine) answers it, from the same body.
    assert answer.status == "200 OK", answer
    assert json.loads(answer.body)["winning"] is True


def test_cors_requests_go_to_flask() -> None:
    app = create_app({"ACCESS_LOG": False, "CORS_ORIGINS": "https://table.example"})
    body = b'{"hand": "1112345678999m9m", "context": {"win_type": "self_draw"}}'
    answer = _send(app, "/v1/rulesets/mcr/score", body,
                   headers={"Origin": "https://table.example"})
    assert answer.status == "200 OK"
    assert ("Access-Control-Allow-Origin", "https://table.example") in answer.headers
