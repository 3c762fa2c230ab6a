"""Explanations of word-card hands (`app.scoring.arranged.explained`): the result is the
plain score's, every arrangement is compared (as many as the brute force finds), the chosen
one comes first and the others by rank, and a 名堂 an option leaves out is listed with it.
The waits of a hand, explained, are the plain waits with each one's explanation."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.domain.card_hand import CardHand
from app.scoring.arranged import explained, score, waits
from tests.scoring import hengyang_oracle as oracle
from tests.scoring.test_hengyang_arrangement import RS, engine_args


@pytest.mark.parametrize("win_type", oracle.WIN_TYPES)
def test_explained_is_the_score_and_counts_every_arrangement(win_type: str) -> None:
    rng = random.Random(f"explain/{win_type}")
    seen = 0
    for _ in range(400):
        req = oracle.random_request(rng, win_type)
        hand, ctx = engine_args(req, {})
        result, why = explained(hand, ctx, RS)
        assert result == score(hand, ctx, RS)
        every = {tuple(oracle.canonical(g)) for _, g in
                 oracle.arrangements(*oracle.request_args(req))}
        assert why.readings_compared == len(every), req
        if not every:
            assert why.readings == () and why.not_counted == ()
            continue
        seen += 1
        first = why.readings[0]
        assert first.chosen and first.groups == result.groups
        assert first.points == result.points
        assert not any(r.chosen for r in why.readings[1:])
        ranked = [r.points for r in why.readings if r.score is not None]
        assert ranked == sorted(ranked, reverse=True)
    assert seen > 100


@pytest.mark.parametrize(("options", "left"), [
    ({"red_black": "off"}, {"quan_hei": "red_black"}),
    ({"self_draw_double": False}, {"zi_mo": "self_draw_double"}),
    ({}, {}),
])
def test_a_pattern_an_option_leaves_out(options: dict[str, Any], left: dict[str, str]) -> None:
    # E8 of the rule page: 全黑 and 自摸.
    req = {"hand": {"cards": ["1d", "1d", "1d", "3d", "4d", "5d", "4x", "5x", "6x", "8x", "8x",
                              "9x", "9x", "9d", "8x"], "groups": [], "win_card": "8x"},
           "context": {"win_type": "self_draw", "winner": 1, "dealer": 0}}
    hand, ctx = engine_args(req, options)
    result, why = explained(hand, ctx, RS)
    assert {n.id: n.by for n in why.not_counted} == left
    assert all(n.rule == "option" and n.value > 0 for n in why.not_counted)
    counted = {f.id for f in result.fans}
    assert not counted & set(left) and counted | set(left) == {"quan_hei", "zi_mo"}


@pytest.mark.parametrize("win_type", [*oracle.WIN_TYPES, ""])
def test_explained_waits_are_the_waits_each_with_its_explanation(win_type: str) -> None:
    # E10 of the rule page before its winning 二 (seat 3; "" tries every win type).
    req = {"hand": {"cards": ["1x", "3x", "5x", "6x", "7x", "1d", "1d", "2d", "2d", "3d", "3d",
                              "6d", "7d", "8d", "2x"], "groups": [], "win_card": "2x"},
           "context": {"win_type": win_type or "self_draw", "winner": 3, "dealer": 0,
                       "discarder": 1, "flipper": 1}}
    hand, ctx = engine_args(req, {})
    short = hand.cards[:-1]
    ctx = ctx._replace(win_type=win_type, payer=None)
    plain = waits(short, hand.table, ctx, RS)
    told = waits(short, hand.table, ctx, RS, explain=True)
    assert plain.waits and all(w.explanation is None for w in plain.waits)
    assert told._replace(waits=tuple(w._replace(explanation=None) for w in told.waits),
                         best=None) == plain._replace(best=None)
    assert told.best is not None and plain.best == told.best._replace(explanation=None)
    for w in told.waits:
        card = RS.deck.by_code[w.card]
        payer = None if w.win_type == "self_draw" else (ctx.winner + 1) % ctx.players
        again = explained(CardHand((*short, card), hand.table, card),
                          ctx._replace(win_type=w.win_type, payer=payer), RS)
        assert (w.result, w.explanation) == again
    if win_type == "discard":
        (two,) = [w for w in told.waits if w.card == "2x"]
        assert two.explanation is not None
        assert [r.points for r in two.explanation.readings] == [15, 0]
