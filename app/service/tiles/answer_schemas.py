"""The declared shapes of the tile games' answers: a score (`ScoreResponse`, written by
`app.service.tiles.responses`), the waits (`WaitsResponse`), the discard analysis
(`AnalysisResponse`), the explanation (`?explain=true`), a
round's settlement (`SettleResponse`, `app.service.tiles.settle_requests`) and the batches' answers
(`app.service.batch`); the shapes every family's answers share are `app.service
.answer_schemas`. See `app.service.answer_fields` for how they become the contract.
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


class _DecompositionWildsItem(Answer):
    tile = fields.String(required=True)
    """The wild tile held."""
    as_ = fields.String(required=True, data_key="as")
    """The tile it stood for."""


class Decomposition(Answer):
    shape = fields.String(required=True)
    """The shape scored (regular, seven_pairs, thirteen_orphans, nine_gates, ...)."""
    melds = fields.List(fields.String(), required=True)
    """The groups of the chosen reading in display order, as the tiles they are read as (a wild
    tile appears as what it stands for); declared melds in brackets as on input.
    """
    wilds = fields.List(fields.Nested(_DecompositionWildsItem), required=True)
    """What each wild tile (混) of the standing hand stood for in this reading, the winning tile
    first when it is a wild; a wild read as its own kind is listed too. Wilds of one kind are
    interchangeable, so which copy stood for what is not meaningful. Empty for a hand without
    wilds.
    """


class Transfer(Answer):
    from_ = fields.Integer(validate=validate.Range(min=0), required=True, data_key="from")
    to = fields.Integer(validate=validate.Range(min=0), required=True)
    amount = fields.Integer(required=True)
    reason = fields.String(required=True, validate=validate.OneOf(
        ("self_draw", "discarder", "base", "pays_for_others")))
    """`self_draw`: a payer's share of a self-drawn win; `discarder`: what the discarder pays;
    `base`: what another player pays on a discard win where everyone pays (mcr's 8 each,
    changchun's per-payer amount); `pays_for_others`: the discarder pays the shares of every
    other player too, who pay nothing (kawuxing 包胡, won by a player who has revealed; changchun
    包庄, a discarder who had not declared ready, one transfer per covered payer).
    """


class Payments(Answer):
    net = fields.List(fields.Integer(), required=True)
    """One entry per seat; sums to zero."""
    transfers = fields.List(fields.Nested(Transfer), required=True)


class _ComparedReadingWildsItem(Answer):
    tile = fields.String(required=True)
    as_ = fields.String(required=True, data_key="as")


class _ComparedReadingFansItem(Answer):
    id = fields.String(required=True)
    count = fields.Integer(validate=validate.Range(min=1), required=True)


class ComparedReading(Answer):
    """One reading of the hand that was scored and compared: its groups (as in `Decomposition`,
    wild tiles with what they stood for), the fans it counts and its total, flowers included as
    in `fan_total`.
    """

    shape = fields.String(required=True)
    melds = fields.List(fields.String(), required=True)
    wilds = fields.List(fields.Nested(_ComparedReadingWildsItem), required=True)
    fans = fields.List(fields.Nested(_ComparedReadingFansItem), required=True)
    fan_total = fields.Integer(required=True)
    meets_requirements = fields.Boolean(required=True)
    """It meets the rule set's requirements on a reading (长春: a pung); a reading that does is
    preferred to any that does not.
    """
    chosen = fields.Boolean(required=True)
    """The reading the response scores (listed first)."""


class Explanation(Answer):
    """Asked for with `?explain=true`. Nothing in it changes the score: the rest of the response is
    as without it. For a hand with no winning shape, all three are empty.
    """

    not_counted = fields.List(fields.Nested(NotCountedFan), required=True)
    """Every fan the chosen reading had but did not count, in the rule set's evaluation order. Chow
    combinations are counted without the policy's limits to find them. Not listed: the flower
    fan and a shape's fan counted only when nothing else is (无番和).
    """
    readings = fields.List(fields.Nested(ComparedReading), validate=validate.Length(max=5),
                           required=True)
    """The chosen reading first, then the other readings compared, those meeting the requirements
    first and the higher total first; at most five.
    """
    readings_compared = fields.Integer(validate=validate.Range(min=0), required=True)
    """How many readings were scored and compared (readings lists five at most)."""


class ScoreResponse(Answer):
    ruleset = fields.String(required=True)
    winning = fields.Boolean(required=True)
    reason = fields.Nested(Reason, required=True, allow_none=True)
    fans = fields.List(fields.Nested(FanResult), required=True)
    fan_total = fields.Integer(required=True)
    """The total, flowers included where the rule set counts them: always the sum of `fans` (value
    × count), whatever table prices the hand (tianjin's tjmj table prices the same fans
    differently; its points are `multiplier`).
    """
    value = fields.Integer(required=True, allow_none=True)
    """What one payer pays for this hand when it is won on that payer's discard, under the rule
    set's payment scheme (mcr: 8 + total; doubling games: base × 2^min(fan, cap); tianjin: base
    × the hand's points, before the dealer's 坐庄 / 拉庄 factors, which only `payments` apply;
    erren: base × min(total, 13)). Null when the hand does not win.
    """
    multiplier = fields.Integer(required=True, allow_none=True)
    """For doubling games, 2^min(fan, cap); for tianjin the hand's points in the chosen table
    (default 2^fan_total, tjmj e.g. (3 + 4) × 2 × 2 = 28); for erren the capped total,
    min(total, 13); null for additive rule sets and when the hand does not win.
    """
    decomposition = fields.Nested(Decomposition, required=True, allow_none=True)
    payments = fields.Nested(Payments, required=True, allow_none=True)
    explanation = fields.Nested(Explanation)


class WaitEntry(Answer):
    """One tile that completes the hand, and the score of the completed hand won on it: the fields
    of `ScoreResponse` but `ruleset` and `payments`.
    """

    tile = fields.String(required=True)
    """The completing tile, as a canonical tile code."""
    winning = fields.Boolean(required=True)
    """The completed hand is a legal win (e.g. it reaches the minimum)."""
    reason = fields.Nested(Reason, required=True, allow_none=True)
    fans = fields.List(fields.Nested(FanResult), required=True)
    fan_total = fields.Integer(required=True)
    value = fields.Integer(required=True, allow_none=True)
    """As in `ScoreResponse`; null when not winning."""
    multiplier = fields.Integer(required=True, allow_none=True)
    """As in `ScoreResponse`."""
    decomposition = fields.Nested(Decomposition, required=True)
    explanation = fields.Nested(Explanation)


class WaitsResponse(Answer):
    ruleset = fields.String(required=True)
    ready = fields.Boolean(required=True)
    """听牌 - at least one tile completes a winning shape."""
    can_win = fields.Boolean(required=True)
    """Ready in the rule set's sense - at least one completing tile makes a legal win (the rule
    set's requirements and minimum met, e.g. changchun's three suits, 幺九 and pung); the same as
    best not being null.
    """
    waits = fields.List(fields.Nested(WaitEntry), required=True)
    """In the written order of tiles (m, p, s, honours)."""
    best = fields.Nested(WaitEntry, required=True, allow_none=True)
    """The winning entry with the highest value, then the highest fan total; null when none wins."""


class UsefulTile(Answer):
    tile = fields.String(required=True)
    """A tile that, drawn, lowers the shanten, as a canonical tile code."""
    left = fields.Integer(validate=validate.Range(min=0), required=True)
    """Its copies left: the rule set's copies less those in the hand, in `visible` and the
    flipped wild indicator where the rule set puts it out of play; in a discard row, the
    discarded tile counts as a copy seen (its kind may be listed with 0 left)."""


class DiscardRow(Answer):
    """One distinct tile of a fourteen-tile hand discarded: what the 13 left answer."""

    tile = fields.String(required=True)
    """The tile discarded."""
    void = fields.Boolean(required=True)
    """A tile of a suit the hand gives up (定缺: a rule set whose wins hold at most two suits):
    the suit the winner declared void (`context.options.void_suit`); undeclared, none in a
    hand of at most two suits, and in a hand of three the tiles of the suit it does best to
    give up. Such discards come first among equal shanten."""
    shanten = fields.Integer(required=True, allow_none=True)
    """Of the 13 left: 0 ready, 1 one tile from ready, ...; null when no shape can be made."""
    useful = fields.List(fields.Nested(UsefulTile), required=True)
    """The tiles that lower the shanten of the 13 left, in the written order of tiles, each with
    its copies left (the discarded tile counts as seen, so its kind may be listed with 0 left);
    when the 13 left are ready and their waits scored, exactly the tiles of `waits`."""
    useful_left = fields.Integer(required=True)
    """The copies left of the useful tiles, summed."""
    waits = fields.List(fields.Nested(WaitEntry), required=True, allow_none=True)
    """When the 13 left are ready: their waits as `listWaits` answers them; else null (also
    with `score_waits: false`)."""
    best = fields.Nested(WaitEntry, required=True, allow_none=True)
    """The winning wait worth most (highest value, then fan total); null when none wins."""
    can_win = fields.Boolean(required=True, allow_none=True)
    """When ready: whether some wait is a legal win (requirements and minimum met); else null."""


class AnalysisResponse(Answer):
    ruleset = fields.String(required=True)
    tiles = fields.Integer(required=True, validate=validate.OneOf((13, 14)))
    """The hand's size, declared melds counted as 3: 13 (one tile short) or 14."""
    shanten = fields.Integer(required=True, allow_none=True)
    """向听数: 0 ready, 1 one tile from ready, ...; for 14 tiles -1 when the hand is complete by
    shape (`win` may still be no win: under the minimum, a requirement missing), else the
    least shanten a discard leaves. Null when no shape can be made (定缺: declared melds hold
    three suits, or the suit the winner declared void)."""
    shapes = fields.Dict(keys=fields.String(), values=fields.Integer(allow_none=True),
                         required=True)
    """The shanten under each shape the rule set plays under the request's options (regular,
    seven_pairs, thirteen_orphans, ...); null for a shape the hand cannot make (seven pairs
    with a declared meld)."""
    useful = fields.List(fields.Nested(UsefulTile), required=True, allow_none=True)
    """13 tiles: the tiles that lower the shanten (a wild tile always does), in the written
    order of tiles; a kind the hand (and the flipped indicator) holds every copy of is never
    listed (the flipped wild indicator's kind held three times: every copy in play is in the
    hand); a ready hand's, with its waits scored, are exactly its waits' tiles. Null for 14
    tiles (see `discards`)."""
    useful_left = fields.Integer(required=True, allow_none=True)
    """13 tiles: the copies left of the useful tiles, summed; null for 14."""
    waits = fields.List(fields.Nested(WaitEntry), required=True, allow_none=True)
    """13 tiles, ready: the waits as `listWaits` answers them; else null (also with
    `score_waits: false`)."""
    best = fields.Nested(WaitEntry, required=True, allow_none=True)
    """13 tiles, ready: the winning wait worth most; null when none wins."""
    can_win = fields.Boolean(required=True, allow_none=True)
    """13 tiles, ready: whether some wait is a legal win (its requirements and the rule set's
    minimum met: a ready 国标 hand whose every wait is under 8 番 cannot win); else null."""
    win = fields.Nested(ScoreResponse, required=True, allow_none=True)
    """14 tiles at shanten -1: the hand scored as `scoreHand` scores it, won on its last
    standing tile under the request's context (`winning` false when it is complete by shape
    but no win: under the minimum, a requirement missing); else null."""
    discards = fields.List(fields.Nested(DiscardRow), required=True, allow_none=True)
    """14 tiles: one row per distinct tile held, best first: lower shanten, then a tile of a
    void suit (定缺) before others, then more useful copies left, then the better best wait
    (value, then fan total), then the written order of tiles. Null for 13 tiles."""


