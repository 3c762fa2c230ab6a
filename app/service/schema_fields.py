"""The request schemas' building blocks: the strict object schema (`_Strict`), the field
classes, the size limits and messages, and the errors' flattening.

A schema checks JSON types, required and unknown fields, enumerations and size limits; JSON null
in an optional field means "use the default". What needs the rule set (tile codes, tile
counts, seat ranges, option names) is checked when the request is read into domain values
(`app.service.tiles.requests`, `app.service.tiles.settle_requests`,
`app.service.cards.requests`), which trust what the schemas let through. The schemas themselves
(`app.service.tiles.request_schemas`, `app.service.tiles.settle_schemas`, the card games'
`card_schemas`, the batch's `app.service.request_schemas`) are built once; `openapi.yaml` is
generated from them (tools/openapi): a field class that sets `contract_name` is written once
as that component, its docstring being the component's description (and `contract_examples`
its examples); the docstring right below a field of a schema is that field's description.

Every message says what was expected, so that a person can act on it; `flatten_errors` turns
marshmallow's nested messages into `{pointer, code, message}` entries, the code telling a
missing field, an unknown one, a wrong JSON type and a wrong value apart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Literal

from marshmallow import RAISE, Schema, ValidationError, fields, missing, validate
from marshmallow.decorators import VALIDATES_SCHEMA

from app.service.fast_read import (
    BOOLEAN,
    FLOWERS,
    HAND,
    INTEGER,
    NO_LIMIT,
    OBJECT,
    OBJECTS,
    OTHER,
    STRING,
    TILES,
    FieldReader,
    ObjectReader,
    read_object,
)

# Size limits. A hand is at most 18 tiles; the limits leave room for sloppy but honest input
# (the domain then names the exact fault) while bounding the work one request can cause.
MAX_NOTATION_LENGTH = 200
MAX_TILE_CODE_LENGTH = 8
MAX_TILE_LIST = 32
MAX_MELDS_LISTED = 8  # a hand declares at most 4 (too_many_melds); a list of 8 is still read
MAX_FLOWER_LIST = 16
MAX_OPTIONS = 32
MAX_OPTION_NAME_LENGTH = 64
MAX_OPTION_STRING_LENGTH = 64
RULESET_ID_MAX = 64  # a request's own `ruleset` (a rule-set id)
MAX_OPTION_LIST = 8  # a per-seat option lists one entry per seat
OPTION_INT_MIN = -(2**31)
OPTION_INT_MAX = 2**31 - 1
MAX_INT = 2**31 - 1  # seats and flower counts
MAX_EVENTS = 32  # a round has at most 27 kongs (108 tiles), 3 wins and a draw
MAX_DRAW_HANDS = 4  # rule sets have at most 4 players
# A batch holds 1 to this many requests (its body may be larger than a single request's,
# MAX_BATCH_CONTENT_LENGTH in `app`).
MAX_BATCH_ITEMS = 1000

# The messages, by what they say: a field missing, a field that does not belong, a value of
# the wrong JSON type; any other message is about the value (`flatten_errors`).
_REQUIRED: set[str] = set()
_UNKNOWN: set[str] = set()
_TYPE: set[str] = set()


def _message(text: str, kind: set[str]) -> str:
    if "{" in text or "}" in text:
        # marshmallow formats its messages (str.format): a brace would break the message.
        raise ValueError(f"a schema message holds a brace: {text!r}")
    kind.add(text)
    return text


def _required(text: str) -> str:
    return _message(f"Required: {text}", _REQUIRED)


def _unknown(text: str) -> str:
    return _message(f"Unknown field: {text}", _UNKNOWN)


def _type(text: str) -> str:
    return _message(text, _TYPE)


def _one_of(choices: Sequence[str]) -> str:
    return "Must be one of: " + ", ".join(choices) + "."


MSG_NOT_BOOL = _type("Not a boolean: expected true or false.")
MSG_NOT_INT = _type("Not an integer.")
MSG_NOT_SEAT = _type("Not a seat number: expected an integer from 0.")
MSG_NOT_STRING = _type("Not a string.")
MSG_NOT_TILE = _type('Not a tile code: expected a string such as "5m" or "E".')
MSG_NOT_TILES = _type('Not tiles: expected a string such as "123m55p" or a list of tile codes '
                      'such as ["1m", "2m", "3m"].')
MSG_NOT_HAND = _type('Not a hand: expected a notation string such as "[123p]1112345678m9m" or an '
                     "object with concealed, melds and win_tile.")
MSG_NOT_FLOWERS = _type('Not flowers: expected a count, a list of flower codes such as ["1f", '
                        '"2f"] or a string of flowers such as "1f2f".')
MSG_NOT_OPTION_VALUE = _type(
    "Not an option value: expected a boolean, an integer, a string or a list (one entry per "
    "seat).")
MSG_NOT_OPTION_ENTRY = _type("Not an entry of a per-seat option: expected an integer, a string "
                             "or null.")
MSG_NOT_OPTIONS = _type("Not an object of options: expected option names with their values, "
                        'such as "base": 5.')
MSG_NOT_EVENT = _type("Not an event: expected an object with type kong, win, draw, "
                      "follow_dealer or reveal.")
MSG_NOT_OBJECT = _type("Not an object.")
MSG_NOT_MELDS = _type('Not a list of melds: expected objects with kind and tiles, such as kind '
                      '"pung" and tiles "555s".')
MSG_NOT_EVENTS = _type("Not a list of events.")
MSG_NOT_DRAW_HANDS = _type("Not a list of hands: expected objects with seat and hand.")
MSG_NULL = _type("May not be null: give a value or leave the field out.")
MSG_NO_WIN_TILE = _unknown(
    "a waiting hand is one tile short and has no winning tile; every tile that completes it "
    "is tried.")


def _longer(maximum: int) -> str:
    return f"Longer than {maximum} characters."


def _more(maximum: int, what: str = "items") -> str:
    return f"More than {maximum} {what}."


class _Strict(Schema):
    """A schema that refuses fields it does not declare, and says which it declares.

    `load` walks the fields itself: marshmallow's generic load makes a closure, a chain of
    validators and an error store for each field, which cost more than scoring the hand
    (bench/README.md). The fields of these schemas check their own values, so plain loops do
    the same job for far less, with the same fields, messages and layout of errors
    (tests/service/test_schemas.py compares them with marshmallow's own `load` on generated
    bodies): a valid object is read by `app.service.fast_read` (compiled), from a description of
    the fields made from this schema when it is first loaded (`_fast_reader`); at the first
    fault it is read again here in the declared order, every fault listed (`read_declared`).
    Options of `load` other than the data (many, partial, unknown) take marshmallow's path.
    """

    class Meta:
        unknown = RAISE

    # The object's name in messages, and its fields (set per schema).
    what = "this object"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.error_messages = {
            **self.error_messages,
            "unknown": _unknown(f"{self.what} has " + ", ".join(self.fields) + "."),
            "type": _type(f"Not an object: {self.what} is a JSON object."),
        }
        # (attribute, key in the data, field, its default when absent, how a value present
        # and not null is read) per declared field.
        self._plan = tuple(
            (name, f.data_key or name, f, f.load_default, _reader(f))
            for name, f in self.load_fields.items())
        self._keys = frozenset(key for _, key, _, _, _ in self._plan)
        self._fast: ObjectReader | bool | None = False  # False: not made yet
        # The fast reader once made and usable (None before, and when it cannot be made):
        # `app.service.reading.validated` reads a valid object with it directly.
        self.reader: ObjectReader | None = None

    def load(self, data: Any, *, many: bool | None = None, partial: Any = None,
             unknown: Literal["exclude", "include", "raise"] | None = None) -> Any:
        if many or partial is not None or unknown is not None or self._hooks[VALIDATES_SCHEMA]:
            return super().load(data, many=many, partial=partial, unknown=unknown)
        if type(data) is dict:
            fast = self.fast_reader()
            if fast is not None:
                out = read_object(fast, data)
                if out is not None:
                    return out
        return self.read_declared(data)

    def fast_reader(self) -> ObjectReader | None:
        """The schema as `app.service.fast_read` reads it (made when first asked for); None when
        it cannot be (a default made by a callable, or a schema-level validator)."""
        if self._fast is False:
            made = _fast_reader(self)
            self._fast = self.reader = made
        return self._fast  # type: ignore[return-value]

    def read_declared(self, data: Any) -> dict[str, Any]:
        """The object read field by field in the declared order; every fault is listed, in
        that order, then the fields it should not hold."""
        if not isinstance(data, Mapping):
            raise ValidationError({"_schema": [self.error_messages["type"]]})
        out: dict[str, Any] = {}
        errors: dict[str, Any] = {}
        present = 0
        for name, key, field, default, read in self._plan:
            value = data.get(key, missing)
            if value is missing:
                if field.required:
                    errors[key] = [field.error_messages["required"]]
                elif default is not missing:
                    out[name] = default() if callable(default) else default
                continue
            present += 1
            if value is None:
                if field.allow_none:
                    out[name] = None
                else:
                    errors[key] = [field.error_messages["null"]]
                continue
            try:
                result = read(value, key, data)
                if field.validators:
                    field._validate(result)
            except ValidationError as exc:
                errors[key] = exc.messages
                continue
            out[name] = result
        if len(data) > present:
            keys = self._keys
            for key in data:
                if key not in keys:
                    errors[key] = [self.error_messages["unknown"]]
        if errors:
            raise ValidationError(errors, valid_data=out)
        return out


_Read = Callable[[Any, str, Mapping[str, Any]], Any]


def _reader(field: fields.Field[Any]) -> _Read:
    """How `_Strict.load` reads a field's value (present, not null): the field's own
    `_deserialize`, except for an object or a list of objects, which marshmallow reads
    through `Nested` and `List` (several calls and checks per object):
    here an object goes straight to its schema's `load`, exactly as `Nested` would send it,
    and anything else takes marshmallow's own path, so the errors are the same."""
    if isinstance(field, fields.Nested) and _plain_nested(field):
        schema = field.schema

        def nested(value: Any, key: str, data: Mapping[str, Any]) -> Any:
            if type(value) is dict:
                return schema.load(value)
            return field._deserialize(value, key, data)

        return nested
    inner = getattr(field, "inner", None)
    if isinstance(field, fields.List) and isinstance(inner, fields.Nested) and (
            _plain_nested(inner)):
        item_schema = inner.schema

        def objects(value: Any, key: str, data: Mapping[str, Any]) -> Any:
            if type(value) is not list:
                return field._deserialize(value, key, data)
            result: list[Any] = []
            errors: dict[int, Any] = {}
            for i, item in enumerate(value):
                try:
                    if type(item) is dict:
                        result.append(item_schema.load(item))
                    else:
                        result.append(inner.deserialize(item))
                except ValidationError as exc:
                    if exc.valid_data is not None:
                        result.append(exc.valid_data)
                    errors[i] = exc.messages
            if errors:
                raise ValidationError(errors, valid_data=result)
            return result

        return objects
    return field._deserialize


