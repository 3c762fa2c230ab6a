"""The arrangement search of card games against an independent brute force
(`tests/scoring/hengyang_oracle.py`: every assignment of the hand's cards to groups, written
from the rules alone), on thousands of random hands, winning and not, for each win type and
under the options that change the arrangement.

For each hand: the engine finds an arrangement exactly when the brute force does; its 胡息 is
the brute force's highest; the groups it shows are one of the brute force's best
arrangements; and the hand's figures do not change when its cards are written in another
order or notation.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from app.domain.arrange import Piece
from app.domain.card_hand import CardHand, CardWin
from app.rules.cards.model import CardRuleSet
from app.scoring.arranged import score
from tests.loaded import repo_rulesets
from tests.scoring import hengyang_oracle as oracle

ROOT = Path(__file__).resolve().parents[2]
RS = repo_rulesets()["hengyang"]
assert isinstance(RS, CardRuleSet)
DECK = RS.deck
HANDS = 1500  # per win type and option set
SEED = 20261201
OPTION_SETS: list[dict[str, Any]] = [{}, {"yi_wu_shi": True, "forced_wei": False},
                                     {"deal": 21}]
# 21-card hands take the brute force ten times longer: fewer of them.
HANDS_OF = {21: 200}


def engine_args(req: dict[str, Any], opts: dict[str, Any]) -> tuple[CardHand, CardWin]:
    h, ctx = req["hand"], req["context"]
    cards = DECK.parse_codes(h["cards"], "")
    table = tuple(Piece(g["kind"], tuple(sorted(DECK.parse_cards(g["cards"], ""))))
                  for g in h["groups"])
    options = {**RS.option_defaults, **opts}
    payer = ctx.get("discarder") if ctx["win_type"] == "discard" else ctx.get("flipper")
    win = CardWin(ctx["win_type"], ctx["winner"], ctx["dealer"], payer,
                  RS.players_of(options), {}, {}, options)
    return CardHand(cards, table, DECK.by_code[h["win_card"]]), win


def shown(groups: Any) -> list[str]:
    """The engine's groups as the brute force writes them: "kind cards", sorted."""
    return sorted(f"{g.kind} {g.cards}" for g in groups)


@pytest.mark.parametrize("opts", OPTION_SETS, ids=["defaults", "yi_wu_shi+free_wei", "deal_21"])
@pytest.mark.parametrize("win_type", oracle.WIN_TYPES)
def test_search_equals_the_brute_force(win_type: str, opts: dict[str, Any]) -> None:
    rng = random.Random(f"{SEED}/{win_type}/{sorted(opts.items())}")
    tally: Counter[str] = Counter()
    deal = opts.get("deal", 15)
    hands = HANDS_OF.get(deal, HANDS)
    for _ in range(hands):
        req = oracle.random_request(rng, win_type, deal)
        hand, table, w, wt = oracle.request_args(req)
        want = oracle.best_arrangements(hand, table, w, wt,
                                        yi_wu_shi=opts.get("yi_wu_shi", False),
                                        forced_wei=opts.get("forced_wei", True))
        got = score(*engine_args(req, opts), RS)
        label = f"{req}: engine {got.points} {got.reason}, brute force {want}"
        if want is None:
            assert got.groups is None and got.reason is not None, label
            assert got.reason.code == "no_shape", label
            tally["no shape"] += 1
            continue
        top, best = want
        assert got.points == top, label
        assert got.groups is not None and shown(got.groups) in best, label
        tally["won" if got.winning else "below the minimum"] += 1
        if len(best) > 1:
            tally["several best"] += 1
    print(f"\n{win_type} {opts}: {dict(tally)}")
    # The generator must give all three outcomes, or the comparison proves little.
    assert tally["won"] > hands // 5 and tally["no shape"] > hands // 10
    if deal == 15:  # 21 cards hardly ever arrange below 6 胡息
        assert tally["below the minimum"] > 0


@pytest.mark.parametrize("win_type", oracle.WIN_TYPES)
def test_order_and_notation_do_not_change_a_hand(win_type: str) -> None:
    rng = random.Random(f"{SEED}/order/{win_type}")
    for _ in range(300):
        req = oracle.random_request(rng, win_type)
        hand, ctx = engine_args(req, {})
        first = score(hand, ctx, RS)
        shuffled = list(hand.cards)
        rng.shuffle(shuffled)
        chinese = "".join(DECK.cards[c].name for c in shuffled)
        for cards in (tuple(shuffled), DECK.parse_cards(chinese, ""),
                      DECK.parse_cards(DECK.format_hand(shuffled), "")):
            again = score(hand._replace(cards=tuple(cards)), ctx, RS)
            assert again == first, req


def test_nets_sum_to_zero_under_every_option() -> None:
    """Random hands under random options: the winner receives what the others pay, every
    seat has a net, and the nets sum to zero; a discard is paid by the discarder alone."""
    rng = random.Random(f"{SEED}/money")
    won = 0
    choices = {o.name: (o.choices or (True, False)) for o in RS.options
               if o.type in ("enum", "bool")}
    for i in range(1500):
        req = oracle.random_request(rng, oracle.WIN_TYPES[i % 3])
        opts = {name: rng.choice(list(values)) for name, values in choices.items()
                if name not in ("deal", "xing")}
        opts["xing"] = rng.choice(["none", "follow"])
        players = opts["players"]
        hand, ctx = engine_args(req, opts)
        winner = ctx.winner % players
        payer = None if ctx.payer is None else (winner + 1 + rng.randrange(players - 1)) % players
        result = score(hand, ctx._replace(winner=winner, payer=payer), RS)
        if not result.winning:
            assert result.payments is None
            continue
        won += 1
        assert result.payments is not None and result.score is not None
        net = result.payments.net
        assert len(net) == players and sum(net) == 0, (req, opts)
        assert net[winner] > 0 or result.score == 0
        if ctx.win_type == "discard":
            assert [s for s, n in enumerate(net) if n < 0] in ([payer], []), (req, opts)
        else:
            assert all(n == -result.score for s, n in enumerate(net) if s != winner)
    assert won > 300
