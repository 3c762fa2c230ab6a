"""The free groups of a reading with wild tiles: groups made of wilds only, which may take any
identity. The rule set says which identities its fans tell apart (`FreeClasses`: one class
per set of identities no fan can tell apart); a reading tries one member of each class, never
a fifth copy of a kind (`room`). `app.domain.wildcards` reads the rest of the hand.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

from app.domain.hand import CHOW, PUNG
from app.domain.readings import PAIR, Group, wild_group
from app.domain.tiles import TileSet

__all__ = ["FreeClasses", "Identity", "assign", "assign_pairs", "assignments", "every_identity",
           "group_tiles"]

# A candidate identity for a free group: (kind, first tile).
Identity = tuple[str, int]


class FreeClasses(NamedTuple):
    """Identities a free group may take, grouped into classes the fans cannot tell apart;
    each class lists its members in the order they are tried."""

    sets: tuple[tuple[Identity, ...], ...]
    pairs: tuple[tuple[Identity, ...], ...]


@lru_cache(maxsize=8)  # one per tile set
def every_identity(tileset: TileSet) -> FreeClasses:
    """No reduction: every possible set and pair is a class of its own."""
    playing = tileset.playing
    sets = [((PUNG, t),) for t in playing]
    sets += [((CHOW, t),) for t in sorted(tileset.chow_starts)]
    return FreeClasses(tuple(sets), tuple(((PAIR, t),) for t in playing))


def group_tiles(kind: str, tile: int) -> tuple[int, ...]:
    """The tiles of a standing group (chow, pung or pair)."""
    if kind == CHOW:
        return (tile, tile + 1, tile + 2)
    return (tile,) * (2 if kind == PAIR else 3)


def assignments(classes: list[tuple[Identity, ...]], room: list[int]) -> Iterator[list[Group]]:
    """Every choice of one member per class that fits in `room` together."""
    if not classes:
        yield []
        return
    for kind, t in classes[0]:
        tiles = group_tiles(kind, t)
        if all(room[x] >= tiles.count(x) for x in tiles):
            for x in tiles:
                room[x] -= 1
            for rest in assignments(classes[1:], room):
                yield [wild_group(kind, t, tiles), *rest]
            for x in tiles:
                room[x] += 1


def assign(classes: list[tuple[Identity, ...]], room: list[int]) -> list[Group] | None:
    """One member of each class, in order, with room for all of them (backtracking)."""
    return _assign(classes, 0, room)


def _assign(classes: list[tuple[Identity, ...]], k: int,
            room: list[int]) -> list[Group] | None:
    """`assign` of `classes[k:]` (the room of a chow's three kinds, a pung's or a pair's one
    read directly: a reading with wilds left over tries every choice of classes)."""
    if k == len(classes):
        return []
    for kind, t in classes[k]:
        if kind == CHOW:
            if room[t] < 1 or room[t + 1] < 1 or room[t + 2] < 1:
                continue
            room[t] -= 1
            room[t + 1] -= 1
            room[t + 2] -= 1
            rest = _assign(classes, k + 1, room)
            room[t] += 1
            room[t + 1] += 1
            room[t + 2] += 1
        else:
            n = 2 if kind == PAIR else 3
            if room[t] < n:
                continue
            room[t] -= n
            rest = _assign(classes, k + 1, room)
            room[t] += n
        if rest is not None:
            out = [wild_group(kind, t, group_tiles(kind, t))]
            out.extend(rest)
            return out
    return None


def assign_pairs(classes: list[tuple[Identity, ...]], room: list[int]) -> list[Group] | None:
    """One pair of each class's members, in order, with room for all of them (backtracking)."""
    if not classes:
        return []
    for _, t in classes[0]:
        if room[t] >= 2:
            room[t] -= 2
            rest = assign_pairs(classes[1:], room)
            room[t] += 2
            if rest is not None:
                return [wild_group(PAIR, t, (t, t)), *rest]
    return None
