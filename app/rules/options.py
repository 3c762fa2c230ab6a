"""House rules a rule set declares and a request may set (`context.options`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any

from app.rules.errors import FieldError
from app.rules.families import TILES
from app.rules.sections import section

OPTION_TYPES = ("bool", "int", "enum", "per_seat")
# Declared alike for every family (`app.rules.sections`).
OPTION = section(TILES, "options[]")


@dataclass(frozen=True)
class OptionDef:
    """A house rule a request may set in `context.options`.

    A `per_seat` option is one integer per seat (a list as long as the rule set has players,
    天津 拉庄: how often each player pulls); `minimum` and `maximum` bound each entry, and
    `dealer_entry`, when set, is the value the dealer's own entry must have. A `per_seat`
    option with `choices` is one of the choices or null per seat (四川 定缺: the suit each
    player declared void, null for a seat that declared none), and has no bounds; its
    default may be null, for null at every seat."""

    name: str
    type: str  # "bool" | "int" | "enum" | "per_seat"
    default: Any
    description: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    dealer_entry: int | None = None



class DeclaresOptions:
    """What a rule set of either family derives from its `options`: the defaults a request's
    options start from, and each option by name."""

    options: tuple[OptionDef, ...]

    @cached_property
    def option_defaults(self) -> Mapping[str, Any]:
        """Every option with its default: a request's options start from these."""
        return MappingProxyType({o.name: o.default for o in self.options})

    @cached_property
    def option_by_name(self) -> Mapping[str, OptionDef]:
        return MappingProxyType({o.name: o for o in self.options})


def _list(value: Any, err: FieldError) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise err("options", "must be a list")
    return value


def read_options(value: Any, err: FieldError, players: int) -> tuple[OptionDef, ...]:
    options = tuple(_option(o, i, err, players)
                    for i, o in enumerate(_list(value, err)))
    names = [o.name for o in options]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise err(f"options[{i}].name", f"option {name!r} is declared twice")
    return options


def _option(o: Any, i: int, err: FieldError, players: int) -> OptionDef:
    """Option `i` of a rule set, read and checked (`players`: the seats a per_seat option
    lists)."""
    if not isinstance(o, dict):
        raise err(f"options[{i}]", "must be a mapping")
    fault = OPTION.fault(o)  # keys and value types (`app.rules.sections`)
    if fault is not None:
        raise err(f"options[{i}].{fault[0]}", fault[1])
    typ = o["type"]
    if typ not in OPTION_TYPES:
        raise err(f"options[{i}].type", "must be bool, int, enum or per_seat")
    choices = _choices(o, i, err, typ)
    bounds = _bounds(o, i, err, typ, choices)
    lo, hi = bounds["minimum"], bounds["maximum"]
    default = _default(o, i, err, typ, choices, bounds, players)
    return OptionDef(name=o["name"], type=typ, default=default, description=o["description"],
                     choices=choices, minimum=lo, maximum=hi,
                     dealer_entry=bounds["dealer_entry"])


def _choices(o: dict[str, Any], i: int, err: FieldError, typ: str) -> tuple[Any, ...]:
    """The choices of option `i` (of type `typ`): none for a bool or int option."""
    choices_raw = o.get("choices")
    if choices_raw is not None and typ not in ("enum", "per_seat"):
        raise err(f"options[{i}].choices", "only an enum or per_seat option has choices")
    if choices_raw is not None and (not isinstance(choices_raw, list) or not choices_raw
                                    or None in choices_raw):
        raise err(f"options[{i}].choices", "must list the values (null is not a choice: a "
                  "per_seat option's entry may be null anyway)")
    choices = tuple(choices_raw or ())
    if typ == "enum" and not choices:
        raise err(f"options[{i}].choices", "an enum option needs choices")
    return choices


def _bounds(o: dict[str, Any], i: int, err: FieldError, typ: str, choices: tuple[Any, ...]
            ) -> dict[str, int | None]:
    """The minimum, maximum and dealer entry of option `i` (None where not set)."""
    bounds: dict[str, int | None] = {}
    for key in ("minimum", "maximum", "dealer_entry"):
        value = o.get(key)
        if key == "dealer_entry" and value is not None and typ != "per_seat":
            raise err(f"options[{i}].{key}", "only a per_seat option has a dealer entry")
        if value is not None and (typ not in ("int", "per_seat") or choices):
            raise err(f"options[{i}].{key}", "only an int or per_seat option without "
                      "choices has bounds")
        bounds[key] = value
    return bounds


def _default(o: dict[str, Any], i: int, err: FieldError, typ: str, choices: tuple[Any, ...],
             bounds: dict[str, int | None], players: int) -> Any:
    """The default of option `i`, checked against its type, choices and bounds (a per_seat
    option's as a tuple, one entry per seat)."""
    lo, hi = bounds["minimum"], bounds["maximum"]
    default = o.get("default")
    if typ == "bool" and not isinstance(default, bool):
        raise err(f"options[{i}].default", "must be true or false")
    if typ == "int":
        if not isinstance(default, int) or isinstance(default, bool):
            raise err(f"options[{i}].default", "must be an integer")
        if (lo is not None and default < lo) or (hi is not None and default > hi):
            raise err(f"options[{i}].default", "must lie within minimum and maximum")
    if typ == "enum" and default not in choices:
        raise err(f"options[{i}].default", "must be one of the choices")
    if typ == "per_seat" and choices:
        # One of the choices, or null (nothing declared), per seat; a null default is null for
        # every seat, however many players (a variant may change that number).
        if default is None:
            default = [None] * players
        if (not isinstance(default, list) or len(default) != players
                or any(v is not None and v not in choices for v in default)):
            raise err(f"options[{i}].default", f"must list {players} entries (one per seat), "
                      "each one of the choices or null")
        default = tuple(default)
    elif typ == "per_seat":
        # One integer per seat, each within the bounds; the dealer's entry is checked per
        # request (the dealer is a seat of the request), so a default needs it everywhere.
        entry = bounds["dealer_entry"]
        if (not isinstance(default, list) or len(default) != players
                or any(not isinstance(n, int) or isinstance(n, bool)
                       or (lo is not None and n < lo) or (hi is not None and n > hi)
                       or (entry is not None and n != entry) for n in default)):
            raise err(f"options[{i}].default", f"must list {players} integers (one per seat) "
                      "within minimum and maximum, each equal to dealer_entry when it is set")
        default = tuple(default)
    return default
