"""The deadline for a request's body (app/api/body_deadline.py), in-process: a fake clock, a
body that arrives slowly, and a fake timer standing in for gevent's (gunicorn.conf.py). The
served test is in tests/api/test_serve.py."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
from flask import Flask
from werkzeug.test import EnvironBuilder, run_wsgi_app
from werkzeug.wrappers import Response

from app.api import body_deadline, create_app
from app.api.body_deadline import BodyDeadline, BodyTimeout, DeadlineInput, timeout_problem
from app.settings import BODY_TIMEOUT_ENV
from tests.api.helpers import (
    NINE_GATES_REQUEST,
    NINE_GATES_RESPONSE,
    SCORE_URL,
    problem,
    validate_live,
)

LIMIT = 2.0
BODY = json.dumps(NINE_GATES_REQUEST).encode()


class Clock:
    """A monotonic clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.calls = 0

    def __call__(self) -> float:
        self.calls += 1
        return self.now


class FakeTimer:
    """`timer(seconds, exception)` as gevent.Timeout is registered: while its block runs, a
    read that would still be waiting when the seconds have passed is interrupted then, with
    the exception (`SlowInput` asks `running`)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.running: tuple[float, BaseException] | None = None
        self.started: list[float] = []

    @contextlib.contextmanager
    def __call__(self, seconds: float, exception: BaseException) -> Iterator[None]:
        self.started.append(round(seconds, 6))
        self.running = (self.clock.now + seconds, exception)
        try:
            yield
        finally:
            self.running = None


class SlowInput:
    """A body whose every read waits `delay` seconds (on `clock`) and then returns at most
    `step` bytes of `data`, as a server's input does with a slow client."""

    def __init__(self, clock: Clock, timer: FakeTimer | None, data: bytes, delay: float,
                 step: int = 1 << 20) -> None:
        self.clock, self.timer = clock, timer
        self.data, self.delay, self.step = io.BytesIO(data), delay, step
        self.reads = 0

    def _wait(self) -> None:
        self.reads += 1
        arrives = self.clock.now + self.delay
        running = self.timer.running if self.timer is not None else None
        if running is not None and running[0] < arrives:
            self.clock.now = running[0]  # cut short at the timer's expiry
            raise running[1]
        self.clock.now = arrives

    def read(self, size: int = -1) -> bytes:
        self._wait()
        return self.data.read(self.step if size < 0 else min(size, self.step))

    def readline(self, size: int = -1) -> bytes:
        self._wait()
        return self.data.readline(size)

    def readlines(self, hint: int = -1) -> list[bytes]:
        self._wait()
        return self.data.readlines(hint)


@pytest.fixture()
def clock() -> Clock:
    return Clock()


@pytest.fixture()
def timer(clock: Clock) -> Iterator[FakeTimer]:
    fake = FakeTimer(clock)
    body_deadline.set_timer(fake)
    try:
        yield fake
    finally:
        body_deadline.set_timer(None)


@pytest.fixture(scope="module")
def deadline_app() -> Flask:
    return create_app({"ACCESS_LOG": False, "BODY_TIMEOUT": LIMIT})


def _environ(chunked: bool, method: str = "POST", path: str = SCORE_URL,
             data: bytes = BODY) -> dict[str, Any]:
    environ = EnvironBuilder(path=path, method=method, data=data,
                             content_type="application/json").get_environ()
    if chunked:
        # As gunicorn hands over a chunked body: no length, the stream ends at the body's end.
        del environ["CONTENT_LENGTH"]
        environ["HTTP_TRANSFER_ENCODING"] = "chunked"
        environ["wsgi.input_terminated"] = True
    return environ


def _call(app: Any, environ: dict[str, Any]) -> Response:
    body, status, headers = run_wsgi_app(app, environ, buffered=True)
    return Response(b"".join(body), status=status, headers=headers)


def _deadline_of(app: Flask) -> BodyDeadline | None:
    """The app's body-deadline middleware, inside the observing one (app/api/observe.py)."""
    inner = getattr(app.wsgi_app, "wsgi_app", None)
    return inner if isinstance(inner, BodyDeadline) else None


def _served(app: Flask, clock: Clock, environ: dict[str, Any]) -> Response:
    """`environ` through `app`, its body deadline read from `clock`."""
    deadline = _deadline_of(app)
    assert deadline is not None
    before = deadline.clock
    deadline.clock = clock
    try:
        return _call(app, environ)
    finally:
        deadline.clock = before


