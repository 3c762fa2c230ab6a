"""Every answer of the recorded corpus (tests/api/recorded_answers.jsonl.gz, written by
`python -m tests.api.record_answers`) is still the answer: status and JSON body, for every
hand case, waits case, the benchmarks' hands of every rule set, rounds, batches and rule-set
documents. A change that moves code around must leave them all as they were; a change that
means to change answers re-records the corpus and says which changed and why."""

from __future__ import annotations

import gzip
import json
from collections import Counter
from typing import Any

import pytest
from flask import Flask

from tests.api.record_answers import CORPUS, answer
from tests.loaded import repo_app

pytestmark = pytest.mark.xdist_group("recorded")


@pytest.fixture(scope="module")
def app() -> Flask:
    return repo_app()


def _recorded() -> list[dict[str, Any]]:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def test_every_recorded_request_gets_its_recorded_answer(app: Flask) -> None:
    recorded = _recorded()
    kinds = Counter(r["path"].split("?")[0].rsplit("/", 1)[-1] for r in recorded)
    # The corpus holds what it says: hands scored, waits, rounds, batches, documents.
    assert kinds["score"] > 1500 and kinds["waits"] > 200 and kinds["settle"] >= 80, kinds
    client = app.test_client()
    changed = []
    for r in recorded:
        status, got = answer(client, r)
        if (status, got) != (r["status"], r["answer"]):
            changed.append(f"{r['method']} {r['path']} {json.dumps(r['body'])[:200]}: "
                           f"{r['status']} -> {status}")
    assert not changed, f"{len(changed)} answers changed, the first:\n" + "\n".join(changed[:5])
