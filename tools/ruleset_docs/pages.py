"""The pages together: every rule set's page (a tile or a card page) and the catalogue, and
which committed pages are stale, missing or left from a rule set that no longer exists."""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable, Mapping
from pathlib import Path

from app.rules.families import CARDS, TILES, family_of
from app.settings import REPO_ROOT, RULESETS_ENV
from tools.ruleset_docs.card_page import CardPage
from tools.ruleset_docs.checks_page import render_checks_page
from tools.ruleset_docs.common import CHECKS_PAGE, PAGES_DIR, DocsError
from tools.ruleset_docs.sources import Source, load_sources
from tools.ruleset_docs.tile_page import TilePage

__all__ = ["diff", "render_all", "render_ruleset_page", "render_ruleset_pages", "stale_pages"]


# The page of each family of game, by the family's name (`app.rules.families`): the docs
# generator's part of the family registry.
PAGES: dict[str, Callable[[Source], CardPage | TilePage]] = {TILES: TilePage, CARDS: CardPage}


def render_ruleset_page(src: Source) -> str:
    """The page of one rule set, as its family writes it."""
    family = family_of(src.ruleset)
    page = PAGES.get(family)
    if page is None:
        raise DocsError(f"{src.ruleset.id}: no page is registered for family {family!r} "
                        f"(pages: {', '.join(sorted(PAGES))})")
    return page(src).render()


def render_ruleset_pages(rulesets_dir: Path, cases_dir: Path) -> dict[str, str]:
    """Every rule set's page, by rule-set id."""
    return {rid: render_ruleset_page(src)
            for rid, src in load_sources(rulesets_dir, cases_dir).items()}


def source_dirs(root: Path = REPO_ROOT) -> tuple[Path, Path, bool]:
    """Where the pages are made from: (rule sets, their cases, whether these are another
    directory's). As the service reads rule sets (`app.rulesets_dir`): the directory
    `MAHJONG_RULESETS_DIR` names, with the cases of its own `cases/` when it has one (else
    the project's `tests/cases/`); without it, `root`'s `rulesets/` and `tests/cases/`."""
    default = root / "rulesets"
    chosen = os.environ.get(RULESETS_ENV)
    if not chosen or Path(chosen).resolve() == default.resolve():
        return default, root / "tests" / "cases", False
    rulesets = Path(chosen)
    own = rulesets / "cases"
    return rulesets, own if own.is_dir() else root / "tests" / "cases", True


def render_all(root: Path = REPO_ROOT, rulesets: Path | None = None,
               cases: Path | None = None) -> dict[str, str]:
    """Every generated page by its path under `root`: the rule sets' (of `rulesets`, with
    the cases of `cases`; by default `root`'s own) and the catalogue."""
    pages = {f"{PAGES_DIR}/{rid}.md": text for rid, text in render_ruleset_pages(
        rulesets or root / "rulesets", cases or root / "tests" / "cases").items()}
    pages[CHECKS_PAGE] = render_checks_page()
    return pages


def stale_pages(root: Path, pages: Mapping[str, str]) -> tuple[list[str], list[str], list[str]]:
    """(stale, missing, left over): pages that differ from `pages`, that do not exist yet, and
    generated rule-set pages of rule sets that no longer exist."""
    stale, missing = [], []
    for rel, text in pages.items():
        path = root / rel
        if not path.exists():
            missing.append(rel)
        elif path.read_text(encoding="utf-8") != text:
            stale.append(rel)
    left = [f"{PAGES_DIR}/{p.name}" for p in sorted((root / PAGES_DIR).glob("*.md"))
            if f"{PAGES_DIR}/{p.name}" not in pages]
    return stale, missing, left


def diff(old: str, new: str, name: str, lines: int = 40) -> str:
    """The first lines of a unified diff from the committed page to its regeneration."""
    out = list(difflib.unified_diff(old.splitlines(), new.splitlines(), f"{name} (committed)",
                                    f"{name} (generated)", lineterm=""))
    more = f"\n... {len(out) - lines} more lines" if len(out) > lines else ""
    return "\n".join(out[:lines]) + more
