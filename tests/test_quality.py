"""The code-quality bars, as tests: ruff clean everywhere, mypy (strict) on the engine, and
layers that point one way with no import loops (import-linter's contracts in pyproject.toml).
They run the same tools a developer runs, from the project's own virtualenv."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _run(*args: str, cwd: Path = ROOT,
         env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=300,
                          check=False, env=env)


def test_ruff_clean() -> None:
    proc = _run(str(BIN / "ruff"), "check", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_strict_on_the_engine() -> None:
    # Files and strictness come from pyproject.toml ([tool.mypy]).
    proc = _run(sys.executable, "-m", "mypy")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_layers_point_one_way() -> None:
    proc = _run(str(BIN / "lint-imports"))
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize(("module", "upward"), [
    ("app/domain/tiles.py", "from app.rules import model"),
    ("app/rules/model.py", "from app.scoring import waits"),
    ("app/scoring/waits.py", "import app.api.routes"),
    # Even an import only for type checking points upward.
    ("app/domain/hand.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                           "    from app.scoring.result import ScoreResult"),
    # The bulk tools sit above the whole service.
    ("app/service/batch.py", "from mahjong_scoring.lines import LineScorer"),
    # The repository's tools are never installed: neither the service nor the bulk tools
    # may import them.
    ("app/rules/loader.py", "from tools.ruleset_docs import render_all"),
    ("mahjong_scoring/cli.py", "import tools.ruleset_docs"),
])
def test_the_layer_contract_refuses_an_upward_import(tmp_path: Path, module: str,
                                                      upward: str) -> None:
    # A scratch copy of the packages with one import pointing up a layer: the same contract
    # must break, naming the import.
    for package in ("app", "mahjong_scoring", "tools"):
        shutil.copytree(ROOT / package, tmp_path / package)
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / module
    target.write_text(target.read_text(encoding="utf-8") + "\n" + upward + "\n",
                      encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    proc = _run(str(BIN / "lint-imports"), cwd=tmp_path, env=env)
    assert proc.returncode != 0, proc.stdout
    assert "is not allowed to import" in proc.stdout
    assert module.removesuffix(".py").replace("/", ".") in proc.stdout


def test_no_import_cycles_anywhere() -> None:
    # import-linter forbids loops between siblings; this also catches a loop through a
    # package and one of its own modules (a package importing a submodule that imports it).
    graph = grimp.build_graph("app")
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for nxt in sorted(graph.find_modules_directly_imported_by(module)):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        state[module] = 2
        path.pop()
        return None

    for module in sorted(graph.modules):
        if module not in state:
            cycle = visit(module)
            assert cycle is None, " -> ".join(cycle)


def test_no_rule_set_is_named_in_the_engine_code() -> None:
    """The engine is generic: no rule-set id in a name or a string of `app/` (comments and
    docstrings may name the rule sets a measurement was made on)."""
    ids = {p.stem for p in (ROOT / "rulesets").glob("*.yaml")}
    assert ids
    found = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        with path.open("rb") as fh:
            tokens = list(tokenize.tokenize(fh.readline))
        for i, tok in enumerate(tokens):
            if tok.type not in (tokenize.NAME, tokenize.STRING):
                continue
            if tok.type == tokenize.STRING and (i == 0 or tokens[i - 1].type in (
                    tokenize.INDENT, tokenize.NEWLINE, tokenize.NL, tokenize.ENCODING)):
                continue  # a docstring
            words = set(re.findall(r"[a-z0-9][a-z0-9_-]*", tok.string.lower()))
            hits = words & ids
            if hits:
                found.append(f"{path.relative_to(ROOT)}:{tok.start[0]}: {sorted(hits)}")
    assert not found, "\n".join(found)


# The classes of the built-in families' rule sets: code asks a rule set's family
# (`family_of`, and each layer's registry), never its class.
RULESET_CLASSES = frozenset({"RuleSet", "CardRuleSet", "AnyRuleSet"})
# The registries themselves may ask (app/rules/families.py, app/service/families.py).
FAMILY_REGISTRIES = frozenset({"app/rules/families.py", "app/service/families.py"})


def _names_in(node: ast.expr) -> set[str]:
    return {n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(node)
            if isinstance(n, ast.Name | ast.Attribute)}


def test_no_module_asks_a_rule_sets_class() -> None:
    """No `isinstance(x, RuleSet)` (nor CardRuleSet, AnyRuleSet) outside the family
    registries: a third family is served without a change to the code that serves the two."""
    found = []
    for package in ("app", "mahjong_scoring", "tools", "bench"):
        for path in sorted((ROOT / package).rglob("*.py")):
            where = path.relative_to(ROOT).as_posix()
            if where in FAMILY_REGISTRIES:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id in ("isinstance", "issubclass")
                        and len(node.args) == 2 and _names_in(node.args[1]) & RULESET_CLASSES):
                    found.append(f"{where}:{node.lineno}")
    assert not found, "asks a rule set's class: " + ", ".join(found)


def test_the_class_check_finds_an_isinstance() -> None:
    # The check above reads calls as written: a tuple of classes, and a dotted name.
    tree = ast.parse("isinstance(rs, (int, model.RuleSet))")
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call))
    assert isinstance(call.func, ast.Name) and _names_in(call.args[1]) & RULESET_CLASSES
