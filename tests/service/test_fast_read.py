"""app.service.fast_read: the schemas described for the fast reader, and what each kind refuses.

tests/service/test_schemas.py shows that a schema's `load` (this reader first) gives what
marshmallow's generic `load` gives; here: the request schemas' fields are read by kind (the
field's own reading only where no kind fits), each kind takes what its field takes and
refuses what it refuses (None, so that the schema reads the object again and says why).
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from marshmallow import ValidationError

from app.service.fast_read import (
    BOOLEAN,
    FLOWERS,
    HAND,
    INTEGER,
    OBJECT,
    OBJECTS,
    OTHER,
    STRING,
    TILES,
    ObjectReader,
    key_count,
    read_object,
    written_colons,
)
from app.service.tiles.request_schemas import SCORE_REQUEST, WAITS_REQUEST, ContextSchema
from app.service.tiles.settle_schemas import SETTLE_REQUEST

CONTEXT = ContextSchema()
VALID_CONTEXT = {"win_type": "discard", "discarder": 1, "winner": 0, "dealer": 2.0,
                 "seat_wind": "S", "round_wind": "E", "kong": None, "last_tile": False,
                 "flowers": 2, "wilds": ["5m"], "options": {"base": 5}}


def _reader(schema: Any) -> ObjectReader:
    reader = schema.fast_reader()
    assert reader is not None
    return reader  # type: ignore[no-any-return]


def test_the_score_request_is_read_by_kind() -> None:
    top = _reader(SCORE_REQUEST).by_key
    assert (top["hand"].kind, top["context"].kind) == (HAND, OBJECT)
    hand = top["hand"].nested
    assert hand is not None
    assert {k: f.kind for k, f in hand.by_key.items()} == {
        "concealed": TILES, "melds": OBJECTS, "win_tile": STRING}
    meld = hand.by_key["melds"].nested
    assert meld is not None
    assert {k: f.kind for k, f in meld.by_key.items()} == {
        "kind": STRING, "tiles": TILES, "concealed": BOOLEAN}
    context = {k: f.kind for k, f in _reader(CONTEXT).by_key.items()}
    # Options are read by their own field; flowers are a count, a list or a string.
    assert {k for k, kind in context.items() if kind == OTHER} == {"options"}
    assert context["flowers"] == FLOWERS
    assert context["winner"] == INTEGER and context["win_type"] == STRING


def test_every_request_schema_has_a_reader() -> None:
    for schema in (SCORE_REQUEST, WAITS_REQUEST, SETTLE_REQUEST):
        assert schema.fast_reader() is not None


def test_a_valid_object_reads_as_the_schema_reads_it() -> None:
    fast = read_object(_reader(CONTEXT), VALID_CONTEXT)
    assert fast is not None
    assert fast == CONTEXT.read_declared(VALID_CONTEXT)
    assert fast["dealer"] == 2 and type(fast["dealer"]) is int


@pytest.mark.parametrize(("key", "value"), [
    ("win_type", "won"),  # not one of the choices
    ("win_type", 3),
    ("last_tile", 1),  # an integer is not a boolean
    ("winner", True),  # a boolean is not an integer
    ("winner", 1.5),
    ("winner", -1),
    ("dealer", "2"),
    ("seat_wind", "e"),
    ("wilds", "5m" * 200),  # too long a notation string
    ("wilds", [5]),  # a list of something other than tile codes
    ("wilds", ["5m"] * 40),
    ("flowers", -1),
    ("flowers", 2.5),
    ("flowers", 2**31),
    ("flowers", True),
    ("flowers", "f" * 201),
    ("flowers", ["1f"] * 17),
    ("flowers", ["1f", 2]),
    ("flowers", ["spring-flower"]),  # a tile code longer than any
    ("flowers", {"n": 2}),
    ("options", []),
    ("nonsense", 1),  # not a field
])
def test_a_fault_reads_as_none_and_the_schema_says_why(key: str, value: Any) -> None:
    data = {**VALID_CONTEXT, key: value}
    assert read_object(_reader(CONTEXT), data) is None
    with pytest.raises(ValidationError) as info:
        CONTEXT.load(data)
    assert key in info.value.messages


@pytest.mark.parametrize("value", [0, 3, 3.0, "1f3f", "春夏", ["1f", "3f"], [], None])
def test_flowers_read_as_the_field_reads_them(value: Any) -> None:
    data = {**VALID_CONTEXT, "flowers": value}
    fast = read_object(_reader(CONTEXT), data)
    assert fast is not None
    assert fast == CONTEXT.read_declared(data)
    assert type(fast["flowers"]) is type(CONTEXT.read_declared(data)["flowers"])


def test_a_missing_required_field_or_a_null_where_none_is_allowed() -> None:
    reader = _reader(CONTEXT)
    assert read_object(reader, {"dealer": 0}) is None  # win_type is required
    read = read_object(reader, {"win_type": "self_draw", "winner": None})
    assert read is not None and read["winner"] is None
    hand = _reader(SCORE_REQUEST).by_key["hand"].nested
    assert hand is not None
    assert read_object(hand, {"concealed": None}) is None  # not nullable


def test_nested_objects_and_lists_of_them() -> None:
    top = _reader(SCORE_REQUEST)
    body = {"hand": {"concealed": "1112345678999m", "win_tile": "5m",
                     "melds": [{"kind": "pung", "tiles": "555s"}]},
            "context": {"win_type": "discard"}}
    read = read_object(top, body)
    assert read == SCORE_REQUEST.read_declared(body)
    for melds in ([{"kind": "pong", "tiles": "555s"}], ["555s"], {"kind": "pung"},
                  [{"kind": "pung", "tiles": "555s"}] * 9):
        faulty = {**body, "hand": {**body["hand"], "melds": melds}}
        assert read_object(top, faulty) is None
        with pytest.raises(ValidationError):
            SCORE_REQUEST.load(faulty)



@pytest.mark.parametrize("document", [
    {}, [], {"a": 1}, {"a:b": "c::d", "e": [":", {"f": None, "g": 1.5}], "h": {"i": True}},
    [{"k": "x"}, [{"k": 1, "j": {"z": 0}}], "a:b"],
])
def test_the_colons_and_keys_are_counted_as_json_writes_them(document: Any) -> None:
    # (`app.service.json_body` compares them with a body's colons, for a repeated key.)
    in_strings = sum(s.count(":") for s in _strings(document))
    assert written_colons(document) == orjson.dumps(document).count(b":")
    assert key_count(document) == written_colons(document) - in_strings


def _strings(value: Any) -> list[str]:
    """Every string of a document, its keys and values."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *_strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []
