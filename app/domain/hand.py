"""Hands, declared melds and the win context: immutable values, and the words they use.

A request is read into these values at the API boundary (`app.service.tiles.requests`, which
needs the rule set's tile set, player count and options); these classes only hold data, and
everything below them trusts it.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final, NamedTuple

CHOW: Final = "chow"
PUNG: Final = "pung"
KONG: Final = "kong"
MELD_KINDS = (CHOW, PUNG, KONG)

SELF_DRAW: Final = "self_draw"
DISCARD: Final = "discard"
WIN_TYPES = (SELF_DRAW, DISCARD)

# 杠上开花: won on the replacement tile after one's own kong
KONG_REPLACEMENT: Final = "replacement"
KONG_ROBBED: Final = "robbed"  # 抢杠和: won on the tile another player added to a pung
KONG_AFTER_DISCARD: Final = "after_kong_discard"  # 杠上炮: won on the discard made after a kong
KONG_FLAGS = (KONG_REPLACEMENT, KONG_ROBBED, KONG_AFTER_DISCARD)

WINDS = ("E", "S", "W", "N")
# Seat and round winds by letter or Chinese name (东, or 东风): their index in `WINDS`.
WIND_NAMES: dict[str, int] = {
    name: i
    for i, (letter, zh) in enumerate(zip(WINDS, ("东", "南", "西", "北"), strict=True))
    for name in (letter, zh, zh + "风")
}

# A hand is 14 tiles; each declared meld takes 3 of them off the standing tiles (a kong's
# fourth tile is the replacement draw, so a kong also counts as 3). At most 4 melds.
HAND_SIZE = 14
MAX_MELDS = 4


# Meld and Hand are immutable values, compared and hashed by their fields. Plain classes
# rather than frozen dataclasses: this module is compiled with the engine, and a compiled
# class of its own builds its objects and reads their fields directly, where a dataclass's
# generated `__init__` and `__setattr__` are Python-level code (every request builds a hand,
# every wild substitution another). Their fields are `Final`: the type checker refuses any
# assignment after `__init__`.


class Meld:
    """A declared meld. `tiles` is sorted; a concealed kong is the only concealed meld."""

    def __init__(self, kind: str, tiles: tuple[int, ...], concealed: bool = False) -> None:
        self.kind: Final = kind
        self.tiles: Final = tiles
        self.concealed: Final = concealed

    @property
    def first(self) -> int:
        return self.tiles[0]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Meld):
            return NotImplemented
        return (self.kind == other.kind and self.tiles == other.tiles
                and self.concealed == other.concealed)

    def __hash__(self) -> int:
        return hash((self.kind, self.tiles, self.concealed))

    def __repr__(self) -> str:
        return f"Meld(kind={self.kind!r}, tiles={self.tiles!r}, concealed={self.concealed!r})"

    def __reduce__(self) -> tuple[type[Meld], tuple[str, tuple[int, ...], bool]]:
        return Meld, (self.kind, self.tiles, self.concealed)  # pickled and copied by fields


class Hand:
    """Standing tiles (including the winning tile), declared melds and the winning tile."""

    def __init__(self, concealed: tuple[int, ...], melds: tuple[Meld, ...],
                 win_tile: int) -> None:
        self.concealed: Final = concealed
        self.melds: Final = melds
        self.win_tile: Final = win_tile

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return (self.concealed == other.concealed and self.melds == other.melds
                and self.win_tile == other.win_tile)

    def __hash__(self) -> int:
        return hash((self.concealed, self.melds, self.win_tile))

    def __repr__(self) -> str:
        return (f"Hand(concealed={self.concealed!r}, melds={self.melds!r}, "
                f"win_tile={self.win_tile!r})")

    def __reduce__(self) -> tuple[type[Hand], tuple[tuple[int, ...], tuple[Meld, ...], int]]:
        return Hand, (self.concealed, self.melds, self.win_tile)  # pickled by fields


class WinContext(NamedTuple):
    """Everything about the win that is not the tiles themselves.

    A named tuple rather than a frozen dataclass: every request builds one, and a frozen
    dataclass of these fifteen fields costs about four times as much to construct."""

    win_type: str
    kong: str | None = None
    last_tile: bool = False
    last_of_kind: bool = False
    # The win came on the winner's first turn, before any claim (天胡 for the dealer's
    # self-draw on the deal, 地胡 for another player's first-turn win).
    first_turn: bool = False
    seat_wind: int = 0  # index into WINDS
    round_wind: int = 0
    flowers: int = 0
    flower_tiles: tuple[int, ...] = ()
    # 混: the flipped indicator as given, and the wild kinds in play (made from the indicator
    # by the rule set's rule, or listed in the request), sorted; () without wilds.
    wild_indicator: int | None = None
    wilds: tuple[int, ...] = ()
    winner: int = 0
    discarder: int | None = None
    dealer: int = 0
    # The rule set's options, each set (the request's value or the default); read only.
    options: Mapping[str, Any] = MappingProxyType({})

    @property
    def self_drawn(self) -> bool:
        return self.win_type == SELF_DRAW
