"""JSON documents from bytes: a request body, a batch item, a line of the bulk scorer.

Documents are parsed with orjson. It refuses a little that is valid JSON (numbers beyond a
double's range, which a schema then refuses as what they are, and a leading byte order mark,
which is removed first), so a document it refuses is read again by the standard library's
parser, which either accepts it or says where it is wrong. Only a refused document pays twice.

Both parsers keep the last of a key repeated in one object; the service refuses such a
document instead (`duplicate_key`), as a client that sends two `hand` keys means something the
body cannot say. The test is cheap and never misses a repeat: every member of an object has
one `:` between its key and value, and a `:` elsewhere can only be inside a string. The
document as read, written as JSON, has one colon per key it kept and the colons of the
strings it kept; so when the body has no more colons than that, no key was dropped. Both are
counted on the document, compiled (`app.service.fast_read`): the keys alone first, which
settle a body without a colon in a string, then the strings' colons when there are more.
(A `\\u` escape can spell a colon the body does not show; such a body counts the keys of
the document as read instead.) Only a body with more colons (a colon in a string, or a
repeated key) is read again, keeping every pair, to find the repeat for sure.
"""

from __future__ import annotations

import json
from typing import Any, BinaryIO

import orjson

from app.service.fast_read import key_count, written_colons
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
        document = orjson.loads(raw)
    except orjson.JSONDecodeError:
        document = _strict_loads(raw, what, one_line)
    if (type(document) is dict or type(document) is list) and _may_repeat_keys(raw, document):
        _refuse_repeated_keys(raw, what)
    return document


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


def _may_repeat_keys(raw: bytes, document: dict[str, Any] | list[Any]) -> bool:
    """False when no object of `raw` (read as `document`) can have repeated a key."""
    colons = raw.count(b":")
    if not colons:
        return False
    keys = key_count(document)
    if colons <= keys:  # one colon per key kept, none in a string: nothing was dropped
        return False
    if b"\\u" not in raw:
        return colons > written_colons(document)
    return True


def _refuse_repeated_keys(raw: bytes, what: str) -> None:
    """An `ApiError` duplicate_key when an object of the (valid) document `raw` holds a key
    twice, with a pointer to each repeated key; nothing otherwise."""
    repeats: dict[int, list[str]] = {}  # id of an object read -> the keys it repeats

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) < len(pairs):
            seen: set[str] = set()
            again: list[str] = []
            for key, _ in pairs:
                if key in seen and key not in again:
                    again.append(key)
                seen.add(key)
            repeats[id(obj)] = again
        return obj

    try:
        document = json.loads(raw.decode("utf-8"), object_pairs_hook=pairs_hook,
                              parse_int=_parse_int)
    except RecursionError:
        raise ApiError("malformed_json", f"{what} is nested too deeply.") from None
    if not repeats:
        return
    pointers = [f"{where}/{_escape(key)}" for where, obj in _objects(document)
                if id(obj) in repeats for key in repeats[id(obj)]]
    errors = [{"pointer": p, "code": "duplicate_key",
               "message": "This key is repeated in its object; a key may appear once."}
              for p in pointers]
    raise ApiError(
        "duplicate_key",
        f"{what} repeats a key in one object ({', '.join(pointers[:3])}"
        f"{', ...' if len(pointers) > 3 else ''}): each key may appear once in an object.",
        errors=errors)


def _objects(document: Any) -> list[tuple[str, dict[str, Any]]]:
    """Every object in `document` with its JSON pointer, in document order."""
    found: list[tuple[str, dict[str, Any]]] = []
    stack: list[tuple[str, Any]] = [("", document)]
    while stack:
        where, item = stack.pop()
        members: list[tuple[str, Any]]
        if type(item) is dict:
            found.append((where, item))
            members = [(f"{where}/{_escape(k)}", v) for k, v in item.items()]
        elif type(item) is list:
            members = [(f"{where}/{i}", v) for i, v in enumerate(item)]
        else:
            continue
        stack.extend(reversed(members))
    return found


def _escape(key: str) -> str:
    """`key` as one step of a JSON pointer (RFC 6901)."""
    return key.replace("~", "~0").replace("/", "~1")


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
