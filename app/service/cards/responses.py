"""The JSON of the responses of a card game scored by groups (a `CardRuleSet`): a scored hand,
and the waits of a hand one card short (the rule set's document is
`app.service.cards.documents`).

A scored hand carries the envelope every family shares (`app.service.envelope`: `winning`,
`reason`, `fans` the 名堂, `fan_total` their product, `multiplier`, `value` the score,
`payments`, `explanation`), and the family's own keys (`huxi` the points of the chosen
arrangement, `tun` the units, `tun_parts` what they are made of, `score`); the figures the
rule set counts over the hand (`red_cards`) take the names its YAML gives them, each its own
field.

The groups of a decomposition: the table groups first, in the order the request gave them
(each as finished: a table group the winning card joined shows its new kind and four cards),
then the groups formed in hand ordered by their cards (the group holding the lowest card
first, in the deck's order: every small card before the big ones, by rank; equal first
cards by the next card, then by kind).

With `?explain=true` a scored hand (and each wait) also carries `explanation`: the 名堂 the
chosen arrangement had but an option left out (`not_counted`, as the tile games write theirs),
the arrangements compared, the chosen one first (`readings`: each one's groups in the order
above, its 胡息, its score or null with the reason it does not win), and how many were
compared.
"""

from __future__ import annotations

from typing import Any

from app.domain.deck import Deck
from app.rules.cards.model import CardRuleSet
from app.scoring.arranged import (
    CardExplanation,
    CardReading,
    CardResult,
    CardWait,
    CardWaits,
    GroupResult,
)
from app.service.envelope import fan_json, not_counted_fan, payments_json, reason_json


def _group(g: GroupResult) -> dict[str, Any]:
    return {"kind": g.kind, "cards": g.cards, "huxi": g.points, "on_table": g.on_table,
            "has_win_card": g.has_win_card}


def ordered_groups(groups: tuple[GroupResult, ...], deck: Deck) -> list[GroupResult]:
    """The groups in the documented order: the table ones as given, then the hand's by their
    cards."""
    table = [g for g in groups if g.on_table]
    held = sorted((g for g in groups if not g.on_table),
                  key=lambda g: (sorted(deck.parse_cards(g.cards, "")), g.kind))
    return table + held


def _scored(r: CardResult, deck: Deck) -> dict[str, Any]:
    """What a hand scored: the score response without its rule set (each wait has it too)."""
    return {
        "winning": r.winning,
        "reason": reason_json(r.reason),
        "huxi": r.points,
        "tun": r.units,
        "tun_parts": dict(r.parts),
        **dict(r.figures),
        "fans": [fan_json(f) for f in r.fans],
        "fan_total": r.fan_total,
        "multiplier": r.multiplier,
        "value": r.value,
        "score": r.score,
        "decomposition": None if r.groups is None else {
            "groups": [_group(g) for g in ordered_groups(r.groups, deck)]},
        "payments": payments_json(r.payments),
    }


def _reading(r: CardReading, deck: Deck) -> dict[str, Any]:
    return {"groups": [_group(g) for g in ordered_groups(r.groups, deck)], "huxi": r.points,
            "score": r.score, "reason": r.reason, "chosen": r.chosen}


def _explanation(e: CardExplanation, deck: Deck) -> dict[str, Any]:
    return {"not_counted": [not_counted_fan(n) for n in e.not_counted],
            "readings": [_reading(r, deck) for r in e.readings],
            "readings_compared": e.readings_compared}


def card_score_response(r: CardResult, rs: CardRuleSet,
                        explanation: CardExplanation | None = None) -> dict[str, Any]:
    out = {"ruleset": r.ruleset, **_scored(r, rs.deck)}
    if explanation is not None:
        out["explanation"] = _explanation(explanation, rs.deck)
    return out


def _wait(w: CardWait, deck: Deck) -> dict[str, Any]:
    out = {"card": w.card, "win_type": w.win_type, **_scored(w.result, deck)}
    if w.explanation is not None:
        out["explanation"] = _explanation(w.explanation, deck)
    return out


def card_waits_response(r: CardWaits, rs: CardRuleSet) -> dict[str, Any]:
    return {"ruleset": r.ruleset, "ready": r.ready, "can_win": r.can_win,
            "waits": [_wait(w, rs.deck) for w in r.waits],
            "best": None if r.best is None else _wait(r.best, rs.deck)}
