"""The JSON of a tile game's rule-set document (`GET /v1/rulesets/{ruleset}`): everything a
client needs to know about the rule set (its fans, options, payment, settlement and wild tiles),
with the service's limits. The writers every family's document shares are
`app.service.definitions`; a card game's document is `app.service.cards.documents`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rules.definitions import WILD_RULES, FanDef, WildDef
from app.rules.model import RuleSet
from app.service.definitions import (
    match_definition,
    option_definition,
    plain_value,
    ruleset_summary,
)


def _fan_definition(fan: FanDef) -> dict[str, Any]:
    return {
        "id": fan.id,
        "name": fan.name,
        "name_en": fan.name_en,
        "value": fan.value,
        "excludes": list(fan.excludes),
        "description": fan.description,
    }


def _wild(w: WildDef) -> dict[str, Any]:
    return {"indicator": w.indicator,
            "indicator_rule": WILD_RULES[w.indicator] if w.indicator else None,
            "explicit": w.explicit, "indicator_out_of_play": w.indicator_out_of_play,
            "description": w.description}


def tile_ruleset_document(rs: RuleSet, limits: Mapping[str, float]) -> dict[str, Any]:
    """Everything a client needs to know about a tile rule set (`GET /v1/rulesets/{ruleset}`),
    with the service's `limits` on requests to it."""
    return {
        **ruleset_summary(rs),
        "tiles": rs.tileset.name,
        "tile_kinds": [{"code": k.code, "name": k.name_zh, "suit": k.suit}
                       for k in (rs.tileset.kinds[t] for t in rs.tileset.display_order)],
        "min_fan": rs.min_fan,
        "max_fan": rs.max_fan,
        "first_turn_claims": rs.first_turn_claims,
        "max_flowers": rs.max_flowers,
        "fans": [_fan_definition(f) for f in rs.fans],
        "options": [option_definition(o) for o in rs.options],
        "meld_kinds": list(rs.meld_kinds),
        "requirements": [
            {"check": r.check, "params": plain_value(r.params), "reason": r.reason,
             "message": r.message}
            for r in rs.requirements
        ],
        "fan_requirements": [
            {"some_fan_besides": sorted(r.besides),
             "when": {"option": r.option, "in": list(r.values)} if r.option else None,
             "win_type": r.win_type,
             "reason": r.reason, "message": r.message}
            for r in rs.fan_requirements
        ],
        "payment": {
            "scheme": rs.payment.scheme,
            "params": plain_value(rs.payment.params),
            "description": rs.payment.description,
        },
        "settlement": plain_value(rs.settlement) if rs.settlement is not None else None,
        "wild": _wild(rs.wild) if rs.wild is not None else None,
        "match": match_definition(rs),
        "limits": dict(limits),
    }
