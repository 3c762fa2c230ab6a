"""The vocabulary of fan checks: small pure functions registered by name (`registry`), in
modules by what they look at. Importing this package registers every check.

The check modules are compiled with the engine (pyproject.toml's compiled list), the registry
excepted: a compiled function keeps no docstring, annotations nor code object, so the registry
reads the first two from the module's source beside it and binds a compiled check's
parameters with a `functools.partial` (`registry.described`, `registry.bound_params`). A fact
that `SubstitutedFacts` fills in only when asked is read through `HandFacts.filled()`:
compiled code reads an attribute directly, never through `__getattr__`."""

from app.rules.checks import sets, special, traits, wild_use, win
from app.rules.checks.registry import (
    CHECKS,
    BoolOption,
    CheckFn,
    CheckSpec,
    DependsOn,
    EachKind,
    GroupKey,
    PerSeatOption,
    TileGroup,
    bound_params,
    check,
    check_params,
    described,
    engine_call,
    group_tile_set,
    module_doc,
    positional,
    run,
)

__all__ = ["CHECKS", "BoolOption", "CheckFn", "CheckSpec", "DependsOn", "EachKind", "GroupKey",
           "PerSeatOption", "TileGroup", "bound_params", "check", "check_params", "described",
           "engine_call", "group_tile_set", "module_doc", "positional", "run",
           "sets", "special", "traits", "wild_use", "win"]
