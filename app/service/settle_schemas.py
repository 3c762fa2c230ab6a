"""The request schema of `POST /v1/rulesets/{ruleset}/settle`: a round as events.

A schema's docstring and the docstrings below its fields are its description in `openapi.yaml`
(generated from it, tools/openapi).
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from app.domain.events import EVENT_TYPES, FOLLOWS, KONG_KINDS
from app.service.schema_fields import (
    MAX_DRAW_HANDS,
    MAX_EVENTS,
    MSG_NOT_DRAW_HANDS,
    MSG_NOT_EVENT,
    MSG_NOT_EVENTS,
    MSG_NULL,
    Options,
    Seat,
    StrictBool,
    StrictStr,
    TileCode,
    WildTiles,
    _more,
    _one_of,
    _required,
    _Strict,
)
from app.service.schemas import (
    _CONTEXT_REQUIRED,
    _HAND_REQUIRED,
    ContextSchema,
    HandField,
    WaitingHandField,
)

# --- the settle request: a round as events --------------------------------------------

_SEAT_REQUIRED = _required("the seat number (from 0).")


def _event_type(name: str) -> StrictStr:
    return StrictStr(required=True, choices=(name,), error_messages={
        "required": _required(", ".join(EVENT_TYPES) + ".")})


class KongEventSchema(_Strict):
    """A kong of a kind this request does not name rightly: only `kind` can be refused."""

    what = "a kong event"
    type = _event_type("kong")
    seat = Seat(required=True, error_messages={"required": _SEAT_REQUIRED})
    kind = StrictStr(required=True, choices=KONG_KINDS,
                     error_messages={"required": _required(", ".join(KONG_KINDS) + ".")})
    tile = TileCode(required=True, error_messages={
        "required": _required('the konged tile, one tile code such as "5m".')})
    # 杠上杠: how this kong follows the kong of the event right before it, if it does.
    follows = StrictStr(allow_none=True, choices=FOLLOWS)


class DirectKongEventSchema(KongEventSchema):
    """点杠: on another player's discard, which `discarder` names."""

    what = "a direct kong event"
    discarder = Seat(required=True, error_messages={"required": _required(
        "a direct kong (点杠) names the seat whose discard was konged.")})


class AddedKongEventSchema(KongEventSchema):
    """加杠: a tile added to one's own pung; `fresh`: it is the tile just drawn."""

    what = "an added kong event"
    fresh = StrictBool(required=True, error_messages={"required": _required(
        "an added kong (加杠) says whether the added tile is the one just drawn (true or "
        "false).")})


class ConcealedKongEventSchema(KongEventSchema):
    what = "a concealed kong event"


class WinEventSchema(_Strict):
    what = "a win event"
    type = _event_type("win")
    seat = Seat(required=True, error_messages={"required": _SEAT_REQUIRED})
    hand = HandField(required=True, error_messages={"required": _HAND_REQUIRED})
    # As in a score request, but the event's seat is the winner and the options are the
    # round's.
    context = fields.Nested(ContextSchema(exclude=("winner", "options")), required=True,
                            error_messages={"required": _CONTEXT_REQUIRED, "null": MSG_NULL})


class DrawHandSchema(_Strict):
    what = "a hand at the draw"
    seat = Seat(required=True, error_messages={"required": _SEAT_REQUIRED})
    hand = WaitingHandField(required=True, error_messages={"required": _required(
        "the hand the seat shows, one tile short of a win.")})
    passive_pig = StrictBool(allow_none=True)


class DrawEventSchema(_Strict):
    what = "a draw event"
    type = _event_type("draw")
    hands = fields.List(fields.Nested(DrawHandSchema()), required=True,
                        validate=validate.Length(max=MAX_DRAW_HANDS,
                                                 error=_more(MAX_DRAW_HANDS, "hands")),
                        error_messages={"invalid": MSG_NOT_DRAW_HANDS, "null": MSG_NULL,
                                        "required": _required(
                                            "the hand of every seat not yet won.")})


class FollowDealerEventSchema(_Strict):
    """跟庄 (天津 铲): every other player followed the dealer's first discard."""

    what = "a follow_dealer event"
    type = _event_type("follow_dealer")


class RevealEventSchema(_Strict):
    """亮倒: a seat reveals its ready hand."""

    what = "a reveal event"
    type = _event_type("reveal")
    seat = Seat(required=True, error_messages={"required": _SEAT_REQUIRED})


_EVENT_SCHEMAS: dict[str, Schema] = {
    "win": WinEventSchema(), "draw": DrawEventSchema(), "follow_dealer": FollowDealerEventSchema(),
    "reveal": RevealEventSchema(),
}
# A kong by its kind: each kind has the fields it takes.
_KONG_SCHEMAS: dict[str, Schema] = {
    "direct": DirectKongEventSchema(), "added": AddedKongEventSchema(),
    "concealed": ConcealedKongEventSchema(),
}
_ANY_KONG = KongEventSchema()
_EVENT_TYPE_REQUIRED = _required(", ".join(EVENT_TYPES) + ".")


class Event(fields.Field[Any]):
    """One event of a round, by its `type`: kong, win, draw, follow_dealer or reveal."""

    default_error_messages = {"invalid": MSG_NOT_EVENT}  # noqa: RUF012

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if type(value) is not dict:
            raise self.make_error("invalid")
        kind = value.get("type")
        if kind == "kong":
            kong = value.get("kind")
            by_kind = _KONG_SCHEMAS.get(kong) if type(kong) is str else None
            return (by_kind or _ANY_KONG).load(value)
        schema = _EVENT_SCHEMAS.get(kind) if type(kind) is str else None
        if schema is None:
            if "type" not in value:
                raise ValidationError({"type": [_EVENT_TYPE_REQUIRED]})
            raise ValidationError({"type": [_one_of(EVENT_TYPES)]})
        return schema.load(value)


class SettleRequestSchema(_Strict):
    what = "a settle request"
    options = Options(allow_none=True)
    # The round's dealer and flipped wild tile, given once for every event.
    dealer = Seat(allow_none=True)
    wild_indicator = TileCode(allow_none=True)
    wilds = WildTiles(allow_none=True)
    events = fields.List(Event(), required=True,
                         validate=validate.Length(max=MAX_EVENTS,
                                                  error=_more(MAX_EVENTS, "events")),
                         error_messages={"invalid": MSG_NOT_EVENTS, "null": MSG_NULL,
                                         "required": _required(
                                             "the round's events in order (kong, win, draw, "
                                             "follow_dealer, reveal).")})


SETTLE_REQUEST = SettleRequestSchema()


def load_settle_request(body: dict[str, Any]) -> dict[str, Any]:
    """Validate a settle request body; raises `ValidationError`."""
    result: dict[str, Any] = SETTLE_REQUEST.load(body)
    return result
