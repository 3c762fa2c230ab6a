"""Counting the fans of one reading under a rule set's plan (`app.rules.plan`).

Every check is a pure function, so the order in which checks run does not matter; what
matters is the order in which fans are counted. A reading's fans are decided first (the hand
fans once per hand, `HandFans`; the reading fans whose checks can find something in it), and
only the fans found are then walked in evaluation order: a fan left out (不计) by a fan counted
before it is skipped, and a counted fan leaves out what it excludes. A fan that is left out
leaves nothing out itself (so 四暗刻, which leaves out 不求人, still scores 自摸).

Fans are named by their position in evaluation order (`Plan.fans`, `Plan.values`,
`Plan.excludes`), and sets of fans are bit masks of those positions. Which checks are asked,
and which answers are shared, the plan says (`Probes`); `found` asks them.
"""

from __future__ import annotations

from typing import Any

from app.domain.hand import WinContext
from app.rules.checks import CheckFn
from app.rules.plan import SHARED_LIMIT, Hit, Plan, Probes, ShapePlan
from app.rules.view import CONTEXT_FEATURES, View

__all__ = ["HandFans", "Hit", "Tally", "fan_ids", "found", "tally"]


class Tally:
    """The fans one reading counts. A plain class rather than a named tuple: compiled, it is
    made and read without Python-level calls (one per reading counted)."""

    __slots__ = ("bits", "breaks_ties", "counted", "total")

    def __init__(self, counted: list[Hit], total: int, breaks_ties: bool, bits: int) -> None:
        self.counted = counted  # in evaluation order, with how many times each counts
        self.total = total
        self.breaks_ties = breaks_ties  # some counted fan is one of the rule set's tie-breaks
        self.bits = bits  # the bits of the fans counted

    def _fields(self) -> tuple[list[Hit], int, bool, int]:
        return self.counted, self.total, self.breaks_ties, self.bits

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tally) and self._fields() == other._fields()

    def __repr__(self) -> str:
        return (f"Tally(counted={self.counted!r}, total={self.total!r}, "
                f"breaks_ties={self.breaks_ties!r}, bits={self.bits!r})")


class HandFans:
    """The hand fans of one hand (with wild tiles: of one substitution), decided once per
    shape: a hand fan's check sees only the whole hand and the context."""

    __slots__ = ("_hits",)

    def __init__(self) -> None:
        self._hits: dict[str, list[Hit]] = {}  # by shape

    def hits(self, shape: ShapePlan, view: View, ctx: WinContext) -> list[Hit]:
        """The hand fans of `shape` found in this hand (`view`: any reading of it)."""
        hits = self._hits.get(shape.name)
        if hits is None:
            context = view.features & CONTEXT_FEATURES
            # The plan's table first (a method call is a Python-level call when compiled).
            probes = shape.by_context.get(context)
            hits = self._hits[shape.name] = found(
                probes if probes is not None else shape.hand_probes(context), view, ctx, [])
        return hits


def found(probes: Probes, view: View, ctx: WinContext, hits: list[Hit]) -> list[Hit]:
    """Add the fans of `probes` found in `view` to `hits` (in no particular order)."""
    for check, args, position in probes.single:
        n = _asked(check, args, view, ctx)
        if n:
            hits.append((position, n))
    if probes.gated:
        pungs = view.pungs
        for gate, gated in probes.gated:
            # A loop over the few pungs rather than `isdisjoint`: compiled, a method call on
            # a set is a generic call.
            for t in pungs:
                if t in gate:
                    for check, args, position in gated:
                        n = _asked(check, args, view, ctx)
                        if n:
                            hits.append((position, n))
                    break
    if probes.paired:
        pair = view.pair
        for gate, gated in probes.paired:
            if pair < 0 or pair in gate:
                for check, args, position in gated:
                    n = _asked(check, args, view, ctx)
                    if n:
                        hits.append((position, n))
    for shared in probes.shared:
        key = shared.depends_on(view, ctx)
        memo = shared.memo
        known = memo.get(key)
        if known is None:
            if len(memo) >= SHARED_LIMIT:
                memo.clear()
            known = memo[key] = []
            for check, args, position in shared.probes:
                n = _asked(check, args, view, ctx)
                if n:
                    known.append((position, n))
        if known:
            hits += known
    table = probes.kinds
    if table is not None:
        # The fans whose condition every kind held meets (a loop: compiled, it costs less
        # than `reduce` over a `map`, which call back for every kind).
        masks = table.masks
        bits = table.every
        for kind in view.facts.kinds:
            bits &= masks[kind]
            if not bits:
                break
        if bits:
            hits += table.found[bits]
    return hits


def _asked(check: CheckFn, args: tuple[Any, ...], view: View, ctx: WinContext) -> int:
    """`check(view, ctx, *args)`, the values passed one by one for the few a check takes
    (four at most, today): compiled, a call with a fixed number of arguments passes them
    as they are, where `*args` builds a list and a tuple of them all."""
    k = len(args)
    if not k:
        return check(view, ctx)
    if k == 1:
        return check(view, ctx, args[0])
    if k == 2:
        return check(view, ctx, args[0], args[1])
    if k == 3:
        return check(view, ctx, args[0], args[1], args[2])
    if k == 4:
        return check(view, ctx, args[0], args[1], args[2], args[3])
    return check(view, ctx, *args)


def fan_ids(plan: Plan, counted: list[Hit]) -> tuple[tuple[str, int], ...]:
    """The counted fans by id, with how many times each counts: what a payment scheme
    pricing the fans reads, and a fan requirement."""
    fans = plan.fans
    return tuple([(fans[position].id, n) for position, n in counted])


def tally(view: View, ctx: WinContext, plan: Plan, shape: ShapePlan,
          hand_hits: list[Hit] | None, disabled: int, win_tile: int) -> Tally:
    """The fans a reading counts. `hand_hits`: the hand fans found (`HandFans.hits`), or None
    to decide them with the reading's (a hand read one way only); `disabled`: the bits of
    the fans the request's options switch off; `win_tile`: the winning tile (its rank names
    a shape's fixed extras)."""
    if hand_hits is None:
        features = view.features
        probes = shape.every_by_features.get(features)
        hits = found(probes if probes is not None else shape.every_fan(features), view, ctx,
                     [])
    else:
        features = view.features
        probes = shape.by_features.get(features)  # the plan's table first, as above
        hits = found(probes if probes is not None else shape.reading_fans(features), view, ctx,
                     hand_hits[:])
    hits.sort()
    values, excludes = plan.values, plan.excludes
    excluded = disabled
    counted: list[Hit] = []
    total = bits = 0
    for hit in hits:
        position = hit[0]
        if excluded >> position & 1:
            continue
        counted.append(hit)
        total += values[position] * hit[1]
        bits |= 1 << position
        excluded |= excludes[position]
    lonely = plan.needs_company
    if bits & lonely and not bits & ~lonely:
        # Only fans that count beside another fan, and none other: none of them counts.
        counted = []
        total = bits = 0
    breaks_ties = bool(bits & plan.ties)
    if shape.extras:
        extras = shape.extras.get(shape.tileset.ranks[win_tile])
        if extras:
            for s in extras:
                if not disabled & s.bit:
                    counted.append((s.position, 1))
                    total += s.value
                    bits |= s.bit
    last = shape.last
    if last is not None and not bits & plan.toward_minimum and not disabled & last.bit:
        counted.append((last.position, 1))
        total += last.value
        bits |= last.bit
    return Tally(counted, total, breaks_ties, bits)
