"""Marshmallow schemas and fields as the contract's JSON Schema (apispec's MarshmallowPlugin,
with the conversions this project's own fields need).

- A schema class is a component named after the class without `Schema` (a class whose name
  starts with `_` is written inline where it is used); its docstring is the component's
  description, and the docstring right below a field (an attribute docstring) is that
  property's, unless the field's `metadata["description"]` gives one (fields made at run
  time, such as a card rule set's).
- `RAISE` on unknown keys: `additionalProperties: false`; an answer's `additional`: the JSON
  type of the values of further keys.
- A field class that sets `contract_name` (`Seat`, `Tiles`, `Hand`, ...) is written once as that
  component, its docstring being the component's description (`contract_examples`: its
  examples); a field refers to it.
- `required=True`: listed in `required`; `allow_none=True`: null allowed too.
- The request field classes of `app.service.schema_fields` are read for their limits (lengths,
  bounds, choices), so the contract states exactly what the schema enforces.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import textwrap
from functools import cache
from typing import Any

from apispec.ext.marshmallow import MarshmallowPlugin
from apispec.ext.marshmallow.common import make_schema_key, resolve_schema_instance
from apispec.ext.marshmallow.openapi import OpenAPIConverter
from marshmallow import INCLUDE, RAISE, Schema, fields, validate

from app.service.answer_fields import Answer, Const, JsonScalar, OneOf
from app.service.cards.requests import MAX_CARD_LIST, CardCode, Cards
from app.service.request_schemas import BatchRequests
from app.service.schema_fields import (
    MAX_BATCH_ITEMS,
    MAX_FLOWER_LIST,
    MAX_INT,
    MAX_OPTION_LIST,
    MAX_OPTION_NAME_LENGTH,
    MAX_OPTION_STRING_LENGTH,
    MAX_OPTIONS,
    OPTION_INT_MAX,
    OPTION_INT_MIN,
    Flowers,
    HandBase,
    NotAllowed,
    Notation,
    Options,
    OptionValue,
    StrictBool,
    StrictInt,
    StrictStr,
    TileCode,
    Tiles,
)
from app.service.tiles.request_schemas import CountedTiles
from app.service.tiles.settle_schemas import _EVENT_SCHEMAS, _KONG_SCHEMAS, Event

NULL = {"type": "null"}


def ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def text(doc: str | None) -> str | None:
    """A docstring as a description: paragraphs kept, the lines of each joined."""
    if not doc:
        return None
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in p.splitlines()) for p in paragraphs)


@cache
def attribute_docs(cls: type) -> dict[str, str]:
    """The docstrings right below the fields of a class body (and of its bases'), by name.
    Only the project's classes are read (a library's base class documents no field of ours);
    each once (`_own_docs`): reading a class's source is the slow part of the generator."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if klass.__module__.split(".", 1)[0] in ("app", "tools"):
            docs.update(_own_docs(klass))
    return docs


@cache
def _own_docs(klass: type) -> dict[str, str]:
    try:
        source = textwrap.dedent(inspect.getsource(klass))
    except (OSError, TypeError):
        return {}  # made at run time
    tree = ast.parse(source)
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs: dict[str, str] = {}
    for before, after in itertools.pairwise(body):
        if not (isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)):
            continue
        target = (before.targets[0] if isinstance(before, ast.Assign) and len(before.targets)
                  == 1 else before.target if isinstance(before, ast.AnnAssign) else None)
        if isinstance(target, ast.Name):
            docs[target.id] = after.value.value
    return docs


def schema_name(schema: type[Schema] | Schema) -> str | None:
    """A schema class's component name; None: written inline."""
    cls = schema if isinstance(schema, type) else type(schema)
    name = cls.__name__
    return None if name.startswith("_") else name.removesuffix("Schema")


