"""gzip both ways: `Accept-Encoding` read with its weights (q=0 refuses a coding), Swagger UI's
files compressed once and served with their own validators, and request bodies sent with
`Content-Encoding: gzip` decompressed within the same size limits as plain ones."""

from __future__ import annotations

import gzip
import importlib
import json
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.api.docs import ASSETS
from tests.api.helpers import NINE_GATES_REQUEST, SCORE_URL, problem

# The module itself: `app.api.docs` as an attribute is the blueprint app.api re-exports.
docs_module = importlib.import_module("app.api.docs")

LARGE_URL = "/v1/rulesets/mcr"  # a rule set's document: 16 KB, over the 2 KiB threshold
BATCH_URL = "/v1/rulesets/mcr/score/batch"


def _vary(response: Any) -> set[str]:
    return {v.strip().lower() for v in response.headers.get("Vary", "").split(",")}


# --- responses: Accept-Encoding ------------------------------------------------------------

@pytest.mark.parametrize(("accept", "zipped"), [
    ("gzip", True),
    ("GZIP", True),
    (" deflate , gzip ", True),
    ("*", True),
    ("br, gzip;q=0.1", True),
    ("identity;q=0, gzip;q=0.5", True),
    ("gzip;q=0.5, identity;q=0.5", True),  # a tie goes to gzip
    ("gzip;q=0", False),  # the reported fault: q=0 is "not acceptable"
    ("gzip; q=0", False),
    ("GZIP;Q=0", False),
    ("gzip;q=0.000", False),
    ("*;q=0", False),
    ("gzip;q=0, *", False),  # the explicit entry wins over the wildcard
    ("gzip;q=0.5, identity", False),  # identity preferred
    ("gzip;q=0.5, *", False),  # `*` weighs identity too, above gzip
    ("identity;q=0", False),  # nothing acceptable: sent as it is, not refused with 406
    ("br", False),
    ("gzip;q=2", False),  # an invalid weight drops the entry
    ("", False),
])
def test_accept_encoding_weights_are_honoured(client: FlaskClient, accept: str,
                                              zipped: bool) -> None:
    plain = client.get(LARGE_URL)
    response = client.get(LARGE_URL, headers={"Accept-Encoding": accept})
    assert response.status_code == 200
    assert "accept-encoding" in _vary(response)
    data = response.get_data()
    assert int(response.headers["Content-Length"]) == len(data)
    if zipped:
        assert response.headers["Content-Encoding"] == "gzip"
        data = gzip.decompress(data)
    else:
        assert "Content-Encoding" not in response.headers
    assert json.loads(data) == plain.get_json()


def test_small_answers_are_sent_as_they_are_even_without_identity(client: FlaskClient) -> None:
    """A single answer (under 2 KiB) is never compressed: `identity;q=0` is disregarded
    there (RFC 9110 §12.1 allows it) rather than answered 406; it still says Vary."""
    response = client.post(SCORE_URL, json=NINE_GATES_REQUEST,
                           headers={"Accept-Encoding": "identity;q=0, gzip"})
    assert response.status_code == 200
    assert "Content-Encoding" not in response.headers
    assert "accept-encoding" in _vary(response)


def test_problems_are_not_compressed_nor_vary(client: FlaskClient) -> None:
    response = client.get("/v1/rulesets/nope", headers={"Accept-Encoding": "gzip"})
    problem(response, 404, "unknown_ruleset")
    assert "Content-Encoding" not in response.headers
    assert "accept-encoding" not in _vary(response)


# --- Swagger UI's files ---------------------------------------------------------------------

@pytest.mark.parametrize("asset", ASSETS)
def test_docs_assets_are_gzipped_when_accepted(client: FlaskClient, asset: str) -> None:
    url = f"/docs/assets/{asset}"
    plain = client.get(url, headers={"Accept-Encoding": "gzip;q=0"})
    zipped = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert plain.status_code == zipped.status_code == 200
    assert "Content-Encoding" not in plain.headers
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert zipped.mimetype == plain.mimetype
    for response in (plain, zipped):
        assert "accept-encoding" in _vary(response)
        assert int(response.headers["Content-Length"]) == len(response.get_data())
        assert response.headers["Cache-Control"] == "public, max-age=86400"
    assert gzip.decompress(zipped.get_data()) == plain.get_data()
    assert len(zipped.get_data()) < len(plain.get_data()) / 3
    # Two representations, two strong validators (a cache must not swap them).
    plain_tag, plain_weak = plain.get_etag()
    zipped_tag, zipped_weak = zipped.get_etag()
    assert plain_tag and zipped_tag and plain_tag != zipped_tag
    assert not plain_weak and not zipped_weak


def test_docs_assets_answer_conditional_requests(client: FlaskClient) -> None:
    url = "/docs/assets/swagger-ui.css"
    first = client.get(url, headers={"Accept-Encoding": "gzip"})
    etag = first.headers["ETag"]
    again = client.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""
    assert again.headers["ETag"] == etag
    # The gzipped form's validator does not stand for the plain form.
    other = client.get(url, headers={"If-None-Match": etag})
    assert other.status_code == 200 and "Content-Encoding" not in other.headers
    assert other.get_data() == gzip.decompress(first.get_data())
    unchanged = client.get(url, headers={"If-Modified-Since": first.headers["Last-Modified"]})
    assert unchanged.status_code == 304


