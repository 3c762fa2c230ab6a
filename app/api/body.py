"""Reading a JSON request body from the request: size, media type, encoding, then the
document (app/service/json_body.py).
"""

from __future__ import annotations

from typing import Any

from flask import Request, current_app, request
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge

from app.api.compression import check_body_coding, gunzip_body
from app.service.json_body import announced_body, json_object
from app.service.problems import ApiError


def json_object_body(limit: int | None = None) -> dict[str, Any]:
    """The request body as a JSON object, or an `ApiError` (413, 415 or 400). `limit`: the
    most bytes it may hold (default: the app's MAX_CONTENT_LENGTH), as sent and, when sent
    with `Content-Encoding: gzip`, once decompressed."""
    req = request._get_current_object()  # type: ignore[attr-defined]
    if limit is None:
        limit = int(current_app.config["MAX_CONTENT_LENGTH"])
    else:
        # werkzeug's own reading (a chunked body) stops at the same limit.
        req.max_content_length = limit
    raw = _raw_body(req, limit)
    # Content-Encoding is looked up only here, once the body is read: a plain body (nearly
    # every request) pays one dictionary lookup for it.
    coding = req.environ.get("HTTP_CONTENT_ENCODING")
    if coding is not None and check_body_coding(coding):
        raw = gunzip_body(raw, limit)
    return json_object(raw)


def _too_large(limit: int) -> ApiError:
    return ApiError("payload_too_large", f"The request body is larger than {limit} bytes.")


def _is_json(req: Request) -> bool:
    # The usual header first, as sent; anything else (application/*+json, parameters,
    # other spellings) as werkzeug reads it.
    ctype = req.environ.get("CONTENT_TYPE", "")
    return ctype == "application/json" or req.is_json


def _content_length(req: Request) -> int | None:
    """Content-Length as werkzeug reads it, read once (each read of the property parses the
    headers again)."""
    environ = req.environ
    text = environ.get("CONTENT_LENGTH")
    if text is None or environ.get("HTTP_TRANSFER_ENCODING", "") == "chunked":
        return req.content_length
    return int(text) if text.isdecimal() else req.content_length


def _raw_body(req: Request, limit: int) -> bytes:
    length = _content_length(req)
    if length is not None and length > limit:
        raise _too_large(limit)
    if not _is_json(req):
        found = req.mimetype or "none"
        raise ApiError(
            "unsupported_media_type",
            f"The request body must be JSON (Content-Type: application/json), not {found}.",
        )
    if length is None:
        return _chunked_body(req, limit)
    # The announced bytes straight from the server's input stream: werkzeug's get_data wraps
    # it in a limited stream first, which costs more than parsing the body (bench/request.py).
    return announced_body(req.environ["wsgi.input"], length)


def _chunked_body(req: Request, limit: int) -> bytes:
    """A body without Content-Length (chunked), read through werkzeug, which stops at the
    limit."""
    try:
        raw = req.get_data(cache=True)
    except RequestEntityTooLarge:
        raise _too_large(limit) from None
    except BadRequest as exc:  # the client closed before the body's end
        raise ApiError("malformed_json", f"The request body could not be read: {exc.description}"
                       ) from None
    # The stream stops silently at the limit: one more byte from the server's stream tells a
    # body of exactly the limit from a longer one.
    if len(raw) >= limit and req.input_stream.read(1):
        raise _too_large(limit)
    return raw
