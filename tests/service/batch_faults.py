"""A score item that fails as a bug would, for the tests of what a batch and the command-line
scorer make of an item the engine fails on."""

from __future__ import annotations

from typing import Any

from app.service import batch
from app.service.batch import StepwiseItem


def _steps(family: Any) -> Any:
    read, answer, write = batch._score_steps(family)

    def failing(request: Any, ruleset: Any) -> Any:
        if not request[1].self_drawn:
            raise RuntimeError("a bug")
        return answer(request, ruleset)

    return read, failing, write


# The score item, but its answer step raises on a hand won on a discard.
FAILS_ON_DISCARD_WINS = StepwiseItem(_steps)
