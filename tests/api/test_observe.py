"""What the apps and operators around the service see: request IDs, the JSON access log, the
app's own JSON log lines, the version and readiness, CORS for configured origins, gzip for
large responses."""

from __future__ import annotations

import gzip
import json
import os
import re
import time
import tomllib
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import __version__
from app.api import create_app
from app.api.observe import LINES_PER_WRITE, PIPE_BUF, AccessLog, shared_access_log
from app.api.routes import RULESETS_KEY
from app.service.batch import run_batch, score_item
from tests.api.helpers import (
    NINE_GATES_REQUEST,
    OPENAPI_FILE,
    REPO_ROOT,
    SCORE_URL,
    AppLog,
    batch_item,
    problem,
)


@pytest.fixture(scope="module")
def logged_app() -> Flask:
    return create_app({"ACCESS_LOG": True})


AccessLines = Callable[[], list[dict[str, Any]]]


@pytest.fixture()
def access_log(capfd: pytest.CaptureFixture[str]) -> AccessLines:
    """The access-log lines written on standard output (file descriptor 1) since the test
    started, read once the process's access log has written what it holds."""

    def written() -> list[dict[str, Any]]:
        shared_access_log().flush()
        out = capfd.readouterr().out
        return [line for line in map(json.loads, (t for t in out.splitlines()
                                                  if t.startswith("{")))
                if "route" in line]

    written()  # what earlier tests left
    return written


# --- request IDs ------------------------------------------------------------------------------


def test_a_valid_request_id_is_kept_and_echoed(client: FlaskClient) -> None:
    response = client.post(SCORE_URL, json=NINE_GATES_REQUEST,
                           headers={"X-Request-ID": "game-42:hand-7"})
    assert response.status_code == 200
    assert response.headers["X-Request-ID"] == "game-42:hand-7"


@pytest.mark.parametrize("sent", [None, "", "x" * 129, "a b", "ab\u00e9", "a\"b"])
def test_any_other_request_id_is_replaced_by_a_new_one(client: FlaskClient,
                                                       sent: str | None) -> None:
    headers = {"X-Request-ID": sent} if sent is not None else {}
    first = client.get("/healthz", headers=headers).headers["X-Request-ID"]
    second = client.get("/healthz", headers=headers).headers["X-Request-ID"]
    assert first != second and len(first) == 32 and int(first, 16) >= 0


def test_problems_carry_the_request_id(client: FlaskClient) -> None:
    for response in (
        client.post(SCORE_URL, json={"hand": "0m", "context": {"win_type": "self_draw"}},
                    headers={"X-Request-ID": "r-1"}),
        client.get("/no/such/path", headers={"X-Request-ID": "r-1"}),
        client.post(SCORE_URL, data=b"{", content_type="application/json",
                    headers={"X-Request-ID": "r-1"}),
    ):
        assert response.mimetype == "application/problem+json"
        assert response.get_json()["request_id"] == "r-1" == response.headers["X-Request-ID"]


# --- the access log ---------------------------------------------------------------------------


def test_one_json_access_log_line_per_request(logged_app: Flask,
                                              access_log: AccessLines) -> None:
    client = logged_app.test_client()
    client.post(SCORE_URL, json=NINE_GATES_REQUEST, headers={"X-Request-ID": "r-2"})
    client.post("/v1/rulesets/riichi/score", json={})
    client.get("/nowhere")
    lines = access_log()
    assert len(lines) == 3
    scored, unknown, nowhere = lines
    assert set(scored) == {"time", "request_id", "method", "route", "path", "ruleset", "status",
                           "duration_ms", "bytes", "remote"}
    assert (scored["request_id"], scored["method"], scored["route"], scored["path"],
            scored["ruleset"], scored["status"]) == (
        "r-2", "POST", "/v1/rulesets/<ruleset>/score", "/v1/rulesets/mcr/score", "mcr", 200)
    assert scored["duration_ms"] > 0 and scored["bytes"] > 100
    assert (unknown["ruleset"], unknown["status"]) == ("riichi", 404)
    assert (nowhere["route"], nowhere["status"]) == (None, 404)


