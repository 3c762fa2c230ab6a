"""The request schema of `POST /v1/rulesets/{ruleset}/settle`: a round as events.

A schema's docstring and the docstrings below its fields are its description in `openapi.yaml`
(generated from it, tools/openapi).
"""

from __future__ import annotations

from typing import Any, ClassVar

from marshmallow import Schema, ValidationError, fields, validate

from app.domain.events import EVENT_KONG_KINDS, EVENT_TYPES, FOLLOWS
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
    WildIndicator,
    WildTiles,
    _more,
    _one_of,
    _required,
    _Strict,
)
from app.service.tiles.request_schemas import (
    _CONTEXT_REQUIRED,
    _HAND_REQUIRED,
    ContextSchema,
    HandField,
    WaitingHandField,
)

# --- the settle request: a round as events --------------------------------------------

# A special kong's three tiles in any notation (three Chinese names, `1m1p1s`, `1z2z3z`).
MAX_SPECIAL_KONG_TEXT = 24

_SEAT_REQUIRED = _required("the seat number (from 0).")


def _event_type(name: str) -> StrictStr:
    return StrictStr(required=True, choices=(name,), error_messages={
        "required": _required(", ".join(EVENT_TYPES) + ".")})


def _kong_kind(*kinds: str) -> StrictStr:
    return StrictStr(required=True, choices=kinds,
                     error_messages={"required": _required(", ".join(EVENT_KONG_KINDS) + ".")})


class KongFollows(StrictStr):
    """How this kong follows the kong of the event right before it (reveal events aside), if it
    does (杠上杠): `kong_discard`, a direct kong on the discard that kong's maker made next;
    `kong_replacement`, an added or concealed kong by that kong's maker straight after the
    replacement draw. It is then the next kong of a chain; where the settlement says
    `kong_chain_doubling` (kawuxing), the n-th kong of a chain earns 2^(n-1) times its money. A
    `follows` that does not fit the kong before it is 422 `inconsistent_event`.
    """

    contract_name: ClassVar[str] = "KongFollows"


class KongEventSchema(_Strict):
    # A kong of a kind this request does not name rightly: only `kind` can be refused. Each
    # kind has its own schema below (`Event` picks it by `kind`), which takes only that kind.
    what = "a kong event"
    type = _event_type("kong")
    seat = Seat(required=True, error_messages={"required": _SEAT_REQUIRED})
    kind = _kong_kind(*EVENT_KONG_KINDS)
    tile = TileCode(required=True, error_messages={
        "required": _required('the konged tile, one tile code such as "5m".')})
    # 杠上杠: how this kong follows the kong of the event right before it, if it does.
    follows = KongFollows(allow_none=True, choices=FOLLOWS)


class DirectKongEventSchema(KongEventSchema):
    """点杠 - a kong on another player's discard."""

    what = "a direct kong event"
    kind = _kong_kind("direct")
    discarder = Seat(required=True, error_messages={"required": _required(
        "a direct kong (点杠) names the seat whose discard was konged.")})
    """Whose discard was konged (not the kong's own seat)."""


class AddedKongEventSchema(KongEventSchema):
    """加杠 - a tile added to the seat's own declared pung."""

    what = "an added kong event"
    kind = _kong_kind("added")
    fresh = StrictBool(required=True, error_messages={"required": _required(
        "an added kong (加杠) says whether the added tile is the one just drawn (true or "
        "false).")})
    """The added tile is the one just drawn (及时雨; sichuan pays only then, and kawuxing refuses
    an added kong of a tile held earlier: 422 `forbidden_event`)."""


class ConcealedKongEventSchema(KongEventSchema):
    """暗杠 - four tiles of the seat's own, declared concealed."""

    what = "a concealed kong event"
    kind = _kong_kind("concealed")


class SpecialKongEventSchema(_Strict):
    """A special kong - three different tiles laid out together, for rule sets whose settlement
    defines them (changchun: 幺九杠 1m1p1s or 9m9p9s, 旋风杠 three different winds, 喜杠 CFP,
    1s standing in for one tile of any); each other player pays the settlement's amount.
    Elsewhere 422 `invalid_field`; three tiles that make none of them, 422 `illegal_meld`.
    """

    what = "a special kong event"
    type = _event_type("kong")
    seat = Seat(required=True, error_messages={"required": _SEAT_REQUIRED})
    kind = _kong_kind("special")
    tiles = StrictStr(required=True, max_length=MAX_SPECIAL_KONG_TEXT, error_messages={
        "required": _required('the three tiles laid out, in tile notation such as "1m1p1s".')})
    """The three tiles laid out, in tile notation (`1m1p1s`, `ESW`, `CF1s`); they are no meld
    of the hand, which goes on without them."""


