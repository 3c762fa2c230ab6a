"""The vocabulary of fan checks: small pure functions registered by name (`registry`), in
modules by what they look at. Importing this package registers every check."""

from app.rules.checks import sets, special, traits, wild_use, win
from app.rules.checks.registry import (
    CHECKS,
    BoolOption,
    CheckSpec,
    DependsOn,
    EachKind,
    GroupKey,
    PerSeatOption,
    TileGroup,
    bound_params,
    check,
    described,
    group_tile_set,
    module_doc,
    positional,
    run,
)

__all__ = ["CHECKS", "BoolOption", "CheckSpec", "DependsOn", "EachKind", "GroupKey",
           "PerSeatOption", "TileGroup", "bound_params", "check", "described", "group_tile_set",
           "module_doc", "positional", "run",
           "sets", "special", "traits", "wild_use", "win"]
