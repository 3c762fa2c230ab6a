"""The time limit per caller: `check` raises only past a limit its caller set."""

from __future__ import annotations

import threading
import time

import pytest

from app.domain.deadline import TimeLimitExceeded, check, time_limit


def test_without_a_limit_check_never_raises() -> None:
    check()


def test_past_the_limit_check_raises_and_names_it() -> None:
    with time_limit(0.0):
        time.sleep(0.001)
        with pytest.raises(TimeLimitExceeded, match="0 s"):
            check()
    check()  # the limit ends with its block


def test_an_inner_limit_never_extends_an_outer_one() -> None:
    with time_limit(0.0):
        time.sleep(0.001)
        with time_limit(60.0), pytest.raises(TimeLimitExceeded):
            check()
    with time_limit(60.0), time_limit(0.0):
        time.sleep(0.001)
        with pytest.raises(TimeLimitExceeded):
            check()


def test_a_limit_belongs_to_its_thread() -> None:
    seen: list[bool] = []

    def other() -> None:
        try:
            check()
            seen.append(True)
        except TimeLimitExceeded:
            seen.append(False)

    with time_limit(0.0):
        time.sleep(0.001)
        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert seen == [True]


def test_check_pauses_once_a_slice_has_passed() -> None:
    """Taking turns (`set_pause`): within a time limit, `check` calls the pause once the work
    has run for a slice, then once per slice; a short piece of work, or work without a limit,
    never pauses."""
    from app.domain import deadline

    paused: list[float] = []
    deadline.set_pause(lambda: paused.append(time.monotonic()), 0.02)
    try:
        check()  # no limit: no pause
        with time_limit(60.0):
            check()  # younger than a slice: no pause
            assert paused == []
            time.sleep(0.025)
            check()
            check()  # within the slice since the pause: no second one
            assert len(paused) == 1
            time.sleep(0.025)
            check()
            assert len(paused) == 2 and paused[1] - paused[0] >= 0.02
            for _ in range(1000):
                check()
            assert len(paused) <= 3
    finally:
        deadline.set_pause(None)
    with time_limit(60.0):
        time.sleep(0.025)
        check()
    assert len(paused) <= 3


def test_a_pause_past_the_limit_still_raises() -> None:
    from app.domain import deadline

    deadline.set_pause(lambda: time.sleep(0.01), 0.001)
    try:
        with time_limit(0.005), pytest.raises(TimeLimitExceeded):
            time.sleep(0.002)  # past the slice, not yet past the limit: the pause takes it past
            check()
    finally:
        deadline.set_pause(None)


def test_a_slice_must_be_positive() -> None:
    from app.domain import deadline

    with pytest.raises(ValueError, match="more than 0"):
        deadline.set_pause(lambda: None, 0.0)
