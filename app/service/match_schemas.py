"""The request schema of `POST /v1/rulesets/{ruleset}/match`: a match as the hands played.

A hand's own request (a win as `score` takes it, a round as `settle` takes it) is read here as
a JSON object only: the operation it stands for reads it when the hand is scored, and its
faults point into the hand (`/hands/3/win/context/discarder`).

A schema's docstring and the docstrings below its fields are its description in `openapi.yaml`
(generated from it, tools/openapi).
"""

from __future__ import annotations

from typing import Any, ClassVar

from marshmallow import ValidationError, fields

from app.rules.matches import FALSE_WIN_KINDS
from app.service.schema_fields import (
    MAX_INT,
    MSG_NOT_OBJECT,
    MSG_NULL,
    Options,
    Seat,
    StrictBool,
    StrictInt,
    StrictStr,
    _more,
    _required,
    _Strict,
    _type,
)

# The most hands one request holds: a 国标 match is 16; an open-ended match may send more in
# further requests, each with the state the one before answered.
MAX_MATCH_HANDS = 64
MAX_CLAIMS = 3  # the other players of a table of four
MAX_FALSE_WINS = 8
MAX_PENALTIES = 8
MAX_PLAYERS = 8
MAX_PENALTY_POINTS = 1_000_000
MAX_REASON_LENGTH = 200

MSG_NOT_HANDS = _type("Not a list of hands: expected a JSON array of hand objects.")


