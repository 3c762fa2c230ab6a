"""The declared shape of a problem document (RFC 9457), the body of every error answer
(written by `app.service.problems`), and of a batch's error item."""

from __future__ import annotations

from typing import Any, ClassVar

from marshmallow import fields, validate

from app.service.answer_fields import Answer, OneOf
from app.service.problems import PROBLEM_CODES
from app.service.schema_fields import FIELD_ERROR_CODES


class ProblemCode(fields.String):
    """The stable code of a problem. Request level: `malformed_json` 400, `duplicate_key` 400 (an
    object of the body holds a key twice), `malformed_gzip` 400 (a body sent as gzip that is
    not), `invalid_query` 400 (`explain` other than true or false),
    `unsupported_media_type` 415, `unsupported_content_encoding` 415 (a body's
    `Content-Encoding` other than gzip), `payload_too_large` 413, `request_timeout` 408 (the
    body did not arrive whole in time), `unknown_ruleset` 404, `not_found` 404,
    `method_not_allowed` 405, `invalid_request` 422, `time_limit_exceeded` 503 (past the
    service's time limit per request), `not_ready` 503, `http_error` (any other HTTP-level
    refusal), `internal_error` 500, `settle_not_supported` 422 (a rule set without round
    settlement), `analysis_not_supported` 422, `match_not_supported` 422 (a rule set without
    match rules). Refused by the server before the request is read (no `request_id`):
    `invalid_request_line` 400, `request_line_too_long` 414, `http_version_not_supported` 505,
    `invalid_header` 400, `too_many_headers` 431, `header_too_large` 431,
    `duplicate_content_length` 400, `content_length_with_transfer_encoding` 400,
    `unsupported_transfer_coding` 501, and `request_timeout` 408 for headers that stop
    half-way. Hand level (all 422): the rest, among them the round level codes of
    `settleRound` (`seat_already_won`, `round_over`, `wrong_draw_players`,
    `inconsistent_event`, `kong_mismatch`, `not_a_win`) and the match level codes of
    `scoreMatch` (`match_over`, `inconsistent_dealer`, `inconsistent_winds`,
    `player_out_of_range`, `no_claim_stands`, `not_a_false_win`, `false_win_unpriced`,
    `invalid_state`, `wrong_hand_kind`).
    """

    contract_name: ClassVar[str] = "ProblemCode"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(validate=validate.OneOf(PROBLEM_CODES), **kwargs)


class FieldError(Answer):
    pointer = fields.String(required=True)
    """A JSON pointer (RFC 6901) into the request body; "" is the whole body."""
    code = OneOf(fields.String(validate=validate.OneOf(FIELD_ERROR_CODES)), ProblemCode(),
                 required=True, metadata={"keyword": "anyOf"})
    """For `invalid_request`: `required`, `unknown_field`, `invalid_type` or `invalid_value`. For
    a hand-level problem: the problem's code.
    """
    message = fields.String(required=True)
    position = fields.Integer(validate=validate.Range(min=0))
    """The 0-based character position inside the notation string at `pointer`."""


class Problem(Answer):
    """An RFC 9457 problem document."""

    class Meta(Answer.Meta):
        # A problem may carry members of its own (RFC 9457 allows extensions).
        unknown = "include"

    type = fields.String(required=True)
    """A tag URI naming the problem type, `tag:mahjong-scoring,2025:problem:<code>`."""
    title = fields.String(required=True)
    status = fields.Integer(required=True, validate=validate.Range(min=400, max=599))
    detail = fields.String(required=True)
    code = ProblemCode(required=True)
    errors = fields.List(fields.Nested(FieldError))
    request_id = fields.String()
    """The request's ID, as echoed in the `X-Request-ID` response header and written in the
    access log (the client's own `X-Request-ID` when it sent a valid one). Not in the error
    items of a batch, whose response carries the header.
    """


class BatchError(Answer):
    error = fields.Nested(Problem, required=True)
