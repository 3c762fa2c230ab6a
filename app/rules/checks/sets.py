"""Checks on the sets of one reading: pungs, kongs, chows and the pair."""

from __future__ import annotations

from itertools import combinations, permutations, product
from typing import Any, Literal

from app.domain.hand import CHOW, KONG, PUNG, WinContext
from app.domain.readings import KNIT, PAIR
from app.domain.shapes import SEVEN_PAIRS
from app.domain.tiles import TileSet
from app.rules.checks import keys
from app.rules.checks.registry import BoolOption, TileGroup, check, group_tile_set
from app.rules.view import View

ChowKind = Literal[
    "identical", "mixed_same", "shift_3", "terminal_pair",
    "mixed_shifted", "mixed_triple", "mixed_straight", "pure_straight", "pure_shifted",
    "pure_triple", "pure_quadruple", "pure_four_shifted",
    "two_suit_shifted", "four_mixed_shifted",
]


def _pungs_among_key(kind: str, tile: int, tileset: TileSet, win: object, *,
                     tiles: frozenset[int], pair: frozenset[int] | None = None,
                     **params: Any) -> tuple[bool, bool, bool]:
    return (kind in (PUNG, KONG) and tile in tiles, kind == PAIR and tile in tiles,
            kind == PAIR and pair is not None and tile in pair)


def _among(tileset: TileSet, *, tiles: frozenset[int], exactly: int | None = None,
           **params: Any) -> frozenset[int] | None:
    # None of `tiles` held as a pung: nothing, unless exactly none is asked for.
    return tiles if exactly != 0 else None


@check(needs=("pungs",), tells_apart=_pungs_among_key, pungs_of=_among)
def pungs_among(v: View, ctx: WinContext, tiles: TileGroup, exactly: int | None = None,
                pair_among: bool = False, pair: TileGroup | None = None) -> int:
    """刻子计数: pungs (kongs included) of `tiles`: how many, or 1 if exactly `exactly` of them
    (and, with `pair_among`, the pair is one of `tiles` too: 小四喜, 小三元; with `pair`, the
    pair is one of `pair`: 四方大发, the four winds and a pair of 发)."""
    pungs = v.pungs
    n = 0
    if not tiles.isdisjoint(pungs):
        for t in pungs:
            if t in tiles:
                n += 1
    if exactly is None:
        return n
    if n != exactly:
        return 0
    if pair is not None and v.pair not in pair:
        return 0
    return 1 if not pair_among or v.pair in tiles else 0


def _winds(tileset: TileSet, **params: Any) -> frozenset[int]:
    return frozenset(tileset.winds)


def _terminals_and_winds(tileset: TileSet, **params: Any) -> frozenset[int]:
    return tileset.terminals | frozenset(tileset.winds)


@check(needs=("pungs",), pungs_of=_winds)
def wind_pung(v: View, ctx: WinContext, wind: Literal["seat", "round"]) -> int:
    """门风刻 / 圈风刻: a pung of the seat wind or of the round (prevalent) wind."""
    winds = v.facts.tileset.winds
    target = ctx.seat_wind if wind == "seat" else ctx.round_wind
    return 1 if target < len(winds) and winds[target] in v.pungs else 0


@check(needs=("pungs",), pungs_of=_terminals_and_winds)
def terminal_and_wind_pungs(v: View, ctx: WinContext, wind_fans: bool = True) -> int:
    """幺九刻: pungs of terminals, and of winds that score no wind fan of their own.

    A wind pung of the seat or round wind is already 门风刻/圈风刻, and with three or four wind
    pungs every one of them is part of 三风刻/小四喜/大四喜: those are not 幺九刻 again.
    Dragon pungs are 箭刻, never 幺九刻. Without `wind_fans` (a game with no seat or round
    wind) no wind pung is the seat's or the round's.
    """
    ts = v.facts.tileset
    terminal, winds = ts.terminals, ts.winds
    terminals = 0
    held = []
    for t in v.pungs:
        if t in terminal:
            terminals += 1
        elif t in winds:
            held.append(winds.index(t))
    if not held or len(held) >= 3:
        return terminals
    if not wind_fans:
        return terminals + len(held)
    return terminals + sum(1 for w in held if w != ctx.seat_wind and w != ctx.round_wind)


def _all_pungs_key(kind: str, tile: int, tileset: TileSet, win: object, *,
                   within: frozenset[int] | None = None,
                   mixed: bool = False) -> tuple[str, bool, bool]:
    return (kind, within is None or group_tile_set(kind, tile) <= within,
            mixed and tileset.kinds[tile].is_honor)