def test_the_access_log_can_be_off(access_log: AccessLines,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAHJONG_ACCESS_LOG", "off")
    quiet = create_app()
    assert quiet.config["ACCESS_LOG"] is False
    quiet.test_client().get("/healthz")
    assert access_log() == []


class _Writes:
    """What `os.write` is asked to write to one file descriptor, call by call."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, fd: int) -> None:
        self.calls: list[bytes] = []
        real = os.write

        def write(to: int, data: Any) -> int:
            if to == fd:
                self.calls.append(bytes(data))
                return len(data)
            return real(to, data)

        monkeypatch.setattr(os, "write", write)


def _line(n: int, pad: int = 0) -> bytes:
    return json.dumps({"n": n, "pad": "x" * pad}).encode() + b"\n"


def test_access_lines_are_written_together_in_whole_atomic_writes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    writes = _Writes(monkeypatch, fd=99)
    log = AccessLog(fd=99, interval=3600)
    for n in range(LINES_PER_WRITE - 1):
        log.add(_line(n, pad=400))
    assert writes.calls == []  # held, not written one by one
    log.add(_line(LINES_PER_WRITE - 1, pad=400))
    # Written once enough are held: whole lines, no write over PIPE_BUF bytes (which two
    # workers writing to one pipe could interleave).
    assert writes.calls and all(len(w) <= PIPE_BUF and w.endswith(b"\n")
                                for w in writes.calls)
    assert b"".join(writes.calls) == b"".join(_line(n, pad=400)
                                              for n in range(LINES_PER_WRITE))
    # A line longer than PIPE_BUF goes out whole, on its own.
    writes.calls.clear()
    log.add(_line(100))
    log.add(_line(101, pad=PIPE_BUF))
    log.flush()
    assert writes.calls == [_line(100), _line(101, pad=PIPE_BUF)]


def test_held_access_lines_are_written_within_the_interval(
        monkeypatch: pytest.MonkeyPatch) -> None:
    writes = _Writes(monkeypatch, fd=98)
    log = AccessLog(fd=98, interval=0.05)
    log.add(_line(1))
    deadline = time.monotonic() + 5
    while not writes.calls and time.monotonic() < deadline:
        time.sleep(0.01)
    assert writes.calls == [_line(1)]


def test_a_failed_access_log_does_not_fail_requests(capsys: pytest.CaptureFixture[str]) -> None:
    read, write = os.pipe()
    os.close(read)  # writing now fails (EPIPE)
    log = AccessLog(fd=write, interval=3600)
    try:
        for n in range(2 * LINES_PER_WRITE):
            log.add(_line(n))
        log.flush()
    finally:
        os.close(write)
    # Said once on standard error, not once per line.
    assert capsys.readouterr().err.count("access log: lines are lost") == 1


# --- the app's own log -------------------------------------------------------------------------

APP_LINE_KEYS = {"time", "level", "logger", "message", "request_id"}
BATCH_URL = "/v1/rulesets/mcr/score/batch"


def _when(line: dict[str, Any]) -> datetime:
    # The access log's format: ISO 8601 in UTC, to the millisecond.
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", line["time"])
    return datetime.fromisoformat(line["time"])


def test_a_batch_past_its_time_limit_is_one_json_line(app_log: AppLog) -> None:
    # A limit of 0 s has passed before the first item is scored.
    client = create_app({"REQUEST_TIME_LIMIT": 0, "ACCESS_LOG": False}).test_client()
    started = datetime.now(UTC)
    response = client.post(BATCH_URL, json={"requests": [NINE_GATES_REQUEST] * 2},
                           headers={"X-Request-ID": "batch-7"})
    assert response.status_code == 200
    [line] = app_log.lines()
    assert set(line) == APP_LINE_KEYS
    assert (line["level"], line["logger"], line["request_id"]) == (
        "WARNING", "app.service.batch", "batch-7")
    assert line["message"] == ("a batch for mcr ran past the time limit of 0 s: 2 of its 2 "
                               "requests not scored")
    assert started - timedelta(seconds=1) <= _when(line) <= datetime.now(UTC)


def test_an_unhandled_error_is_logged_with_its_traceback(app_log: AppLog) -> None:
    def broken(body: object, ruleset: Any) -> dict[str, Any]:
        raise RuntimeError("a bug")

    with batch_item("score", broken) as faulty:
        response = faulty.test_client().post(BATCH_URL, json={"requests": [NINE_GATES_REQUEST]})
    assert response.get_json()["results"][0]["error"]["code"] == "internal_error"
    [line] = app_log.lines()
    assert set(line) == APP_LINE_KEYS | {"exception"}
    assert (line["level"], line["logger"]) == ("ERROR", "app.service.batch")
    assert line["message"] == "unhandled error on item 0 of a batch for mcr"
    # The request's ID, as its response echoes it (a new one: none was sent).
    assert line["request_id"] == response.headers["X-Request-ID"]
    assert line["exception"].startswith("Traceback (most recent call last):")
    assert line["exception"].endswith("RuntimeError: a bug")
    _when(line)


def test_flasks_own_logger_writes_the_same_lines(client: FlaskClient,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 app_log: AppLog) -> None:
    """A request's unhandled error goes through `app.logger` (the error handlers)."""
    def broken(*args: Any) -> Any:
        raise RuntimeError("engine bug")

    monkeypatch.setattr("app.scoring.evaluate.score", broken)
    response = client.post(SCORE_URL, json=NINE_GATES_REQUEST, headers={"X-Request-ID": "r-9"})
    assert response.status_code == 500
    [line] = app_log.lines()
    assert (line["level"], line["logger"], line["request_id"]) == ("ERROR", "app", "r-9")
    assert line["message"] == "unhandled error on POST /v1/rulesets/mcr/score"
    assert line["exception"].endswith("RuntimeError: engine bug")


def test_outside_a_request_the_line_has_no_request_id(app: Flask, app_log: AppLog) -> None:
    """The command-line scorer runs batches without a request."""
    create_app({"ACCESS_LOG": False})  # a second app adds no second handler (else two lines)
    run_batch([NINE_GATES_REQUEST], app.extensions[RULESETS_KEY]["mcr"], score_item, 0)
    [line] = app_log.lines()
    assert line["request_id"] is None and line["level"] == "WARNING"
    assert line["message"].endswith("1 of its 1 requests not scored")


# --- version and readiness --------------------------------------------------------------------


def test_one_version_everywhere(client: FlaskClient) -> None:
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["version"]
    from app.rules.load_files import load_yaml

    document = load_yaml(OPENAPI_FILE.read_text(encoding="utf-8"))["info"]["version"]
    assert __version__ == project == document
    assert client.get("/healthz").get_json()["version"] == __version__


def test_ready_once_the_rule_sets_are_loaded(client: FlaskClient, app: Flask) -> None:
    body = client.get("/readyz").get_json()
    assert body == {"status": "ready", "version": __version__,
                    "rulesets": list(app.extensions[RULESETS_KEY])}
    unready = create_app({"ACCESS_LOG": False})
    unready.extensions[RULESETS_KEY] = {}
    problem(unready.test_client().get("/readyz"), 503, "not_ready")


# --- CORS and compression ---------------------------------------------------------------------


def test_cors_is_off_by_default(client: FlaskClient) -> None:
    response = client.post(SCORE_URL, json=NINE_GATES_REQUEST,
                           headers={"Origin": "https://app.example"})
    assert "Access-Control-Allow-Origin" not in response.headers


def test_cors_for_the_configured_origins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAHJONG_CORS_ORIGINS", "https://app.example, https://other.example")
    client = create_app({"ACCESS_LOG": False}).test_client()
    preflight = client.options(SCORE_URL, headers={
        "Origin": "https://app.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, x-request-id"})
    assert preflight.headers["Access-Control-Allow-Origin"] == "https://app.example"
    # Only the methods the API serves: not flask-cors's default of PUT, PATCH and DELETE too.
    allowed = preflight.headers["Access-Control-Allow-Methods"].split(", ")
    assert sorted(allowed) == ["GET", "HEAD", "OPTIONS", "POST"]
    answered = client.post(SCORE_URL, json=NINE_GATES_REQUEST,
                           headers={"Origin": "https://other.example"})
    assert answered.headers["Access-Control-Allow-Origin"] == "https://other.example"
    assert "X-Request-ID" in answered.headers["Access-Control-Expose-Headers"]
    elsewhere = client.post(SCORE_URL, json=NINE_GATES_REQUEST,
                            headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in elsewhere.headers


def test_large_responses_are_gzipped(client: FlaskClient) -> None:
    plain = client.get("/v1/rulesets/mcr")
    zipped = client.get("/v1/rulesets/mcr", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in plain.headers
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(zipped.get_data())) == plain.get_json()
    assert len(zipped.get_data()) < len(plain.get_data()) / 3  # 15.9 KB as 4.1 KB
    # A single hand's answer (under 1 KB) is sent as it is.
    small = client.post(SCORE_URL, json=NINE_GATES_REQUEST, headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in small.headers
