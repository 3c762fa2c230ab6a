"""Scoring: readings, fans, waits, payments and rounds. `memory_bounds()` reports every memo
of the engine with its bound and current size (`app.scoring.memory`)."""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    # Imported when first asked for: app.scoring's modules import nothing from here.
    if name == "memory_bounds":
        from app.scoring.memory import memory_bounds

        return memory_bounds
    raise AttributeError(name)