def _plain_nested(field: fields.Nested) -> bool:
    """A `Nested` field that loads one object with its schema's defaults."""
    return (not field.many and field.unknown is None and not field.validators
            and isinstance(field.schema, _Strict))


def _fast_reader(schema: _Strict) -> ObjectReader | None:
    """`schema` described for `app.service.fast_read.read_object`."""
    if schema._hooks[VALIDATES_SCHEMA]:
        return None
    defaults: dict[str, Any] = {}
    by_key: dict[str, FieldReader] = {}
    for name, key, f, default, read in schema._plan:
        if not f.required and default is not missing:
            if callable(default):
                return None
            defaults[name] = default
        by_key[key] = _field_reader(name, f, read)
    required = frozenset(key for _, key, f, _, _ in schema._plan if f.required)
    return ObjectReader(by_key, required, defaults)


def _reads_as(field: fields.Field[Any], cls: type[fields.Field[Any]]) -> bool:
    # The field reads a value exactly as `cls` does (a subclass may change only settings).
    return isinstance(field, cls) and type(field)._deserialize is cls._deserialize


def _field_reader(name: str, f: fields.Field[Any], read: _Read) -> FieldReader:
    """How `read_object` reads one field: by kind when its class's reading is one of
    fast_read's kinds (and it has no other validator), else by the field itself."""
    allow_none = bool(f.allow_none)
    if not f.validators:
        if _reads_as(f, StrictStr):
            assert isinstance(f, StrictStr)
            return FieldReader(name, STRING, allow_none=allow_none, choices=f.choices,
                               max_length=NO_LIMIT if f.max_length is None else f.max_length)
        if _reads_as(f, StrictBool):
            return FieldReader(name, BOOLEAN, allow_none=allow_none)
        if _reads_as(f, StrictInt):
            assert isinstance(f, StrictInt)
            return FieldReader(name, INTEGER, allow_none=allow_none, minimum=f.minimum,
                               maximum=f.maximum)
        if _reads_as(f, Flowers):
            assert isinstance(f, Flowers)
            return FieldReader(name, FLOWERS, allow_none=allow_none, minimum=0, maximum=MAX_INT,
                               max_items=f.max_items, notation_length=MAX_NOTATION_LENGTH,
                               code_length=MAX_TILE_CODE_LENGTH)
        if _reads_as(f, Tiles):
            assert isinstance(f, Tiles)
            return FieldReader(name, TILES, allow_none=allow_none, max_items=f.max_items,
                               notation_length=MAX_NOTATION_LENGTH,
                               code_length=MAX_TILE_CODE_LENGTH)
        if _reads_as(f, HandBase):
            assert isinstance(f, HandBase)
            objects = f.objects
            nested = objects.fast_reader() if isinstance(objects, _Strict) else None
            if nested is not None:
                return FieldReader(name, HAND, allow_none=allow_none, nested=nested,
                                   notation_length=MAX_NOTATION_LENGTH)
        if isinstance(f, fields.Nested) and _plain_nested(f):
            schema = f.schema
            nested = schema.fast_reader() if isinstance(schema, _Strict) else None
            if nested is not None:
                return FieldReader(name, OBJECT, allow_none=allow_none, nested=nested)
    inner = getattr(f, "inner", None)
    if (isinstance(f, fields.List) and isinstance(inner, fields.Nested) and _plain_nested(inner)
            and all(type(v) is validate.Length and v.min is None and v.equal is None
                    and v.max is not None for v in f.validators)):
        schema = inner.schema
        nested = schema.fast_reader() if isinstance(schema, _Strict) else None
        if nested is not None:
            limits = [v.max for v in f.validators
                      if isinstance(v, validate.Length) and v.max is not None]
            return FieldReader(name, OBJECTS, allow_none=allow_none, nested=nested,
                               max_items=min(limits) if limits else NO_LIMIT)

    def other(value: Any, key: str, data: dict[str, Any]) -> Any:
        result = read(value, key, data)
        if f.validators:
            f._validate(result)
        return result

    return FieldReader(name, OTHER, allow_none=allow_none, other=other)


