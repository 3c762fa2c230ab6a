"""Every served rule set's documents conform to openapi.yaml: the list, each definition, and
a score of a winning hand of each (the examples of the document only show mcr)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.api.routes import RULESETS_KEY
from tests.api.helpers import validator_for

# A winning hand of each rule set, to check the score response of every rule set too.
HANDS = {"mcr": "1112345678999m5m", "sichuan": "111m444m777s22s55s5s",
         "chengdu": "111m444m777s22s55s5s", "tianjin": "1234567mS9m333pE2p"}
DISCARD = {"win_type": "discard", "discarder": 2}
# 天津 is won by self-draw only; E makes E and S wild (the README's wild-tile example).
CONTEXTS = {"tianjin": {"win_type": "self_draw", "wild_indicator": "E"}}


def _ids(app: Flask) -> list[str]:
    return list(app.extensions[RULESETS_KEY])


def test_every_rule_set_has_a_hand_here(app: Flask) -> None:
    assert set(_ids(app)) == set(HANDS)


@pytest.mark.parametrize("ruleset", sorted(HANDS))
def test_definition_conforms(client: FlaskClient, spec: dict[str, Any], ruleset: str) -> None:
    body = client.get(f"/v1/rulesets/{ruleset}").get_json()
    errors = [e.message for e in
              validator_for(spec, "/components/schemas/RulesetDetail").iter_errors(body)]
    assert not errors, errors


@pytest.mark.parametrize("ruleset", sorted(HANDS))
def test_score_conforms(client: FlaskClient, spec: dict[str, Any], ruleset: str) -> None:
    response = client.post(f"/v1/rulesets/{ruleset}/score", json={
        "hand": HANDS[ruleset], "context": CONTEXTS.get(ruleset, DISCARD)})
    assert response.status_code == 200
    body = response.get_json()
    assert body["winning"] is True
    errors = [e.message for e in
              validator_for(spec, "/components/schemas/ScoreResponse").iter_errors(body)]
    assert not errors, errors
