"""`openapi.yaml` put together: the operations of `contract`, the schemas of `app.service`
(through `converter`), the rule sets' families, and the examples' answers as the app gives
them. The same code, rule sets and version make the same bytes on any machine."""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, cast

import yaml
from apispec import APISpec
from marshmallow import Schema

from app.api import create_app
from app.rules.cards import CardRuleSet
from app.rules.families import CARDS, TILES, family_of
from app.rules.loader import load_rulesets
from app.rules.model import AnyRuleSet
from app.service import answer_schemas, document_schemas, problem_schemas
from app.service.answer_fields import Answer as AnswerSchema
from app.service.cards import answer_schemas as card_answer_schemas
from app.service.cards import document_schemas as card_document_schemas
from app.service.cards.requests import card_schemas
from app.service.families import settles_rounds
from app.service.request_schemas import BATCH_REQUEST
from app.service.tiles import answer_schemas as tile_answer_schemas
from app.service.tiles import document_schemas as tile_document_schemas
from app.service.tiles.request_schemas import ANALYSIS_REQUEST, SCORE_REQUEST, WAITS_REQUEST
from app.service.tiles.settle_schemas import SETTLE_REQUEST
from app.settings import DEFAULT_RULESETS_DIR
from app.version import __version__
from tools.openapi import contract
from tools.openapi.converter import Converter, Plugin, ref, text
from tools.openapi.examples import Example, Fixed
from tools.openapi.shapes import Answer, Operation


def prefix(ruleset: str) -> str:
    """A word-card game's name in its components and operation ids: `hengyang` -> `Hengyang`."""
    return "".join(part.capitalize() for part in re.split(r"[-_]", ruleset))


# The answers' schemas, by component name.
ANSWERS: dict[str, type[Schema]] = {
    name: cls
    for module in (problem_schemas, answer_schemas, tile_answer_schemas, card_answer_schemas,
                   document_schemas, tile_document_schemas, card_document_schemas)
    for name, cls in vars(module).items()
    if isinstance(cls, type) and issubclass(cls, AnswerSchema) and cls.__module__ ==
    module.__name__ and not name.startswith("_")
}


