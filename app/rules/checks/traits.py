"""Checks on which tiles the whole hand holds (suits, ranks, honours): the same in every reading."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.domain.hand import WinContext
from app.domain.tiles import TileSet
from app.rules.checks import keys
from app.rules.checks.registry import PerSeatOption, TileGroup, check, group_tile_set
from app.rules.view import View

# What these checks see of a group, for hands with wild tiles (see `check(tells_apart=)`):
# they look at the whole hand's tiles, so at each group's tiles.


def _category(kind: str, tile: int, tileset: TileSet, win: object, **params: Any) -> int:
    # A group's tiles are of one category: a numbered suit, winds or dragons.
    return tileset.category[tile]


def _within(kind: str, tile: int, tileset: TileSet, win: object, *,
            tiles: frozenset[int]) -> bool:
    return group_tile_set(kind, tile) <= tiles


def _one_of(t: int, tileset: TileSet, *, tiles: frozenset[int]) -> bool:
    return t in tiles


@check(scope="hand", tells_apart=_within, each_kind=_one_of)
def tiles_within(v: View, ctx: WinContext, tiles: TileGroup) -> int:
    """限定牌 (绿一色, 断幺, 全大 ...): every tile of the hand, melds included, is one of
    `tiles`."""
    return 1 if v.facts.filled().kinds <= tiles else 0


@check(scope="hand", tells_apart=_category, depends_on=keys.categories_held)
def one_suit(v: View, ctx: WinContext, honors: bool) -> int:
    """清一色 / 混一色: one numbered suit only, with (混) or without (清) honours."""
    f = v.facts.filled()
    return 1 if len(f.suits) == 1 and f.has_honors == honors else 0


def _suit_within(kind: str, tile: int, tileset: TileSet, win: object, *,
                 tiles: frozenset[int]) -> tuple[int, bool]:
    return tileset.category[tile], group_tile_set(kind, tile) <= tiles


@check(scope="hand", tells_apart=_suit_within)
def one_suit_within(v: View, ctx: WinContext, tiles: TileGroup) -> int:
    """清一色限定牌 (大车轮: 清一色 and 断幺九): one numbered suit only, no honours, and every
    tile of the hand, melds included, one of `tiles`."""
    f = v.facts.filled()
    return 1 if len(f.suits) == 1 and not f.has_honors and f.kinds <= tiles else 0


@check(scope="hand", tells_apart=_category, depends_on=keys.categories_held)
def voided_suit(v: View, ctx: WinContext) -> int:
    """缺一门: at least one of the numbered suits is missing from the hand."""
    return 1 if len(v.facts.filled().suits) < 3 else 0


@check(scope="hand", tells_apart=_category, depends_on=keys.categories_held)
def suits_at_most(v: View, ctx: WinContext, count: int) -> int:
    """定缺: the hand, melds included, holds tiles of at most `count` numbered suits."""
    return 1 if len(v.facts.filled().suits) <= count else 0


def declared_suit(options: Mapping[str, Any], option: str, seat: int) -> str | None:
    """The suit `seat` declared void (定缺): its entry of the per-seat option `option`, a
    suit letter, or None when it declared none (or the request's seats do not reach it)."""
    entries = options.get(option)
    if not entries or not 0 <= seat < len(entries):
        return None
    suit = entries[seat]
    return suit if isinstance(suit, str) else None


def holds_suit(tiles: frozenset[int] | set[int], suit: str, tileset: TileSet) -> bool:
    """Whether some tile of `tiles` is of the numbered suit `suit` (a suit letter)."""
    kinds = tileset.kinds
    return any(kinds[t].suit == suit for t in tiles)


# Not `depends_on=keys.categories_held`: the answer depends on the request's declaration too.
@check(scope="hand", tells_apart=_category)
def lacks_declared_suit(v: View, ctx: WinContext, option: PerSeatOption) -> int:
    """定缺 (declared at the table): the hand, melds included, holds no tile of the suit the
    winner declared void, the winner's entry of the per-seat option `option` (a suit letter,
    m, p or s); a winner who declared none passes."""
    suit = declared_suit(ctx.options, option, ctx.winner)
    if suit is None:
        return 1
    return 0 if holds_suit(v.facts.filled().kinds, suit, v.facts.tileset) else 1


@check(scope="hand", tells_apart=_category, depends_on=keys.categories_held)
def suits_at_least(v: View, ctx: WinContext, count: int) -> int:
    """三门齐 (缺门不和): the hand, melds included, holds tiles of at least `count` numbered
    suits."""
    return 1 if len(v.facts.filled().suits) >= count else 0


def _meets(kind: str, tile: int, tileset: TileSet, win: object, *,
           tiles: frozenset[int]) -> bool:
    return not group_tile_set(kind, tile).isdisjoint(tiles)


@check(scope="hand", tells_apart=_meets)
def holds_some(v: View, ctx: WinContext, tiles: TileGroup) -> int:
    """有幺九 (and other tiles a hand must hold): some tile of the hand, melds and the winning
    tile included, is one of `tiles`."""
    return 0 if v.facts.filled().kinds.isdisjoint(tiles) else 1


@check(scope="hand", tells_apart=_category, depends_on=keys.categories_held)
def no_honors(v: View, ctx: WinContext) -> int:
    """无字: the hand holds no wind or dragon."""
    return 0 if v.facts.filled().has_honors else 1


@check(scope="hand", tells_apart=_category, depends_on=keys.categories_held)
def all_types(v: View, ctx: WinContext) -> int:
    """五门齐: all three numbered suits, a wind and a dragon are in the hand."""
    f = v.facts.filled()
    return 1 if len(f.suits) == 3 and f.has_winds and f.has_dragons else 0


@check(scope="hand")
def tile_hog(v: View, ctx: WinContext, once: bool = False) -> int:
    """四归一: all four copies of a tile are used in the hand without being a kong; counts each
    (`once`: 1 for a hand holding any such four, as 龙七对's extra fan)."""
    f = v.facts.filled()
    if not f.fours:
        return 0
    hogs = sum(1 for t in f.fours if t not in f.kong_tiles)
    return min(hogs, 1) if once else hogs


@check(scope="hand", tells_apart="nothing")
def flowers(v: View, ctx: WinContext) -> int:
    """花牌: one for each flower the winner has set aside."""
    return ctx.flowers
