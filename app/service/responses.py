"""The JSON of every response body: results of the engine and the rule-set documents.

Each function returns plain dicts and lists in the key order `openapi.yaml` documents; the
routes encode them. Nothing here computes: it writes out what the engine decided.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.domain.money import Payments
from app.rules.definitions import WILD_RULES, FanDef, WildDef
from app.rules.model import AnyRuleSet, RuleSet
from app.scoring.result import (
    Decomposition,
    DrawPlayer,
    Explanation,
    FanResult,
    NotCounted,
    Reason,
    ScoreResult,
    SettleResult,
    WaitEntry,
    WaitsResult,
    WinSummary,
)
from app.service.card_documents import card_ruleset_document
from app.service.definitions import option_definition, plain_value, ruleset_summary

# --- scored hands ------------------------------------------------------------------------


def fan_json(f: FanResult) -> dict[str, Any]:
    return {"id": f.id, "name": f.name, "name_en": f.name_en, "value": f.value,
            "count": f.count}


def reason_json(r: Reason | None) -> dict[str, str] | None:
    return None if r is None else {"code": r.code, "message": r.message}


def _decomposition(d: Decomposition | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {"shape": d.shape, "melds": list(d.melds),
            "wilds": [{"tile": held, "as": read} for held, read in d.wilds]}


def payments_json(p: Payments | None) -> dict[str, Any] | None:
    if p is None:
        return None
    return {"net": list(p.net),
            "transfers": [{"from": t.payer, "to": t.payee, "amount": t.amount,
                           "reason": t.reason} for t in p.transfers]}


def _scored(r: ScoreResult | WaitEntry) -> dict[str, Any]:
    """What a hand scored: shared by the score response and each wait of the waits
    response."""
    return {
        "winning": r.winning,
        "reason": reason_json(r.reason),
        "fans": [fan_json(f) for f in r.fans],
        "fan_total": r.fan_total,
        "value": r.value,
        "multiplier": r.multiplier,
        "decomposition": _decomposition(r.decomposition),
    }


def not_counted_fan(n: NotCounted) -> dict[str, Any]:
    """A fan the chosen reading had but did not count (an explanation's `not_counted`)."""
    return {"id": n.id, "name": n.name, "name_en": n.name_en, "value": n.value,
            "count": n.count, "rule": n.rule, "by": n.by, "message": n.message}


def _explanation(e: Explanation) -> dict[str, Any]:
    return {
        "not_counted": [not_counted_fan(n) for n in e.not_counted],
        "readings": [{**(_decomposition(r.decomposition) or {}),
                      "fans": [{"id": fid, "count": n} for fid, n in r.fans],
                      "fan_total": r.fan_total, "meets_requirements": r.meets_requirements,
                      "chosen": r.chosen} for r in e.readings],
        "readings_compared": e.readings_compared,
    }


def score_response(r: ScoreResult, explanation: Explanation | None = None) -> dict[str, Any]:
    out = {"ruleset": r.ruleset, **_scored(r), "payments": payments_json(r.payments)}
    if explanation is not None:
        out["explanation"] = _explanation(explanation)
    return out


def _wait(w: WaitEntry) -> dict[str, Any]:
    out = {"tile": w.tile, **_scored(w)}
    if w.explanation is not None:
        out["explanation"] = _explanation(w.explanation)
    return out


def waits_response(r: WaitsResult) -> dict[str, Any]:
    return {"ruleset": r.ruleset, "ready": r.ready, "can_win": r.can_win,
            "waits": [_wait(w) for w in r.waits],
            "best": _wait(r.best) if r.best is not None else None}


def _win(w: WinSummary) -> dict[str, Any]:
    return {"event": w.event, "seat": w.seat, "fans": [fan_json(f) for f in w.fans],
            "fan_total": w.fan_total, "value": w.value, "multiplier": w.multiplier,
            "decomposition": _decomposition(w.decomposition)}


def _draw_player(p: DrawPlayer) -> dict[str, Any]:
    best = None
    if p.best is not None:
        best = {"tile": p.best.tile, "fans": [fan_json(f) for f in p.best.fans],
                "fan_total": p.best.fan_total, "value": p.best.value}
    return {"seat": p.seat, "state": p.state, "best": best}


def settle_response(r: SettleResult) -> dict[str, Any]:
    return {
        "ruleset": r.ruleset,
        "finished": r.finished,
        "net": list(r.net),
        "transfers": [{"from": t.payer, "to": t.payee, "amount": t.amount,
                       "reason": t.reason, "event": t.event} for t in r.transfers],
        "wins": [_win(w) for w in r.wins],
        "draw": None if r.draw is None else {
            "event": r.draw.event, "players": [_draw_player(p) for p in r.draw.players]},
    }


# --- rule-set documents ------------------------------------------------------------------


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


def ruleset_document(rs: AnyRuleSet, limits: Mapping[str, float]) -> dict[str, Any]:
    """Everything a client needs to know about a rule set (`GET /v1/rulesets/{ruleset}`),
    with the service's `limits` on requests to it; a card rule set's is
    `app.service.card_documents.card_ruleset_document`."""
    if not isinstance(rs, RuleSet):
        return card_ruleset_document(rs, limits)
    return {
        **ruleset_summary(rs),
        "tiles": rs.tileset.name,
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
        "limits": dict(limits),
    }
