"""The vocabulary 长春麻将 added, tested on its own: the `payer_fans` payment scheme (each
payer's own 番, 包庄), payment parameters mapped from an option's choices, requirements on a
reading, `stand_in` (摸宝), `context_rules` and the settlement's `kong_tiles`; and what the
loader refuses of each, naming the file and the field."""

from __future__ import annotations

import copy
import itertools
from pathlib import Path
from typing import Any

import pytest

from app.domain.hand import DISCARD, SELF_DRAW, WinContext
from app.rules.loader import load_rulesets
from app.rules.payments import payer_fan, payer_fans_pay, payer_fans_value
from tests.rules.test_loader import load_error, mini, write

FULL = {"base": 1, "cap": 6, "discard_payers": "everyone", "dealer_fan": 1,
        "discarder_fan": 1, "self_draw_fan": 1}


def ctx(win_type: str, winner: int, discarder: int | None, dealer: int) -> WinContext:
    return WinContext(win_type=win_type, winner=winner, discarder=discarder, dealer=dealer)


def arrangements() -> list[tuple[str, int, int | None, int]]:
    out: list[tuple[str, int, int | None, int]] = []
    for winner, dealer in itertools.product(range(4), range(4)):
        out.append((SELF_DRAW, winner, None, dealer))
        out += [(DISCARD, winner, d, dealer) for d in range(4) if d != winner]
    return out


@pytest.mark.parametrize(("win_type", "winner", "discarder", "dealer"), arrangements())
@pytest.mark.parametrize("total", [0, 1, 3, 6])
def test_every_payer_pays_two_to_his_own_fan(win_type: str, winner: int,
                                             discarder: int | None, dealer: int,
                                             total: int) -> None:
    c = ctx(win_type, winner, discarder, dealer)
    paid = payer_fans_pay(total, c, 4, **FULL)
    assert sum(paid.net) == 0
    for seat in range(4):
        if seat == winner:
            continue
        fan = total + 1 if win_type == SELF_DRAW or seat == discarder else total
        fan += dealer in (seat, winner)
        assert -paid.net[seat] == 2 ** min(fan, 6)


def test_only_the_discarder_pays_unless_everyone_does() -> None:
    c = ctx(DISCARD, 1, 2, 0)
    paid = payer_fans_pay(2, c, 4, **{**FULL, "discard_payers": "discarder"})
    assert paid.net == (0, 8, -8, 0)


def test_bao_zhuang_the_undeclared_discarder_pays_each_amount() -> None:
    c = ctx(DISCARD, 1, 2, 0)
    params = {**FULL, "declared": (1, 1, 0, 1), "undeclared_discarder_pays_all": True}
    paid = payer_fans_pay(3, c, 4, **params)
    assert paid.net == (0, 40, -40, 0)
    assert [(t.payer, t.amount, t.reason) for t in paid.transfers] == [
        (2, 16, "discarder"), (2, 16, "pays_for_others"), (2, 8, "pays_for_others")]
    # A discarder who had declared pays his own only.
    declared = payer_fans_pay(3, c, 4, **{**params, "declared": (1, 1, 1, 1)})
    assert declared.net == (-16, 40, -16, -8)


def test_dealer_bonus_not_on_discard() -> None:
    c = ctx(DISCARD, 0, 1, 0)
    assert payer_fan(0, c, 1, dealer_fan=1, discarder_fan=1) == 2
    assert payer_fan(0, c, 1, dealer_fan=1, discarder_fan=1,
                     dealer_bonus="not_on_discard") == 1
    # The dealer's own payment keeps its +1; a self-draw by the dealer keeps it too.
    assert payer_fan(0, ctx(DISCARD, 1, 2, 0), 0, dealer_fan=1,
                     dealer_bonus="not_on_discard") == 1
    assert payer_fan(0, ctx(SELF_DRAW, 0, None, 0), 1, dealer_fan=1,
                     dealer_bonus="not_on_discard") == 1


