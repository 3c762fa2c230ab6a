"""Problem documents as Flask responses (their shape and codes: app/service/problems.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Response, has_request_context

from app.api.observe import request_id
from app.service.problems import PROBLEM_MEDIA_TYPE, problem_body, problem_payload


def problem_response(
    code: str,
    detail: str,
    *,
    status: int | None = None,
    title: str | None = None,
    errors: list[dict[str, Any]] | None = None,
    headers: Mapping[str, str] | None = None,
) -> Response:
    return problem_document_response(
        problem_body(code, detail, status=status, title=title, errors=errors), headers)


def problem_document_response(body: Mapping[str, Any],
                              headers: Mapping[str, str] | None = None) -> Response:
    """The problem as an error response, with the request's ID (`request_id`)."""
    payload = problem_payload(body, request_id() if has_request_context() else None)
    response = Response(payload, status=body["status"], mimetype=PROBLEM_MEDIA_TYPE)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response
