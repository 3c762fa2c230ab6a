"""The readers of the option model (`app.rules.choices`), one for each of its values, used by
every section of every family's YAML: a value chosen by an option (`read_chosen`) and a
condition on options (`read_condition`, `read_conditions`; `read_switch` for the shorthand
`enabled_by: X`). The options themselves are read by `app.rules.options.read_options`.

Each checks that the option exists and that every value it names is one the option can take
(an enum's choices, true or false, an integer within the bounds), and raises the rule set's
load error naming the field (`app.rules.errors`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any

from app.rules.choices import Chosen, OptionCondition, same_value
from app.rules.options import OptionDef

CHOSEN_KEYS = ("option", "values", "default")
# A plain value converted (and checked) for the field it stands in: (value, field) -> value.
Convert = Callable[[Any, str], Any]
Options = Iterable[OptionDef] | Mapping[str, OptionDef]


def _same(value: Any, field: str) -> Any:
    return value


def _by_name(options: Options) -> Mapping[str, OptionDef]:
    return options if isinstance(options, Mapping) else {o.name: o for o in options}


def _raiser(err: Any, fan: str | None) -> Callable[[str, str], Exception]:
    """err(field, message), naming the fan too for a tile rule set's fan field."""
    if fan is None:
        return lambda field, message: err(field, message)
    return lambda field, message: err(field, message, fan)


def taken_values(od: OptionDef) -> tuple[Any, ...] | None:
    """Every value the option can take, when they are few (bool, enum); None otherwise."""
    if od.type == "bool":
        return (True, False)
    if od.type == "enum":
        return od.choices
    return None


def is_value_of(value: Any, od: OptionDef) -> bool:
    """Whether a request could set the option to `value` (a per-seat option: never one)."""
    taken = taken_values(od)
    if taken is not None:
        return any(same_value(value, t) for t in taken)
    return (od.type == "int" and isinstance(value, int) and not isinstance(value, bool)
            and (od.minimum is None or value >= od.minimum)
            and (od.maximum is None or value <= od.maximum))


def _option(name: Any, by_name: Mapping[str, OptionDef], field: str,
            raise_: Callable[[str, str], Exception]) -> OptionDef:
    od = by_name.get(name) if isinstance(name, str) else None
    if od is None:
        known = ", ".join(sorted(by_name)) or "none"
        raise raise_(field, f"names no option of this rule set: {name!r} (options: {known})")
    return od


def read_chosen(value: Any, options: Options, field: str, err: Any,
                convert: Convert = _same, *, fan: str | None = None,
                own_values: bool = True) -> Any:
    """A value, or one chosen by an option: `{option: X}` (the option's value; each value it
    can take, when they are few, or its bounds, must convert) or `{option: X, values: {choice:
    value}, default: value}` (keys values of the option, every one covered or a default;
    values read the same way, nested). Plain values go through `convert`; so do the values an
    option gives as its own, unless `own_values` is false (a payment scheme's `prepare` then
    checks the option itself)."""
    if not (isinstance(value, dict) and "option" in value):
        return convert(value, field)
    raise_ = _raiser(err, fan)
    by_name = _by_name(options)
    extra = sorted(map(str, set(value) - set(CHOSEN_KEYS)))
    if extra:
        raise raise_(f"{field}.{extra[0]}", "unknown key of a value chosen by an option "
                     f"(allowed: {', '.join(CHOSEN_KEYS)})")
    od = _option(value["option"], by_name, f"{field}.option", raise_)
    taken = taken_values(od)
    if "values" not in value:
        if "default" in value:
            raise raise_(f"{field}.default", "a default goes with values")
        bounds = (od.minimum, od.maximum) if od.type == "int" else ()
        for v in (taken if taken is not None else bounds) if own_values else ():
            if v is not None:
                convert(v, field)
        return Chosen(od.name)
    raw = value["values"]
    if od.type == "per_seat":
        raise raise_(f"{field}.option", f"option {od.name!r} is per_seat: a value cannot be "
                     "mapped from it")
    if not isinstance(raw, dict) or not raw:
        raise raise_(f"{field}.values", "must map values of the option to what they choose")
    values: dict[Any, Any] = {}
    for key, v in raw.items():
        if not is_value_of(key, od):
            raise raise_(f"{field}.values", f"{key!r} is not a value of option {od.name!r}")
        values[key] = read_chosen(v, by_name, f"{field}.values.{key}", err, convert, fan=fan,
                                  own_values=own_values)
    has_default = "default" in value
    if not has_default and (taken is None or len(values) < len(taken)):
        raise raise_(f"{field}.values", f"covers not every value of {od.name!r} and has no "
                     "default")
    default = (read_chosen(value["default"], by_name, f"{field}.default", err, convert,
                           fan=fan, own_values=own_values) if has_default else None)
    return Chosen(od.name, MappingProxyType(values), default, has_default)


def read_condition(when: Any, options: Options, field: str, fan: str | None,
                   err: Any) -> OptionCondition:
    """`{option: X, in: [values]}`: the option (bool or enum) has one of the values."""
    raise_ = _raiser(err, fan)
    if not isinstance(when, dict) or set(when) != {"option", "in"}:
        raise raise_(field, "must be {option: <a bool or enum option>, in: [values]}")
    by_name = _by_name(options)
    od = by_name.get(when["option"]) if isinstance(when["option"], str) else None
    taken = None if od is None else taken_values(od)
    if od is None or taken is None:
        raise raise_(f"{field}.option", f"must name a bool or enum option of this rule set "
                     f"(got {when['option']!r})")
    chosen = when["in"]
    if (not isinstance(chosen, list) or not chosen
            or any(not is_value_of(c, od) for c in chosen)):
        raise raise_(f"{field}.in", f"must list values of option {od.name!r} "
                     f"({', '.join(map(str, taken))})")
    return OptionCondition(od.name, tuple(chosen))


def read_conditions(value: Any, options: Options, fan: str | None, err: Any,
                    field: str = "when") -> tuple[OptionCondition, ...]:
    """One condition on an option, or a list of them (all must hold)."""
    items = value if isinstance(value, list) else [value]
    if not items:
        raise _raiser(err, fan)(field, "must be {option, in} or a non-empty list of them")
    return tuple(read_condition(w, options, field if not isinstance(value, list)
                                else f"{field}[{i}]", fan, err) for i, w in enumerate(items))


def read_switch(name: Any, options: Options, field: str, fan: str | None,
                err: Any) -> OptionCondition:
    """`enabled_by: X`, the shorthand of `when: {option: X, in: [true]}`: X a bool option."""
    by_name = _by_name(options)
    od = by_name.get(name) if isinstance(name, str) else None
    if od is None or od.type != "bool":
        bools = ", ".join(n for n, o in by_name.items() if o.type == "bool") or "none"
        raise _raiser(err, fan)(field, f"must name a bool option of this rule set (got "
                                f"{name!r}; bool options: {bools})")
    return OptionCondition(od.name, (True,), switch=True)