def _request_timeout(response: Response) -> dict[str, Any]:
    body = problem(response, 408, "request_timeout")
    assert response.headers["Connection"] == "close"
    assert f"limit of {LIMIT:g} s" in body["detail"] and "at once" in body["detail"]
    return body


# --- past the deadline -----------------------------------------------------------------------

@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_the_timer_cuts_a_waiting_read_short_at_the_deadline(
        deadline_app: Flask, spec: dict[str, Any], clock: Clock, timer: FakeTimer,
        chunked: bool) -> None:
    environ = _environ(chunked)
    environ["wsgi.input"] = SlowInput(clock, timer, BODY, delay=30)
    started = clock.now
    response = _served(deadline_app, clock, environ)
    _request_timeout(response)
    validate_live(spec, "/v1/rulesets/{ruleset}/score", "post", response)
    # Answered at the deadline, not when the read would have returned (30 s).
    assert clock.now == started + LIMIT
    assert timer.started == [LIMIT]


def test_a_trickle_is_cut_off_at_the_deadline_counted_from_the_headers(
        deadline_app: Flask, clock: Clock, timer: FakeTimer) -> None:
    # A chunked body read a few bytes at a time, every 0.3 s: each read ends in time, the
    # body as a whole does not. Each read is given what is left of the deadline, not a
    # deadline of its own. (A Content-Length body is one read: the server's input reads
    # until it has the length asked for.)
    environ = _environ(True)
    environ["wsgi.input"] = SlowInput(clock, timer, BODY, delay=0.3, step=4)
    started = clock.now
    _request_timeout(_served(deadline_app, clock, environ))
    assert clock.now == started + LIMIT
    # Reads at 0, 0.3, ... 1.8 s, the seventh cut short at 2 s.
    assert timer.started == [round(LIMIT - 0.3 * i, 6) for i in range(7)]


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_without_a_timer_a_read_past_the_deadline_is_refused_when_it_returns(
        deadline_app: Flask, clock: Clock, chunked: bool) -> None:
    environ = _environ(chunked)
    environ["wsgi.input"] = SlowInput(clock, None, BODY, delay=5)
    started = clock.now
    _request_timeout(_served(deadline_app, clock, environ))
    assert clock.now == started + 5  # nothing interrupted the read


def test_the_documented_example_is_what_the_service_answers(spec: dict[str, Any]) -> None:
    documented = spec["components"]["responses"]["RequestTimeout"]
    assert documented["content"]["application/problem+json"]["examples"]["request_timeout"][
        "value"] == timeout_problem(10)
    assert documented["headers"]["Connection"]["schema"]["const"] == "close"


def test_a_read_after_the_deadline_is_refused_before_it_starts(clock: Clock) -> None:
    stream = SlowInput(clock, None, b"a\nb\n", delay=0)
    reader = DeadlineInput(stream, clock.now + 1, 1.0, clock)
    assert reader.readline() == b"a\n"
    clock.now += 1.5
    for read in (reader.read, reader.readline, reader.readlines, lambda: list(reader)):
        with pytest.raises(BodyTimeout, match=r"within 1 s"):
            read()
    assert stream.reads == 1


