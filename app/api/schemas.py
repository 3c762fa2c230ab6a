"""Marshmallow schemas for request bodies: strict shape checks before the domain sees a value.

The schemas check JSON types, required and unknown fields, enumerations and size limits; JSON
null in an optional field means "use the default", as in the domain. What needs the rule set
(tile codes, tile counts, seat ranges, option names) is checked by `app.api.requests.build`.
`openapi.yaml` describes exactly these schemas; the API tests generate bodies from it and fail
if a body the contract allows is refused here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, missing, validate
from marshmallow.decorators import validates_schema

from app.domain.hand import KONG_FLAGS, MELD_KINDS, WIN_TYPES, WINDS

# Winds by letter or by Chinese name.
WIND_NAMES = (*WINDS, "东", "南", "西", "北")

# Size limits. A hand is at most 18 tiles; the limits leave room for sloppy but honest input
# (the domain then names the exact fault) while bounding the work one request can cause.
MAX_NOTATION_LENGTH = 200
MAX_TILE_CODE_LENGTH = 8
MAX_TILE_LIST = 32
MAX_MELDS = 8
MAX_FLOWER_LIST = 16
MAX_OPTIONS = 32
MAX_OPTION_NAME_LENGTH = 64
MAX_OPTION_STRING_LENGTH = 64
MAX_OPTION_LIST = 8  # a per-seat option lists one integer per seat
OPTION_INT_MIN = -(2**31)
OPTION_INT_MAX = 2**31 - 1
MAX_INT = 2**31 - 1  # seats and flower counts

MSG_REQUIRED = "Missing data for required field."
MSG_UNKNOWN = "Unknown field."
MSG_NULL = "Field may not be null."
MSG_NOT_BOOL = "Not a boolean: expected true or false."
MSG_NOT_INT = "Not an integer."
MSG_NOT_STRING = "Not a string."
MSG_NOT_TILES = "Not a tile string or a list of tile codes."
MSG_NOT_HAND = "Not a hand: expected a notation string or an object."
MSG_NOT_FLOWERS = "Not a flower count, a list of flower codes or a string of flowers."
MSG_NOT_OPTION_VALUE = (
    "Not an option value: expected a boolean, an integer, a string or a list of integers."
)
MSG_NOT_OPTIONS = "Not an object of options."
MSG_NO_WIN_TILE = (
    "Not allowed: a waiting hand is one tile short and has no winning tile; every tile that "
    "completes it is tried."
)

MSG_NOT_EVENT = "Not an event: expected an object with type kong, win, draw or follow_dealer."
MSG_NOT_FOR_KIND = "Not allowed for this kind of kong."

# Messages that say "wrong JSON type" rather than "wrong value"; see `flatten_errors`.
_TYPE_MESSAGES = frozenset({
    MSG_NULL, MSG_NOT_BOOL, MSG_NOT_INT, MSG_NOT_STRING, MSG_NOT_TILES,
    MSG_NOT_HAND, MSG_NOT_FLOWERS, MSG_NOT_OPTION_VALUE, MSG_NOT_OPTIONS, MSG_NOT_EVENT,
    "Invalid input type.", "Not a valid list.",
})


class StrictBool(fields.Field[bool]):
    """A JSON boolean and nothing else (marshmallow's Boolean also takes "yes", 1, ...)."""

    default_error_messages = {"invalid": MSG_NOT_BOOL}  # noqa: RUF012

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if type(value) is not bool:
            raise self.make_error("invalid")
        return value


def as_integer(value: Any) -> int | None:
    """A JSON integer as JSON Schema defines it (2.0 is the integer 2), else None.

    Booleans and numeric strings are not integers; neither are infinities (1e400).
    """
    if type(value) is float and value.is_integer():
        return int(value)
    if type(value) is int:
        return value
    return None


class StrictInt(fields.Field[int]):
    """A JSON integer: not a boolean, not a fraction, not a numeric string."""

    default_error_messages = {"invalid": MSG_NOT_INT}  # noqa: RUF012

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        number = as_integer(value)
        if number is None:
            raise self.make_error("invalid")
        return number


class StrictStr(fields.Field[str]):
    default_error_messages = {"invalid": MSG_NOT_STRING}  # noqa: RUF012

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        if type(value) is not str:
            raise self.make_error("invalid")
        return value


def _check_length(value: str, maximum: int) -> None:
    if len(value) > maximum:
        raise ValidationError(f"Longer than {maximum} characters.")


def _check_items(value: Sequence[Any], maximum: int) -> None:
    if len(value) > maximum:
        raise ValidationError(f"More than {maximum} items.")


def _tile_code_list(value: list[Any], maximum: int) -> list[str]:
    """A list of tile codes; errors are keyed by index like marshmallow's List field."""
    _check_items(value, maximum)
    errors: dict[int, list[str]] = {}
    for i, item in enumerate(value):
        if type(item) is not str:
            errors[i] = [MSG_NOT_STRING]
        elif len(item) > MAX_TILE_CODE_LENGTH:
            errors[i] = [f"Longer than {MAX_TILE_CODE_LENGTH} characters."]
    if errors:
        raise ValidationError(errors)
    return list(value)


class Tiles(fields.Field[Any]):
    """Tiles as one notation string ("123m55p") or as a list of tile codes (["1m", "2m"])."""

    default_error_messages = {"invalid": MSG_NOT_TILES}  # noqa: RUF012
    max_items = MAX_TILE_LIST

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if type(value) is str:
            _check_length(value, MAX_NOTATION_LENGTH)
            return value
        if type(value) is list:
            return _tile_code_list(value, self.max_items)
        raise self.make_error("invalid")


class MeldSchema(Schema):
    class Meta:
        unknown = RAISE

    kind = StrictStr(required=True, validate=validate.OneOf(MELD_KINDS))
    tiles = Tiles(required=True)
    concealed = StrictBool(allow_none=True)


class HandObjectSchema(Schema):
    class Meta:
        unknown = RAISE

    concealed = Tiles(required=True)
    melds = fields.List(
        fields.Nested(MeldSchema), allow_none=True, validate=validate.Length(max=MAX_MELDS)
    )
    win_tile = StrictStr(allow_none=True, validate=validate.Length(max=MAX_TILE_CODE_LENGTH))


class HandField(fields.Field[Any]):
    """`hand`: a whole-hand notation string or a hand object."""

    default_error_messages = {"invalid": MSG_NOT_HAND}  # noqa: RUF012

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if type(value) is str:
            _check_length(value, MAX_NOTATION_LENGTH)
            return value
        if type(value) is dict:
            return HandObjectSchema().load(value)
        raise self.make_error("invalid")


class NotAllowed(fields.Field[Any]):
    """A field this request must not carry, refused whatever its value (null included)."""

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message

    def deserialize(self, value: Any, attr: str | None = None,
                    data: Mapping[str, Any] | None = None, **kwargs: Any) -> Any:
        if value is missing:
            return missing
        raise ValidationError(self.message)


class WaitingHandObjectSchema(Schema):
    """A hand object one tile short of a win: as `HandObjectSchema`, without `win_tile`."""

    class Meta:
        unknown = RAISE

    concealed = Tiles(required=True)
    melds = fields.List(
        fields.Nested(MeldSchema), allow_none=True, validate=validate.Length(max=MAX_MELDS)
    )
    win_tile = NotAllowed(MSG_NO_WIN_TILE)


class WaitingHandField(HandField):
    """`hand` of a waits request: a notation string or a waiting hand object."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if type(value) is dict:
            return WaitingHandObjectSchema().load(value)
        return super()._deserialize(value, attr, data, **kwargs)


class Flowers(fields.Field[Any]):
    """`context.flowers`: a count, a list of flower codes, or a string of flowers."""

    default_error_messages = {"invalid": MSG_NOT_FLOWERS}  # noqa: RUF012

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        number = as_integer(value)
        if number is not None:
            if not 0 <= number <= MAX_INT:
                raise ValidationError(f"Must be between 0 and {MAX_INT}.")
            return number
        if type(value) is str:
            _check_length(value, MAX_NOTATION_LENGTH)
            return value
        if type(value) is list:
            return _tile_code_list(value, MAX_FLOWER_LIST)
        raise self.make_error("invalid")


class WildTiles(Tiles):
    """`context.wilds`: the wild tiles as a string of tiles or a list of tile codes."""

    max_items = MAX_FLOWER_LIST


class Options(fields.Field[dict[str, Any]]):
    """`context.options`: option name -> boolean, integer, string or list of integers (a
    per-seat option); the rule set decides."""

    default_error_messages = {"invalid": MSG_NOT_OPTIONS}  # noqa: RUF012

    def _deserialize(
        self, value: Any, attr: str | None, data: Any, **kwargs: Any
    ) -> dict[str, Any]:
        if type(value) is not dict:
            raise self.make_error("invalid")
        if len(value) > MAX_OPTIONS:
            raise ValidationError(f"More than {MAX_OPTIONS} options.")
        out = dict(value)
        errors: dict[str, list[str] | dict[int, list[str]]] = {}
        for name, item in value.items():
            if len(name) > MAX_OPTION_NAME_LENGTH:
                errors[name] = [f"Option name longer than {MAX_OPTION_NAME_LENGTH} characters."]
            elif type(item) is str:
                if len(item) > MAX_OPTION_STRING_LENGTH:
                    errors[name] = [f"Longer than {MAX_OPTION_STRING_LENGTH} characters."]
            elif type(item) is bool:
                pass
            elif (number := as_integer(item)) is not None:
                if not OPTION_INT_MIN <= number <= OPTION_INT_MAX:
                    errors[name] = [f"Must be between {OPTION_INT_MIN} and {OPTION_INT_MAX}."]
                out[name] = number
            elif type(item) is list:
                numbers, problem = _option_list(item)
                if problem:
                    errors[name] = problem
                else:
                    out[name] = numbers
            else:
                errors[name] = [MSG_NOT_OPTION_VALUE]
        if errors:
            raise ValidationError(errors)
        return out


def _option_list(items: list[Any]) -> tuple[list[int], dict[int, list[str]] | list[str]]:
    """A list option value: its integers, and its errors (keyed by index, like a List
    field's, or messages about the list itself); no errors: empty."""
    if len(items) > MAX_OPTION_LIST:
        return [], [f"More than {MAX_OPTION_LIST} items."]
    numbers: list[int] = []
    errors: dict[int, list[str]] = {}
    for i, item in enumerate(items):
        number = as_integer(item)
        if number is None:
            errors[i] = [MSG_NOT_INT]
        elif not OPTION_INT_MIN <= number <= OPTION_INT_MAX:
            errors[i] = [f"Must be between {OPTION_INT_MIN} and {OPTION_INT_MAX}."]
        else:
            numbers.append(number)
    return numbers, errors


def _seat() -> validate.Range:
    # The upper bound only keeps absurd numbers out; the rule set's player count is checked
    # by the domain (seat_out_of_range).
    return validate.Range(min=0, max=MAX_INT)


class ContextSchema(Schema):
    class Meta:
        unknown = RAISE

    win_type = StrictStr(required=True, validate=validate.OneOf(WIN_TYPES))
    kong = StrictStr(allow_none=True, validate=validate.OneOf(KONG_FLAGS))
    last_tile = StrictBool(allow_none=True)
    last_of_kind = StrictBool(allow_none=True)
    first_turn = StrictBool(allow_none=True)
    seat_wind = StrictStr(allow_none=True, validate=validate.OneOf(WIND_NAMES))
    round_wind = StrictStr(allow_none=True, validate=validate.OneOf(WIND_NAMES))
    flowers = Flowers(allow_none=True)
    wild_indicator = StrictStr(
        allow_none=True, validate=validate.Length(max=MAX_TILE_CODE_LENGTH)
    )
    wilds = WildTiles(allow_none=True)
    winner = StrictInt(allow_none=True, validate=_seat())
    discarder = StrictInt(allow_none=True, validate=_seat())
    dealer = StrictInt(allow_none=True, validate=_seat())
    options = Options(allow_none=True)


class ScoreRequestSchema(Schema):
    class Meta:
        unknown = RAISE

    hand = HandField(required=True)
    context = fields.Nested(ContextSchema, required=True)


class WaitsRequestSchema(Schema):
    """A waits request: the score request with a hand one tile short (no `win_tile`)."""

    class Meta:
        unknown = RAISE

    hand = WaitingHandField(required=True)
    context = fields.Nested(ContextSchema, required=True)


# --- the settle request: a round as events --------------------------------------------

MAX_EVENTS = 32  # a round has at most 27 kongs (108 tiles), 3 wins and a draw
MAX_DRAW_HANDS = 4  # rule sets have at most 4 players
KONG_KINDS = ("direct", "added", "concealed")


class _KongEventSchema(Schema):
    """A kong; `discarder` belongs to a direct kong only, `fresh` to an added kong only."""

    class Meta:
        unknown = RAISE

    type = StrictStr(required=True, validate=validate.OneOf(["kong"]))
    seat = StrictInt(required=True, validate=_seat())
    kind = StrictStr(required=True, validate=validate.OneOf(KONG_KINDS))
    tile = StrictStr(required=True, validate=validate.Length(max=MAX_TILE_CODE_LENGTH))
    discarder = StrictInt(validate=_seat())
    fresh = StrictBool()

    @validates_schema(pass_original=True)
    def _fields_of_the_kind(self, data: Mapping[str, Any], original: Any,
                            **kwargs: Any) -> None:
        own = {"direct": "discarder", "added": "fresh"}
        kind = original.get("kind") if isinstance(original, Mapping) else None
        if kind not in KONG_KINDS:
            return  # `kind` itself is refused
        errors: dict[str, list[str]] = {}
        for kind_of, name in own.items():
            if kind == kind_of and name not in original:
                errors[name] = [MSG_REQUIRED]
            elif kind != kind_of and name in original:
                errors[name] = [MSG_NOT_FOR_KIND]
        if errors:
            raise ValidationError(errors)


class _WinEventSchema(Schema):
    class Meta:
        unknown = RAISE

    type = StrictStr(required=True, validate=validate.OneOf(["win"]))
    seat = StrictInt(required=True, validate=_seat())
    hand = HandField(required=True)
    # As in a score request, but the event's seat is the winner and the options are the
    # round's.
    context = fields.Nested(ContextSchema(exclude=("winner", "options")), required=True)


class _DrawHandSchema(Schema):
    class Meta:
        unknown = RAISE

    seat = StrictInt(required=True, validate=_seat())
    hand = WaitingHandField(required=True)
    passive_pig = StrictBool(allow_none=True)


class _DrawEventSchema(Schema):
    class Meta:
        unknown = RAISE

    type = StrictStr(required=True, validate=validate.OneOf(["draw"]))
    hands = fields.List(fields.Nested(_DrawHandSchema), required=True,
                        validate=validate.Length(max=MAX_DRAW_HANDS))


class _FollowDealerEventSchema(Schema):
    """跟庄 (天津 铲): every other player followed the dealer's first discard."""

    class Meta:
        unknown = RAISE

    type = StrictStr(required=True, validate=validate.OneOf(["follow_dealer"]))


_EVENT_SCHEMAS: dict[str, type[Schema]] = {
    "kong": _KongEventSchema, "win": _WinEventSchema, "draw": _DrawEventSchema,
    "follow_dealer": _FollowDealerEventSchema,
}


class Event(fields.Field[Any]):
    """One event of a round, by its `type`: kong, win or draw."""

    default_error_messages = {"invalid": MSG_NOT_EVENT}  # noqa: RUF012

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if type(value) is not dict:
            raise self.make_error("invalid")
        kind = value.get("type")
        schema = _EVENT_SCHEMAS.get(kind) if type(kind) is str else None
        if schema is None:
            if "type" not in value:
                raise ValidationError({"type": [MSG_REQUIRED]})
            raise ValidationError({"type": ["Must be one of: kong, win, draw, follow_dealer."]})
        return schema().load(value)


class SettleRequestSchema(Schema):
    class Meta:
        unknown = RAISE

    options = Options(allow_none=True)
    # The round's dealer and flipped wild tile, given once for every event.
    dealer = StrictInt(allow_none=True, validate=_seat())
    wild_indicator = StrictStr(
        allow_none=True, validate=validate.Length(max=MAX_TILE_CODE_LENGTH)
    )
    wilds = WildTiles(allow_none=True)
    events = fields.List(Event(), required=True, validate=validate.Length(max=MAX_EVENTS))


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _classify(message: str) -> str:
    if message == MSG_REQUIRED:
        return "required"
    if message in (MSG_UNKNOWN, MSG_NO_WIN_TILE, MSG_NOT_FOR_KIND):
        return "unknown_field"
    if message in _TYPE_MESSAGES:
        return "invalid_type"
    return "invalid_value"


def flatten_errors(messages: Any, pointer: str = "") -> list[dict[str, str]]:
    """Marshmallow's nested error messages -> [{pointer, code, message}], in field order."""
    out: list[dict[str, str]] = []
    if isinstance(messages, Mapping):
        for key, value in messages.items():
            child = pointer if key == "_schema" else f"{pointer}/{_escape(str(key))}"
            out.extend(flatten_errors(value, child))
    elif isinstance(messages, list | tuple):
        for item in messages:
            out.extend(flatten_errors(item, pointer))
    else:
        message = str(messages)
        out.append({"pointer": pointer, "code": _classify(message), "message": message})
    return out


def load_score_request(body: dict[str, Any]) -> dict[str, Any]:
    """Validate a score request body; raises `ValidationError`."""
    result: dict[str, Any] = ScoreRequestSchema().load(body)
    return result


def load_waits_request(body: dict[str, Any]) -> dict[str, Any]:
    """Validate a waits request body; raises `ValidationError`."""
    result: dict[str, Any] = WaitsRequestSchema().load(body)
    return result


def load_settle_request(body: dict[str, Any]) -> dict[str, Any]:
    """Validate a settle request body; raises `ValidationError`."""
    result: dict[str, Any] = SettleRequestSchema().load(body)
    return result
