"""Reading a request object that is valid, fast (compiled with the engine, see setup.py).

The request schemas (the tile games' `app.service.tiles.request_schemas` and `settle_schemas`,
the card games' `card_schemas`, the batch's `app.service.request_schemas`) declare every
request shape with marshmallow fields, and stay the one place that says what a request may
hold. From each schema it derives an `ObjectReader`: per field, what kind of value it takes
(the checks of that field class's `_deserialize`, as data). `read_object` reads an object with
it and answers the same dict the schema's own reading would, or None at the first fault: the
schema then reads the object again its own way and lists every fault with its message. A field
whose reading is not one of the kinds here is read by the field itself (`FieldReader.other`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

# What a field takes (the field classes of app.service.schema_fields):
STRING: Final = 0  # StrictStr: a string, one of `choices` when some, at most `max_length` long
BOOLEAN: Final = 1  # StrictBool: true or false
INTEGER: Final = 2  # StrictInt: an integer (2.0 is 2, true is not) in [minimum, maximum]
TILES: Final = 3  # Tiles: a notation string, or a list of at most `max_items` tile codes
HAND: Final = 4  # HandBase: a notation string, or an object read by `nested`
OBJECT: Final = 5  # Nested: an object read by `nested`
OBJECTS: Final = 6  # List of Nested: a list of at most `max_items` objects read by `nested`
OTHER: Final = 7  # read by `other(value, key, object)`: the field's own reading, raising at a fault
FLOWERS: Final = 8  # Flowers: an integer in [minimum, maximum], or tiles as TILES reads them

NO_LIMIT: Final = -1


class FieldReader:
    """How one field's value is read, when present and not null."""

    __slots__ = (
        "allow_none",
        "choices",
        "code_length",
        "kind",
        "max_items",
        "max_length",
        "maximum",
        "minimum",
        "name",
        "nested",
        "notation_length",
        "other",
        "required",
    )

    def __init__(self, name: str, kind: int, *, allow_none: bool = False,
                 choices: frozenset[str] = frozenset(), max_length: int = NO_LIMIT,
                 minimum: int = 0, maximum: int = 0, max_items: int = NO_LIMIT,
                 notation_length: int = NO_LIMIT, code_length: int = NO_LIMIT,
                 nested: ObjectReader | None = None,
                 other: Callable[[Any, str, dict[str, Any]], Any] | None = None) -> None:
        self.name = name  # the attribute it is read into
        self.kind = kind
        self.allow_none = allow_none
        self.choices = choices
        self.max_length = max_length
        self.minimum = minimum
        self.maximum = maximum
        self.max_items = max_items
        self.notation_length = notation_length  # a notation string's longest (TILES, HAND)
        self.code_length = code_length  # a listed tile code's longest (TILES)
        self.nested = nested
        self.other = other
        self.required = False  # the object must hold its key (set by its `ObjectReader`)


class ObjectReader:
    """How an object is read: its fields by key, the keys it must hold, and what the fields
    it does not hold are read as."""

    __slots__ = ("as_is", "by_key", "defaults", "required", "required_count")

    def __init__(self, by_key: dict[str, FieldReader], required: frozenset[str],
                 defaults: dict[str, Any]) -> None:
        self.by_key = by_key
        self.required = required
        self.defaults = defaults
        # An object holds every required key when it holds as many keys of required fields
        # as there are (each key once): counted while its keys are read, rather than each
        # looked up. A required key no field reads is never counted, so that no object passes
        # (as one holding it fails on the unknown key).
        self.required_count = len(required)
        for key in required:
            f = by_key.get(key)
            if f is not None:
                f.required = True
        # No field it does not hold takes a default, and each is read into its own key: the
        # object read holds the keys of the object given, in its order (see `_object`).
        self.as_is = not defaults and all(f.name == key for key, f in by_key.items())


class _Fault(Exception):
    """The object is not valid: the schema reads it again and says why."""


def read_object(reader: ObjectReader, data: dict[str, Any]) -> dict[str, Any] | None:
    """The object read as its schema would, or None when something in it is not valid."""
    try:
        return _object(reader, data)
    except _Fault:
        return None


