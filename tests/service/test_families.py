"""A third family of game, registered in each layer's registry and served by the real app
without a change to `app/api`: a toy counting game (a hand is a list of small numbers; it
wins when they add up to the rule set's `target`). Its rule sets sit beside real tile rule
sets in a rule-set directory of their own (`MAHJONG_RULESETS_DIR`), share the YAML reader with
`extends:` and the error format, and answer the rule-set list and document, score, waits
(on both request paths, explained too), batches, and `/settle` refused. Registered with a
contract (`FamilyContract`), the family is in the generated `openapi.yaml` too, without a
change to `tools/openapi`."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple

import pytest
import yaml
from flask import Flask
from flask.testing import FlaskClient
from marshmallow import RAISE, Schema, fields, validate

from app.api import create_app
from app.api.routes import RULESETS_KEY
from app.rules.errors import RuleSetError, field_errors
from app.rules.families import (
    RuleFamily,
    family_of,
    register_family,
    rule_families,
    unregister_family,
)
from app.rules.loader import load_rulesets
from app.scoring.result import FanResult, Reason
from app.service.answer_fields import Answer
from app.service.batch import score_body
from app.service.definitions import ruleset_summary
from app.service.envelope import fan_json, reason_json
from app.service.families import (
    FamilyContract,
    RequestSchemas,
    ServiceFamily,
    register_service_family,
    served_family,
    service_families,
    unregister_service_family,
)
from app.service.reading import validated
from tests.api.helpers import REPO_ROOT, problem

FAMILY = "counting"

# --- the rules layer: the rule set and how its YAML is built ------------------------------


@dataclass(frozen=True, eq=False)
class CountingRuleSet:
    id: str
    name: str
    name_en: str
    description: str
    players: int
    target: int
    source: str

    @property
    def ready(self) -> bool:
        return True


def build_counting(data: Mapping[str, Any], source: str,
                   origins: Mapping[str, str]) -> CountingRuleSet:
    err = field_errors(source)  # the format of every family's errors
    allowed = {"id", "name", "name_en", "description", "players", "target"}
    for key in sorted(set(data) - allowed):
        raise err(key, f"unknown key (allowed: {', '.join(sorted(allowed))})")
    target = data.get("target")
    if not isinstance(target, int) or isinstance(target, bool) or target < 1:
        raise err("target", "must be a positive integer")
    return CountingRuleSet(data["id"], data["name"], data["name_en"], data["description"],
                           data["players"], target, source)


# --- the service layer: reading, the engine, writing --------------------------------------


class _Hand(Schema):
    class Meta:
        unknown = RAISE

    hand = fields.List(fields.Integer(strict=True, validate=validate.Range(1, 9)),
                       required=True)


SCHEMA = _Hand()


class Counted(NamedTuple):
    ruleset: str
    total: int
    target: int

    @property
    def winning(self) -> bool:
        return self.total == self.target


def read_hand(body: Mapping[str, Any], rs: CountingRuleSet) -> tuple[int, ...]:
    return tuple(validated(SCHEMA, body)["hand"])


def count(hand: tuple[int, ...], rs: CountingRuleSet) -> Counted:
    return Counted(rs.id, sum(hand), rs.target)


def explain(hand: tuple[int, ...], rs: CountingRuleSet) -> tuple[Counted, dict[str, Any]]:
    return count(hand, rs), {"not_counted": [], "readings": [], "readings_compared": 1}


def write_counted(r: Counted, rs: CountingRuleSet, why: dict[str, Any] | None
                  ) -> dict[str, Any]:
    # The envelope every family shares (app.service.envelope), in this family's arithmetic:
    # one "fan" per number, and the fans come to their sum.
    reason = None if r.winning else Reason("wrong_total", f"{r.total} is not {r.target}.")
    out: dict[str, Any] = {
        "ruleset": r.ruleset, "winning": r.winning, "reason": reason_json(reason),
        "fans": [fan_json(FanResult("number", "数", "Number", r.total, 1))],
        "fan_total": r.total, "value": 1 if r.winning else None, "multiplier": None,
        "payments": None}
    if why is not None:
        out["explanation"] = why
    return out


def waits(hand: tuple[int, ...], rs: CountingRuleSet, explain: bool) -> list[int]:
    return [n for n in range(1, 10) if sum(hand) + n == rs.target]


def write_waits(found: list[int], rs: CountingRuleSet) -> dict[str, Any]:
    return {"ruleset": rs.id, "ready": bool(found), "waits": found}


def document(rs: CountingRuleSet, limits: Mapping[str, float]) -> dict[str, Any]:
    return {**ruleset_summary(rs), "kind": family_of(rs), "target": rs.target,
            "source": rs.source, "limits": dict(limits)}


# --- registered for a test, and gone after it ----------------------------------------------


@pytest.fixture
def counting() -> Iterator[None]:
    register_family(RuleFamily(FAMILY, CountingRuleSet, build_counting, "a toy counting game"))
    register_service_family(ServiceFamily(
        FAMILY, read_hand, count, explain, write_counted, read_hand, waits, write_waits,
        document, lambda rs: RequestSchemas(SCHEMA, SCHEMA)))
    try:
        yield
    finally:
        unregister_service_family(FAMILY)
        unregister_family(FAMILY)
    assert FAMILY not in rule_families() and FAMILY not in service_families()


def _write(directory: Path, *files: dict[str, Any]) -> None:
    for data in files:
        (directory / f"{data['id']}.yaml").write_text(
            yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


TEN = {"id": "ten", "family": FAMILY, "name": "凑十", "name_en": "Make Ten",
       "description": "A hand wins when its numbers add up to 10.", "players": 2,
       "target": 10}
# A variant: it extends `ten` as a tile variant extends its parent, and changes the target.
TWENTY = {"id": "twenty", "extends": "ten", "name": "凑二十", "name_en": "Make Twenty",
          "target": 20}


@pytest.fixture
def rulesets_dir(tmp_path: Path, counting: None) -> Path:
    # Real tile rule sets beside the toy ones: one that settles rounds, one that does not.
    for rid in ("mcr", "sichuan"):
        shutil.copy(REPO_ROOT / "rulesets" / f"{rid}.yaml", tmp_path)
    _write(tmp_path, TEN, TWENTY)
    return tmp_path


@pytest.fixture
def app(rulesets_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Flask:
    monkeypatch.setenv("MAHJONG_RULESETS_DIR", str(rulesets_dir))
    return create_app({"ACCESS_LOG": False})


@pytest.fixture
def client(app: Flask) -> Iterator[FlaskClient]:
    with app.test_client() as c:
        yield c


def test_the_toy_rule_sets_load_and_extend(rulesets_dir: Path) -> None:
    loaded = load_rulesets(rulesets_dir)
    ten, twenty = loaded["ten"], loaded["twenty"]
    assert isinstance(ten, CountingRuleSet) and isinstance(twenty, CountingRuleSet)
    assert (ten.target, twenty.target) == (10, 20)
    assert twenty.description == ten.description and twenty.source == "twenty.yaml"
    assert {family_of(rs) for rs in loaded.values()} == {"tiles", FAMILY}


def test_a_mistake_in_a_toy_rule_set_reads_as_every_familys(tmp_path: Path,
                                                           counting: None) -> None:
    _write(tmp_path, {**TEN, "target": "ten"})
    with pytest.raises(RuleSetError, match=r"^ten\.yaml: field 'target': must be a positive"):
        load_rulesets(tmp_path)


def test_the_rule_set_list_and_document(client: FlaskClient) -> None:
    listed = client.get("/v1/rulesets").get_json()["rulesets"]
    assert [r["id"] for r in listed] == ["mcr", "sichuan", "ten", "twenty"]
    assert listed[2] == {"id": "ten", "name": "凑十", "name_en": "Make Ten", "players": 2,
                         "description": TEN["description"]}
    doc = client.get("/v1/rulesets/twenty").get_json()
    assert doc["kind"] == FAMILY and doc["target"] == 20 and doc["source"] == "twenty.yaml"
    assert doc["limits"]["batch_items"] == 1000
    assert client.get("/readyz").get_json()["rulesets"] == ["mcr", "sichuan", "ten", "twenty"]


def test_score_on_both_paths(client: FlaskClient) -> None:
    # Without a query string the direct path answers (app/api/direct.py); with one, the route.
    won = client.post("/v1/rulesets/ten/score", json={"hand": [3, 3, 4]})
    assert won.status_code == 200, won.get_data(as_text=True)
    body = won.get_json()
    assert body["winning"] is True and body["reason"] is None and body["fan_total"] == 10
    assert "explanation" not in body
    explained = client.post("/v1/rulesets/ten/score?explain=true", json={"hand": [3, 3, 4]})
    assert explained.get_json() == {**body, "explanation": {
        "not_counted": [], "readings": [], "readings_compared": 1}}
    lost = client.post("/v1/rulesets/twenty/score", json={"hand": [3, 3, 4]}).get_json()
    assert lost["winning"] is False and lost["reason"]["code"] == "wrong_total"
    # Its request errors are the service's problem documents.
    bad = problem(client.post("/v1/rulesets/ten/score", json={"hand": [3, 30]}), 422,
                  "invalid_request")
    assert bad["errors"][0]["pointer"] == "/hand/1"
    problem(client.post("/v1/rulesets/ten/score", data=b"[1]",
                        content_type="application/json"), 400, "malformed_json")


def test_waits(client: FlaskClient) -> None:
    assert client.post("/v1/rulesets/ten/waits", json={"hand": [3, 3]}).get_json() == {
        "ruleset": "ten", "ready": True, "waits": [4]}
    assert client.post("/v1/rulesets/twenty/waits", json={"hand": [1]}).get_json() == {
        "ruleset": "twenty", "ready": False, "waits": []}


def test_a_batch(client: FlaskClient) -> None:
    answer = client.post("/v1/rulesets/ten/score/batch",
                         json={"requests": [{"hand": [5, 5]}, {"hand": "55"}, [1]]})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    results = answer.get_json()["results"]
    assert results[0] == {"result": score_body({"hand": [5, 5]}, _ten(client), False)}
    assert results[1]["error"]["code"] == "invalid_request"
    assert results[2]["error"]["code"] == "malformed_json"
    waits_batch = client.post("/v1/rulesets/ten/waits/batch?explain=true",
                              json={"requests": [{"hand": [9]}]}).get_json()
    assert waits_batch == {"results": [{"result": {"ruleset": "ten", "ready": True,
                                                   "waits": [1]}}]}


def _ten(client: FlaskClient) -> CountingRuleSet:
    rs: CountingRuleSet = client.application.extensions[RULESETS_KEY]["ten"]
    return rs


def test_settle_is_refused(client: FlaskClient) -> None:
    body = problem(client.post("/v1/rulesets/ten/settle", json={"events": []}), 422,
                   "settle_not_supported")
    assert body["detail"].endswith("rule sets that settle rounds: sichuan.")


def test_a_family_loaded_but_not_served_stops_the_start_up(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    register_family(RuleFamily(FAMILY, CountingRuleSet, build_counting, "a toy counting game"))
    try:
        _write(tmp_path, TEN)
        monkeypatch.setenv("MAHJONG_RULESETS_DIR", str(tmp_path))
        with pytest.raises(LookupError, match="rule set 'ten' is of family 'counting', which "
                                              "the service does not serve"):
            create_app({"ACCESS_LOG": False})
    finally:
        unregister_family(FAMILY)


def test_the_built_in_families() -> None:
    assert rule_families()[:2] == ("tiles", "cards")
    assert service_families()[:2] == ("tiles", "cards")


# --- the toy family in the generated contract: its registration alone puts it there --------


class CountingScoreResponse(Answer):
    ruleset = fields.String(required=True)
    winning = fields.Boolean(required=True)
    fan_total = fields.Integer(required=True)


class CountingWaitsResponse(Answer):
    ruleset = fields.String(required=True)
    ready = fields.Boolean(required=True)
    waits = fields.List(fields.Integer(), required=True)


class CountingScoreBatchResponse(Answer):
    results = fields.List(fields.Dict(), required=True)


class CountingWaitsBatchResponse(Answer):
    results = fields.List(fields.Dict(), required=True)


def _counting_components(rs: CountingRuleSet | None, prefix: str
                         ) -> list[tuple[str, Schema]]:
    # A class per component: the contract's generator names components by their schemas.
    return [(name, type(name, (_Hand,), {})())
            for name in (f"{prefix}ScoreRequest", f"{prefix}WaitsRequest")]


@pytest.fixture
def counting_in_the_contract(counting: None) -> Iterator[None]:
    # The toy family served again, now with its contract: paths of its own per rule set, its
    # answers' components from this module.
    served = served_family(FAMILY)
    unregister_service_family(FAMILY)
    register_service_family(replace(served, contract=FamilyContract(
        own_paths=True, answers="Counting", components=_counting_components,
        schemas=(sys.modules[__name__],))))
    yield


def test_a_family_registered_with_its_contract_is_in_the_generated_contract(
        tmp_path: Path, counting_in_the_contract: None) -> None:
    from tools.openapi.build import generate

    # Every real rule set (the contract's examples use them) beside the toy ones.
    for path in (REPO_ROOT / "rulesets").glob("*.yaml"):
        shutil.copy(path, tmp_path)
    _write(tmp_path, TEN, TWENTY)
    document = yaml.safe_load(generate(tmp_path))
    paths, schemas = document["paths"], document["components"]["schemas"]
    for rid, prefix in (("ten", "Ten"), ("twenty", "Twenty")):
        for name, answer in (("score", "CountingScoreResponse"),
                             ("waits", "CountingWaitsResponse")):
            operation = paths[f"/v1/rulesets/{rid}/{name}"]["post"]
            request = operation["requestBody"]["content"]["application/json"]["schema"]
            assert request == {"$ref": f"#/components/schemas/{prefix}{name.title()}Request"}
            assert operation["responses"]["200"]["content"]["application/json"]["schema"] == {
                "$ref": f"#/components/schemas/{answer}"}
            assert f"/v1/rulesets/{rid}/{name}/batch" in paths
        # Neither analysis nor settle: the family analyses no hands and settles no rounds.
        assert f"/v1/rulesets/{rid}/analysis" not in paths
        assert f"/v1/rulesets/{rid}/settle" not in paths
    assert schemas["TenScoreRequest"]["properties"]["hand"]["type"] == "array"
    assert {"CountingScoreResponse", "CountingWaitsResponse"} <= set(schemas)
    # The tile games' operations are there as ever.
    assert "/v1/rulesets/{ruleset}/score" in paths
