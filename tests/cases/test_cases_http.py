"""The hand cases of the tile games through HTTP: every case of a rule set is posted in one
`POST /v1/rulesets/{id}/score/batch` to the real app, and each item must answer what the case
expects (the same `expect` keys as `test_cases.py`, read from the JSON answer): the error
code of a request that is no real hand, else winning, reason, shape, fans, fan_total, value
and net. A batch item takes the single call's own path (schema, reader, engine, writer), so
this is what a client of `/score` sees."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest
from flask import Flask

from app.rules.model import RuleSet
from tests.cases.test_cases import ALL_CASES, RULESETS, _fan_key
from tests.loaded import repo_app

# The tile-game cases by rule set (a word-card game's answer has other figures: its HTTP
# answers are tested in tests/api/test_hengyang_api.py).
BY_RULESET: dict[str, list[dict[str, Any]]] = defaultdict(list)
for param in ALL_CASES:
    rid, case = param.values
    if isinstance(RULESETS[rid], RuleSet):
        BY_RULESET[rid].append(case)


@pytest.fixture(scope="module")
def app() -> Flask:
    return repo_app()


@pytest.mark.parametrize("ruleset", sorted(BY_RULESET))
def test_cases_answer_the_same_over_http(app: Flask, ruleset: str) -> None:
    rs = RULESETS[ruleset]
    cases = BY_RULESET[ruleset]
    body = {"requests": [{"hand": c["hand"], "context": c["context"]} for c in cases]}
    with app.test_client() as client:
        resp = client.post(f"/v1/rulesets/{ruleset}/score/batch", json=body)
    assert resp.status_code == 200, resp.get_json()
    items = resp.get_json()["results"]
    assert len(items) == len(cases)
    for case, item in zip(cases, items, strict=True):
        exp = case["expect"]
        label = f"{ruleset}: {case['name']}: {item}"
        if "error" in exp:
            assert "error" in item and item["error"]["code"] == exp["error"], label
            continue
        assert "result" in item, label
        r = item["result"]
        got = {f["id"]: f["count"] for f in r["fans"]}
        if "winning" in exp:
            assert r["winning"] is exp["winning"], label
        if "reason" in exp:
            assert r["reason"] is not None and r["reason"]["code"] == exp["reason"], label
        if "shape" in exp:
            assert r["decomposition"]["shape"] == exp["shape"], label
        if "fans" in exp:
            want = {_fan_key(rs, k): v for k, v in exp["fans"].items()}
            if all(v > 0 for v in want.values()):
                assert got == want, label
            for fid, count in want.items():
                assert got.get(fid, 0) == count, label
        if "fan_total" in exp:
            assert r["fan_total"] == exp["fan_total"], label
        if "value" in exp:
            assert r["value"] == exp["value"], label
        if "net" in exp:
            assert r["payments"] is not None and r["payments"]["net"] == exp["net"], label
