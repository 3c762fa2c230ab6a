"""Interactive API docs at `GET /docs`: Swagger UI on the served `openapi.yaml`.

Swagger UI's files come from a PyPI package (`swagger-ui-bundle-v2`, Swagger UI 5, which
reads OpenAPI 3.1) and are served by the service itself under `/docs/assets/`: the page works
where the service is deployed without access to the internet (no CDN).
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, send_from_directory
from swagger_ui_bundle import swagger_ui_path

docs = Blueprint("docs", __name__)

# The files the page loads; nothing else of the package is served.
ASSETS = ("swagger-ui.css", "swagger-ui-bundle.js")

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


@docs.get("/docs/assets/<asset>")
def docs_asset(asset: str) -> Response:
    if asset not in ASSETS:
        abort(404)
    response: Response = send_from_directory(swagger_ui_path, asset, max_age=86400)
    return response
