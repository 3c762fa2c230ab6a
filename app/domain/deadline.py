"""A time limit on the work done for one caller.

The engine's work is bounded by the size of a request, but a few requests are slow (waits on
a hand holding seven wild tiles, a settled round whose drawn game scores every waiting hand).
A caller that answers others (the HTTP service) sets a limit around the work with
`time_limit`; the engine calls `check` between units of work (each hand it scores), and past
the limit `check` raises `TimeLimitExceeded`, which the caller answers as it sees fit. Without
a limit `check` never raises. The limit is per thread and per task (a context variable), so
concurrent requests do not share it.

Taking turns. A server that answers many requests on one thread of control (gevent's
greenlets: the service's default worker) registers a function that lets the others run
(`set_pause`, gunicorn.conf.py). Within a time limit, `check` calls it once the work has run
for a slice and a slice has passed since the last pause, so a long request (a batch, waits on
wild tiles, a big round) holds the other connections of its worker (health probes among them)
for at most about a slice and one unit of work, never until it ends, while a short request
(most take well under a slice) never pauses. One thread of control runs one request at a
time, so the time since the last pause is the worker's.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextvars import ContextVar

# (the deadline on the monotonic clock, the limit it was set from, when the work began), or
# None: no limit.
_limit: ContextVar[tuple[float, float, float] | None] = ContextVar("time_limit", default=None)

# The pause that lets other requests run, the slice between two pauses (seconds), and when
# the next pause is due (monotonic clock).
DEFAULT_SLICE = 0.01
_pause: Callable[[], object] | None = None
_slice = DEFAULT_SLICE
_next_pause = 0.0


def set_pause(pause: Callable[[], object] | None, slice_seconds: float = DEFAULT_SLICE) -> None:
    """From now on `check`, within a time limit, calls `pause` once the work has run for
    `slice_seconds` and as long has passed since the last pause (None: never pauses)."""
    global _pause, _slice, _next_pause
    if not slice_seconds > 0:
        raise ValueError(f"the slice must be more than 0 seconds, not {slice_seconds!r}")
    _pause, _slice, _next_pause = pause, slice_seconds, 0.0


class TimeLimitExceeded(Exception):
    """The work ran past the limit its caller set."""

    def __init__(self, limit: float) -> None:
        super().__init__(f"the work ran past its limit of {limit:g} s")
        self.limit = limit


class TimeLimit:
    """The block of `time_limit` (a class rather than a generator: it is entered on every
    request, and costs a third as much)."""

    __slots__ = ("_seconds", "_token")

    def __init__(self, seconds: float) -> None:
        self._seconds = seconds

    def __enter__(self) -> None:
        now = time.monotonic()
        deadline = now + self._seconds
        outer = _limit.get()
        self._token = _limit.set((deadline, self._seconds, now)
                                 if outer is None or deadline < outer[0] else outer)

    def __exit__(self, *exc: object) -> None:
        _limit.reset(self._token)


def time_limit(seconds: float) -> TimeLimit:
    """Within the block, `check` raises once `seconds` have passed (an inner limit never
    extends an outer one)."""
    return TimeLimit(seconds)


def check() -> None:
    """Raise `TimeLimitExceeded` if the caller's time limit has passed; let other requests
    run first when a pause is due (`set_pause`)."""
    global _next_pause
    limit = _limit.get()
    if limit is None:
        return
    now = time.monotonic()
    pause = _pause
    if pause is not None and now >= _next_pause and now - limit[2] >= _slice:
        pause()
        now = time.monotonic()
        _next_pause = now + _slice
    if now > limit[0]:
        raise TimeLimitExceeded(limit[1])
