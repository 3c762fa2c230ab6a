"""The two values of the option model, shared by every family of rule set.

A rule set declares house rules under `options:` (`app.rules.options`); its YAML then uses
them in two ways, written alike in every section and every family:

- a value chosen by an option (`Chosen`): `{option: X}` is the option's own value;
  `{option: X, values: {choice: value, ...}, default: value}` is the value its choice maps
  onto (the default for a choice not listed; each value may itself be chosen, nested).
  `resolve(value, options)` gives a request's value of either a plain value or a `Chosen`;
- a condition on options (`OptionCondition`): `{option: X, in: [values]}` holds while the
  option has one of the values; a list of them holds while all do.

The loaders read both with one reader each (`app.rules.load_options`), which checks that the
option exists and that every value named is one the option can take; the parameters of the
registered functions (checks, scoring steps, payment schemes) are bound by one binder
(`app.rules.load_params.bind`), which reads their values with the first.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = ["BoundParams", "Chosen", "OptionCondition", "all_hold", "resolve", "same_value"]


def same_value(a: Any, b: Any) -> bool:
    """Equal, and of the same type: true == 1 in Python, but not in JSON."""
    return type(a) is type(b) and a == b


@dataclass(frozen=True)
class Chosen:
    """A value chosen by a house rule: `values[options[option]]`, else `default`; with no
    `values`, the option's value itself."""

    option: str
    values: Mapping[Any, Any] = field(default_factory=lambda: MappingProxyType({}))
    default: Any = None
    has_default: bool = False

    def pick(self, options: Mapping[str, Any]) -> Any:
        """The value under a request's options (validated: every option is present)."""
        chosen = options[self.option]
        if not self.values:
            return chosen
        for key, value in self.values.items():
            if same_value(key, chosen):
                return resolve(value, options)
        return resolve(self.default, options)

    def written(self) -> dict[str, Any]:
        """As the YAML writes it: `{option}`, or `{option, values}` and its `default`."""
        if not self.values and not self.has_default:
            return {"option": self.option}
        out: dict[str, Any] = {"option": self.option, "values": dict(self.values)}
        if self.has_default:
            out["default"] = self.default
        return out


def resolve(value: Any, options: Mapping[str, Any]) -> Any:
    """A plain value as it is; a `Chosen` under a request's `options`."""
    return value.pick(options) if isinstance(value, Chosen) else value


@dataclass(frozen=True)
class OptionCondition:
    """A condition on a request option: its value is one of `values`. `switch`: written as
    the shorthand `enabled_by: X` (a bool option that must be true), which the rule-set
    pages word as such."""

    option: str
    values: tuple[Any, ...]
    switch: bool = field(default=False, compare=False)

    def holds(self, options: Mapping[str, Any]) -> bool:
        chosen = options.get(self.option)
        return any(same_value(v, chosen) for v in self.values)


def all_hold(conditions: tuple[OptionCondition, ...], options: Mapping[str, Any]) -> bool:
    """Whether every condition holds (a list of conditions: all of them)."""
    return all(c.holds(options) for c in conditions)


class BoundParams(Mapping[str, Any]):
    """The YAML parameters of a registered function (a check, a scoring step, a payment
    scheme), bound: each value plain (converted to the parameter's type) or `Chosen`, in the
    YAML's order. Those with no option in them are fixed once, at load: `fixed` is every
    parameter when none is chosen (None otherwise), and `resolve` a request's keywords."""

    __slots__ = ("_chosen", "_values", "fixed")

    def __init__(self, values: Mapping[str, Any]) -> None:
        self._values = dict(values)
        self._chosen = tuple((k, v) for k, v in self._values.items() if isinstance(v, Chosen))
        # A plain dict (passed as keywords faster than a read-only view); never changed.
        self.fixed: dict[str, Any] | None = None if self._chosen else dict(self._values)

    def resolve(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The keywords under a request's options (the shared fixed ones: not to be changed)."""
        if self.fixed is not None:
            return self.fixed
        out = dict(self._values)
        for name, chosen in self._chosen:
            out[name] = chosen.pick(options)
        return out

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"BoundParams({self._values!r})"
