"""The shipped path: `./run serve` (gunicorn, as in README and the Dockerfile) on a real socket,
start-up refusal on a broken rule set, the rule-set directory settings, and `./run test`
failing when it collects nothing."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api import create_app
from app.api.routes import RULESETS_KEY
from app.rules.errors import RuleSetError
from app.scoring.build import COMPILED, engine_build
from app.service.schema_fields import MAX_BATCH_ITEMS
from app.settings import RULESETS_ENV
from tests.api.helpers import (
    NINE_GATES_REQUEST,
    NINE_GATES_RESPONSE,
    REPO_ROOT,
    SCORE_URL,
    wild_waits_requests,
)

RUN = REPO_ROOT / "run"
BROKEN_FAN = "big_four_winds"


def _broken_rulesets(directory: Path) -> Path:
    """A copy of the real rule sets where one fan has a misspelt field."""
    for path in (REPO_ROOT / "rulesets").glob("*.yaml"):
        shutil.copy(path, directory / path.name)
    mcr = directory / "mcr.yaml"
    text = mcr.read_text(encoding="utf-8")
    assert "    value: 88\n" in text
    mcr.write_text(text.replace("    value: 88\n", "    valeu: 88\n", 1), encoding="utf-8")
    return directory


# --- create_app settings ---------------------------------------------------------------------

def test_rulesets_dir_from_config(tmp_path: Path) -> None:
    shutil.copy(REPO_ROOT / "rulesets" / "mcr.yaml", tmp_path / "mcr.yaml")
    app = create_app({"RULESETS_DIR": str(tmp_path)})
    assert list(app.extensions[RULESETS_KEY]) == ["mcr"]
    assert app.config["RULESETS_DIR"] == str(tmp_path)


def test_rulesets_dir_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copy(REPO_ROOT / "rulesets" / "mcr.yaml", tmp_path / "mcr.yaml")
    monkeypatch.setenv(RULESETS_ENV, str(tmp_path))
    assert create_app().config["RULESETS_DIR"] == str(tmp_path)
    # The config key wins over the environment.
    assert create_app({"RULESETS_DIR": str(REPO_ROOT / "rulesets")}).config[
        "RULESETS_DIR"] == str(REPO_ROOT / "rulesets")


def test_default_rulesets_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(RULESETS_ENV, raising=False)
    app = create_app()
    assert Path(app.config["RULESETS_DIR"]) == REPO_ROOT / "rulesets"
    assert app.config["MAX_CONTENT_LENGTH"] == 64 * 1024


def test_broken_ruleset_refuses_to_start(tmp_path: Path) -> None:
    with pytest.raises(RuleSetError) as raised:
        create_app({"RULESETS_DIR": str(_broken_rulesets(tmp_path))})
    message = str(raised.value)
    assert "mcr.yaml" in message and BROKEN_FAN in message and "valeu" in message


def test_no_rulesets_refuses_to_start(tmp_path: Path) -> None:
    with pytest.raises(RuleSetError):
        create_app({"RULESETS_DIR": str(tmp_path)})


# --- ./run serve under gunicorn ---------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve_env(port: int, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != RULESETS_ENV}
    # Installed already (this suite runs under it): `./run` skips its install step. gunicorn
    # logs at info, where it says the address it listens at (`_start`).
    env.update({"PORT": str(port), "WEB_CONCURRENCY": "1", "RUN_NO_INSTALL": "1",
                "LOG_LEVEL": "info", **extra})
    return env


# The port `_free_port` found is free only until gunicorn binds it: another process (a test
# on another pytest-xdist worker, any program on the machine) may take it in between. gunicorn
# then says so and retries, and the server found listening there would be that other one: the
# server is ours once its own log says it listens at the port. If the port was taken, another
# server starts on another port at once; the first one gives up by itself (gunicorn retries
# for 5 s, deaf to signals until it has bound) and is reaped when the block ends.
START_TRIES = 5
PORT_TAKEN = "Connection in use"


def _listening_at(port: int) -> re.Pattern[str]:
    return re.compile(rf"Listening at: \S+:{port} \(")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):  # the server has exited by itself
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:  # pragma: no cover
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def _start(root: Path, env: dict[str, str], port: int,
           log: Path) -> tuple[subprocess.Popen[bytes], bool]:
    """`./run serve` of `root` with `env` (PORT=`port`), its output in `log`, once gunicorn
    listens at `port` (True) or has found it taken (False)."""
    with log.open("wb") as out:
        proc = subprocess.Popen([str(root / "run"), "serve"], cwd=root, env=env,
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    listening = _listening_at(port)
    deadline = time.monotonic() + 120
    try:
        while True:
            said = log.read_text(errors="replace")
            if listening.search(said) or PORT_TAKEN in said:
                return proc, PORT_TAKEN not in said
            assert proc.poll() is None, said
            assert time.monotonic() < deadline, f"not listening at {port} yet:\n{said}"
            time.sleep(0.1)
    except BaseException:
        _stop(proc)
        raise


@contextlib.contextmanager
def _running(tmp: Path, root: Path = REPO_ROOT, drop: tuple[str, ...] = (),
             **extra: str) -> Iterator[tuple[int, Path]]:
    """`./run serve` of the checkout at `root` on a free port (one worker), until the block
    ends; a checkout other than this one is imported from its own files (PYTHONPATH).
    Variables of this environment starting with a prefix in `drop` are left out. The log is
    `stdout.log` in `tmp` (`stdout.<n>.log` for the n-th server, should a port be taken)."""
    started: list[subprocess.Popen[bytes]] = []
    try:
        for tried in range(1, START_TRIES + 1):
            port = _free_port()
            env = _serve_env(port, **extra)
            for name in [k for k in env if drop and k.startswith(drop) and k not in extra]:
                del env[name]
            if root != REPO_ROOT:
                env["PYTHONPATH"] = str(root)
            log = tmp / ("stdout.log" if tried == 1 else f"stdout.{tried}.log")
            proc, ours = _start(root, env, port, log)
            started.append(proc)
            if ours:
                break
        else:  # pragma: no cover
            pytest.fail(f"each of {START_TRIES} ports was taken before gunicorn bound it")
        yield port, log
    finally:
        for proc in started:
            _stop(proc)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    with _running(tmp_path_factory.mktemp("serve")) as running:
        yield running


def _request(port: int, method: str, url: str, body: bytes | None = None,
             headers: dict[str, str] | None = None,
             timeout: float = 10) -> tuple[int, str, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, url, body=body, headers=headers or {})
        response = conn.getresponse()
        data = response.read()
        content_type = response.getheader("Content-Type", "")
        parsed = json.loads(data) if "json" in content_type else data
        return response.status, content_type, parsed
    finally:
        conn.close()


def _raw(port: int, head: bytes, body: bytes, half_close: bool = False) -> tuple[int, Any]:
    """Send bytes as they are (lying headers, chunks) and read the first response."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head + body)
        if half_close:
            sock.shutdown(socket.SHUT_WR)
        response = http.client.HTTPResponse(sock)
        response.begin()
        return response.status, json.loads(response.read())


