"""The request schemas' own `load` (a loop over the declared fields) gives exactly what
marshmallow's generic `load` gives: the same data, or the same errors (pointer, code and
message), on bodies that follow the schemas closely and on bodies that do not."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import Schema, ValidationError, fields

from app.service import schema_fields
from app.service.schema_fields import HandBase, flatten_errors
from app.service.tiles import settle_schemas
from app.service.tiles.request_schemas import SCORE_REQUEST, WAITS_REQUEST
from app.service.tiles.settle_schemas import SETTLE_REQUEST

PROPS = settings(max_examples=200, deadline=None, database=None,
                 suppress_health_check=list(HealthCheck))

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 2**33), st.floats(allow_nan=False,
                                                                  allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["5m", "E", "1f", "123m", "1112345678999m5m", "discard", "self_draw",
                     "robbed", "kong", "win", "draw", "direct", "added", "concealed", "pung",
                     "chow", "东"]))
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=12)


def _fields_of(schema: Schema) -> dict[str, fields.Field[Any]]:
    return dict(schema.load_fields)


@st.composite
def shaped(draw: st.DrawFn, schema: Schema, depth: int = 0) -> Any:
    """A body for `schema`: some of its fields (values shaped by the field, or any JSON
    value), sometimes a field it does not have, sometimes not an object at all."""
    if draw(st.integers(0, 19)) == 0:
        return draw(json_values)
    out: dict[str, Any] = {}
    for name, field in _fields_of(schema).items():
        if draw(st.integers(0, 3)) == 0:
            continue
        out[name] = draw(_value(field, depth))
    if draw(st.integers(0, 5)) == 0:
        out[draw(st.text(min_size=1, max_size=6))] = draw(json_scalars)
    return out


def _value(field: fields.Field[Any], depth: int) -> st.SearchStrategy[Any]:
    choices: list[st.SearchStrategy[Any]] = [json_values]
    if depth < 3:
        if isinstance(field, fields.Nested):
            choices.append(shaped(field.schema, depth + 1))
        elif isinstance(field, fields.List) and isinstance(field.inner, fields.Nested):
            choices.append(st.lists(shaped(field.inner.schema, depth + 1), max_size=5))
        elif isinstance(field, HandBase):
            choices.append(shaped(field.objects, depth + 1))
        elif isinstance(field, settle_schemas.Event):
            kong = settle_schemas._KONG_SCHEMAS["direct"]
            events = (*settle_schemas._EVENT_SCHEMAS.values(), kong)
            choices += [shaped(s, depth + 1) for s in events]
            choices.append(st.builds(lambda k, e: {**e, "type": "kong", "kind": k},
                                     st.sampled_from(["direct", "added", "concealed", "x"]),
                                     shaped(kong, depth + 1)))
            return st.lists(st.one_of(choices), max_size=4)
    return st.one_of(choices)


def _outcome(schema: Schema, body: Any) -> tuple[str, Any]:
    try:
        return "ok", schema.load(body)
    except ValidationError as exc:
        return "errors", sorted(tuple(sorted(e.items())) for e in flatten_errors(exc.messages))


def _both(schema: Schema, body: Any,
          monkeypatch: pytest.MonkeyPatch) -> tuple[tuple[str, Any], tuple[str, Any]]:
    ours = _outcome(schema, body)
    with monkeypatch.context() as m:
        # marshmallow's own load, for this schema and every schema nested in it.
        m.setattr(schema_fields._Strict, "load",
                  lambda self, data, **kw: Schema.load(self, data, **kw))
        theirs = _outcome(schema, body)
    return ours, theirs


@pytest.mark.parametrize("schema", [SCORE_REQUEST, WAITS_REQUEST, SETTLE_REQUEST],
                         ids=["score", "waits", "settle"])
@PROPS
@given(data=st.data())
def test_the_schemas_load_as_marshmallow_does(schema: Schema, data: st.DataObject,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    body = data.draw(shaped(schema))
    ours, theirs = _both(schema, body, monkeypatch)
    assert ours == theirs


@pytest.mark.parametrize("body", [
    {"hand": "1112345678999m5m", "context": {"win_type": "discard", "discarder": 2}},
    {"hand": {"concealed": "55m", "melds": [{"kind": "pung", "tiles": "EEE"}] * 9,
              "zz": 1}, "context": {"win_type": "tsumo", "winner": "0", "extra": 1}},
    {"hand": {"concealed": "1112345678999m5m"}, "context": {"win_type": "self_draw"}},
    {"hand": None, "context": None, "a": 1, "b": 2, "c": 3},
    [], "x",
])
def test_examples_load_as_marshmallow_does(body: Any,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    ours, theirs = _both(SCORE_REQUEST, body, monkeypatch)
    assert ours == theirs


def test_an_absent_field_with_a_default_is_no_unknown_field() -> None:
    # `melds` defaults to null when absent: it must not hide a field that does not belong.
    with pytest.raises(ValidationError) as exc:
        SCORE_REQUEST.load({"hand": {"concealed": "1112345678999m5m", "zz": 1},
                            "context": {"win_type": "self_draw"}})
    assert [e["pointer"] for e in flatten_errors(exc.value.messages)] == ["/hand/zz"]
