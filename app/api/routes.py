"""The HTTP endpoints: parse, hand over to the domain and the engine, serialise. Nothing else."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import Blueprint, Response, current_app, jsonify
from marshmallow import ValidationError

from app.api import requests as domain_request
from app.api.body import json_object_body
from app.api.problems import ApiError
from app.api.responses import (
    ruleset_document,
    ruleset_summary,
    score_response,
    settle_response,
    waits_response,
)
from app.api.rounds import build_round
from app.api.schemas import (
    flatten_errors,
    load_score_request,
    load_settle_request,
    load_waits_request,
)
from app.rules.model import RuleSet
from app.scoring import evaluate, rounds, waits

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


@api.get("/v1/rulesets")
def list_rulesets() -> Response:
    return jsonify({"rulesets": [ruleset_summary(rs) for rs in rulesets().values()]})


@api.get("/v1/rulesets/<ruleset>")
def get_ruleset(ruleset: str) -> Response:
    return jsonify(ruleset_document(_ruleset(ruleset)))


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
    return jsonify(score_response(result))


@api.post("/v1/rulesets/<ruleset>/waits")
def list_waits(ruleset: str) -> Response:
    rs = _ruleset(ruleset)
    body = json_object_body()
    data = _validated(load_waits_request, body)
    standing, melds, ctx = domain_request.build_waiting(data["hand"], data["context"], rs)
    return jsonify(waits_response(waits.waits(standing, melds, ctx, rs)))


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
    return jsonify(settle_response(rounds.settle(build_round(data, rs), rs)))


@api.get("/healthz")
def healthz() -> Response:
    return jsonify({"status": "ok", "rulesets": list(rulesets())})


@api.get("/openapi.yaml")
def openapi_document() -> Response:
    document: bytes = current_app.extensions[OPENAPI_KEY]
    return Response(document, mimetype="application/yaml")