def _head(extra: str) -> bytes:
    return (f"POST {SCORE_URL} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\n{extra}\r\n").encode()


def _chunked(data: bytes, size: int = 4096) -> bytes:
    out = b""
    for i in range(0, len(data), size):
        part = data[i:i + size]
        out += f"{len(part):x}\r\n".encode() + part + b"\r\n"
    return out + b"0\r\n\r\n"


def test_served_health_and_score(server: tuple[int, Path]) -> None:
    port, log = server
    assert _request(port, "GET", "/healthz")[0] == 200
    status, content_type, body = _request(port, "POST", SCORE_URL,
                                          json.dumps(NINE_GATES_REQUEST).encode(),
                                          {"Content-Type": "application/json"})
    assert (status, body) == (200, NINE_GATES_RESPONSE)
    assert content_type.startswith("application/json")
    # The access log, on stdout: one JSON line per request, written within a quarter second.
    wanted = {("GET", "/healthz", 200), ("POST", "/v1/rulesets/<ruleset>/score", 200)}
    assert wanted <= _access_lines_within(log, wanted, 5)
    assert not any("GET /healthz HTTP" in line for line in log.read_text().splitlines())


def _access_lines_within(log: Path, wanted: set[tuple[str, str, int]],
                         seconds: float) -> set[tuple[str, str, int]]:
    """(method, route, status) of the access-log lines in `log`, once they include `wanted`
    or `seconds` have passed."""
    deadline = time.monotonic() + seconds
    while True:
        found = {(x["method"], x["route"], x["status"])
                 for x in map(json.loads, (line for line in
                                            log.read_text(errors="replace").splitlines()
                                            if line.startswith("{")))
                 if "route" in x}
        if wanted <= found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def test_served_access_lines_are_written_when_the_server_stops(tmp_path: Path) -> None:
    # Lines wait up to a quarter second to be written together: a worker that exits writes
    # what it holds first.
    with _running(tmp_path) as (port, log):
        assert _request(port, "GET", "/readyz")[0] == 200
        assert _request(port, "GET", "/v1/rulesets")[0] == 200
    lines = [json.loads(line) for line in log.read_text(errors="replace").splitlines()
             if line.startswith("{") and '"route"' in line]
    assert [(x["method"], x["route"]) for x in lines] == [
        ("GET", "/readyz"), ("GET", "/v1/rulesets")]