class StrictBool(fields.Field[bool]):
    """A JSON boolean and nothing else (marshmallow's Boolean also takes "yes", 1, ...)."""

    default_error_messages = {"invalid": MSG_NOT_BOOL, "null": MSG_NULL}  # noqa: RUF012

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
    """A JSON integer within [minimum, maximum]: not a boolean, a fraction or a string."""

    default_error_messages = {"invalid": MSG_NOT_INT, "null": MSG_NULL}  # noqa: RUF012

    def __init__(self, *, minimum: int, maximum: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.minimum = minimum
        self.maximum = maximum

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        number = as_integer(value)
        if number is None:
            raise self.make_error("invalid")
        if not self.minimum <= number <= self.maximum:
            raise ValidationError(f"Must be between {self.minimum} and {self.maximum}.")
        return number


class Seat(StrictInt):
    """A seat number, 0..players-1: the schema only bounds it, the rule set's player count is
    checked by the domain (`seat_out_of_range`). As in JSON Schema, `2.0` is the integer 2.
    """

    # The upper bound only keeps absurd numbers out.
    contract_name: ClassVar[str] = "Seat"

    default_error_messages = {"invalid": MSG_NOT_SEAT, "null": MSG_NULL}  # noqa: RUF012

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(minimum=0, maximum=MAX_INT, **kwargs)


class StrictStr(fields.Field[str]):
    """A JSON string, one of `choices` when given, at most `max_length` characters."""

    default_error_messages = {"invalid": MSG_NOT_STRING, "null": MSG_NULL}  # noqa: RUF012

    def __init__(self, *, choices: Sequence[str] = (), max_length: int | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.choices = frozenset(choices)
        self.choice_list = tuple(choices)  # as declared: the contract lists them in this order
        self.choices_message = _one_of(choices)
        self.max_length = max_length

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        if type(value) is not str:
            raise self.make_error("invalid")
        if self.choices and value not in self.choices:
            raise ValidationError(self.choices_message)
        if self.max_length is not None and len(value) > self.max_length:
            raise ValidationError(_longer(self.max_length))
        return value


class TileCode(StrictStr):
    """One tile: `1m`-`9m` 万, `1p`-`9p` 筒, `1s`-`9s` 条, winds `E S W N`, dragons `C` 中, `F`
    发, `P` 白, flowers `1f`-`8f`; also `1z`-`7z` and Chinese names (一万, 东, 中 ...).
    """

    contract_name: ClassVar[str] = "TileCode"
    contract_examples: ClassVar[tuple[str, ...]] = ("5m", "E", "中")
    default_error_messages = {"invalid": MSG_NOT_TILE, "null": MSG_NULL}  # noqa: RUF012

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=MAX_TILE_CODE_LENGTH, **kwargs)


class WildIndicator(TileCode):
    """The flipped 混 indicator tile, for rule sets that read one (`GET /v1/rulesets/{ruleset}`
    → `wild.indicator`; tianjin: the indicator's kind and the next kind are wild, 9→1,
    E→S→W→N→E, C→F→P→C). Where the flipped copy is out of play, a hand holding all four of
    its kind is `too_many_copies`. A rule set without wilds answers `wilds_not_supported`.
    """

    contract_name: ClassVar[str] = "WildIndicator"


def _tile_code_list(value: list[Any], maximum: int) -> list[str]:
    """A list of tile codes; errors are keyed by index like marshmallow's List field."""
    if len(value) > maximum:
        raise ValidationError(_more(maximum))
    errors: dict[int, list[str]] = {}
    for i, item in enumerate(value):
        if type(item) is not str:
            errors[i] = [MSG_NOT_TILE]
        elif len(item) > MAX_TILE_CODE_LENGTH:
            errors[i] = [_longer(MAX_TILE_CODE_LENGTH)]
    if errors:
        raise ValidationError(errors)
    return value


class Notation(StrictStr):
    """Tiles in compact notation, e.g. `1112345678999m5m`, `EEE`, `123m456p`."""

    # Never a field of a request by itself: the notation branch of `Tiles`, `Flowers`, a hand
    # and the word cards, written once in the contract.
    contract_name: ClassVar[str] = "Notation"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=MAX_NOTATION_LENGTH, **kwargs)


