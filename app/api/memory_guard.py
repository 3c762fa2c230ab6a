"""A served worker's memory held near its warm state, whatever a request computed.

The engine's memos are bounded in entries, and a request's own objects are freed when it
ends, but neither bounds the bytes a worker keeps afterwards: the memos' entries of hands
with many wild tiles are large, and what a heavy request freed stays with the process
(CPython's allocator and the C library keep freed memory for reuse, and a few objects that
outlive the request keep whole arenas of it). So after a request, the worker looks at its
resident memory (`/proc/self/statm`, one small read) and, past its allowance:

1. returns freed memory to the system (a full collection, then glibc's `malloc_trim`);
2. still past it, empties the engine's memos (they fill again as hands come) and trims again;
3. still past it, asks gunicorn to replace the worker once this request is answered (as
   `max_requests` does): memory that no trim gives back is given back with the process.

The allowance is the worker's resident memory as it starts (the app loaded, its rule sets
compiled: gunicorn's `post_fork`) plus `MAHJONG_MEMORY_HEADROOM_MIB` (default 40), which
holds the memos as everyday traffic fills them (docs/operations.md). The check runs
after a request that took `CHECK_AFTER_S` or more (a shorter one cannot have made much) and
after every `CHECK_EVERY`-th request, so that a request costs nothing more in the common case.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import os
from collections.abc import Callable

from app.scoring.memory import forget_everything

__all__ = ["MemoryGuard", "resident_bytes"]

HEADROOM_ENV = "MAHJONG_MEMORY_HEADROOM_MIB"
DEFAULT_HEADROOM_MIB = 40
CHECK_AFTER_S = 0.01
CHECK_EVERY = 64
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int | None:
    """This process's resident memory (None where /proc is not)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


def _malloc_trim() -> Callable[[], None]:
    """glibc's `malloc_trim(0)`, or nothing where the C library has none."""
    name = ctypes.util.find_library("c")
    try:
        trim = ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):
        trim = None
    if trim is None:
        return lambda: None
    return lambda: trim(0) and None


class MemoryGuard:
    """The checks above, for one worker. `answered(seconds)` is told of each request answered
    and the time it took; `check()`, called once the answer is let go, makes the checks that
    are due and returns True when the worker should be replaced."""

    def __init__(self, headroom_bytes: int, *, read: Callable[[], int | None] = resident_bytes,
                 trim: Callable[[], None] | None = None,
                 forget: Callable[[], None] = forget_everything) -> None:
        self.headroom = headroom_bytes
        self.read = read
        self.trim = trim if trim is not None else _malloc_trim()
        self.forget = forget
        self.requests = 0
        self.due = False
        self.warm = read()
        self.trims = self.forgets = 0

    @classmethod
    def from_environment(cls) -> MemoryGuard:
        mib = os.environ.get(HEADROOM_ENV, "").strip()
        try:
            headroom = int(mib) if mib else DEFAULT_HEADROOM_MIB
        except ValueError:
            raise ValueError(f"{HEADROOM_ENV} must be a whole number of MiB (got {mib!r})") \
                from None
        if headroom < 1:
            raise ValueError(f"{HEADROOM_ENV} must be at least 1 (got {headroom})")
        return cls(headroom * 2**20)

    @property
    def allowance(self) -> int | None:
        return None if self.warm is None else self.warm + self.headroom

    def answered(self, seconds: float) -> None:
        self.requests += 1
        if seconds >= CHECK_AFTER_S or not self.requests % CHECK_EVERY:
            self.due = self.warm is not None  # without /proc there is nothing to go by

    def check(self) -> bool:
        if not self.due or self.warm is None:
            return False
        self.due = False
        allowance = self.warm + self.headroom
        if (self.read() or 0) <= allowance:
            return False
        self.trims += 1
        gc.collect()
        self.trim()
        if (self.read() or 0) <= allowance:
            return False
        self.forgets += 1
        self.forget()
        gc.collect()
        self.trim()
        return (self.read() or 0) > allowance
