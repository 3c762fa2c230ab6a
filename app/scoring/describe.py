"""The reading a result was scored on, written out: its groups in compact notation and what
each wild tile stood for (the `decomposition` of a response)."""

from __future__ import annotations

from functools import lru_cache

from app.domain.decompose import KNIT, PAIR, Reading
from app.domain.hand import CHOW, KONG, PUNG, Hand
from app.domain.notation import format_tiles
from app.domain.tiles import TileSet
from app.scoring.result import Decomposition


@lru_cache(maxsize=4096)
def _group_text(tileset: TileSet, kind: str, tile: int, declared: bool, concealed: bool) -> str:
    if kind == CHOW:
        tiles = [tile, tile + 1, tile + 2]
    elif kind == KNIT:
        tiles = [tile, tile + 3, tile + 6]
    else:
        tiles = [tile] * {PUNG: 3, KONG: 4, PAIR: 2}[kind]
    text = format_tiles(tiles, tileset)
    if declared:
        # As on input: brackets for a declared meld, braces for a concealed kong.
        return "{" + text + "}" if concealed and kind == KONG else "[" + text + "]"
    return text


def describe(reading: Reading, hand: Hand, tileset: TileSet,
             wild_set: frozenset[int] = frozenset()) -> Decomposition:
    """The chosen reading in compact notation, groups in display order; declared melds in
    brackets as on input (`[123p]`, `{5555s}` for a concealed kong), and what each wild tile
    stood for."""
    if not reading.groups:
        return Decomposition(reading.shape, (format_tiles(sorted(hand.concealed), tileset),))
    rank = tileset.display_rank
    groups = sorted(reading.groups, key=lambda g: (rank[g.tile], g.kind != PAIR))
    return Decomposition(reading.shape, tuple(
        _group_text(tileset, g.kind, g.tile, g.declared, g.concealed) for g in groups),
        _wild_uses(reading, hand, tileset, wild_set))


def _wild_uses(reading: Reading, hand: Hand, tileset: TileSet,
               wild_set: frozenset[int]) -> tuple[tuple[str, str], ...]:
    """Pairs (wild tile held, tile it stood for). The winning tile, if wild, is paired with
    what the reading reads it as; then each wild read as its own kind; then the rest in
    display order (wilds of one kind are interchangeable, so any pairing is as true)."""
    held = [t for t in hand.concealed if t in wild_set]
    if not held:
        return ()
    read = [s for g in reading.groups for s in g.subs]
    code = tileset.code
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
    rest.sort(key=rank.__getitem__)
    read.sort(key=rank.__getitem__)
    pairs.extend(zip(rest, read, strict=True))
    return tuple((code(a), code(b)) for a, b in pairs)
