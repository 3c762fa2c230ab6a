"""Tiles and tile sets.

A tile is a small int: its index in the rule set's `TileSet`. The engine never hard-wires the
34-kind set: a rule set names its tile set, and everything (notation, validation,
decomposition) asks the `TileSet` what a tile is.

The standard set (`standard`, used by 国标, 四川, 天津) lays its kinds out so that the three
suits are runs of nine consecutive indices, which makes a chow `(i, i+1, i+2)` inside one run:

    0..8   1m..9m   万 characters
    9..17  1s..9s   条 bamboo
    18..26 1p..9p   筒 dots
    27..30 E S W N  winds
    31..33 C F P    dragons 中 发 白
    34..41 1f..8f   flowers 春夏秋冬梅兰竹菊 (bonus tiles, never part of a hand)

Subsets of it keep its codes and order: `suits` (the 108 numbered tiles), `no_flowers` (the
136 tiles of the 34 kinds at the same indices, for games without flowers, where a flower is no
tile at all) and `dots_bamboo_dragons` (84 tiles).

The suit order 万-条-筒 is the order in which decompositions are enumerated; it matches the
reference MCR calculator so that equal-value readings are chosen the same way. Output is
always written in the conventional m, p, s, honours order (`display_order`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

SUIT_NAMES_ZH = {"m": "万", "s": "条", "p": "筒"}


@dataclass(frozen=True, slots=True)
class TileKind:
    """One kind of tile: its canonical code, the group it belongs to and its names.

    The classification flags are plain attributes (filled from suit and rank), because the
    engine reads them in its innermost loops.
    """

    code: str
    suit: str  # "m", "s", "p" for numbered suits, "z" for honours, "f" for flowers
    rank: int  # 1..9 for numbered tiles; 1..7 for honours (E S W N C F P); 1..8 for flowers
    name_zh: str
    copies: int = 4
    is_number: bool = field(init=False)
    is_honor: bool = field(init=False)
    is_wind: bool = field(init=False)
    is_dragon: bool = field(init=False)
    is_flower: bool = field(init=False)
    is_terminal: bool = field(init=False)

    def __post_init__(self) -> None:
        number = self.suit in ("m", "s", "p")
        honor = self.suit == "z"
        flags = {
            "is_number": number,
            "is_honor": honor,
            "is_wind": honor and self.rank <= 4,
            "is_dragon": honor and self.rank >= 5,
            "is_flower": self.suit == "f",
            "is_terminal": number and self.rank in (1, 9),
        }
        for name, value in flags.items():
            object.__setattr__(self, name, value)


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: one object per set
class TileSet:
    """An ordered set of tile kinds, with lookups by code and the derived index tables."""

    name: str
    kinds: tuple[TileKind, ...]
    # Numbered suits in enumeration order; each is a run of nine consecutive indices.
    suits: tuple[str, ...] = ("m", "s", "p")
    aliases: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for k in self.kinds:
            if k.code in seen:
                raise ValueError(f"duplicate tile code {k.code!r} in tile set {self.name}")
            seen.add(k.code)

    @cached_property
    def by_code(self) -> dict[str, int]:
        table = {k.code: i for i, k in enumerate(self.kinds)}
        table.update(self.aliases)
        return table

    @cached_property
    def playing(self) -> tuple[int, ...]:
        """Indices of the tiles that can stand in a hand (everything but flowers)."""
        return tuple(i for i, k in enumerate(self.kinds) if not k.is_flower)

    @cached_property
    def flowers(self) -> tuple[int, ...]:
        return tuple(i for i, k in enumerate(self.kinds) if k.is_flower)

    @cached_property
    def flower_set(self) -> frozenset[int]:
        return frozenset(self.flowers)

    @cached_property
    def copies(self) -> tuple[int, ...]:
        """`copies[t]`: how many of kind `t` the set has."""
        return tuple(k.copies for k in self.kinds)

    @cached_property
    def size(self) -> int:
        """Number of playing kinds; count vectors have this length."""
        return len(self.playing)

    @cached_property
    def suit_starts(self) -> dict[str, int]:
        """First index of each numbered suit's run of nine."""
        starts: dict[str, int] = {}
        for i, k in enumerate(self.kinds):
            if k.is_number and k.rank == 1:
                starts[k.suit] = i
        return starts

    @cached_property
    def chow_starts(self) -> frozenset[int]:
        """Indices that can begin a chow: ranks 1..7 of every numbered suit."""
        return frozenset(
            i for i, k in enumerate(self.kinds) if k.is_number and k.rank <= 7
        )

    @cached_property
    def display_order(self) -> tuple[int, ...]:
        """Indices in the conventional written order: m, p, s, then honours, then flowers."""
        rank_of_suit = {"m": 0, "p": 1, "s": 2, "z": 3, "f": 4}
        return tuple(
            sorted(
                range(len(self.kinds)),
                key=lambda i: (rank_of_suit.get(self.kinds[i].suit, 9), self.kinds[i].rank),
            )
        )

    @cached_property
    def display_rank(self) -> tuple[int, ...]:
        """`display_rank[i]` is the position of tile `i` in `display_order`."""
        out = [0] * len(self.kinds)
        for pos, i in enumerate(self.display_order):
            out[i] = pos
        return tuple(out)

    @cached_property
    def suit_no(self) -> tuple[int, ...]:
        """`suit_no[t]`: the numbered suit's position in `suits` (0, 1, 2), or -1."""
        return tuple(
            self.suits.index(k.suit) if k.is_number else -1 for k in self.kinds
        )

    @cached_property
    def category(self) -> tuple[int, ...]:
        """`category[t]`: 0, 1, 2 for the numbered suits (as `suit_no`), 3 winds, 4 dragons,
        5 flowers."""
        return tuple(
            self.suit_no[i] if k.is_number else 3 if k.is_wind else 4 if k.is_dragon else 5
            for i, k in enumerate(self.kinds)
        )

    @cached_property
    def ranks(self) -> tuple[int, ...]:
        return tuple(k.rank for k in self.kinds)

    @cached_property
    def terminals(self) -> frozenset[int]:
        """The 1s and 9s of the numbered suits."""
        return frozenset(i for i, k in enumerate(self.kinds) if k.is_terminal)

    @cached_property
    def winds(self) -> tuple[int, ...]:
        """The wind tiles by wind (0 east, 1 south, 2 west, 3 north; `WinContext.seat_wind`)."""
        return tuple(i for i, k in sorted(enumerate(self.kinds), key=lambda ik: ik[1].rank)
                     if k.is_wind)

    @cached_property
    def next_kinds(self) -> tuple[int, ...]:
        """`next_kinds[t]`: the kind after `t` in its cycle, as 混 indicators count: within a
        numbered suit 1→2 … 8→9, 9→1; winds E→S→W→N→E; dragons 中→发→白→中 (C→F→P→C).
        Flowers map to themselves (they are never wild)."""
        cycles: dict[tuple[str, bool, bool], list[int]] = {}
        for i, k in enumerate(self.kinds):
            if not k.is_flower:
                cycles.setdefault((k.suit, k.is_wind, k.is_dragon), []).append(i)
        out = list(range(len(self.kinds)))
        for members in cycles.values():
            members.sort(key=lambda i: self.kinds[i].rank)
            for pos, i in enumerate(members):
                out[i] = members[(pos + 1) % len(members)]
        return tuple(out)

    def code(self, tile: int) -> str:
        return self.kinds[tile].code

    def kind(self, tile: int) -> TileKind:
        return self.kinds[tile]