class Builder:
    def __init__(self, rulesets_dir: Path) -> None:
        self.rulesets = dict(sorted(load_rulesets(rulesets_dir).items()))
        self.plugin = Plugin()
        self.spec = APISpec(
            title=contract.TITLE, version=__version__, openapi_version="3.1.0",
            plugins=[self.plugin],
            info={"summary": contract.SUMMARY, "description": text(contract.DESCRIPTION),
                  "license": contract.LICENSE},
            servers=list(contract.SERVERS), tags=list(contract.TAGS))
        assert self.plugin.converter is not None  # made when the spec takes the plugin
        self.converter = cast(Converter, self.plugin.converter)
        app = create_app({"RULESETS_DIR": str(rulesets_dir), "REQUEST_TIME_LIMIT": 10.0,
                          "BODY_TIMEOUT": 10.0, "ACCESS_LOG": False, "CORS_ORIGINS": []})
        self.client = app.test_client()
        self.shared: dict[str, dict[str, Any]] = {}

    # --- schemas ------------------------------------------------------------------------

    def schema(self, name: str | dict[str, Any]) -> dict[str, Any]:
        """A reference to the component `name` (an answer's registered on first use), or an
        inline schema as it is."""
        if isinstance(name, dict):
            for target in re.findall(r"#/components/schemas/(\w+)", json.dumps(name)):
                self.schema(target)
            return name
        if name not in self.spec.components.schemas:
            self.converter.registered(ANSWERS[name]())
        assert name in self.spec.components.schemas, name
        return ref(name)

    def requests(self) -> None:
        """The request bodies' components, each family's apart."""
        tiles = [r for r in self.rulesets.values() if family_of(r) == TILES]
        self.converter.component("TileRulesetId", {
            "type": "string", "enum": [r.id for r in tiles]},
            "A rule set of the tile games (all but the word-card games).")
        self.converter.component("RoundRulesetId", {
            "type": "string", "enum": [r.id for r in tiles if settles_rounds(r)]},
            "A rule set that settles rounds (`POST /v1/rulesets/{ruleset}/settle`).")
        for schema in (SCORE_REQUEST, WAITS_REQUEST, ANALYSIS_REQUEST, SETTLE_REQUEST):
            self.converter.registered(schema)
        self.batch("ScoreBatchRequest", "ScoreRequest", "score", "scoreHand")
        self.batch("WaitsBatchRequest", "WaitsRequest", "waits", "listWaits")
        self.batch("AnalysisBatchRequest", "AnalysisRequest", "analysis", "analyseHand")
        for rs in self.rulesets.values():
            if family_of(rs) == CARDS:
                self.card_requests(rs)

    def card_requests(self, rs: AnyRuleSet) -> None:
        assert family_of(rs) == CARDS
        p = prefix(rs.id)
        score, waits = card_schemas(cast(CardRuleSet, rs))
        hand = score.fields["hand"].objects  # type: ignore[attr-defined]
        waiting = waits.fields["hand"].objects  # type: ignore[attr-defined]
        named: Iterable[tuple[str, Schema]] = (
            (f"{p}Group", hand.fields["groups"].inner.schema),
            (f"{p}HandObject", hand), (f"{p}WaitingHandObject", waiting),
            (f"{p}Context", score.fields["context"].schema),  # type: ignore[attr-defined]
            (f"{p}WaitsContext", waits.fields["context"].schema),  # type: ignore[attr-defined]
            (f"{p}ScoreRequest", score), (f"{p}WaitsRequest", waits))
        for name, schema in named:
            self.spec.components.schema(name, schema=schema)
        self.batch(f"{p}ScoreBatchRequest", f"{p}ScoreRequest", "score", f"scoreHand{p}")
        self.batch(f"{p}WaitsBatchRequest", f"{p}WaitsRequest", "waits", f"listWaits{p}")

    def batch(self, name: str, item: str, kind: str, single: str) -> None:
        body = self.converter.schema2jsonschema(BATCH_REQUEST)
        # Any JSON value is an item the service answers (a bad one with its own error item,
        # never failing the batch), so the contract says so: the family's request, or anything.
        body["properties"]["requests"].update(
            description=contract.BATCH_ITEMS[kind].format(single=single),
            items={"anyOf": [ref(item), {"description": "Any other JSON value, answered with an "
                                         "error item."}]})
        self.converter.component(name, body, None)

    def card_figures(self) -> None:
        """Each figure a word-card game counts (`figures` of its document) is an integer key of
        its answers."""
        figures: dict[str, list[str]] = {}
        for rs in self.rulesets.values():
            if family_of(rs) == CARDS:
                for name, attribute in cast(CardRuleSet, rs).figures.items():
                    figures.setdefault(name, []).append(f"{rs.id}: the `{attribute}` cards")
        for component in ("CardScoreResponse", "CardWaitEntry"):
            self.schema(component)
            properties = self.spec.components.schemas[component]["properties"]
            for name, where in figures.items():
                properties[name] = {"type": "integer", "description": (
                    "The cards of the finished hand with a deck attribute (" + "; ".join(where)
                    + ").")}

    # --- examples -----------------------------------------------------------------------

    def answer(self, example: Example, op: Operation | None) -> tuple[int, str, Any]:
        """What the app answers the example's request: status, media type, body."""
        if example.path is not None:
            url = example.path
        else:
            assert op is not None
            url = op.path.replace("{ruleset}", example.ruleset or op.ruleset or "")
        if example.explain:
            url += "?explain=true"
        if example.data is not None:
            response = self.client.post(url, data=example.data, headers=dict(example.headers))
        elif example.body is not None:
            response = self.client.post(url, json=example.body)
        else:
            response = self.client.get(url)
        media = response.mimetype or ""
        body: Any = response.get_json() if media.endswith("json") else response.get_data(
            as_text=True)
        if isinstance(body, dict):
            body.pop("request_id", None)  # new on every request
        if example.trim is not None:
            body = example.trim(body)
        # As sent on the wire, then read back: plain JSON values only.
        return response.status_code, media, json.loads(json.dumps(body))

    def examples(self, answer: Answer, status: int, op: Operation | None) -> dict[str, Any]:
        out = {}
        for example in answer.examples:
            if isinstance(example, Fixed):
                out[example.name] = {"summary": example.summary, "value": example.value}
                continue
            got, media, body = self.answer(example, op)
            assert (got, media) == (status, answer.media), (example.name, got, media)
            out[example.name] = {"summary": example.answer, "value": body}
        return out

    # --- responses and operations -------------------------------------------------------

    def response(self, answer: Answer, status: int, computed: Mapping[str, Any] | None = None,
                 op: Operation | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"description": text(answer.description)}
        if answer.headers:
            out["headers"] = dict(answer.headers)
        if answer.schema is not None:
            examples = {**(computed or {}), **self.examples(answer, status, op)}
            content: dict[str, Any] = {"schema": self.schema(answer.schema)}
            if examples:
                content["examples"] = examples
            out["content"] = {answer.media: content, **answer.also}
        return out

    def shared_response(self, name: str) -> dict[str, Any]:
        if name not in self.shared:
            status = {"BadRequest": 400, "MalformedJson": 400, "PictureBadRequest": 400,
                      "UnknownRuleset": 404,
                      "RequestTimeout": 408, "PayloadTooLarge": 413,
                      "BatchPayloadTooLarge": 413, "UnsupportedMediaType": 415,
                      "NotABatch": 422, "InternalError": 500, "TimeLimitExceeded": 503}[name]
            self.shared[name] = self.response(contract.RESPONSES[name], status)
        return {"$ref": f"#/components/responses/{name}"}

    def operation(self, op: Operation) -> dict[str, Any]:
        out: dict[str, Any] = {"operationId": op.operation_id, "tags": [op.tag],
                               "summary": op.summary}
        if op.description:
            out["description"] = text(op.description)
        if op.parameters:
            out["parameters"] = list(op.parameters)  # a name: the shared parameter
        by_status: dict[int, dict[str, Any]] = {}
        if op.request is not None:
            shown = {}
            for example in op.examples:
                status, media, body = self.answer(example, op)
                expected = op.answer.media if status == 200 else "application/problem+json"
                assert media == expected, (op.operation_id, example.name, status, media)
                by_status.setdefault(status, {})[example.name] = {
                    "summary": example.answer, "value": body}
                if example.summary is not None:
                    shown[example.name] = {"summary": example.summary, "value": example.body}
            content: dict[str, Any] = {"schema": self.schema(op.request)}
            if shown:
                content["examples"] = shown
            out["requestBody"] = {"required": True, "content": {"application/json": content}}
        responses = {"200": self.response(op.answer, 200, by_status.pop(200, {}), op)}
        for status, answer in sorted(op.responses.items()):
            if isinstance(answer, str):
                assert status not in by_status, (op.operation_id, status, "a shared response")
                responses[str(status)] = self.shared_response(answer)
            else:
                responses[str(status)] = self.response(answer, status, by_status.pop(status, {}),
                                                       op)
        assert not by_status, (op.operation_id, "undocumented statuses", list(by_status))
        out["responses"] = responses
        return out

    def operations(self) -> list[Operation]:
        ops = [contract.RULESETS_LIST, contract.RULESET_DOCUMENT, *contract.tile_operations()]
        for rs in self.rulesets.values():
            if family_of(rs) == CARDS:
                ops.extend(contract.card_operations(rs.id, rs.name, prefix(rs.id)))
        ops.append(contract.settle_operation())
        ops.extend(contract.META)
        return ops

    def document(self) -> dict[str, Any]:
        for name, parameter in contract.PARAMETERS.items():
            self.spec.components.parameter(name, parameter["in"], {
                **parameter, "description": text(parameter["description"])})
        self.requests()
        self.card_figures()
        for op in self.operations():
            operation = self.operation(op)
            if op.operation_id == "getDocsAsset":
                media, schema, fixed = contract.DOCS_SCRIPT
                operation["responses"]["200"]["content"][media] = {
                    "schema": schema,
                    "examples": {fixed.name: {"summary": fixed.summary, "value": fixed.value}}}
            self.spec.path(path=op.path, operations={op.method: operation})
        for name, response in self.shared.items():
            self.spec.components.response(name, response)
        doc = self.spec.to_dict()
        components = doc["components"]
        info = doc["info"]
        return {
            "openapi": doc["openapi"],
            "info": {"title": info.pop("title"), "version": info.pop("version"), **info},
            "servers": doc["servers"],
            "tags": doc["tags"], "paths": doc["paths"],
            "components": {key: dict(sorted(components[key].items()))
                           for key in ("parameters", "responses", "schemas")},
        }