class Tiles(fields.Field[Any]):
    """Tiles as one notation string or as a list of tile codes."""

    # ("123m55p", or ["1m", "2m"])
    contract_name: ClassVar[str] = "Tiles"

    default_error_messages = {"invalid": MSG_NOT_TILES, "null": MSG_NULL}  # noqa: RUF012
    max_items = MAX_TILE_LIST

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if type(value) is str:
            if len(value) > MAX_NOTATION_LENGTH:
                raise ValidationError(_longer(MAX_NOTATION_LENGTH))
            return value
        if type(value) is list:
            return _tile_code_list(value, self.max_items)
        raise self.make_error("invalid")


class WildTiles(Tiles):
    """The wild kinds listed explicitly, for rule sets that take them so (`wild.explicit`);
    giving both this and `wild_indicator` is `inconsistent_context`.
    """

    # `context.wilds`: the wild tiles as a string of tiles or a list of tile codes.
    contract_name: ClassVar[str] = "Wilds"

    max_items = MAX_FLOWER_LIST


class NotAllowed(fields.Field[Any]):
    """A field this request must not carry, refused whatever its value (null included)."""

    def __init__(self, message: str) -> None:
        super().__init__(error_messages={"null": message})
        self.message = message

    def deserialize(self, value: Any, attr: str | None = None,
                    data: Mapping[str, Any] | None = None, **kwargs: Any) -> Any:
        if value is missing:
            return missing
        raise ValidationError(self.message)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        raise ValidationError(self.message)