def _object(reader: ObjectReader, data: dict[str, Any]) -> dict[str, Any]:
    by_key = reader.by_key
    # An object whose fields take no default and keep their keys (`as_is`) is read as a copy
    # of the object given, made at its size at once (a dict filled key by key grows several
    # times), its values replaced where reading made a new one (an object, a list of
    # objects, a number written as 2.0): the same keys, in the same order.
    as_is = reader.as_is
    out = data.copy() if as_is else dict(reader.defaults)
    required = 0  # the required fields' keys it holds
    for key, value in data.items():
        f = by_key.get(key)
        if f is None:
            raise _Fault
        if f.required:
            required += 1
        if value is None:
            if not f.allow_none:
                raise _Fault
            if not as_is:
                out[f.name] = None
        else:
            read = _value(f, value, key, data)
            if not as_is or read is not value:
                out[f.name] = read
    if required != reader.required_count:
        raise _Fault
    return out


def _value(f: FieldReader, value: Any, key: str, data: dict[str, Any]) -> Any:
    kind = f.kind
    if kind == STRING:
        if type(value) is not str or (f.choices and value not in f.choices) or (
                f.max_length != NO_LIMIT and len(value) > f.max_length):
            raise _Fault
        return value
    if kind == BOOLEAN:
        if type(value) is not bool:
            raise _Fault
        return value
    if kind == INTEGER or (kind == FLOWERS and (type(value) is int or type(value) is float)):
        number: int
        if type(value) is int:
            number = value
        elif type(value) is float and value.is_integer():
            number = int(value)
        else:
            raise _Fault
        if not f.minimum <= number <= f.maximum:
            raise _Fault
        return number
    if kind == TILES or kind == HAND or kind == FLOWERS:
        if type(value) is str:
            if len(value) > f.notation_length:
                raise _Fault
            return value
        if kind == HAND:
            return _nested(f, value)
        if type(value) is not list or len(value) > f.max_items:
            raise _Fault
        for item in value:
            if type(item) is not str or len(item) > f.code_length:
                raise _Fault
        return value
    if kind == OBJECT:
        return _nested(f, value)
    if kind == OBJECTS:
        if type(value) is not list or f.nested is None or (
                f.max_items != NO_LIMIT and len(value) > f.max_items):
            raise _Fault
        nested = f.nested
        out: list[Any] = []
        for item in value:
            if type(item) is not dict:
                raise _Fault
            out.append(_object(nested, item))
        return out
    other = f.other
    if other is None:
        raise _Fault
    try:
        return other(value, key, data)
    except Exception:
        raise _Fault from None


def _nested(f: FieldReader, value: Any) -> dict[str, Any]:
    # An object read by the field's nested reader (OBJECT, HAND).
    if type(value) is not dict or f.nested is None:
        raise _Fault
    return _object(f.nested, value)



def key_count(document: dict[str, Any] | list[Any]) -> int:
    """How many keys the objects in `document` hold, all levels together (a walk down the
    document: as deep as JSON read by orjson or the standard library may nest)."""
    count = 0
    if isinstance(document, dict):
        count = len(document)
        for value in document.values():
            if type(value) is dict or type(value) is list:
                count += key_count(value)
    else:
        for value in document:
            if type(value) is dict or type(value) is list:
                count += key_count(value)
    return count


def written_colons(document: dict[str, Any] | list[Any]) -> int:
    """The colons of `document` written as JSON, as orjson writes it: one after each key of
    each object, all levels together, and those inside its strings (keys and values; JSON
    never escapes a colon). `app.service.json_body` compares it with a body's own colons."""
    count = 0
    stack: list[Any] = [document]
    while stack:
        item = stack.pop()
        if type(item) is dict:
            members: dict[str, Any] = item
            count += len(members)
            for key, value in members.items():
                if ":" in key:
                    count += key.count(":")
                if type(value) is str:
                    if ":" in value:
                        count += value.count(":")
                elif type(value) is dict or type(value) is list:
                    stack.append(value)
        else:
            values: list[Any] = item
            for value in values:
                if type(value) is str:
                    if ":" in value:
                        count += value.count(":")
                elif type(value) is dict or type(value) is list:
                    stack.append(value)
    return count
