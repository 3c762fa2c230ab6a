"""A hand of cards and its win, as a request gives them: the domain values the engine of card
games scored by groups takes (`app.scoring.arranged`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from app.domain.arrange import Piece


class CardHand(NamedTuple):
    """A hand as the request gave it: the cards in hand (the winning card among them), the
    table groups, the winning card."""

    cards: tuple[int, ...]
    table: tuple[Piece, ...]
    win_card: int


class CardWin(NamedTuple):
    """The win: how, by whom, from whom (None for the winner's own card), and the context
    the rule set reads."""

    win_type: str
    winner: int
    dealer: int
    payer: int | None
    players: int
    flags: Mapping[str, bool]
    cards: Mapping[str, int | None]
    options: Mapping[str, Any]
