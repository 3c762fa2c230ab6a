"""The request schemas of the tile games' score and waits requests, and of a batch of them.

The building blocks (the strict object schema, the field classes, the limits and messages) are
`app.service.schema_fields`; the settle request's are `app.service.settle_schemas`. A schema's
docstring and the docstrings below its fields are its description in `openapi.yaml`, which is
generated from these schemas (tools/openapi); the API tests generate bodies from it and fail if
a body the contract allows is refused here.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from app.domain.hand import KONG_FLAGS, MELD_KINDS, WIN_TYPES, WIND_NAMES
from app.service.schema_fields import (
    MAX_BATCH_ITEMS,
    MAX_MELDS_LISTED,
    MSG_NO_WIN_TILE,
    MSG_NOT_MELDS,
    MSG_NULL,
    RULESET_ID_MAX,
    Flowers,
    HandBase,
    NotAllowed,
    Options,
    Seat,
    StrictBool,
    StrictStr,
    TileCode,
    Tiles,
    WildTiles,
    _more,
    _required,
    _Strict,
    _type,
)


class MeldSchema(_Strict):
    what = "a meld"
    kind = StrictStr(required=True, choices=MELD_KINDS,
                     error_messages={"required": _required("chow, pung or kong.")})
    tiles = Tiles(required=True, error_messages={
        "required": _required('the meld\'s tiles, such as "123m" or ["1m", "2m", "3m"].')})
    concealed = StrictBool(allow_none=True)


_MELDS = fields.List(fields.Nested(MeldSchema()), allow_none=True, load_default=None,
                     validate=validate.Length(max=MAX_MELDS_LISTED,
                                              error=_more(MAX_MELDS_LISTED, "melds")),
                     error_messages={"invalid": MSG_NOT_MELDS})
_CONCEALED_REQUIRED = _required('the standing tiles, the winning tile included, such as '
                                '"1112345678999m5m" or a list of tile codes.')


class HandObjectSchema(_Strict):
    what = "a hand"
    concealed = Tiles(required=True, error_messages={"required": _CONCEALED_REQUIRED})
    melds = _MELDS
    win_tile = TileCode(allow_none=True)




class WaitingHandObjectSchema(_Strict):
    """A hand object one tile short of a win: as `HandObjectSchema`, without `win_tile`."""

    what = "a waiting hand"
    concealed = Tiles(required=True, error_messages={"required": _required(
        'the standing tiles, one short of a win, such as "1112345678999m" or a list of tile '
        "codes.")})
    melds = _MELDS
    win_tile = NotAllowed(MSG_NO_WIN_TILE)


_HAND_OBJECT = HandObjectSchema()
_WAITING_HAND_OBJECT = WaitingHandObjectSchema()


class HandField(HandBase):
    """A hand object, or one whole-hand notation string: `[...]` are declared melds (`[123p]`
    chow, `[555s]` pung, `[5555s]` exposed kong, `{5555s}` concealed kong; `[555s,1]` names the
    seat offset the tile was claimed from), then the standing tiles; the last tile written is
    the winning tile.
    """

    contract_name = "Hand"
    objects: Schema = _HAND_OBJECT


class WaitingHandField(HandField):
    """A waiting hand object, or one whole-hand notation string: `[...]` are declared melds as in
    `Hand`, and every tile outside brackets is a standing tile (there is no winning tile).
    """

    contract_name = "WaitingHand"
    objects = _WAITING_HAND_OBJECT



class ContextSchema(_Strict):
    what = "a context"
    win_type = StrictStr(required=True, choices=WIN_TYPES,
                         error_messages={"required": _required("self_draw or discard.")})
    kong = StrictStr(allow_none=True, choices=KONG_FLAGS)
    last_tile = StrictBool(allow_none=True)
    last_of_kind = StrictBool(allow_none=True)
    first_turn = StrictBool(allow_none=True)
    seat_wind = StrictStr(allow_none=True, choices=tuple(WIND_NAMES))
    round_wind = StrictStr(allow_none=True, choices=tuple(WIND_NAMES))
    flowers = Flowers(allow_none=True)
    wild_indicator = TileCode(allow_none=True)
    wilds = WildTiles(allow_none=True)
    winner = Seat(allow_none=True)
    discarder = Seat(allow_none=True)
    dealer = Seat(allow_none=True)
    options = Options(allow_none=True)


_HAND_REQUIRED = _required('the hand, as a notation string such as "1112345678999m5m" or an '
                           "object with concealed, melds and win_tile.")
_CONTEXT_REQUIRED = _required("the context of the win, an object with at least win_type.")


class ScoreRequestSchema(_Strict):
    what = "a score request"
    hand = HandField(required=True, error_messages={"required": _HAND_REQUIRED})
    context = fields.Nested(ContextSchema(), required=True,
                            error_messages={"required": _CONTEXT_REQUIRED, "null": MSG_NULL})
    # A line of a log names its rule set (mahjong-score-log, the command-line scorer): it may
    # be posted as it is, when it names the path's rule set (`check_named_ruleset`).
    ruleset = StrictStr(allow_none=True, max_length=RULESET_ID_MAX)


class WaitsRequestSchema(_Strict):
    """A waits request: the score request with a hand one tile short (no `win_tile`)."""

    what = "a waits request"
    hand = WaitingHandField(required=True, error_messages={"required": _required(
        'the hand one tile short of a win, as a notation string such as "1112345678999m" or '
        "an object with concealed and melds.")})
    context = fields.Nested(ContextSchema(), required=True,
                            error_messages={"required": _CONTEXT_REQUIRED, "null": MSG_NULL})
    ruleset = StrictStr(allow_none=True, max_length=RULESET_ID_MAX)


# --- a batch: many score or waits requests in one body -------------------------------


class BatchRequests(fields.Field[list[Any]]):
    """The requests of a batch, 1 to MAX_BATCH_ITEMS of them. Each is read later by the
    single request's own schema, item by item: a bad item becomes that item's error and
    never fails the batch."""

    default_error_messages = {  # noqa: RUF012
        "invalid": _type("Not a list of requests: expected a JSON array of request objects."),
        "empty": "Empty: a batch holds 1 to " + str(MAX_BATCH_ITEMS) + " requests.",
        "too_many": (f"More than {MAX_BATCH_ITEMS} requests: send at most {MAX_BATCH_ITEMS} "
                     "per batch, the rest in further batches."),
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list[Any]:
        if type(value) is not list:
            raise self.make_error("invalid")
        if not value:
            raise self.make_error("empty")
        if len(value) > MAX_BATCH_ITEMS:
            raise self.make_error("too_many")
        return value


class BatchRequestSchema(_Strict):
    what = "a batch request"
    requests = BatchRequests(required=True, error_messages={
        "null": MSG_NULL,
        "required": _required(f"the requests, a JSON array of 1 to {MAX_BATCH_ITEMS} request "
                              "objects, each as the single call takes it.")})


SCORE_REQUEST = ScoreRequestSchema()
WAITS_REQUEST = WaitsRequestSchema()
BATCH_REQUEST = BatchRequestSchema()


def load_score_request(body: dict[str, Any]) -> dict[str, Any]:
    """Validate a score request body; raises `ValidationError`."""
    result: dict[str, Any] = SCORE_REQUEST.load(body)
    return result


def load_waits_request(body: dict[str, Any]) -> dict[str, Any]:
    """Validate a waits request body; raises `ValidationError`."""
    result: dict[str, Any] = WAITS_REQUEST.load(body)
    return result

