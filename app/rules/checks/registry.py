"""The vocabulary of fan checks.

A check is a small pure function `check(view, ctx, param, ...) -> int`: how many times a fan
applies to one reading of the hand (0 = absent). Its parameters follow `view` and `ctx` as
plain parameters (not keyword-only), with defaults where the YAML may leave them out. Rule-set
YAML names a check and gives its parameters by name; the loader binds them against the
function's signature at start-up, so a typo in a rule set stops the service before it serves a
request, and the engine then passes them by position, in the signature's order
(`engine_call`). A check may still take keyword-only parameters; the engine then names them
in each call, which costs more.

Parameter types a check may declare (the loader converts and validates YAML values):
`int`, `bool`, `str`, a `Literal[...]` of strings, `TileGroup` (a tile notation string such as
"23468sF", converted to a frozenset of tiles of the rule set's tile set), `PerSeatOption` (the
name of a per-seat option the rule set declares; the check reads it from `ctx.options`),
`BoolOption` (likewise, a bool option), and
optional (`X | None`) versions of these.

`scope="hand"` marks a check that looks only at the whole hand and the context, never at the
reading: the engine computes it once per request instead of once per reading.

`tells_apart=` says what the check sees of a reading's groups, for hands with wild tiles
(app.domain.wildcards), whose readings are many: "nothing" (it looks at the context, the
physical tiles, never the groups), or a function `(kind, tile, tileset, win, **params) ->
key` such that the check's result depends on the groups only through their keys; `win` is
None, or for the group holding the winning tile (tile read as, wilds in the group besides
it). When every check of a rule set declares it, readings with the same keys are scored once
and a group made only of wilds tries one identity per key. Without it the check is assumed to
see everything (exact, and slower with many wilds).

`tells_readings_apart=` names a function `(keys, tileset, **params) -> key` of a check that
declares a key function: given the check's keys of every group of a reading (in any order;
the winning tile's group's taken with `win`), what the check tells apart between readings:
readings of one hand whose keys give the same answer get the same result from the check (龙
sees which suits hold all three of its chows, not where a chow of an incomplete 龙 sits).
Readings that no check tells apart that way, nor any other check by its keys, are then
compared once, where nothing but their order could tell them apart (no tie-break fan, no
explanation listing every reading: `app.scoring.wild_readings`).

`depends_on=` names a function `(view, ctx) -> key`, shared by the checks that declare it,
such that each of them (whatever its parameters) answers the same for views with the same
key: chows for the chow combinations, the categories of tile held for the suit checks. The
engine then decides all the fans of those checks once per key and remembers the answer
(a memo per rule set and shape, bounded; the key's values must be few). `each_kind=` names a
predicate `(tile, tileset, **params) -> bool` of a hand check that is 1 exactly when every
kind of tile the hand holds (melds included) meets it, else 0 (限定牌): the engine decides
all such fans of a shape at once, a table of bits per kind. `pungs_of=` names a function
`(tileset, **params) -> tiles or None`: the check finds nothing in a reading without a pung
or kong of one of those tiles (None: no such promise for these parameters); the engine
then asks it only of readings holding one. `pair_of=` names a function `(tileset,
**params) -> tiles or None`: the check finds nothing in a reading whose one pair
(`View.pair`, -1 without exactly one) is not one of those tiles; the engine then asks it
only of readings whose pair is one of them or that have no single pair. These are promises
about the function, tested for every check that makes them.

`most=` names a function `(hand, ctx, **params) -> int` of a reading check: the most times
the check can count in any reading of the hand as held (`app.rules.view.Held`: its natural
and wild standing tiles, its winning tile, its declared melds), never less than it counts in
one. When every reading fan of a shape declares it, the engine stops comparing
a hand's readings once one reaches what the fans could add up to (`app.scoring.ceiling`):
a bound that is never reached costs a comparison, never a wrong answer.

`needs=(...)` names features of a reading without which the check is always 0 (see
`app.rules.view.FEATURES`: "pungs", "kongs", "chows", "chow_pairs", "wait",
"numbered_pungs", "four_chows", "four_pungs", and from the context "last_tile",
"kong_win"); the engine
then skips the check for readings that lack them. It is a promise about the function, kept
by its own first lines, and tested for every check.
"""

from __future__ import annotations

import ast
import functools
import inspect
import sys
import types
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NewType

from app.domain.hand import WinContext
from app.rules.view import CONTEXT_FEATURES, FEATURES, View

# A set of tile kinds, written in tile notation in the YAML ("19m19p19sESWNCFP").
TileGroup = NewType("TileGroup", frozenset)  # type: ignore[type-arg]
# The name of one of the rule set's per-seat options (the loader checks that it is one).
PerSeatOption = NewType("PerSeatOption", str)
# The name of one of the rule set's bool options (the loader checks that it is one).
BoolOption = NewType("BoolOption", str)

