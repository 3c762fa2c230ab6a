"""Payments: the base_plus_fan scheme (国标), transfers, and nets that always sum to zero."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.domain.hand import WinContext
from app.domain.request import build
from app.rules.loader import load_rulesets
from app.scoring.evaluate import score
from app.scoring.payments import SCHEMES, pay, settle_transfers
from app.scoring.payments import base_plus_fan_pay as base_plus_fan
from app.scoring.result import Transfer

ROOT = Path(__file__).resolve().parents[2]
MCR = load_rulesets(ROOT / "rulesets")["mcr"]


def arrangements(players: int) -> list[tuple[int, int | None]]:
    """Every (winner, discarder) pair: discarder None for a self-draw."""
    out: list[tuple[int, int | None]] = []
    for w in range(players):
        out.append((w, None))
        out += [(w, d) for d in range(players) if d != w]
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("total", [0, 8, 91])
def test_base_plus_fan_every_seat_arrangement(players: int, total: int) -> None:
    for winner, discarder in arrangements(players):
        ctx = WinContext("self_draw" if discarder is None else "discard", winner=winner,
                         discarder=discarder)
        p = base_plus_fan(total, ctx, players, base=8)
        assert sum(p.net) == 0
        assert len(p.net) == players
        assert all(t.payee == winner and t.payer != winner for t in p.transfers)
        assert len(p.transfers) == players - 1
        if discarder is None:
            assert p.net[winner] == (players - 1) * (8 + total)
            assert all(p.net[s] == -(8 + total) for s in range(players) if s != winner)
            assert {t.reason for t in p.transfers} == {"self_draw"}
        else:
            assert p.net[discarder] == -(8 + total)
            assert p.net[winner] == 8 + total + 8 * (players - 2)
            others = [s for s in range(players) if s not in (winner, discarder)]
            assert all(p.net[s] == -8 for s in others)
            assert p.transfers[0] == Transfer(discarder, winner, 8 + total, "discarder")


def test_the_design_example() -> None:
    """DESIGN §3: 九莲宝灯 91 fan won on seat 2's discard."""
    p = base_plus_fan(91, WinContext("discard", winner=0, discarder=2), 4, base=8)
    assert p.net == (115, -8, -99, -8)
    assert [t.to_dict() for t in p.transfers] == [
        {"from": 2, "to": 0, "amount": 99, "reason": "discarder"},
        {"from": 1, "to": 0, "amount": 8, "reason": "base"},
        {"from": 3, "to": 0, "amount": 8, "reason": "base"},
    ]


def test_the_base_is_a_parameter() -> None:
    p = base_plus_fan(10, WinContext("self_draw", winner=1), 4, base=2)
    assert p.net == (-12, 36, -12, -12)


def test_settle_transfers_nets() -> None:
    p = settle_transfers(3, [Transfer(0, 1, 5, "x"), Transfer(2, 1, 3, "y"),
                             Transfer(1, 0, 1, "z")])
    assert p.net == (-4, 7, -3)
    assert sum(p.net) == 0
    assert settle_transfers(4, []).net == (0, 0, 0, 0)


def test_pay_dispatches_by_scheme_name() -> None:
    ctx = WinContext("discard", winner=3, discarder=0)
    assert pay("base_plus_fan", {"base": 8}, 20, ctx, 4) == base_plus_fan(20, ctx, 4, base=8)
    assert "base_plus_fan" in SCHEMES


@pytest.mark.parametrize(("winner", "discarder"), arrangements(4))
def test_scored_payments_sum_to_zero_for_every_seat_arrangement(
        winner: int, discarder: int | None) -> None:
    ctx: dict[str, object] = {"win_type": "self_draw" if discarder is None else "discard",
                              "winner": winner, "discarder": discarder, "flowers": 2}
    hand, context = build("1112345678999m5m", ctx, MCR)
    r = score(hand, context, MCR)
    assert r.winning and r.payments is not None
    assert sum(r.payments.net) == 0
    won = r.payments.net[winner]
    assert won == -sum(n for s, n in enumerate(r.payments.net) if s != winner)
    if discarder is None:
        assert won == 3 * (8 + r.fan_total)
    else:
        assert r.payments.net[discarder] == -(8 + r.fan_total)
        assert won == 8 + r.fan_total + 16
