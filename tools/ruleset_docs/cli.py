"""The command line: ``./run docs [--check]`` or ``python -m tools.ruleset_docs`` (`main`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from app.settings import REPO_ROOT, RULESETS_ENV
from tools.ruleset_docs.common import GENERATED
from tools.ruleset_docs.pages import render_all, source_dirs, stale_pages
from tools.ruleset_docs.pictures import render_pictures

__all__ = ["main"]


def main(argv: Sequence[str] | None = None, root: Path = REPO_ROOT) -> int:
    """Write the pages under `root` (or, with ``--check``, only say which are stale); the
    exit status."""
    parser = argparse.ArgumentParser(
        prog="./run docs", description="Write docs/rulesets/<id>.md for every rule set and "
        "docs/checks.md, generated from the rule sets, their cases and the check registry, "
        "and the pictures of docs/pictures.md (docs/pictures/*.svg).")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; list stale or missing pages and exit 1 if any")
    args = parser.parse_args(argv)
    rulesets, cases, elsewhere = source_dirs(root)
    pages = {**render_all(root, rulesets, cases), **render_pictures(rulesets)}
    stale, missing, left = stale_pages(root, pages)
    if elsewhere:
        # Rule sets of another directory (MAHJONG_RULESETS_DIR): the project's pages of rule
        # sets it lacks are neither stale nor removed.
        print(f"rule sets from {RULESETS_ENV}: {rulesets}", file=sys.stderr)
        left = []
    if args.check:
        for rel in stale:
            print(f"stale: {rel}")
        for rel in missing:
            print(f"missing: {rel}")
        for rel in left:
            print(f"no such rule set: {rel}")
        if stale or missing or left:
            print("run ./run docs to write the pages", file=sys.stderr)
            return 1
        print(f"{len(pages)} generated pages are up to date")
        return 0
    for rel in [*stale, *missing]:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(pages[rel], encoding="utf-8")
        print(f"wrote {rel}")
    for rel in left:
        path = root / rel
        if path.read_text(encoding="utf-8").startswith(GENERATED):
            path.unlink()
            print(f"removed {rel} (no such rule set)")
        else:
            print(f"kept {rel}: not a generated page", file=sys.stderr)
    if not (stale or missing or left):
        print(f"{len(pages)} generated pages are up to date")
    return 0
