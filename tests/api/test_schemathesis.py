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
from flask import Flask
from hypothesis import HealthCheck, settings
from schemathesis import DataGenerationMethod
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.api.helpers import OPENAPI_FILE

schemathesis.experimental.OPEN_API_3_1.enable()

MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "100"))


# Each operation takes the bodies of one family of rule sets: the templated scoring paths a tile
# game's (`{ruleset}` one of theirs), a word-card game's own paths (`/v1/rulesets/hengyang/...`)
# its own; so a body the contract allows there is one the rule set's schema reads.


def positive_data_is_not_refused_by_the_schema(ctx: Any, response: Any, case: Any) -> None:
    if case.data_generation_method is not DataGenerationMethod.positive:
        return
    if response.status_code != 422:
        return
    # In-process (WSGI) responses are werkzeug responses.
    body = json.loads(response.get_data())
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
    if "{ruleset}" not in case.path:
        pass  # a word-card game's own path, or no rule set at all
    elif case.path.endswith(("/score", "/waits", "/score/batch", "/waits/batch")):
        # The bodies are what needs fuzzing here, against one rule set: mcr (each tile game's
        # own tables are fuzzed below).
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


# 衡阳六胡抢, word cards: its own operations (batches included: their items are read by the
# card reader), fuzzed again with more examples; settling is not among them (a rule set without
# rounds refuses every body alike: tests/api/test_hengyang_api.py).
@schema.include(path_regex="^/v1/rulesets/hengyang/").parametrize()
@settings(max_examples=max(1, MAX_EXAMPLES // 3), deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
def test_hengyang_operations_conform_to_the_contract(case: Any) -> None:
    case.call_and_validate(checks=CHECKS)
