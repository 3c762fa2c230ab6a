"""The reading a result was scored on, written out: its groups in compact notation and what
each wild tile stood for (the `decomposition` of a response)."""

from __future__ import annotations

from typing import Final

from app.domain.hand import CHOW, KONG, PUNG, Hand
from app.domain.notation import format_tiles
from app.domain.readings import KNIT, PAIR, Group, Piece, Reading, written
from app.domain.standing import layout
from app.domain.tiles import TileSet
from app.scoring.result import Decomposition

# Groups written out, for readings without pieces (declared melds, special shapes, wild
# readings): per tile set, a list by group code (`_written`), None until first written. A
# group is one of a tile set's few kinds of group: a tile set's list has a slot for each
# (`_CODES` per kind of tile). Tile sets are few; the table is emptied if ever it holds
# WRITTEN_LIMIT of them. See `app.scoring.memory`.
_WRITTEN: Final[dict[TileSet, list[tuple[int, str] | None]]] = {}
WRITTEN_LIMIT: Final = 8
_CODES: Final = 20

# Hot-path named tuples are built with `tuple.__new__(Type, fields)`: a NamedTuple's own
# constructor runs a Python-level __new__ that costs about twice as much.
_new: Final = tuple.__new__


def _written(group: Group, tileset: TileSet) -> tuple[int, str]:
    """`written(group, tileset)`, remembered by a number made of what the writing reads of
    the group (its kind, tile, and whether declared and concealed; not what wilds stand
    for): an index into a list, where a dict keyed by the group would hash and compare a
    named tuple of five fields."""
    table = _WRITTEN.get(tileset)
    if table is None:
        if len(_WRITTEN) >= WRITTEN_LIMIT:
            _WRITTEN.clear()
        table = _WRITTEN[tileset] = [None] * (len(tileset.kinds) * _CODES)
    kind = group.kind
    if kind == CHOW:
        code = 0
    elif kind == PUNG:
        code = 4
    elif kind == KONG:
        code = 8
    elif kind == PAIR:
        code = 12
    elif kind == KNIT:
        code = 16
    else:
        return written(group, tileset)
    code += group.tile * _CODES + (2 if group.declared else 0) + (1 if group.concealed else 0)
    found = table[code]
    if found is None:
        found = table[code] = written(group, tileset)
    return found


def describe(reading: Reading, hand: Hand, tileset: TileSet,
             wild_set: frozenset[int] = frozenset()) -> Decomposition:
    """The chosen reading in compact notation, groups in display order; declared melds in
    brackets as on input (`[123p]`, `{5555s}` for a concealed kong), and what each wild tile
    stood for."""
    if not reading.groups:
        return _new(Decomposition, (reading.shape, (format_tiles(hand.concealed, tileset),), ()))
    pieces = reading.pieces
    if pieces and not hand.melds and not wild_set and layout(tileset).apart:
        # A regular reading of standing tiles only: its parts' cuts come written out in
        # order, and the parts lie apart in that order: the pieces end to end, in order.
        if len(pieces) > 1:
            pieces = _by_place(pieces)
        shown: tuple[str, ...] = ()
        for piece in pieces:
            shown += piece.shown
        return _new(Decomposition, (reading.shape, shown, ()))
    if pieces:
        # A regular reading of a hand without wilds: its parts' cuts come written out.
        keyed = []
        if hand.melds:
            for g in reading.groups[:len(hand.melds)]:
                keyed.append(_written(g, tileset))
        for piece in reading.pieces:
            keyed += piece.written
    else:
        keyed = []
        for g in reading.groups:
            keyed.append(_written(g, tileset))
    return _new(Decomposition, (reading.shape, _by_first(keyed),
                                _wild_uses(reading, hand, tileset, wild_set) if wild_set
                                else ()))


def _by_first(keyed: list[tuple[int, str]]) -> tuple[str, ...]:
    """The texts of `keyed` in the order of their places (the first of each pair); stable:
    groups of one place keep the reading's order. Each place made an int with its index
    (place × count + index), the ints sorted and read back: compiled, this costs less than
    `sort` calling a key function back for each pair."""
    n = len(keyed)
    order = [keyed[i][0] * n + i for i in range(n)]
    order.sort()
    return tuple([keyed[v % n][1] for v in order])


def _by_place(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """The pieces in the order of their first group's place (`Piece.at`); stable. By
    insertion: a reading has a piece per part holding tiles, and compiled, the loop costs
    less than `sorted` calling a key function back for each."""
    ordered: list[Piece] = []
    for piece in pieces:
        at = piece.at
        i = len(ordered)
        while i and ordered[i - 1].at > at:
            i -= 1
        ordered.insert(i, piece)
    return tuple(ordered)


def _wild_uses(reading: Reading, hand: Hand, tileset: TileSet,
               wild_set: frozenset[int]) -> tuple[tuple[str, str], ...]:
    """Pairs (wild tile held, tile it stood for). The winning tile, if wild, is paired with
    what the reading reads it as; then each wild read as its own kind; then the rest in
    display order (wilds of one kind are interchangeable, so any pairing is as true)."""
    held = [t for t in hand.concealed if t in wild_set]
    if not held:
        return ()
    read = [s for g in reading.groups for s in g.subs]
    kinds = tileset.kinds
    pairs: list[tuple[int, int]] = []
    if hand.win_tile in wild_set and reading.win >= 0:
        held.remove(hand.win_tile)
        read.remove(reading.win_as)
        pairs.append((hand.win_tile, reading.win_as))
    rest: list[int] = []
    for t in held:
        if t in read:
            read.remove(t)
            pairs.append((t, t))
        else:
            rest.append(t)
    rank = tileset.display_rank
    pairs.extend(zip(_by_rank(rest, rank), _by_rank(read, rank), strict=True))
    return tuple([(kinds[a].code, kinds[b].code) for a, b in pairs])


def _by_rank(tiles: list[int], rank: tuple[int, ...]) -> list[int]:
    """`tiles` in display order (`rank`: each tile's place in it). By insertion: a hand holds
    a few wilds, and compiled, the loop costs less than `sort` calling a key function back
    for each."""
    ordered: list[int] = []
    for t in tiles:
        at = rank[t]
        i = len(ordered)
        while i and rank[ordered[i - 1]] > at:
            i -= 1
        ordered.insert(i, t)
    return ordered
