"""Immutable score results and their JSON form (the `ScoreResponse` of openapi.yaml).

Named tuples rather than frozen dataclasses: a request builds a dozen of these, and a frozen
dataclass costs several times more to construct.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class FanResult(NamedTuple):
    id: str
    name: str
    name_en: str
    value: int
    # Shadows tuple.count, which nothing here uses: the JSON field is `count`.
    count: int  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "name_en": self.name_en,
                "value": self.value, "count": self.count}


class Reason(NamedTuple):
    """Why a well-formed hand is not a legal win: a stable code and a sentence."""

    code: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class Transfer(NamedTuple):
    payer: int
    payee: int
    amount: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.payer, "to": self.payee, "amount": self.amount,
                "reason": self.reason}


class Payments(NamedTuple):
    net: tuple[int, ...]
    transfers: tuple[Transfer, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"net": list(self.net), "transfers": [t.to_dict() for t in self.transfers]}


class DecompositionView(NamedTuple):
    shape: str
    melds: tuple[str, ...]
    # What each wild tile (混) of the hand stood for: (the tile held, the tile read), the
    # winning tile first when it is a wild; a wild read as itself is listed too.
    wilds: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"shape": self.shape, "melds": list(self.melds),
                "wilds": [{"tile": held, "as": read} for held, read in self.wilds]}


class ScoreResult(NamedTuple):
    ruleset: str
    winning: bool
    reason: Reason | None
    fans: tuple[FanResult, ...]
    fan_total: int
    decomposition: DecompositionView | None
    payments: Payments | None
    # What one payer pays for this hand won on that payer's discard (the payment scheme's
    # value), and for doubling games the multiplier 2^fan; None when the hand does not win.
    value: int | None = None
    multiplier: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, **score_fields(self),
                "payments": self.payments.to_dict() if self.payments else None}


def score_fields(r: ScoreResult | Any) -> dict[str, Any]:
    """The JSON of what a hand scored: shared by the score response and each wait of the
    waits response (anything with these attributes)."""
    return {
        "winning": r.winning,
        "reason": r.reason.to_dict() if r.reason else None,
        "fans": [f.to_dict() for f in r.fans],
        "fan_total": r.fan_total,
        "value": r.value,
        "multiplier": r.multiplier,
        "decomposition": r.decomposition.to_dict() if r.decomposition else None,
    }
