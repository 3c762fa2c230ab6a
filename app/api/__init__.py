"""The HTTP layer, thin: the routes of the JSON operations, the pictures, the docs and the
calculator page (`routes`, `docs`, `calculator`), the fast path of the common score and waits
request (`direct`), problem documents for every error (`handlers`, `problems`), request IDs,
the access log and metrics (`observe`, `metrics`), gzip both ways (`compression`) and the
deadline of a request's body (`body_deadline`). `factory.create_app` builds the app; gunicorn
serves `app.api:create_app()`.
"""

from __future__ import annotations

from app.api.factory import create_app, register_api

__all__ = ["create_app", "register_api"]
