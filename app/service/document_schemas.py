"""The declared shapes every family's rule-set documents share (an option's definition, the
service's limits), the list of rule sets (`GET /v1/rulesets`) and the health and readiness
answers. A family's own document is in its package (`app.service.tiles.document_schemas`,
`app.service.cards.document_schemas`). See `app.service.answer_fields` for how they become the
contract.
"""

from __future__ import annotations

from marshmallow import fields, validate

from app.service.answer_fields import Answer, Const, JsonScalar, OneOf


class RulesetSummary(Answer):
    id = fields.String(required=True)
    name = fields.String(required=True)
    name_en = fields.String(required=True)
    players = fields.Integer(validate=validate.Range(min=1), required=True)
    description = fields.String(required=True)


class RulesetList(Answer):
    rulesets = fields.List(fields.Nested(RulesetSummary), required=True)


class OptionDefinition(Answer):
    name = fields.String(required=True)
    type = fields.String(validate=validate.OneOf(("bool", "int", "enum", "per_seat")),
                         required=True)
    """`per_seat`: a list of one integer per seat (as many as the rule set's players), each within
    `minimum` and `maximum`; `dealer_entry`, when given, is the value the dealer's own entry
    must have (tianjin `pulls`: the dealer pulls nobody). A `per_seat` option with `choices`
    lists one of the choices or null per seat (sichuan `void_suit`: the suit each seat
    declared void, null for none).
    """
    default = OneOf(JsonScalar(), fields.List(JsonScalar(allow_none=True)), required=True)
    description = fields.String(required=True)
    choices = fields.List(JsonScalar())
    minimum = fields.Integer()
    maximum = fields.Integer()
    dealer_entry = fields.Integer()


class RulesetLimits(Answer):
    """What the service takes per request (set by its operator)."""

    request_bytes = fields.Integer(required=True)
    """The most bytes of a single request's body."""
    batch_bytes = fields.Integer(required=True)
    """The most bytes of a batch body (any `.../batch` operation)."""
    match_bytes = fields.Integer(required=True)
    """The most bytes of a match body (`.../match`: its hands, up to 64)."""
    batch_items = fields.Integer(required=True)
    """The most requests one batch holds."""
    time_limit_seconds = fields.Float(required=True)
    """The most time one request, or one whole batch, may spend scoring (10 s by default); past it
    the request answers `503 time_limit_exceeded`, and a batch's requests not yet done get
    `time_limit_exceeded` error items.
    """


class Health(Answer):
    status = Const("ok", required=True)
    version = fields.String(required=True)
    """The version of the service, the same as `info.version` of this document."""
    rulesets = fields.List(fields.String(), required=True)


class Readiness(Answer):
    status = Const("ready", required=True)
    version = fields.String(required=True)
    rulesets = fields.List(fields.String(), required=True)


class MatchDefinition(Answer):
    """How a match of the rule set is played (`POST .../match`): its rules, each a value or
    `{option, values}` chosen by one of the match's own options."""

    description = fields.String(required=True)
    options = fields.List(fields.Nested(OptionDefinition), required=True)
    """The match's own options (a match request's `match_options`)."""
    rules = fields.Dict(keys=fields.String(), required=True, metadata={
        "json_schema": {"type": "object"}})
    """`dealer_wins`, `other_wins`, `drawn`: where the deal goes after the dealer's win,
    another player's win, a hand nobody won (`stays`, `next`, `winner`, `kong_passes`,
    `last_drawer`); `several_winners`: after several players win one discard (`discarder`,
    `any_discarder`, `winner`); `hands`, `dealerships`: the match's length (null: open);
    `seating`: the players at each seat in each 圈 (null: they keep their seats); `winds`;
    `one_winner` (截和); `false_win`: each kind's price, `[each | deduct, points]`;
    `base_points`; `table_points`."""