@check(needs=("four_pungs",), tells_apart=_all_pungs_key)
def all_pungs(v: View, ctx: WinContext, within: TileGroup | None = None,
              mixed: bool = False) -> int:
    """碰碰和: four pungs or kongs and a pair; with `within`, every tile among them (全双刻);
    with `mixed`, the hand holds both honours and numbered tiles (混老头: neither 字一色 nor
    清老头)."""
    if len(v.pungs) != 4 or v.pair < 0:
        return 0
    if within is not None and not v.facts.filled().kinds <= within:
        return 0
    if mixed and not (v.facts.filled().has_honors and v.facts.filled().suits):
        return 0
    return 1


def _pung_or_pair_key(kind: str, tile: int, tileset: TileSet, win: object, *,
                      pairs: frozenset[int]) -> tuple[bool, bool]:
    return kind in (PUNG, KONG), kind == PAIR and tile in pairs


@check(tells_apart=_pung_or_pair_key)
def pung_or_pair_among(v: View, ctx: WinContext, pairs: TileGroup) -> int:
    """有刻 (刻子、杠牌或中发白将): this reading holds a pung or kong, declared or standing
    (one the winning tile completes included), or its pair is one of `pairs`; a seven-pairs
    reading always does (its pairs stand for the pungs of a 对碰 wait)."""
    if v.pungs or v.shape == SEVEN_PAIRS:
        return 1
    return 1 if v.pair >= 0 and v.pair in pairs else 0


@check(needs=("four_chows",))
def all_chows(v: View, ctx: WinContext, two_sided: bool = False) -> int:
    """平和: four chows (a knitted straight counts as three) and a pair of numbered tiles;
    with `two_sided`, this reading also places the winning tile at an open end of a standing
    chow (a two-sided wait, 两面: 23 waiting on 1 and 4; never 12-3 or 7-89)."""
    if len(v.chows) + len(v.knits) != 4 or v.pair < 0:
        return 0
    ts = v.facts.tileset
    if not ts.kinds[v.pair].is_number:
        return 0
    if not two_sided:
        return 1
    win = v.facts.win_tile
    rank = ts.ranks
    placed = v.win_group
    for g in v.groups if placed is None else (placed,):
        if g.kind == CHOW and not g.declared and (
                (win == g.tile and rank[g.tile] != 7)
                or (win == g.tile + 2 and rank[g.tile] != 1)):
            return 1
    return 0


def _pair_among(tileset: TileSet, *, tiles: frozenset[int], **params: Any) -> frozenset[int]:
    # The pair is a group of its own: it must hold one of `tiles`.
    return tiles


@check(pair_of=_pair_among)
def every_group_has(v: View, ctx: WinContext, tiles: TileGroup, honors: bool = False,
                    chow_if: BoolOption | None = None) -> int:
    """全带幺 / 全带五: every set and the pair contain one of `tiles` (terminals or honours;
    fives); with `honors`, the hand holds an honour (混全带幺); with `chow_if`, the reading
    holds a chow while that bool request option is on (an all-pung hand is not 全带幺)."""
    groups = v.groups
    if not groups:
        return 0
    if honors and not v.facts.filled().has_honors:
        return 0
    if chow_if is not None and ctx.options.get(chow_if) and not (v.chows or v.knits):
        return 0
    pair = v.pair
    if pair >= 0 and pair not in tiles:
        return 0  # the pair is a group of its own
    for g in groups:
        t = g.tile
        if t in tiles:
            continue
        kind = g.kind
        if kind == CHOW:
            if t + 1 in tiles or t + 2 in tiles:
                continue
        elif kind == KNIT and (t + 3 in tiles or t + 6 in tiles):
            continue
        return 0
    return 1


def _pair_key(kind: str, tile: int, tileset: TileSet, win: object, *,
              tiles: frozenset[int]) -> bool:
    return kind == PAIR and tile in tiles


@check(tells_apart=_pair_key, pair_of=_pair_among)
def pair_is(v: View, ctx: WinContext, tiles: TileGroup) -> int:
    """将 (258将 / 幺九头): the reading's one pair is one of `tiles`."""
    return 1 if v.pair >= 0 and v.pair in tiles else 0


@check(needs=("kongs",), depends_on=keys.kongs_held)
def kong_count(v: View, ctx: WinContext) -> int:
    """杠: one for each kong the winner declared, concealed or melded."""
    return len(v.kongs)


@check(needs=("kongs",), depends_on=keys.kongs_held)
def kongs(v: View, ctx: WinContext, total: int, concealed: int | None = None) -> int:
    """杠: exactly `total` kongs, `concealed` of them concealed (四杠, 三杠, 双暗杠, 明暗杠 ...)."""
    if len(v.kongs) != total:
        return 0
    if concealed is None:
        return 1
    return 1 if sum(1 for _, c in v.kongs if c) == concealed else 0


