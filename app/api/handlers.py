"""Every error becomes an RFC 9457 problem document; nothing escapes as HTML or a bare 500."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, current_app, request
from werkzeug.exceptions import HTTPException

from app.api.body_deadline import BodyTimeout, timeout_problem
from app.api.observe import APP_LOGGER
from app.api.problems import problem_document_response, problem_response
from app.domain.deadline import TimeLimitExceeded
from app.domain.errors import HandError
from app.service.problems import ApiError, api_problem, hand_problem, problem_body

_HTTP_CODES = {
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
}


def _api_error(exc: ApiError) -> Response:
    return problem_document_response(api_problem(exc), exc.headers)


def _hand_error(exc: HandError) -> Response:
    return problem_document_response(hand_problem(exc))


def _http_error(exc: HTTPException) -> Response:
    status = exc.code or 500
    code = _HTTP_CODES.get(status, "http_error")
    headers: dict[str, str] = {}
    if status == 404:
        detail = f"No resource at {request.path}."
    elif status == 405:
        allowed = sorted(m for m in (getattr(exc, "valid_methods", None) or ()))
        headers["Allow"] = ", ".join(allowed)
        detail = (f"{request.method} is not allowed on {request.path}; "
                  f"allowed: {', '.join(allowed)}.")
    elif status == 413:
        limit = current_app.config["MAX_CONTENT_LENGTH"]
        detail = f"The request body is larger than {limit} bytes."
    else:
        detail = exc.description or exc.name
    return problem_response(code, detail, status=status,
                            title=None if code != "http_error" else exc.name, headers=headers)


def time_limit_problem(method: str, path: str, limit: float) -> dict[str, Any]:
    """What a request stopped at the time limit gets (logged as a warning)."""
    logging.getLogger(APP_LOGGER).warning("%s %s ran past the time limit of %g s", method,
                                          path, limit)
    return problem_body(
        "time_limit_exceeded",
        f"Scoring this request took longer than the service's limit of {limit:g} s, so it was "
        "stopped. Requests of this kind (waits or rounds on hands holding many wild tiles) "
        "are the slowest; send fewer at once or ask the operator to raise the limit.")


def _time_limit(exc: TimeLimitExceeded) -> Response:
    return problem_document_response(time_limit_problem(
        request.method, request.path, current_app.config["REQUEST_TIME_LIMIT"]))


def _body_timeout(exc: BodyTimeout) -> Response:
    # The rest of the body is never read: the connection must not carry another request
    # (gunicorn.conf.py makes gunicorn close it on this header).
    return problem_document_response(timeout_problem(exc.limit), {"Connection": "close"})


def _unexpected(exc: Exception) -> Response:
    current_app.logger.exception("unhandled error on %s %s", request.method, request.path)
    return problem_response("internal_error", "The server failed to handle this request.")


def register_error_handlers(app: Flask) -> None:
    app.register_error_handler(ApiError, _api_error)
    app.register_error_handler(HandError, _hand_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(TimeLimitExceeded, _time_limit)
    app.register_error_handler(BodyTimeout, _body_timeout)
    app.register_error_handler(Exception, _unexpected)
