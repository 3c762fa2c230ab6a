"""The service's version: the installed package's (`pyproject.toml`), which `openapi.yaml`'s
`info.version` repeats (a test keeps them equal)."""

from __future__ import annotations

import importlib.metadata

try:
    __version__ = importlib.metadata.version("mahjong-scoring")
except importlib.metadata.PackageNotFoundError:  # run from a checkout that is not installed
    __version__ = "0+unknown"
