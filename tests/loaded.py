"""What many test modules share, made once per test process: the project's rule sets and an
app serving them (no access log). Loading the rule sets and building the app take a fraction of
a second each; made once instead of once per module that needs them, they cost that once per
pytest-xdist worker. Both are read-only: a test that needs other settings builds its own app
(`create_app`), and a test that needs other rule sets loads its own directory."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType

from flask import Flask

from app.api import create_app
from app.rules.loader import load_rulesets
from app.rules.model import AnyRuleSet
from app.settings import DEFAULT_RULESETS_DIR


@cache
def repo_rulesets() -> Mapping[str, AnyRuleSet]:
    """The project's rule sets (`rulesets/`), by id, in file order."""
    return MappingProxyType(load_rulesets(DEFAULT_RULESETS_DIR))


@cache
def repo_app() -> Flask:
    """The app as the tests serve it (the project's rule sets, or those of
    MAHJONG_RULESETS_DIR, as `create_app` reads them), without the access log."""
    return create_app({"ACCESS_LOG": False})
