"""Immutable score results and their JSON form (the `ScoreResponse` of openapi.yaml)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class FanResult:
    id: str
    name: str
    name_en: str
    value: int
    count: int

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "name_en": self.name_en,
                "value": self.value, "count": self.count}


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a well-formed hand is not a legal win: a stable code and a sentence."""

    code: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True, slots=True)
class Transfer:
    payer: int
    payee: int
    amount: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.payer, "to": self.payee, "amount": self.amount,
                "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Payments:
    net: tuple[int, ...]
    transfers: tuple[Transfer, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"net": list(self.net), "transfers": [t.to_dict() for t in self.transfers]}


@dataclass(frozen=True, slots=True)
class DecompositionView:
    shape: str
    melds: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"shape": self.shape, "melds": list(self.melds)}


@dataclass(frozen=True, slots=True)
class ScoreResult:
    ruleset: str
    winning: bool
    reason: Reason | None
    fans: tuple[FanResult, ...]
    fan_total: int
    decomposition: DecompositionView | None
    payments: Payments | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "winning": self.winning,
            "reason": self.reason.to_dict() if self.reason else None,
            "fans": [f.to_dict() for f in self.fans],
            "fan_total": self.fan_total,
            "decomposition": self.decomposition.to_dict() if self.decomposition else None,
            "payments": self.payments.to_dict() if self.payments else None,
        }
