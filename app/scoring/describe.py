"""The reading a result was scored on, written out: its groups in compact notation and what
each wild tile stood for (the `decomposition` of a response)."""

from __future__ import annotations

from operator import itemgetter
from typing import Final

from app.domain.hand import Hand
from app.domain.notation import format_tiles
from app.domain.readings import Group, Piece, Reading, written
from app.domain.standing import layout
from app.domain.tiles import TileSet
from app.scoring.result import Decomposition

# Groups written out, by (tile set, group), for readings without pieces (declared melds,
# special shapes, wild readings): a group is one of a tile set's few kinds of group, so the
# table stays small. Emptied when full. See `app.scoring.memory`.
_WRITTEN: Final[dict[tuple[TileSet, Group], tuple[int, str]]] = {}
WRITTEN_LIMIT: Final = 2048

# Hot-path named tuples are built with `tuple.__new__(Type, fields)`: a NamedTuple's own
# constructor runs a Python-level __new__ that costs about twice as much.
_new: Final = tuple.__new__
_first = itemgetter(0)


def _written(group: Group, tileset: TileSet) -> tuple[int, str]:
    key = (tileset, group)
    found = _WRITTEN.get(key)
    if found is None:
        if len(_WRITTEN) >= WRITTEN_LIMIT:
            _WRITTEN.clear()
        found = _WRITTEN[key] = written(group, tileset)
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
                found = _WRITTEN.get((tileset, g))
                keyed.append(found if found is not None else _written(g, tileset))
        for piece in reading.pieces:
            keyed += piece.written
    else:
        keyed = []
        for g in reading.groups:
            found = _WRITTEN.get((tileset, g))
            keyed.append(found if found is not None else _written(g, tileset))
    keyed.sort(key=_first)  # stable: groups of one place keep the reading's order
    return _new(Decomposition, (reading.shape, tuple([text for _, text in keyed]),
                                _wild_uses(reading, hand, tileset, wild_set) if wild_set
                                else ()))


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
