"""Repeated keys: refused wherever a JSON document is read, whatever spells the colons."""

from __future__ import annotations

import pytest

from app.service.json_body import json_document
from app.service.problems import ApiError


@pytest.mark.parametrize(("raw", "pointers"), [
    (b'{"a": 1, "a": 2}', ["/a"]),
    # A key spelled with an escaped colon: the body shows fewer colons than it holds.
    (b'{"a\\u003a": 1, "a\\u003a": 2}', ["/a:"]),
    (b'{"x": "\\u003a", "b": 1, "b": 1}', ["/b"]),
    (b'{"a\\u003a": 1, "a:": 2}', ["/a:"]),  # one key, spelled two ways
    # An integer orjson cannot read (nor write again) still has its keys counted.
    (b'{"n": 123456789012345678901234, "n": 1}', ["/n"]),
    (b'[{"k": 1}, [{"k": 1, "j": {"z": 0, "z": 0}, "k": 2}]]', ["/1/0/k", "/1/0/j/z"]),
    (b'\xef\xbb\xbf{"t": 1, "t": 1}', ["/t"]),
])
def test_a_repeated_key_is_found(raw: bytes, pointers: list[str]) -> None:
    with pytest.raises(ApiError) as info:
        json_document(raw)
    assert info.value.code == "duplicate_key"
    assert info.value.status == 400
    assert [e["pointer"] for e in info.value.errors] == pointers


@pytest.mark.parametrize("raw", [
    b'{"a\\u003a": 1, "b:": 2, "c": ":"}',
    b'{"a": {"a": {"a": "::"}}}',
    b'[{"k": 1}, {"k": 1}]',
    b'"a:b"',
    b'{"n": 123456789012345678901234, "m": "x:y"}',
])
def test_no_repeat_is_refused(raw: bytes) -> None:
    assert json_document(raw) is not None


def test_a_deep_document_with_colons_in_strings_is_read() -> None:
    raw = b'{"a": ' * 900 + b'":"' + b"}" * 900
    assert json_document(raw) is not None