def test_served_headers(server: tuple[int, Path]) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", server[0], timeout=10)
    try:
        conn.request("GET", "/healthz", headers={"X-Request-ID": "probe-1"})
        response = conn.getresponse()
        response.read()
    finally:
        conn.close()
    assert response.getheader("X-Request-ID") == "probe-1"
    assert response.getheader("Server") is None  # no banner naming the server software


def test_served_openapi(server: tuple[int, Path]) -> None:
    status, content_type, body = _request(server[0], "GET", "/openapi.yaml")
    assert status == 200 and content_type.startswith("application/yaml")
    assert body == (REPO_ROOT / "openapi.yaml").read_bytes()


def test_served_chunked_body(server: tuple[int, Path]) -> None:
    data = json.dumps(NINE_GATES_REQUEST).encode()
    status, body = _raw(server[0], _head("Transfer-Encoding: chunked\r\n"), _chunked(data))
    assert (status, body) == (200, NINE_GATES_RESPONSE)


def test_served_chunked_body_too_large(server: tuple[int, Path]) -> None:
    data = json.dumps(NINE_GATES_REQUEST).encode().ljust(100 * 1024)
    status, body = _raw(server[0], _head("Transfer-Encoding: chunked\r\n"), _chunked(data))
    assert (status, body["code"]) == (413, "payload_too_large")


def test_served_content_length_over_the_limit(server: tuple[int, Path]) -> None:
    status, body = _raw(server[0], _head(f"Content-Length: {2**30}\r\n"), b"{}")
    assert (status, body["code"]) == (413, "payload_too_large")


def test_served_content_length_shorter_than_body(server: tuple[int, Path]) -> None:
    data = json.dumps(NINE_GATES_REQUEST).encode()
    status, body = _raw(server[0], _head("Content-Length: 10\r\n"), data)
    assert (status, body["code"]) == (400, "malformed_json")


def test_served_content_length_longer_than_body(server: tuple[int, Path]) -> None:
    data = json.dumps(NINE_GATES_REQUEST).encode()
    status, body = _raw(server[0], _head(f"Content-Length: {len(data) + 100}\r\n"), data,
                        half_close=True)
    assert (status, body["code"]) == (400, "malformed_json")


IDLE_CONNECTIONS = 4
PARTIAL_HEAD = f"POST {SCORE_URL} HTTP/1.1\r\nHost: x\r\n".encode()
HEALTH_BOUND_S = 1.0


def _still_waiting(sock: socket.socket) -> bool:
    """The server has neither answered nor closed this connection."""
    readable, _, _ = select.select([sock], [], [], 0)
    return not readable


