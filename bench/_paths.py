"""Imported first by the benchmark scripts that need it: this folder moves behind the
standard library on sys.path. bench/http.py shares its name with the standard `http`
package, and a script's own folder comes first on sys.path, so without this `import
http.client` (in a script, or in Flask) would find bench/http.py. The folder's modules
(`bodies`, `serving`, `timing`) are still found, after the standard library's."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE] + [str(HERE)]