def test_dealer_bonus_discarder_only_on_discard() -> None:
    """The dealer wins on a discard: the discarder's payment keeps the dealer's +1, the other
    payers' lose it; any other win pays as `always`."""
    seed = {**FULL, "dealer_bonus": "discarder_only_on_discard"}
    c = ctx(DISCARD, 0, 1, 0)
    assert payer_fan(1, c, 1, dealer_fan=1, discarder_fan=1,
                     dealer_bonus="discarder_only_on_discard") == 3
    assert payer_fan(1, c, 2, dealer_fan=1, discarder_fan=1,
                     dealer_bonus="discarder_only_on_discard") == 1
    # 庄家夹胡 8 / 2, 庄家飘胡 16 / 4 (the discarder, each other payer).
    assert payer_fans_pay(1, c, 4, **seed).net == (12, -8, -2, -2)
    assert payer_fans_pay(2, ctx(DISCARD, 0, 3, 0), 4, **seed).net == (24, -4, -4, -16)
    # 包庄: an undeclared discarder pays each amount as it would have been, 8 + 2 + 2.
    covered = payer_fans_pay(1, c, 4, **{**seed, "declared": (1, 0, 1, 1),
                                         "undeclared_discarder_pays_all": True})
    assert covered.net == (12, -12, 0, 0)
    # Every other arrangement pays as `always`.
    for win_type, winner, discarder, dealer in arrangements():
        if win_type == DISCARD and winner == dealer:
            continue
        for total in (0, 1, 3, 6):
            c = ctx(win_type, winner, discarder, dealer)
            assert payer_fans_pay(total, c, 4, **seed) == payer_fans_pay(total, c, 4, **FULL)


def test_the_cap_and_the_value() -> None:
    c = ctx(SELF_DRAW, 0, None, 0)
    assert payer_fans_pay(6, c, 4, **FULL).net == (192, -64, -64, -64)
    assert payer_fans_pay(6, c, 4, **{**FULL, "cap": "none"}).net == (768, -256, -256, -256)
    assert payer_fans_value(7, base=5, cap=6) == (320, 64)
    assert payer_fans_value(2, base=1, cap="none") == (4, 4)


OPTIONS: list[dict[str, Any]] = [
    {"name": "base", "type": "int", "default": 1, "minimum": 1, "description": "底"},
    {"name": "cap", "type": "enum", "choices": [6, "none"], "default": 6, "description": "cap"},
    {"name": "bonus", "type": "enum", "choices": ["book", "folk"], "default": "book",
     "description": "庄"},
    {"name": "ready", "type": "per_seat", "minimum": 0, "maximum": 1, "default": [1, 1, 1, 1],
     "description": "报听"},
    {"name": "open", "type": "bool", "default": False, "description": "开门"},
    {"name": "bao", "type": "enum", "choices": ["none", "draw"], "default": "none",
     "description": "宝"},
]
PAYMENT: dict[str, Any] = {"scheme": "payer_fans", "params": {
    "base": {"option": "base"}, "cap": {"option": "cap"}, "discard_payers": "everyone",
    "dealer_fan": 1, "dealer_bonus": {"option": "bonus",
                                      "values": {"book": "always", "folk": "not_on_discard"}},
    "declared": {"option": "ready"}, "undeclared_discarder_pays_all": True}}


def data(**changes: Any) -> dict[str, Any]:
    out = mini(options=copy.deepcopy(OPTIONS), payment=copy.deepcopy(PAYMENT), min_fan=0)
    out.update(changes)
    return out


