"""Checks on the sets of one reading: pungs, kongs, chows and the pair."""

from __future__ import annotations

from typing import Any, Literal

from app.domain.decompose import KNIT, PAIR
from app.domain.hand import CHOW, KONG, PUNG, WinContext
from app.domain.tiles import TileSet
from app.rules.checks.registry import TileGroup, check, group_tile_set
from app.rules.view import View

ChowKind = Literal[
    "identical", "mixed_same", "shift_3", "terminal_pair",
    "mixed_shifted", "mixed_triple", "mixed_straight", "pure_straight", "pure_shifted",
    "pure_triple", "pure_quadruple", "pure_four_shifted",
]


def _pungs_among_key(kind: str, tile: int, tileset: TileSet, win: object, *,
                     tiles: frozenset[int], **params: Any) -> tuple[bool, bool]:
    return kind in (PUNG, KONG) and tile in tiles, kind == PAIR and tile in tiles


@check(needs=("pungs",), tells_apart=_pungs_among_key)
def pungs_among(v: View, ctx: WinContext, *, tiles: TileGroup, exactly: int | None = None,
                pair_among: bool = False) -> int:
    """刻子计数: pungs (kongs included) of `tiles`: how many, or 1 if exactly `exactly` of them
    (and, with `pair_among`, the pair is one of `tiles` too: 小四喜, 小三元)."""
    n = 0
    for t in v.pungs:
        if t in tiles:
            n += 1
    if exactly is None:
        return n
    if n != exactly:
        return 0
    return 1 if not pair_among or v.pair in tiles else 0


@check(needs=("pungs",))
def wind_pung(v: View, ctx: WinContext, *, wind: Literal["seat", "round"]) -> int:
    """门风刻 / 圈风刻: a pung of the seat wind or of the round (prevalent) wind."""
    ts = v.facts.tileset
    target = ctx.seat_wind if wind == "seat" else ctx.round_wind
    kinds = ts.kinds
    for t in v.pungs:
        k = kinds[t]
        if k.is_wind and k.rank - 1 == target:
            return 1
    return 0


@check(needs=("pungs",))
def terminal_and_wind_pungs(v: View, ctx: WinContext) -> int:
    """幺九刻: pungs of terminals, and of winds that score no wind fan of their own.

    A wind pung of the seat or round wind is already 门风刻/圈风刻, and with three or four wind
    pungs every one of them is part of 三风刻/小四喜/大四喜: those are not 幺九刻 again.
    Dragon pungs are 箭刻, never 幺九刻.
    """
    kinds = v.facts.tileset.kinds
    terminals = 0
    winds = []
    for t in v.pungs:
        k = kinds[t]
        if k.is_terminal:
            terminals += 1
        elif k.is_wind:
            winds.append(k.rank - 1)
    if len(winds) >= 3:
        return terminals
    return terminals + sum(1 for w in winds if w not in (ctx.seat_wind, ctx.round_wind))


def _all_pungs_key(kind: str, tile: int, tileset: TileSet, win: object, *,
                   within: frozenset[int] | None = None) -> tuple[str, bool]:
    return kind, within is None or group_tile_set(kind, tile) <= within


@check(needs=("pungs",), tells_apart=_all_pungs_key)
def all_pungs(v: View, ctx: WinContext, *, within: TileGroup | None = None) -> int:
    """碰碰和: four pungs or kongs and a pair; with `within`, every tile among them (全双刻)."""
    if len(v.pungs) != 4 or v.pair < 0:
        return 0
    if within is not None and not v.facts.kinds <= within:
        return 0
    return 1


@check(needs=("chows",))
def all_chows(v: View, ctx: WinContext) -> int:
    """平和: four chows (a knitted straight counts as three) and a pair of numbered tiles."""
    if len(v.chows) + len(v.knits) != 4 or v.pair < 0:
        return 0
    return 1 if v.facts.tileset.kinds[v.pair].is_number else 0


@check()
def every_group_has(v: View, ctx: WinContext, *, tiles: TileGroup) -> int:
    """全带幺 / 全带五: every set and the pair contain one of `tiles` (terminals or honours;
    fives)."""
    if not v.groups:
        return 0
    for g in v.groups:
        if g.kind == CHOW:
            if g.tile not in tiles and g.tile + 1 not in tiles and g.tile + 2 not in tiles:
                return 0
        elif g.kind == KNIT:
            if g.tile not in tiles and g.tile + 3 not in tiles and g.tile + 6 not in tiles:
                return 0
        elif g.tile not in tiles:
            return 0
    return 1