def test_served_health_while_idle_connections_hold_partial_headers(
        server: tuple[int, Path]) -> None:
    """Clients that send part of a request's headers and then nothing must not keep the
    service from answering: /healthz within 1 s, and the scoring endpoints. The server runs
    one worker (WEB_CONCURRENCY=1), so a worker model that gives each connection a worker
    (sync) cannot answer at all here. /healthz answers in milliseconds when the worker is
    free, so the 1 s bound leaves a wide margin for a loaded machine; the idle connections
    are checked to be still held (unanswered, open) once everything was answered."""
    port, _ = server
    assert _request(port, "GET", "/healthz")[0] == 200  # the worker is up and warm
    held: list[socket.socket] = []
    try:
        for _ in range(IDLE_CONNECTIONS):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(PARTIAL_HEAD)
            held.append(sock)
        time.sleep(0.3)  # the server has taken them up and is reading their headers

        started = time.monotonic()
        try:
            status, _, body = _request(port, "GET", "/healthz", timeout=5)
        except OSError as exc:
            pytest.fail(f"/healthz did not answer within 5 s behind {IDLE_CONNECTIONS} idle "
                        f"connections ({exc!r})")
        took = time.monotonic() - started
        assert status == 200 and body["status"] == "ok"
        assert took < HEALTH_BOUND_S, (
            f"/healthz took {took:.3f} s behind {IDLE_CONNECTIONS} idle connections")

        status, _, body = _request(port, "POST", SCORE_URL,
                                   json.dumps(NINE_GATES_REQUEST).encode(),
                                   {"Content-Type": "application/json"})
        assert (status, body) == (200, NINE_GATES_RESPONSE)
        status, _, body = _request(port, "POST", "/v1/rulesets/mcr/waits",
                                   json.dumps({"hand": "1112345678999m",
                                               "context": {"win_type": "self_draw"}}).encode(),
                                   {"Content-Type": "application/json"})
        assert status == 200 and body["ready"] and len(body["waits"]) == 9
        assert _request(port, "GET", "/v1/rulesets")[0] == 200

        assert all(_still_waiting(sock) for sock in held), "an idle connection was dropped"
    finally:
        for sock in held:
            sock.close()


def test_served_health_and_score_while_one_worker_runs_a_long_batch(
        server: tuple[int, Path]) -> None:
    """No head-of-line blocking: while the one worker (WEB_CONCURRENCY=1) answers a waits
    batch of wild-tile hands (seconds of work), a health probe on a fresh connection every
    0.25 s and a score request each answer within 1 s: the engine lets the worker's other
    connections run between the hands it scores (gunicorn.conf.py `post_fork`)."""
    import threading

    port, _ = server
    assert _request(port, "GET", "/healthz")[0] == 200
    # Long enough for several probes, well inside the request time limit (10 s): the
    # compiled engine takes a few ms a hand, so it gets the most hands a batch may hold;
    # plain Python takes several times longer a hand.
    hands = MAX_BATCH_ITEMS if engine_build() == COMPILED else 300
    body = json.dumps({"requests": wild_waits_requests(hands)}).encode()
    done: dict[str, Any] = {}

    def batch() -> None:
        started = time.monotonic()
        done["status"] = _request(port, "POST", "/v1/rulesets/tianjin/waits/batch", body,
                                  {"Content-Type": "application/json"}, timeout=60)[0]
        done["took"] = time.monotonic() - started

    worker = threading.Thread(target=batch)
    worker.start()
    time.sleep(0.3)  # the batch is being scored
    probes: list[float] = []
    scored = None
    while worker.is_alive() and len(probes) < 12:
        started = time.monotonic()
        try:
            status = _request(port, "GET", "/healthz", timeout=HEALTH_BOUND_S)[0]
        except OSError as exc:
            pytest.fail(f"/healthz did not answer within 1 s during the batch ({exc!r})")
        probes.append(time.monotonic() - started)
        assert status == 200
        if scored is None:
            started = time.monotonic()
            status, _, answer = _request(port, "POST", SCORE_URL,
                                         json.dumps(NINE_GATES_REQUEST).encode(),
                                         {"Content-Type": "application/json"},
                                         timeout=HEALTH_BOUND_S)
            scored = time.monotonic() - started
            assert (status, answer) == (200, NINE_GATES_RESPONSE)
        time.sleep(0.25)
    worker.join(timeout=60)
    assert done.get("status") == 200
    # The probes ran while the batch did (else they prove nothing).
    assert len(probes) >= 3 and scored is not None, (probes, done)
    assert max(probes) < HEALTH_BOUND_S and scored < HEALTH_BOUND_S, (probes, scored)


