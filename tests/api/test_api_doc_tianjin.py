"""docs/api.md's Tianjin example (section "Wild tiles") answers the output shown (tests/test_docs.py
runs it as written), and the claims after it hold."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
URL = "/v1/rulesets/tianjin/score"


def _example() -> tuple[dict[str, Any], dict[str, Any]]:
    section = API_DOC.read_text(encoding="utf-8").split("## Wild tiles", 1)[1]
    body = json.loads(re.search(r"-d '(\{.*\})'", section).group(1))  # type: ignore[union-attr]
    shown = json.loads(section.split("```json\n", 1)[1].split("```", 1)[0])
    return body, shown


def test_the_tianjin_example_is_real(client: FlaskClient) -> None:
    body, shown = _example()
    assert client.post(URL, json=body).get_json() == shown


def test_the_tianjin_claims(client: FlaskClient) -> None:
    body, _ = _example()
    tjmj = {**body, "context": {**body["context"],
                                "options": {**body["context"]["options"], "table": "tjmj"}}}
    assert client.post(URL, json=tjmj).get_json()["value"] == 8
    nine = {**body, "context": {**body["context"], "wild_indicator": "9m"}}
    answer = client.post(URL, json=nine).get_json()
    assert (answer["winning"], answer["reason"]["code"]) == (False, "no_winning_shape")