CheckFn = Callable[..., int]
# What a check tells apart in a group: (kind, tile, tileset, win, **params) -> a hashable key.
GroupKey = Callable[..., Any]
# What a check's answer depends on: (view, ctx) -> a hashable key (`depends_on=`).
DependsOn = Callable[[View, WinContext], Hashable]
# A condition on one kind of tile: (tile, tileset, **params) -> bool (`each_kind=`).
EachKind = Callable[..., bool]
# The tiles a check needs a pung of: (tileset, **params) -> tiles or None (`pungs_of=`); the
# same for the pair (`pair_of=`).
PungsOf = Callable[..., "frozenset[int] | None"]
# The most times a check can count in any reading of a hand: (held, ctx, **params) -> int.
Most = Callable[..., int]
# What a check tells apart between readings: (keys, tileset, **params) -> a hashable key
# (`tells_readings_apart=`).
ReadingsApart = Callable[..., Any]


@dataclass(frozen=True)
class CheckSpec:
    name: str
    func: CheckFn
    scope: str  # "reading" or "hand"
    # Decided after every other fan, and only if none of them counts (无番和).
    last: bool
    signature: inspect.Signature
    needs: tuple[str, ...] = ()
    tells_apart: GroupKey | str | None = None
    depends_on: DependsOn | None = None
    each_kind: EachKind | None = None
    pungs_of: PungsOf | None = None
    pair_of: PungsOf | None = None
    most: Most | None = None
    tells_readings_apart: ReadingsApart | None = None
    # The function's docstring (a compiled check has none of its own: read from its source).
    doc: str = ""


CHECKS: dict[str, CheckSpec] = {}


def check(name: str | None = None, *, scope: str = "reading", last: bool = False,
          needs: tuple[str, ...] = (),
          tells_apart: GroupKey | str | None = None, depends_on: DependsOn | None = None,
          each_kind: EachKind | None = None,
          pungs_of: PungsOf | None = None,
          pair_of: PungsOf | None = None,
          most: Most | None = None,
          tells_readings_apart: ReadingsApart | None = None) -> Callable[[CheckFn], CheckFn]:
    """Register a check under `name` (default: the function's name)."""

    def register(func: CheckFn) -> CheckFn:
        key = name or func.__name__
        if key in CHECKS:
            raise RuntimeError(f"check {key!r} registered twice")
        doc, sig = described(func)
        if not doc.strip():
            raise RuntimeError(f"check {key!r} needs a docstring starting with its Chinese name")
        unknown = [n for n in needs if n not in FEATURES]
        if unknown:
            raise RuntimeError(f"check {key!r} needs unknown features {unknown}")
        if scope == "hand" and any(not FEATURES[n] & CONTEXT_FEATURES for n in needs):
            # A hand check is decided once per hand, before any reading is looked at.
            raise RuntimeError(f"check {key!r}: a hand check may need only features of the "
                               "context (last_tile, kong_win)")
        if isinstance(tells_apart, str) and tells_apart != "nothing":
            raise RuntimeError(f"check {key!r}: tells_apart must be 'nothing' or a function")
        if each_kind is not None and (scope != "hand" or depends_on is not None):
            raise RuntimeError(f"check {key!r}: each_kind is for hand checks without depends_on")
        if pungs_of is not None and (scope == "hand" or depends_on is not None):
            raise RuntimeError(f"check {key!r}: pungs_of is for reading checks without "
                               "depends_on")
        if pair_of is not None and (scope == "hand" or depends_on is not None
                                    or pungs_of is not None):
            raise RuntimeError(f"check {key!r}: pair_of is for reading checks without "
                               "depends_on or pungs_of")
        if most is not None and scope == "hand":
            raise RuntimeError(f"check {key!r}: most is for reading checks (a hand check's "
                               "answer is the same in every reading)")
        if most is not None and _params(inspect.signature(most)) != _params(sig):
            raise RuntimeError(f"check {key!r}: its most takes other parameters than it")
        if tells_readings_apart is not None and (
                not callable(tells_apart)
                or _params(inspect.signature(tells_readings_apart)) != _params(sig)):
            raise RuntimeError(f"check {key!r}: tells_readings_apart needs a key function "
                               "(tells_apart) and the check's parameters")
        CHECKS[key] = CheckSpec(key, func, scope, last, sig, needs, tells_apart, depends_on,
                                each_kind, pungs_of, pair_of, most, tells_readings_apart, doc)
        return func

    return register


