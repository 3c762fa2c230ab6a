"""A time limit on the work done for one caller.

The engine's work is bounded by the size of a request, but a few requests are slow (waits on
a hand holding seven wild tiles, a settled round whose drawn game scores every waiting hand).
A caller that answers others (the HTTP service) sets a limit around the work with
`time_limit`; the engine calls `check` between units of work (each hand it scores), and past
the limit `check` raises `TimeLimitExceeded`, which the caller answers as it sees fit. Without
a limit `check` never raises. The limit is per thread and per task (a context variable), so
concurrent requests do not share it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

# (the deadline on the monotonic clock, the limit it was set from), or None: no limit.
_limit: ContextVar[tuple[float, float] | None] = ContextVar("time_limit", default=None)


class TimeLimitExceeded(Exception):
    """The work ran past the limit its caller set."""

    def __init__(self, limit: float) -> None:
        super().__init__(f"the work ran past its limit of {limit:g} s")
        self.limit = limit


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Within the block, `check` raises once `seconds` have passed (an inner limit never
    extends an outer one)."""
    deadline = time.monotonic() + seconds
    outer = _limit.get()
    token = _limit.set((deadline, seconds) if outer is None or deadline < outer[0] else outer)
    try:
        yield
    finally:
        _limit.reset(token)


def check() -> None:
    """Raise `TimeLimitExceeded` if the caller's time limit has passed."""
    limit = _limit.get()
    if limit is not None and time.monotonic() > limit[0]:
        raise TimeLimitExceeded(limit[1])
