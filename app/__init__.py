"""The mahjong scoring service.

The packages, each importing only those after it: `app.api` (HTTP: the routes and the app
factory, `app.api.factory.create_app`), `app.service` (requests read, answers written, for
the service and the bulk scorer alike), `app.scoring` (the engine), `app.rules` (rule sets as
data) and `app.domain` (tiles, hands, readings). `app.settings` holds the settings every layer
and tool reads. Importing this package imports nothing else: the engine and the bulk scorer
never load the web stack.
"""

from __future__ import annotations


def __getattr__(name: str) -> str:
    # `app.__version__`, looked up when first asked for (`app.version`).
    if name == "__version__":
        from app.version import version

        return version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