def test_a_port_taken_before_gunicorn_binds_it_is_left_for_another(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The first port found free is taken (listened at) before the server starts: the server
    # found at that port is not ours, so `_running` starts ours again on another port.
    found = _free_port
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        held = int(taken.getsockname()[1])
        tried: list[int] = []

        def first_the_taken_one() -> int:
            tried.append(held if not tried else found())
            return tried[-1]

        monkeypatch.setattr(f"{__name__}._free_port", first_the_taken_one)
        with _running(tmp_path) as (port, log):
            assert len(tried) == 2 and port == tried[1] != held
            assert log == tmp_path / "stdout.2.log"
            assert _listening_at(port).search(log.read_text(errors="replace"))
            assert PORT_TAKEN in (tmp_path / "stdout.log").read_text(errors="replace")
            assert _request(port, "GET", "/healthz")[0] == 200


def test_serve_refuses_to_start_on_a_broken_ruleset(tmp_path: Path) -> None:
    env = _serve_env(_free_port(), **{RULESETS_ENV: str(_broken_rulesets(tmp_path))})
    done = subprocess.run([str(RUN), "serve"], cwd=REPO_ROOT, env=env, capture_output=True,
                          timeout=120, start_new_session=True)
    output = (done.stdout + done.stderr).decode(errors="replace")
    assert done.returncode != 0, output
    assert "RuleSetError" in output and "mcr.yaml" in output and BROKEN_FAN in output


# --- ./run test ---------------------------------------------------------------------------------

def test_run_test_fails_when_nothing_is_collected(tmp_path: Path) -> None:
    # In one process (`-n 0`): pytest's exit status 5 is the same with workers, and starting
    # them would only add time.
    done = subprocess.run([str(RUN), "test", str(tmp_path), "-p", "no:cacheprovider", "-n", "0"],
                          cwd=REPO_ROOT, capture_output=True, timeout=120,
                          env={**os.environ, "RUN_NO_INSTALL": "1"})  # installed already
    assert done.returncode == 1, done.stdout.decode() + done.stderr.decode()
    assert b"collected no tests" in done.stderr


def test_run_test_runs_on_workers_unless_told_not_to(tmp_path: Path) -> None:
    # pytest-xdist workers by default (`./run test` passes -n); ARGS given after it win, and
    # `-p no:xdist` leaves xdist out. The test says where it ran.
    (tmp_path / "test_where.py").write_text(
        "import os\n\n\ndef test_where() -> None:\n"
        "    print('ran in', os.environ.get('PYTEST_XDIST_WORKER', 'the main process'))\n",
        encoding="utf-8")
    # This test may run in a worker itself: none of its xdist variables go to the new run.
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}
    for args, where in [((), "ran in gw"), (("-n", "0"), "ran in the main process"),
                        (("-p", "no:xdist"), "ran in the main process")]:
        done = subprocess.run([str(RUN), "test", str(tmp_path), "-p", "no:cacheprovider",
                               "-rP", *args], cwd=REPO_ROOT, capture_output=True, text=True,
                              timeout=120, env={**env, "RUN_NO_INSTALL": "1"})
        assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout + done.stderr
        assert where in done.stdout, (args, done.stdout)
        assert ("created:" in done.stdout) == (not args), (args, done.stdout)


