"""The one binder of YAML parameters to registered functions (`bind`): a fan's or a
requirement's check (`app.rules.checks`), a card game's scoring step and pattern check
(`app.rules.cards.steps`, `app.rules.cards.checks`) and a payment scheme (`app.rules.payments`)
take their parameters from YAML the same way. Unknown and missing parameters are refused
alike, each value is read by the option model's reader (`app.rules.load_options.read_chosen`:
a value, or one chosen by an option) and converted by the registry's own rule for the
parameter's type; what comes back is a `BoundParams`, fixed once at load when no option
chooses a value, resolved per request otherwise.

A fan's check is bound further (`bind_check`): the check's function with its parameters
fixed, for the engine's hot path; its parameters are therefore fixed values (a fan whose
pattern an option changes is written as two fans with `when:`).
"""

from __future__ import annotations

import functools
import inspect
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

from app.domain.errors import HandError
from app.domain.notation import parse_tiles
from app.domain.tiles import TileSet
from app.rules.checks import BoolOption, PerSeatOption, TileGroup, check_params
from app.rules.choices import BoundParams
from app.rules.load_fields import as_int
from app.rules.load_options import Options, read_chosen
from app.rules.options import OptionDef

# How a registry converts one plain value for one of its parameters: (parameter, value,
# field) -> the value (raising the rule set's load error).
ConvertParam = Callable[[inspect.Parameter, Any, str], Any]


def keyword_params(func: Callable[..., Any],
                   reserved: frozenset[str] = frozenset()) -> dict[str, inspect.Parameter]:
    """The keyword-only parameters of a registered function, those the engine passes itself
    (`reserved`) left out: what its YAML parameters may set."""
    sig = inspect.signature(func, eval_str=True)
    return {n: p for n, p in sig.parameters.items()
            if p.kind is p.KEYWORD_ONLY and n not in reserved}


def bind(what: str, accepted: Mapping[str, inspect.Parameter], raw: Mapping[str, Any],
         field: str, err: Any, options: Options, convert: ConvertParam, *,
         fan: str | None = None, chosen: bool = True, own_values: bool = True) -> BoundParams:
    """`raw` (the YAML parameters at `field`) bound to the keyword-only parameters
    `accepted` of `what` (a check, a step, a scheme, as the messages name it): none unknown,
    every one without a default given; each value converted by `convert`, or with `chosen`
    read as a value an option may choose (`{option: X}`, `{option: X, values: ...}`;
    `own_values`: see `read_chosen`)."""

    def fail(at: str, message: str) -> Exception:
        return err(at, message, fan) if fan is not None else err(at, message)  # type: ignore[no-any-return]

    out: dict[str, Any] = {}
    for name, value in raw.items():
        at = f"{field}.{name}"
        param = accepted.get(name)
        if param is None:
            raise fail(at, f"not a parameter of {what} (takes: "
                       f"{', '.join(accepted) or 'none'})")

        def conv(v: Any, f: str, param: inspect.Parameter = param) -> Any:
            return convert(param, v, f)

        out[name] = (read_chosen(value, options, at, err, conv, fan=fan, own_values=own_values)
                     if chosen
                     else conv(value, at))
    for name, p in accepted.items():
        if name not in out and p.default is inspect.Parameter.empty:
            raise fail(f"{field}.{name}", "missing required parameter")
    return BoundParams(out)


def bind_check(func: Any, params: dict[str, Any]) -> Any:
    """`func` with its parameters fixed: a function of (view, ctx).

    A copy of the check's own function object whose defaults are the YAML parameters.
    Calling it runs the check's body directly: a `functools.partial` with keywords costs
    several times more per call, and the engine calls these for every fan of every reading.

    A compiled check (mypyc) has no code object to copy: it is bound by a `functools.partial`
    with the parameters given (the compiled function fills in its own defaults, and
    `bound_params` reads them back); the engine calls the compiled function itself with the
    values in order (`registry.engine_call`), not the partial.
    """
    if not params:
        return func
    if not hasattr(func, "__code__"):
        return functools.partial(func, **params)
    code = func.__code__
    names = code.co_varnames[:code.co_argcount]
    defaults = func.__defaults__ or ()
    values = dict(zip(names[len(names) - len(defaults):], defaults, strict=True))
    values.update((n, v) for n, v in params.items() if n in names)
    # Positional defaults cover the last parameters: from the first given on (every later
    # one has a default, or a value given: `bind` asks for every required one).
    first = next((i for i, n in enumerate(names) if n in values), len(names))
    bound = types.FunctionType(code, func.__globals__, func.__name__,
                               tuple(values[n] for n in names[first:]), func.__closure__)
    bound.__kwdefaults__ = {**(func.__kwdefaults__ or {}),
                            **{n: v for n, v in params.items() if n not in names}} or None
    bound.__doc__ = func.__doc__
    bound.__qualname__ = func.__qualname__
    bound.__module__ = func.__module__
    return bound


def bind_params(sig: inspect.Signature, raw: dict[str, Any], tileset: TileSet, fid: str,
                err: Any, options: tuple[OptionDef, ...] = ()) -> dict[str, Any]:
    """A check's YAML params bound by `bind` to its parameters after (view, ctx) and
    converted to their declared types (fixed values: see the module's docstring)."""
    accepted = check_params(sig)

    def convert(param: inspect.Parameter, value: Any, field: str) -> Any:
        return _convert(param.annotation, value, tileset, field, fid, err, options)

    bound = bind("this check", accepted, raw, "params", err, options, convert, fan=fid,
                 chosen=False)
    return dict(bound)


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
