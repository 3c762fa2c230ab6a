"""The library path loads no web stack: scoring lines with `score_lines`, and the command-line
scorer's module, import nothing of flask, werkzeug, gunicorn, flask-cors, prometheus_client
or the HTTP layer (`app.api`). Run in a fresh interpreter, since the test session itself has
the app loaded. (The import contract in pyproject.toml says the same of the source; this is
what a process actually loads.)"""

from __future__ import annotations

import json
import subprocess
import sys

from tests.api.helpers import REPO_ROOT

WEB = ("flask", "werkzeug", "gunicorn", "flask_cors", "prometheus_client", "app.api")

PROGRAM = f"""
import json, sys
from mahjong_scoring import score_lines
import mahjong_scoring.cli
lines = [
    '{{"hand": "1112345678999m9m", "context": {{"win_type": "self_draw"}}}}',
    '{{"ruleset": "hengyang", "hand": "x", "context": {{}}}}',
    'not json',
]
out = [json.loads(item) for item in score_lines(lines, ruleset="mcr")]
web = sorted(m for m in sys.modules if m.startswith({WEB!r}))
print(json.dumps({{"out": out, "web": web}}))
"""


def test_scoring_lines_imports_no_web_module() -> None:
    done = subprocess.run([sys.executable, "-c", PROGRAM], cwd=REPO_ROOT, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    first, second, third = report["out"]
    assert first["result"]["winning"] is True  # the nine gates, scored
    assert "error" in second and "error" in third  # errors are items, as the API writes them
    assert report["web"] == []
