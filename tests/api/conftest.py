"""Fixtures for the HTTP API tests: the real app with the real rule sets."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from typing import Any

import pytest
import yaml
from flask import Flask
from flask.testing import FlaskClient

from app.api import create_app
from app.api.observe import APP_LOGGER, JsonFormatter
from app.rules.load_files import load_yaml
from tests.api.helpers import OPENAPI_FILE, REPO_ROOT, AppLog


@pytest.fixture(scope="session")
def app() -> Flask:
    # Without the access log (tests/api/test_observe.py has it): thousands of requests would
    # fill the captured output of a failing test.
    return create_app({"ACCESS_LOG": False})


@pytest.fixture()
def client(app: Flask) -> Iterator[FlaskClient]:
    with app.test_client() as c:
        yield c


@pytest.fixture()
def app_log(app: Flask) -> Iterator[AppLog]:
    """The handler the app installed on its logger (`app`), writing to a buffer instead of
    standard output for the test: its lines exactly as an operator would read them."""
    handlers = [h for h in logging.getLogger(APP_LOGGER).handlers
                if isinstance(h, logging.StreamHandler) and isinstance(h.formatter, JsonFormatter)]
    assert len(handlers) == 1, "the app's log has no JSON handler, or more than one"
    buffer = io.StringIO()
    before = handlers[0].setStream(buffer)
    try:
        yield AppLog(buffer)
    finally:
        if before is not None:
            handlers[0].setStream(before)


@pytest.fixture(scope="session")
def spec() -> dict[str, Any]:
    loaded: dict[str, Any] = load_yaml(OPENAPI_FILE.read_text(encoding="utf-8"))
    return loaded


# A variant of the real mcr rule set that declares one option of each type, to exercise
# option rendering and the unknown_option / invalid_option paths through the real loader.
TEST_OPTIONS: list[dict[str, Any]] = [
    {"name": "cap", "type": "int", "default": 0, "minimum": 0, "maximum": 3,
     "description": "A test option: an integer from 0 to 3."},
    {"name": "strict", "type": "bool", "default": False, "description": "A test switch."},
    {"name": "style", "type": "enum", "default": "a", "choices": ["a", "b"],
     "description": "A test choice."},
]


@pytest.fixture(scope="session")
def options_app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    directory = tmp_path_factory.mktemp("rulesets")
    data = load_yaml((REPO_ROOT / "rulesets" / "mcr.yaml").read_text(encoding="utf-8"))
    data["options"] = TEST_OPTIONS
    (directory / "mcr.yaml").write_text(yaml.safe_dump(data, allow_unicode=True),
                                        encoding="utf-8")
    return create_app({"RULESETS_DIR": str(directory)})


@pytest.fixture()
def options_client(options_app: Flask) -> Iterator[FlaskClient]:
    with options_app.test_client() as c:
        yield c