class HandBase(fields.Field[Any]):
    """`hand`: a whole-hand notation string, or an object read by the schema `objects`."""

    default_error_messages = {"invalid": MSG_NOT_HAND, "null": MSG_NOT_HAND}  # noqa: RUF012
    objects: Schema

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if type(value) is str:
            if len(value) > MAX_NOTATION_LENGTH:
                raise ValidationError(_longer(MAX_NOTATION_LENGTH))
            return value
        if type(value) is dict:
            return self.objects.load(value)
        raise self.make_error("invalid")


class Flowers(fields.Field[Any]):
    """A count, a list of flower codes, or a string of flowers (`1f3f`, `春夏`)."""

    # `context.flowers`
    contract_name: ClassVar[str] = "Flowers"
    max_items = MAX_FLOWER_LIST

    default_error_messages = {"invalid": MSG_NOT_FLOWERS, "null": MSG_NULL}  # noqa: RUF012

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        number = as_integer(value)
        if number is not None:
            if not 0 <= number <= MAX_INT:
                raise ValidationError(f"Must be between 0 and {MAX_INT}.")
            return number
        if type(value) is str:
            if len(value) > MAX_NOTATION_LENGTH:
                raise ValidationError(_longer(MAX_NOTATION_LENGTH))
            return value
        if type(value) is list:
            return _tile_code_list(value, MAX_FLOWER_LIST)
        raise self.make_error("invalid")


