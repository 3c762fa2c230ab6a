"""The service's settings: where the rule sets and the contract are, the size and time limits
of a request, and how each setting is read from the app's config or the environment.

Nothing here imports the web stack or the engine: the app factory (`app.api.factory`), the
bulk scorer (`mahjong_scoring`) and the repository's tools read the same settings.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_RULESETS_DIR = REPO_ROOT / "rulesets"
OPENAPI_PATH = REPO_ROOT / "openapi.yaml"
MAX_CONTENT_LENGTH = 64 * 1024
# A batch body (`/score/batch`, `/waits/batch`: up to 1,000 requests) may be larger.
MAX_BATCH_CONTENT_LENGTH = 2 * 1024 * 1024
# A match body (`/match`: up to 64 hands, a 血战 round of up to 32 events each) may be larger.
MAX_MATCH_CONTENT_LENGTH = 1024 * 1024
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


def time_limit(config: Mapping[str, Any]) -> float:
    """The most seconds a request may spend scoring (REQUEST_TIME_LIMIT)."""
    return _seconds(config, "REQUEST_TIME_LIMIT", TIME_LIMIT_ENV, DEFAULT_TIME_LIMIT,
                    "time limit", "0")


def body_timeout(config: Mapping[str, Any]) -> float:
    """The most seconds a request's body may take to arrive (BODY_TIMEOUT; 0: no deadline)."""
    return _seconds(config, "BODY_TIMEOUT", BODY_TIMEOUT_ENV, DEFAULT_BODY_TIMEOUT,
                    "body timeout", "0 (no deadline)")


def cors_origins(config: Mapping[str, Any]) -> list[str]:
    """The origins a browser app may call the service from (CORS_ORIGINS)."""
    value = config.get("CORS_ORIGINS", os.environ.get(CORS_ENV, ""))
    if isinstance(value, str):
        value = value.split(",")
    return [origin.strip() for origin in value if origin.strip()]


def access_log(config: Mapping[str, Any]) -> bool:
    """Whether the JSON access log is written (ACCESS_LOG)."""
    value = config.get("ACCESS_LOG", os.environ.get(ACCESS_LOG_ENV, "on"))
    if isinstance(value, str):
        return value.strip().lower() not in ("off", "0", "false", "no")
    return bool(value)
