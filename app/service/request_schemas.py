"""The request schemas every family shares: a batch of requests (`BATCH_REQUEST`: its items
are each read later by the single request's own schema, the family's), and the field naming the
rule set a request is meant for (`NamedRuleset`). The building blocks are
`app.service.schema_fields`; each family's own request schemas are in its package
(`app.service.tiles.request_schemas`, `app.service.cards.requests`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from marshmallow import fields

from app.service.schema_fields import (
    MAX_BATCH_ITEMS,
    MSG_NULL,
    StrictStr,
    _required,
    _Strict,
    _type,
)


class NamedRuleset(StrictStr):
    """The rule set the request is meant for, as a line of a generated log (`./run log`) names it:
    optional, and when given it must be the path's rule set (else 422 `invalid_field`, pointer
    `/ruleset`), so a log line can be posted as it is.
    """

    # A line of a log names its rule set (`./run log`, the command-line scorer): it may
    # be posted as it is, when it names the path's rule set (`check_named_ruleset`).
    contract_name: ClassVar[str] = "NamedRuleset"


# --- a batch: many score or waits requests in one body -------------------------------


class BatchRequests(fields.Field[list[Any]]):
    """The requests of a batch, 1 to MAX_BATCH_ITEMS of them. Each is read later by the
    single request's own schema, item by item: a bad item becomes that item's error and
    never fails the batch."""

    default_error_messages = {  # noqa: RUF012
        "invalid": _type("Not a list of requests: expected a JSON array of request objects."),
        "empty": "Empty: a batch holds 1 to " + str(MAX_BATCH_ITEMS) + " requests.",
        "too_many": (f"More than {MAX_BATCH_ITEMS} requests: send at most {MAX_BATCH_ITEMS} "
                     "per batch, the rest in further batches."),
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list[Any]:
        if type(value) is not list:
            raise self.make_error("invalid")
        if not value:
            raise self.make_error("empty")
        if len(value) > MAX_BATCH_ITEMS:
            raise self.make_error("too_many")
        return value


class BatchRequestSchema(_Strict):
    what = "a batch request"
    requests = BatchRequests(required=True, error_messages={
        "null": MSG_NULL,
        "required": _required(f"the requests, a JSON array of 1 to {MAX_BATCH_ITEMS} request "
                              "objects, each as the single call takes it.")})


BATCH_REQUEST = BatchRequestSchema()
