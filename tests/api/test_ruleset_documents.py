"""Every served rule set's documents conform to openapi.yaml: the list, each definition, and
a score of a winning hand of each (the examples of the document only show mcr), each against
the schema of its family (tile games, or word cards: `Card...`).

The winning hand of a rule set is the first winning case of its own case files
(`tests/cases/<ruleset>/*.yaml`), so adding a rule set with its cases changes nothing here;
a rule set without case files yet uses the first score example of openapi.yaml posted to it
(named after it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from app.rules.cards.model import CardRuleSet
from app.rules.load_files import load_yaml
from app.rules.model import RuleSet
from tests.api.helpers import REPO_ROOT, validator_for
from tests.loaded import repo_rulesets

CASES = REPO_ROOT / "tests" / "cases"
RULESETS = repo_rulesets()
RULESET_IDS = sorted(RULESETS)
# The response schema of GET /v1/rulesets/{ruleset}: one of the two documents.
DEFINITION = "/paths/~1v1~1rulesets~1{ruleset}/get/responses/200/content/application~1json/schema"


def _schema(ruleset: str, name: str) -> str:
    card = isinstance(RULESETS[ruleset], CardRuleSet)
    return f"/components/schemas/{'Card' if card else ''}{name}"


def winning_case(ruleset: str, spec: dict[str, Any]) -> dict[str, Any]:
    """The first case of the rule set's case files that expects a win (else the first score
    example of the document named after the rule set)."""
    for path in sorted(Path(CASES / ruleset).glob("*.yaml")):
        for case in load_yaml(path.read_text(encoding="utf-8"))["cases"]:
            if case["expect"].get("winning") is True:
                return case
    # A word-card game's own score operation, else the tile games' examples named after it.
    own = spec["paths"].get(f"/v1/rulesets/{ruleset}/score")
    examples = (own or spec["paths"]["/v1/rulesets/{ruleset}/score"])["post"]["requestBody"][
        "content"]["application/json"]["examples"]
    for name, example in examples.items():
        if own is not None or name.startswith(f"{ruleset}_"):
            return {"name": name, **example["value"]}
    raise AssertionError(f"tests/cases/{ruleset}/ holds no winning case: add one")


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_definition_conforms(client: FlaskClient, spec: dict[str, Any], ruleset: str) -> None:
    body = client.get(f"/v1/rulesets/{ruleset}").get_json()
    # A tile game's document is a RulesetDetail, a card game's a CardRuleSetDocument, and
    # either is the operation's documented answer.
    own = ("RulesetDetail" if isinstance(RULESETS[ruleset], RuleSet)
           else "CardRuleSetDocument")
    for pointer in (f"/components/schemas/{own}", DEFINITION):
        errors = [e.message for e in validator_for(spec, pointer).iter_errors(body)]
        assert not errors, (pointer, errors)


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_score_conforms(client: FlaskClient, spec: dict[str, Any], ruleset: str) -> None:
    case = winning_case(ruleset, spec)
    response = client.post(f"/v1/rulesets/{ruleset}/score",
                           json={"hand": case["hand"], "context": case["context"]})
    assert response.status_code == 200
    body = response.get_json()
    assert body["winning"] is True, case["name"]
    errors = [e.message for e in
              validator_for(spec, _schema(ruleset, "ScoreResponse")).iter_errors(body)]
    assert not errors, errors
