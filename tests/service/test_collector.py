"""When the garbage collector runs in a long-lived process (app/service/collector.py): tuned,
no full collection starts on its own however many young ones run; `between` runs one once
`FULL_AFTER` collections of the middle generation have passed, and it frees a reference cycle
that reached the oldest generation, which the young collections never free."""

from __future__ import annotations

import contextlib
import gc
import weakref
from collections.abc import Iterator

import pytest

from app.service import collector


class _Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the collector frees it


@contextlib.contextmanager
def _tuned(paused_in_units: bool) -> Iterator[None]:
    thresholds = gc.get_threshold()
    enabled = gc.isenabled()
    gc.enable()
    gc.collect()
    collector.tune(paused_in_units=paused_in_units)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        if not enabled:
            gc.disable()


@pytest.fixture
def tuned() -> Iterator[None]:
    with _tuned(False):
        yield


@pytest.fixture
def tuned_paused() -> Iterator[None]:
    with _tuned(True):
        yield


def _middle_collections(n: int) -> None:
    for _ in range(n):
        gc.collect(1)  # each counts once toward the oldest generation's collection


def test_tuned_the_young_generations_are_collected_and_the_oldest_never_by_itself(
        tuned: None) -> None:
    young, middle, oldest = gc.get_threshold()
    assert (young, middle) == (collector.YOUNG, collector.MIDDLE)
    assert oldest > 10**6
    # Far more objects made than the youngest generation's threshold: young collections run,
    # a full one does not.
    full_before = gc.get_stats()[2]["collections"]
    young_before = gc.get_stats()[0]["collections"]
    kept = [[i] for i in range(collector.YOUNG * collector.MIDDLE * 3)]
    assert gc.get_stats()[0]["collections"] > young_before
    assert gc.get_stats()[2]["collections"] == full_before
    del kept


def test_between_collects_in_full_once_due(tuned: None) -> None:
    assert collector.between() is False  # just collected: not due
    _middle_collections(collector.FULL_AFTER - 1)
    assert collector.between() is False
    _middle_collections(1)
    full_before = gc.get_stats()[2]["collections"]
    assert collector.between() is True
    assert gc.get_stats()[2]["collections"] == full_before + 1
    assert gc.get_count()[2] == 0
    assert collector.between() is False


def test_a_cycle_in_the_oldest_generation_is_freed_between(tuned: None) -> None:
    node = _Node()
    alive = weakref.ref(node)
    _middle_collections(2)  # it survives two collections: it is in the oldest generation now
    del node
    _middle_collections(collector.FULL_AFTER - 2)
    assert alive() is not None  # the young collections do not reach it
    assert collector.between() is True
    assert alive() is None


def test_between_does_nothing_while_the_collector_is_off(tuned: None) -> None:
    _middle_collections(collector.FULL_AFTER)
    gc.disable()
    try:
        assert collector.between() is False
    finally:
        gc.enable()


def _young_collections(n: int) -> None:
    for _ in range(n):
        gc.collect(0)  # each counts once toward the middle generation's collection


def test_paused_in_units_the_middle_generation_waits_for_the_full_collection(
        tuned_paused: None) -> None:
    young, middle, oldest = gc.get_threshold()
    assert young == collector.YOUNG
    assert middle > 10**6 and oldest > 10**6
    # Young collections run as objects are made; no middle collection follows them.
    stats = gc.get_stats()
    kept = [[i] for i in range(collector.YOUNG * collector.MIDDLE * 3)]
    after = gc.get_stats()
    assert after[0]["collections"] >= stats[0]["collections"] + collector.MIDDLE * 2
    assert after[1]["collections"] == stats[1]["collections"]
    assert after[2]["collections"] == stats[2]["collections"]
    del kept


def test_paused_in_units_between_collects_in_full_at_the_same_pace(tuned_paused: None) -> None:
    node = _Node()
    alive = weakref.ref(node)
    _young_collections(1)  # it survives a young collection: in the middle generation now
    del node
    assert collector.between() is False
    _young_collections(collector.FULL_AFTER * collector.MIDDLE - 2)
    assert collector.between() is False
    assert alive() is not None  # no middle collection reaches it
    _young_collections(1)
    full_before = gc.get_stats()[2]["collections"]
    assert collector.between() is True
    assert gc.get_stats()[2]["collections"] == full_before + 1
    assert alive() is None
    assert collector.between() is False
