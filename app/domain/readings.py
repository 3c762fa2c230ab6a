"""Readings of a hand: the values a reading is made of. A `Reading` splits the whole hand into
`Group`s: the declared melds as given (never re-split), and the standing tiles cut into chows,
pungs and one pair (the regular shape, `app.domain.decompose`) or as a special shape reads
them (`app.domain.shapes`, the registry of shapes); a regular reading keeps the cut of each part
of the standing tiles (`Piece`, `app.domain.standing`). Also a group written out (`written`),
and the standing groups and their writing made once and shared.

Hands holding wild tiles (混) are read by `app.domain.wildcards`, which builds the same
`Reading`s with each group's `subs` (what its wilds stand for) and the winning tile's place.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from app.domain.hand import CHOW, KONG, PUNG
from app.domain.notation import format_tiles
from app.domain.tiles import TileSet

PAIR: Final = "pair"
KNIT: Final = "knit"  # three tiles of one suit three apart (147, 258, 369) in a knitted straight


class Group(NamedTuple):
    """One group of a reading. `tile` is the lowest tile (a chow's first, a knit's first)."""

    kind: str  # chow, pung, kong, pair, knit
    tile: int
    declared: bool = False
    # For pungs and kongs: concealed (暗) before the winning tile is considered; a declared
    # kong is concealed only when declared so. Chows, pairs and knits from the standing tiles
    # are concealed too.
    concealed: bool = True
    # The tiles this group's wild tiles (混) stand for, sorted; () when it holds none.
    subs: tuple[int, ...] = ()


_new: Final = tuple.__new__


def wild_group(kind: str, tile: int, subs: tuple[int, ...]) -> Group:
    """A standing group (concealed, not declared) whose wilds stand for `subs`, built with
    `tuple.__new__`: the NamedTuple's own constructor runs a Python-level __new__ that costs
    several times more (the wild readings build many)."""
    return _new(Group, (kind, tile, False, True, subs))


# Where a cut may hold the winning tile (the bits of `Piece.places`): in a chow, in the
# middle of one (嵌张), at the edge of 12-3 or 7-89 (边张), as a pung.
IN_CHOW, MIDDLE, EDGE, IN_PUNG = 1, 2, 4, 8


@dataclass(frozen=True, slots=True)
class Piece:
    """One cut of one part of the standing tiles (a numbered suit, or the honours) into sets
    and pairs, with what a reading's view is made of: worked out once per pattern of the part
    (`app.domain.standing.Part`), shared by every hand that holds it."""

    groups: tuple[Group, ...]  # in tile order, a suit's pair last
    chows: tuple[int, ...]  # first tiles, sorted
    pungs: tuple[int, ...]  # sorted
    pair: int  # the pair's tile, -1 without one (or with several: honours)
    numbered_pungs: int  # how many of the pungs are of numbered tiles
    # Tile -> where the cut may place it as the winning tile (IN_CHOW | MIDDLE | EDGE |
    # IN_PUNG); tiles it cannot place are absent. A plain dict, never changed once made
    # (a View asks it of every reading: a mappingproxy's `get` costs several times more).
    places: Mapping[int, int] = field(compare=False)
    # Each group written out, with its place in the written order (`written`).
    written: tuple[tuple[int, str], ...] = field(compare=False, default=())
    # The groups written out in the written order (`written` sorted), and the place of the
    # first: a reading of cuts of parts lying apart in that order is written by putting its
    # pieces' `shown` end to end (`app.domain.standing.Layout.apart`).
    shown: tuple[str, ...] = field(compare=False, default=())
    at: int = field(compare=False, default=0)

    def __post_init__(self) -> None:
        written = self.written
        if written:
            # Sorted by place, stable: each place made an int with its index (place × count
            # + index) and the ints sorted; compiled, this costs less than `sorted` calling a
            # key function back for each pair.
            n = len(written)
            order = sorted([written[i][0] * n + i for i in range(n)])
            object.__setattr__(self, "shown", tuple([written[v % n][1] for v in order]))
            object.__setattr__(self, "at", written[order[0] % n][0])


class Reading(NamedTuple):
    """One way to read the whole hand."""

    shape: str
    groups: tuple[Group, ...]  # declared melds first, then the standing groups in tile order
    # Readings of a hand with wild tiles say where the winning tile sits: the index of its
    # group and the tile it is read as (itself, unless it is a wild). -1: not designated (a
    # hand without wilds: the checks find the winning tile's place themselves).
    win: int = -1
    win_as: int = -1
    # A regular reading of a hand without wilds: the cut of each part holding standing tiles
    # (its groups are `groups` after the declared melds). () for other readings.
    pieces: tuple[Piece, ...] = ()


def written(group: Group, tileset: TileSet) -> tuple[int, str]:
    """A group in compact notation (declared melds in brackets as on input: `[123p]`,
    `{5555s}` for a concealed kong), with its place in the written order: by the display
    order of its first tile, a pair after a set of the same tile."""
    kind, tile = group.kind, group.tile
    if kind == CHOW:
        tiles = [tile, tile + 1, tile + 2]
    elif kind == KNIT:
        tiles = [tile, tile + 3, tile + 6]
    else:
        tiles = [tile] * {PUNG: 3, KONG: 4, PAIR: 2}[kind]
    text = format_tiles(tiles, tileset)
    if group.declared:
        text = ("{" + text + "}" if group.concealed and kind == KONG else "[" + text + "]")
    return tileset.display_rank[tile] * 2 + (kind != PAIR), text


# The standing groups and each group written out are made once and shared by the parts that
# hold them (`app.domain.standing`, which shares their segments too), rather than copied into
# every part (bench/README.md: "The bounds of the engine's memos"). Groups and their writing
# are bounded by the tile sets in use (at most 5 kinds x 64 tiles, per tile set for the
# writing), and emptied if ever full; see `app.scoring.memory`.
_GROUPS: Final[dict[tuple[str, int], Group]] = {}
GROUPS_LIMIT: Final = 1024
_WRITTEN: Final[dict[tuple[TileSet, Group], tuple[int, str]]] = {}
WRITTEN_LIMIT: Final = 2048


def shared_group(kind: str, tile: int) -> Group:
    """The standing group (undeclared, no wilds) of `kind` at `tile`, shared."""
    found = _GROUPS.get((kind, tile))
    if found is None:
        if len(_GROUPS) >= GROUPS_LIMIT:
            _GROUPS.clear()
        found = _GROUPS[(kind, tile)] = Group(kind, tile)
    return found


def shared_written(group: Group, tileset: TileSet) -> tuple[int, str]:
    """`written(group, tileset)`, shared."""
    found = _WRITTEN.get((tileset, group))
    if found is None:
        if len(_WRITTEN) >= WRITTEN_LIMIT:
            _WRITTEN.clear()  # only with many tile sets at once (tests build variants)
        found = _WRITTEN[(tileset, group)] = written(group, tileset)
    return found
