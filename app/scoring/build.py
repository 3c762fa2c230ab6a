"""Which build of the engine is running: its hot modules compiled with mypyc at install
(setup.py, when a C compiler was at hand) or plain Python. Both score alike; the compiled
build is faster."""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES

from app.scoring import evaluate

COMPILED = "compiled"
PYTHON = "python"


def engine_build() -> str:
    """`COMPILED` when the engine's modules are extension modules, else `PYTHON`."""
    path = getattr(evaluate, "__file__", None) or ""
    return COMPILED if path.endswith(tuple(EXTENSION_SUFFIXES)) else PYTHON
