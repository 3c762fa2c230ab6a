"""The checks of 名堂 (`app.rules.cards.checks`) and the scoring steps
(`app.rules.cards.steps`), each on small hands built by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.domain.arrange import Piece
from app.rules.cards.checks import CHECKS
from app.rules.cards.model import CardRuleSet, Finished, Tally
from app.rules.cards.steps import STEPS
from tests.loaded import repo_rulesets

ROOT = Path(__file__).resolve().parents[2]
RS = next(rs for rs in repo_rulesets().values() if isinstance(rs, CardRuleSet))
DECK = RS.deck


def hand(cards: str, *, win: str = "1x", win_type: str = "self_draw", winner: int = 0,
         dealer: int = 0, table: tuple[Piece, ...] = (), **flags: Any) -> Finished:
    counts = [0] * DECK.size
    for c in DECK.parse_cards(cards, ""):
        counts[c] += 1
    return Finished(DECK, tuple(counts), (), table, DECK.parse_cards(win, "")[0], win_type,
                    winner, dealer, flags, {"xing_card": DECK.by_code["3d"]}, {})


def test_cards_with_counts_the_attribute_in_bounds() -> None:
    h = hand("2710x 2710d 22x")  # 8 red
    assert CHECKS["cards_with"](h, attribute="red", at_least=8, at_most=9) == 1
    assert CHECKS["cards_with"](h, attribute="red", at_least=10) == 0
    assert CHECKS["cards_with"](hand("13x 456d"), attribute="red", at_most=0) == 1


def test_win_type_and_flags() -> None:
    assert CHECKS["win_type_in"](hand("1x"), types=["self_draw"]) == 1
    assert CHECKS["win_type_in"](hand("1x", win_type="flip"), types=["self_draw"]) == 0
    assert CHECKS["flag_set"](hand("1x", last_card=True), flag="last_card") == 1
    assert CHECKS["flag_set"](hand("1x"), flag="last_card") == 0


def test_first_turn_win_by_seat_and_table() -> None:
    f = CHECKS["first_turn_win"]
    assert f(hand("1x", first_turn=True), seat="dealer", win_types=["self_draw"]) == 1
    assert f(hand("1x", first_turn=True, win_type="flip"), seat="dealer",
             win_types=["self_draw"]) == 0
    assert f(hand("1x", first_turn=False), seat="dealer") == 0
    other = hand("1x", first_turn=True, winner=2, table=(Piece("ti", (0, 0, 0, 0)),))
    assert f(other, seat="other", table_kinds=["ti"]) == 1
    assert f(other, seat="dealer") == 0
    claimed = hand("1x", first_turn=True, winner=2, table=(Piece("peng", (0, 0, 0)),))
    assert f(claimed, seat="other", table_kinds=["ti"]) == 0


def test_steps() -> None:
    h = hand("333d 3x", win="3x")
    t = STEPS["minimum"](Tally(points=5), h, at_least=6, reason="low",
                         message="{points}<{at_least}")
    assert t.reason == "low" and t.reason_message == "5<6"
    assert STEPS["minimum"](Tally(points=6), h, at_least=6, reason="low", message="").reason is None
    t = STEPS["units_from_points"](Tally(points=14), h, base=2, start=6, every=3,
                                   base_part="base", part="more")
    assert t.units == 4 and t.parts == (("base", 2), ("more", 2))
    assert STEPS["units_equal_points"](Tally(points=14), h, part="p").units == 14
    counted = STEPS["units_from_counted_points"]
    assert counted(Tally(points=10), h, start=6, every=3, counted_as={10: 15}, part="p").units == 3
    assert counted(Tally(points=11), h, start=6, every=3, counted_as={10: 15}, part="p").units == 1
    assert STEPS["units_per_copy"](Tally(points=6), h, card="win_card", part="x").units == 1
    assert STEPS["units_per_copy"](Tally(points=6), h, card="xing_card", part="x").units == 3
    none = STEPS["units_per_copy"](Tally(points=6), h, card=None, part="x")
    assert none.units == 0 and none.parts == (("x", 0),)
    over = STEPS["units_per_card_over"]
    red = hand("2710x 2710d 222x")  # 9 red
    assert over(Tally(points=6), red, attribute="red", thresholds=[8, 10], part="r").units == 1
    assert over(Tally(points=6), hand("27x"), attribute="red", thresholds=[8, 10],
                part="r").units == 0
    p = RS.pattern_by_id
    t = STEPS["multiply"](Tally(points=6, units=3, patterns=((p["zi_mo"], 2, 1),
                                                             (p["xiao_hong"], 3, 1))), h)
    assert t.multiplier == 6 and STEPS["score"](t, h).score == 18
