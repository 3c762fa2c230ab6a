"""The calculator page at `GET /calculator`: a person enters a hand and reads its score,
its waits or its discard analysis; or scores a match hand by hand, its scoresheet growing.

The page is three static files of the service's own (`app/api/static/calculator.*`: HTML, a
script and a style sheet, no build step, no library, nothing from another host), served here;
everything it shows is asked of the API itself (the rule sets, the chosen one's document, the
score, waits, analysis and match answers and their pictures). The files are read once per process;
each answer carries a strong ETag, so a browser that has one asks again cheaply (304).
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from flask import Blueprint, Response, abort, request

calculator = Blueprint("calculator", __name__)

STATIC = Path(__file__).resolve().parent / "static"
# The files served: name -> media type.
FILES = {"calculator.html": "text/html", "calculator.js": "text/javascript",
         "calculator.css": "text/css"}
# The page loads nothing from another host, and runs no script but its own file.
POLICY = ("default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
          "script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'self'")


@functools.cache
def _file(name: str) -> tuple[bytes, str]:
    data = (STATIC / name).read_bytes()
    return data, hashlib.sha256(data).hexdigest()[:32]


def _send(name: str) -> Response:
    data, etag = _file(name)
    response = Response(data, mimetype=FILES[name])
    response.set_etag(etag)
    response.cache_control.no_cache = True  # kept, but asked again (a new version shows)
    response.headers["Content-Security-Policy"] = POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.make_conditional(request)
    return response


@calculator.get("/calculator")
def calculator_page() -> Response:
    return _send("calculator.html")


@calculator.get("/calculator/<name>")
def calculator_file(name: str) -> Response:
    if name not in FILES or name.endswith(".html"):
        abort(404)
    return _send(name)
