"""The HTTP layer: one blueprint, request schemas, problem-details error handlers. Thin."""

from __future__ import annotations

from flask import Flask

from app.api.handlers import register_error_handlers
from app.api.routes import OPENAPI_KEY, RULESETS_KEY, api

__all__ = ["OPENAPI_KEY", "RULESETS_KEY", "register_api"]


def register_api(app: Flask) -> None:
    app.register_blueprint(api)
    register_error_handlers(app)
