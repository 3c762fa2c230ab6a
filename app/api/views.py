"""The HTTP endpoints: parse, hand over to the domain and the engine, serialise. Nothing else."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from flask import Blueprint, Response, current_app, jsonify
from marshmallow import ValidationError

from app.api.body import json_object_body
from app.api.problems import ApiError
from app.api.schemas import (
    flatten_errors,
    load_score_request,
    load_settle_request,
    load_waits_request,
)
from app.domain import request as domain_request
from app.domain.round import build_round
from app.rules.model import WILD_RULES, FanDef, OptionDef, RuleSet, WildDef
from app.scoring import evaluate, settle, waits

api = Blueprint("api", __name__)

RULESETS_KEY = "mahjong_rulesets"
OPENAPI_KEY = "mahjong_openapi"


def rulesets() -> Mapping[str, RuleSet]:
    loaded: Mapping[str, RuleSet] = current_app.extensions[RULESETS_KEY]
    return loaded


def _ruleset(ruleset_id: str) -> RuleSet:
    found = rulesets().get(ruleset_id)
    if found is None:
        known = ", ".join(rulesets()) or "none"
        raise ApiError("unknown_ruleset", f"No rule set {ruleset_id!r}; known: {known}.")
    return found


def _plain(value: Any) -> Any:
    """Rule-set data (mappings, tuples, frozen dataclasses) as plain JSON values."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | frozenset | set):
        return [_plain(v) for v in value]
    return value


def _fan(fan: FanDef) -> dict[str, Any]:
    return {
        "id": fan.id,
        "name": fan.name,
        "name_en": fan.name_en,
        "value": fan.value,
        "excludes": list(fan.excludes),
        "description": fan.description,
    }


def _option(option: OptionDef) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": option.name,
        "type": option.type,
        "default": _plain(option.default),
        "description": option.description,
    }
    if option.choices:
        out["choices"] = _plain(option.choices)
    if option.minimum is not None:
        out["minimum"] = option.minimum
    if option.maximum is not None:
        out["maximum"] = option.maximum
    if option.dealer_entry is not None:
        out["dealer_entry"] = option.dealer_entry
    return out


def _summary(rs: RuleSet) -> dict[str, Any]:
    return {"id": rs.id, "name": rs.name, "name_en": rs.name_en, "players": rs.players,
            "description": rs.description}


@api.get("/v1/rulesets")
def list_rulesets() -> Response:
    return jsonify({"rulesets": [_summary(rs) for rs in rulesets().values()]})


@api.get("/v1/rulesets/<ruleset>")
def get_ruleset(ruleset: str) -> Response:
    rs = _ruleset(ruleset)
    return jsonify({
        **_summary(rs),
        "tiles": rs.tileset.name,
        "min_fan": rs.min_fan,
        "max_flowers": rs.max_flowers,
        "fans": [_fan(f) for f in rs.fans],
        "options": [_option(o) for o in rs.options],
        "meld_kinds": list(rs.meld_kinds),
        "requirements": [
            {"check": r.check, "params": _plain(r.params), "reason": r.reason,
             "message": r.message}
            for r in rs.requirements
        ],
        "fan_requirements": [
            {"some_fan_besides": sorted(r.besides),
             "when": {"option": r.option, "in": list(r.values)} if r.option else None,
             "reason": r.reason, "message": r.message}
            for r in rs.fan_requirements
        ],
        "payment": {
            "scheme": rs.payment.scheme,
            "params": _plain(rs.payment.params),
            "description": rs.payment.description,
        },
        "settlement": _plain(rs.settlement) if rs.settlement is not None else None,
        "wild": _wild(rs.wild) if rs.wild is not None else None,
    })


def _wild(w: WildDef) -> dict[str, Any]:
    return {"indicator": w.indicator,
            "indicator_rule": WILD_RULES[w.indicator] if w.indicator else None,
            "explicit": w.explicit, "indicator_out_of_play": w.indicator_out_of_play,
            "description": w.description}


def _validated(load: Callable[[Any], dict[str, Any]], body: Any) -> dict[str, Any]:
    """The body through its marshmallow schema; schema errors answer 422 invalid_request."""
    try:
        return load(body)
    except ValidationError as exc:
        errors = flatten_errors(exc.messages)
        raise ApiError(
            "invalid_request",
            f"The request does not match the schema ({len(errors)} error(s)).",
            errors=errors,
        ) from None


@api.post("/v1/rulesets/<ruleset>/score")
def score_hand(ruleset: str) -> Response:
    rs = _ruleset(ruleset)
    body = json_object_body()
    data = _validated(load_score_request, body)
    # HandError propagates to its handler (422 with the domain's code and pointer).
    hand, ctx = domain_request.build(data["hand"], data["context"], rs)
    result = evaluate.score(hand, ctx, rs)
    return jsonify(result.to_dict())


@api.post("/v1/rulesets/<ruleset>/waits")
def list_waits(ruleset: str) -> Response:
    rs = _ruleset(ruleset)
    body = json_object_body()
    data = _validated(load_waits_request, body)
    standing, melds, ctx = domain_request.build_waiting(data["hand"], data["context"], rs)
    return jsonify(waits.waits(standing, melds, ctx, rs).to_dict())


@api.post("/v1/rulesets/<ruleset>/settle")
def settle_round(ruleset: str) -> Response:
    rs = _ruleset(ruleset)
    body = json_object_body()
    if rs.settlement is None:
        raise ApiError("settle_not_supported",
                       f"Rule set {rs.id!r} scores single hands but defines no round settlement; "
                       "rule sets that settle rounds: "
                       f"{', '.join(r.id for r in rulesets().values() if r.settlement) or 'none'}.")
    data = _validated(load_settle_request, body)
    # HandError (the round's codes, and not_a_win from the scorer) answers 422.
    return jsonify(settle.settle(build_round(data, rs), rs).to_dict())


@api.get("/healthz")
def healthz() -> Response:
    return jsonify({"status": "ok", "rulesets": list(rulesets())})


@api.get("/openapi.yaml")
def openapi_document() -> Response:
    document: bytes = current_app.extensions[OPENAPI_KEY]
    return Response(document, mimetype="application/yaml")
