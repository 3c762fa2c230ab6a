"""gzip both ways: large responses for clients that accept it, request bodies sent gzipped.

Responses. `Accept-Encoding` is read by werkzeug's parser (RFC 9110 §12.5.3: q-values,
`*`, case, whitespace; an entry with an invalid q-value is dropped). gzip is used when its
weight is above 0 and at least that of `identity`; `identity` is acceptable unless the header
gives it q=0 (or `*;q=0` without an `identity` entry), and when nothing is acceptable the
response is sent as it is rather than refused with 406 (RFC 9110 §12.1 lets a server
disregard the header). Only 2xx responses of the media types below over `min_size` bytes are
compressed; every 2xx response of those types says `Vary: Accept-Encoding`, since whether it
is compressed depends on the header. The API's responses carry no validators (ETag), so
nothing here has to keep them apart; the docs' static files, which do, compress themselves
(app/api/docs.py).

Request bodies. `Content-Encoding: gzip` (or its old name `x-gzip`) is decompressed with a
bound: the decompressed body must fit the same limit as a plain one, so a small gzip bomb
costs at most that many bytes of memory. Any other coding is refused with 415.
"""

from __future__ import annotations

import gzip
import zlib

from flask import Flask, Response, request
from werkzeug.datastructures import Accept
from werkzeug.http import parse_accept_header

from app.service.problems import ApiError

# Media types worth compressing (what the API answers in); Swagger UI's files are not here.
COMPRESSED_MEDIA_TYPES = frozenset({
    "application/json", "application/problem+json", "application/yaml", "text/plain"})
# The default compression level of gzip and zlib: most of level 9's gain at a third of its time.
LEVEL = 6

ACCEPTED_BODY_CODINGS = "gzip"  # what a 415 names in its `Accept-Encoding` header
_GZIP_NAMES = frozenset({"gzip", "x-gzip"})  # RFC 9110 §8.4.1.3: x-gzip is gzip
_GZIP_WBITS = 16 + zlib.MAX_WBITS  # zlib reads a gzip member (header and trailer)


def accepts_gzip(accept: Accept) -> bool:
    """True if a response may be gzip-compressed for a client with this `Accept-Encoding`
    (`request.accept_encodings`): gzip is acceptable, and preferred at least as much as no
    coding."""
    gzip_q = accept.quality("gzip")  # an explicit entry, else `*`'s, else 0
    if gzip_q <= 0:
        return False
    # `identity` competes only when the header weighs it (its own entry or `*`); unnamed it
    # is acceptable but least preferred.
    return accept.find("identity") < 0 or gzip_q >= accept.quality("identity")


def gzip_for(accept_encoding: str) -> bool:
    """`accepts_gzip` of an `Accept-Encoding` header's value, as werkzeug reads it."""
    return accepts_gzip(parse_accept_header(accept_encoding, Accept))


def gzip_body(data: bytes) -> bytes:
    """`data` gzip-compressed (mtime 0: the same body always gives the same bytes)."""
    return gzip.compress(data, LEVEL, mtime=0)


def add_vary(response: Response) -> None:
    """Add `Accept-Encoding` to the response's `Vary` (keeping what is there)."""
    vary = response.headers.get("Vary")
    if not vary:
        response.headers["Vary"] = "Accept-Encoding"
    elif "accept-encoding" not in vary.lower():
        response.headers["Vary"] = f"{vary}, Accept-Encoding"


def register_compression(app: Flask, *, min_size: int) -> None:
    """gzip for the app's 2xx responses of the media types above, over `min_size` bytes."""

    @app.after_request
    def compress(response: Response) -> Response:
        # Cheapest tests first: this runs on every response, and most (a single score
        # answer) stop at the size.
        if not 200 <= response.status_code < 300 or response.is_streamed:
            return response
        ctype = response.headers.get("Content-Type", "")
        if ctype.partition(";")[0].strip().lower() not in COMPRESSED_MEDIA_TYPES:
            return response
        add_vary(response)
        length = response.content_length
        if (length is not None and length < min_size) or "Content-Encoding" in response.headers:
            return response
        if "HTTP_ACCEPT_ENCODING" not in request.environ:
            return response
        if not accepts_gzip(request.accept_encodings):
            return response
        response.set_data(gzip_body(response.get_data()))
        response.headers["Content-Encoding"] = "gzip"
        return response


def check_body_coding(coding: str) -> bool:
    """True if a body sent with this `Content-Encoding` is gzip (to be decompressed), False if
    it has no coding; an `ApiError` 415 for any other coding."""
    name = coding.strip().lower()
    if name in _GZIP_NAMES:
        return True
    if name in ("", "identity"):
        return False
    raise ApiError(
        "unsupported_content_encoding",
        f"The request body's Content-Encoding {coding.strip()!r} is not supported: send the "
        "body as it is (no Content-Encoding) or gzip-compressed (Content-Encoding: gzip).",
        headers={"Accept-Encoding": ACCEPTED_BODY_CODINGS},
    )


def gunzip_body(raw: bytes, limit: int) -> bytes:
    """The body `raw` sent gzip-compressed, decompressed: at most `limit` bytes (else an
    `ApiError` payload_too_large), or an `ApiError` malformed_gzip when it is not gzip.
    Several members one after the other (RFC 1952 §2.2) are one body, as gzip reads them."""
    out: list[bytes] = []
    size = 0
    rest = raw
    while True:
        unzip = zlib.decompressobj(_GZIP_WBITS)
        try:
            # At most one byte past the limit: enough to know the body is over it, and no
            # more memory than that whatever the compression ratio.
            part = unzip.decompress(rest, limit - size + 1)
        except zlib.error as exc:
            raise _malformed(f"it is not valid gzip ({exc})") from None
        size += len(part)
        if size > limit:
            raise ApiError(
                "payload_too_large",
                f"The request body is larger than {limit} bytes once decompressed (gzip): "
                "the limit holds for the decompressed body.")
        out.append(part)
        # Below the bound zlib has taken all the input: a member not at its end is cut short.
        if not unzip.eof:
            raise _malformed("its gzip data ends early (a cut or incomplete body)")
        rest = unzip.unused_data
        if not rest:
            return b"".join(out)


def _malformed(why: str) -> ApiError:
    return ApiError("malformed_gzip",
                    f"The request body is sent with Content-Encoding: gzip, but {why}.")
