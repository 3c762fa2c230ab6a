"""The service's version: the installed package's (`pyproject.toml`), which `openapi.yaml`'s
`info.version` repeats (a test keeps them equal).

Looked up when first asked for: reading the installed packages' metadata costs a good share of
the start of a process that never reports its version (the command-line scorer)."""

from __future__ import annotations

import functools


@functools.cache
def version() -> str:
    """The installed package's version ("0+unknown" run from a checkout not installed)."""
    import importlib.metadata

    try:
        return importlib.metadata.version("mahjong-scoring")
    except importlib.metadata.PackageNotFoundError:
        return "0+unknown"


def __getattr__(name: str) -> str:
    # `from app.version import __version__` reads it here, when first imported.
    if name == "__version__":
        return version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
