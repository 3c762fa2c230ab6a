"""Payment schemes: what a winning hand is worth and who pays whom, named by the rule set.

A scheme has two functions with the same keyword parameters (the YAML `payment.params`,
checked by the loader against `value`'s signature; a parameter may name a request option,
`{option: base}`, resolved per request):

- `value(total, **params) -> (value, multiplier)`: what one payer pays for the hand when it
  is won on that payer's discard, and for doubling games the multiplier 2^fan (else None);
- `pay(total, ctx, players, payers, **params) -> Payments`: the money of one win; `payers`
  are the seats still in the round (all others, for a single hand; 血战到底 drops winners).

Nothing here assumes four players or that the discarder pays: those are the scheme's choice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.domain.hand import WinContext
from app.scoring.result import Payments, Transfer

NO_CAP = "none"


def settle_transfers(players: int, transfers: list[Transfer]) -> Payments:
    """Net money per seat from transfers; the nets always sum to zero."""
    net = [0] * players
    for t in transfers:
        net[t.payer] -= t.amount
        net[t.payee] += t.amount
    return Payments(tuple(net), tuple(transfers))


def _others(ctx: WinContext, players: int, payers: Sequence[int] | None) -> list[int]:
    seats = range(players) if payers is None else payers
    return [s for s in seats if s != ctx.winner]


# ---- 国标: base + fan -------------------------------------------------------------------

def base_plus_fan_value(total: int, *, base: int) -> tuple[int, int | None]:
    """国标: the discarder pays base + fan."""
    return base + total, None


def base_plus_fan_pay(total: int, ctx: WinContext, players: int,
                      payers: Sequence[int] | None = None, *, base: int) -> Payments:
    """国标: self-draw, every other player pays base + fan; discard, the discarder pays
    base + fan and every other player pays base. No dealer bonus."""
    transfers: list[Transfer] = []
    if ctx.self_drawn:
        for seat in _others(ctx, players, payers):
            transfers.append(Transfer(seat, ctx.winner, base + total, "self_draw"))
    else:
        assert ctx.discarder is not None
        transfers.append(Transfer(ctx.discarder, ctx.winner, base + total, "discarder"))
        for seat in _others(ctx, players, payers):
            if seat != ctx.discarder:
                transfers.append(Transfer(seat, ctx.winner, base, "base"))
    return settle_transfers(players, transfers)


# ---- doubling: base × 2^fan -------------------------------------------------------------

def _capped(total: int, cap: int | str) -> int:
    return total if cap == NO_CAP else min(total, int(cap))


def doubling_value(total: int, *, base: int, cap: int | str,
                   self_draw: str = "add_base") -> tuple[int, int | None]:
    """番 doubles: a hand of n fan is worth base × 2^min(n, cap); 0 fan (平胡) is base."""
    multiplier = 2 ** _capped(total, cap)
    return base * multiplier, multiplier


def doubling_pay(total: int, ctx: WinContext, players: int,
                 payers: Sequence[int] | None = None, *, base: int, cap: int | str,
                 self_draw: str = "add_base") -> Payments:
    """Discard: the discarder alone pays base × 2^min(fan, cap). Self-draw: every payer pays
    that plus one base (自摸加底, `add_base`), or the value of one more fan (自摸加番,
    `add_fan`, still under the cap)."""
    transfers: list[Transfer] = []
    if ctx.self_drawn:
        if self_draw == "add_fan":
            amount = base * 2 ** _capped(total + 1, cap)
        else:
            amount = base * 2 ** _capped(total, cap) + base
        for seat in _others(ctx, players, payers):
            transfers.append(Transfer(seat, ctx.winner, amount, "self_draw"))
    else:
        assert ctx.discarder is not None
        transfers.append(Transfer(ctx.discarder, ctx.winner, base * 2 ** _capped(total, cap),
                                  "discarder"))
    return settle_transfers(players, transfers)


@dataclass(frozen=True)
class Scheme:
    value: Callable[..., tuple[int, int | None]]
    pay: Callable[..., Payments]


SCHEMES: dict[str, Scheme] = {
    "base_plus_fan": Scheme(base_plus_fan_value, base_plus_fan_pay),
    "doubling": Scheme(doubling_value, doubling_pay),
}


def resolve_params(params: Mapping[str, Any], ctx: WinContext) -> dict[str, Any]:
    """Fixed parameters as they are; `{option: name}` from the request's options."""
    return {k: ctx.options[v["option"]] if isinstance(v, dict) else v
            for k, v in params.items()}


def pay(scheme: str, params: dict[str, Any], total: int, ctx: WinContext, players: int,
        payers: Sequence[int] | None = None) -> Payments:
    return SCHEMES[scheme].pay(total, ctx, players, payers, **resolve_params(params, ctx))


def value(scheme: str, params: dict[str, Any], total: int,
          ctx: WinContext) -> tuple[int, int | None]:
    return SCHEMES[scheme].value(total, **resolve_params(params, ctx))
