"""The HTTP endpoints: read the request, hand it to the engine, write the answer. Nothing else.

Bodies are decoded and encoded with orjson; the rule set's family (`app.service.families`)
reads a request into domain values, calls the engine and writes the answer, so that the
routes serve every registered family alike. The scoring operations' routes are made from their
declarations (`app.service.operations`, `operations_blueprint`): a handler here serves every
operation alike.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

import orjson
from flask import Blueprint, Response, current_app, request

from app.api.body import json_object_body
from app.api.metrics import count_hands
from app.domain.deadline import time_limit
from app.rules.families import ServedRuleSet
from app.service.batch import MAX_BATCH_ITEMS, ItemFunction, read_batch, run_batch
from app.service.definitions import ruleset_summary
from app.service.families import ruleset_document
from app.service.operations import OperationDecl, operations
from app.service.picture_answers import (
    MAX_WIDTH,
    MIN_WIDTH,
    PICTURE_MEDIA_TYPE,
    draws_picture,
    picture_body,
)
from app.service.problems import ApiError
from app.version import __version__

api = Blueprint("api", __name__)

RULESETS_KEY = "mahjong_rulesets"
OPENAPI_KEY = "mahjong_openapi"


def rulesets() -> Mapping[str, ServedRuleSet]:
    loaded: Mapping[str, ServedRuleSet] = current_app.extensions[RULESETS_KEY]
    return loaded


def _ruleset(ruleset_id: str) -> ServedRuleSet:
    found = rulesets().get(ruleset_id)
    if found is None:
        known = ", ".join(rulesets()) or "none"
        raise ApiError("unknown_ruleset", f"No rule set {ruleset_id!r}; known: {known}.")
    return found


def _json(data: Any) -> Response:
    return Response(orjson.dumps(data), mimetype="application/json")


def _limited(view: Callable[[str], Response]) -> Callable[[str], Response]:
    """The view's work under the service's time limit per request (`REQUEST_TIME_LIMIT`);
    past it the engine stops and the request answers 503 time_limit_exceeded."""

    @functools.wraps(view)
    def limited(ruleset: str) -> Response:
        with time_limit(current_app.config["REQUEST_TIME_LIMIT"]):
            return view(ruleset)

    return limited


@api.get("/v1/rulesets")
def list_rulesets() -> Response:
    return _json({"rulesets": [ruleset_summary(rs) for rs in rulesets().values()]})


def _limits() -> dict[str, float]:
    """What the service takes per request: body sizes, items of a batch, seconds."""
    config = current_app.config
    return {"request_bytes": config["MAX_CONTENT_LENGTH"],
            "batch_bytes": config["MAX_BATCH_CONTENT_LENGTH"],
            "match_bytes": config["MAX_MATCH_CONTENT_LENGTH"],
            "batch_items": MAX_BATCH_ITEMS,
            "time_limit_seconds": config["REQUEST_TIME_LIMIT"]}


@api.get("/v1/rulesets/<ruleset>")
def get_ruleset(ruleset: str) -> Response:
    return _json(ruleset_document(_ruleset(ruleset), _limits()))


# HandError (a request that cannot be a real hand, win or round) propagates to its handler:
# 422 with the code and pointer of the fault.


def _query(name: str, accepts: Callable[[str], bool], wanted: str) -> str | None:
    """A query parameter given at most once and accepted by `accepts` (None when absent);
    400 invalid_query otherwise, saying what is `wanted`."""
    if not request.environ.get("QUERY_STRING"):  # most requests: no query string to parse
        return None
    given = request.args.getlist(name)
    if not given:
        return None
    if len(given) > 1 or not accepts(given[0]):
        raise ApiError("invalid_query",
                       f"Query parameter {name!r} must be given once, as {wanted} "
                       f"(got {', '.join(repr(g[:40]) for g in given[:3])}).")
    return given[0]


def _explain() -> bool:
    """The `explain` query parameter: true or false (absent: false)."""
    return _query("explain", ("true", "false").__contains__, "true or false") == "true"


def _width() -> int | None:
    """The `width` query parameter of a picture: a whole number of pixels within the bounds
    (absent: None, the picture's own layout)."""
    value = _query("width", lambda v: (v.isascii() and v.isdigit() and len(v) <= 5
                                       and MIN_WIDTH <= int(v) <= MAX_WIDTH),
                   f"a whole number of pixels from {MIN_WIDTH} to {MAX_WIDTH}")
    return None if value is None else int(value)


def _wants_picture(rs: ServedRuleSet, kind: str) -> bool:
    """Whether the request asks for the answer as a picture: its `Accept` names
    `image/svg+xml` and prefers it to JSON (a tie, or `*/*`, answers JSON), and the rule
    set's family draws this kind of answer. Most requests name no SVG: one look at the
    header answers for them."""
    accept = request.headers.get("Accept")
    if accept is None or "svg" not in accept:
        return False
    best = request.accept_mimetypes.best_match(("application/json", PICTURE_MEDIA_TYPE))
    return best == PICTURE_MEDIA_TYPE and draws_picture(rs, kind)


def _body(op: OperationDecl) -> dict[str, Any]:
    """The request body of an operation, within its own limit when it has one."""
    if op.body_limit is None:
        return json_object_body()
    return json_object_body(int(current_app.config[op.body_limit]))


def _picture(rs: ServedRuleSet, op: OperationDecl, *, negotiated: bool = True) -> Response:
    """The answer of `op` drawn as SVG. `negotiated`: chosen by the request's `Accept` on
    a JSON path (the answer says it varies with it), not asked on a picture path."""
    kind = op.name
    width = _width()
    svg = picture_body(kind, _body(op), rs, width)
    count_hands(rs.id, kind)
    response = Response(svg, mimetype=PICTURE_MEDIA_TYPE)
    if negotiated:
        response.vary.add("Accept")
    return response


# The scoring operations, one route each (and one per picture and batch form), made for each
# app from their declarations (`app.service.operations`).


def operations_blueprint() -> Blueprint:
    """The routes of the declared operations: `POST /v1/rulesets/<ruleset>/<name>`, and
    `.../picture` and `.../batch` where it has those forms. Made for each app, so that an
    operation declared before the app is served."""
    routes = Blueprint("operations", __name__)
    for op in operations():
        rule = op.path.replace("{ruleset}", "<ruleset>")
        routes.add_url_rule(rule, op.name, _limited(_single(op)), methods=["POST"])
        if op.picture is not None:
            routes.add_url_rule(f"{rule}/picture", f"{op.name}_picture",
                                _limited(_drawn(op)), methods=["POST"])
        if op.batch is not None:
            routes.add_url_rule(f"{rule}/batch", f"{op.name}_batch", _batched(op),
                                methods=["POST"])
    return routes


def _single(op: OperationDecl) -> Callable[[str], Response]:
    """The operation's JSON answer, or its picture when the request's `Accept` prefers one."""

    def view(ruleset: str) -> Response:
        rs = _ruleset(ruleset)
        explain = op.explain and _explain()
        if op.picture is not None and _wants_picture(rs, op.name):
            return _picture(rs, op)
        body = _body(op)
        refusal = op.refuse(rs, rulesets().values()) if op.refuse is not None else None
        if refusal is not None:
            raise refusal
        answer, hands = op.answered(body, rs, explain)
        count_hands(rs.id, op.name, hands)
        return _json(answer)

    return view


# The picture operations: the answer drawn as SVG whatever the request's `Accept`, so that
# the JSON operations' contract lists one answer type (a generated client reads it without a
# cast). The JSON paths still answer a picture to an `Accept` that prefers SVG, by the same
# `_picture`.


def _drawn(op: OperationDecl) -> Callable[[str], Response]:
    def view(ruleset: str) -> Response:
        return _picture(_ruleset(ruleset), op, negotiated=False)

    return view


def _batched(op: OperationDecl) -> Callable[[str], Response]:
    assert op.batch is not None
    form = op.batch

    def view(ruleset: str) -> Response:
        item = (form.explained if op.explain and _explain() else None) or form.item
        return _batch(ruleset, item, f"{op.name}_batch")

    return view


def _batch(ruleset_id: str, item: ItemFunction, endpoint: str) -> Response:
    # The batch keeps the time limit itself: past it, the items left answer
    # time_limit_exceeded and those done keep their answers.
    # Each item is kept as its JSON as soon as it is answered: the answer is those pieces
    # joined, the same bytes as the whole encoded at once, without all the items' objects
    # alive together (a batch of explained waits on wild hands is tens of MB of them).
    rs = _ruleset(ruleset_id)
    requests = read_batch(json_object_body(current_app.config["MAX_BATCH_CONTENT_LENGTH"]))
    answered = 0

    def encoded(result: dict[str, Any]) -> bytes:
        nonlocal answered
        answered += "result" in result
        return orjson.dumps(result)

    pieces = run_batch(requests, rs, item, current_app.config["REQUEST_TIME_LIMIT"], encoded)
    count_hands(rs.id, endpoint, answered)
    body = b"".join((b'{"results":[', b",".join(pieces), b"]}"))
    del pieces
    return Response(body, mimetype="application/json")


@api.get("/healthz")
def healthz() -> Response:
    """Liveness: the process answers; the version it runs and the rule sets it loaded."""
    return _json({"status": "ok", "version": __version__, "rulesets": list(rulesets())})


@api.get("/readyz")
def readyz() -> Response:
    """Readiness: the rule sets are loaded and compiled for scoring (at start-up, before a
    worker accepts a connection), so this worker can score; 503 `not_ready` otherwise."""
    loaded = rulesets()
    if not loaded or not all(rs.ready for rs in loaded.values()):
        raise ApiError("not_ready", "The service has not loaded its rule sets yet.")
    return _json({"status": "ready", "version": __version__, "rulesets": list(loaded)})


@api.get("/openapi.yaml")
def openapi_document() -> Response:
    document: bytes = current_app.extensions[OPENAPI_KEY]
    return Response(document, mimetype="application/yaml")
