"""Payment schemes: a rule set's `payment:` (a scheme of `app.rules.payments` and its
parameters, bound to the scheme's signature by the one binder, `app.rules.load_params.bind`;
a parameter may be chosen by request options).
"""

from __future__ import annotations

import collections.abc
import inspect
import types
import typing
from typing import Any

from app.rules.choices import BoundParams
from app.rules.definitions import PaymentDef
from app.rules.families import TILES
from app.rules.load_params import bind, keyword_params
from app.rules.options import OptionDef
from app.rules.payments import RESERVED_PARAMS, SCHEMES, SchemeParamError
from app.rules.sections import section

PAYMENT = section(TILES, "payment")


def _accepts(ann: Any, value: Any) -> bool:
    """Whether a YAML value fits a scheme parameter annotated int, str, bool, int | str or
    Sequence[int] (a list of integers)."""
    if typing.get_origin(ann) is collections.abc.Sequence:
        return isinstance(value, list) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value)
    kinds = typing.get_args(ann) if typing.get_origin(ann) in (types.UnionType,
                                                               typing.Union) else (ann,)
    if isinstance(value, bool):
        return bool in kinds
    return any(isinstance(value, k) for k in kinds if isinstance(k, type))


def _is_mapping(ann: Any) -> bool:
    """A scheme parameter that takes a mapping (its scheme's `prepare` checks it)."""
    base = getattr(ann, "__supertype__", ann)
    return base is collections.abc.Mapping or typing.get_origin(base) in (
        collections.abc.Mapping, dict)


def _type_words(ann: Any) -> str:
    kinds = typing.get_args(ann) if typing.get_origin(ann) in (types.UnionType,
                                                               typing.Union) else (ann,)
    words = {int: "an integer", str: "a string", bool: "true or false"}
    return " or ".join(words.get(k, str(k)) for k in kinds)


def read_payment(p: Any, options: tuple[OptionDef, ...], err: Any,
                 fan_ids: frozenset[str]) -> PaymentDef:
    if not isinstance(p, dict):
        raise err("payment", "must be a mapping with a 'scheme'")
    fault = PAYMENT.fault(p)  # keys and value types (`app.rules.sections`)
    if fault is not None:
        raise err(f"payment.{fault[0]}", fault[1])
    scheme = p["scheme"]
    if scheme not in SCHEMES:
        raise err("payment.scheme", f"unknown scheme {scheme!r} (known: {', '.join(SCHEMES)})")
    raw = p.get("params") or {}

    def convert(param: inspect.Parameter, value: Any, field: str) -> Any:
        ann = param.annotation
        if isinstance(value, dict) and _is_mapping(ann):
            return value  # a mapping parameter (points tables): the scheme's `prepare` checks it
        if not _accepts(ann, value):
            raise err(field, f"must be {_type_words(ann)} or {{option: name}} (got {value!r})")
        return value

    # A parameter the request chooses: {option: <a declared option>}, or {option, values:
    # {choice: value}} (the value each choice stands for), read as every family's are.
    accepted = keyword_params(SCHEMES[scheme].value, RESERVED_PARAMS)
    params: dict[str, Any] = dict(bind(f"scheme {scheme!r}", accepted, raw, "payment.params",
                                       err, options, convert, own_values=False))
    prepare = SCHEMES[scheme].prepare
    if prepare is not None:
        try:
            params = prepare(params, {o.name: o for o in options}, fan_ids)
        except SchemeParamError as exc:
            raise err(f"payment.params.{exc.field}", exc.message) from None
    return PaymentDef(scheme=scheme, params=BoundParams(params),
                      description=str(p.get("description", "")))
