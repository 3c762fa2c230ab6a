"""What an operator sees of each request: its ID, one structured access-log line, its metrics.

All three are done by one WSGI middleware (`Observed`) around the Flask app, not by Flask's
request hooks: it reads what it needs from the WSGI environ and the response's status line
and headers, so a request pays a few microseconds for them (bench/request.py, bench/http.py).

Request IDs. A client (or the proxy in front) may send `X-Request-ID`; a value of 1 to 128
characters from `[A-Za-z0-9._:/+=@-]` is kept, anything else is replaced by a fresh random ID
(an ID is copied into logs, so it may not carry arbitrary text). Every response echoes it in
`X-Request-ID`, every problem document carries it as `request_id`, and the access log names it,
so a client's complaint leads to the log line.

The access log. One JSON object per request on standard output, once the app has answered:
time, request ID, method, route (the URL rule, such as `/v1/rulesets/<ruleset>/score`, not
the raw path), path, rule set, status, duration in milliseconds, response bytes and the client
address. Lines are not written through `logging` (a record, a handler's lock and a formatter
per request cost more than the line) and not one write per request: they are collected and
written together (`AccessLog`), at most `FLUSH_INTERVAL` seconds after the request, in writes
of whole lines of at most `PIPE_BUF` bytes, which the workers sharing standard output cannot
interleave. gunicorn's own plain-text access log is off (gunicorn.conf.py), so each request is
logged once.

The app's own log. What the app's code logs (logger `app`: Flask's `app.logger` and every
`app.*` module's logger, such as a batch past its time limit or an unhandled error) goes to
standard output too, one JSON object per record: time, level, logger, message, the request
ID when logged inside a request (else null) and, when the record carries one, the traceback
as `exception`. The record is formatted only when it is written, so the request path pays
nothing for it.
"""

from __future__ import annotations

import atexit
import logging
import os
import re
import select
import sys
import threading
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import orjson
from flask import Flask, Request, has_request_context, request

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

    from app.api.metrics import Metrics

REQUEST_ID_HEADER = "X-Request-ID"
_VALID_ID = re.compile(r"[A-Za-z0-9._:/+=@-]{1,128}")
# Where the middleware keeps the request's ID for the app (problem documents, log records).
REQUEST_ID_KEY = "mahjong.request_id"
# Where the app's request object leaves itself for the middleware (Flask clears its own
# `werkzeug.request` when the request ends).
REQUEST_KEY = "mahjong.request"
# Where a request answered without Flask (app/api/direct.py) leaves its URL rule and rule set.
ROUTE_KEY = "mahjong.route"

# The package's logger: Flask names `app.logger` after the import name (`app`), and the
# modules' `logging.getLogger(__name__)` loggers are its children.
APP_LOGGER = "app"

# Access-log lines wait at most this long (seconds) before they are written...
FLUSH_INTERVAL = 0.25
# ...or until this many are queued (a few KB: a line is a few hundred bytes).
LINES_PER_WRITE = 12
# A write of at most this many bytes to a pipe is atomic (POSIX): another worker's line never
# lands inside it.
PIPE_BUF = getattr(select, "PIPE_BUF", 512)


def request_id() -> str:
    """The current request's ID (made by the middleware when the request came in)."""
    environ = request.environ
    found: str | None = environ.get(REQUEST_ID_KEY)
    if found is None:  # an app used without its middleware
        found = environ[REQUEST_ID_KEY] = _new_id(environ.get("HTTP_X_REQUEST_ID"))
    return found


def _new_id(sent: str | None) -> str:
    if sent is not None and _VALID_ID.fullmatch(sent):
        return sent
    return os.urandom(16).hex()


class AccessLog:
    """Access-log lines for a file descriptor (standard output), written in batches.

    `add` only appends the line; the lines go out once `LINES_PER_WRITE` are queued, else
    within `FLUSH_INTERVAL` seconds (a background thread; a greenlet under gevent, whose
    monkey-patching makes it one), and when the process exits, in writes of whole lines of at
    most `PIPE_BUF` bytes. So a line is lost
    only if its process is killed outright (SIGKILL, out of memory) within that interval."""

    def __init__(self, fd: int = 1, interval: float = FLUSH_INTERVAL) -> None:
        self.fd = fd
        self.interval = interval
        self._lines: list[bytes] = []
        self._lock = threading.Lock()
        self._flusher_pid = 0  # the process whose flusher runs (none yet; a fork has none)
        self._failed = False
        atexit.register(self.flush)

    def add(self, line: bytes) -> None:
        """Queue one line (ending in a newline)."""
        if self._flusher_pid != os.getpid():
            self._start_flusher()
        lines = self._lines
        lines.append(line)
        # Whoever holds the lock is writing already (the flusher).
        if len(lines) >= LINES_PER_WRITE and self._lock.acquire(blocking=False):
            try:
                self._write()
            finally:
                self._lock.release()

    def flush(self) -> None:
        """Write every queued line now."""
        with self._lock:
            self._write()

    def _start_flusher(self) -> None:
        self._flusher_pid = os.getpid()
        # Made in this process: under gevent, after its monkey-patching (a preloaded app is
        # made in gunicorn's master, before the fork).
        self._lock = threading.Lock()
        threading.Thread(target=self._flush_every_interval, name="access-log-flush",
                         daemon=True).start()

    def _flush_every_interval(self) -> None:
        while True:
            time.sleep(self.interval)
            if self._lines:
                self.flush()

    def _write(self) -> None:
        # Taken as they are now: a line added meanwhile stays queued for the next write.
        lines, count = self._lines, len(self._lines)
        if not count:
            return
        taken = lines[:count]
        del lines[:count]
        chunk: list[bytes] = []
        size = 0
        try:
            for line in taken:
                if chunk and size + len(line) > PIPE_BUF:
                    self._write_all(b"".join(chunk))
                    chunk, size = [], 0
                chunk.append(line)
                size += len(line)
            if chunk:
                self._write_all(b"".join(chunk))
        except OSError as exc:  # standard output closed or full: say so once, keep serving
            if not self._failed:
                self._failed = True
                print(f"access log: lines are lost, standard output failed: {exc}",
                      file=sys.stderr)

    def _write_all(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view):]


