"""The code-quality bars of the brief, as tests: ruff clean everywhere, mypy (strict) on the
engine. They run the same tools a developer runs, from the project's own virtualenv."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300,
                          check=False)


def test_ruff_clean() -> None:
    proc = _run(str(BIN / "ruff"), "check", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_strict_on_the_engine() -> None:
    # Files and strictness come from pyproject.toml ([tool.mypy]).
    proc = _run(sys.executable, "-m", "mypy")
    assert proc.returncode == 0, proc.stdout + proc.stderr