class Options(fields.Field[dict[str, Any]]):
    """House rules declared by the rule set (`GET /v1/rulesets/{ruleset}`)."""

    # `context.options`: option name -> boolean, integer, string or list (a per-seat
    # option of integers, or of strings and nulls: `OptionValue`); the rule set decides
    # which names and values it takes.
    contract_name: ClassVar[str] = "Options"

    default_error_messages = {"invalid": MSG_NOT_OPTIONS, "null": MSG_NULL}  # noqa: RUF012

    def _deserialize(
        self, value: Any, attr: str | None, data: Any, **kwargs: Any
    ) -> dict[str, Any]:
        if type(value) is not dict:
            raise self.make_error("invalid")
        if len(value) > MAX_OPTIONS:
            raise ValidationError(_more(MAX_OPTIONS, "options"))
        out = dict(value)
        errors: dict[str, list[str] | dict[int, list[str]]] = {}
        for name, item in value.items():
            if len(name) > MAX_OPTION_NAME_LENGTH:
                errors[name] = [f"Option name longer than {MAX_OPTION_NAME_LENGTH} characters."]
            elif type(item) is str:
                if len(item) > MAX_OPTION_STRING_LENGTH:
                    errors[name] = [_longer(MAX_OPTION_STRING_LENGTH)]
            elif type(item) is bool:
                pass
            elif (number := as_integer(item)) is not None:
                if not OPTION_INT_MIN <= number <= OPTION_INT_MAX:
                    errors[name] = [f"Must be between {OPTION_INT_MIN} and {OPTION_INT_MAX}."]
                out[name] = number
            elif type(item) is list:
                entries, problem = _option_list(item)
                if problem:
                    errors[name] = problem
                else:
                    out[name] = entries
            else:
                errors[name] = [MSG_NOT_OPTION_VALUE]
        if errors:
            raise ValidationError(errors)
        return out


class OptionValue(fields.Field[Any]):
    """A boolean, an integer, a string, or a list (a `per_seat` option, one entry per seat:
    integers, `pulls: [0, 1, 2, 0]`, or with choices each a choice or null, `void_suit: ["m",
    null, "s", "p"]`); the rule set's option definition says which, its bounds and choices
    (else 422 `invalid_option`, pointing at the entry: `/context/options/pulls/2`).
    """

    # Read by `Options` (never a field by itself): one value of `context.options`, written
    # once in the contract.
    contract_name: ClassVar[str] = "OptionValue"


def _option_list(items: list[Any]) -> tuple[list[Any], dict[int, list[str]] | list[str]]:
    """A list option value (a per-seat option): its entries, each an integer, a string or
    null, and its errors (keyed by index, like a List field's, or messages about the list
    itself); no errors: empty."""
    if len(items) > MAX_OPTION_LIST:
        return [], [_more(MAX_OPTION_LIST)]
    entries: list[Any] = []
    errors: dict[int, list[str]] = {}
    for i, item in enumerate(items):
        if item is None:
            entries.append(None)
            continue
        if type(item) is str:
            if len(item) > MAX_OPTION_STRING_LENGTH:
                errors[i] = [_longer(MAX_OPTION_STRING_LENGTH)]
            else:
                entries.append(item)
            continue
        number = as_integer(item)
        if number is None:
            errors[i] = [MSG_NOT_OPTION_ENTRY]
        elif not OPTION_INT_MIN <= number <= OPTION_INT_MAX:
            errors[i] = [f"Must be between {OPTION_INT_MIN} and {OPTION_INT_MAX}."]
        else:
            entries.append(number)
    return entries, errors


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


# The `code` of one entry of `errors` of an `invalid_request` problem: what is wrong with that
# field.
REQUIRED, UNKNOWN_FIELD, INVALID_TYPE, INVALID_VALUE = (
    "required", "unknown_field", "invalid_type", "invalid_value")
FIELD_ERROR_CODES = (REQUIRED, UNKNOWN_FIELD, INVALID_TYPE, INVALID_VALUE)


def _classify(message: str) -> str:
    if message in _REQUIRED:
        return REQUIRED
    if message in _UNKNOWN:
        return UNKNOWN_FIELD
    if message in _TYPE:
        return INVALID_TYPE
    return INVALID_VALUE


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