_WINDS = (("E", "东"), ("S", "南"), ("W", "西"), ("N", "北"))
_DRAGONS = (("C", "中"), ("F", "发"), ("P", "白"))
_FLOWERS = "春夏秋冬梅兰竹菊"
_NUM_ZH = "一二三四五六七八九"


def _standard() -> TileSet:
    kinds: list[TileKind] = []
    for suit in ("m", "s", "p"):
        for r in range(1, 10):
            kinds.append(TileKind(f"{r}{suit}", suit, r, f"{_NUM_ZH[r - 1]}{SUIT_NAMES_ZH[suit]}"))
    for r, (code, zh) in enumerate(_WINDS + _DRAGONS, start=1):
        kinds.append(TileKind(code, "z", r, zh))
    for r in range(1, 9):
        kinds.append(TileKind(f"{r}f", "f", r, _FLOWERS[r - 1], copies=1))
    by_code = {k.code: i for i, k in enumerate(kinds)}
    aliases: dict[str, int] = {}
    # Riichi-style honours: 1z..4z winds, 5z 白, 6z 发, 7z 中.
    for n, code in enumerate(("E", "S", "W", "N", "P", "F", "C"), start=1):
        aliases[f"{n}z"] = by_code[code]
    # Chinese names: 一万 .. 九筒 (also 饼 and 索 as suit names), 东南西北, 中发白 and their
    # long forms, 春夏秋冬梅兰竹菊.
    suit_alts = {"m": ("万", "萬"), "s": ("条", "索", "條"), "p": ("筒", "饼", "餅")}
    for suit, names in suit_alts.items():
        for r in range(1, 10):
            for nm in names:
                aliases[f"{_NUM_ZH[r - 1]}{nm}"] = by_code[f"{r}{suit}"]
    for code, zh in _WINDS:
        aliases[zh] = by_code[code]
        aliases[zh + "风"] = by_code[code]
    for code, zh in _DRAGONS:
        aliases[zh] = by_code[code]
    aliases.update({"红中": by_code["C"], "發": by_code["F"], "发财": by_code["F"],
                    "白板": by_code["P"]})
    for r, ch in enumerate(_FLOWERS, start=1):
        aliases[ch] = by_code[f"{r}f"]
    return TileSet("standard", tuple(kinds), aliases=aliases)


