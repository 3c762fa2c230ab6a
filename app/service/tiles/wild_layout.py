"""A scored hand with wild tiles (混) laid out as it was scored: each group of the chosen
reading with its wild tiles where they stood, and the winning tile taken from its own group.

The answer's `decomposition` writes the groups as the tiles they are read as and lists what
each wild stood for, but not in which group a wild sat when two groups read the same tile, nor
which group the winning tile completed: `EES345m789p678s3m3m` (E and S wild) reads
123m 33m 345m 789p 678s, and whether the S read as 3m pairs the winning 3m (混儿吊) or fills
the 123m is what the picture must show. The reading the scoring chose says both (each group's
`subs`, the reading's `win`), so the picture asks for it (`chosen_reading`) and pairs its
wild places with the answer's `wilds`, which name the tile held in each.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.domain.hand import CHOW, KONG, PUNG, Hand, WinContext
from app.domain.readings import KNIT, PAIR, Group, written
from app.rules.model import RuleSet
from app.scoring.explain import chosen_reading
from app.service.pictures.faces import Face

__all__ = ["wild_groups"]

Json = Mapping[str, Any]
_SIZE = {PAIR: 2, PUNG: 3, KONG: 4}


def _tiles(group: Group) -> list[int]:
    if group.kind == CHOW:
        return [group.tile, group.tile + 1, group.tile + 2]
    if group.kind == KNIT:
        return [group.tile, group.tile + 3, group.tile + 6]
    return [group.tile] * _SIZE[group.kind]


def _wild_face(held: str, read: int, rs: RuleSet) -> Face:
    ts = rs.tileset
    return Face(held, ts.kind(ts.by_code[held]), wild_as=ts.code(read),
                wild_as_name=ts.kind(read).name_zh)


def wild_groups(hand: Hand, ctx: WinContext, answer: Json, rs: RuleSet
                ) -> tuple[list[tuple[list[Face], str]], Face] | None:
    """The standing groups of the reading scored, in the answer's order, each wild tile in
    the group where it stood, each with its caption: what it reads as, and for the winning
    tile's group `+ 和` and that tile; then the winning tile (taken out of its group). None
    for a hand whose reading places no wild (no wilds, or a stand-in tile: the answer alone
    lays those out)."""
    decomposition = answer.get("decomposition")
    if not decomposition or not decomposition["wilds"]:
        return None
    reading = chosen_reading(hand, ctx, rs)
    if reading is None or reading.win < 0:
        return None
    ts = rs.tileset
    # (held, read as): the winning tile's first when it is a wild (`Decomposition.wilds`)
    held = [(w["tile"], w["as"]) for w in decomposition["wilds"]]
    win_wild = hand.win_tile in ctx.wilds
    winning = (_wild_face(held.pop(0)[0], reading.win_as, rs) if win_wild
               else Face(ts.code(hand.win_tile), ts.kind(hand.win_tile)))
    standing = [(written(g, ts)[0], i, g) for i, g in enumerate(reading.groups)
                if not g.declared]
    groups: list[tuple[list[Face], str]] = []
    for _, i, g in sorted(standing, key=lambda s: s[0]):  # stable, as the answer orders them
        tiles, subs = _tiles(g), list(g.subs)
        caption = written(g, ts)[1]
        if i == reading.win:
            caption += f" ← 和 {winning.code}"
            tiles.remove(reading.win_as)
            if win_wild:
                subs.remove(reading.win_as)
        faces = []
        for t in tiles:
            if t not in subs:
                faces.append(Face(ts.code(t), ts.kind(t)))
                continue
            subs.remove(t)
            found = next((h for h in held if h[1] == ts.code(t)), None)
            if found is None:  # the answer and the reading disagree: lay out by the answer
                return None
            held.remove(found)
            faces.append(_wild_face(found[0], t, rs))
        groups.append((faces, caption))
    return groups, winning