def described(func: Callable[..., Any]) -> tuple[str, inspect.Signature]:
    """A function's docstring and its signature with the annotations evaluated.

    A function compiled with mypyc keeps neither its docstring nor its annotations (its
    signature comes from `__text_signature__`, without types): they are read from the
    module's source, which sits beside the compiled module under the same name, and the
    annotations evaluated in the module's namespace, as `inspect.signature(eval_str=True)`
    does for a plain function."""
    if hasattr(func, "__code__"):
        return func.__doc__ or "", inspect.signature(func, eval_str=True)
    module = sys.modules[func.__module__]
    source = _source(module)
    written = source.functions.get(func.__name__)
    if written is None:
        raise RuntimeError(f"{func.__name__!r}: no definition in {source.path.name}")
    names = vars(module)

    def evaluated(ann: ast.expr | None) -> Any:
        if ann is None:
            return inspect.Parameter.empty
        return eval(compile(ast.Expression(ann), "<annotation>", "eval"), names)

    sig = inspect.signature(func)
    params = [p.replace(annotation=evaluated(written.annotations.get(n)))
              for n, p in sig.parameters.items()]
    return written.doc, sig.replace(parameters=params,
                                    return_annotation=evaluated(written.returns))


@dataclass(frozen=True)
class _Written:
    """What a module-level function's source says that its compiled form has lost."""

    doc: str
    annotations: Mapping[str, ast.expr | None]  # by parameter
    returns: ast.expr | None


@dataclass(frozen=True)
class _Source:
    path: Path
    doc: str
    functions: Mapping[str, _Written]


# Modules whose source `described` reads: those of the checks and their helpers, a handful.
SOURCES_LIMIT = 32
# Compiled functions whose defaults `bound_params` reads: the checks, a few hundred at most.
DEFAULTS_LIMIT = 1024


