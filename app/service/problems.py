"""RFC 9457 problem details: the one shape every error response of the API takes, and every
error item of a batch or a line of the bulk scorer.

Each problem carries a stable snake_case `code` that clients switch on; `errors` lists the
individual faults of a 422 with a JSON pointer (RFC 6901) into the request body.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from app.domain.errors import MATCH_CODES, ROUND_CODES, Code, HandError

PROBLEM_MEDIA_TYPE = "application/problem+json"

# Problem `type` URIs are tag URIs (RFC 4151): stable identifiers (docs/api.md, "Errors").
TYPE_PREFIX = "tag:mahjong-scoring,2025:problem:"

# Problems of the request itself: code -> (HTTP status, title). The titles are fixed per
# code; `detail` says what happened.
REQUEST_PROBLEMS: dict[str, tuple[int, str]] = {
    "malformed_json": (400, "Malformed JSON body"),
    "duplicate_key": (400, "Duplicate key in a JSON object"),
    "malformed_gzip": (400, "Malformed gzip body"),
    "invalid_query": (400, "Invalid query parameter"),
    "not_found": (404, "Not found"),
    "unknown_ruleset": (404, "Unknown rule set"),
    "method_not_allowed": (405, "Method not allowed"),
    "payload_too_large": (413, "Payload too large"),
    "unsupported_media_type": (415, "Unsupported media type"),
    "unsupported_content_encoding": (415, "Unsupported content encoding"),
    "request_timeout": (408, "Request timeout"),
    "invalid_request": (422, "Invalid request"),
    str(Code.SETTLE_NOT_SUPPORTED): (422, "Round settlement not supported"),
    "analysis_not_supported": (422, "Discard analysis not supported"),
    "match_not_supported": (422, "Match not supported"),
    "time_limit_exceeded": (503, "Time limit exceeded"),
    "not_ready": (503, "Not ready"),
    # Refused by the HTTP server before the app reads the request (app/api/server_faults.py).
    "invalid_request_line": (400, "Invalid request line"),
    "request_line_too_long": (414, "Request line too long"),
    "http_version_not_supported": (505, "HTTP version not supported"),
    "invalid_header": (400, "Invalid header"),
    "too_many_headers": (431, "Too many header fields"),
    "header_too_large": (431, "Header fields too large"),
    "duplicate_content_length": (400, "Repeated Content-Length"),
    "content_length_with_transfer_encoding": (400, "Content-Length with Transfer-Encoding"),
    "unsupported_transfer_coding": (501, "Unsupported transfer coding"),
    "http_error": (400, "HTTP error"),
    "internal_error": (500, "Internal server error"),
}

# A well-formed request that cannot be a real hand or win, or a real round (the codes of
# `app.domain.errors.Code`): all answered 422.
ROUND_ERROR_CODES: tuple[str, ...] = tuple(
    str(c) for c in Code if c in ROUND_CODES and c not in REQUEST_PROBLEMS)
MATCH_ERROR_CODES: tuple[str, ...] = tuple(str(c) for c in Code if c in MATCH_CODES)
HAND_ERROR_CODES: tuple[str, ...] = tuple(
    str(c) for c in Code if c not in ROUND_CODES and c not in MATCH_CODES)
HAND_ERROR_TITLE = "Not a valid hand or win"
ROUND_ERROR_TITLE = "Not a valid round"
MATCH_ERROR_TITLE = "Not a valid match"

PROBLEM_CODES: tuple[str, ...] = (*REQUEST_PROBLEMS, *HAND_ERROR_CODES, *ROUND_ERROR_CODES,
                                  *MATCH_ERROR_CODES)

# At most this many entries are listed in `errors`; a body within the size limit could
# otherwise hold thousands of unknown fields, each echoed back.
MAX_LISTED_ERRORS = 50


class ApiError(Exception):
    """An error the API answers with a problem document."""

    def __init__(
        self,
        code: str,
        detail: str,
        *,
        status: int | None = None,
        errors: Iterable[Mapping[str, Any]] = (),
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.status = status if status is not None else REQUEST_PROBLEMS[code][0]
        self.errors = [dict(e) for e in errors]
        self.headers = dict(headers or {})


def problem_body(
    code: str,
    detail: str,
    *,
    status: int | None = None,
    title: str | None = None,
    errors: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The problem document of `code`: what an error response holds, and what an error item
    of a batch holds."""
    default_title = (ROUND_ERROR_TITLE if code in ROUND_ERROR_CODES
                     else MATCH_ERROR_TITLE if code in MATCH_ERROR_CODES else HAND_ERROR_TITLE)
    known_status, known_title = REQUEST_PROBLEMS.get(code, (422, default_title))
    body: dict[str, Any] = {
        "type": TYPE_PREFIX + code,
        "title": title or known_title,
        "status": status if status is not None else known_status,
        "detail": detail,
        "code": code,
    }
    if errors:
        body["errors"] = errors[:MAX_LISTED_ERRORS]
    return body


def api_problem(exc: ApiError) -> dict[str, Any]:
    return problem_body(exc.code, exc.detail, status=exc.status, errors=exc.errors)


def hand_problem(exc: HandError) -> dict[str, Any]:
    """A request that cannot be a real hand, win or round: 422 with the fault's code and
    pointer."""
    return problem_body(exc.code, exc.message, status=422, errors=[exc.to_dict()])


def problem_payload(body: Mapping[str, Any], rid: str | None) -> bytes:
    """The bytes of a problem document, with the request's ID `rid` when there is one."""
    if rid is not None:
        body = {**body, "request_id": rid}
    # Request text can be echoed back (an unknown field's name, a bad tile); anything that is
    # not encodable is replaced rather than allowed to fail the error response itself.
    return json.dumps(body, ensure_ascii=False).encode("utf-8", errors="replace")
