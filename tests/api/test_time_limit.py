"""The time limit per request: past it, the engine stops and the request is answered as a
problem (503 time_limit_exceeded), never left to the worker's timeout."""

from __future__ import annotations

from typing import Any

import pytest

from app.api import create_app
from app.settings import TIME_LIMIT_ENV
from tests.api.helpers import NINE_GATES_REQUEST, SCORE_URL, problem

SETTLE = {"events": [{"type": "win", "seat": 0, "hand": "111p222p333p444p5p5p",
                      "context": {"win_type": "self_draw"}}]}


@pytest.mark.parametrize(("url", "body"), [
    (SCORE_URL, NINE_GATES_REQUEST),
    ("/v1/rulesets/mcr/waits", {"hand": "1112345678999m", "context": {"win_type": "self_draw"}}),
    ("/v1/rulesets/sichuan/settle", SETTLE),
])
def test_past_the_limit_the_answer_is_a_problem(url: str, body: dict[str, Any]) -> None:
    # A limit of 0 s has passed before the first hand is scored.
    client = create_app({"REQUEST_TIME_LIMIT": 0}).test_client()
    result = problem(client.post(url, json=body), 503, "time_limit_exceeded")
    assert "limit of 0 s" in result["detail"]


def test_within_the_limit_nothing_changes() -> None:
    client = create_app({"REQUEST_TIME_LIMIT": 30}).test_client()
    assert client.post(SCORE_URL, json=NINE_GATES_REQUEST).status_code == 200
    # Reading rule sets involves no scoring: no limit applies.
    assert create_app({"REQUEST_TIME_LIMIT": 0}).test_client().get("/v1/rulesets/mcr"
                                                                    ).status_code == 200


def test_the_limit_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TIME_LIMIT_ENV, "2.5")
    assert create_app().config["REQUEST_TIME_LIMIT"] == 2.5
    # The config key wins over the environment.
    assert create_app({"REQUEST_TIME_LIMIT": 1}).config["REQUEST_TIME_LIMIT"] == 1
    monkeypatch.delenv(TIME_LIMIT_ENV)
    assert create_app().config["REQUEST_TIME_LIMIT"] == 10


@pytest.mark.parametrize("value", ["soon", "-1", "nan"])
def test_a_bad_limit_stops_the_service_at_start(monkeypatch: pytest.MonkeyPatch,
                                                value: str) -> None:
    monkeypatch.setenv(TIME_LIMIT_ENV, value)
    with pytest.raises(ValueError, match="time limit"):
        create_app()