def test_a_timeout_the_app_does_not_answer_is_answered_by_the_middleware(
        clock: Clock) -> None:
    def reads(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        environ["wsgi.input"].read()
        raise AssertionError("the read should not return")

    started: list[tuple[str, list[tuple[str, str]]]] = []

    def start_response(status: str, headers: list[tuple[str, str]],
                       exc_info: Any = None) -> Any:
        # As PEP 3333 (and gunicorn) has it: with `exc_info`, the answer replaces any begun
        # before, unless its headers were sent already (here they never are). werkzeug's
        # test runner raises again whenever it is given.
        started.append((status, headers))
        return None

    environ = _environ(False)
    environ["wsgi.input"] = SlowInput(clock, None, BODY, delay=5)
    data = b"".join(BodyDeadline(reads, LIMIT, clock)(environ, start_response))
    response = Response(data, status=started[-1][0], headers=started[-1][1])
    body = _request_timeout(response)
    assert response.headers["Content-Length"] == str(len(response.get_data()))
    assert "request_id" not in body  # outside the app: no request ID to give


def test_the_timeout_is_not_taken_for_a_broken_connection() -> None:
    # The body reader answers OSError and ValueError as a broken connection (400), and
    # werkzeug's LimitedStream swallows them; a deadline is neither.
    assert not issubclass(BodyTimeout, (OSError, ValueError))
    assert issubclass(BodyTimeout, Exception)


# --- within the deadline, and requests without a body ---------------------------------------

@pytest.mark.parametrize(("chunked", "delay", "step"), [
    (False, 1.9, len(BODY)),  # one read, in time
    (True, 0.4, 128),  # four reads (the last finds the end) in 1.6 s
], ids=["content-length", "chunked"])
def test_a_body_in_time_is_scored(deadline_app: Flask, clock: Clock, timer: FakeTimer,
                                  chunked: bool, delay: float, step: int) -> None:
    environ = _environ(chunked)
    environ["wsgi.input"] = SlowInput(clock, timer, BODY, delay=delay, step=step)
    response = _served(deadline_app, clock, environ)
    assert response.status_code == 200, response.get_data()
    assert response.get_json() == NINE_GATES_RESPONSE
    assert "Connection" not in response.headers
    assert timer.started and timer.started[0] == LIMIT


def test_the_app_client_is_unaffected(deadline_app: Flask) -> None:
    client = deadline_app.test_client()
    assert client.post(SCORE_URL, json=NINE_GATES_REQUEST).get_json() == NINE_GATES_RESPONSE
    assert client.get("/healthz").status_code == 200


@pytest.mark.parametrize(("method", "path", "data"), [
    ("GET", "/healthz", b""),
    ("POST", SCORE_URL, b""),  # Content-Length: 0
])
def test_a_request_without_a_body_is_untouched(clock: Clock, method: str, path: str,
                                               data: bytes) -> None:
    seen: list[Any] = []

    def inner(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        seen.append(environ["wsgi.input"])
        start_response("204 No Content", [])
        return []

    environ = _environ(False, method, path, data)
    original = environ["wsgi.input"]
    assert _call(BodyDeadline(inner, LIMIT, clock), environ).status_code == 204
    assert seen == [original]
    assert clock.calls == 0  # not even the clock is read


def test_the_reader_reads_as_the_input_does(clock: Clock) -> None:
    data = b"one\ntwo\nthree\n"

    def reader() -> DeadlineInput:
        return DeadlineInput(io.BytesIO(data), clock.now + 1, 1.0, clock)

    assert reader().read() == data
    assert reader().read(5) == data[:5]
    assert reader().readline() == b"one\n"
    assert reader().readline(2) == b"on"
    assert reader().readlines() == [b"one\n", b"two\n", b"three\n"]
    assert reader().readlines(5) == [b"one\n", b"two\n"]
    assert list(reader()) == [b"one\n", b"two\n", b"three\n"]
    # werkzeug's LimitedStream reads through `read` when there is no `readinto`.
    assert not hasattr(reader(), "readinto")


# --- the setting -----------------------------------------------------------------------------

def test_the_deadline_comes_from_the_config_or_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(BODY_TIMEOUT_ENV, raising=False)
    app = create_app({"ACCESS_LOG": False})
    assert app.config["BODY_TIMEOUT"] == 10
    deadline = _deadline_of(app)
    assert deadline is not None and deadline.seconds == 10
    monkeypatch.setenv(BODY_TIMEOUT_ENV, "2.5")
    assert create_app({"ACCESS_LOG": False}).config["BODY_TIMEOUT"] == 2.5
    # The config key wins over the environment.
    assert create_app({"ACCESS_LOG": False, "BODY_TIMEOUT": 1}).config["BODY_TIMEOUT"] == 1


def test_a_deadline_of_0_is_none(clock: Clock) -> None:
    app = create_app({"ACCESS_LOG": False, "BODY_TIMEOUT": 0})
    assert _deadline_of(app) is None
    environ = _environ(False)
    environ["wsgi.input"] = SlowInput(clock, None, BODY, delay=60)
    assert _call(app, environ).status_code == 200
    with pytest.raises(ValueError, match="more than 0 seconds"):
        BodyDeadline(app.wsgi_app, 0)


@pytest.mark.parametrize("value", ["soon", "", "-1", "nan", "inf"])
def test_a_bad_deadline_stops_the_service_at_start(monkeypatch: pytest.MonkeyPatch,
                                                   value: str) -> None:
    monkeypatch.setenv(BODY_TIMEOUT_ENV, value)
    with pytest.raises(ValueError, match="body timeout"):
        create_app({"ACCESS_LOG": False})
