"""Check parameters: a fan's or a requirement's YAML `params` bound against its check's
keyword-only signature (converted to the declared types, each refused with its field), and
the check's function with those parameters fixed (`bind_check`).
"""

from __future__ import annotations

import inspect
import types
import typing
from typing import Any

from app.domain.errors import HandError
from app.domain.notation import parse_tiles
from app.domain.tiles import TileSet
from app.rules.checks import BoolOption, PerSeatOption, TileGroup
from app.rules.load_fields import as_int
from app.rules.options import OptionDef


def bind_check(func: Any, params: dict[str, Any]) -> Any:
    """`func` with its keyword parameters fixed: a function of (view, ctx).

    A copy of the check's own function object whose keyword-only defaults are the YAML
    parameters. Calling it runs the check's body directly: a `functools.partial` with
    keywords costs several times more per call, and the engine calls these for every fan of
    every reading.
    """
    if not params:
        return func
    bound = types.FunctionType(func.__code__, func.__globals__, func.__name__,
                               func.__defaults__, func.__closure__)
    bound.__kwdefaults__ = {**(func.__kwdefaults__ or {}), **params}
    bound.__doc__ = func.__doc__
    bound.__qualname__ = func.__qualname__
    bound.__module__ = func.__module__
    return bound


def bind_params(sig: inspect.Signature, raw: dict[str, Any], tileset: TileSet, fid: str,
                err: Any, options: tuple[OptionDef, ...] = ()) -> dict[str, Any]:
    """Check YAML params against the check's keyword-only parameters and convert them."""
    accepted = {n: p for n, p in sig.parameters.items() if p.kind is p.KEYWORD_ONLY}
    out: dict[str, Any] = {}
    for name, value in raw.items():
        if name not in accepted:
            allowed = ", ".join(accepted) or "none"
            raise err(f"params.{name}", f"not a parameter of this check (takes: {allowed})", fid)
        out[name] = _convert(accepted[name].annotation, value, tileset, f"params.{name}", fid,
                             err, options)
    for name, p in accepted.items():
        if name not in out and p.default is inspect.Parameter.empty:
            raise err(f"params.{name}", "missing required parameter", fid)
    return out


# Check parameters that name an option of the rule set, by the option type they need.
_OPTION_PARAMS: dict[Any, str] = {BoolOption: "bool", PerSeatOption: "per_seat"}


def _convert(ann: Any, value: Any, tileset: TileSet, field: str, fid: str, err: Any,
             options: tuple[OptionDef, ...] = ()) -> Any:
    origin = typing.get_origin(ann)
    if origin in (types.UnionType, typing.Union):
        args = [a for a in typing.get_args(ann) if a is not type(None)]
        if value is None:
            return None
        return _convert(args[0], value, tileset, field, fid, err, options)
    kind = _OPTION_PARAMS.get(ann)
    if kind is not None:
        named = [o.name for o in options if o.type == kind]
        if value not in named:
            raise err(field, f"must name a {kind} option of this rule set (got {value!r}; "
                      f"{kind} options: {', '.join(named) or 'none'})", fid)
        return value
    if ann is TileGroup:
        if not isinstance(value, str):
            raise err(field, "must be a tile notation string such as '19m19p19sESWNCFP'", fid)
        try:
            tiles = frozenset(parse_tiles(value, tileset))
        except HandError as exc:
            raise err(field, f"bad tile notation: {exc.message}", fid) from exc
        if not tiles:
            raise err(field, "names no tile", fid)
        flowers = [tileset.code(t) for t in tiles if tileset.kinds[t].is_flower]
        if flowers:
            raise err(field, f"flowers are not hand tiles ({', '.join(flowers)})", fid)
        return tiles
    if origin is typing.Literal:
        choices = typing.get_args(ann)
        if value not in choices:
            raise err(field, f"must be one of {', '.join(map(str, choices))} (got {value!r})",
                      fid)
        return value
    if ann is bool:
        if not isinstance(value, bool):
            raise err(field, f"must be true or false (got {value!r})", fid)
        return value
    if ann is int:
        return as_int(value, field, err, fan=fid)
    if ann is str:
        if not isinstance(value, str):
            raise err(field, f"must be a string (got {value!r})", fid)
        return value
    raise err(field, f"the check declares an unsupported parameter type {ann!r}", fid)
