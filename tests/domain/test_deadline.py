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
