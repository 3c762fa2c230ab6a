"""The checks of multiplying patterns (名堂) in card games scored by groups.

A check is a small pure function `check(hand, **params) -> int`: how many times its pattern
applies to a finished hand (0: absent). YAML names a check and gives its parameters; the
loader binds them by keyword at start-up and refuses unknown names and parameters. What a
pattern is worth is the pattern's `value` in YAML, not the check's concern.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from app.rules.cards.model import Finished

CheckFunc = Callable[..., int]
CHECKS: dict[str, CheckFunc] = {}


def check(func: CheckFunc) -> CheckFunc:
    CHECKS[func.__name__] = func
    return func


@check
def cards_with(hand: Finished, *, attribute: str, at_least: int = 0,
               at_most: int | None = None) -> int:
    """红黑点 (红/黑 card counts): the number of cards of the finished hand with `attribute`
    (every card, table groups included) lies within [at_least, at_most]."""
    kinds = hand.deck.with_attribute(attribute)
    n = sum(hand.counts[k] for k in kinds)
    return int(n >= at_least and (at_most is None or n <= at_most))


@check
def win_type_in(hand: Finished, *, types: Sequence[str]) -> int:
    """自摸 and the like: the win came by one of `types`."""
    return int(hand.win_type in types)


@check
def flag_set(hand: Finished, *, flag: str) -> int:
    """海底 and the like: a boolean of the win context (`last_card`) is set."""
    return int(bool(hand.flags.get(flag)))


@check
def first_turn_win(hand: Finished, *, seat: Literal["dealer", "other"],
                   win_types: Sequence[str] = (), table_kinds: Sequence[str] = ()) -> int:
    """天胡 / 地胡: a win in the first turn (`first_turn`), by the dealer or another seat,
    by one of `win_types` (any when empty), with no table group but of `table_kinds`."""
    if not hand.flags.get("first_turn"):
        return 0
    if (hand.winner == hand.dealer) != (seat == "dealer"):
        return 0
    if win_types and hand.win_type not in win_types:
        return 0
    return int(all(g.kind in table_kinds for g in hand.table))
