"""The document of a card rule set (a game scored by groups) at `GET /v1/rulesets/{ruleset}`.

It writes out what the loaded `CardRuleSet` holds, in the key order `openapi.yaml` documents
(`CardRuleSetDocument`): the rule set's summary and its family (`kind`, `cards`: what
`family:` says in its YAML), the deck and its cards, the group kinds with their points, the hand
rule, where the winning card may go, the win types and who pays, the scoring steps, the
multiplying patterns (名堂), the options and `settlement` (always null: no card game settles
rounds). A value a house rule chooses is written as the choice itself, `{option, values,
default}`: `values` maps each value of the option (written as JSON text when it is not a
string: `true`, `15`) to what it chooses, `default` is what the values not listed choose (null
when every value is listed), and empty `values` mean the option's own value. Nothing here
computes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.domain.arrange import Form
from app.domain.deck import Deck
from app.rules.cards.model import (
    CardRuleSet,
    GroupKind,
    HandRule,
    PatternDef,
    Placement,
    StepDef,
    WinTypeDef,
)
from app.rules.choices import Chosen, OptionCondition
from app.rules.families import family_of
from app.service.definitions import (
    match_definition,
    option_definition,
    plain_value,
    ruleset_summary,
)


def _key(value: Any) -> str:
    """A value of an option as the key of a JSON object."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else str(value)


def choice_value(value: Any) -> Any:
    """A value as plain JSON, a value chosen by an option (`Chosen`, nested ones too) as
    `{option, values, default}`;
    a scoring step as `{step, params}`."""
    if isinstance(value, Chosen):
        return {"option": value.option,
                "values": {_key(k): choice_value(v) for k, v in value.values.items()},
                "default": choice_value(value.default) if value.has_default else None}
    if isinstance(value, StepDef):
        return _step(value)
    if isinstance(value, Mapping):
        return {_key(k): choice_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [choice_value(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted(choice_value(v) for v in value)
    return plain_value(value)


def _deck(deck: Deck) -> dict[str, Any]:
    cards = deck.cards
    return {
        "name": deck.name,
        "ranks": list(deck.ranks),
        "copies": deck.copies,
        "kinds": deck.size,
        "cards": deck.size * deck.copies,
        "suits": [{
            "letter": s.letter, "name": s.name, "name_en": s.name_en,
            "cards": [{"code": c.code, "name": c.name, "rank": c.rank,
                       "attributes": sorted(c.attributes)}
                      for c in cards if c.suit == s.letter],
        } for s in deck.suits],
        "attributes": {a: sorted(ranks) for a, ranks in sorted(deck.attributes.items())},
        "aliases": dict(deck.aliases),
    }


def _form(form: Form, when: OptionCondition | None) -> dict[str, Any]:
    # A form switched on by a bool option (`when: {option: X, in: [true]}`) names it;
    # another condition is written as the YAML writes it.
    written: Any = when
    if when is not None:
        written = (when.option if when.values == (True,)
                   else {"option": when.option, "in": list(when.values)})
    return {"form": form.form, "size": form.size, "ranks": list(form.ranks), "when": written}


def _group(kind: GroupKind, groups: Mapping[str, GroupKind]) -> dict[str, Any]:
    # A kind made of others (a table 吃) has their size.
    size = kind.size
    points = None
    if kind.points is not None:
        points = {"by_suit": dict(kind.points.by_suit),
                  "ranks": [sorted(r) for r in kind.points.ranks]}
    return {
        "id": kind.id, "name": kind.name, "name_en": kind.name_en,
        "description": kind.description, "size": size,
        "forms": [_form(fr.form, fr.when) for fr in kind.forms],
        "points": points, "table": kind.table, "flags": list(kind.flags),
        "made_of": list(kind.made_of),
    }


def _hand(hand: HandRule) -> dict[str, Any]:
    return {
        "groups": list(hand.kinds),
        "locked": {"kind": hand.locked_kind, "held": hand.locked_held},
        "pair": {"kind": hand.pair_kind, "when_size": hand.pair_when_size},
        "cards": choice_value(hand.cards),
        "per_extra": hand.per_extra,
    }


def _placement(p: Placement) -> dict[str, Any]:
    return {"held": p.held, "table": p.table,
            "by_win_type": {wt: choice_value(kinds) for wt, kinds in p.by_win_type.items()}}


def _win_type(w: WinTypeDef) -> dict[str, Any]:
    return {"id": w.id, "name": w.name, "payer": w.payer_field, "pays": w.pays,
            "shares": choice_value(w.shares), "reason": w.reason}


def _step(s: StepDef) -> dict[str, Any]:
    return {"step": s.name, "params": {k: choice_value(v) for k, v in s.params.items()}}


def _pattern(p: PatternDef) -> dict[str, Any]:
    return {"id": p.id, "name": p.name, "name_en": p.name_en, "description": p.description,
            "check": p.check_name, "params": {k: choice_value(v) for k, v in p.params.items()},
            "value": choice_value(p.value)}


def card_ruleset_document(rs: CardRuleSet, limits: Mapping[str, float]) -> dict[str, Any]:
    """Everything a client needs to know about a card rule set, with the service's `limits`
    on requests to it."""
    return {
        **ruleset_summary(rs),
        "kind": family_of(rs),  # the family (`family:` in its YAML)
        "players_option": rs.players_option,
        "deck": _deck(rs.deck),
        "groups": [_group(k, rs.groups) for k in rs.groups.values()],
        "hand": _hand(rs.hand),
        "win_card": [_placement(p) for p in rs.placements],
        "win_types": [_win_type(w) for w in rs.win_types.values()],
        "context_flags": list(rs.context_flags),
        "context_cards": list(rs.context_cards),
        "figures": dict(rs.figures),
        "names": dict(rs.names),
        "rank_by": choice_value(rs.rank_by),
        "scoring": choice_value(rs.steps),
        "patterns": [_pattern(p) for p in rs.patterns],
        "options": [option_definition(o) for o in rs.options],
        # As in a tile game's document: null says `POST .../settle` is not supported.
        "settlement": None,
        "source": rs.source,
        "match": match_definition(rs),
        "limits": dict(limits),
    }