BODY_TIMEOUT_S = 1.0
# What a loaded machine may add to the deadline before the answer arrives.
BODY_TIMEOUT_MARGIN_S = 1.5


def test_served_body_past_its_deadline_is_a_408_and_the_connection_closes(
        tmp_path: Path) -> None:
    """A client that sends a request's headers and then its body a byte at a time is
    answered 408 request_timeout at the body's deadline (MAHJONG_BODY_TIMEOUT=1), though its
    read is still waiting (gevent's timer cuts it short), and its connection is then closed
    at once: the rest of the body is not read. The request asks to keep the connection open,
    which gunicorn would, reading the rest of the body for `keepalive` (5 s) before the next
    request, were it not for the app's `Connection: close`. Meanwhile the one worker answers
    /healthz on another connection. Both ways of sending a body: Content-Length and
    chunked."""
    data = json.dumps(NINE_GATES_REQUEST).encode()
    heads = {
        "content-length": (f"POST {SCORE_URL} HTTP/1.1\r\nHost: localhost\r\n"
                           "Content-Type: application/json\r\n"
                           f"Content-Length: {len(data)}\r\n\r\n").encode(),
        "chunked": (f"POST {SCORE_URL} HTTP/1.1\r\nHost: localhost\r\n"
                    "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                    f"{len(data):x}\r\n").encode(),
    }
    with _running(tmp_path, MAHJONG_BODY_TIMEOUT=str(BODY_TIMEOUT_S)) as (port, _):
        assert _request(port, "GET", "/healthz")[0] == 200  # the worker is up and warm
        for way, head in heads.items():
            with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                sock.sendall(head)
                started = time.monotonic()
                sent = 0
                health: float | None = None
                # A byte every 0.2 s until the server answers (or 5 s, which fails below).
                while _still_waiting(sock) and time.monotonic() - started < 5:
                    if health is None and time.monotonic() - started > 0.3:
                        asked = time.monotonic()
                        try:
                            assert _request(port, "GET", "/healthz",
                                            timeout=HEALTH_BOUND_S)[0] == 200
                        except OSError as exc:
                            pytest.fail(f"/healthz did not answer within 1 s ({exc!r})")
                        health = time.monotonic() - asked
                    sock.sendall(data[sent:sent + 1])
                    sent += 1
                    select.select([sock], [], [], 0.2)
                took = time.monotonic() - started
                response = http.client.HTTPResponse(sock)
                response.begin()
                body = json.loads(response.read())
                assert (response.status, body["code"]) == (408, "request_timeout"), (way, body)
                assert response.getheader("Content-Type") == "application/problem+json"
                assert response.getheader("Connection") == "close"
                assert BODY_TIMEOUT_S * 0.9 <= took < BODY_TIMEOUT_S + BODY_TIMEOUT_MARGIN_S, (
                    way, took)
                assert 0 < sent < len(data) and health is not None, (way, sent)
                # Closed, not kept for another request: the end of the stream comes at once.
                sock.settimeout(1.0)
                try:
                    assert sock.recv(1) == b"", way
                except TimeoutError:
                    pytest.fail(f"{way}: the connection was kept open after the 408")
        # The worker goes on serving.
        status, _, answer = _request(port, "POST", SCORE_URL, data,
                                     {"Content-Type": "application/json"})
        assert (status, answer) == (200, NINE_GATES_RESPONSE)


def test_served_request_past_the_time_limit_is_a_problem(tmp_path: Path) -> None:
    # A time limit of 0 s has passed before the first hand is scored: the engine stops and
    # the service, under gunicorn, answers the problem document (not a worker's HTML page).
    with _running(tmp_path, MAHJONG_TIME_LIMIT="0") as (port, _):
        status, content_type, body = _request(port, "POST", SCORE_URL,
                                              json.dumps(NINE_GATES_REQUEST).encode(),
                                              {"Content-Type": "application/json"})
        assert (status, content_type) == (503, "application/problem+json")
        assert body["code"] == "time_limit_exceeded"
        # The worker goes on serving.
        assert _request(port, "GET", "/healthz")[0] == 200
