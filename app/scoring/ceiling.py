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

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

from app.domain.hand import WinContext
from app.rules.payments import Scheme
from app.rules.plan import Hit, Most, Plan, ShapePlan
from app.rules.view import Held
from app.scoring.fans import fan_ids

# The choices weighed at most (each fan that may count multiplies them by its times + 1):
# past it there is no ceiling, and every reading is compared.
CHOICES_LIMIT: Final = 1024

# The worths and best choices a `Pricing` keeps (each table emptied when full). A rule set's
# fans make few distinct choices: tianjin's heaviest discard analyses make a few dozen.
PRICED_LIMIT: Final = 1024

# A list of the fans that may count in a hand: (position, the most times, whether fans
# before it may leave it out), in evaluation order.
Possible = list[tuple[int, int, bool]]


class Pricing:
    """What a payment scheme that prices the fans themselves (`by_fans`) pays for a choice of
    counted fans, under one plan and one set of the scheme's parameters; and the best choice
    of each list of fans that may count (the ceiling's answer for it). Both are remembered:
    the hands one request scores under one context price alike."""

    __slots__ = ("choices", "options", "params", "plan", "scheme", "seen", "worths")

    def __init__(self, plan: Plan, scheme: Scheme, params: Mapping[str, Any],
                 options: Mapping[str, Any]) -> None:
        self.plan = plan
        self.scheme = scheme
        self.params = params
        # What the parameters were resolved under: the object (the memo's key) and a copy of
        # its values (a list's or a mapping's items copied too: per-seat options), so that
        # options changed in place after are told apart.
        self.options = options
        self.seen = {k: (v.copy() if isinstance(v, (list, dict)) else v)
                     for k, v in options.items()}
        self.worths: dict[tuple[int, tuple[Hit, ...]], int] = {}
        self.choices: dict[tuple[tuple[int, int, bool], ...], tuple[int, int] | None] = {}

    def worth(self, total: int, counted: list[Hit]) -> int:
        """What the scheme pays for `counted` (fans of this total): choices counting the
        same fans the same times are worth the same, priced once."""
        key = (total, tuple(counted))
        worths = self.worths
        known = worths.get(key)
        if known is None:
            if len(worths) >= PRICED_LIMIT:
                worths.clear()
            known = worths[key] = self.scheme.value(
                total, fans=fan_ids(self.plan, counted), **self.params)[0]
        return known


def ceiling(plan: Plan, shapes: Iterable[ShapePlan], hits: Callable[[ShapePlan], list[Hit]],
            hand: Held, ctx: WinContext, disabled: int, pricing: Pricing | None
            ) -> tuple[int, int] | None:
    """(worth, total) that no reading of the hand in `shapes` betters, or None when that is
    not known. `hits(shape)`: the hand fans found under the shape; `hand`: the hand as held
    (what the checks' `most` reads); `disabled`: the fans a request option switches off;
    `pricing`: what a scheme pricing the fans gives a choice of them (None: only the total
    ranks readings)."""
    best: tuple[int, int] | None = None
    for shape in shapes:
        bounds = shape.ceiling
        if bounds is None:
            return None
        possible = _possible(bounds, hits(shape), hand, ctx, disabled)
        if pricing is None:
            found = _best_choice(plan, possible, None)
        else:
            # Remembered by the list alone: the plan and the pricing's parameters are fixed.
            key = tuple(possible)
            choices = pricing.choices
            if key in choices:
                found = choices[key]
            else:
                if len(choices) >= PRICED_LIMIT:
                    choices.clear()
                found = choices[key] = _best_choice(plan, possible, pricing)
        if found is None:
            return None
        if best is None or found > best:
            best = found
    return best


def _possible(bounds: Sequence[Most], hand_hits: list[Hit], hand: Held, ctx: WinContext,
              disabled: int) -> Possible:
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


def _best_choice(plan: Plan, possible: Possible, pricing: Pricing | None
                 ) -> tuple[int, int] | None:
    """The best (worth, total) of the choices of `possible`; None past `CHOICES_LIMIT`."""
    choices = 1
    for _, n, _ in possible:
        choices *= n + 1
    if choices > CHOICES_LIMIT:
        return None
    return _walk(plan, possible, pricing, 0, 0, 0, [])


def _walk(plan: Plan, possible: Possible, pricing: Pricing | None, i: int,
          left_out: int, total: int, chosen: list[Hit]) -> tuple[int, int]:
    """The best (worth, total) of the choices of `possible[i:]` beside `chosen`."""
    if i == len(possible):
        return (0 if pricing is None else pricing.worth(total, chosen), total)
    position, most, walked = possible[i]
    best = _walk(plan, possible, pricing, i + 1, left_out, total, chosen)  # not counted
    if walked and left_out >> position & 1:
        return best
    if walked:
        left_out |= plan.excludes[position]
    value = plan.values[position]
    for n in range(1, most + 1):
        chosen.append((position, n))
        found = _walk(plan, possible, pricing, i + 1, left_out, total + value * n, chosen)
        chosen.pop()
        if found > best:
            best = found
    return best
