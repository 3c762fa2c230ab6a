"""The build (setup.py): the engine's hot modules compiled with mypyc, or all plain Python.

- Either every module pyproject.toml lists is compiled, each newer than its source, or none is
  (a compiled module older than its source would run code that is no longer there); and a
  build that had a C compiler did not fall back to plain Python.
- The compiled build scores exactly as the plain Python one: the same hands (random MCR hands,
  every case file, tianjin cases with tiles turned wild, every waits case, and the discard
  analysis of every waits case's hand and of its hand with a tile more) are scored here and in
  a subprocess that imports the engine from its sources only; the results must be equal.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path
from typing import Any

import pytest

from app.rules.load_files import load_yaml

ROOT = Path(__file__).resolve().parents[1]
COMPILED = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
    "mahjong-scoring"]["compiled"]
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")
RANDOM_MCR_HANDS = 1500
SEED = 20261201

# Run first in the subprocess: the `app` package and its modules load from their `.py` files,
# never from a compiled module beside them.
_SOURCES_ONLY = """
import importlib.abc, importlib.machinery, importlib.util, os, sys
class SourcesOnly(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != "app" and not name.startswith("app."):
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.origin is None or spec.origin.endswith(".py"):
            return spec
        folder = os.path.dirname(spec.origin)
        source = os.path.join(folder, name.rpartition(".")[2] + ".py")
        return importlib.util.spec_from_file_location(name, source)
sys.meta_path.insert(0, SourcesOnly())
"""


def _compiled_files() -> list[Path]:
    return [(ROOT / source).with_suffix(SUFFIX) for source in COMPILED]


def test_a_build_that_could_compile_did() -> None:
    # setup.py records what it made; it falls back to plain Python when the C compiler fails
    # on the generated code, which would otherwise pass unseen.
    record = ROOT / "build" / "engine-build"
    if record.exists():
        made = record.read_text(encoding="utf-8").strip()
        assert not made.startswith("python: compiling failed"), made


def test_the_compiled_modules_are_all_there_or_none_and_none_is_stale() -> None:
    from app.scoring.build import COMPILED as BUILT
    from app.scoring.build import engine_build

    present = [p for p in _compiled_files() if p.exists()]
    if not present:
        assert engine_build() != BUILT
        return
    missing = sorted(str(p.relative_to(ROOT)) for p in _compiled_files() if not p.exists())
    assert not missing, f"a partial build: {missing} missing; reinstall (./run install)"
    stale = [s for s, p in zip(COMPILED, present, strict=True)
             if p.stat().st_mtime < (ROOT / s).stat().st_mtime]
    assert not stale, (f"compiled before their sources changed: {stale}; rebuild them: "
                       "rm .venv/.install-stamp-* && ./run install")
    assert engine_build() == BUILT


def _hands() -> list[tuple[str, str, Any, Any]]:
    """(rule set, what is asked, hand or standing tiles, context) for every hand compared."""
    from app.domain.errors import HandError
    from app.domain.hand import Hand
    from app.rules.loader import load_rulesets
    from app.rules.model import RuleSet
    from app.service.tiles.requests import build, build_waiting
    from tests.mcr_reference.generator import generate

    # The tile games: the modules compiled at install are the tile engine's.
    rulesets = {rid: rs for rid, rs in load_rulesets(ROOT / "rulesets").items()
                if isinstance(rs, RuleSet)}
    out: list[tuple[str, str, Any, Any]] = [
        ("mcr", "score", c.hand, c.ctx) for c in generate(RANDOM_MCR_HANDS, SEED).cases]
    rng = random.Random(SEED)
    for path in sorted((ROOT / "tests" / "cases").glob("*/*.yaml")):
        if path.parent.name not in rulesets:
            continue
        rs = rulesets[path.parent.name]
        for case in load_yaml(path.read_text(encoding="utf-8"))["cases"]:
            try:
                hand, ctx = build(case["hand"], case["context"], rs)
            except HandError:
                continue
            out.append((rs.id, "score", hand, ctx))
            if not ctx.wilds:
                continue
            # The same hand with up to three more of its tiles turned wild.
            wild = ctx.wilds[0]
            tiles = list(hand.concealed)
            for _ in range(3):
                spots = [i for i, t in enumerate(tiles) if t not in ctx.wilds
                         and t != hand.win_tile]
                if not spots or tiles.count(wild) >= rs.tileset.kinds[wild].copies:
                    break
                tiles[rng.choice(spots)] = wild
                out.append((rs.id, "score", Hand(tuple(tiles), hand.melds, hand.win_tile), ctx))
    for path in sorted((ROOT / "tests" / "cases").glob("*/waits/*.yaml")):
        if path.parent.parent.name not in rulesets:
            continue
        rs = rulesets[path.parent.parent.name]
        for case in load_yaml(path.read_text(encoding="utf-8"))["cases"]:
            standing, melds, ctx = build_waiting(case["hand"], case["context"], rs)
            out.append((rs.id, "waits", (standing, melds), ctx))
            out.append((rs.id, "analysis", (standing, melds), ctx))
            # With one tile more: a tile of the hand again where a copy is left.
            more = next((t for t in standing if standing.count(t) + sum(
                m.tiles.count(t) for m in melds) < rs.tileset.kinds[t].copies), None)
            if more is not None:
                out.append((rs.id, "analysis", ((*standing, more), melds), ctx))
    return out


def scored() -> list[str]:
    """Every hand of `_hands` scored, as text."""
    from app.rules.loader import load_rulesets
    from app.scoring.analysis import analyse
    from app.scoring.evaluate import score
    from app.scoring.waits import waits

    rulesets = load_rulesets(ROOT / "rulesets")
    out = []
    for ruleset, asked, hand, ctx in _hands():
        rs = rulesets[ruleset]
        if asked == "score":
            out.append(repr(score(hand, ctx, rs)))
        elif asked == "waits":
            out.append(repr(waits(hand[0], hand[1], ctx, rs)))
        else:
            out.append(repr(analyse(hand[0], hand[1], ctx, rs)))
    return out


def test_the_compiled_build_scores_as_the_python_one() -> None:
    from app.scoring.build import COMPILED as BUILT
    from app.scoring.build import engine_build

    if engine_build() != BUILT:
        pytest.skip("the engine is not compiled here (no C compiler at install)")
    here = scored()
    code = (_SOURCES_ONLY + "import json\nfrom app.scoring.build import engine_build\n"
            "import tests.test_build as t\n"
            "print(json.dumps([engine_build(), t.scored()]))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    build, there = json.loads(done.stdout)
    assert build != BUILT, "the subprocess imported the compiled modules"
    assert len(here) == len(there) > RANDOM_MCR_HANDS
    differ = [(a, b) for a, b in zip(here, there, strict=True) if a != b]
    assert not differ, f"{len(differ)} of {len(here)} differ; first: {differ[0]}"
