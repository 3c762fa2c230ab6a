"""Checks on the shape of a reading: seven pairs, thirteen orphans, knitted forms, nine gates."""

from __future__ import annotations

from typing import Literal

from app.domain.hand import WinContext
from app.domain.shapes import HONORS_AND_KNITTED, KNITTED_STRAIGHT, SEVEN_PAIRS
from app.rules.checks.registry import check
from app.rules.view import View

Shape = Literal["seven_pairs", "thirteen_orphans", "honors_and_knitted", "nine_gates"]
# The counts of ranks 1 to 9 of the nine-gates pattern, 1112345678999.
_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


@check()
def shape_is(v: View, ctx: WinContext, shape: Shape) -> int:
    """特殊和型: the reading has this special shape (七对, 十三幺, 全不靠, 九莲宝灯)."""
    return 1 if v.shape == shape else 0


@check()
def shifted_pairs(v: View, ctx: WinContext) -> int:
    """连七对: seven pairs of seven consecutive ranks in one suit."""
    if v.shape != SEVEN_PAIRS:
        return 0
    suit = v.facts.tileset.suit_no
    pairs = sorted(v.pairs)
    low, high = pairs[0], pairs[6]
    # Seven different kinds spanning seven ranks, the lowest and highest of one suit (a
    # suit's kinds are numbered in a row): seven consecutive ranks.
    if high - low != 6 or suit[low] < 0 or suit[low] != suit[high]:
        return 0
    return 1 if len(set(pairs)) == 7 else 0


@check()
def greater_knitted(v: View, ctx: WinContext) -> int:
    """七星不靠: a 全不靠 hand holding all seven honours."""
    if v.shape != HONORS_AND_KNITTED:
        return 0
    kinds = v.facts.tileset.kinds
    return 1 if sum(1 for t in v.facts.filled().kinds if kinds[t].is_honor) == 7 else 0


@check()
def knitted_straight(v: View, ctx: WinContext) -> int:
    """组合龙: 147, 258 and 369 each in a different suit: as its own shape with a set and a
    pair, or as the nine numbered tiles of a 全不靠."""
    if v.shape == KNITTED_STRAIGHT:
        return 1
    if v.shape == HONORS_AND_KNITTED:
        kinds = v.facts.tileset.kinds
        return 1 if sum(1 for t in v.facts.filled().kinds if kinds[t].is_number) == 9 else 0
    return 0


@check()
def seven_pairs_fours(v: View, ctx: WinContext, count: int) -> int:
    """龙七对 / 双龙七对 / 三龙七对: a seven-pairs hand holding exactly `count` kinds four
    times (each four counted as two pairs)."""
    if v.shape != SEVEN_PAIRS:
        return 0
    return 1 if len(v.facts.filled().fours) == count else 0


@check(scope="hand")
def nine_gates_held(v: View, ctx: WinContext) -> int:
    """九莲宝灯 (as a fan of the hand, beside the fans of how it is read): nothing declared,
    and the thirteen standing tiles before the win are 1112345678999 of the winning tile's
    suit, so that any tile of that suit completes them."""
    f = v.facts.filled()
    if f.hand.melds or f.standing.size != 14:
        return 0
    ts = f.tileset
    kind = ts.kinds[f.win_tile]
    if not kind.is_number:
        return 0
    start = ts.suit_starts[kind.suit]
    before = list(f.standing_counts[start:start + 9])
    before[f.win_tile - start] -= 1
    return 1 if tuple(before) == _NINE_GATES else 0
