"""The app factory: `create_app()` builds the Flask application, `register_api` puts the
HTTP layer on it.

Every rule set under `rulesets/` is loaded and validated at start-up; a rule-set error
(`app.rules.errors.RuleSetError`) propagates, so a broken rule set stops the service from
starting instead of failing requests later, and so does a rule set of a family the service
does not serve (`app.service.families`).
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask_cors import CORS

from app.api.body_deadline import with_body_deadline
from app.api.calculator import calculator
from app.api.compression import register_compression
from app.api.direct import Direct
from app.api.docs import docs
from app.api.handlers import register_error_handlers
from app.api.metrics import register_metrics
from app.api.observe import REQUEST_ID_HEADER, register_observe
from app.api.routes import OPENAPI_KEY, RULESETS_KEY, api, operations_blueprint
from app.rules.loader import load_rulesets
from app.service.families import check_served
from app.settings import (
    MAX_BATCH_CONTENT_LENGTH,
    MAX_CONTENT_LENGTH,
    MAX_MATCH_CONTENT_LENGTH,
    OPENAPI_PATH,
    access_log,
    body_timeout,
    cors_origins,
    rulesets_dir,
    time_limit,
)

__all__ = ["create_app", "register_api"]

# Responses worth compressing: a rule set's document, batches, the contract. A single score
# answer is sent as it is: on so few bytes gzip would cost more than it saves.
COMPRESS_MIN_SIZE = 2048


def register_api(app: Flask) -> None:
    """The routes (the scoring operations' made from their declarations, the calculator page
    at `/calculator` among them), error handlers, request IDs and access log, metrics
    (`GET /metrics`), CORS (for the origins in `CORS_ORIGINS`, none by default), gzip for
    large responses, and the deadline for a request's body (`BODY_TIMEOUT` seconds; 0:
    none)."""
    app.register_blueprint(api)
    app.register_blueprint(operations_blueprint())
    app.register_blueprint(docs)
    app.register_blueprint(calculator)
    register_error_handlers(app)
    metrics = register_metrics(app, app.extensions[RULESETS_KEY])
    origins = app.config["CORS_ORIGINS"]
    if origins:
        # A preflight names only the methods some route serves (flask-cors would otherwise
        # offer PUT, PATCH and DELETE too); read from the routes, so it follows them.
        methods = sorted({m for rule in app.url_map.iter_rules() for m in rule.methods or ()})
        CORS(app, origins=origins, methods=methods, expose_headers=[REQUEST_ID_HEADER],
             max_age=600)
    register_compression(app, min_size=COMPRESS_MIN_SIZE)
    # The common score and waits request is answered without Flask's dispatch, by the same
    # functions; it reads its body under the deadline.
    app.wsgi_app = Direct(  # type: ignore[method-assign]
        app.wsgi_app, config=app.config, rulesets=app.extensions[RULESETS_KEY],
        metrics=metrics, cors=bool(origins), gzip_min_size=COMPRESS_MIN_SIZE)
    app.wsgi_app = with_body_deadline(  # type: ignore[method-assign]
        app.wsgi_app, app.config["BODY_TIMEOUT"])
    # Last: its middleware wraps everything above, and sees every answer as it is sent.
    register_observe(app, metrics, access_log=bool(app.config["ACCESS_LOG"]))


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app. Config keys: RULESETS_DIR (else env MAHJONG_RULESETS_DIR, else
    `rulesets/` at the repository root), REQUEST_TIME_LIMIT (seconds; else env
    MAHJONG_TIME_LIMIT, else 10), BODY_TIMEOUT (seconds a request's body may take to arrive;
    else env MAHJONG_BODY_TIMEOUT, else 10; 0: no deadline), MAX_BATCH_CONTENT_LENGTH (bytes
    of a batch body, else 2 MiB), MAX_MATCH_CONTENT_LENGTH (bytes of a match body, else 1 MiB),
    CORS_ORIGINS (a list, or a comma-separated string; else env
    MAHJONG_CORS_ORIGINS, else none), ACCESS_LOG (else env MAHJONG_ACCESS_LOG, else on),
    plus any Flask setting. Raises `RuleSetError` when a rule set is invalid, `LookupError`
    when the service serves no family of a rule set, `ValueError` when a setting is not a
    valid value."""
    config = dict(config or {})
    app = Flask("app", static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = MAX_CONTENT_LENGTH
    app.config["MAX_BATCH_CONTENT_LENGTH"] = MAX_BATCH_CONTENT_LENGTH
    app.config["MAX_MATCH_CONTENT_LENGTH"] = MAX_MATCH_CONTENT_LENGTH
    app.config.update(config)
    app.config["REQUEST_TIME_LIMIT"] = time_limit(config)
    app.config["BODY_TIMEOUT"] = body_timeout(config)
    app.config["CORS_ORIGINS"] = cors_origins(config)
    app.config["ACCESS_LOG"] = access_log(config)
    # Chinese fan names go out as UTF-8, and keys keep the documented order.
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]

    directory = rulesets_dir(config)
    app.config["RULESETS_DIR"] = str(directory)
    loaded = load_rulesets(directory)
    check_served(loaded.values())
    app.extensions[RULESETS_KEY] = {rid: loaded[rid] for rid in sorted(loaded)}
    app.extensions[OPENAPI_KEY] = OPENAPI_PATH.read_bytes()

    register_api(app)
    return app
