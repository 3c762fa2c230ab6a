"""Schema-driven fuzzing of every operation with schemathesis, in-process against the real app.

Positive cases (bodies the contract allows) and negative cases (bodies it forbids) are sent
through the WSGI app. Every response must: not be a server error, have a documented status
code, the documented content type and a body matching the documented schema. Positive cases
must moreover never be refused as `invalid_request`: what openapi.yaml allows, the
marshmallow schemas accept.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
import schemathesis
import yaml
from flask import Flask
from hypothesis import HealthCheck, settings
from schemathesis import DataGenerationMethod
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from app.rules.cards import CardRuleSet
from app.rules.loader import load_rulesets
from tests.api.helpers import OPENAPI_FILE, REPO_ROOT, validator_for

schemathesis.experimental.OPEN_API_3_1.enable()

MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "100"))


# A score or waits body is one of two families (anyOf in openapi.yaml): a tile game's, or a
# word-card game's (`Card...`); a rule set takes the bodies of its own family.
FAMILY_SCHEMAS = {"/score": ("ScoreRequest", "CardScoreRequest"),
                  "/waits": ("WaitsRequest", "CardWaitsRequest")}
CARD_RULESETS = frozenset(rid for rid, rs in load_rulesets(REPO_ROOT / "rulesets").items()
                          if isinstance(rs, CardRuleSet))


def _fits(body: Any, schema: str) -> bool:
    spec = yaml.safe_load(OPENAPI_FILE.read_text(encoding="utf-8")) if not _SPEC else _SPEC[0]
    if not _SPEC:
        _SPEC.append(spec)
    return validator_for(spec, f"/components/schemas/{schema}").is_valid(body)


_SPEC: list[dict[str, Any]] = []


def _family_schema(case: Any) -> str | None:
    """The request schema of the family of the rule set the case is posted to (None: the
    operation has one request schema)."""
    for suffix, (tiles, cards) in FAMILY_SCHEMAS.items():
        if case.path.endswith(suffix):
            card = case.path_parameters.get("ruleset") in CARD_RULESETS
            return cards if card else tiles
    return None


def positive_data_is_not_refused_by_the_schema(ctx: Any, response: Any, case: Any) -> None:
    if case.data_generation_method is not DataGenerationMethod.positive:
        return
    if response.status_code != 422:
        return
    # In-process (WSGI) responses are werkzeug responses.
    body = json.loads(response.get_data())
    family = _family_schema(case)
    if family is not None and not _fits(case.body, family):
        return  # a body of the other family, posted to this rule set
    if body.get("code") == "invalid_request":
        raise AssertionError(f"openapi.yaml allows this body but the API schema refuses it: {body}")


CHECKS = (
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    positive_data_is_not_refused_by_the_schema,
)


@pytest.fixture(scope="module")
def api_schema(app: Flask) -> Any:
    return schemathesis.from_path(
        str(OPENAPI_FILE),
        app=app,
        data_generation_methods=[DataGenerationMethod.positive, DataGenerationMethod.negative],
    )


schema = schemathesis.from_pytest_fixture("api_schema")


def _call(case: Any) -> None:
    if case.path.endswith(("/score", "/waits")):
        # Random rule-set ids only ever meet 404 (GET /v1/rulesets/{ruleset} fuzzes those);
        # the bodies are what needs fuzzing here, against a real rule set: mcr for a tile
        # game's body, hengyang for a word-card game's.
        tiles, cards = FAMILY_SCHEMAS[case.path[case.path.rindex("/"):]]
        card = not _fits(case.body, tiles) and _fits(case.body, cards)
        case.path_parameters = {"ruleset": "hengyang" if card else "mcr"}
    elif case.path.endswith(("/score/batch", "/waits/batch")):
        case.path_parameters = {"ruleset": "mcr"}
    elif case.path.endswith("/settle"):
        # mcr settles single hands only (settle_not_supported); sichuan settles rounds.
        case.path_parameters = {"ruleset": "sichuan"}
    case.call_and_validate(checks=CHECKS)


@schema.exclude(path_regex="/batch$").parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
def test_api_conforms_to_the_contract(case: Any) -> None:
    _call(case)


# A batch body holds up to 1,000 generated requests: each example costs tens of single ones,
# so the batch operations get fewer (their items are the single operations', fuzzed above).
@schema.include(path_regex="/batch$").parametrize()
@settings(max_examples=max(1, MAX_EXAMPLES * 2 // 5), deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
def test_batch_operations_conform_to_the_contract(case: Any) -> None:
    _call(case)


# The rule sets whose tables differ most from mcr and sichuan, each with every single operation
# on a rule set fuzzed again (fewer examples: the bodies are the ones fuzzed above, the seats,
# tiles and money are what differ; a batch's items are the single operations'): 卡五星, three
# players, reveal events and chained kongs; 长春, requirements, a stand-in winning tile (摸宝),
# per-payer 番 and 包庄; 河北, no fan at all and a shape switched by an option; 二人麻将, two
# players, fan values chosen by options and a capped per-fan payment.
def _on(case: Any, ruleset: str) -> None:
    case.path_parameters = {"ruleset": ruleset}
    case.call_and_validate(checks=CHECKS)


@schema.include(path_regex=r"\{ruleset\}").exclude(path_regex="/batch$").parametrize()
@settings(max_examples=max(1, MAX_EXAMPLES // 4), deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
def test_kawuxing_operations_conform_to_the_contract(case: Any) -> None:
    _on(case, "kawuxing")


@schema.include(path_regex=r"\{ruleset\}").exclude(path_regex="/batch$").parametrize()
@settings(max_examples=max(1, MAX_EXAMPLES // 4), deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
def test_changchun_operations_conform_to_the_contract(case: Any) -> None:
    _on(case, "changchun")


@schema.include(path_regex=r"\{ruleset\}").exclude(path_regex="/batch$").parametrize()
@settings(max_examples=max(1, MAX_EXAMPLES // 5), deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
def test_hebei_operations_conform_to_the_contract(case: Any) -> None:
    _on(case, "hebei")


@schema.include(path_regex=r"\{ruleset\}").exclude(path_regex="/batch$").parametrize()
@settings(max_examples=max(1, MAX_EXAMPLES // 10), deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
def test_erren_operations_conform_to_the_contract(case: Any) -> None:
    _on(case, "erren")


# 衡阳六胡抢, word cards: every operation on a rule set (batches included: their items are
# read by the card reader) with the bodies of both families; a tile game's body is refused
# as invalid_request, a word-card body is read, and nothing answers a server error. Not
# /settle: a rule set without rounds refuses every body alike (tests/api/test_hengyang_api.py).
@schema.include(path_regex=r"\{ruleset\}").exclude(path_regex="/settle$").parametrize()
@settings(max_examples=max(1, MAX_EXAMPLES // 3), deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
def test_hengyang_operations_conform_to_the_contract(case: Any) -> None:
    _on(case, "hengyang")
