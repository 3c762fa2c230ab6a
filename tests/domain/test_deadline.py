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
    """Taking turns (`set_pause`): `check` calls the pause at the first check and then once
    per slice, whether or not a time limit is set; without a pause it calls nothing."""
    from app.domain import deadline

    paused: list[float] = []
    deadline.set_pause(lambda: paused.append(time.monotonic()), 0.02)
    try:
        check()
        check()  # within the slice: no second pause
        assert len(paused) == 1
        time.sleep(0.025)
        with time_limit(60.0):
            check()
        assert len(paused) == 2 and paused[1] - paused[0] >= 0.02
        for _ in range(1000):
            check()
        assert len(paused) <= 3
    finally:
        deadline.set_pause(None)
    check()
    assert len(paused) <= 3


def test_a_pause_past_the_limit_still_raises() -> None:
    from app.domain import deadline

    deadline.set_pause(lambda: time.sleep(0.01), 0.001)
    try:
        with time_limit(0.005), pytest.raises(TimeLimitExceeded):
            check()
    finally:
        deadline.set_pause(None)


def test_a_slice_must_be_positive() -> None:
    from app.domain import deadline

    with pytest.raises(ValueError, match="more than 0"):
        deadline.set_pause(lambda: None, 0.0)
