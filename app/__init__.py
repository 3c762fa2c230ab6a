"""The mahjong scoring service: `create_app()` builds the Flask application.

Every rule set under `rulesets/` is loaded and validated at start-up; a rule-set error
(`app.rules.errors.RuleSetError`) propagates, so a broken rule set stops the service from
starting instead of failing requests later, and so does a rule set of a family the service
does not serve (`app.service.families`).

Flask is imported inside `create_app` so that importing the pure packages (`app.domain`,
`app.rules`, `app.scoring`) never pulls in the web stack.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

__all__ = ["__version__", "create_app"]

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_RULESETS_DIR = REPO_ROOT / "rulesets"
OPENAPI_PATH = REPO_ROOT / "openapi.yaml"
MAX_CONTENT_LENGTH = 64 * 1024
# A batch body (`/score/batch`, `/waits/batch`: up to 1,000 requests) may be larger.
MAX_BATCH_CONTENT_LENGTH = 2 * 1024 * 1024
RULESETS_ENV = "MAHJONG_RULESETS_DIR"
# The most one request may spend scoring, in seconds: well under gunicorn's worker timeout, so
# a request past it is answered (503 time_limit_exceeded) rather than its worker killed.
TIME_LIMIT_ENV = "MAHJONG_TIME_LIMIT"
DEFAULT_TIME_LIMIT = 10.0
# The most seconds a request's body may take to arrive, from its headers to its last byte;
# past it the request is answered 408 request_timeout and its connection closed. 0: no
# deadline (for a service behind a proxy that buffers bodies and has its own deadline).
BODY_TIMEOUT_ENV = "MAHJONG_BODY_TIMEOUT"
DEFAULT_BODY_TIMEOUT = 10.0
# Origins a browser app may call the service from (CORS), comma-separated, or "*"; none by
# default.
CORS_ENV = "MAHJONG_CORS_ORIGINS"
# The JSON access log on standard output: on unless this is "off" (or "0", "false").
ACCESS_LOG_ENV = "MAHJONG_ACCESS_LOG"


def __getattr__(name: str) -> str:
    # `app.__version__`, looked up when first asked for (`app.version`).
    if name == "__version__":
        from app.version import version

        return version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def rulesets_dir(config: Mapping[str, Any]) -> Path:
    """Where the rule sets are read from: config RULESETS_DIR, else env MAHJONG_RULESETS_DIR,
    else the project's `rulesets/` (the service and the bulk tools alike)."""
    if config.get("RULESETS_DIR"):
        return Path(config["RULESETS_DIR"])
    if os.environ.get(RULESETS_ENV):
        return Path(os.environ[RULESETS_ENV])
    return DEFAULT_RULESETS_DIR


def _seconds(config: Mapping[str, Any], key: str, env: str, default: float, what: str,
             zero: str) -> float:
    """A setting in seconds: config `key`, else env `env`, else `default`; a ValueError naming
    it when it is not a finite number of 0 or more seconds (`zero` says what 0 means)."""
    value = config.get(key, os.environ.get(env, default))
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"the {what} ({env} or {key}) must be a number of seconds, "
                         f"not {value!r}") from None
    if not (seconds >= 0 and math.isfinite(seconds)):
        raise ValueError(f"the {what} must be {zero} or more seconds, not {value!r}")
    return seconds


def _time_limit(config: Mapping[str, Any]) -> float:
    return _seconds(config, "REQUEST_TIME_LIMIT", TIME_LIMIT_ENV, DEFAULT_TIME_LIMIT,
                    "time limit", "0")


def _body_timeout(config: Mapping[str, Any]) -> float:
    return _seconds(config, "BODY_TIMEOUT", BODY_TIMEOUT_ENV, DEFAULT_BODY_TIMEOUT,
                    "body timeout", "0 (no deadline)")


def _cors_origins(config: Mapping[str, Any]) -> list[str]:
    value = config.get("CORS_ORIGINS", os.environ.get(CORS_ENV, ""))
    if isinstance(value, str):
        value = value.split(",")
    return [origin.strip() for origin in value if origin.strip()]


def _access_log(config: Mapping[str, Any]) -> bool:
    value = config.get("ACCESS_LOG", os.environ.get(ACCESS_LOG_ENV, "on"))
    if isinstance(value, str):
        return value.strip().lower() not in ("off", "0", "false", "no")
    return bool(value)


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app. Config keys: RULESETS_DIR (else env MAHJONG_RULESETS_DIR, else
    `rulesets/` at the repository root), REQUEST_TIME_LIMIT (seconds; else env
    MAHJONG_TIME_LIMIT, else 10), BODY_TIMEOUT (seconds a request's body may take to arrive;
    else env MAHJONG_BODY_TIMEOUT, else 10; 0: no deadline), MAX_BATCH_CONTENT_LENGTH (bytes
    of a batch body, else 2 MiB), CORS_ORIGINS (a list, or a comma-separated string; else env
    MAHJONG_CORS_ORIGINS, else none), ACCESS_LOG (else env MAHJONG_ACCESS_LOG, else on),
    plus any Flask setting. Raises `RuleSetError` when a rule set is invalid, `LookupError`
    when the service serves no family of a rule set, `ValueError` when a setting is not a
    valid value."""
    from flask import Flask

    from app.api import OPENAPI_KEY, RULESETS_KEY, register_api
    from app.rules.loader import load_rulesets
    from app.service.families import check_served

    config = dict(config or {})
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = MAX_CONTENT_LENGTH
    app.config["MAX_BATCH_CONTENT_LENGTH"] = MAX_BATCH_CONTENT_LENGTH
    app.config.update(config)
    app.config["REQUEST_TIME_LIMIT"] = _time_limit(config)
    app.config["BODY_TIMEOUT"] = _body_timeout(config)
    app.config["CORS_ORIGINS"] = _cors_origins(config)
    app.config["ACCESS_LOG"] = _access_log(config)
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
