"""Immutable results of the engine: a scored hand, the waits of a hand one tile short, and a
settled round. Their JSON form is written at the API boundary (`app.service.tiles.responses`).

Named tuples rather than frozen dataclasses: a request builds a dozen of these, and a frozen
dataclass costs several times more to construct.
"""

from __future__ import annotations

from typing import NamedTuple

from app.domain.money import Payments


class FanResult(NamedTuple):
    id: str
    name: str
    name_en: str
    value: int
    # Shadows tuple.count, which nothing here uses: the JSON field is `count`.
    count: int  # type: ignore[assignment]


class Reason(NamedTuple):
    """Why a well-formed hand is not a legal win: a stable code and a sentence."""

    code: str
    message: str


class Decomposition(NamedTuple):
    """The reading a result was scored on, written out."""

    shape: str
    melds: tuple[str, ...]
    # What each wild tile (混) of the hand stood for: (the tile held, the tile read), the
    # winning tile first when it is a wild; a wild read as itself is listed too.
    wilds: tuple[tuple[str, str], ...] = ()


class ScoreResult(NamedTuple):
    """A scored tile hand. Its fields shared with every family's scored hand mean what
    `app.service.envelope` says: `fan_total` is what the counted fans come to under the
    family's arithmetic, here their sum (value × count, flowers where counted)."""

    ruleset: str
    winning: bool
    reason: Reason | None
    fans: tuple[FanResult, ...]
    fan_total: int
    decomposition: Decomposition | None
    payments: Payments | None
    # What one payer pays for this hand won on that payer's discard (the payment scheme's
    # value), and for doubling games the multiplier 2^fan; None when the hand does not win.
    value: int | None = None
    multiplier: int | None = None


class NotCounted(NamedTuple):
    """A fan the chosen reading had but did not count (`count` times more than it counts)."""

    id: str
    name: str
    name_en: str
    value: int
    count: int  # type: ignore[assignment]
    rule: str  # one of app.scoring.explain.RULES
    # What left it out: the counted fan's id (`fan`), the option's name (`option`), the
    # shape (`shape`), the combination policy (`account_once`); None for needs_other_fan.
    by: str | None
    message: str


class ReadingTotal(NamedTuple):
    """One reading the scoring compared."""

    decomposition: Decomposition
    fans: tuple[tuple[str, int], ...]  # (fan id, count), in evaluation order
    fan_total: int
    meets_requirements: bool
    chosen: bool


class Explanation(NamedTuple):
    not_counted: tuple[NotCounted, ...]
    readings: tuple[ReadingTotal, ...]
    readings_compared: int


class WaitEntry(NamedTuple):
    """One tile that completes the hand, and the score of the completed hand (the fields of
    `ScoreResult` but the rule set and the payments)."""

    tile: str
    winning: bool
    reason: Reason | None
    fans: tuple[FanResult, ...]
    fan_total: int
    value: int | None
    multiplier: int | None
    decomposition: Decomposition | None
    explanation: Explanation | None = None  # asked for with explain

    @classmethod
    def of(cls, tile: str, result: ScoreResult,
           explanation: Explanation | None = None) -> WaitEntry:
        return cls(tile, result.winning, result.reason, result.fans, result.fan_total,
                   result.value, result.multiplier, result.decomposition, explanation)


class WaitsResult(NamedTuple):
    ruleset: str
    waits: tuple[WaitEntry, ...]
    # The winning entry worth most (highest value, then highest fan total; the first in tile
    # order among equals); None when no completing tile makes a legal win.
    best: WaitEntry | None

    @property
    def ready(self) -> bool:
        """听牌: at least one tile completes a winning shape."""
        return bool(self.waits)

    @property
    def can_win(self) -> bool:
        """Ready in the rule set's sense: at least one completing tile makes a legal win (its
        requirements and minimum met)."""
        return self.best is not None


class SettleTransfer(NamedTuple):
    """One transfer of a round, with the index of the event that caused it."""

    payer: int
    payee: int
    amount: int
    reason: str
    event: int


class WinSummary(NamedTuple):
    """What a win scored: the fields of the score response that say what the hand is worth."""

    event: int
    seat: int
    fans: tuple[FanResult, ...]
    fan_total: int
    value: int | None
    multiplier: int | None
    decomposition: Decomposition | None


class DrawPlayer(NamedTuple):
    """A player at the draw: its state and, when ready, its best wait (查大叫's value)."""

    seat: int
    state: str  # ready | not_ready | pig | passive_pig
    best: WaitEntry | None


class DrawSummary(NamedTuple):
    event: int
    players: tuple[DrawPlayer, ...]


class SettleResult(NamedTuple):
    ruleset: str
    finished: bool
    net: tuple[int, ...]
    transfers: tuple[SettleTransfer, ...]
    wins: tuple[WinSummary, ...]
    draw: DrawSummary | None
