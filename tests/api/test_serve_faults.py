"""Under `./run serve` (gunicorn on a loopback socket): what gunicorn refuses before the app sees
a request is answered as a problem document (app/api/server_faults.py), headers that do not
arrive in time get a 408 where part of a request came, and a worker that exits (recycled or
stopped) writes no traceback."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.service.problems import REQUEST_PROBLEMS, TYPE_PREFIX
from tests.api.helpers import NINE_GATES_REQUEST, SCORE_URL
from tests.api.test_serve import _request, _running

# How long gunicorn waits for a request's line and headers (`keepalive`), set short here.
KEEPALIVE_S = 1
# What a loaded machine may add to it before the answer arrives.
MARGIN_S = 2.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    # GUNICORN_CMD_ARGS overrides gunicorn.conf.py's settings.
    with _running(tmp_path_factory.mktemp("faults"),
                  GUNICORN_CMD_ARGS=f"--keep-alive {KEEPALIVE_S}") as running:
        yield running


def _answer(port: int, sent: bytes) -> tuple[http.client.HTTPResponse, dict[str, Any], bytes]:
    """Send `sent` as it is; the response, its problem document, and what follows it on the
    connection before the server closes it."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(sent)
        response = http.client.HTTPResponse(sock)
        response.begin()
        body = json.loads(response.read())
        rest = sock.recv(1024)
    return response, body, rest


