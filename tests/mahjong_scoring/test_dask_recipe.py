"""docs/bulk.md's Dask recipe, run as written on a local cluster of two worker processes: its
output is, byte for byte, what the command-line scorer writes for the same log files. The
project's `bulk` extra is what the recipe imports."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from mahjong_scoring import cli
from mahjong_scoring.lines import served_rulesets
from tools import loggen

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "bulk.md"


def recipe(test: str = "test_dask_recipe_matches_the_command_line_scorer") -> str:
    """The Python block of docs/bulk.md marked as covered by `test` of this module
    (tests/test_docs.py leaves it to this one)."""
    found = re.search(rf"<!-- covered: tests/mahjong_scoring/test_dask_recipe.py::{test} -->\s*"
                      r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert found, "docs/bulk.md has no recipe block"
    return found.group(1)


def test_the_recipe_uses_one_public_call() -> None:
    code = recipe()
    imports = [line for line in code.splitlines() if "mahjong_scoring" in line]
    assert imports == ["from mahjong_scoring import score_lines"]
    assert "app." not in code and "import app" not in code


def test_the_bulk_extra_is_what_the_recipe_imports() -> None:
    """`pip install '.[bulk]'` (docs/bulk.md) gives the recipe the packages it imports besides
    the project, and nothing more; the test extras include them."""
    imported: set[str] = set()
    for node in ast.walk(ast.parse(recipe())):
        if isinstance(node, ast.Import):
            imported |= {alias.name.partition(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.partition(".")[0])
    imported.discard("mahjong_scoring")
    installed = packages_distributions()
    needed = {canonicalize_name(installed[m][0]) for m in imported}

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"]
    bulk = [Requirement(r) for r in extras["bulk"]]
    assert {canonicalize_name(r.name) for r in bulk} == needed
    assert "bag" in next(r.extras for r in bulk if r.name == "dask")  # dask.bag
    test = [Requirement(r) for r in extras["test"]]
    assert any(canonicalize_name(r.name) == "mahjong-scoring" and "bulk" in r.extras
               for r in test) or {str(r) for r in bulk} <= {str(r) for r in test}


def test_dask_recipe_matches_the_command_line_scorer(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    rulesets = served_rulesets()
    # Two files: a mixed log whose lines name their rule sets (some malformed), and a log of
    # mcr lines that name none (the recipe's ruleset="mcr" applies).
    mixed = list(loggen.log_lines(rulesets, sorted(loggen.tile_rulesets(rulesets)), 400,
                                  seed=11, malformed=0.05))
    plain = list(loggen.log_lines(rulesets, ["mcr"], 300, seed=12, name_ruleset=False))
    for name, lines in (("a.jsonl", mixed), ("b.jsonl", plain)):
        (logs / name).write_text("".join(line + "\n" for line in lines), encoding="utf-8")

    script = tmp_path / "recipe.py"
    script.write_text(recipe())
    # Run from the log's folder, as a user would: the project is found as installed.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]

    for index, name in enumerate(("a.jsonl", "b.jsonl")):
        expected = tmp_path / f"cli-{name}"
        assert cli.main([str(logs / name), "-o", str(expected), "--ruleset", "mcr",
                         "--jobs", "1", "--quiet", "--no-progress"]) == 0
        produced = (tmp_path / "scored" / f"{index}.jsonl").read_bytes()
        assert produced == expected.read_bytes(), name
        assert produced.count(b"\n") == len(mixed if index == 0 else plain)
    # The mixed log did hold error items, numbered by their line in the file.
    first = (tmp_path / "scored" / "0.jsonl").read_bytes().splitlines()
    assert any(b'"error"' in line for line in first)


def test_the_match_recipe_matches_the_command_line_scorer(tmp_path: Path) -> None:
    """The recipe's variant for a log of matches (a match a line): the same bytes as
    `mahjong-score --match` for the same files."""
    folder = tmp_path / "matches"
    folder.mkdir()
    files = {"a.jsonl": [json.dumps(MATCH), '{"ruleset": "sichuan", "hands": []}', "not json"],
             "b.jsonl": [json.dumps({"hands": MATCH["hands"][:1]})] * 3}
    for name, lines in files.items():
        (folder / name).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    code = recipe("test_the_match_recipe_matches_the_command_line_scorer")
    assert "match=True" in code
    script = tmp_path / "recipe.py"
    script.write_text(code)
    # Run from the log's folder with this checkout's library, the one `cli` below is.
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    for index, (name, lines) in enumerate(files.items()):
        expected = tmp_path / f"cli-{name}"
        assert cli.main([str(folder / name), "-o", str(expected), "--ruleset", "mcr", "--match",
                         "--jobs", "1", "--quiet", "--no-progress"]) == 0
        produced = (tmp_path / "scored-matches" / f"{index}.jsonl").read_bytes()
        assert produced == expected.read_bytes(), name
        assert produced.count(b"\n") == len(lines)
        assert b'"standings"' in produced


MATCH = {"hands": [
    {"win": {"hand": "123m123p123s789s5p5p",
             "context": {"win_type": "discard", "winner": 1, "discarder": 2}}},
    {"drawn": {}},
    {"win": {"hand": "[123m][456p]789s23sNN4s", "context": {"win_type": "self_draw",
                                                             "winner": 3}}}]}