@pytest.fixture()
def counted_gzip(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The docs' gzip.compress, counting its calls, with the files' cache emptied."""
    calls: list[int] = []

    def compress(data: bytes, *args: Any, **kwargs: Any) -> bytes:
        calls.append(len(data))
        return gzip.compress(data, *args, **kwargs)

    docs_module._asset.cache_clear()
    monkeypatch.setattr(docs_module, "gzip", SimpleNamespace(compress=compress))
    yield calls
    docs_module._asset.cache_clear()


def test_docs_assets_are_compressed_once(client: FlaskClient, counted_gzip: list[int]) -> None:
    for _ in range(3):
        for asset in ASSETS:
            response = client.get(f"/docs/assets/{asset}", headers={"Accept-Encoding": "gzip"})
            assert response.headers["Content-Encoding"] == "gzip"
    assert len(counted_gzip) == len(ASSETS)


# --- request bodies: Content-Encoding -------------------------------------------------------

def _post(client: FlaskClient, data: bytes, coding: str | None = "gzip",
          url: str = SCORE_URL) -> Any:
    headers = {"Content-Encoding": coding} if coding is not None else {}
    return client.post(url, data=data, content_type="application/json", headers=headers)


def _body(request: dict[str, Any] = NINE_GATES_REQUEST, size: int | None = None) -> bytes:
    """The request as JSON, padded with trailing spaces (still valid JSON) to `size` bytes."""
    raw = json.dumps(request).encode()
    return raw if size is None else raw.ljust(size)


@pytest.mark.parametrize("coding", ["gzip", "GZIP", " gzip ", "x-gzip"])
def test_gzip_bodies_are_read(client: FlaskClient, coding: str) -> None:
    expected = _post(client, _body(), coding=None)
    response = _post(client, gzip.compress(_body()), coding)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.get_json() == expected.get_json()


def test_gzip_bodies_of_several_members_are_one_body(client: FlaskClient) -> None:
    raw = _body()
    response = _post(client, gzip.compress(raw[:10]) + gzip.compress(raw[10:]))
    assert response.status_code == 200, response.get_data(as_text=True)
    # The members joined are the body: the answer is the one to the body sent plain.
    assert response.get_json() == _post(client, raw, coding=None).get_json()


def test_identity_coding_is_no_coding(client: FlaskClient) -> None:
    assert _post(client, _body(), "identity").status_code == 200


@pytest.mark.parametrize(("data", "says"), [
    (_body(), "not valid gzip"),  # sent as gzip, but plain
    (gzip.compress(_body())[:-12], "ends early"),  # cut short
    (gzip.compress(_body()) + b"garbage", "not valid gzip"),  # something after it
    (b"", "ends early"),
], ids=["plain", "cut", "trailing-garbage", "empty"])
def test_bodies_that_are_not_gzip_are_400(client: FlaskClient, data: bytes, says: str) -> None:
    body = problem(_post(client, data), 400, "malformed_gzip")
    assert "Content-Encoding: gzip" in body["detail"] and says in body["detail"]


def _limit(app: Flask, key: str = "MAX_CONTENT_LENGTH") -> int:
    return int(app.config[key])


def test_gzip_bodies_up_to_the_limit_decompressed_are_read(app: Flask,
                                                           client: FlaskClient) -> None:
    response = _post(client, gzip.compress(_body(size=_limit(app))))
    assert response.status_code == 200, response.get_data(as_text=True)


@pytest.mark.parametrize("extra", [1, 20 * 1024 * 1024])  # one byte over; a zip bomb
def test_gzip_bodies_over_the_limit_decompressed_are_413(app: Flask, client: FlaskClient,
                                                         extra: int) -> None:
    limit = _limit(app)
    data = gzip.compress(_body(size=limit + extra))
    assert len(data) < limit  # small as sent: only the decompressed size is over
    body = problem(_post(client, data), 413, "payload_too_large")
    assert str(limit) in body["detail"] and "decompressed" in body["detail"]


def test_the_decompressed_limit_is_the_routes_own(app: Flask, client: FlaskClient) -> None:
    """A batch takes its own, larger limit decompressed too."""
    size = _limit(app) + 1000
    assert size < _limit(app, "MAX_BATCH_CONTENT_LENGTH")
    batch = _body({"requests": [NINE_GATES_REQUEST]}, size=size)
    response = _post(client, gzip.compress(batch), url=BATCH_URL)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert "result" in response.get_json()["results"][0]
    over = _body({"requests": [NINE_GATES_REQUEST]},
                 size=_limit(app, "MAX_BATCH_CONTENT_LENGTH") + 1)
    problem(_post(client, gzip.compress(over), url=BATCH_URL), 413, "payload_too_large")


@pytest.mark.parametrize("coding", ["br", "deflate", "zstd", "compress", "gzip, gzip",
                                    "identity, gzip"])
def test_other_content_encodings_are_415(client: FlaskClient, coding: str) -> None:
    response = _post(client, gzip.compress(_body()), coding)
    body = problem(response, 415, "unsupported_content_encoding")
    assert response.headers["Accept-Encoding"] == "gzip"
    assert coding in body["detail"] and "Content-Encoding: gzip" in body["detail"]
