"""Payment schemes: per-seat money from a winning result, named by the rule set's YAML.

A scheme is a function `scheme(total, ctx, players, **params) -> Payments`; the loader checks
the YAML `payment.params` against its keyword-only parameters. Nothing here assumes four
players or that the discarder pays: those are the scheme's choice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.domain.hand import WinContext
from app.scoring.result import Payments, Transfer

Scheme = Callable[..., Payments]


def settle_transfers(players: int, transfers: list[Transfer]) -> Payments:
    """Net money per seat from transfers; the nets always sum to zero."""
    net = [0] * players
    for t in transfers:
        net[t.payer] -= t.amount
        net[t.payee] += t.amount
    return Payments(tuple(net), tuple(transfers))


def base_plus_fan(total: int, ctx: WinContext, players: int, *, base: int) -> Payments:
    """国标: self-draw, every other player pays base + fan; discard, the discarder pays
    base + fan and every other player pays base. No dealer bonus."""
    winner = ctx.winner
    transfers: list[Transfer] = []
    if ctx.self_drawn:
        for seat in range(players):
            if seat != winner:
                transfers.append(Transfer(seat, winner, base + total, "self_draw"))
    else:
        assert ctx.discarder is not None
        transfers.append(Transfer(ctx.discarder, winner, base + total, "discarder"))
        for seat in range(players):
            if seat not in (winner, ctx.discarder):
                transfers.append(Transfer(seat, winner, base, "base"))
    return settle_transfers(players, transfers)


SCHEMES: dict[str, Scheme] = {"base_plus_fan": base_plus_fan}


def pay(scheme: str, params: dict[str, Any], total: int, ctx: WinContext,
        players: int) -> Payments:
    return SCHEMES[scheme](total, ctx, players, **params)
