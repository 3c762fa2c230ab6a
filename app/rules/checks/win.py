"""Checks on how the hand was won: self-draw, last tile, kongs, waits, concealment."""

from __future__ import annotations

from typing import Literal

from app.domain.hand import KONG_REPLACEMENT, KONG_ROBBED, PUNG, WinContext
from app.rules.checks import keys
from app.rules.checks.registry import BoolOption, PerSeatOption, TileGroup, check
from app.rules.view import Held, View

WinType = Literal["self_draw", "discard"]


@check(scope="hand", tells_apart="nothing", depends_on=keys.claimed)
def self_drawn(v: View, ctx: WinContext) -> int:
    """自摸: the winning tile was drawn by the winner."""
    return 1 if ctx.self_drawn else 0


@check(scope="hand")
def declared_melds(v: View, ctx: WinContext, exactly: int) -> int:
    """金钩钓: exactly this many melds declared, concealed kongs included (with four, the
    winner held a single tile and won on its pair)."""
    return 1 if len(v.facts.hand.melds) == exactly else 0


@check(scope="hand", depends_on=keys.claimed)
def exposed_melds(v: View, ctx: WinContext, exactly: int,
                  win_type: WinType | None = None) -> int:
    """门前清 / 不求人 / 全求人: exactly this many melds claimed from others (a concealed kong is
    not claimed), optionally only for a self-drawn or a discard win."""
    if v.facts.filled().exposed_melds != exactly:
        return 0
    if win_type is not None and ctx.win_type != win_type:
        return 0
    return 1


@check(scope="hand", needs=("last_tile",), tells_apart="nothing", depends_on=keys.claimed)
def last_tile(v: View, ctx: WinContext, win_type: WinType | None = None) -> int:
    """妙手回春 / 海底捞月 / 海底: won with the last tile of the wall, self-drawn or on the
    discard after it (`win_type` limits it to one of them)."""
    if not ctx.last_tile:
        return 0
    return 1 if win_type is None or ctx.win_type == win_type else 0


@check(scope="hand", needs=("kong_win",), tells_apart="nothing")
def kong_win(v: View, ctx: WinContext, kind: Literal["replacement", "robbed",
                                                         "after_kong_discard"]) -> int:
    """杠上开花 / 抢杠和 / 杠上炮: won on a kong's replacement tile, by robbing a kong, or on the
    discard after a kong.

    杠上开花 needs a declared kong. 抢杠和 takes the fourth tile someone adds to a pung, so the
    winner holds no other copy of it.
    """
    if ctx.kong != kind:
        return 0
    f = v.facts.filled()
    if kind == KONG_REPLACEMENT and not f.kong_tiles:
        return 0
    # The tiles as held (with wilds, `f` describes one substitution).
    held = f.physical.concealed.count(f.physical.win_tile)
    if kind == KONG_ROBBED and (f.meld_counts[f.physical.win_tile] or held > 1):
        return 0
    return 1


@check(scope="hand", tells_apart="nothing")
def first_turn(v: View, ctx: WinContext,
               winner: Literal["dealer", "other", "after_dealer", "rest"],
               win_type: WinType | None = None, players: int = 4) -> int:
    """天胡 / 地胡 / 人和: won in the first go-round (`first_turn`).

    `dealer`: the dealer's self-draw on the deal (天胡). `other`: any other player's first-turn
    win (地胡), with `win_type` only a self-drawn one (地和 of a two-player table: on the first
    tile drawn) or only one on a discard (人和: on the dealer's first discard). Where three
    seats' wins are told apart: `after_dealer`, the self-draw of the seat after the dealer
    (seat dealer + 1 of `players`) on its first draw (地和); `rest`, every other first-round
    win (人和: on a discard, another seat's first self-draw, or any win after a claim).
    `dealer`, `other` and `after_dealer` are wins on the deal or a first draw, so never with a
    claimed meld (a rule set whose first turn admits claims, `first_turn_claims`)."""
    if not ctx.first_turn:
        return 0
    claimed = v.facts.filled().exposed_melds > 0
    if claimed:
        return 1 if winner == "rest" else 0
    dealer_draw = ctx.winner == ctx.dealer and ctx.self_drawn
    if winner == "dealer":
        return 1 if dealer_draw else 0
    if win_type is not None and ctx.win_type != win_type:
        return 0
    if winner == "other":
        return 1 if ctx.winner != ctx.dealer else 0
    next_draw = ctx.winner == (ctx.dealer + 1) % players and ctx.self_drawn
    if winner == "after_dealer":
        return 1 if next_draw else 0
    return 0 if dealer_draw or next_draw else 1


