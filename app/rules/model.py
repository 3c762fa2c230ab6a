"""The rule set: frozen values built once by the loader and shared by every request, with the
plan the engine scores by (`app.rules.plan`), compiled when it is loaded."""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any, NamedTuple
from weakref import WeakSet

from app.domain.hand import MELD_KINDS
from app.domain.money import Payments
from app.domain.shapes import SHAPES
from app.domain.tiles import TileSet
from app.rules.cards.model import CardRuleSet
from app.rules.checks import positional
from app.rules.definitions import (
    ContextRule,
    FanDef,
    FanRequirement,
    PaymentDef,
    Requirement,
    ShapeDef,
    StandInDef,
    WildDef,
)
from app.rules.matches import MatchRules
from app.rules.options import DeclaresOptions, OptionDef
from app.rules.payments import SCHEMES, Scheme
from app.rules.plan import Plan, RuleTerms, compile_plan
from app.rules.settlement import SettlementDef

# The largest number of payments a `FixedPayment` remembers, emptied when full: one per
# (fan total, `Scheme.paid_by` key) met. 40,000 random MCR hands (every seat arrangement)
# reach 675; about 500 bytes an entry. See `app.scoring.memory`.
PAYMENTS_LIMIT = 4096


class Paid(NamedTuple):
    """The money of a hand: its payments (every other seat paying), and the scheme's value
    and multiplier."""

    payments: Payments
    value: int
    multiplier: int | None


class PaidMemo(dict[tuple[int, Any], Paid]):
    """The payments a `FixedPayment` remembers (a dict that `app.scoring.memory` can find
    through `PAID_MEMOS`), compared and hashed by identity: one per rule set."""

    __eq__ = object.__eq__
    __hash__ = object.__hash__  # type: ignore[assignment]


# Every payment memo of a loaded rule set still in use.
PAID_MEMOS: WeakSet[PaidMemo] = WeakSet()


def _paid_memo() -> PaidMemo:
    memo = PaidMemo()
    PAID_MEMOS.add(memo)
    return memo


class FixedPayment(NamedTuple):
    """A payment scheme's functions with the rule set's fixed parameters bound."""

    pay: Callable[..., Payments]  # (total, ctx, players, payers) -> Payments
    value: Callable[..., tuple[int, int | None]]  # (total) -> (value, multiplier)
    # The scheme's `paid_by`, and what `paid` remembers by (total, key); None: not
    # remembered (the scheme makes no such promise).
    paid_by: Callable[[Any], Any] | None = None
    memo: PaidMemo | None = None

    def paid(self, total: int, ctx: Any, players: int) -> Paid:
        """The money of a hand of `total` fan under `ctx`, every other seat paying."""
        paid_by = self.paid_by
        if paid_by is None or self.memo is None:
            return Paid(self.pay(total, ctx, players, None), *self.value(total))
        key = (total, paid_by(ctx))
        memo = self.memo
        found = memo.get(key)
        if found is None:
            if len(memo) >= PAYMENTS_LIMIT:
                memo.clear()
            found = memo[key] = Paid(self.pay(total, ctx, players, None), *self.value(total))
        return found


def _bound(func: Callable[..., Any], params: Mapping[str, Any]) -> Callable[..., Any]:
    """`func` with keyword parameters fixed to `params`, made positional (`positional`)."""
    copy = types.FunctionType(func.__code__, func.__globals__, func.__name__,
                              func.__defaults__, func.__closure__)
    copy.__kwdefaults__ = {**(func.__kwdefaults__ or {}), **params}
    copy.__doc__ = func.__doc__
    return positional(copy)


