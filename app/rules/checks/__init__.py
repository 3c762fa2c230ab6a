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
    check,
    group_tile_set,
    positional,
    run,
)

__all__ = ["CHECKS", "BoolOption", "CheckSpec", "DependsOn", "EachKind", "GroupKey",
           "PerSeatOption", "TileGroup", "check", "group_tile_set", "positional", "run",
           "sets", "special", "traits", "wild_use", "win"]
