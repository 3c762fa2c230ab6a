"""House rules a rule set declares and a request may set (`context.options`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any

OPTION_TYPES = ("bool", "int", "enum", "per_seat")


@dataclass(frozen=True)
class OptionDef:
    """A house rule a request may set in `context.options`.

    A `per_seat` option is one integer per seat (a list as long as the rule set has players,
    天津 拉庄: how often each player pulls); `minimum` and `maximum` bound each entry, and
    `dealer_entry`, when set, is the value the dealer's own entry must have."""

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
