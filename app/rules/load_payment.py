"""Payment schemes: a rule set's `payment:` (a scheme of `app.rules.payments` and its
parameters, each checked against the scheme's signature; a parameter may be chosen by a
request option).
"""

from __future__ import annotations

import collections.abc
import inspect
import types
import typing
from types import MappingProxyType
from typing import Any

from app.rules.definitions import PaymentDef
from app.rules.options import OptionDef
from app.rules.payments import RESERVED_PARAMS, SCHEMES, SchemeParamError

PAYMENT_KEYS = {"scheme", "params", "description"}


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
    bad = set(p) - PAYMENT_KEYS
    if bad:
        raise err(f"payment.{sorted(bad)[0]}", "unknown key")
    scheme = p.get("scheme")
    if not isinstance(scheme, str) or scheme not in SCHEMES:
        raise err("payment.scheme", f"unknown scheme {scheme!r} (known: {', '.join(SCHEMES)})")
    params = p.get("params") or {}
    if not isinstance(params, dict):
        raise err("payment.params", "must be a mapping")
    sig = inspect.signature(SCHEMES[scheme].value, eval_str=True)
    accepted = {n for n, q in sig.parameters.items()
                if q.kind is q.KEYWORD_ONLY and n not in RESERVED_PARAMS}
    option_names = {o.name for o in options}
    for name, value in params.items():
        field = f"payment.params.{name}"
        if name not in accepted:
            raise err(field, f"not a parameter of scheme {scheme!r} (takes: "
                      f"{', '.join(sorted(accepted))})")
        ann = sig.parameters[name].annotation
        if isinstance(value, dict) and _is_mapping(ann):
            continue  # a mapping parameter (points tables): the scheme's `prepare` checks it
        if isinstance(value, dict):
            # A parameter the request chooses: {option: <name of a declared option>}, or
            # {option: <an enum or bool option>, values: {choice: value}}, the value each
            # choice stands for.
            if set(value) == {"option", "values"}:
                od = next((o for o in options if o.name == value["option"]), None)
                choices = (None if od is None else [True, False] if od.type == "bool"
                           else od.choices if od.type == "enum" else None)
                mapped = value["values"]
                if (choices is None or not isinstance(mapped, dict)
                        or set(mapped) != set(choices)):
                    raise err(field, "{option, values}: option must name an enum or bool "
                              "option and values map each of its choices to a value")
                if not all(_accepts(ann, v) for v in mapped.values()):
                    raise err(field, f"values must be {_type_words(ann)}")
                continue
            if set(value) != {"option"} or value["option"] not in option_names:
                raise err(field, "must be a value or {option: <a declared option>}")
        elif not _accepts(ann, value):
            raise err(field, f"must be {_type_words(ann)} or {{option: name}} (got {value!r})")
    for name in accepted:
        if name not in params and sig.parameters[name].default is inspect.Parameter.empty:
            raise err(f"payment.params.{name}", "missing required parameter")
    prepare = SCHEMES[scheme].prepare
    if prepare is not None:
        try:
            params = prepare(dict(params), {o.name: o for o in options}, fan_ids)
        except SchemeParamError as exc:
            raise err(f"payment.params.{exc.field}", exc.message) from None
    return PaymentDef(scheme=scheme, params=MappingProxyType(dict(params)),
                      description=str(p.get("description", "")))