def _subset(name: str, keep: tuple[str, ...]) -> TileSet:
    """A tile set of some groups of the standard set (`keep`: suit letters, "winds",
    "dragons"), four of each kind, nothing else. Same codes and Chinese names as the standard
    set, and its order; the tiles it leaves out are not tiles of this set at all."""
    def kept(k: TileKind) -> bool:
        return (k.suit in keep if k.is_number else "winds" in keep if k.is_wind
                else "dragons" in keep if k.is_dragon else False)

    chosen = [k for k in STANDARD.kinds if kept(k)]
    index = {k.code: i for i, k in enumerate(chosen)}
    aliases = {alias: index[STANDARD.kinds[t].code] for alias, t in STANDARD.aliases.items()
               if STANDARD.kinds[t].code in index}
    suits = tuple(s for s in STANDARD.suits if s in keep)
    return TileSet(name, tuple(chosen), suits=suits, aliases=aliases)


STANDARD = _standard()
# The 108 tiles of 四川 and other suit-only games: 万, 条, 筒.
SUITS = _subset("suits", ("m", "s", "p"))
# The 84 tiles of 卡五星 and other three-player games without 万 or winds: 条, 筒, 中发白.
DOTS_BAMBOO_DRAGONS = _subset("dots_bamboo_dragons", ("s", "p", "dragons"))
# The 136 tiles of games played without flowers: the standard set's 34 kinds at the same
# indices, and no flower at all (a flower written in a request is not a tile of the set).
NO_FLOWERS = _subset("no_flowers", ("m", "s", "p", "winds", "dragons"))

TILESETS: dict[str, TileSet] = {t.name: t for t in (STANDARD, SUITS, DOTS_BAMBOO_DRAGONS,
                                                    NO_FLOWERS)}