class _Dumper(yaml.SafeDumper):
    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        # A list inside a mapping is indented under its key.
        super().increase_indent(flow, False)


def _string(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    # Text of several lines as a literal block, as written.
    style = "|" if "\n" in value.rstrip("\n") else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _string)


def _wrap(description: str) -> str:
    return "\n\n".join(textwrap.fill(p, 96, break_long_words=False, break_on_hyphens=False)
                       for p in description.split("\n\n"))


def _paragraphs(node: Any) -> Any:
    """Every description of several paragraphs with its paragraphs' lines wrapped (a single
    paragraph is folded by the YAML writer)."""
    if isinstance(node, dict):
        return {key: (_wrap(value) if key == "description" and isinstance(value, str)
                      and "\n\n" in value else _paragraphs(value))
                for key, value in node.items()}
    if isinstance(node, list):
        return [_paragraphs(item) for item in node]
    return node


def render(document: Mapping[str, Any]) -> str:
    """The document as YAML: keys in the order built, block style, lines of about 100."""
    return yaml.dump(_paragraphs(document), Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                     width=100, default_flow_style=False)


def generate(rulesets_dir: Path = DEFAULT_RULESETS_DIR) -> str:
    """The text of `openapi.yaml`."""
    return render(Builder(rulesets_dir).document())
