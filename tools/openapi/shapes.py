"""What the contract declares of one operation (`Operation`) and of one of its responses
(`Answer`); `contract.py` declares the operations, `build.py` writes them out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tools.openapi.examples import Example, Fixed


@dataclass(frozen=True)
class Answer:
    """A response: its description, the schema of its body (None: a shared response's
    reference, or a text body), its media type, examples and headers."""

    description: str
    schema: str | dict[str, Any] | None = None
    media: str = "application/problem+json"
    examples: tuple[Example | Fixed, ...] = ()
    headers: Mapping[str, Any] = field(default_factory=dict)
    # Other media types the same answer may be sent as (asked for with `Accept`): media
    # type -> its content object.
    also: Mapping[str, dict[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    operation_id: str
    tag: str
    summary: str
    description: str | None
    answer: Answer  # the 200 answer (its examples: those of `examples` answered 200)
    responses: Mapping[int, str | Answer]  # a shared response's name, or the operation's own
    request: str | None = None  # the request body's schema
    examples: tuple[Example, ...] = ()
    parameters: tuple[str | dict[str, Any], ...] = ()  # shared parameters' names, or inline
    ruleset: str | None = None  # the rule set the examples are posted to by default


@dataclass(frozen=True)
class Place:
    """Where a family's operations are: the templated paths (`ruleset` None), or the paths of
    one rule set of its own (its id, its name, and `prefix`, which names its components and
    operations: `hengyang` -> `Hengyang`)."""

    ruleset: str | None = None
    name: str = ""
    prefix: str = ""


@dataclass(frozen=True)
class BatchTexts:
    summary: str
    description: str | None
    examples: tuple[Example, ...] = ()


@dataclass(frozen=True)
class Texts:
    """What the contract says of one declared operation (`app.service.operations`) for one
    family, besides what the declaration says (path, ids, schema names, forms)."""

    summary: str
    description: str | None
    answer: str  # the 200 answer's description
    errors: Mapping[int, str | Answer]  # the error responses, by status
    examples: tuple[Example, ...] = ()
    ruleset: str | None = None  # the rule set the examples are posted to by default
    # The path parameter naming the rule set, when not the family's, and the enum's
    # description (the rule sets the operation does not refuse).
    parameter: tuple[str, str] | None = None
    picture: tuple[str, tuple[str, ...]] = ("", ())  # what it draws, the examples it shows
    batch: BatchTexts | None = None