@dataclass(frozen=True, eq=False)  # one object per loaded rule set; compared by identity
class RuleSet(DeclaresOptions):
    id: str
    name: str
    name_en: str
    description: str
    players: int
    tileset: TileSet
    fans: tuple[FanDef, ...]  # in evaluation order: an excluding fan precedes what it excludes
    shapes: Mapping[str, ShapeDef]
    options: tuple[OptionDef, ...]
    payment: PaymentDef
    min_fan: int = 0
    # 封顶: the fan total is capped at this (二人麻将: 13); None: no cap.
    max_fan: int | None = None
    max_flowers: int = 0
    # Whether `context.first_turn` (a win in the first go-round) admits claimed melds: false,
    # it is the winner's first turn before any claim (a claimed meld is refused); true, any
    # win in the first go-round, a claim included (联众 人和 "第一圈内胡牌").
    first_turn_claims: bool = False
    flower_fan: str | None = None
    combination_policy: str | None = None
    tie_break_fans: tuple[str, ...] = ()
    # Kinds of meld a player may declare (四川 has no 吃: pung and kong only).
    meld_kinds: tuple[str, ...] = MELD_KINDS
    # Conditions every win must meet besides a shape and the minimum (四川 定缺).
    requirements: tuple[Requirement, ...] = ()
    # Conditions on the counted fans, decided after them (天津 min_hand: no plain 提溜).
    fan_requirements: tuple[FanRequirement, ...] = ()
    # How a whole round is settled (血战到底: kong money, drawn-game checks); None: the rule
    # set settles single hands only.
    settlement: SettlementDef | None = None
    match: MatchRules | None = None  # how a match of hands is played (`app.rules.matches`)
    # Wild tiles (混); None: the rule set plays without them and refuses them in requests.
    wild: WildDef | None = None
    # 宝: the winning tile stands for the best completing tile (None: never).
    stand_in: StandInDef | None = None
    # Conditions on the context under some options (refused as inconsistent_context).
    context_rules: tuple[ContextRule, ...] = ()
    source: str = ""

    @property
    def ready(self) -> bool:
        """Compiled for scoring (the loader does it while loading)."""
        return "plan" in vars(self)

    @cached_property
    def plan(self) -> Plan:
        """The rule set arranged for scoring. The loader compiles it while loading, so a
        served rule set never compiles it during a request."""
        plan = compile_plan(
            self.fans, self.shapes, self.tileset, flower_fan=self.flower_fan,
            combination_policy=self.combination_policy, tie_break_fans=self.tie_break_fans,
            requirements=self.requirements, wild=self.wild, shape_order=tuple(SHAPES),
            option_defaults=self.option_defaults)
        plan.terms = RuleTerms(
            self.id, self.name, self.players, self.tileset, self.min_fan, self.max_fan,
            self.requirements, self.requirements_per_hand, self.fan_requirements, self.wild,
            self.stand_in, self.payment_scheme, self.fixed_payment, self.fixed_payment_params)
        return plan

    @cached_property
    def requirements_per_hand(self) -> bool:
        """Every requirement is decided by the hand alone (`Requirement.per_hand`): the same
        for every reading of a hand."""
        return all(r.per_hand for r in self.requirements)

    @cached_property
    def payment_scheme(self) -> Scheme:
        """The payment scheme the rule set names."""
        return SCHEMES[self.payment.scheme]

    @cached_property
    def fixed_payment(self) -> FixedPayment | None:
        """The payment scheme's `pay` and `value` with its parameters bound, when none names
        a request option (None otherwise): called without keywords, they run faster."""
        params = self.fixed_payment_params
        if params is None:
            return None
        scheme = self.payment_scheme
        return FixedPayment(_bound(scheme.pay, params), _bound(scheme.value, params),
                            scheme.paid_by, _paid_memo() if scheme.paid_by is not None else None)

    @cached_property
    def fixed_payment_params(self) -> Mapping[str, Any] | None:
        """The payment scheme's parameters when none of them names a request option (they
        are then the same for every request, resolved once); None when some does."""
        # A plain dict (passed as keywords faster than a read-only view); never changed.
        return self.payment.params.fixed

    @cached_property
    def fan_by_id(self) -> Mapping[str, FanDef]:
        return MappingProxyType({f.id: f for f in self.fans})



# A loaded rule set of a built-in family (`app.rules.families`): a tile game scored by fans,
# or a card game scored by groups.
AnyRuleSet = RuleSet | CardRuleSet
