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


# --- a match (`POST .../match`): the shapes every family's match answer shares -------------


class MatchTable(Answer):
    """A hand's table: who deals, where the players sit, the winds."""

    number = fields.Integer(required=True)
    """The hand's number in the match, from 1."""
    dealer = fields.Integer(required=True)
    """The player who deals (players are numbered by the seat each held at the start)."""
    repeat = fields.Integer(required=True)
    """How many hands in a row the dealer dealt before this one (连庄; priced nowhere)."""
    circle = fields.Integer(required=True)
    """The 圈, from 0: how many times the deal has gone round the table."""
    round_wind = fields.String(required=True, allow_none=True)
    """The prevailing wind (E S W N), where the game's hands have winds."""
    seating = fields.List(fields.Integer(), required=True)
    """The player at each seat, in turn order (东位 南位 西位 北位 where there are winds)."""
    seat_winds = fields.List(fields.String(), required=True, allow_none=True)
    """Each player's seat wind (the dealer holds E), where the game's hands have winds."""


class MatchClaim(Answer):
    """One claim of a discard several players claimed (截和)."""

    player = fields.Integer(required=True)
    outcome = fields.String(required=True, validate=validate.OneOf(("won", "false", "passed")))
    """`won`: the first legal win in turn order from the discarder; `false`: a claim before it
    that was no win (a false win, priced as such); `passed`: a claim after it, unpunished."""
    kind = fields.String(validate=validate.OneOf(("wrong_shape", "wrong_tile", "not_ready")))
    """A false claim's kind."""


class MatchFalseWin(Answer):
    """A false win and what it cost."""

    player = fields.Integer(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(
        ("wrong_shape", "wrong_tile", "not_ready")))
    """`wrong_shape`: a complete hand that does not win (错和); `wrong_tile`: a ready hand
    claiming a tile it does not wait on (和错牌); `not_ready`: 诈和."""
    net = fields.List(fields.Integer(), required=True)
    """Points paid between players, by player."""
    deducted = fields.List(fields.Integer(), required=True)
    """Points deducted, paid to nobody, by player."""
    kongs_returned = fields.Integer(required=True)
    """The offender's kong money of the hand given back to those who paid it, where the rules
    void it on a false win (四川, 长春; part of `net`); 0 elsewhere."""


class MatchPenalty(Answer):
    """A penalty (罚分) as the request gave it."""

    player = fields.Integer(required=True)
    points = fields.Integer(required=True)
    to = fields.Integer(required=True, allow_none=True)
    """Paid to this player; null: deducted, paid to nobody."""
    reason = fields.String(required=True, allow_none=True)


class MatchStandings(Answer):
    """The match as it stands after its last hand."""

    totals = fields.List(fields.Integer(), required=True)
    """Each player's running total (points won and lost, less deductions)."""
    deducted = fields.List(fields.Integer(), required=True)
    """Of which deducted, paid to nobody: why a table's totals may not sum to zero."""
    base_points = fields.Integer(required=True)
    """Each player's points at the start (国标's 基础比赛分; 0 where the game has none)."""
    points = fields.List(fields.Integer(), required=True)
    """base_points + totals (国标's 局分)."""
    ranks = fields.List(fields.Integer(), required=True)
    """Each player's place, 1 first; players with equal points share the best place they
    cover."""
    table_points = fields.List(fields.Float(), required=True, allow_none=True)
    """The points each player's place earns (国标's 标准分 4/2/1/0, the SBR 盘分 4/3/2/1), tied
    players sharing the mean of the places they cover (2 decimals); null where the game has
    none."""


class MatchState(Answer):
    """Where the match stands: post it with the next hands (as `state`) to go on."""

    hands = fields.Integer(required=True)
    dealer = fields.Integer(required=True)
    circle = fields.Integer(required=True)
    dealerships = fields.Integer(required=True)
    repeat = fields.Integer(required=True)
    totals = fields.List(fields.Integer(), required=True)
    deducted = fields.List(fields.Integer(), required=True)
    ended = fields.Boolean(required=True)


class _MatchHand(MatchTable):
    """One hand of the match: its table, what came of it, and the running totals."""

    kind = fields.String(required=True, validate=validate.OneOf(
        ("win", "claims", "round", "drawn")))
    winners = fields.List(fields.Integer(), required=True)
    """The hand's first winners: one, several on one discard (一炮多响), or none."""
    discarder = fields.Integer(required=True, allow_none=True)
    """The first win's discarder (null: self-drawn, or no win)."""
    claims = fields.List(fields.Nested(MatchClaim), required=True)
    false_wins = fields.List(fields.Nested(MatchFalseWin), required=True)
    penalties = fields.List(fields.Nested(MatchPenalty), required=True)
    net = fields.List(fields.Integer(), required=True)
    """Each player's points from the hand: its own answer's, its false wins' and penalties'
    paid between players (sums to zero)."""
    deducted = fields.List(fields.Integer(), required=True)
    """Each player's points deducted in the hand, paid to nobody."""
    totals = fields.List(fields.Integer(), required=True)
    """Each player's running total after the hand."""


class _MatchResponse(Answer):
    ruleset = fields.String(required=True)
    match_options = fields.Dict(keys=fields.String(), required=True, metadata={
        "json_schema": {"type": "object"}})
    """The match's options, each with the value it took (the default when not given)."""
    standings = fields.Nested(MatchStandings, required=True)
    ended = fields.Boolean(required=True)
    """The match is over (its last hand, or the deal would pass past its last dealership)."""
    next = fields.Nested(MatchTable, required=True, allow_none=True)
    """The next hand's table; null when the match has ended."""
    state = fields.Nested(MatchState, required=True)