@check(needs=("kongs",), depends_on=keys.kongs_held)
def kongs_of_kind(v: View, ctx: WinContext, concealed: bool, exactly: int) -> int:
    """暗杠 / 明杠: exactly `exactly` (one or more) concealed kongs, or melded ones, whatever
    kongs of the other kind the hand holds beside them (a table without 明暗杠)."""
    n = sum(1 for _, c in v.kongs if c == concealed)
    return 1 if n and n == exactly else 0


@check(needs=("pungs",), depends_on=keys.concealed)
def concealed_pungs(v: View, ctx: WinContext, exactly: int) -> int:
    """暗刻: exactly this many concealed pungs (concealed kongs count; a pung completed by a
    discard does not)."""
    return 1 if v.concealed_pungs == exactly else 0


def _pungs_of(tileset: TileSet, *, among: frozenset[int], count: int,
              **params: Any) -> frozenset[int] | None:
    return among if count > 0 else None


@check(needs=("four_pungs",), pungs_of=_pungs_of)
def concealed_pungs_within(v: View, ctx: WinContext, within: TileGroup, among: TileGroup,
                           count: int) -> int:
    """暗刻成牌 (全家福): four concealed pungs or kongs and a pair, every tile of the hand one
    of `within`, and exactly `count` of the pungs of `among` (全家福: honours only, the three
    dragons: 大三元 + 四暗刻 + 字一色 together)."""
    if len(v.pungs) != 4 or v.pair < 0 or v.concealed_pungs != 4:
        return 0
    if not v.facts.filled().kinds <= within:
        return 0
    return 1 if sum(1 for t in v.pungs if t in among) == count else 0


@check(needs=("chow_pairs",), depends_on=keys.chows)
def chow_combination(v: View, ctx: WinContext, kind: ChowKind) -> int:
    """顺子组合 (一般高, 喜相逢, 连六, 老少副, 清龙, 花龙, 三同顺, 三步高 ...): counted under
    the rule set's combination policy (MCR: 套算一次)."""
    return v.combos.get(kind, 0)


@check(needs=("numbered_pungs",), depends_on=keys.suit_pungs_held)
def shifted_pungs(v: View, ctx: WinContext, count: int,
                  suits: Literal["same", "mixed", "some"]) -> int:
    """节高: `count` pungs of consecutive ranks, all in one suit (一色三节高/一色四节高), each
    in a different suit (三色三节高), or (`some`) in more than one suit with no three of them
    in a row all of one suit or each of a different suit (混三节: three pungs in exactly two
    suits; 混四节: four, which contain no 一色三节高 or 三色三节高)."""
    masks = v.suit_pungs()  # per suit, bit `rank` for a pung of that rank
    if count <= 1:
        return 1 if any(masks) else 0
    if suits == "some":
        return 1 if _mixed_run(masks, count) else 0
    if suits == "same":
        for m in masks:
            run = m & m >> 1
            k = 2
            while run and k < count:
                run &= m >> k
                k += 1
            if run:
                return 1
        return 0
    # Mixed: one pung in each of `count` different suits, ranks consecutive.
    if len(masks) - masks.count(0) < count:
        return 0
    for order in permutations(range(len(masks)), count):
        run = masks[order[0]]
        for k in range(1, count):
            run &= masks[order[k]] >> k
        if run:
            return 1
    return 0


def _mixed_run(masks: tuple[int, ...], count: int) -> bool:
    # A run of `count` ranks, one pung of each in some suit, no three in a row of one suit or
    # of three suits (the suits of a run may be chosen among the pungs held).
    held = [[s for s, m in enumerate(masks) if m >> r & 1] for r in range(11)]
    for start in range(1, 11 - count):
        choices = held[start:start + count]
        if not all(choices):
            continue
        for chosen in product(*choices):
            if len(set(chosen)) > 1 and all(len(set(chosen[i:i + 3])) == 2
                                            for i in range(count - 2)):
                return True
    return False


@check(needs=("numbered_pungs",), depends_on=keys.suit_pungs_held)
def same_rank_pungs(v: View, ctx: WinContext, count: int) -> int:
    """同刻: pungs of the same rank in different suits. count=3: 三同刻 (once); count=2: 双同刻,
    once for every two such pungs."""
    masks = v.suit_pungs()  # per suit, bit `rank` for a pung of that rank
    if count == 2:
        n = 0
        for i, j in combinations(range(len(masks)), 2):
            n += (masks[i] & masks[j]).bit_count()
        return n
    for chosen in combinations(masks, count):
        common = chosen[0]
        for m in chosen[1:]:
            common &= m
        if common:
            return 1
    return 0


@check(needs=("four_chows",))
def terminal_chows(v: View, ctx: WinContext, mixed: bool) -> int:
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

