"""The most any reading of a hand can score: the comparison of its readings stops at a reading
that reaches it (step 4 of `app.scoring.evaluate`).

A reading counts its hand fans (the same in every reading: decided once per hand), its
reading fans, the shape's fixed extras and, when nothing else counts, its 无番和-like fan; a
fan counted leaves out (不计) what it excludes among the fans after it. When the check of every
reading fan says the most times it can count in the hand (`check(most=)`), every reading
counts one of the choices of those fans, each at most that many times, none left out by
another chosen before it. The ceiling is the best of those choices as the comparison ranks
readings: the value a scheme pricing the fans gives it, then its total.

A bound that no reading reaches only costs the comparisons it did not save; one below a
reading would change an answer, which is why `most` is a promise each check's tests hold it
to.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Final

from app.domain.hand import WinContext
from app.rules.plan import Hit, Most, Plan, ShapePlan
from app.rules.view import Held

# The choices weighed at most (each fan that may count multiplies them by its times + 1):
# past it there is no ceiling, and every reading is compared.
CHOICES_LIMIT: Final = 1024

# What a choice of counted fans is worth beside its total (a scheme pricing the fans), or
# None when only the total ranks readings.
Price = Callable[[int, list[Hit]], int] | None


def ceiling(plan: Plan, shapes: Iterable[ShapePlan], hits: Callable[[ShapePlan], list[Hit]],
            hand: Held, ctx: WinContext, disabled: int, price: Price
            ) -> tuple[int, int] | None:
    """(worth, total) that no reading of the hand in `shapes` betters, or None when that is
    not known. `hits(shape)`: the hand fans found under the shape; `hand`: the hand as held
    (what the checks' `most` reads); `disabled`: the fans a request option switches off."""
    best: tuple[int, int] | None = None
    for shape in shapes:
        bounds = shape.ceiling
        if bounds is None:
            return None
        found = _best_choice(plan, _possible(bounds, hits(shape), hand, ctx, disabled), price)
        if found is None:
            return None
        if best is None or found > best:
            best = found
    return best


def _possible(bounds: Sequence[Most], hand_hits: list[Hit], hand: Held, ctx: WinContext,
              disabled: int) -> list[tuple[int, int, bool]]:
    """(position, the most times, whether fans before it may leave it out) of every fan
    that may count, in evaluation order."""
    possible = [(position, n, True) for position, n in hand_hits
                if not disabled >> position & 1]
    for position, most, walked in bounds:
        if disabled >> position & 1:
            continue
        n = 1 if most is None else most(hand, ctx)
        if n:
            possible.append((position, n, walked))
    possible.sort()
    return possible


def _best_choice(plan: Plan, possible: list[tuple[int, int, bool]], price: Price
                 ) -> tuple[int, int] | None:
    """The best (worth, total) of the choices of `possible`; None past `CHOICES_LIMIT`."""
    choices = 1
    for _, n, _ in possible:
        choices *= n + 1
    if choices > CHOICES_LIMIT:
        return None
    return _walk(plan, possible, price, 0, 0, 0, [])


def _walk(plan: Plan, possible: list[tuple[int, int, bool]], price: Price, i: int,
          left_out: int, total: int, chosen: list[Hit]) -> tuple[int, int]:
    """The best (worth, total) of the choices of `possible[i:]` beside `chosen`."""
    if i == len(possible):
        return (0 if price is None else price(total, chosen[:]), total)
    position, most, walked = possible[i]
    best = _walk(plan, possible, price, i + 1, left_out, total, chosen)  # not counted
    if walked and left_out >> position & 1:
        return best
    if walked:
        left_out |= plan.excludes[position]
    value = plan.values[position]
    for n in range(1, most + 1):
        chosen.append((position, n))
        found = _walk(plan, possible, price, i + 1, left_out, total + value * n, chosen)
        chosen.pop()
        if found > best:
            best = found
    return best