HEAD = b"POST /v1/rulesets/mcr/score HTTP/1.1\r\nHost: localhost\r\n"
FAULTS: dict[str, tuple[bytes, str]] = {
    "request line over its limit": (
        b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: localhost\r\n\r\n", "request_line_too_long"),
    "too many header fields": (
        HEAD + b"".join(b"X-F%d: 1\r\n" % i for i in range(101)) + b"\r\n", "too_many_headers"),
    "a header field over its limit": (HEAD + b"X-Big: " + b"a" * 9000 + b"\r\n\r\n",
                                      "header_too_large"),
    "Content-Length with Transfer-Encoding": (
        HEAD + b"Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
        "content_length_with_transfer_encoding"),
    "two Content-Lengths": (HEAD + b"Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}",
                            "duplicate_content_length"),
    "a request line that is not HTTP": (b"HELLO\r\n\r\n", "invalid_request_line"),
    "a method in lower case": (b"get /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n",
                               "invalid_request_line"),
    "a malformed version": (b"GET /healthz HTTP/1.x\r\nHost: localhost\r\n\r\n",
                            "invalid_request_line"),
    "an unsupported version": (b"GET /healthz HTTP/2.0\r\nHost: localhost\r\n\r\n",
                               "http_version_not_supported"),
    "a header name with a space": (HEAD + b"Bad Name: 1\r\n\r\n", "invalid_header"),
    "a header line without a colon": (HEAD + b"NoColon\r\n\r\n", "invalid_header"),
    "a Content-Length that is not a number": (HEAD + b"Content-Length: 2x\r\n\r\n{}",
                                              "invalid_header"),
    "chunked in HTTP/1.0": (
        b"POST /v1/rulesets/mcr/score HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "invalid_header"),
    "an unknown transfer coding": (HEAD + b"Transfer-Encoding: bogus\r\n\r\n",
                                   "unsupported_transfer_coding"),
}


@pytest.mark.parametrize("fault", list(FAULTS))
def test_served_parser_fault_is_a_problem(server: tuple[int, Path], fault: str) -> None:
    sent, code = FAULTS[fault]
    response, body, rest = _answer(server[0], sent)
    status, title = REQUEST_PROBLEMS[code]
    assert (response.status, body["code"]) == (status, code), body
    assert response.getheader("Content-Type") == "application/problem+json"
    assert response.getheader("Connection") == "close"
    assert body["type"] == TYPE_PREFIX + code and body["title"] == title
    assert body["status"] == status and body["detail"]
    assert "<html" not in body["detail"]
    assert rest == b"", "the connection stays open after the refusal"


def test_served_statuses_of_the_parser_faults() -> None:
    # The statuses RFC 9110 gives these faults.
    assert {code: REQUEST_PROBLEMS[code][0] for _, code in FAULTS.values()} == {
        "request_line_too_long": 414, "too_many_headers": 431, "header_too_large": 431,
        "content_length_with_transfer_encoding": 400, "duplicate_content_length": 400,
        "invalid_request_line": 400, "http_version_not_supported": 505,
        "invalid_header": 400, "unsupported_transfer_coding": 501}


def test_served_headers_that_do_not_arrive_in_time_are_a_408(server: tuple[int, Path]) -> None:
    """A request whose headers stop half-way is answered 408 once `keepalive` has passed,
    and its connection closed; the worker goes on serving."""
    port, _ = server
    assert _request(port, "GET", "/healthz")[0] == 200  # the worker is up and warm
    for partial in (HEAD, b"POST /v1/rulesets/mcr/sc"):  # after the request line; within it
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(partial)
            started = time.monotonic()
            response = http.client.HTTPResponse(sock)
            response.begin()
            took = time.monotonic() - started
            body = json.loads(response.read())
            assert (response.status, body["code"]) == (408, "request_timeout"), partial
            assert response.getheader("Content-Type") == "application/problem+json"
            assert KEEPALIVE_S * 0.9 <= took < KEEPALIVE_S + MARGIN_S, (partial, took)
            assert sock.recv(1024) == b""
    assert _request(port, "GET", "/healthz")[0] == 200


def test_served_idle_connections_are_closed_without_an_answer(
        server: tuple[int, Path]) -> None:
    """Nothing of a request sent, on a new connection or after an answer on a kept-alive one:
    closed at `keepalive` without a word (a 408 there could be read as the answer to a request
    the client sends just then)."""
    port, _ = server
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        started = time.monotonic()
        assert sock.recv(1024) == b""
        assert time.monotonic() - started < KEEPALIVE_S + MARGIN_S
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        response = http.client.HTTPResponse(sock)
        response.begin()
        assert response.status == 200 and response.getheader("Connection") != "close"
        response.read()
        assert sock.recv(1024) == b""  # nothing after the answer: no 408


# --- a worker's exit ----------------------------------------------------------------------------

BOOTED = re.compile(r"Booting worker with pid: (\d+)")
# What an exit must not write: a traceback, or an exception Python ignored at shutdown.
UNCLEAN = ("Traceback", "Exception ignored", "Error")


def _booted(log: Path) -> list[int]:
    return [int(pid) for pid in BOOTED.findall(log.read_text(errors="replace"))]


def _next_worker(port: int, log: Path, after: int) -> int:
    """The worker booted after `after` workers, once it answers (so that its signal handlers
    are in place)."""
    deadline = time.monotonic() + 30
    while len(_booted(log)) <= after:
        assert time.monotonic() < deadline, log.read_text(errors="replace")
        time.sleep(0.1)
    assert _request(port, "GET", "/healthz")[0] == 200
    return _booted(log)[after]


def test_served_workers_exit_without_a_traceback(tmp_path: Path) -> None:
    """A worker recycled after `max_requests`, one stopped by TERM and one by QUIT, and the
    last at the server's stop: none writes a traceback (nor Python's "Exception ignored")."""
    score = json.dumps(NINE_GATES_REQUEST).encode()
    with _running(tmp_path, GUNICORN_MAX_REQUESTS="3",
                  GUNICORN_MAX_REQUESTS_JITTER="0") as (port, log):
        _next_worker(port, log, 0)
        for _ in range(3):  # the 3rd request recycles the first worker (healthz was the 1st)
            assert _request(port, "POST", SCORE_URL, score,
                            {"Content-Type": "application/json"})[0] == 200
        worker = _next_worker(port, log, 1)
        for number, sig in ((2, signal.SIGTERM), (3, signal.SIGQUIT)):
            os.kill(worker, sig)
            worker = _next_worker(port, log, number)
        said = log.read_text(errors="replace")
        assert "Autorestarting worker" in said
    said = log.read_text(errors="replace")
    assert said.count("Worker exiting") == 4, said
    assert not [word for word in UNCLEAN if word in said], said


@pytest.mark.parametrize("worker_class", ["sync", "gthread"])
def test_served_parser_fault_is_a_problem_under_other_workers(tmp_path: Path,
                                                             worker_class: str) -> None:
    with _running(tmp_path, GUNICORN_WORKER_CLASS=worker_class) as (port, log):
        for fault in ("two Content-Lengths", "request line over its limit"):
            sent, code = FAULTS[fault]
            response, body, _ = _answer(port, sent)
            assert (response.status, body["code"]) == (REQUEST_PROBLEMS[code][0], code)
            assert response.getheader("Content-Type") == "application/problem+json"
        assert _request(port, "GET", "/healthz")[0] == 200
    assert f"app.api.server_faults.{'SyncWorker' if worker_class == 'sync' else 'ThreadWorker'}" \
        in log.read_text(errors="replace")
