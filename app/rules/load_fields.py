"""The two field readers every part of a tile rule set's loading shares: a list that may be
absent, an integer with a minimum.

The parts of loading build their errors with an `err(field, message, fan=None)` factory that
the rule set's builder makes (`app.rules.tile_loader.build_ruleset`): each error is a
`RuleSetError` (`app.rules.errors`) naming the file, the fan and the field.
"""

from __future__ import annotations

from typing import Any


def as_list(value: Any, field: str, err: Any) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise err(field, "must be a list")
    return value


def as_int(value: Any, field: str, err: Any, minimum: int | None = None,
           fan: str | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise err(field, f"must be an integer (got {value!r})", fan)
    if minimum is not None and value < minimum:
        raise err(field, f"must be at least {minimum} (got {value})", fan)
    return value
