"""The free groups of a reading with wild tiles: groups made of wilds only, which may take any
identity. The rule set says which identities its fans tell apart (`FreeClasses`: one class
per set of identities no fan can tell apart); a reading tries one member of each class, never
a fifth copy of a kind (`room`). What a describer tells of each class, when all its members
share it (`class_infos`), lets a choice of classes be weighed before it is placed.
`app.domain.wildcards` reads the rest of the hand.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import NamedTuple

from app.domain.hand import CHOW, PUNG
from app.domain.readings import PAIR, Group, wild_group
from app.domain.suit_search import GroupDescriber, GroupInfo, SuitOption
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


# Per class of `FreeClasses.sets`, then of `.pairs`: the weight and bits every member of the
# class has (`GroupInfo`), or None where its members differ.
ClassInfos = tuple[tuple[GroupInfo | None, ...], tuple[GroupInfo | None, ...]]


def class_infos(free: FreeClasses, info: GroupDescriber) -> ClassInfos:
    """What `info` tells of the free groups' classes (`ClassInfos`), kept on the describer
    for these classes. The classes gather identities every check tells alike, so with a
    natural winning tile (which no group made of wilds holds) each class has one weight and
    no bits; the members of a class are all described once to know it."""
    kept = info.free_infos
    if kept is not None and kept[0] is free:
        found: ClassInfos = kept[1]
        return found
    found = (tuple([_uniform(members, info) for members in free.sets]),
             tuple([_uniform(members, info) for members in free.pairs]))
    info.free_infos = (free, found)
    return found


def _uniform(members: tuple[Identity, ...], info: GroupDescriber) -> GroupInfo | None:
    """The weight and bits of every member of a class of free groups, if they share them."""
    out: GroupInfo | None = None
    for kind, t in members:
        got = info.info(wild_group(kind, t, group_tiles(kind, t)))
        if out is None:
            out = got
        elif got != out:
            return None
    return out


def sets_info(combo: tuple[int, ...], infos: ClassInfos | None) -> GroupInfo | None:
    """The weights added and the bits or-ed of free sets of the classes `combo` (indices
    into `FreeClasses.sets`), when each of these classes has one (`class_infos`); else
    None."""
    if infos is None:
        return None
    weight = held = 0
    for c in combo:
        known = infos[0][c]
        if known is None:
            return None
        weight += known[0]
        held |= known[1]
    return weight, held


def room_left(members: Sequence[SuitOption], starts: list[int], base: list[int]) -> list[int]:
    """The room `base` (the caps less the naturals) less the wilds the parts' options
    `members` (each of the part starting at the same place of `starts`) place: what the
    free groups may take."""
    room = base[:]
    for start, option in zip(starts, members, strict=True):
        for r, n in enumerate(option[3]):
            room[start + r] -= n
    return room


def left_fits(left: int, free_sets: int, pair: bool) -> bool:
    """Whether `left` wilds make exactly `free_sets` free sets, and the pair unless one is
    held."""
    return free_sets >= 0 and left == 3 * free_sets + (0 if pair else 2)