class RequestObject(fields.Field[dict[str, Any]]):
    """A JSON object read later by the operation it stands for."""

    default_error_messages = {"invalid": MSG_NOT_OBJECT, "null": MSG_NULL}  # noqa: RUF012

    def __init__(self, *, stands_for: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.stands_for = stands_for  # the contract's component of the request it is

    def _deserialize(self, value: Any, attr: str | None, data: Any,
                     **kwargs: Any) -> dict[str, Any]:
        if type(value) is not dict:
            raise self.make_error("invalid")
        return value


class PlayerList(fields.Field[list[Any]]):
    """A list of 1 to `maximum` objects, each read by `schema`."""

    default_error_messages = {"null": MSG_NULL}  # noqa: RUF012

    def __init__(self, schema: _Strict, maximum: int, what: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.schema = schema
        self.maximum = maximum
        self.what = what

    def _deserialize(self, value: Any, attr: str | None, data: Any,
                     **kwargs: Any) -> list[Any]:
        if type(value) is not list:
            raise ValidationError(_type(f"Not a list: expected a JSON array of {self.what}."))
        if len(value) > self.maximum:
            raise ValidationError(_more(self.maximum, self.what))
        out: list[Any] = []
        errors: dict[int, Any] = {}
        for i, item in enumerate(value):
            try:
                out.append(self.schema.load(item))
            except ValidationError as exc:
                errors[i] = exc.messages
        if errors:
            raise ValidationError(errors)
        return out


class Player(Seat):
    """A player, numbered from 0 by the seat each held at the start of the match (player 0 at
    东位 where the game has winds)."""

    contract_name: ClassVar[str] = "Player"


_PLAYER_REQUIRED = _required("the player (from 0, by the seat held at the start).")


class ClaimSchema(_Strict):
    """One player's claim of the discard: the hand as `score` takes it, the context's
    `winner` and `discarder` being players."""

    what = "a claim"
    win = RequestObject(stands_for="ScoreRequest", required=True, error_messages={
        "required": _required("the claimed win, as the score request takes it.")})


class ClaimsSchema(_Strict):
    """Several players claim one discard to win on it. Where one discard has one winner (截和)
    the claims are taken in turn order from the discarder: the first legal win stands, a claim
    before it that is no win is a false win, a claim after it is passed over."""

    what = "the claims"
    discarder = Player(required=True, error_messages={"required": _required(
        "the player whose discard is claimed.")})
    claims = PlayerList(ClaimSchema(), MAX_CLAIMS, "claims", required=True,
                        error_messages={"required": _required(
                            "the claims, 2 or more objects with a win each.")})


class DrawnSchema(_Strict):
    """Nobody won the hand (荒庄)."""

    what = "a drawn hand"
    last_drawer = Player(allow_none=True)
    """Who drew the last tile, where the deal then goes to that player (kawuxing, option draw
    last_drawer)."""


class FalseWinSchema(_Strict):
    """A false win (诈和): the claimed hand, which the service classifies (`wrong_shape`: a
    complete hand that does not win, 错和; `wrong_tile`: a ready hand claiming a tile it does
    not wait on, 和错牌; `not_ready`: 诈和), or its `kind` when the hand is not sent."""

    what = "a false win"
    player = Player(required=True, error_messages={"required": _PLAYER_REQUIRED})
    kind = StrictStr(allow_none=True, choices=FALSE_WIN_KINDS)
    win = RequestObject(stands_for="ScoreRequest", allow_none=True)
    """The claimed win as the score request takes it (`winner` and `discarder` players)."""


class PenaltySchema(_Strict):
    """罚分 a referee gives: deducted from the player, paid to nobody, or with `to` paid to
    that player."""

    what = "a penalty"
    player = Player(required=True, error_messages={"required": _PLAYER_REQUIRED})
    points = StrictInt(minimum=1, maximum=MAX_PENALTY_POINTS, required=True,
                       error_messages={"required": _required("the points, from 1.")})
    to = Player(allow_none=True)
    reason = StrictStr(allow_none=True, max_length=MAX_REASON_LENGTH)


class MatchHandSchema(_Strict):
    """One hand of the match: exactly one of `win`, `round`, `claims` and `drawn`, what
    happened besides (`false_wins`, `penalties`), and, to be checked, the dealer the client
    expects."""

    what = "a hand of the match"
    win = RequestObject(stands_for="ScoreRequest", allow_none=True)
    """The winning hand as `score` takes it; `context.winner`, `discarder` (and `flipper`)
    are players. The service fills in the dealer and, where the game has winds, the winds;
    given, they must be the derived ones."""
    round = RequestObject(stands_for="SettleRequest", allow_none=True)
    """The hand as a round of events, as `settle` takes it (rule sets that settle rounds);
    its seats are players. The service fills in the dealer."""
    claims = fields.Nested(ClaimsSchema, allow_none=True)
    drawn = fields.Nested(DrawnSchema, allow_none=True)
    false_wins = PlayerList(FalseWinSchema(), MAX_FALSE_WINS, "false wins", allow_none=True)
    penalties = PlayerList(PenaltySchema(), MAX_PENALTIES, "penalties", allow_none=True)
    dealer = Player(allow_none=True)
    """The dealer the client expects: refused (`inconsistent_dealer`) when it is not the
    derived one."""


class HandList(fields.Field[list[Any]]):
    """The hands, 1 to MAX_MATCH_HANDS, in the order played."""

    default_error_messages = {"null": MSG_NULL}  # noqa: RUF012

    def _deserialize(self, value: Any, attr: str | None, data: Any,
                     **kwargs: Any) -> list[Any]:
        if type(value) is not list:
            raise ValidationError(MSG_NOT_HANDS)
        if not value:
            raise ValidationError("Empty: a match request holds 1 to "
                                  f"{MAX_MATCH_HANDS} hands.")
        if len(value) > MAX_MATCH_HANDS:
            raise ValidationError(_more(MAX_MATCH_HANDS, "hands") + " Send the rest in "
                                  "further requests, each with the state answered before.")
        schema = MATCH_HAND
        out: list[Any] = []
        errors: dict[int, Any] = {}
        for i, item in enumerate(value):
            try:
                out.append(schema.load(item))
            except ValidationError as exc:
                errors[i] = exc.messages
        if errors:
            raise ValidationError(errors)
        return out


class Totals(fields.Field[list[int]]):
    """One integer per player."""

    def _deserialize(self, value: Any, attr: str | None, data: Any,
                     **kwargs: Any) -> list[int]:
        if (type(value) is not list or len(value) > MAX_PLAYERS
                or any(type(v) is not int for v in value)):
            raise ValidationError(_type("Not a list of integers, one per player."))
        return list(value)


class MatchStateSchema(_Strict):
    """Where a match stands between two hands, as an answer's `state` gives it: posted with
    the next hands, it answers what posting the whole match would."""

    what = "the match state"
    hands = StrictInt(minimum=0, maximum=MAX_INT, required=True)
    dealer = Player(required=True)
    circle = StrictInt(minimum=0, maximum=MAX_INT, required=True)
    dealerships = StrictInt(minimum=1, maximum=MAX_INT, required=True)
    repeat = StrictInt(minimum=0, maximum=MAX_INT, required=True)
    totals = Totals(required=True)
    deducted = Totals(required=True)
    ended = StrictBool(required=True)


class MatchRequestSchema(_Strict):
    """A match, or its next hands after a `state`."""

    what = "a match request"
    first_dealer = Player(allow_none=True)
    """Who deals the first hand (default 0; where players change seats by 圈, 0: the player
    at 东位)."""
    options = Options(allow_none=True)
    """The rule set's options, for every hand (a hand's request may add its own)."""
    match_options = Options(allow_none=True)
    """The match's own options (the rule set's document lists them under `match`)."""
    state = fields.Nested(MatchStateSchema, allow_none=True)
    hands = HandList(required=True, error_messages={"required": _required(
        f"the hands played, a JSON array of 1 to {MAX_MATCH_HANDS} hand objects.")})


MATCH_HAND = MatchHandSchema()
MATCH_REQUEST = MatchRequestSchema()
