"""The HTTP layer: one blueprint, request schemas, problem-details error handlers. Thin."""

from __future__ import annotations

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
from app.api.routes import OPENAPI_KEY, RULESETS_KEY, api

__all__ = ["OPENAPI_KEY", "RULESETS_KEY", "register_api"]

# Responses worth compressing: a rule set's document (16 KB for mcr), batches, the contract.
# A single score answer (under 1 KB) is sent as it is: gzip would cost more than it saves.
COMPRESS_MIN_SIZE = 2048


def register_api(app: Flask) -> None:
    """The routes (the calculator page at `/calculator` among them), error handlers, request
    IDs and access log, metrics (`GET /metrics`), CORS (for the origins in `CORS_ORIGINS`,
    none by default), gzip for large responses, and the deadline for a request's body
    (`BODY_TIMEOUT` seconds; 0: none)."""
    app.register_blueprint(api)
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