class ObservedRequest(Request):
    """Flask's request, which the middleware can find once the app has answered: the URL
    rule it matched (`url_rule`) and its arguments."""

    def __init__(self, environ: WSGIEnvironment, *args: Any, **kwargs: Any) -> None:
        super().__init__(environ, *args, **kwargs)
        environ[REQUEST_KEY] = self


def _stamp(seconds: float) -> str:
    """`seconds` since the epoch in the logs' format: ISO 8601 in UTC, to the millisecond."""
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds")


class Observed:
    """The WSGI middleware: a request ID for every request (echoed in `X-Request-ID`), then,
    once the app has answered, the request's metrics and access-log line."""

    def __init__(self, wsgi_app: WSGIApplication, metrics: Metrics,
                 access_log: AccessLog | None) -> None:
        self.wsgi_app = wsgi_app
        self.metrics = metrics
        self.access_log = access_log

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse
                 ) -> Iterable[bytes]:
        started = time.perf_counter()
        rid = environ[REQUEST_ID_KEY] = _new_id(environ.get("HTTP_X_REQUEST_ID"))
        answer: list[Any] = []

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None
                  ) -> Callable[[bytes], object]:
            headers.append((REQUEST_ID_HEADER, rid))
            answer[:] = status, headers
            return start_response(status, headers, exc_info)

        metrics = self.metrics
        # A scrape does not count itself as a request in flight.
        counted = environ.get("PATH_INFO") != "/metrics"
        if counted:
            metrics.in_flight.inc()
        try:
            body = self.wsgi_app(environ, start)
        finally:
            if counted:
                metrics.in_flight.dec()
        if not answer:  # nothing answered yet (an app that answers as it streams)
            return body
        seconds = time.perf_counter() - started
        status = int(answer[0][:3])
        # Flask's request (removed from the environ: no reference cycle left behind), or what
        # the direct path left.
        req: Request | None = environ.pop(REQUEST_KEY, None)
        route: str | None
        ruleset: str | None
        if req is not None:
            rule = req.url_rule
            route = rule.rule if rule is not None else None
            ruleset = (req.view_args or {}).get("ruleset") if rule is not None else None
            path = req.path
        else:
            route, ruleset = environ.pop(ROUTE_KEY, (None, None))
            path = environ.get("PATH_INFO")
        method = environ.get("REQUEST_METHOD", "")
        metrics.count_request(route, ruleset, method, status, seconds)
        if self.access_log is not None:
            length = None
            for name, value in answer[1]:
                if name == "Content-Length":
                    length = int(value)
            self.access_log.add(orjson.dumps({
                "time": _stamp(time.time()),
                "request_id": rid,
                "method": method,
                "route": route,
                "path": path,
                "ruleset": ruleset,
                "status": status,
                "duration_ms": round(seconds * 1000, 3),
                "bytes": length,
                "remote": environ.get("REMOTE_ADDR"),
            }, option=orjson.OPT_APPEND_NEWLINE))
        return body


class JsonFormatter(logging.Formatter):
    """A log record as one JSON line, in the access log's family (its `time` format, its
    `request_id`)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": _stamp(record.created),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            # The same ID the response echoes.
            "request_id": request_id() if has_request_context() else None,
        }
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["exception"] = record.exc_text
        return orjson.dumps(line).decode()


def _app_logger() -> logging.Logger:
    logger = logging.getLogger(APP_LOGGER)
    # Once per process, however many apps are made (the tests make several).
    if not any(isinstance(h.formatter, JsonFormatter) for h in logger.handlers):
        handler = logging.StreamHandler(sys.stdout)
        handler.setFormatter(JsonFormatter())
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        # Written here alone: a root handler (gunicorn's logconfig, an embedding program)
        # would write each record a second time, in another format.
        logger.propagate = False
    return logger


# One access log per process, whatever the number of apps (they write to the same place).
_access_log: AccessLog | None = None


def shared_access_log() -> AccessLog:
    """The process's access log on standard output."""
    global _access_log
    if _access_log is None:
        _access_log = AccessLog()
    return _access_log


def flush_access_log() -> None:
    """Write what the process's access log holds (gunicorn.conf.py: as a worker exits)."""
    if _access_log is not None:
        _access_log.flush()


def register_observe(app: Flask, metrics: Metrics, *, access_log: bool) -> None:
    """Request IDs, metrics and (when `access_log`) the access log for every request of
    `app`, by wrapping its WSGI app (call it last, so that it sees every answer as sent);
    the app's own log as JSON lines."""
    _app_logger()
    log = shared_access_log() if access_log else None
    app.request_class = ObservedRequest
    app.wsgi_app = Observed(app.wsgi_app, metrics, log)  # type: ignore[method-assign]
