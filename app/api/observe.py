"""What an operator sees of each request: its ID, and one structured access-log line.

Request IDs. A client (or the proxy in front) may send `X-Request-ID`; a value of 1 to 128
characters from `[A-Za-z0-9._:/+=@-]` is kept, anything else is replaced by a fresh random ID
(an ID is copied into logs, so it may not carry arbitrary text). Every response echoes it in
`X-Request-ID`, every problem document carries it as `request_id`, and the access log names it,
so a client's complaint leads to the log line.

The access log. One JSON object per request on standard output (logger
`mahjong_scoring.access`), written after the response is complete: time, request ID, method,
route (the URL rule, such as `/v1/rulesets/<ruleset>/score`, not the raw path), path, rule set,
status, duration in milliseconds, response bytes and the client address. gunicorn's own
plain-text access log is off (gunicorn.conf.py), so each request is logged once.

The app's own log. What the app's code logs (logger `app`: Flask's `app.logger` and every
`app.*` module's logger, such as a batch past its time limit or an unhandled error) goes to
standard output too, one JSON object per record: time, level, logger, message, the request
ID when logged inside a request (else null) and, when the record carries one, the traceback
as `exception`. The record is formatted only when it is written, so the request path pays
nothing for it.
"""

from __future__ import annotations

import logging
import re
import sys
import time
import uuid
from datetime import UTC, datetime
from typing import Any

import orjson
from flask import Flask, Response, g, has_request_context, request

REQUEST_ID_HEADER = "X-Request-ID"
_VALID_ID = re.compile(r"[A-Za-z0-9._:/+=@-]{1,128}")

ACCESS_LOGGER = "mahjong_scoring.access"
# The package's logger: Flask names `app.logger` after the import name (`app`), and the
# modules' `logging.getLogger(__name__)` loggers are its children.
APP_LOGGER = "app"


def request_id() -> str:
    """The current request's ID (made when the request started)."""
    found: str | None = g.get("request_id")
    if found is None:  # a response made before the request's hooks ran (a routing error)
        found = g.request_id = _new_id()
    return found


def _new_id() -> str:
    sent = request.headers.get(REQUEST_ID_HEADER, "")
    return sent if _VALID_ID.fullmatch(sent) else uuid.uuid4().hex


def _start() -> None:
    g.request_id = _new_id()
    g.started = time.perf_counter()


def _access_logger() -> logging.Logger:
    logger = logging.getLogger(ACCESS_LOGGER)
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stdout)
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False
    return logger


class JsonFormatter(logging.Formatter):
    """A log record as one JSON line, in the access log's family (its `time` format, its
    `request_id`)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            # The same ID the response echoes: made now if the request's hooks have not run.
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


def register_observe(app: Flask, *, access_log: bool) -> None:
    """Request IDs on every request; the app's own log as JSON lines; the access log when
    `access_log`."""
    _app_logger()
    logger = _access_logger() if access_log else None
    app.before_request(_start)

    # Registered before the compression (`register_api`): Flask runs `after_request`
    # functions last-registered first, so this one sees the response as it is sent.
    @app.after_request
    def finish(response: Response) -> Response:
        response.headers[REQUEST_ID_HEADER] = request_id()
        if logger is not None and logger.isEnabledFor(logging.INFO):
            started = g.get("started")
            rule = request.url_rule
            args = request.view_args or {}
            logger.info(orjson.dumps({
                "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
                "request_id": request_id(),
                "method": request.method,
                "route": rule.rule if rule is not None else None,
                "path": request.path,
                "ruleset": args.get("ruleset"),
                "status": response.status_code,
                "duration_ms": round((time.perf_counter() - started) * 1000, 3)
                if started is not None else None,
                "bytes": response.content_length,
                "remote": request.remote_addr,
            }).decode())
        return response
