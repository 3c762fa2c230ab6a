"""The pictures of docs/pictures.md (`./run docs` writes them: tools/ruleset_docs/pictures.py)
are those the service draws today, each shown on the page."""

from __future__ import annotations

from pathlib import Path

from tools.ruleset_docs.pictures import PICTURES, render_pictures

ROOT = Path(__file__).resolve().parents[2]


def test_the_committed_pictures_are_current() -> None:
    drawn = render_pictures(ROOT / "rulesets")
    assert set(drawn) == set(PICTURES)
    for path, svg in drawn.items():
        assert (ROOT / path).read_text(encoding="utf-8") == svg, f"{path}: run ./run docs"


def test_the_page_shows_each_picture() -> None:
    page = (ROOT / "docs" / "pictures.md").read_text(encoding="utf-8")
    for path in PICTURES:
        assert f"]({Path(path).relative_to('docs')})" in page, path
    for shot in ("calculator-desktop.png", "calculator-phone.png"):
        assert (ROOT / "docs" / "pictures" / shot).stat().st_size > 20_000
        assert f"](pictures/{shot})" in page
