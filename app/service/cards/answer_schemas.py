"""The declared shapes of the word-card games' answers (rule sets with a `deck`): a score
(`CardScoreResponse`, written by `app.service.cards.responses`), the waits
(`CardWaitsResponse`), the explanation and the batches' answers. See
`app.service.answer_fields` for how they become the contract; the generator adds each card rule
set's figures (`figures` of its document) to `CardScoreResponse` and `CardWaitEntry`.
"""

from __future__ import annotations

from marshmallow import fields, validate

from app.service.answer_fields import Answer, OneOf
from app.service.answer_schemas import (
    FanResult,
    NotCountedFan,
    Reason,
    _MatchHand,
    _MatchResponse,
)
from app.service.problem_schemas import BatchError


class CardGroupResult(Answer):
    kind = fields.String(required=True)
    """The group's kind: hengyang `ti` 提, `pao` 跑, `wei` 偎, `kan` 坎, `peng` 碰, `chi` 吃 (a
    table 句 or 绞), `shun` 句, `jiao` 绞, `pair` 将. A table group the winning card joined shows
    its new kind (偎 → 提, 碰 → 跑).
    """
    cards = fields.String(required=True)
    """The cards, in rank order: one compact group when of one case (`2710x`), else card by card,
    small before big (`9x9x9d`).
    """
    huxi = fields.Integer(required=True)
    """The group's points (胡息)."""
    on_table = fields.Boolean(required=True)
    """A table group (as finished), not one formed in hand."""
    has_win_card = fields.Boolean(required=True)
    """The group the winning card went to."""


class CardDecomposition(Answer):
    groups = fields.List(fields.Nested(CardGroupResult), required=True)
    """Every group of the chosen arrangement: the table groups first, in the order the request gave
    them, then the groups formed in hand ordered by their cards (the group with the lowest card
    first; small cards before big ones, each case by rank).
    """


class CardTransfer(Answer):
    from_ = fields.Integer(validate=validate.Range(min=0), required=True, data_key="from")
    to = fields.Integer(validate=validate.Range(min=0), required=True)
    amount = fields.Integer(required=True)
    reason = fields.String(required=True)
    """The rule set's reason for the win type: hengyang `self_draw` and `flip` (every other player
    pays one share), `discarder` (the discarder alone pays the shares).
    """


class CardPayments(Answer):
    net = fields.List(fields.Integer(), required=True)
    """One entry per seat; sums to zero."""
    transfers = fields.List(fields.Nested(CardTransfer), required=True)


class CardReading(Answer):
    """One arrangement of the finished hand that was scored and compared."""

    groups = fields.List(fields.Nested(CardGroupResult), required=True)
    """Its groups, in the order of `CardDecomposition`."""
    huxi = fields.Integer(required=True)
    """Its points (胡息), table groups included."""
    score = fields.Integer(required=True, allow_none=True)
    """番 × 囤 had it been chosen; null when it is no win (under 起胡)."""
    reason = fields.String(required=True, allow_none=True)
    """Why it is no win (`below_min_huxi`); null for a win."""
    chosen = fields.Boolean(required=True)
    """The arrangement the response scores (listed first)."""


class CardExplanation(Answer):
    """Asked for with `?explain=true` on a rule set of word cards. Nothing in it changes the score:
    the rest of the response is as without it. For a hand with no arrangement, all three are
    empty.
    """

    not_counted = fields.List(fields.Nested(NotCountedFan), required=True)
    """Every 名堂 the chosen arrangement has but the request's options leave out (hengyang: the red
    名堂 with `red_black` off, 自摸 with `self_draw_double` false), in the rule set's order; `rule`
    is `option`, `by` the option that decided it, `value` the 名堂's multiplier under the rule
    set's default options.
    """
    readings = fields.List(fields.Nested(CardReading), required=True,
                           validate=validate.Length(max=5))
    """The chosen arrangement first, then the others compared by the rule set's ranking (a win
    before a non-win; hengyang: the higher 胡息, then the higher score, and with `tun_mode` hzy
    the score first); at most five.
    """
    readings_compared = fields.Integer(validate=validate.Range(min=0), required=True)
    """How many arrangements were scored and compared, over every place the winning card may go
    (readings lists five at most).
    """


