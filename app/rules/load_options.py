"""Options: a rule set's `options:` (house rules a request may choose), shared by the tile and
the card games, and conditions on them (`{option, in: [values]}`) that fans, requirements
and context rules name.
"""

from __future__ import annotations

from typing import Any

from app.rules.definitions import OptionCondition
from app.rules.load_errors import as_list
from app.rules.options import OPTION_TYPES, OptionDef

OPTION_KEYS = {"name", "type", "default", "description", "choices", "minimum", "maximum",
               "dealer_entry"}


def read_options(value: Any, err: Any, players: int) -> tuple[OptionDef, ...]:
    options = tuple(_option(o, i, err, players)
                    for i, o in enumerate(as_list(value, "options", err)))
    names = [o.name for o in options]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise err(f"options[{i}].name", f"option {name!r} is declared twice")
    return options


def _option(o: Any, i: int, err: Any, players: int) -> OptionDef:
    if not isinstance(o, dict):
        raise err(f"options[{i}]", "must be a mapping")
    bad = set(o) - OPTION_KEYS
    if bad:
        raise err(f"options[{i}].{sorted(bad)[0]}", "unknown key")
    for key in ("name", "type", "description"):
        if not isinstance(o.get(key), str):
            raise err(f"options[{i}].{key}", "must be a string")
    typ = o["type"]
    if typ not in OPTION_TYPES:
        raise err(f"options[{i}].type", "must be bool, int, enum or per_seat")
    choices_raw = o.get("choices")
    if choices_raw is not None and (typ != "enum" or not isinstance(choices_raw, list)):
        raise err(f"options[{i}].choices", "only an enum option has choices: a list")
    choices = tuple(choices_raw or ())
    if typ == "enum" and not choices:
        raise err(f"options[{i}].choices", "an enum option needs choices")
    bounds: dict[str, int | None] = {}
    for key in ("minimum", "maximum", "dealer_entry"):
        value = o.get(key)
        if key == "dealer_entry" and value is not None and typ != "per_seat":
            raise err(f"options[{i}].{key}", "only a per_seat option has a dealer entry")
        if value is not None and (typ not in ("int", "per_seat") or not isinstance(value, int)
                                  or isinstance(value, bool)):
            raise err(f"options[{i}].{key}", "only an int or per_seat option has bounds: an "
                      "integer")
        bounds[key] = value
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
    if typ == "per_seat":
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
    return OptionDef(name=o["name"], type=typ, default=default, description=o["description"],
                     choices=choices, minimum=lo, maximum=hi,
                     dealer_entry=bounds["dealer_entry"])


def read_condition(when: Any, options: tuple[OptionDef, ...], field: str, fan: str | None,
                   err: Any) -> OptionCondition:
    """`{option: <a bool or enum option>, in: [values]}`: the option has one of the values."""
    if not isinstance(when, dict) or set(when) != {"option", "in"}:
        raise err(field, "must be {option: <a bool or enum option>, in: [values]}", fan)
    od = next((o for o in options if o.name == when["option"]), None)
    if od is None or od.type not in ("bool", "enum"):
        raise err(f"{field}.option", f"must name a bool or enum option of this rule "
                  f"set (got {when['option']!r})", fan)
    allowed = (True, False) if od.type == "bool" else od.choices
    chosen = when["in"]
    if (not isinstance(chosen, list) or not chosen
            or any(not any(type(c) is type(a) and c == a for a in allowed)
                   for c in chosen)):
        raise err(f"{field}.in", f"must list values of option {od.name!r} "
                  f"({', '.join(map(str, allowed))})", fan)
    return OptionCondition(od.name, tuple(chosen))


def read_conditions(value: Any, options: tuple[OptionDef, ...], fan: str,
                    err: Any) -> tuple[OptionCondition, ...]:
    """A fan's `when`: one condition on an option, or a list of them (all must hold)."""
    items = value if isinstance(value, list) else [value]
    if not items:
        raise err("when", "must be {option, in} or a non-empty list of them", fan)
    return tuple(read_condition(w, options, "when" if not isinstance(value, list)
                                else f"when[{i}]", fan, err) for i, w in enumerate(items))