def _nullable(prop: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in prop or "enum" in prop or "const" in prop:
        return {"oneOf": [prop, NULL]}
    if "oneOf" in prop and len(prop) == 1:
        return {"oneOf": [*prop["oneOf"], NULL]}
    if isinstance(prop.get("type"), str):
        return {**prop, "type": [prop["type"], "null"]}
    if isinstance(prop.get("type"), list):
        return {**prop, "type": [*prop["type"], "null"]}
    if not prop:
        return prop  # anything, null included
    return {"oneOf": [prop, NULL]}


def _json_type(value: Any) -> str:
    return {bool: "boolean", int: "integer", str: "string"}[type(value)]


def _length(field: fields.Field[Any], prop: dict[str, Any], least: str, most: str) -> None:
    for v in field.validators:
        if isinstance(v, validate.Length):
            if v.min is not None:
                prop[least] = v.min
            if v.max is not None:
                prop[most] = v.max


def _range(field: fields.Field[Any], prop: dict[str, Any]) -> None:
    for v in field.validators:
        if isinstance(v, validate.Range):
            if v.min is not None:
                prop["minimum"] = v.min
            if v.max is not None:
                prop["maximum"] = v.max


def _choices(field: fields.Field[Any], prop: dict[str, Any]) -> None:
    for v in field.validators:
        if isinstance(v, validate.OneOf):
            prop["enum"] = list(v.choices)


class Converter(OpenAPIConverter):
    """apispec's converter, taking this project's fields and layout rules (the module's
    docstring)."""

    def field2property(self, field: fields.Field[Any]) -> dict[str, Any]:
        return self.described(field, None)

    def described(self, field: fields.Field[Any], doc: str | None) -> dict[str, Any]:
        """The property of `field`: its value's schema (or a reference to its component), null
        allowed when it is, and its description (metadata, else `doc`)."""
        prop = self._value(field)
        name = getattr(type(field), "contract_name", None)
        if name is None and isinstance(field, HandBase):
            # A card rule set's hand: named after its hand object's component.
            name = self._ref_name(prop["oneOf"][1]).removesuffix("Object")
        if name is not None:
            examples = getattr(type(field), "contract_examples", None)
            if examples:
                prop = {**prop, "examples": list(examples)}
            self.component(name, prop, text(type(field).__doc__))
            prop = ref(name)
        if field.allow_none:
            prop = _nullable(prop)
        description = field.metadata.get("description") or text(doc)
        if description:
            prop = {"description": description, **prop}
        return prop

    def component(self, name: str, schema: dict[str, Any], description: str | None) -> None:
        """Write a component once (a field class's, or one the generator makes)."""
        schemas = self.spec.components.schemas
        entry = {**schema, "description": description} if description else schema
        if name in schemas:
            assert schemas[name] == entry, f"two shapes named {name}"
            return
        self.spec.components.schema(name, component=entry)

    def _ref_name(self, prop: dict[str, Any]) -> str:
        return str(prop["$ref"]).rsplit("/", 1)[1]

    def registered(self, schema: Schema | type[Schema]) -> str:
        """The component name a schema is written under (registered on first use)."""
        return self._ref_name(self.resolve_nested_schema(schema))  # type: ignore[no-untyped-call]

    def _value(self, field: fields.Field[Any]) -> dict[str, Any]:
        if "json_schema" in field.metadata:
            return dict(field.metadata["json_schema"])
        if isinstance(field, Const):
            return {"type": _json_type(field.value), "const": field.value}
        if isinstance(field, OneOf):
            keyword = field.metadata.get("keyword", "oneOf")
            return {keyword: [self.field2property(a) for a in field.alternatives]}
        if isinstance(field, JsonScalar):
            return {"type": ["boolean", "integer", "string"]}
        if isinstance(field, StrictStr):
            prop: dict[str, Any] = {"type": "string"}
            if len(field.choice_list) == 1:
                prop["const"] = field.choice_list[0]
            elif field.choice_list:
                prop["enum"] = list(field.choice_list)
            if field.max_length is not None:
                prop["maxLength"] = field.max_length
            return prop
        if isinstance(field, StrictBool):
            return {"type": "boolean"}
        if isinstance(field, StrictInt):
            return {"type": "integer", "minimum": field.minimum, "maximum": field.maximum}
        if isinstance(field, CountedTiles):
            return {"oneOf": [self._notation(), {
                "type": "array", "minItems": field.count, "maxItems": field.count,
                "items": self._sub(TileCode())}]}
        if isinstance(field, Tiles):
            return {"oneOf": [self._notation(), {"type": "array", "maxItems": field.max_items,
                                                 "items": self._sub(TileCode())}]}
        if isinstance(field, Cards):
            return {"oneOf": [self._notation(), {"type": "array", "maxItems": MAX_CARD_LIST,
                                                 "items": self._sub(CardCode())}]}
        if isinstance(field, Flowers):
            return {"oneOf": [{"type": "integer", "minimum": 0, "maximum": MAX_INT},
                              self._notation(),
                              {"type": "array", "maxItems": MAX_FLOWER_LIST,
                               "items": self._sub(TileCode())}]}
        if isinstance(field, HandBase):
            return {"oneOf": [self._notation(), self.resolve_nested_schema(field.objects)]}  # type: ignore[no-untyped-call]
        if isinstance(field, Options):
            return {"type": "object", "maxProperties": MAX_OPTIONS,
                    "propertyNames": {"maxLength": MAX_OPTION_NAME_LENGTH},
                    "additionalProperties": self._sub(OptionValue())}
        if isinstance(field, OptionValue):
            integer = {"type": "integer", "minimum": OPTION_INT_MIN, "maximum": OPTION_INT_MAX}
            string = {"type": "string", "maxLength": MAX_OPTION_STRING_LENGTH}
            entry = {"oneOf": [integer, string, {"type": "null"}]}
            return {"oneOf": [{"type": "boolean"}, integer, string,
                              {"type": "array", "maxItems": MAX_OPTION_LIST, "items": entry}]}
        if isinstance(field, Event):
            events = (*_KONG_SCHEMAS.values(), *_EVENT_SCHEMAS.values())
            return {"oneOf": [self.resolve_nested_schema(s) for s in events]}  # type: ignore[no-untyped-call]
        if isinstance(field, BatchRequests):
            # The items are the single operation's requests: the generator adds them.
            return {"type": "array", "minItems": 1, "maxItems": MAX_BATCH_ITEMS}
        if isinstance(field, fields.Nested):
            return dict(self.resolve_nested_schema(field.schema))  # type: ignore[no-untyped-call]
        if isinstance(field, fields.List):
            prop = {"type": "array", "items": self.field2property(field.inner)}
            _length(field, prop, "minItems", "maxItems")
            return prop
        if isinstance(field, fields.Dict):
            prop = {"type": "object"}
            if field.value_field is not None:
                prop["additionalProperties"] = self.field2property(field.value_field)
            return prop
        if isinstance(field, fields.Raw):
            return {}
        for cls, kind in ((fields.Boolean, "boolean"), (fields.Integer, "integer"),
                          (fields.Float, "number"), (fields.String, "string")):
            if isinstance(field, cls):
                prop = {"type": kind}
                _choices(field, prop)
                _range(field, prop)
                return prop
        raise TypeError(f"no conversion for {type(field).__name__}")

    def _notation(self) -> dict[str, Any]:
        return self._sub(Notation())

    def _sub(self, field: fields.Field[Any]) -> dict[str, Any]:
        return self.field2property(field)

    def schema2jsonschema(self, schema: Schema | type[Schema]) -> dict[str, Any]:
        instance = resolve_schema_instance(schema)
        cls = type(instance)
        variants = cls.__dict__.get("contract_variants")
        if not variants:
            return self._object(instance, {})
        # One object shape per variant, the variant's fields standing in for the schema's.
        out: dict[str, Any] = {"oneOf": [self._object(instance, v) for v in variants]}
        for shape in out["oneOf"]:
            shape.pop("description", None)
        description = text(cls.__dict__.get("__doc__"))
        if description:
            out["description"] = description
        return out

    def _object(self, instance: Schema, replaced: dict[str, fields.Field[Any]]) -> dict[str, Any]:
        cls = type(instance)
        docs = attribute_docs(cls)
        properties: dict[str, Any] = {}
        required: list[str] = []
        for name, field in instance.fields.items():
            field = replaced.get(name, field)
            if isinstance(field, NotAllowed):
                continue  # a field the object must not hold: not a property
            key = field.data_key or name
            properties[key] = self.described(field, docs.get(name))
            if field.required:
                required.append(key)
        out: dict[str, Any] = {"type": "object"}
        additional = getattr(cls, "additional", None) if issubclass(cls, Answer) else None
        if additional is not None:
            out["additionalProperties"] = {"type": additional}
        elif instance.unknown == RAISE:
            out["additionalProperties"] = False
        else:
            assert instance.unknown == INCLUDE, cls
        if required:
            out["required"] = required
        # Rules across fields the schema's reading enforces, as JSON Schema keywords (of this
        # class only: a subclass reads its own way).
        out.update(cls.__dict__.get("contract_rules", {}))
        description = text(cls.__dict__.get("__doc__"))
        if description:
            out["description"] = description
        out["properties"] = properties
        return out

    def schema_key(self, schema: Schema) -> Any:
        return make_schema_key(schema)


class Plugin(MarshmallowPlugin):
    Converter = Converter

    def __init__(self) -> None:
        # apispec types the resolver narrower than it calls it (a class or an instance).
        super().__init__(schema_name_resolver=schema_name)  # type: ignore[arg-type]