class CardScoreResponse(Answer):
    """The score of a hand of word cards. Besides the fields below, each figure the rule set counts
    over the whole finished hand is its own integer field, named by the rule set (hengyang:
    `red_cards`).
    """

    ruleset = fields.String(required=True)
    winning = fields.Boolean(required=True)
    reason = fields.Nested(Reason, required=True, allow_none=True)
    """Why the hand is no win: `no_shape` (no arrangement of the cards), `below_min_huxi` (under
    起胡, with the 胡息 it has).
    """
    huxi = fields.Integer(required=True, allow_none=True)
    """The points (胡息) of the chosen arrangement; null without one."""
    tun = fields.Integer(required=True, allow_none=True)
    """The units (囤) of a win; null when the hand does not win."""
    tun_parts = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    """What the 囤 are made of, by part (hengyang: `di_fen` 底分, `from_huxi`, `xing` 醒, `red`);
    empty when the hand does not win.
    """
    fans = fields.List(fields.Nested(FanResult), required=True)
    """The 名堂 that apply; `value` is the multiplier each brings."""
    fan_total = fields.Integer(required=True)
    """The product of the 名堂 (番), the same as `multiplier`; 1 with none."""
    multiplier = fields.Integer(required=True)
    """番, the product of the multipliers of `fans`; 1 with none."""
    value = fields.Integer(required=True, allow_none=True)
    """The score (the same as `score`); null when the hand does not win."""
    score = fields.Integer(required=True, allow_none=True)
    """番 × 囤, what each paying share is worth; null when the hand does not win."""
    decomposition = fields.Nested(CardDecomposition, required=True, allow_none=True)
    payments = fields.Nested(CardPayments, required=True, allow_none=True)
    explanation = fields.Nested(CardExplanation)
    # Each figure the rule set counts (its `figures`) is an integer key of its own.
    additional = "integer"


class CardWaitEntry(Answer):
    """A card that finishes the hand, by one win type, and the hand so finished: the fields of
    `CardScoreResponse` but `ruleset` (the figures such as `red_cards` included).
    """

    card = fields.String(required=True)
    """The finishing card's code."""
    win_type = fields.String(required=True)
    """The win type, one of the rule set's `win_types`."""
    winning = fields.Boolean(required=True)
    reason = fields.Nested(Reason, required=True, allow_none=True)
    huxi = fields.Integer(required=True, allow_none=True)
    tun = fields.Integer(required=True, allow_none=True)
    tun_parts = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    fans = fields.List(fields.Nested(FanResult), required=True)
    fan_total = fields.Integer(required=True)
    multiplier = fields.Integer(required=True)
    value = fields.Integer(required=True, allow_none=True)
    score = fields.Integer(required=True, allow_none=True)
    decomposition = fields.Nested(CardDecomposition, required=True, allow_none=True)
    payments = fields.Nested(CardPayments, required=True, allow_none=True)
    explanation = fields.Nested(CardExplanation)
    # Each figure the rule set counts (its `figures`) is an integer key of its own.
    additional = "integer"


class CardWaitsResponse(Answer):
    ruleset = fields.String(required=True)
    ready = fields.Boolean(required=True)
    """Some card finishes the hand into groups (a win, or one under 起胡)."""
    can_win = fields.Boolean(required=True)
    """Some card wins; the same as best not being null."""
    waits = fields.List(fields.Nested(CardWaitEntry), required=True)
    """By card in the deck's order (small 1x…10x, then big 1d…10d), then by win type in the rule
    set's order; only cards of which a copy is left.
    """
    best = fields.Nested(CardWaitEntry, required=True, allow_none=True)
    """The winning entry with the highest score (the first among equals); null when none wins."""


class _CardScoreResult(Answer):
    result = fields.Nested(CardScoreResponse, required=True)


class _CardWaitsResult(Answer):
    result = fields.Nested(CardWaitsResponse, required=True)


class CardScoreBatchResponse(Answer):
    results = fields.List(OneOf(fields.Nested(_CardScoreResult), fields.Nested(BatchError)),
                          required=True)
    """One item per request, in the order of the requests."""


class CardWaitsBatchResponse(Answer):
    results = fields.List(OneOf(fields.Nested(_CardWaitsResult), fields.Nested(BatchError)),
                          required=True)
    """One item per request, in the order of the requests."""


class CardMatchHand(_MatchHand):
    result = fields.Nested(CardScoreResponse, required=True, allow_none=True)
    """The hand's own answer, as `score` answers it at the hand's table (its seats are the
    table's: `seating[s]` is the player at seat s); null for a drawn hand."""


class CardMatchResponse(_MatchResponse):
    """A match of word-card hands, scored hand by hand."""

    hands = fields.List(fields.Nested(CardMatchHand), required=True)
    """The request's hands, in order."""
