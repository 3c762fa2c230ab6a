"""What every family's request reader shares: a body checked by its request schema first
(`validated`: the schema's refusal is 422 invalid_request), the rule set a request may name
(`check_named_ruleset`), and how a JSON pointer is named in messages (`field_name`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from marshmallow import Schema, ValidationError

from app.domain.errors import Code, HandError
from app.service.fast_read import ObjectReader, read_object
from app.service.problems import ApiError
from app.service.schema_fields import _Strict, flatten_errors

__all__ = ["check_named_ruleset", "field_name", "validated"]


def validated(schema: Schema, body: Mapping[str, Any]) -> dict[str, Any]:
    """The body through its schema; a refusal answers 422 invalid_request, its detail naming
    the first failing field."""
    if type(body) is dict:
        # A valid object is read by the schema's fast reader once the schema has made it
        # (`_Strict.fast_reader`), as the schema's own `load` would read it, without that
        # method's interpreted calls; at a fault, read again field by field, every fault
        # listed, as `load` does then (without trying the fast reader a second time).
        fast = getattr(schema, "reader", None)
        if isinstance(fast, ObjectReader):
            out = read_object(fast, body)
            if out is not None:
                return out
            assert isinstance(schema, _Strict)
            return _loaded(schema.read_declared, body)
    return _loaded(schema.load, body)


def _loaded(load: Callable[[Any], Any], body: Mapping[str, Any]) -> dict[str, Any]:
    try:
        data: dict[str, Any] = load(body)
    except ValidationError as exc:
        errors = flatten_errors(exc.messages)
        first = errors[0]
        more = f" ({len(errors) - 1} more in errors)" if len(errors) > 1 else ""
        raise ApiError("invalid_request",
                       f"{field_name(first['pointer'])}: {first['message']}{more}",
                       errors=errors) from None
    return data


def check_named_ruleset(data: Mapping[str, Any], ruleset_id: str) -> None:
    """A request may name its rule set (`ruleset`, as a line of a log does): it must be the
    path's, else the request was meant for another rule set (422 invalid_field)."""
    named = data.get("ruleset")
    if named is not None and named != ruleset_id:
        raise HandError(Code.INVALID_FIELD,
                        f"ruleset {named!r} is not the rule set of the path ({ruleset_id!r}): "
                        f"post the request to /v1/rulesets/{named}/..., or leave ruleset out",
                        "/ruleset")


def field_name(pointer: str) -> str:
    """``/hand/melds/1`` -> ``hand.melds[1]``, for messages; the root is "the request"."""
    out = ""
    for part in pointer.strip("/").split("/"):
        if not part:
            continue
        part = part.replace("~1", "/").replace("~0", "~")
        out += f"[{part}]" if part.isdigit() else f".{part}" if out else part
    return out or "the request"