class SettleTransfer(Answer):
    from_ = fields.Integer(validate=validate.Range(min=0), required=True, data_key="from")
    to = fields.Integer(validate=validate.Range(min=0), required=True)
    amount = fields.Integer(validate=validate.Range(min=1), required=True)
    reason = fields.String(required=True, validate=validate.OneOf((
        "direct_kong", "added_kong", "concealed_kong", "golden_kong", "special_kong", "kong_void",
        "kong_refund", "kong_transfer", "win_discard", "win_self_draw", "pig_penalty",
        "not_ready", "tax_refund", "drawn_game_refund", "follow_dealer", "revealed_draw")))
    event = fields.Integer(validate=validate.Range(min=0), required=True)
    """The index of the event that caused it."""


class WinSummary(Answer):
    """What a win scored, as in `ScoreResponse`."""

    event = fields.Integer(validate=validate.Range(min=0), required=True)
    seat = fields.Integer(validate=validate.Range(min=0), required=True)
    fans = fields.List(fields.Nested(FanResult), required=True)
    fan_total = fields.Integer(required=True)
    value = fields.Integer(required=True, allow_none=True)
    multiplier = fields.Integer(required=True, allow_none=True)
    decomposition = fields.Nested(Decomposition, required=True, allow_none=True)


class BestWait(Answer):
    """The wait worth most (查大叫), scored for a discard win with no kong flag, not the last tile.
    """

    tile = fields.String(required=True)
    fans = fields.List(fields.Nested(FanResult), required=True)
    fan_total = fields.Integer(required=True)
    value = fields.Integer(required=True)


