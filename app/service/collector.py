"""When the garbage collector runs in a process that scores hand after hand: a serving worker,
the command-line scorer.

A full collection walks every object the collector tracks. Once warm, the engine's memos
(bounded: `app.scoring.memory`) hold tens of thousands of them, so a full collection costs as
much as scoring many hands, and CPython starts one every ten collections of the middle
generation: inside a request, which it stretches, and on hands with many wild tiles (天津),
whose searches make many short-lived objects, every few requests. Scoring makes almost no
reference cycles (none on the MCR hands measured, a few closures per hand with wilds), and a
cycle is freed by the collection of the generation it is in, so:

- the young generations are collected as CPython does, the first one less often (`YOUNG`
  objects made between collections, rather than 700), which frees what a request leaves in
  cycles;
- a full collection never starts on its own (`tune`); `between` runs one between two units of
  work (after a request is answered, between two chunks of lines) once `FULL_AFTER`
  collections of the middle generation have passed since the last one: what survives in
  cycles into the oldest generation is freed there, late but surely.

The command-line scorer (`mahjong_scoring.cli`) also pauses the collector while it scores a
chunk of lines: what the chunk holds is not walked, and the cycles it makes (a chunk's worth
at most) wait for the young collection that starts once the collector is on again. What
survives that collection lives on, so it tunes the collector `paused_in_units`: no middle
collections, the full ones at the same pace.

The memory guard (`app.api.memory_guard`) still collects in full whenever a worker grows past
its allowance. Figures: bench/README.md ("full collections only between units of work").
"""

from __future__ import annotations

import gc
from typing import Final

# Objects made (less those freed) between two collections of the youngest generation.
YOUNG: Final = 10_000
# Collections of the youngest generation between two of the middle one (CPython's own).
MIDDLE: Final = 10
# Collections of the middle generation after which `between` collects in full. Past
# CPython's own 10: a full collection costs the same whenever it runs, and almost nothing
# reaches the oldest generation in a cycle.
FULL_AFTER: Final = 100
# The oldest generation's threshold while tuned: out of reach, so a full collection starts
# only from `between` (or an explicit `gc.collect()`).
_NEVER: Final = 1 << 30


def tune(*, paused_in_units: bool = False) -> None:
    """Collect the young generations every `YOUNG` objects and never start a full
    collection on the way: a long-lived process calls `between` between units of work.

    `paused_in_units`: the process pauses the collector while it works on a unit (the
    command-line scorer, a chunk of lines). Then the young collection that runs once the
    collector is on again holds the whole unit: its cycles are freed there, and what survives
    it is what lives on (the memos' new entries), which a middle collection would only walk
    again to free nothing. So the middle generation is not collected on its own either: what
    survives waits there for the full collection, which `between` runs at the same pace, once
    `FULL_AFTER * MIDDLE` young collections have passed."""
    gc.set_threshold(YOUNG, _NEVER if paused_in_units else MIDDLE, _NEVER)


def between() -> bool:
    """A full collection, if `FULL_AFTER` collections of the middle generation have passed
    since the last one (`FULL_AFTER * MIDDLE` of the youngest, tuned `paused_in_units`), and
    the collector is on; whether it ran."""
    if not gc.isenabled():
        return False
    count = gc.get_count()
    due = (count[1] >= FULL_AFTER * MIDDLE if gc.get_threshold()[1] == _NEVER
           else count[2] >= FULL_AFTER)
    if due:
        gc.collect()
    return due
