"""`openapi.yaml` is generated from the code (`./run openapi`, tools/openapi) and kept fresh.

One test, in a scratch copy of the project (each generation answers the examples, so it runs
twice, not once per point):

- `./run openapi --check` fails on a stale file, naming the command, and writes nothing;
- `./run openapi` then writes exactly the committed file, under machine settings of another
  kind (the environment the service reads, the locale, the time zone, the hash seed): the
  committed file is what the generator makes now (a schema, an operation's declaration, a
  rule set or an answer changed without `./run openapi` fails here), and the same bytes
  whatever the machine.
"""

from __future__ import annotations

import difflib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OPENAPI = ROOT / "openapi.yaml"


def test_run_openapi_checks_and_writes_the_committed_bytes(tmp_path: Path) -> None:
    # `./run openapi` in a scratch copy of the project, with this virtualenv (no install).
    root = tmp_path / "project"
    root.mkdir()
    for tree in ("app", "tools", "rulesets"):
        shutil.copytree(ROOT / tree, root / tree,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    for name in ("run", "openapi.yaml"):
        shutil.copy(ROOT / name, root / name)
    (root / ".venv").symlink_to(sys.prefix)
    elsewhere = tmp_path / "empty"
    elsewhere.mkdir()
    env = {**os.environ, "RUN_NO_INSTALL": "1", "PYTHONPATH": str(root)}
    odd = {**env, "PYTHONHASHSEED": "12345", "LANG": "C", "LC_ALL": "C",
           "TZ": "Pacific/Chatham", "MAHJONG_TIME_LIMIT": "3", "MAHJONG_BODY_TIMEOUT": "1",
           "MAHJONG_RULESETS_DIR": str(elsewhere), "MAHJONG_CORS_ORIGINS": "http://example.invalid"}

    def run_openapi(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(root / "run"), "openapi", *args], cwd=root, env=env,
                              capture_output=True, text=True, timeout=300, check=False)

    document = root / "openapi.yaml"
    stale = document.read_text(encoding="utf-8").replace("Score one hand", "Score a hand", 1)
    document.write_text(stale, encoding="utf-8")
    proc = run_openapi("--check", env=env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "./run openapi" in proc.stderr
    assert document.read_text(encoding="utf-8") == stale, "--check wrote the file"
    proc = run_openapi(env=odd)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    made, committed = document.read_text(encoding="utf-8"), OPENAPI.read_text(encoding="utf-8")
    assert made == committed, (
        "openapi.yaml is stale (a schema, an operation's declaration, a rule set or an answer "
        "changed), or the generator depends on the machine: run ./run openapi\n"
        + "".join(list(difflib.unified_diff(committed.splitlines(True), made.splitlines(True),
                                            "openapi.yaml", "generated"))[:80]))