class WinEventContextSchema(ContextSchema):
    """The context of a win as in `Context`, without `winner` (the event's seat) and `options`
    (the round's).
    """

    class Meta(ContextSchema.Meta):
        exclude = ("winner", "options")


class WinEventSchema(_Strict):
    """A win; the hand must be a legal win (else `not_a_win`)."""

    what = "a win event"
    type = _event_type("win")
    seat = Seat(required=True, error_messages={"required": _SEAT_REQUIRED})
    hand = HandField(required=True, error_messages={"required": _HAND_REQUIRED})
    # As in a score request, but the event's seat is the winner and the options are the
    # round's.
    context = fields.Nested(WinEventContextSchema(), required=True,
                            error_messages={"required": _CONTEXT_REQUIRED, "null": MSG_NULL})


class DrawHandSchema(_Strict):
    what = "a hand at the draw"
    seat = Seat(required=True, error_messages={"required": _SEAT_REQUIRED})
    hand = WaitingHandField(required=True, error_messages={"required": _required(
        "the hand the seat shows, one tile short of a win.")})
    """The seat's hand, one tile short of a win, declaring exactly the seat's kongs."""
    passive_pig = StrictBool(allow_none=True)
    """A pig (all three suits) that only ever discarded its void suit; default false."""


class DrawEventSchema(_Strict):
    """The wall runs out; every seat not yet won shows its hand, once."""

    what = "a draw event"
    type = _event_type("draw")
    hands = fields.List(fields.Nested(DrawHandSchema()), required=True,
                        validate=validate.Length(max=MAX_DRAW_HANDS,
                                                 error=_more(MAX_DRAW_HANDS, "hands")),
                        error_messages={"invalid": MSG_NOT_DRAW_HANDS, "null": MSG_NULL,
                                        "required": _required(
                                            "the hand of every seat not yet won.")})


class FollowDealerEventSchema(_Strict):
    """跟庄 (天津 铲): every other player followed the dealer's first discard. Paid after the rest
    of the round, won or drawn: the dealer pays each other player the settlement's
    `follow_dealer` amount, with the seat factor (坐庄 / 拉庄). At most once, before any win;
    only for rule sets whose settlement has `follow_dealer` (else 422 `invalid_field`).
    """

    what = "a follow_dealer event"
    type = _event_type("follow_dealer")


class RevealEventSchema(_Strict):
    """亮倒: the seat reveals its ready hand. Every later win of the round is scored with the
    seats revealed by then (the settlement's per-seat option, which the request's options may
    then not give: 422 `invalid_option`); at a drawn game revealed players pay those who have
    not revealed, as the settlement says. At most once per seat, by a seat still in the round;
    only for rule sets whose settlement has `reveal` (else 422 `invalid_field`). A reveal
    separates nothing: a win after a kong and a reveal still follows the kong.
    """

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
    "concealed": ConcealedKongEventSchema(), "special": SpecialKongEventSchema(),
}
_ANY_KONG = KongEventSchema()
_EVENT_TYPE_REQUIRED = _required(", ".join(EVENT_TYPES) + ".")


class Event(fields.Field[Any]):
    """One event of a round, by `type` (and for a kong, `kind`)."""

    # kong, win, draw, follow_dealer or reveal; the contract lists the schemas of
    # `_KONG_SCHEMAS` and `_EVENT_SCHEMAS` as its alternatives.
    contract_name: ClassVar[str] = "SettleEvent"

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
    """The round's dealer (default 0), for every event: kong and 跟庄 money between the dealer and
    another player, the wins' `context.dealer` (a win may repeat it, not differ:
    `inconsistent_event`) and per-seat options whose dealer entry is fixed.
    """
    wild_indicator = WildIndicator(allow_none=True)
    """The round's flipped 混 tile, for rule sets with wild tiles (tianjin): it goes into every
    win's context and every hand at the draw (a win may repeat it, not differ:
    `inconsistent_event`); a concealed kong of four wild tiles is a 金杠.
    """
    wilds = WildTiles(allow_none=True)
    """The round's wild tiles given explicitly, for rule sets that take them so."""
    events = fields.List(Event(), required=True,
                         validate=validate.Length(max=MAX_EVENTS,
                                                  error=_more(MAX_EVENTS, "events")),
                         error_messages={"invalid": MSG_NOT_EVENTS, "null": MSG_NULL,
                                         "required": _required(
                                             "the round's events in order (kong, win, draw, "
                                             "follow_dealer, reveal).")})
    """In the order they happened (a round has at most 27 kongs, 3 wins and a draw)."""


SETTLE_REQUEST = SettleRequestSchema()


def load_settle_request(body: dict[str, Any]) -> dict[str, Any]:
    """Validate a settle request body; raises `ValidationError`."""
    result: dict[str, Any] = SETTLE_REQUEST.load(body)
    return result
