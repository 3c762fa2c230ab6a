"""Counting the fans of one reading under a rule set's plan (`app.rules.plan`).

Every check is a pure function, so the order in which checks run does not matter; what
matters is the order in which fans are counted. A reading's fans are decided first (the hand
fans once per hand, `HandFans`; the reading fans whose checks can find something in it), and
only the fans found are then walked in evaluation order: a fan left out (不计) by a fan counted
before it is skipped, and a counted fan leaves out what it excludes. A fan that is left out
leaves nothing out itself (so 四暗刻, which leaves out 不求人, still scores 自摸).
"""

from __future__ import annotations

from typing import NamedTuple

from app.domain.hand import WinContext
from app.rules.definitions import FanDef
from app.rules.plan import FanStep, ShapePlan
from app.rules.view import CONTEXT_FEATURES, View

# A fan found in a reading: (position in evaluation order, how many times, the fan's step).
Hit = tuple[int, int, FanStep]


class Tally(NamedTuple):
    """The fans one reading counts."""

    fans: list[tuple[FanDef, int]]  # in evaluation order, with how many times each counts
    total: int
    toward_minimum: bool  # some counted fan counts toward the rule set's minimum
    breaks_ties: bool  # some counted fan is one of the rule set's tie-break fans


class HandFans:
    """The hand fans of one hand (with wild tiles: of one substitution), decided once and
    kept by shape: a hand fan's check sees only the whole hand and the context."""

    __slots__ = ("_hits", "_values")

    def __init__(self) -> None:
        self._values: dict[int, int] = {}  # by position
        self._hits: dict[str, list[Hit]] = {}  # by shape

    def hits(self, shape: ShapePlan, view: View, ctx: WinContext) -> list[Hit]:
        """The hand fans of `shape` found in this hand (`view`: any reading of it)."""
        found = self._hits.get(shape.name)
        if found is None:
            values = self._values
            context = view.features & CONTEXT_FEATURES
            found = []
            for s in shape.hand:
                if s.needs & context != s.needs:
                    continue
                n = values.get(s.position)
                if n is None:
                    n = values[s.position] = s.check(view, ctx)
                if n:
                    found.append((s.position, n, s))
            self._hits[shape.name] = found
        return found


def _position(hit: Hit) -> int:
    return hit[0]


def tally(view: View, ctx: WinContext, shape: ShapePlan, hand_hits: list[Hit],
          disabled: int, win_rank: int) -> Tally:
    """The fans a reading counts. `disabled`: the bits of the fans the request's options
    switch off; `win_rank`: the rank of the winning tile (for a shape's fixed extras)."""
    hits = [(s.position, n, s) for s in shape.reading_fans(view.features)
            if (n := s.check(view, ctx))]
    if hand_hits:
        hits += hand_hits
        hits.sort(key=_position)
    excluded = disabled
    counted: list[tuple[FanDef, int]] = []
    total = 0
    toward_minimum = breaks_ties = False
    for _, n, s in hits:
        if excluded & s.bit:
            continue
        counted.append((s.fan, n))
        total += s.value * n
        toward_minimum = toward_minimum or s.toward_minimum
        breaks_ties = breaks_ties or s.breaks_ties
        excluded |= s.excludes
    extras = shape.extras.get(win_rank)
    if extras:
        for s in extras:
            if not disabled & s.bit:
                counted.append((s.fan, 1))
                total += s.value
                toward_minimum = toward_minimum or s.toward_minimum
    last = shape.last
    if not toward_minimum and last is not None and not disabled & last.bit:
        counted.append((last.fan, 1))
        total += last.value
    return Tally(counted, total, toward_minimum, breaks_ties)
