"""JSON documents from bytes: a request body, a batch item, a line of the bulk scorer.

Documents are parsed with orjson. It refuses a little that is valid JSON (numbers beyond a
double's range, which a schema then refuses as what they are, and a leading byte order mark,
which is removed first), so a document it refuses is read again by the standard library's
parser, which either accepts it or says where it is wrong. Only a refused document pays twice.
"""

from __future__ import annotations

import json
from typing import Any, BinaryIO

import orjson

from app.service.problems import ApiError

# Integers longer than this are read as floats, which every integer field refuses; Python's
# int() would otherwise refuse 4300+ digits with an error that is not a JSON syntax error.
_MAX_INT_DIGITS = 30
_BOM = b"\xef\xbb\xbf"

_JSON_TYPES: dict[type, str] = {
    list: "an array", str: "a string", int: "a number", float: "a number", bool: "a boolean",
    type(None): "null",
}


def json_object(raw: bytes) -> dict[str, Any]:
    """`raw` as a JSON object, or an `ApiError` malformed_json saying what it is instead."""
    body = json_document(raw)
    if type(body) is not dict:
        raise not_an_object(body)
    return body


def json_document(raw: bytes, what: str = "The request body", *, one_line: bool = False
                  ) -> Any:
    """`raw` as a JSON document (a leading byte order mark ignored), or an `ApiError`
    malformed_json saying where it is not JSON. `what` names the document in messages;
    `one_line`: it is one line of a file (positions by column only)."""
    if raw.startswith(_BOM):
        raw = raw[len(_BOM):]
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return _strict_loads(raw, what, one_line)


def not_an_object(value: Any, what: str = "The request body") -> ApiError:
    """What a request that is JSON but not an object gets."""
    found = _JSON_TYPES.get(type(value), "a value")
    return ApiError("malformed_json", f"{what} must be a JSON object, not {found}.")


def announced_body(stream: BinaryIO, length: int) -> bytes:
    """The `length` bytes announced by Content-Length, read from the server's input stream,
    or an `ApiError` when the connection broke or the client stopped short."""
    try:
        raw: bytes = stream.read(length) if length else b""
    except (OSError, ValueError) as exc:  # the connection broke while the body was read
        raise ApiError("malformed_json", f"The request body could not be read: {exc}.") from None
    if len(raw) < length:
        # The client stopped before sending what it announced (the server hands over what
        # arrived); a cut body is not trusted even when what arrived happens to parse.
        raise ApiError(
            "malformed_json",
            f"The request body ended after {len(raw)} of the {length} bytes "
            "announced by Content-Length.",
        )
    return raw


def _parse_int(text: str) -> int | float:
    if len(text.lstrip("-")) > _MAX_INT_DIGITS:
        return float(text)
    return int(text)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _has_lone_surrogate(value: Any) -> bool:
    """True if any string in the document holds an unpaired UTF-16 surrogate ("\\ud800")."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _strict_loads(raw: bytes, what: str, one_line: bool) -> Any:
    """The standard library's reading of a document orjson refused: the document, or an
    `ApiError` saying where it is not JSON."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ApiError("malformed_json", f"{what} is not valid UTF-8 (byte {exc.start}).") from None
    try:
        body = json.loads(text, parse_int=_parse_int, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        where = (f"column {exc.colno}" if one_line
                 else f"line {exc.lineno}, column {exc.colno}")
        raise ApiError("malformed_json", f"{what} is not valid JSON: {exc.msg} ({where})."
                       ) from None
    except ValueError as exc:  # NaN, Infinity
        raise ApiError("malformed_json", f"{what} is not valid JSON: {exc}.") from None
    except RecursionError:
        raise ApiError("malformed_json", f"{what} is nested too deeply.") from None
    if _has_lone_surrogate(body):
        raise ApiError("malformed_json",
                       f"{what} holds a string with an unpaired surrogate escape.")
    return body
