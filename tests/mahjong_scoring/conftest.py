"""The command-line scorer run in this process (`cli.main`) freezes what is loaded, tunes the
garbage collector and widens the engine's memos of new hands: each test here leaves them as
it found them."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from app.scoring.memory import widen


@pytest.fixture(autouse=True)
def _process_as_it_was() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.set_threshold(*thresholds)
    gc.unfreeze()
    widen(1)
