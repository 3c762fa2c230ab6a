"""schemathesis 4 over the whole contract, once, in-process against the app (WSGI).

One test runs every operation of the served `openapi.yaml` (each a subtest named by its method
and path): the document's examples, schemathesis' coverage cases (each bound, enum value,
missing or wrong field and unexpected method in turn) and a budget of random cases per
operation (`SCHEMATHESIS_MAX_EXAMPLES`), positive (what the contract allows) and negative
(what it forbids). Every check schemathesis 4 has is on: no server error, a documented status,
content type, headers and body, what the contract forbids refused, what it allows accepted,
the methods it does not list refused with `Allow`, and the rest of its defaults.

Accepted means answered 2xx (or 404 where the document lets a path parameter be any string),
with two exceptions the contract documents, neither of which a schema can say: 413 for a body
over the size limit, and 422 with a code of a well-formed request that cannot be a real hand,
win or round (`too_many_copies`: a tile appears at most four times; `unknown_tile`: a tile
the rule set does not play; `unknown_option`). Never `invalid_request` (the contract and
the request readers disagree) and never `settle_not_supported`: the document says which rule
sets take which bodies and which settle rounds, by its paths and the enums of their `ruleset`
parameter, and schemathesis draws only those, so every rule set is met without this test
naming one.

`SCHEMATHESIS_OPENAPI=path` holds the app to another document than the one it serves (a draft
of `openapi.yaml`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, settings
from schemathesis.config import ChecksConfig
from schemathesis.core.media_types import YAML_MEDIA_TYPES
from schemathesis.openapi.checks import RejectedPositiveData
from schemathesis.specs.openapi.checks import positive_data_acceptance

from app.service.problems import HAND_ERROR_CODES, MATCH_ERROR_CODES, ROUND_ERROR_CODES

# Random cases per operation, on top of the document's examples and the coverage cases.
MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "25"))
OPENAPI_ENV = "SCHEMATHESIS_OPENAPI"

# The 422 codes of a request the contract allows that cannot be a real hand, win, round or
# match (openapi.yaml's ProblemCode: "Hand level (all 422)").
SEMANTIC_CODES = (frozenset(HAND_ERROR_CODES) | frozenset(ROUND_ERROR_CODES)
                  | frozenset(MATCH_ERROR_CODES))
# schemathesis' WSGI transport hands the checks the body as the app sent it, where an HTTP
# client would undo gzip first (tests/api/test_compression.py tests gzip).
HEADERS = {"Accept-Encoding": "identity"}


@pytest.fixture(scope="session")
def contract(app: Flask) -> Any:
    """The document, read as text: schemathesis leaves out the operation it loaded a document
    from, and `GET /openapi.yaml` is fuzzed too."""
    path = os.environ.get(OPENAPI_ENV)
    text = (Path(path).read_text(encoding="utf-8") if path
            else app.test_client().get("/openapi.yaml").get_data(as_text=True))
    loaded = schemathesis.openapi.from_file(text, config=_config())
    loaded.app = app
    return loaded


def _config() -> schemathesis.Config:
    """schemathesis' defaults, and 413 `payload_too_large` as a documented answer to any body,
    allowed or not: one over the size limit the document gives (64 KiB, a batch 2 MiB), which
    no schema can say, is refused before it is read."""
    defaults = ChecksConfig()
    return schemathesis.Config.from_dict({"checks": {
        name: {"expected-statuses": [*getattr(defaults, name).expected_statuses, "413"]}
        for name in ("positive_data_acceptance", "negative_data_rejection")}})


schema = schemathesis.pytest.from_fixture("contract")


# Every YAML media type: the first registered one that matches a response's is used.
@schemathesis.deserializer(*YAML_MEDIA_TYPES)
def _yaml_as_text(ctx: Any, response: Any) -> str:
    """The contract describes its own document as text (`type: string`, as its clients read
    it), where schemathesis would parse a YAML body."""
    text: str = response.content.decode("utf-8")
    return text


def positive_data_accepted(ctx: Any, response: Any, case: Any) -> bool | None:
    """schemathesis' positive_data_acceptance, save the documented 422s of well-formed requests
    that are no real hand, win or round (SEMANTIC_CODES)."""
    try:
        return positive_data_acceptance(ctx, response, case)
    except RejectedPositiveData:
        if response.status_code != 422:
            raise
        code = response.json().get("code")
        if code in SEMANTIC_CODES:
            return None
        raise


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
def test_api_conforms_to_the_contract(case: Any) -> None:
    case.call_and_validate(headers=HEADERS, excluded_checks=[positive_data_acceptance],
                           additional_checks=[positive_data_accepted])