@functools.lru_cache(maxsize=SOURCES_LIMIT)
def _parsed(filename: str, name: str) -> _Source:
    """The source of module `name` whose file is `filename` (when it is compiled: the `.py`
    beside it), read once: every check a module registers is described from it, and parsing
    is most of what describing one costs at start-up. Only the docstrings and annotations
    are kept, not the whole tree."""
    path = Path(filename).with_name(name.rpartition(".")[2] + ".py")
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    functions = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            args = node.args
            annotations = {a.arg: a.annotation
                           for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
            for extra in (args.vararg, args.kwarg):
                if extra is not None:
                    annotations[extra.arg] = extra.annotation
            functions[node.name] = _Written(ast.get_docstring(node, clean=False) or "",
                                            annotations, node.returns)
    return _Source(path, ast.get_docstring(tree, clean=False) or "", functions)


def _source(module: types.ModuleType) -> _Source:
    """What a module's source file (beside it when it is compiled: the same name, `.py`)
    says of it and of its functions."""
    return _parsed(module.__file__ or "", module.__name__)


def module_doc(module: types.ModuleType) -> str:
    """A module's docstring, read from its source when it is compiled (it has none)."""
    if module.__doc__ is not None or not hasattr(module, "__file__"):
        return module.__doc__ or ""
    return _source(module).doc


def bound_params(func: Callable[..., Any]) -> Mapping[str, Any]:
    """The parameters a check is bound to (`app.rules.load_params.bind_check`): the values of
    its parameters after (view, ctx), defaults included."""
    if isinstance(func, functools.partial):
        # A compiled check bound to the parameters given: its defaults fill in the rest.
        return {**bound_params(func.func), **func.keywords}
    if hasattr(func, "__code__"):
        code = func.__code__
        names = code.co_varnames[:code.co_argcount]
        defaults = func.__defaults__ or ()
        # Positional defaults belong to the last positional parameters.
        bound = dict(zip(names[len(names) - len(defaults):], defaults, strict=True))
        for name in names[:2]:
            bound.pop(name, None)
        return {**bound, **(func.__kwdefaults__ or {})}
    return _compiled_defaults(func)


@functools.lru_cache(maxsize=DEFAULTS_LIMIT)
def _compiled_defaults(func: Callable[..., Any]) -> Mapping[str, Any]:
    """A compiled check's defaults of its parameters after (view, ctx), from its text
    signature. Read once per function: reading a text signature parses it, and the engine
    asks whenever it arranges the probes of a new set of features (`app.rules.plan`)."""
    return types.MappingProxyType(
        {n: p.default for n, p in check_params(inspect.signature(func)).items()
         if p.default is not p.empty})


@functools.lru_cache(maxsize=DEFAULTS_LIMIT)
def _positional_names(func: Callable[..., Any]) -> tuple[str, ...] | None:
    """The names of a compiled check's parameters after (view, ctx), in order, when every
    one of them can be passed by position; else None."""
    params = check_params(inspect.signature(func)).values()
    if any(p.kind is not p.POSITIONAL_OR_KEYWORD for p in params):
        return None
    return tuple(p.name for p in params)


def check_params(sig: inspect.Signature) -> dict[str, inspect.Parameter]:
    """The parameters of a check (or of one of its helpers, such as `most=`) that the YAML
    sets: those after its first two (view and ctx, or what the helper takes in their
    place), positional or keyword-only."""
    return {n: p for i, (n, p) in enumerate(sig.parameters.items())
            if (p.kind is p.POSITIONAL_OR_KEYWORD and i >= 2) or p.kind is p.KEYWORD_ONLY}


def _params(sig: inspect.Signature) -> set[str]:
    return set(check_params(sig))


def group_tile_set(kind: str, tile: int) -> frozenset[int]:
    """The kinds of tile in a group (for `tells_apart` keys): a chow's three, a knit's
    three, a pung's, kong's or pair's one."""
    if kind == "chow":
        return frozenset((tile, tile + 1, tile + 2))
    if kind == "knit":
        return frozenset((tile, tile + 3, tile + 6))
    return frozenset((tile,))


def positional(func: CheckFn) -> CheckFn:
    """The same check, for the engine: its keyword-only parameters made positional, with the
    values they are bound to (`__kwdefaults__`) as defaults. Called with (view, ctx) only, it
    runs the same body; CPython calls a function with positional defaults several times
    faster than one with keyword-only defaults, and the engine calls a check for every fan of
    every reading. A check with an unbound keyword-only parameter is returned as it is.

    A compiled check has no code object to change: bound, it is a `functools.partial` with
    keywords (`bind_check`), which CPython calls through a dict of them. It is made a small
    function passing the bound values by name instead (`_keyword_call`), which calls the
    compiled check at a fraction of that cost."""
    if not hasattr(func, "__code__"):
        if (isinstance(func, functools.partial) and not func.args and func.keywords
                and not hasattr(func.func, "__code__")):
            names = tuple(func.keywords)
            if all(n.isidentifier() and not n.startswith("_") for n in names):
                return _keyword_call(names)(func.func, *func.keywords.values())
        return func
    code = func.__code__
    n = code.co_kwonlyargcount
    bound = func.__kwdefaults__ or {}
    names = code.co_varnames[code.co_argcount:code.co_argcount + n]
    if not n or any(name not in bound for name in names):
        return func
    # Keyword-only parameters follow the positional ones: their values extend the defaults.
    fast = types.FunctionType(
        code.replace(co_argcount=code.co_argcount + n, co_kwonlyargcount=0),
        func.__globals__, func.__name__,
        (*(func.__defaults__ or ()), *(bound[name] for name in names)), func.__closure__)
    fast.__doc__ = func.__doc__
    fast.__qualname__ = func.__qualname__
    fast.__module__ = func.__module__
    return fast


def engine_call(bound: CheckFn) -> tuple[CheckFn, tuple[Any, ...]]:
    """How the engine calls a bound check (`app.rules.load_params.bind_check`): a function
    and the values it is passed after (view, ctx), `func(view, ctx, *args)`.

    A compiled check bound to its parameters is a `functools.partial` with keywords, which
    CPython calls through a dict of them: when the check takes every parameter by position,
    the engine calls the compiled function itself with their values in order (the caller,
    compiled too, passes them without building anything). Any other check is called as
    `positional` makes it, with no further values."""
    if (isinstance(bound, functools.partial) and not bound.args
            and not hasattr(bound.func, "__code__")):
        names = _positional_names(bound.func)
        if names is not None:
            values = {**_compiled_defaults(bound.func), **bound.keywords}
            if all(n in values for n in names):
                return bound.func, tuple(values[n] for n in names)
    return positional(bound), ()


# The sets of parameter names of compiled checks called by name (`_keyword_call`): those
# the checks' signatures declare, a few dozen at most.
CALLERS_LIMIT = 256


@functools.lru_cache(maxsize=CALLERS_LIMIT)
def _keyword_call(names: tuple[str, ...]) -> Callable[..., CheckFn]:
    """A maker of `lambda view, ctx: check(view, ctx, name=value, ...)` for these parameter
    names (identifiers not starting with an underscore, so none is mistaken for the maker's
    or the function's own names). Written out and compiled once per set of names: a call
    naming its keywords in the source is made with the names beside the values (vectorcall),
    where a `partial` or a call with `**` builds a dict."""
    passed = ", ".join(f"{n}={n}" for n in names)
    source = (f"def _make(_check, {', '.join(names)}):\n"
              f"    return lambda _view, _ctx: _check(_view, _ctx, {passed})\n")
    namespace: dict[str, Any] = {}
    exec(compile(source, f"<keyword call {', '.join(names)}>", "exec"), namespace)
    maker: Callable[..., CheckFn] = namespace["_make"]
    return maker


def run(spec: CheckSpec, view: View, ctx: WinContext, params: dict[str, Any]) -> int:
    """Call a check directly (tests use this; the engine calls pre-bound partials)."""
    return spec.func(view, ctx, **params)
