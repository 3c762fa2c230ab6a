"""The base of the declared answer shapes (the core's `answer_schemas`, `document_schemas`,
`problem_schemas`, and each family's `answer_schemas` and `document_schemas` in its package,
`app.service.tiles`, `app.service.cards`): marshmallow schemas that say what a response body
holds.

The answers themselves are written by fast functions that build dicts (each family's
`responses` and `documents`, the tile games' `settle_requests`, `batch`, `problems`); these
schemas are never used to dump them. They are the one declaration of each shape: `openapi.yaml`
is generated from them (`./run openapi`, tools/openapi), and the API tests validate every live
answer against the generated document, so a writer that drifts from its declared shape fails
them.

How a declaration becomes the contract's JSON Schema: a schema class is a component named after
the class (a class whose name starts with `_` is written inline where it is used); its docstring
is the component's description, and the docstring right below a field (an attribute docstring)
is that property's. `required=True`: the key is always there; `allow_none=True`: it may be
null. A field whose shape marshmallow has no field for carries its JSON Schema in
`metadata["json_schema"]`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from marshmallow import RAISE, Schema, fields


class Answer(Schema):
    """An answer's object: no key besides the declared ones, unless `additional` names the JSON
    type of the values of further keys."""

    class Meta:
        unknown = RAISE

    additional: ClassVar[str | None] = None


class Const(fields.Field[Any]):
    """A key whose value is always `value`."""

    def __init__(self, value: str | bool | int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.value = value


class OneOf(fields.Field[Any]):
    """A value of exactly one of `alternatives` (each a field)."""

    def __init__(self, *alternatives: fields.Field[Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.alternatives = alternatives


class JsonScalar(fields.Field[Any]):
    """A boolean, an integer or a string (an option's value)."""
