"""bench/http.py's `--breakdown` app: the service with the scoring taken out of /score.

    gunicorn -c gunicorn.conf.py --bind 127.0.0.1:PORT "bench.unscored_app:create_app()"

It is the service (`app.api.create_app()`) whose score request (the direct path and the route)
reads and checks each request exactly as the service does (body, schema, the hand and its
context), then answers, instead of scoring, the answer it made the first time it saw the same
body (scored once then), written out again. Over
a warmed-up pool of bodies the route costs what the service costs without the engine: set
against the bare route, it says how much of the gap to a bare Flask route is the request's
reading and writing and how much the scoring. Bench-only, never part of the service.
"""

from __future__ import annotations

from typing import Any, cast

import orjson
from flask import Flask, Response

from app.api import create_app as create_service
from app.api import direct
from app.api.body import json_object_body
from app.api.routes import _ruleset
from app.rules.families import TILES, family_of
from app.rules.model import AnyRuleSet, RuleSet
from app.scoring import evaluate
from app.service.tiles.requests import read_score_request
from app.service.tiles.responses import score_response


def create_app() -> Flask:
    app = create_service()
    answered: dict[bytes, dict[str, Any]] = {}

    def unscored(body: dict[str, Any], rs: AnyRuleSet, explain: bool) -> dict[str, Any]:
        assert family_of(rs) == TILES and not explain  # the benchmark's mcr bodies
        hand, ctx = read_score_request(body, cast(RuleSet, rs))
        # Keyed by the body as parsed (the service reads the raw bytes once, from the stream).
        key = orjson.dumps(body)
        found = answered.get(key)
        if found is None:
            found = answered[key] = score_response(evaluate.score(hand, ctx, rs))
        return found

    def score_hand(ruleset: str) -> Response:
        return Response(orjson.dumps(unscored(json_object_body(), _ruleset(ruleset), False)),
                        mimetype="application/json")

    # Both paths of a score request (app/api/direct.py answers the common one, the route the
    # rest): this process is the benchmark's alone.
    route, endpoint, _ = direct.ENDPOINTS["score"]
    direct.ENDPOINTS["score"] = (route, endpoint, unscored)
    app.view_functions["operations.score"] = score_hand
    return app