@check(scope="hand")
def last_of_kind(v: View, ctx: WinContext) -> int:
    """和绝张: the winning tile is the last of its kind, its other three already in sight.

    It is so when the request says so, and always when the winner's own melds hold the other
    three; never when the winner also holds a copy among the standing tiles.
    """
    f = v.facts.filled()
    if f.hand.concealed.count(f.win_tile) > 1:
        return 0
    return 1 if ctx.last_of_kind or f.meld_counts[f.win_tile] == 3 else 0


@check(needs=("wait",), depends_on=keys.placed)
def wait(v: View, ctx: WinContext, position: Literal["edge", "closed", "single"]) -> int:
    """独听 (边张 / 嵌张 / 单钓): the hand waited on the winning tile alone, and this reading
    places it at the edge of a chow (12-3, 7-89), in its middle (4-6) or as the pair."""
    if v.wait != position:
        return 0
    return 1 if v.facts.filled().unique_wait else 0


@check()
def wait_read_or_sole(v: View, ctx: WinContext, needed: TileGroup | None = None) -> int:
    """夹 (夹 / 单吊 / 单和): this reading can place the winning tile at the edge of a chow
    (12-3, 7-89), in its middle (4-6) or as the pair, whatever else it waited on; or the hand
    waited on the winning tile alone; or, with `needed`, the hand held none of `needed`
    before the win and the winning tile is the only wait among them (it could win on no
    other tile: 缺幺九和幺九)."""
    if v.wait is not None:
        return 1
    f = v.facts.filled()
    if f.unique_wait:
        return 1
    if needed is None:
        return 0
    win = f.win_tile
    counts = f.counts
    if any(counts[t] for t in needed if t != win) or (win in needed and counts[win] > 1):
        return 0
    return 1 if f.waits & needed == {win} else 0


@check(scope="hand")
def exposed_melds_at_least(v: View, ctx: WinContext, count: int,
                           only_if: BoolOption | None = None) -> int:
    """开门: at least `count` melds claimed from others (chows, pungs, exposed kongs; a
    concealed kong is not claimed); with `only_if`, only while that bool request option is
    on (off, every hand passes: a house rule as a requirement)."""
    if only_if is not None and not ctx.options.get(only_if):
        return 1
    return 1 if v.facts.filled().exposed_melds >= count else 0


def _once(hand: Held, ctx: WinContext) -> int:
    return 1


@check(last=True, tells_apart="nothing", most=_once)
def nothing_else(v: View, ctx: WinContext) -> int:
    """无番和: the hand wins with no other fan at all (flowers aside); the engine asks this only
    after every other fan of the reading came out empty."""
    return 1


@check(scope="hand", tells_apart="nothing")
def winner_flag(v: View, ctx: WinContext, option: PerSeatOption) -> int:
    """亮倒 (and other per-seat states): the winner's entry of the per-seat request option
    `option` is set (not 0), e.g. the winner had revealed his ready hand."""
    flags = ctx.options.get(option)
    if not flags or ctx.winner >= len(flags):
        return 0
    return 1 if flags[ctx.winner] else 0


@check(scope="hand", tells_apart="nothing")
def option_on(v: View, ctx: WinContext, option: BoolOption) -> int:
    """宣告 (天听 ...): the bool request option `option` is on: a state of the game the
    request declares and the tiles cannot show (ready on the deal and declared)."""
    return 1 if ctx.options.get(option) is True else 0


@check(scope="hand")
def fourth_of_declared_pung(v: View, ctx: WinContext, any_kind: bool = False) -> int:
    """明四归一: the winning tile is the fourth copy of a kind the winner declared as a pung;
    with `any_kind`, once for every declared pung whose fourth copy is among the standing
    tiles, whatever the winning tile."""
    f = v.facts
    hand = f.hand
    pungs = [m.tiles[0] for m in hand.melds if m.kind == PUNG]
    if not pungs:
        return 0
    if any_kind:
        return sum(1 for t in pungs if t in hand.concealed)
    return 1 if f.win_tile in pungs else 0


@check(scope="hand")
def fourth_of_standing(v: View, ctx: WinContext, any_kind: bool = False) -> int:
    """暗四归一: the standing tiles held three of the winning tile, undeclared, and the win is
    the fourth; with `any_kind`, once for every kind held four times standing (never a
    declared kong), whatever the winning tile."""
    concealed = v.facts.hand.concealed
    if any_kind:
        return sum(1 for t in set(concealed) if concealed.count(t) == 4)
    return 1 if concealed.count(v.facts.win_tile) == 4 else 0


@check(needs=("pungs",))
def fourth_of_standing_pung(v: View, ctx: WinContext) -> int:
    """暗四归一 (kept as a pung): the standing tiles held three of the winning tile and the
    win is the fourth, and this reading keeps three of them as a pung (the fourth in a
    chow or the pair)."""
    win = v.facts.win_tile
    if win not in v.pungs:
        return 0
    return 1 if v.facts.hand.concealed.count(win) == 4 else 0
