"""Shared constants and assertions for the HTTP API tests."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from flask import Flask
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from app.api import create_app
from app.service.batch import ItemFunction
from app.service.operations import operation, register_operation

REPO_ROOT = Path(__file__).resolve().parents[2]
OPENAPI_FILE = REPO_ROOT / "openapi.yaml"
SCORE_URL = "/v1/rulesets/mcr/score"
SPEC_URI = "urn:mahjong-scoring:openapi"

NINE_GATES_REQUEST: dict[str, Any] = {
    "hand": {"concealed": "1112345678999m5m", "melds": [], "win_tile": "5m"},
    "context": {
        "win_type": "discard", "kong": None, "last_tile": False, "last_of_kind": False,
        "seat_wind": "E", "round_wind": "E", "flowers": 0, "wild_indicator": None,
        "winner": 0, "discarder": 2, "dealer": 0, "options": {},
    },
}

# The example answer of README.md and docs/api.md (九莲宝灯 won on seat 2's discard).
NINE_GATES_RESPONSE: dict[str, Any] = {
    "ruleset": "mcr",
    "winning": True,
    "reason": None,
    "fans": [
        {"id": "nine_gates", "name": "九莲宝灯", "name_en": "Nine Gates", "value": 88,
         "count": 1},
        {"id": "two_concealed_pungs", "name": "双暗刻", "name_en": "Two Concealed Pungs",
         "value": 2, "count": 1},
        {"id": "pung_of_terminals_or_honors", "name": "幺九刻",
         "name_en": "Pung of Terminals or Honors", "value": 1, "count": 1},
    ],
    "fan_total": 91,
    "value": 99,
    "multiplier": None,
    "decomposition": {"shape": "nine_gates", "melds": ["111m", "234m", "55m", "678m", "999m"],
                      "wilds": []},
    "payments": {"net": [115, -8, -99, -8],
                 "transfers": [{"from": 2, "to": 0, "amount": 99, "reason": "discarder"},
                               {"from": 1, "to": 0, "amount": 8, "reason": "base"},
                               {"from": 3, "to": 0, "amount": 8, "reason": "base"}]},
}


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    """Assert an RFC 9457 problem response with this status and code; return its body."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body: dict[str, Any] = response.get_json(force=True)
    assert body["code"] == code, body
    assert body["status"] == status
    assert body["type"] == f"tag:mahjong-scoring,2025:problem:{code}"
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str) and body["detail"]
    return body


# --- openapi.yaml as JSON Schema ---------------------------------------------------------

def validator_for(spec: dict[str, Any], pointer: str) -> Draft202012Validator:
    """A JSON Schema 2020-12 validator for the schema at `pointer` inside the document."""
    resource = Resource.from_contents(spec, default_specification=DRAFT202012)
    registry: Registry[Any] = Registry().with_resource(SPEC_URI, resource)
    return Draft202012Validator({"$ref": f"{SPEC_URI}#{pointer}"}, registry=registry)


def escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def resolve(spec: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """Follow a local $ref (components/responses etc.) to the node it names."""
    while "$ref" in node:
        target: Any = spec
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def response_pointer(spec: dict[str, Any], path: str, method: str, status: int) -> str:
    """JSON pointer to the documented response of this status (following a $ref)."""
    response = spec["paths"][path][method]["responses"].get(str(status))
    assert response is not None, f"{method.upper()} {path} answered undocumented {status}"
    if "$ref" in response:
        return str(response["$ref"]).removeprefix("#")
    return f"/paths/{escape(path)}/{method}/responses/{status}"


def validate_live(spec: dict[str, Any], path: str, method: str, response: Any) -> None:
    """The live response has a documented status, its media type and its body schema."""
    pointer = response_pointer(spec, path, method, response.status_code)
    content = resolve(spec, {"$ref": "#" + pointer})["content"]
    assert response.mimetype in content, (response.mimetype, list(content))
    if response.mimetype.endswith("json"):
        schema_pointer = f"{pointer}/content/{escape(response.mimetype)}/schema"
        errors = list(validator_for(spec, schema_pointer).iter_errors(response.get_json()))
        assert not errors, errors[0]


class AppLog:
    """What the app's own log handler wrote during a test."""

    def __init__(self, stream: io.StringIO) -> None:
        self.stream = stream

    def lines(self) -> list[dict[str, Any]]:
        """Each line parsed: a line that is not one JSON object fails the test here."""
        parsed = [json.loads(line) for line in self.stream.getvalue().splitlines()]
        assert all(isinstance(p, dict) for p in parsed), parsed
        return parsed


def wild_waits_requests(count: int, seed: int = 7) -> list[dict[str, Any]]:
    """`count` different tianjin waits requests holding six wild tiles (indicator 3s: 3s and
    4s are wild) and seven natural ones, one tile short: a few ms of search each on the
    compiled engine (about 12 before its searches kept packed states), several times that in
    plain Python (the served head-of-line test, bench/busy.py)."""
    import random

    rng = random.Random(seed)
    tiles = [f"{r}{s}" for s in "mps" for r in range(1, 10) if f"{r}{s}" not in ("3s", "4s")]
    tiles += list("ESWNCFP")
    hands: set[str] = set()
    while len(hands) < count:
        hands.add("".join(sorted(rng.sample(tiles, 7))) + "3s3s4s4s4s4s")
    return [{"hand": h, "context": {"win_type": "self_draw", "wild_indicator": "3s"}}
            for h in sorted(hands)]


@contextmanager
def batch_item(name: str, item: ItemFunction) -> Iterator[Flask]:
    """An app whose batch form of operation `name` answers its items with `item` (a test's
    faulty item), the operation's declaration as it was once the block ends."""
    declared = operation(name)
    assert declared.batch is not None
    register_operation(replace(declared, batch=replace(declared.batch, item=item)),
                       replace=True)
    try:
        yield create_app({"ACCESS_LOG": False})
    finally:
        register_operation(declared, replace=True)
