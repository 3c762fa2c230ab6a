"""The interactive API docs (`/docs`): the page and its files are the service's own (no CDN),
and in a real headless browser (Debian's `chromium`) Swagger UI lists every operation of the
document; a screenshot is saved (its path is printed and recorded as a test property).
Without a browser the browser test is skipped, saying so; `.ci/run` installs one."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.api.docs import ASSETS
from tests.browser import BROWSER, serving


def test_the_page_and_its_files_are_served_here(client: FlaskClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "http://" not in html and "https://" not in html  # nothing from elsewhere
    assert 'url: "/openapi.yaml"' in html
    for asset in ASSETS:
        assert f"/docs/assets/{asset}" in html
        served = client.get(f"/docs/assets/{asset}")
        assert served.status_code == 200 and len(served.get_data()) > 10_000
        assert served.mimetype == ("text/css" if asset.endswith(".css") else "text/javascript")
    assert client.get("/docs/assets/index.html").status_code == 404
    assert client.get("/docs/assets/..%2Fsetup.py").status_code == 404


@pytest.fixture()
def served(app: Flask) -> Iterator[str]:
    with serving(app) as url:
        yield url


def _browser(*args: str) -> subprocess.CompletedProcess[str]:
    assert BROWSER is not None
    return subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu",
                           "--disable-dev-shm-usage", "--virtual-time-budget=20000", *args],
                          capture_output=True, text=True, timeout=180)


@pytest.mark.skipif(BROWSER is None, reason="no headless browser here (Debian: apt-get "
                    "install chromium; .ci/run installs it): /docs is rendered where one is")
def test_every_operation_is_listed_in_a_real_browser(served: str, spec: dict[str, Any],
                                                      tmp_path: Path,
                                                      record_property: Any) -> None:
    dom = _browser("--dump-dom", f"{served}/docs").stdout
    assert "swagger-ui" in dom
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method not in ("get", "post"):
                continue
            assert f'data-path="{path}"' in dom, path
            assert op["summary"] in dom, op["summary"]
    shot = tmp_path / "docs.png"
    _browser("--window-size=1280,2400", f"--screenshot={shot}", f"{served}/docs")
    assert shot.exists() and shot.stat().st_size > 20_000
    record_property("screenshot", str(shot))
    print(f"screenshot of /docs: {shot}")
