"""A deadline for reading a request's whole body.

gunicorn gives a client `keepalive` (5 s) to send a request's headers, but no limit for the
body: a client that sends its headers and then its body a byte a second keeps its connection,
and a slot of its worker (`worker_connections`), for as long as it likes. `BodyDeadline`, a
WSGI middleware, gives the body a deadline: for a request with a body (a Content-Length above
0, or a Transfer-Encoding: chunked) it replaces `wsgi.input` with a reader that raises
`BodyTimeout` once the deadline has passed, measured on the monotonic clock from when the
request reached the app (its headers read) to the body's last byte. The app answers it
`408 request_timeout` with `Connection: close` (app/api/handlers.py), so the rest of the body
is never read; should it reach the middleware unanswered, the middleware answers it the same.

Cutting a blocking read short. A server that waits for I/O in an event loop (gevent: the
service's default worker) registers a timer with `set_timer` (gunicorn.conf.py registers
`gevent.Timeout`): each read then runs inside `timer(seconds left, BodyTimeout(...))`, which
interrupts it at the deadline. Without a timer (in-process, sync or gthread workers) the
deadline is checked before each read and when it returns: a read that blocks is not
interrupted, and what it returns past the deadline is refused. This module does not import
gevent, so it works without it.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from typing import Any, Protocol, TypeVar

from app.service.problems import PROBLEM_MEDIA_TYPE, problem_body

__all__ = ["BodyDeadline", "BodyTimeout", "set_timer", "timeout_problem", "with_body_deadline"]

_T = TypeVar("_T")
Environ = dict[str, Any]
StartResponse = Callable[..., Any]
WsgiApp = Callable[[Environ, StartResponse], Iterable[bytes]]
# `timer(seconds, exception)`: a context manager that raises `exception` inside its block once
# `seconds` have passed, even while the block waits for I/O (gevent.Timeout is one).
Timer = Callable[[float, BaseException], AbstractContextManager[object]]

_timer: Timer | None = None


class InputStream(Protocol):
    """What PEP 3333 asks of `wsgi.input`."""

    def read(self, size: int = ..., /) -> bytes: ...
    def readline(self, size: int = ..., /) -> bytes: ...
    def readlines(self, hint: int = ..., /) -> list[bytes]: ...


def set_timer(timer: Timer | None) -> None:
    """From now on each read of a request body runs inside `timer(seconds left, exception)`
    (None: no timer; the deadline is checked when a read returns)."""
    global _timer
    _timer = timer


class BodyTimeout(Exception):
    """The request body did not arrive within the deadline. Neither an OSError nor a
    ValueError: code reading the body takes those for a broken connection (app/api/body.py,
    werkzeug's LimitedStream), which this is not."""

    def __init__(self, limit: float) -> None:
        # One is made for each read of a body (the timer needs it at hand): no message is
        # formatted until one is asked for.
        super().__init__(limit)
        self.limit = limit

    def __str__(self) -> str:
        return f"the request body did not arrive within {self.limit:g} s"


def timeout_problem(limit: float) -> dict[str, Any]:
    """The problem document of a body past the deadline of `limit` seconds."""
    return problem_body(
        "request_timeout",
        f"The request body did not arrive within the service's limit of {limit:g} s after "
        "the request's headers, so the request was not read any further and the connection "
        "is closed. Send the whole body right after the headers, at once; if your requests "
        "need longer to send, ask the operator to raise the limit.")


class DeadlineInput:
    """`wsgi.input` with a deadline: `read`, `readline`, `readlines` and iteration by lines
    raise `BodyTimeout` past it. No `readinto`: werkzeug's LimitedStream (a chunked body) then
    reads through `read`."""

    __slots__ = ("_clock", "_deadline", "_limit", "_stream")

    def __init__(self, stream: InputStream, deadline: float, limit: float,
                 clock: Callable[[], float]) -> None:
        self._stream = stream
        self._deadline = deadline
        self._limit = limit
        self._clock = clock

    def _within(self, read: Callable[..., _T], *args: Any) -> _T:
        left = self._deadline - self._clock()
        if left <= 0:
            raise BodyTimeout(self._limit)
        timer = _timer
        if timer is None:
            data = read(*args)
        else:
            with timer(left, BodyTimeout(self._limit)):
                data = read(*args)
        # Without a timer a read may have blocked past the deadline: what it read comes too
        # late. (With one, a read ending within a hair of the deadline is refused as well.)
        if self._clock() > self._deadline:
            raise BodyTimeout(self._limit)
        return data

    def read(self, size: int | None = None) -> bytes:
        if size is None:
            return self._within(self._stream.read)
        return self._within(self._stream.read, size)

    def readline(self, size: int | None = None) -> bytes:
        if size is None:
            return self._within(self._stream.readline)
        return self._within(self._stream.readline, size)

    def readlines(self, hint: int | None = None) -> list[bytes]:
        if hint is None:
            return self._within(self._stream.readlines)
        return self._within(self._stream.readlines, hint)

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.readline, b"")


class BodyDeadline:
    """WSGI middleware: the body of each request that has one must arrive within `seconds`
    of the request reaching it; a request without a body passes untouched. `clock`: the
    monotonic clock (the tests give their own)."""

    __slots__ = ("app", "clock", "seconds")

    def __init__(self, app: WsgiApp, seconds: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if not seconds > 0:
            raise ValueError(f"the body deadline must be more than 0 seconds, not {seconds!r}")
        self.app = app
        self.seconds = seconds
        self.clock = clock

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        # Runs on every request: two dictionary lookups decide, and a request without a body
        # (a GET, a Content-Length of 0) costs nothing more.
        length = environ.get("CONTENT_LENGTH")
        if (not length or length == "0") and "HTTP_TRANSFER_ENCODING" not in environ:
            return self.app(environ, start_response)
        seconds = self.seconds
        clock = self.clock
        environ["wsgi.input"] = DeadlineInput(environ["wsgi.input"], clock() + seconds,
                                              seconds, clock)
        try:
            return self.app(environ, start_response)
        except BodyTimeout as exc:
            # The app let it through (the service's own handler answers it inside the app).
            return _answer(exc, start_response)


def _answer(exc: BodyTimeout, start_response: StartResponse) -> list[bytes]:
    """The 408 problem, with `Connection: close`. `start_response` gets the exception: should
    the answer have begun already, the server raises it again and drops the connection."""
    payload = json.dumps(timeout_problem(exc.limit), ensure_ascii=False).encode()
    start_response("408 Request Timeout",
                   [("Content-Type", PROBLEM_MEDIA_TYPE), ("Content-Length", str(len(payload))),
                    ("Connection", "close")], sys.exc_info())
    return [payload]


def with_body_deadline(app: WsgiApp, seconds: float) -> WsgiApp:
    """`app` behind a body deadline of `seconds`; 0: no deadline (`app` itself)."""
    return BodyDeadline(app, seconds) if seconds > 0 else app
