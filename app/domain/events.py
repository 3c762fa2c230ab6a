"""A round as ordered events: the values a settle request is read into.

- `KongEvent`: a seat declares a kong: ``direct`` (点杠, on ``discarder``'s discard),
  ``added`` (加杠, a tile added to the seat's own pung; ``fresh``: the added tile is the one
  just drawn), ``concealed`` (暗杠) or ``special`` (three different tiles laid out together,
  ``tiles``: 长春 幺九杠, 旋风杠, 喜杠); ``follows`` says how it follows the kong of the event
  before it (``kong_discard``: made on the discard that kong's maker made next;
  ``kong_replacement``: made by that kong's maker straight after the replacement draw), which
  makes it the next kong of a chain (``chain``: 1 for a kong that follows none);
- `WinEvent`: a seat wins (its hand and the context of the win; the seat is the winner);
- `DrawEvent`: the wall runs out: every seat not yet won shows its hand, one tile short of a
  win, and says whether it is a passive pig;
- `FollowDealerEvent`: every other player followed the dealer's first discard (跟庄, 天津 铲);
- `RevealEvent`: a seat reveals its ready hand (亮倒), for rule sets whose settlement reads it.

A `Round` holds them with the round's options, dealer and wild tiles. Its consistency (seats,
the order of events, copies of tiles across hands) is checked where a request is read
(`app.service.tiles.settle_requests`); the settlement trusts it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.domain.hand import Hand, Meld, WinContext
from app.domain.tiles import TileSet

MAX_EVENTS = 32  # 27 kongs (one per kind of a 108-tile set), 3 wins and a draw fit
DIRECT = "direct"
ADDED = "added"
CONCEALED = "concealed"
KONG_KINDS = (DIRECT, ADDED, CONCEALED)
# A kong of three different tiles laid out together (长春 幺九杠, 旋风杠, 喜杠), for rule sets
# whose settlement defines such kongs; it is no meld of the hand.
SPECIAL = "special"
EVENT_KONG_KINDS = (*KONG_KINDS, SPECIAL)
FOLLOW_DEALER = "follow_dealer"
REVEAL = "reveal"
EVENT_TYPES = ("kong", "win", "draw", FOLLOW_DEALER, REVEAL)
# How a kong follows the kong right before it (杠上杠).
FOLLOWS_DISCARD = "kong_discard"
FOLLOWS_REPLACEMENT = "kong_replacement"
FOLLOWS = (FOLLOWS_DISCARD, FOLLOWS_REPLACEMENT)


@dataclass(frozen=True, slots=True)
class KongEvent:
    seat: int
    kind: str  # DIRECT | ADDED | CONCEALED
    tile: int
    discarder: int | None = None  # a direct kong's discarder
    fresh: bool = False  # an added kong: the added tile is the one just drawn
    follows: str | None = None  # FOLLOWS: how it follows the kong of the event before
    chain: int = 1  # its place in a chain of kongs (杠上杠), 1 when it follows none
    # A special kong's three tiles as declared (`tile` is then the first of them).
    tiles: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class WinEvent:
    seat: int
    hand: Hand
    context: WinContext  # winner = seat, options = the round's
    # The index of the kong this win robs (抢杠) or follows (杠上炮, 杠上开花), if any.
    kong_event: int | None = None


@dataclass(frozen=True, slots=True)
class DrawHand:
    seat: int
    standing: tuple[int, ...]  # one tile short of a win
    melds: tuple[Meld, ...]
    passive_pig: bool = False
    entry: int = 0  # its place in the request's list of hands (where a problem points)


@dataclass(frozen=True, slots=True)
class DrawEvent:
    hands: tuple[DrawHand, ...]  # in seat order


@dataclass(frozen=True, slots=True)
class FollowDealerEvent:
    """跟庄 (天津 铲): every other player followed the dealer's first discard."""


@dataclass(frozen=True, slots=True)
class RevealEvent:
    """亮倒: the seat reveals its ready hand (and may then only draw and discard)."""

    seat: int


Event = KongEvent | WinEvent | DrawEvent | FollowDealerEvent | RevealEvent


@dataclass(frozen=True)
class Round:
    options: Mapping[str, Any]  # every option of the rule set, defaults filled in
    events: tuple[Event, ...]
    # Indices of added kongs that were robbed (抢杠): they count as no kong.
    robbed: frozenset[int]
    # The round is over: a draw ended it, every seat but one has won, or a win that ends it.
    finished: bool
    dealer: int = 0
    # The round's wild tiles (混): the flipped indicator, if given, and the wild kinds.
    wild_indicator: int | None = None
    wilds: tuple[int, ...] = ()


def suits_of(standing: Sequence[int], melds: Sequence[Meld], tileset: TileSet) -> int:
    """How many numbered suits a hand holds, melds included (花猪 holds more than allowed)."""
    kinds = tileset.kinds
    suits = {kinds[t].suit for t in standing if kinds[t].is_number}
    suits |= {kinds[t].suit for m in melds for t in m.tiles if kinds[t].is_number}
    return len(suits)
