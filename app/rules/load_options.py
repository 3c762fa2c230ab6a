"""Conditions on options (`{option, in: [values]}`) that fans, requirements and context
rules name; the options themselves are read by `app.rules.options.read_options`.
"""

from __future__ import annotations

from typing import Any

from app.rules.definitions import OptionCondition
from app.rules.options import OptionDef


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
