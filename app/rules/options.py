"""House rules a rule set declares and a request may set (`context.options`)."""

from __future__ import annotations

from dataclasses import dataclass
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

