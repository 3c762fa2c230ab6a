"""The parts of a rule set, as the loader builds them from YAML: fans, requirements, shapes,
the payment scheme and wild tiles. Frozen values shared by every request."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from app.domain.hand import WinContext
from app.rules.choices import BoundParams, Chosen, OptionCondition
from app.rules.view import View

__all__ = [
    "WILD_RULES",
    "BoundCheck",
    "ContextRule",
    "FanDef",
    "FanRequirement",
    "OptionCondition",
    "PaymentDef",
    "Requirement",
    "ShapeDef",
    "StandInDef",
    "WildDef",
]


# A bound check: called with what checks see of one reading and the win context, returns how
# many times the fan applies (0 = absent).
BoundCheck = Callable[[View, WinContext], int]


@dataclass(frozen=True)
class FanDef:
    id: str
    name: str
    name_en: str
    value: int
    check: str
    params: Mapping[str, Any]
    # 不计: fans not counted when this one is counted. The loader orders fans so that an
    # excluding fan is always decided before the fans it excludes.
    excludes: tuple[str, ...]
    description: str
    # The decomposition shapes this fan is looked for in; None = every shape.
    shapes: frozenset[str] | None = None
    # Counted only when the rest of the hand scores nothing (无番和); evaluated last.
    when_nothing_else: bool = False
    # Not counted toward the rule set's minimum (花牌 in MCR).
    counts_toward_minimum: bool = True
    # Conditions on request options, all of which must hold for this fan to count (a house
    # rule choosing between two values of one pattern: 卡五星's ×2 or ×4 碰碰胡); the
    # shorthand `enabled_by: X` (a bool option switching the fan on) comes first, a
    # condition marked `switch`.
    when: tuple[OptionCondition, ...] = ()
    # Counted only when some other fan counts too: on a hand with no other fan it is left
    # out (卡五星 last_tile_plain false: no 海底 on a bare 屁胡).
    needs_other_fan: bool = False
    # A reading counting it is the hand's reading: no other reading is compared (MCR 连七对,
    # a special form read within 七对: final as the special shapes are).
    final: bool = False
    # The value chosen by request options (`value: {option: name}`, or mapped from an
    # option's choices); then `value` holds it under the options' defaults, and the engine
    # takes each request's.
    value_by: Chosen | None = None
    bound: BoundCheck | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Requirement:
    """A condition a winning hand must meet: a check that must not be 0, and the reason a
    hand that fails it is not a win."""

    check: str
    params: Mapping[str, Any]
    reason: str
    message: str
    bound: BoundCheck | None = field(default=None, compare=False, repr=False)
    # Its check looks at the whole hand and the context only, never at a reading's groups
    # (`scope="hand"`, `tells_apart="nothing"`): it holds or fails alike for every reading of
    # a hand, wild or not.
    per_hand: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class FanRequirement:
    """A condition on the fans a winning hand counts, decided after they are (a house rule
    that refuses the smallest hands): the hand must count some fan besides `besides`. With
    `option`, it applies only while that request option has one of the values `values`; with
    `win_type`, only to wins of that type."""

    besides: frozenset[str]
    reason: str
    message: str
    option: str | None = None
    values: tuple[Any, ...] = ()
    # Applies to wins of this type only (`self_draw` or `discard`); None: to every win.
    win_type: str | None = None

    def refuses(self, fan_ids: Iterable[str], options: Mapping[str, Any],
                win_type: str | None = None) -> bool:
        """Whether a hand counting these fans, won this way, fails the requirement under
        these options."""
        if self.win_type is not None and win_type != self.win_type:
            return False
        if self.option is not None:
            chosen = options.get(self.option)
            # Compared with the type too: true == 1 in Python, but not in JSON.
            if not any(type(v) is type(chosen) and v == chosen for v in self.values):
                return False
        return all(f in self.besides for f in fan_ids)


@dataclass(frozen=True)
class PaymentDef:
    """How a result turns into money: a named scheme and its parameters."""

    scheme: str
    # Bound to the scheme's signature; a value may be chosen by request options.
    params: BoundParams = field(default_factory=lambda: BoundParams({}))
    description: str = ""


@dataclass(frozen=True)
class ShapeDef:
    """A decomposition shape the rule set admits (regular, seven_pairs, ...)."""

    id: str
    # Only these fans are looked for in this shape (the special-form paths of MCR); None = all.
    only_fans: frozenset[str] | None = None
    # Fixed extra fans by the rank of the winning tile (MCR's 九莲宝灯 practice).
    extras_by_win_rank: Mapping[int, tuple[str, ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    # When this shape is found, other readings are not compared (MCR: special forms are final).
    final: bool = False
    # Ties between equal totals go to the lower `priority`.
    priority: int = 0
    # A bool request option that switches this shape on (a hand read only in it is then no
    # win while the option is false); None: always a winning shape.
    enabled_by: str | None = None


# How a flipped indicator tile (`context.wild_indicator`) names the wild kinds.
WILD_RULES = {
    "self": "the indicator's kind",
    "next": "the kind after the indicator's",
    "self_and_next": "the indicator's kind and the kind after it",
}


@dataclass(frozen=True)
class StandInDef:
    """宝 (摸宝): while the options meet `when`, the winning tile is a stand-in: it stands for
    whichever tile completing the rest of the hand scores best (never a copy beyond the tile
    set's), and the result says what it stood for."""

    when: tuple[OptionCondition, ...]
    description: str = ""

    def holds(self, options: Mapping[str, Any]) -> bool:
        return all(c.holds(options) for c in self.when)


@dataclass(frozen=True)
class ContextRule:
    """A condition on the win context while the options meet `when` (冲宝 and 摸宝 are won
    by self-draw, by a player who had declared ready): the win must be of `win_type`, and
    the winner's entry of the per-seat option `winner_set` must be set. A request breaking
    it is refused (422 inconsistent_context) with `message`."""

    when: tuple[OptionCondition, ...]
    message: str
    win_type: str | None = None
    winner_set: str | None = None


@dataclass(frozen=True)
class WildDef:
    """混: how a request's wild tiles are given, for a rule set that plays with them."""

    # `context.wild_indicator` is read by this rule (a key of WILD_RULES); None = not accepted.
    indicator: str | None
    # `context.wilds` (an explicit list of wild kinds) is accepted.
    explicit: bool
    # The flipped indicator tile is out of play: it counts as one copy of its kind in sight.
    indicator_out_of_play: bool
    description: str = ""
    # How wild hands are read: "reduced" (every check declares what it tells apart, see
    # app.rules.checks; the loader holds it to that) or "full" (every reading, exact and slow
    # with many wilds: for checking the reduced reading).
    read: str = "reduced"

    def kinds(self, indicator: int, next_kinds: tuple[int, ...]) -> tuple[int, ...]:
        """The wild kinds an indicator makes, sorted."""
        after = next_kinds[indicator]
        chosen = {"self": {indicator}, "next": {after},
                  "self_and_next": {indicator, after}}[self.indicator or "self"]
        return tuple(sorted(chosen))
