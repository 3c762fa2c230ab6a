"""Interactive API docs at `GET /docs`: Swagger UI on the served `openapi.yaml`.

Swagger UI's files come from a PyPI package (`swagger-ui-bundle-v2`, Swagger UI 5, which
reads OpenAPI 3.1) and are served by the service itself under `/docs/assets/`: the page works
where the service is deployed without access to the internet (no CDN).

The files are static and large (megabytes of JavaScript), so each is read and
gzip-compressed once, on its first request, and kept in memory: a client that accepts gzip
gets the compressed bytes without the cost of compressing them again. Each form has its own
strong ETag (RFC 9110 §8.8.3: the gzipped bytes are another representation), and
`If-None-Match` / `If-Modified-Since` are answered 304; ranges are not served.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from flask import Blueprint, Response, abort, request
from swagger_ui_bundle import swagger_ui_path

from app.api.compression import accepts_gzip, add_vary

docs = Blueprint("docs", __name__)

# The files the page loads; nothing else of the package is served.
ASSETS = ("swagger-ui.css", "swagger-ui-bundle.js")
MAX_AGE = 86400  # seconds a browser may keep a file without asking again


@dataclass(frozen=True, slots=True)
class _Asset:
    mimetype: str
    plain: bytes
    gzipped: bytes
    etag: str  # of the plain bytes; the gzipped form's adds "-gzip"
    modified: datetime

PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Mahjong scoring service: API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({url: "/openapi.yaml", dom_id: "#swagger-ui", deepLinking: true});
  </script>
</body>
</html>
"""


@docs.get("/docs")
def docs_page() -> Response:
    return Response(PAGE, mimetype="text/html")


@functools.cache
def _asset(name: str) -> _Asset:
    """One of `ASSETS`, read and compressed once per process (the package's files do not
    change while the service runs)."""
    path = Path(swagger_ui_path) / name
    plain = path.read_bytes()
    return _Asset(
        mimetype="text/css" if name.endswith(".css") else "text/javascript",
        plain=plain,
        # Level 9 and mtime 0: paid once, and the same bytes (so the same ETag) every time.
        gzipped=gzip.compress(plain, 9, mtime=0),
        etag=hashlib.sha256(plain).hexdigest()[:32],
        modified=datetime.fromtimestamp(int(path.stat().st_mtime), UTC),
    )


@docs.get("/docs/assets/<asset>")
def docs_asset(asset: str) -> Response:
    if asset not in ASSETS:
        abort(404)
    found = _asset(asset)
    zipped = accepts_gzip(request.accept_encodings)
    response = Response(found.gzipped if zipped else found.plain, mimetype=found.mimetype)
    if zipped:
        response.headers["Content-Encoding"] = "gzip"
    add_vary(response)
    response.set_etag(f"{found.etag}-gzip" if zipped else found.etag)
    response.last_modified = found.modified
    response.cache_control.public = True
    response.cache_control.max_age = MAX_AGE
    response.make_conditional(request)  # 304 when the client's copy is this one
    return response
