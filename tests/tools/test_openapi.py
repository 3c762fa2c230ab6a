"""`openapi.yaml` is generated from the code (`./run openapi`, tools/openapi) and kept fresh.

- the committed file is exactly what the generator makes now: a schema, an operation's
  declaration, a rule set or an answer changed without `./run openapi` fails here, naming it;
- the generator makes the same bytes whatever the machine's settings (the environment the
  service reads, the working directory, the hash seed);
- `./run openapi --check` fails on a stale file and writes nothing; `./run openapi` writes it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tools.openapi.build import generate

ROOT = Path(__file__).resolve().parents[2]
OPENAPI = ROOT / "openapi.yaml"


def test_committed_document_is_fresh() -> None:
    assert OPENAPI.read_text(encoding="utf-8") == generate(), (
        "openapi.yaml is stale (a schema, an operation's declaration, a rule set or an answer "
        "changed): run ./run openapi")


def test_same_bytes_whatever_the_machine(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "12345", "LANG": "C",
           "LC_ALL": "C", "TZ": "Pacific/Chatham", "MAHJONG_TIME_LIMIT": "3",
           "MAHJONG_BODY_TIMEOUT": "1", "MAHJONG_RULESETS_DIR": str(tmp_path),
           "MAHJONG_CORS_ORIGINS": "http://example.invalid"}
    done = subprocess.run(
        [sys.executable, "-c",
         "import sys; from tools.openapi.build import generate; "
         "sys.stdout.buffer.write(generate().encode())"],
        cwd=tmp_path, env=env, capture_output=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout == OPENAPI.read_bytes()


def test_run_openapi_check_and_write(tmp_path: Path) -> None:
    # `./run openapi` in a scratch copy of the project, with this virtualenv (no install).
    root = tmp_path / "project"
    root.mkdir()
    for tree in ("app", "tools", "rulesets"):
        shutil.copytree(ROOT / tree, root / tree,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    for name in ("run", "openapi.yaml"):
        shutil.copy(ROOT / name, root / name)
    (root / ".venv").symlink_to(sys.prefix)
    env = {**os.environ, "RUN_NO_INSTALL": "1", "PYTHONPATH": str(root)}

    def run_openapi(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(root / "run"), "openapi", *args], cwd=root, env=env,
                              capture_output=True, text=True, timeout=300, check=False)

    assert run_openapi("--check").returncode == 0
    document = root / "openapi.yaml"
    stale = document.read_text(encoding="utf-8").replace("Score one hand", "Score a hand", 1)
    document.write_text(stale, encoding="utf-8")
    proc = run_openapi("--check")
    assert proc.returncode == 1
    assert "./run openapi" in proc.stderr
    assert document.read_text(encoding="utf-8") == stale, "--check wrote the file"
    proc = run_openapi()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert document.read_bytes() == OPENAPI.read_bytes()
