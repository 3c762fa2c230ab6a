"""`openapi.yaml` put together: the declared scoring operations (`app.service.operations`)
laid out per family (`ServiceFamily.contract`) with the texts of `contract`, the other
operations of `contract`, the schemas of `app.service` (through `converter`), and the
examples' answers as the app gives them. The same code, rule sets and version make the same
bytes on any machine."""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

import yaml
from apispec import APISpec
from marshmallow import Schema

from app.api import create_app
from app.rules.families import family_of
from app.rules.loader import load_rulesets
from app.rules.model import AnyRuleSet
from app.service import answer_schemas, document_schemas, problem_schemas
from app.service.answer_fields import Answer as AnswerSchema
from app.service.families import (
    AnyFamily,
    FamilyContract,
    served_family,
    service_families,
    service_family,
)
from app.service.operations import OperationDecl, operations
from app.service.request_schemas import BATCH_REQUEST
from app.settings import DEFAULT_RULESETS_DIR
from app.version import __version__
from tools.openapi import contract
from tools.openapi.converter import Converter, Plugin, ref, text
from tools.openapi.examples import Example, Fixed
from tools.openapi.pictures import with_picture
from tools.openapi.shapes import Answer, BatchTexts, Operation, Place, Texts


def prefix(ruleset: str) -> str:
    """A word-card game's name in its components and operation ids: `hengyang` -> `Hengyang`."""
    return "".join(part.capitalize() for part in re.split(r"[-_]", ruleset))


def answer_components() -> dict[str, type[Schema]]:
    """The answers' schemas, by component name: the service core's and each served family's
    own (`FamilyContract.schemas`)."""
    modules = [problem_schemas, answer_schemas, document_schemas]
    for name in service_families():
        contract = served_family(name).contract
        if contract is not None:
            modules += contract.schemas
    return {
        name: cls
        for module in modules
        for name, cls in vars(module).items()
        if isinstance(cls, type) and issubclass(cls, AnswerSchema) and cls.__module__ ==
        module.__name__ and not name.startswith("_")
    }


def _stem(name: str) -> str:
    """A body's component name without its kind: `ScoreRequest`, `ScoreResponse` -> `Score`."""
    return name.removesuffix("Request").removesuffix("Response")


def _no_texts(operation: str, place: Place) -> Texts | None:
    return None