class DrawPlayer(Answer):
    seat = fields.Integer(validate=validate.Range(min=0), required=True)
    state = fields.String(validate=validate.OneOf(("ready", "not_ready", "pig", "passive_pig")),
                          required=True)
    best = fields.Nested(BestWait, required=True, allow_none=True)


class DrawSummary(Answer):
    event = fields.Integer(validate=validate.Range(min=0), required=True)
    players = fields.List(fields.Nested(DrawPlayer), required=True)
    """The players not yet won, in seat order."""


class SettleResponse(Answer):
    ruleset = fields.String(required=True)
    finished = fields.Boolean(required=True)
    """The round is over (a draw, or every seat but one has won)."""
    net = fields.List(fields.Integer(), required=True)
    """One entry per seat; sums to zero."""
    transfers = fields.List(fields.Nested(SettleTransfer), required=True)
    """In event order."""
    wins = fields.List(fields.Nested(WinSummary), required=True)
    draw = fields.Nested(DrawSummary, required=True, allow_none=True)


class _ScoreResult(Answer):
    result = fields.Nested(ScoreResponse, required=True)


class _WaitsResult(Answer):
    result = fields.Nested(WaitsResponse, required=True)


class _AnalysisResult(Answer):
    result = fields.Nested(AnalysisResponse, required=True)


class AnalysisBatchResponse(Answer):
    results = fields.List(OneOf(fields.Nested(_AnalysisResult), fields.Nested(BatchError)),
                          required=True)
    """One item per request, in the order of the requests."""


class ScoreBatchResponse(Answer):
    results = fields.List(OneOf(fields.Nested(_ScoreResult), fields.Nested(BatchError)),
                          required=True)
    """One item per request, in the order of the requests."""


class WaitsBatchResponse(Answer):
    results = fields.List(OneOf(fields.Nested(_WaitsResult), fields.Nested(BatchError)),
                          required=True)
    """One item per request, in the order of the requests."""


class MatchHand(_MatchHand):
    result = OneOf(fields.Nested(ScoreResponse), fields.Nested(SettleResponse), required=True,
                   allow_none=True)
    """The hand's own answer, as `score` (a win) or `settle` (a round) answers it at the
    hand's table (its seats are the table's: `seating[s]` is the player at seat s); null for
    a drawn hand."""


class MatchResponse(_MatchResponse):
    """A match scored hand by hand."""

    hands = fields.List(fields.Nested(MatchHand), required=True)
    """The request's hands, in order."""
