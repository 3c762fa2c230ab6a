"""The steps of the scoring pipeline of card games scored by groups, registered by name.

A rule set lists its steps in order (`scoring:` in YAML, maybe chosen by a house rule); each
is a small pure function `step(tally, hand, **params) -> Tally` that adds to the figures of
the hand: the points of its groups come in (胡息), a minimum may stop the hand, points become
units (囤), bonuses add units, the patterns multiply, the score is units × multiplier. The
loader binds the parameters by keyword at start-up (`app.rules.load_params.bind`, as for every
registered function); a parameter may be chosen by an option (`app.rules.choices`), resolved
per request before the step runs.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence

from app.rules.cards.model import Finished, Tally

StepFunc = Callable[..., Tally]
STEPS: dict[str, StepFunc] = {}


def step(func: StepFunc) -> StepFunc:
    STEPS[func.__name__] = func
    return func


def _add(t: Tally, part: str, n: int) -> Tally:
    return dataclasses.replace(t, units=t.units + n, parts=(*t.parts, (part, n)))


@step
def minimum(t: Tally, hand: Finished, *, at_least: int, reason: str, message: str) -> Tally:
    """起胡: a hand below `at_least` points is no win."""
    if t.points >= at_least:
        return t
    return dataclasses.replace(t, reason=reason,
                               reason_message=message.format(points=t.points, at_least=at_least))


@step
def units_from_points(t: Tally, hand: Finished, *, base: int, start: int, every: int,
                      base_part: str, part: str) -> Tally:
    """3息1囤: `base` units, plus one for every `every` points above `start`."""
    t = _add(t, base_part, base)
    return _add(t, part, max(0, (t.points - start) // every))


@step
def units_equal_points(t: Tally, hand: Finished, *, part: str) -> Tally:
    """1息1囤: one unit per point."""
    return _add(t, part, t.points)


@step
def units_from_counted_points(t: Tally, hand: Finished, *, start: int, every: int,
                              counted_as: Mapping[int, int], part: str) -> Tally:
    """敦 by a table: one unit for every `every` points above `start`, some point totals
    counted as others first (10 息 as 15)."""
    points = counted_as.get(t.points, t.points)
    return _add(t, part, max(0, (points - start) // every))


@step
def units_per_copy(t: Tally, hand: Finished, *, card: str | None, part: str) -> Tally:
    """醒: one unit per copy, over the whole finished hand, of the card `card` names
    (`win_card`, or a card of the context such as `xing_card`); none when `card` is null
    (the part is then 0, so that a hand's parts name the same steps whatever the options)."""
    if card is None:
        return _add(t, part, 0)
    index = hand.win_card if card == "win_card" else hand.cards.get(card)
    return _add(t, part, 0 if index is None else hand.counts[index])


@step
def units_per_card_over(t: Tally, hand: Finished, *, attribute: str,
                        thresholds: Sequence[int], part: str) -> Tally:
    """加敦 for red cards: one unit per card with `attribute` beyond the highest of
    `thresholds` the hand reaches (none below the lowest)."""
    n = sum(hand.counts[k] for k in hand.deck.with_attribute(attribute))
    reached = [x for x in thresholds if n >= x]
    return _add(t, part, n - max(reached) if reached else 0)


@step
def multiply(t: Tally, hand: Finished) -> Tally:
    """番: the values of the counted patterns multiply (1 with none)."""
    return dataclasses.replace(
        t, multiplier=math.prod(value ** count for _, value, count in t.patterns))


@step
def score(t: Tally, hand: Finished) -> Tally:
    """The score: units × multiplier, what each paying share is worth."""
    return dataclasses.replace(t, score=t.units * t.multiplier)
