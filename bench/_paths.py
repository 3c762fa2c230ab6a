"""Imported first by the benchmark scripts: the checkout this folder belongs to comes first on
sys.path (unless a checkout is on it already), and this folder moves behind the standard
library.

The checkout first: a script run from a second checkout (another commit, built, to compare
with) must measure that checkout's code, not the one an editable install of the package
points the interpreter's `app` and `mahjong_scoring` at. A checkout already on sys.path (one
`PYTHONPATH` names, or the tree bench/instructions.py's children measure with this folder's
scripts) stays where it is. This folder behind the standard library: bench/http.py shares its
name with the standard `http` package, and a script's own folder comes first on sys.path, so
without this `import http.client` (in a script, or in Flask) would find bench/http.py. The
folder's modules (`bodies`, `serving`, `timing`) are still found, after the standard
library's."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _checkout(entry: str) -> bool:
    return (Path(entry or ".") / "app" / "__init__.py").is_file()


sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE] + [str(HERE)]
if not any(_checkout(p) for p in sys.path):
    sys.path.insert(0, str(ROOT))
