"""A rule set of a card game scored by groups: the deck, the group kinds with their points,
how a hand is arranged, where the winning card may go, the scoring pipeline, the multiplying
patterns (名堂) and who pays. Frozen values built once by `app.rules.cards.loader`: the rule
set of the `cards` family (`app.rules.families`), which settles no rounds.

Where a value depends on a house rule it is a value chosen by an option (`Chosen`,
`app.rules.choices`: the option it reads and the value for each of the option's values),
resolved per request (`resolve`), as in every family; where a form of group counts only under
some options, a condition on them (`OptionCondition`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, NamedTuple

from app.domain.arrange import Arranger, Form, Piece, patterns
from app.domain.deck import Deck
from app.rules.choices import BoundParams, OptionCondition
from app.rules.matches import MatchRules
from app.rules.options import DeclaresOptions, OptionDef

FREE = "free"  # a placement of the winning card: an ordinary hand card


class FormRule(NamedTuple):
    form: Form
    # A condition on the options for this form to count (`{option: X, in: [true]}`: a bool
    # option that must be on), or None.
    when: OptionCondition | None


class PointsRule(NamedTuple):
    """A group's points by suit letter, earned only by the listed rank sets when any are
    listed."""

    by_suit: Mapping[str, int]
    ranks: tuple[frozenset[int], ...] = ()


@dataclass(frozen=True)
class GroupKind:
    id: str
    name: str
    name_en: str
    description: str
    forms: tuple[FormRule, ...]
    points: PointsRule | None
    # A kind made of other kinds' forms and scored as whichever fits (a table 吃: a 句 or a
    # 绞); empty otherwise.
    made_of: tuple[str, ...] = ()
    # The cards of one group (a kind made of others: theirs, all the same).
    size: int = 0
    # How it may lie on the table: "concealed" ({...}), "exposed" ([...]) or None (never).
    table: str | None = None
    flags: tuple[str, ...] = ()



@dataclass(frozen=True)
class Placement:
    """Where the winning card may go when it completes something: `held` cards of its kind
    in hand (2: the third of a pair; 3: the fourth of a 坎), or a table group of kind `table`
    holding its kind. Per win type, the kinds of group it may make (or `FREE`)."""

    held: int | None
    table: str | None
    by_win_type: Mapping[str, Any]  # win type -> tuple of kinds or a Chosen one


@dataclass(frozen=True)
class WinTypeDef:
    id: str
    name: str
    # The context field naming the seat the card came from (None: the winner's own card).
    payer_field: str | None
    # Who pays: "each_other" (every other seat one share) or "payer" (the payer alone).
    pays: str
    # The payer's shares when `pays` is "payer": an int, "others" (players - 1), or a Chosen one.
    shares: Any
    reason: str


class StepDef(NamedTuple):
    name: str
    func: Callable[..., Any]
    params: BoundParams  # values may be chosen by options


@dataclass(frozen=True)
class PatternDef:
    """A multiplying pattern (名堂): its check, the multiplier it brings (0: not counted
    under the request's options), and the condition options."""

    id: str
    name: str
    name_en: str
    description: str
    check: Callable[..., int]
    check_name: str
    params: BoundParams  # values may be chosen by options
    value: Any  # int or Chosen


@dataclass(frozen=True)
class HandRule:
    kinds: tuple[str, ...]
    locked_kind: str
    locked_held: int
    pair_kind: str
    # Exactly one pair when the finished hand holds a group of this size, else none.
    pair_when_size: int
    # The cards of a hand: `cards` + `per_extra` for each table group of `pair_when_size`
    # cards after the first.
    cards: Any
    per_extra: int


@dataclass(frozen=True, eq=False)  # one object per loaded rule set; compared by identity
class CardRuleSet(DeclaresOptions):
    id: str
    name: str
    name_en: str
    description: str
    players: int  # the default number of players
    players_option: str | None
    deck: Deck
    groups: Mapping[str, GroupKind]
    hand: HandRule
    placements: tuple[Placement, ...]
    win_types: Mapping[str, WinTypeDef]
    figures: Mapping[str, str]  # response field -> card attribute counted over the hand
    rank_by: Any  # tuple of "points" / "score", or a Chosen one
    steps: Any  # tuple of StepDef, or a Chosen one
    patterns: tuple[PatternDef, ...]
    options: tuple[OptionDef, ...]
    context_flags: tuple[str, ...] = ()  # boolean context fields the rule set reads
    context_cards: tuple[str, ...] = ()  # context fields naming a card (醒)
    source: str = ""
    names: Mapping[str, str] = field(default_factory=dict)  # points / units words
    match: MatchRules | None = None  # how a match of hands is played (`app.rules.matches`)

    @cached_property
    def pattern_by_id(self) -> Mapping[str, PatternDef]:
        return MappingProxyType({p.id: p for p in self.patterns})

    @property
    def ready(self) -> bool:
        """Compiled for scoring: every arrangement search and table of groups built (the
        loader does it while loading)."""
        return "_arrangers" in vars(self) and "_groups_by_switches" in vars(self)

    def players_of(self, options: Mapping[str, Any]) -> int:
        return int(options[self.players_option]) if self.players_option else self.players

    def kind_groups(self, kind: str, options: Mapping[str, Any]) -> frozenset[tuple[int, ...]]:
        """The concrete groups of a kind under `options` (forms switched off by an option
        left out), each as sorted card indices."""
        return self._groups_by_switches[self._switches(options)][kind]

    def arranger(self, options: Mapping[str, Any]) -> Arranger:
        """The hand's arrangement search under `options` (one per set of form switches)."""
        return self._arrangers[self._switches(options)]

    def points(self, piece: Piece) -> int:
        """The points of a group (胡息): by its kind, suit and ranks."""
        kind = self.groups[piece.kind]
        if kind.made_of:
            for sub in kind.made_of:
                if piece.cards in self._all_groups[sub]:
                    return self.points(Piece(sub, piece.cards))
            return 0
        rule = kind.points
        if rule is None:
            return 0
        card = self.deck.cards[piece.cards[0]]
        if rule.ranks and frozenset(self.deck.cards[c].rank for c in piece.cards) not in rule.ranks:
            return 0
        return rule.by_suit.get(card.suit, 0)

    @cached_property
    def _switch_sets(self) -> tuple[frozenset[OptionCondition], ...]:
        """Every set of form switches: each subset of the conditions that switch forms on."""
        names = sorted(self._switch_names, key=repr)
        return tuple(frozenset(n for i, n in enumerate(names) if mask >> i & 1)
                     for mask in range(1 << len(names)))

    @cached_property
    def _arrangers(self) -> Mapping[frozenset[OptionCondition], Arranger]:
        # One search per set of form switches, all built when the rule set is loaded.
        out: dict[frozenset[OptionCondition], Arranger] = {}
        for switches in self._switch_sets:
            groups = self._groups_under(switches)
            out[switches] = Arranger(
                self.deck.size,
                [(k, groups[k]) for k in self.hand.kinds if k != self.hand.locked_kind],
                self.hand.pair_kind)
        return MappingProxyType(out)

    @cached_property
    def _groups_by_switches(self) -> Mapping[frozenset[OptionCondition], Mapping[str, frozenset[
            tuple[int, ...]]]]:
        return MappingProxyType({
            switches: MappingProxyType({k: frozenset(v) for k, v in
                                        self._groups_under(switches).items()})
            for switches in self._switch_sets})

    @cached_property
    def _switch_names(self) -> frozenset[OptionCondition]:
        return frozenset(fr.when for k in self.groups.values() for fr in k.forms if fr.when)

    def _switches(self, options: Mapping[str, Any]) -> frozenset[OptionCondition]:
        """The form switches that hold under `options`."""
        return frozenset(s for s in self._switch_names if s.holds(options))

    @cached_property
    def _all_groups(self) -> Mapping[str, frozenset[tuple[int, ...]]]:
        return {k: frozenset(v) for k, v in self._groups_under(self._switch_names).items()}

    def _groups_under(self, switches: frozenset[OptionCondition]
                      ) -> Mapping[str, tuple[tuple[int, ...], ...]]:
        out: dict[str, tuple[tuple[int, ...], ...]] = {}
        for kid, kind in self.groups.items():
            if kind.made_of:
                continue
            found: list[tuple[int, ...]] = []
            for fr in kind.forms:
                if fr.when is None or fr.when in switches:
                    found.extend(patterns(self.deck, fr.form))
            out[kid] = tuple(dict.fromkeys(found))
        for kid, kind in self.groups.items():
            if kind.made_of:
                out[kid] = tuple(dict.fromkeys(g for sub in kind.made_of for g in out[sub]))
        return out


@dataclass(frozen=True)
class Finished:
    """What a pattern's check and a scoring step see: the finished hand (every card, table
    groups included), its arrangement, and the win."""

    deck: Deck
    counts: tuple[int, ...]  # copies of each card kind over the whole finished hand
    groups: tuple[Piece, ...]  # the arrangement: table groups (as finished) then hand groups
    table: tuple[Piece, ...]  # the table groups as they were before the win
    win_card: int
    win_type: str
    winner: int
    dealer: int
    flags: Mapping[str, bool]  # the rule set's boolean context fields (first_turn, ...)
    cards: Mapping[str, int | None]  # other cards the context names (xing_card, ...)
    options: Mapping[str, Any]


@dataclass(frozen=True)
class Tally:
    """The figures of a hand as the scoring steps build them."""

    points: int
    units: int = 0
    parts: tuple[tuple[str, int], ...] = ()
    patterns: tuple[tuple[PatternDef, int, int], ...] = ()  # (pattern, value, count)
    multiplier: int = 1
    score: int = 0
    reason: str | None = None  # why the hand is no win (a step stopped it)
    reason_message: str = ""