class Builder:
    def __init__(self, rulesets_dir: Path) -> None:
        self.rulesets = dict(sorted(load_rulesets(rulesets_dir).items()))
        self.plugin = Plugin()
        self.answers = answer_components()
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
            self.converter.registered(self.answers[name]())
        assert name in self.spec.components.schemas, name
        return ref(name)

    def families(self) -> list[tuple[AnyFamily, FamilyContract[Any], list[AnyRuleSet]]]:
        """Each served family in the contract, its layout and its rule sets, in the order the
        families are served."""
        out = []
        for name in service_families():
            rulesets = [r for r in self.rulesets.values() if family_of(r) == name]
            family = service_family(rulesets[0]) if rulesets else None
            if family is not None and family.contract is not None:
                out.append((family, family.contract, rulesets))
        return out

    def requests(self) -> None:
        """The request bodies' components, each family's apart, and the batches'."""
        for family, layout, rulesets in self.families():
            if layout.own_paths:
                for rs in rulesets:
                    for name, schema in layout.components(rs, prefix(rs.id)):
                        self.spec.components.schema(name, schema=schema)
            else:
                self.converter.component(f"{layout.parameter}Id", {
                    "type": "string", "enum": [r.id for r in rulesets]}, layout.rulesets)
                for name, schema in layout.components(None, ""):
                    assert self.converter.registered(schema) == name, name
            for place in self.places(layout, rulesets):
                for decl in operations():
                    if decl.serves(family):
                        self.declared_requests(decl, family, place, rulesets)

    def declared_requests(self, decl: OperationDecl, family: AnyFamily, place: Place,
                          rulesets: list[AnyRuleSet]) -> None:
        """The components a declared operation's forms add: its batch body, and the enum of
        the rule sets it does not refuse when its path parameter says so."""
        texts = self.texts(decl, family, place)
        if texts.parameter is not None:
            serving = [r.id for r in rulesets
                       if decl.refuse is None or decl.refuse(r, rulesets) is None]
            self.converter.component(f"{texts.parameter[0]}Id", {
                "type": "string", "enum": serving}, texts.parameter[1])
        if decl.batch is not None:
            p = place.prefix
            self.batch(f"{p}{_stem(decl.request_schema)}BatchRequest", p + decl.request_schema,
                       decl.name, decl.operation_id + p)

    def batch(self, name: str, item: str, kind: str, single: str) -> None:
        if name in self.spec.components.schemas:
            return  # the batch of the same requests, for another operation
        body = self.converter.schema2jsonschema(BATCH_REQUEST)
        # Any JSON value is an item the service answers (a bad one with its own error item,
        # never failing the batch), so the contract says so: the family's request, or anything.
        items = contract.BATCH_ITEMS.get(kind, contract.BATCH_ITEMS["score"])
        body["properties"]["requests"].update(
            description=items.format(single=single),
            items={"anyOf": [ref(item), {"description": "Any other JSON value, answered with an "
                                         "error item."}]})
        self.converter.component(name, body, None)

    def figures(self) -> None:
        """Each figure a family's rule set counts (`FamilyContract.figures`, a word-card game's
        `figures`) is an integer key of its answers."""
        for _, layout, rulesets in self.families():
            figures: dict[str, list[str]] = {}
            for rs in rulesets:
                for name, attribute in layout.figures(rs).items():
                    figures.setdefault(name, []).append(f"{rs.id}: the `{attribute}` cards")
            for component in layout.figured:
                self.schema(component)
                properties = self.spec.components.schemas[component]["properties"]
                for name, where in figures.items():
                    properties[name] = {"type": "integer", "description": (
                        "The cards of the finished hand with a deck attribute ("
                        + "; ".join(where) + ").")}

    # --- the declared operations --------------------------------------------------------

    @staticmethod
    def places(layout: FamilyContract[Any], rulesets: list[AnyRuleSet]) -> list[Place]:
        if layout.own_paths:
            return [Place(rs.id, rs.name, prefix(rs.id)) for rs in rulesets]
        return [Place()]

    @staticmethod
    def texts(decl: OperationDecl, family: AnyFamily, place: Place) -> Texts:
        found = contract.TEXTS.get(family.name, _no_texts)(decl.name, place)
        if found is not None:
            return found
        return Texts(decl.summary, None, "The answer.", contract.SINGLE_ERRORS, batch=BatchTexts(
            f"{decl.summary}: up to 1,000 requests in one call", None))

    def scoring_operations(self) -> list[Operation]:
        """The declared operations (`app.service.operations`), family by family, each where
        the family puts it: its JSON form, its picture form, its batch form."""
        ops: list[Operation] = []
        for family, layout, rulesets in self.families():
            for place in self.places(layout, rulesets):
                for decl in operations():
                    if decl.serves(family):
                        ops.extend(self.declared(decl, family, layout, place))
        return ops

    def declared(self, decl: OperationDecl, family: AnyFamily, layout: FamilyContract[Any],
                 place: Place) -> list[Operation]:
        texts, p = self.texts(decl, family, place), place.prefix
        path = decl.path if place.ruleset is None else decl.path.replace(
            "{ruleset}", place.ruleset)
        parameter = texts.parameter[0] if texts.parameter is not None else layout.parameter
        parameters = (() if place.ruleset is not None else (parameter,)) + (
            ("Explain",) if decl.explain else ())
        ruleset = texts.ruleset or place.ruleset
        single = Operation(
            "post", path, decl.operation_id + p, "scoring", texts.summary, texts.description,
            Answer(texts.answer, layout.answers + decl.answer_schema, "application/json"),
            texts.errors, p + decl.request_schema, texts.examples, parameters, ruleset)
        out = [single]
        if decl.picture is not None and decl.name in family.pictures:
            out = list(with_picture(single, f"{decl.operation_id}Picture{p}", *texts.picture))
        if decl.batch is not None:
            batch = texts.batch or BatchTexts(texts.summary, None)
            out.append(Operation(
                "post", f"{path}/batch", decl.batch.operation_id + p, "scoring", batch.summary,
                batch.description, Answer(contract.BATCH_ANSWER, layout.answers + _stem(
                    decl.answer_schema) + "BatchResponse", "application/json"),
                contract.BATCH_ERRORS, f"{p}{_stem(decl.request_schema)}BatchRequest",
                batch.examples, parameters, ruleset))
        return out

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
        return [contract.RULESETS_LIST, contract.RULESET_DOCUMENT, *self.scoring_operations(),
                *contract.META]

    def document(self) -> dict[str, Any]:
        for name, parameter in contract.PARAMETERS.items():
            self.spec.components.parameter(name, parameter["in"], {
                **parameter, "description": text(parameter["description"])})
        self.requests()
        self.figures()
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
