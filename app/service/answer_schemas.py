"""The declared answer shapes every family's answers share: a counted fan (`FanResult`), why a
hand is not a legal win (`Reason`) and a fan found but not counted (`NotCountedFan`). Each
family's own answers are in its package (`app.service.tiles.answer_schemas`,
`app.service.cards.answer_schemas`). See `app.service.answer_fields` for how they become the
contract.
"""

from __future__ import annotations

from marshmallow import fields, validate

from app.service.answer_fields import Answer


class FanResult(Answer):
    id = fields.String(required=True)
    name = fields.String(required=True)
    name_en = fields.String(required=True)
    value = fields.Integer(required=True)
    """The value of one occurrence."""
    count = fields.Integer(validate=validate.Range(min=1), required=True)
    """How many times the fan applies."""


class Reason(Answer):
    """Why a well-formed hand is not a legal win."""

    code = fields.String(required=True)
    message = fields.String(required=True)


class NotCountedFan(Answer):
    """A fan the chosen reading had (its check finds it there) but did not count, and the rule that
    left it out. For a rule set of word cards, a 名堂 of the chosen arrangement that an option
    leaves out (`rule` always `option`).
    """

    id = fields.String(required=True)
    name = fields.String(required=True)
    name_en = fields.String(required=True)
    value = fields.Integer(required=True)
    """The value of one occurrence, as in the rule set."""
    count = fields.Integer(validate=validate.Range(min=1), required=True)
    """How many times more it was found than it counts."""
    rule = fields.String(required=True, validate=validate.OneOf(
        ("option", "shape", "fan", "needs_other_fan", "account_once")))
    """What left it out, the first that holds in this order. `option`: a request option switches it
    off (`by`: the option). `shape`: a reading of this shape does not score it (`by`: the shape;
    七对 never scores 门前清). `fan`: a counted fan excludes it (不计; `by`: the counted fan's id,
    the first in evaluation order that excludes it). `needs_other_fan`: it counts only beside
    another fan, and none counts (`by` null). `account_once`: a chow combination the combination
    policy did not count, each chow combining once (套算一次; `by`: the policy).
    """
    by = fields.String(required=True, allow_none=True)
    """The fan id, option, shape or policy the rule names."""
    message = fields.String(required=True)
    """The same in a sentence."""
