"""The request schema of `POST /v1/rulesets/{ruleset}/match`: a match as the hands played.

A hand's own request (a win as `score` takes it, a round as `settle` takes it) is read here as
a JSON object only: the operation it stands for reads it when the hand is scored, and its
faults point into the hand (`/hands/3/win/context/discarder`).

A schema's docstring and the docstrings below its fields are its description in `openapi.yaml`
(generated from it, tools/openapi).
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from marshmallow import fields, validate

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
    _required,
    _Strict,
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
MAX_POINTS = 10**12  # a running total's bound: keeps absurd numbers out

class RequestObject(fields.Field[dict[str, Any]]):
    """A JSON object read later by the operation it stands for."""

    default_error_messages = {"invalid": MSG_NOT_OBJECT, "null": MSG_NULL}  # noqa: RUF012

    def __init__(self, *, stands_for: str, **kwargs: Any) -> None:
        # The contract writes it as the request it stands for (a component's name).
        kwargs.setdefault("metadata", {})["json_schema"] = {
            "$ref": f"#/components/schemas/{stands_for}"}
        super().__init__(**kwargs)
        self.stands_for = stands_for

    def _deserialize(self, value: Any, attr: str | None, data: Any,
                     **kwargs: Any) -> dict[str, Any]:
        if type(value) is not dict:
            raise self.make_error("invalid")
        return value


class Player(Seat):
    """A player, numbered from 0 by the seat each held at the start of the match (player 0 at
    东位 where the game has winds)."""

    contract_name: ClassVar[str] = "Player"


_PLAYER_REQUIRED = _required("the player (from 0, by the seat held at the start).")


def _objects(schema: type[_Strict], maximum: int, *, minimum: int | None = None,
             **kwargs: Any) -> fields.List[Any]:
    return fields.List(fields.Nested(schema), validate=validate.Length(min=minimum,
                                                                       max=maximum), **kwargs)


class _MatchStateSchema(_Strict):
    """Where a match stands between two hands, as an answer's `state` gives it: posted with
    the next hands, it answers what posting the whole match would."""

    what = "the match state"
    hands = StrictInt(minimum=0, maximum=MAX_INT, required=True)
    dealer = Player(required=True)
    circle = StrictInt(minimum=0, maximum=MAX_INT, required=True)
    dealerships = StrictInt(minimum=1, maximum=MAX_INT, required=True)
    repeat = StrictInt(minimum=0, maximum=MAX_INT, required=True)
    totals = fields.List(StrictInt(minimum=-MAX_POINTS, maximum=MAX_POINTS), required=True,
                         validate=validate.Length(max=MAX_PLAYERS))
    deducted = fields.List(StrictInt(minimum=0, maximum=MAX_POINTS), required=True,
                           validate=validate.Length(max=MAX_PLAYERS))
    ended = StrictBool(required=True)


class DrawnHandSchema(_Strict):
    """Nobody won the hand (荒庄)."""

    what = "a drawn hand"
    last_drawer = Player(allow_none=True)
    """Who drew the last tile, where the deal then goes to that player (kawuxing, match option
    draw: last_drawer)."""


class PenaltySchema(_Strict):
    """罚分 a referee gives: deducted from the player, paid to nobody, or with `to` paid to
    that player."""

    what = "a penalty"
    player = Player(required=True, error_messages={"required": _PLAYER_REQUIRED})
    points = StrictInt(minimum=1, maximum=MAX_PENALTY_POINTS, required=True,
                       error_messages={"required": _required("the points, from 1.")})
    to = Player(allow_none=True)
    reason = StrictStr(allow_none=True, max_length=MAX_REASON_LENGTH)


class MatchSchemas(NamedTuple):
    """A family's match request and the objects of it that name the family's requests."""

    request: _Strict
    parts: tuple[tuple[str, _Strict], ...]  # (component name, schema) of each of them


def match_schemas(prefix: str, score: str, settle: str | None) -> MatchSchemas:
    """The match request of a family whose score request is the component `score` and whose
    settle request is `settle` (None: it settles no rounds), the objects naming them called
    with `prefix` (a drawn hand and a penalty are every family's)."""
    claim, claims = _claim_schemas(score)
    false_win = _false_win_schema(score)
    hand = _hand_schema(score, settle, claims, false_win)

    class MatchRequestSchema(_Strict):
        """A match, or its next hands after a `state`."""

        what = "a match request"
        first_dealer = Player(allow_none=True)
        """Who deals the first hand (default 0; where players change seats by 圈, 0: the
        player at 东位)."""
        options = Options(allow_none=True)
        """The rule set's options, for every hand (a hand's request may add its own)."""
        match_options = Options(allow_none=True)
        """The match's own options (the rule set's document lists them under `match`)."""
        state = fields.Nested(_MatchStateSchema, allow_none=True)
        hands = _objects(hand, MAX_MATCH_HANDS, minimum=1, required=True, error_messages={
            "required": _required(f"the hands played, a JSON array of 1 to {MAX_MATCH_HANDS} "
                                  "hand objects.")})

    classes: list[tuple[str, type[_Strict]]] = [
        ("Claim", claim), ("Claims", claims), ("FalseWin", false_win), ("PlayedHand", hand),
        ("MatchRequest", MatchRequestSchema)]
    for name, cls in classes:
        cls.__name__ = f"{prefix}{name}Schema"  # its component's name (tools/openapi)
    parts = tuple((f"{prefix}{name}", cls()) for name, cls in classes)
    return MatchSchemas(parts[-1][1], parts)


def _claim_schemas(score: str) -> tuple[type[_Strict], type[_Strict]]:
    class ClaimSchema(_Strict):
        """One player's claim of the discard: the win as `score` takes it, the context's
        `winner` and `discarder` being players."""

        what = "a claim"
        win = RequestObject(stands_for=score, required=True, error_messages={
            "required": _required("the claimed win, as the score request takes it.")})

    class ClaimsSchema(_Strict):
        """Several players claim one discard to win on it. Where one discard has one winner
        (截和) the claims are taken in turn order from the discarder: the first legal win
        stands, a claim before it that is no win is a false win, a claim after it passes."""

        what = "the claims"
        discarder = Player(required=True, error_messages={"required": _required(
            "the player whose discard is claimed.")})
        claims = _objects(ClaimSchema, MAX_CLAIMS, minimum=2, required=True, error_messages={
            "required": _required("the claims, 2 or more objects with a win each.")})

    return ClaimSchema, ClaimsSchema


def _false_win_schema(score: str) -> type[_Strict]:
    class FalseWinSchema(_Strict):
        """A false win (诈和): the claimed win, which the service classifies (`wrong_shape`: a
        complete hand that does not win, 错和; `wrong_tile`: a ready hand claiming a tile it
        does not wait on, 和错牌; `not_ready`: 诈和), or its `kind` when it is not sent."""

        what = "a false win"
        player = Player(required=True, error_messages={"required": _PLAYER_REQUIRED})
        kind = StrictStr(allow_none=True, choices=FALSE_WIN_KINDS)
        win = RequestObject(stands_for=score, allow_none=True)
        """The claimed win as the score request takes it (`winner` and `discarder`
        players)."""

    return FalseWinSchema


def _hand_schema(score: str, settle: str | None, claims_schema: type[_Strict],
                 false_win_schema: type[_Strict]) -> type[_Strict]:
    class PlayedHandSchema(_Strict):
        """One hand of the match: exactly one of `win`, `claims`, `drawn` (and `round`
        where the rule set settles rounds), what happened besides (`false_wins`,
        `penalties`), and the dealer the client expects, to be checked."""

        what = "a hand of the match"
        win = RequestObject(stands_for=score, allow_none=True)
        """The winning hand as `score` takes it; `context.winner`, `discarder` (and
        `flipper`) are players. The service fills in the dealer and, where the game has
        winds, the winds; given, they must be the derived ones."""
        claims = fields.Nested(claims_schema, allow_none=True)
        drawn = fields.Nested(DrawnHandSchema, allow_none=True)
        false_wins = _objects(false_win_schema, MAX_FALSE_WINS, allow_none=True)
        penalties = _objects(PenaltySchema, MAX_PENALTIES, allow_none=True)
        dealer = Player(allow_none=True)
        """The dealer the client expects: refused (`inconsistent_dealer`) when it is not
        the derived one."""

    if settle is None:
        return PlayedHandSchema
    settled: str = settle

    class SettlingHandSchema(PlayedHandSchema):
        __doc__ = PlayedHandSchema.__doc__
        what = "a hand of the match"
        round = RequestObject(stands_for=settled, allow_none=True)
        """The hand as a round of events, as `settle` takes it; its seats are players. The
        service fills in the dealer."""

    return SettlingHandSchema


# The tile games' (and what every match request is read with: a family without rounds
# refuses a round as a kind of hand it cannot play, `wrong_hand_kind`).
TILE_MATCH = match_schemas("", "ScoreRequest", "SettleRequest")
MATCH_REQUEST = TILE_MATCH.request