@check(needs=("kongs",))
def kong_count(v: View, ctx: WinContext) -> int:
    """杠: one for each kong the winner declared, concealed or melded."""
    return len(v.kongs)


@check(needs=("kongs",))
def kongs(v: View, ctx: WinContext, *, total: int, concealed: int | None = None) -> int:
    """杠: exactly `total` kongs, `concealed` of them concealed (四杠, 三杠, 双暗杠, 明暗杠 ...)."""
    if len(v.kongs) != total:
        return 0
    if concealed is None:
        return 1
    return 1 if sum(1 for _, c in v.kongs if c) == concealed else 0


@check(needs=("pungs",))
def concealed_pungs(v: View, ctx: WinContext, *, exactly: int) -> int:
    """暗刻: exactly this many concealed pungs (concealed kongs count; a pung completed by a
    discard does not)."""
    return 1 if v.concealed_pungs == exactly else 0


@check(needs=("chow_pairs",))
def chow_combination(v: View, ctx: WinContext, *, kind: ChowKind) -> int:
    """顺子组合 (一般高, 喜相逢, 连六, 老少副, 清龙, 花龙, 三同顺, 三步高 ...): counted under
    the rule set's combination policy (MCR: 套算一次)."""
    return v.combos.get(kind, 0)


@check(needs=("pungs",))
def shifted_pungs(v: View, ctx: WinContext, *, count: int, suits: Literal["same", "mixed"]) -> int:
    """节高: `count` pungs of consecutive ranks, all in one suit (一色三节高/一色四节高) or each
    in a different suit (三色三节高)."""
    ts = v.facts.tileset
    suit, rank = ts.suit_no, ts.ranks
    numbered = [t for t in v.pungs if suit[t] >= 0]
    if len(numbered) < count:
        return 0
    if suits == "same":
        for s in {suit[t] for t in numbered}:
            rs = sorted(rank[t] for t in numbered if suit[t] == s)
            for i in range(len(rs) - count + 1):
                if all(rs[i + k] == rs[i] + k for k in range(count)):
                    return 1
        return 0
    # Mixed: one pung in each of `count` different suits, ranks consecutive.
    by_rank: dict[int, set[int]] = {}
    for t in numbered:
        by_rank.setdefault(rank[t], set()).add(suit[t])
    for r in by_rank:
        layers = [by_rank.get(r + k, set()) for k in range(count)]
        if _distinct_pick(layers, set()):
            return 1
    return 0


def _distinct_pick(layers: list[set[int]], used: set[int]) -> bool:
    if not layers:
        return True
    return any(_distinct_pick(layers[1:], used | {s}) for s in layers[0] - used)


@check(needs=("pungs",))
def same_rank_pungs(v: View, ctx: WinContext, *, count: int) -> int:
    """同刻: pungs of the same rank in different suits. count=3: 三同刻 (once); count=2: 双同刻,
    once for every two such pungs."""
    ts = v.facts.tileset
    suit, rank = ts.suit_no, ts.ranks
    by_rank: dict[int, int] = {}
    for t in v.pungs:
        if suit[t] >= 0:
            by_rank[rank[t]] = by_rank.get(rank[t], 0) + 1
    if count == 2:
        return sum(n * (n - 1) // 2 for n in by_rank.values())
    return 1 if any(n >= count for n in by_rank.values()) else 0


@check(needs=("chow_pairs",))
def terminal_chows(v: View, ctx: WinContext, *, mixed: bool) -> int:
    """双龙会: 123 and 789 twice, with a pair of 5. 一色双龙会: all in one suit; 三色双龙会:
    123+789 in two suits and the 5s pair in the third."""
    if len(v.chows) != 4 or v.pair < 0:
        return 0
    ts = v.facts.tileset
    suit, rank = ts.suit_no, ts.ranks
    if rank[v.pair] != 5 or suit[v.pair] < 0:
        return 0
    chows = v.chows
    if sorted(rank[c] for c in chows) != [1, 1, 7, 7]:
        return 0
    suits = [suit[c] for c in chows]
    if not mixed:
        return 1 if len(set(suits)) == 1 and suits[0] == suit[v.pair] else 0
    # Two suits each with 123 and 789, the pair in the third suit.
    firsts = {(suit[c], rank[c]) for c in chows}
    used = set(suits)
    if len(used) != 2 or suit[v.pair] in used:
        return 0
    return 1 if all((s, r) in firsts for s in used for r in (1, 7)) else 0

