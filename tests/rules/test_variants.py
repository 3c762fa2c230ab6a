"""A rule set that `extends` another holds only what differs from it, and stays short.

For every served variant: a fan entry with a parent's id gives no key at the parent's value,
a shape or an option it gives is not the parent's entry again, a top-level key is not the
parent's value again, and the file is under `MAX_LINES` lines.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.rules.load_files import load_yaml, resolve

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ROOT / "rulesets"
# A variant states its own match rules in full (a `match:` section replaces its parent's).
MAX_LINES = 160


def _raw() -> dict[str, tuple[Path, dict[str, Any]]]:
    return {p.stem: (p, load_yaml(p.read_text(encoding="utf-8")))
            for p in sorted(RULESETS.glob("*.yaml"))}


RAW = _raw()
VARIANTS = [rid for rid, (_, data) in RAW.items() if data.get("extends")]


def test_there_are_variants() -> None:
    assert VARIANTS


@pytest.mark.parametrize("rid", VARIANTS)
def test_a_variant_holds_only_what_differs(rid: str) -> None:
    path, data = RAW[rid]
    parent, _ = resolve(data["extends"], RAW, ())
    repeated = []
    fans = {f["id"]: f for f in parent["fans"]}
    for fan in data.get("fans") or []:
        old = fans.get(fan["id"])
        if old is not None:
            repeated += [f"fans.{fan['id']}.{k}" for k, v in fan.items()
                         if k != "id" and old.get(k) == v]
    for name, shape in (data.get("shapes") or {}).items():
        if parent.get("shapes", {}).get(name) == shape:
            repeated.append(f"shapes.{name}")
    options = {o["name"]: o for o in parent.get("options") or []}
    repeated += [f"options.{o['name']}" for o in data.get("options") or []
                 if options.get(o["name"]) == o]
    repeated += [key for key, value in data.items()
                 if key not in ("id", "fans", "shapes", "options") and parent.get(key) == value]
    assert not repeated, f"{path.name} repeats its parent's {', '.join(repeated)}"


@pytest.mark.parametrize("rid", VARIANTS)
def test_a_variant_is_short(rid: str) -> None:
    path, _ = RAW[rid]
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines < MAX_LINES, f"{path.name}: {lines} lines"