def test_the_vocabulary_loads(tmp_path: Path) -> None:
    rs = load_rulesets(write(tmp_path, data(
        requires=[{"check": "pung_or_pair_among", "params": {"pairs": "CFP"}, "reason": "np",
                   "message": "a pung"},
                  {"check": "exposed_melds_at_least", "params": {"count": 1, "only_if": "open"},
                   "reason": "closed", "message": "open it"}],
        stand_in={"when": {"option": "bao", "in": ["draw"]}, "description": "宝"},
        context_rules=[{"when": {"option": "bao", "in": ["draw"]}, "win_type": "self_draw",
                        "winner_set": "ready", "message": "摸宝"}],
        settlement={"kongs": {"concealed": {"payer": "each_active", "amount": 2}},
                    "kong_tiles": {"tiles": "1pC", "factor": 2, "enabled": {"option": "open"}},
                    "drawn_game": {}})))["mini"]
    assert rs.stand_in is not None and rs.stand_in.holds({"bao": "draw"})
    assert not rs.stand_in.holds({"bao": "none"})
    assert rs.context_rules[0].winner_set == "ready"
    assert rs.settlement is not None and rs.settlement.kong_tiles is not None
    assert rs.settlement.kong_tiles.factor == 2
    assert [r.reason for r in rs.requirements] == ["np", "closed"]


@pytest.mark.parametrize(("changes", "field", "words"), [
    ({"payment": {"scheme": "payer_fans", "params": {**PAYMENT["params"], "dealer_bonus": {
        "option": "bonus", "values": {"book": "always"}}}}},
     "payment.params.dealer_bonus.values", "covers not every value of 'bonus'"),
    ({"payment": {"scheme": "payer_fans", "params": {**PAYMENT["params"], "dealer_bonus": {
        "option": "bonus", "values": {"book": "always", "folk": "sometimes"}}}}},
     "payment.params.dealer_bonus",
     "must be one of always, not_on_discard, discarder_only_on_discard"),
    ({"payment": {"scheme": "payer_fans", "params": {**PAYMENT["params"],
                                                     "dealer_bonus": "discarder_only"}}},
     "payment.params.dealer_bonus",
     "must be one of always, not_on_discard, discarder_only_on_discard"),
    ({"payment": {"scheme": "payer_fans", "params": {**PAYMENT["params"],
                                                     "discard_payers": "some"}}},
     "payment.params.discard_payers", "must be one of discarder, everyone"),
    ({"payment": {"scheme": "payer_fans", "params": {**PAYMENT["params"],
                                                     "declared": {"option": "open"}}}},
     "payment.params.declared", "per_seat option"),
    ({"payment": {"scheme": "payer_fans", "params": {**PAYMENT["params"],
                                                     "cap": {"option": "bonus"}}}},
     "payment.params.cap", "numbers of 番"),
    ({"stand_in": {"when": {"option": "bao", "in": ["wild"]}}}, "stand_in.when.in",
     "values of option 'bao'"),
    ({"stand_in": {"description": "no when"}}, "stand_in.when", "missing"),
    ({"context_rules": [{"when": {"option": "bao", "in": ["draw"]}, "message": "m"}]},
     "context_rules[0]", "win_type or winner_set"),
    ({"context_rules": [{"when": {"option": "bao", "in": ["draw"]}, "message": "m",
                         "winner_set": "open"}]},
     "context_rules[0].winner_set", "per_seat option"),
    ({"requires": [{"check": "exposed_melds_at_least",
                    "params": {"count": 1, "only_if": "bao"}, "reason": "r",
                    "message": "m"}]}, "params.only_if", "bool option"),
    ({"settlement": {"kongs": {}, "kong_tiles": {"tiles": "1x", "factor": 2},
                     "drawn_game": {}}}, "settlement.kong_tiles.tiles", "bad tile notation"),
    ({"settlement": {"kongs": {}, "kong_tiles": {"tiles": "1p", "factor": 0},
                     "drawn_game": {}}}, "settlement.kong_tiles.factor", "at least 1"),
])
def test_the_loader_refuses(tmp_path: Path, changes: dict[str, Any], field: str,
                            words: str) -> None:
    msg = load_error(tmp_path, data(**changes))
    assert f"field {field!r}" in msg, msg
    assert words in msg, msg
    assert msg.startswith("mini.yaml: "), msg
