"""Checks on how a hand used its wild tiles (混), and the 龙 of wild-tile games.

A reading of a hand with wilds names the winning tile's group (`View.win_group`) and what the
winning tile is read as (`View.facts.win_tile`); each group's `subs` are the tiles its wilds
stand for. In a hand without wilds `win_group` is None and the winning tile is itself.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from app.domain.hand import CHOW, KONG, WinContext
from app.domain.readings import PAIR
from app.domain.shanten import regular_need
from app.domain.tiles import TileSet
from app.rules.checks.registry import TileGroup, check
from app.rules.view import Held, View

_SIZE = {PAIR: 2, KONG: 4}

# The regular need of what a `most` below leaves of a hand, by those counts: the hands one
# request scores (a discard analysis, a hand's waits) differ by a tile or two, and leave the
# same counts again and again. Bounded, emptied when full.
NEEDS_LIMIT: Final = 1024
_NEEDS: Final[dict[tuple[tuple[int, ...], int, TileSet], int]] = {}


def _need(rest: list[int], n_melds: int, ts: TileSet) -> int:
    """`regular_need` of `rest`, remembered (`_NEEDS`)."""
    key = (tuple(rest), n_melds, ts)
    found = _NEEDS.get(key)
    if found is None:
        if len(_NEEDS) >= NEEDS_LIMIT:
            _NEEDS.clear()  # a plain bound: an entry is worked out again alike
        found = _NEEDS[key] = regular_need(rest, n_melds, ts)
    return found


def needs_held() -> int:
    """How many needs are remembered (`app.scoring.memory`)."""
    return len(_NEEDS)


def forget_needs() -> None:
    """Forget the remembered needs (`_NEEDS`)."""
    _NEEDS.clear()


def _wild_wait_key(kind: str, tile: int, tileset: TileSet, win: tuple[int, int] | None,
                   **params: Any) -> bool | None:
    return None if win is None else win[1] == _SIZE.get(kind, 3) - 1


def _wild_wait_most(hand: Held, ctx: WinContext) -> int:
    # Wilds besides the winning tile complete its group, as a set (two of them) or as the
    # pair (one), and the rest of the hand still completes: on the counts alone, a kind the
    # rest lacks standing in for the pair (which may also allow readings that are not
    # there: this is a bound).
    others = hand.wilds - (1 if hand.win_wild else 0)
    if others < 1:
        return 0
    ts = hand.tileset
    rest = hand.naturals[:]
    if not hand.win_wild:
        rest[hand.win_tile] -= 1
    if others >= 2 and _need(rest, hand.melds + 1, ts) <= others - 2:
        return 1
    stand_in = next((t for t in ts.playing if not rest[t]), None)
    if stand_in is None:  # every kind held: no bound on the counts alone
        return 1
    rest[stand_in] += 2
    return 1 if _need(rest, hand.melds, ts) <= others - 1 else 0


@check(tells_apart=_wild_wait_key, most=_wild_wait_most)
def wild_wait(v: View, ctx: WinContext) -> int:
    """混儿吊: the winning tile completes its group only together with wild tiles (one wild
    as the pair, 单混儿吊; two wilds as a set, 双混儿吊), so any tile would have won.

    A wild drawn as the winning tile counts when the rest of its group is wild too.
    """
    g = v.win_group
    if g is None:
        return 0
    others = len(g.subs) - (1 if v.facts.win_wild else 0)
    return 1 if others == _SIZE.get(g.kind, 3) - 1 else 0


@check(scope="hand", tells_apart="nothing")
def no_wilds(v: View, ctx: WinContext) -> int:
    """素 (没混儿): the winning hand holds no wild tile at all, melds included."""
    return 0 if v.facts.wild_count else 1


def _middle_key(kind: str, tile: int, tileset: TileSet, win: tuple[int, int] | None, *,
                tiles: frozenset[int]) -> bool | None:
    return None if win is None else kind == CHOW and tile + 1 == win[0] and win[0] in tiles


def _middle_most(hand: Held, ctx: WinContext, *, tiles: frozenset[int]) -> int:
    # The winning tile (or a wild drawn last) as one of `tiles` in the middle of a chow whose
    # other tiles are natural or wild, and the rest of the hand still completes.
    ts = hand.tileset
    for middle in sorted(tiles):
        kind = ts.kinds[middle]
        if not kind.is_number or kind.rank in (1, 9):
            continue
        if not hand.win_wild and hand.win_tile != middle:
            continue
        rest = hand.naturals[:]
        wilds = hand.wilds
        if hand.win_wild:
            wilds -= 1
        else:
            rest[middle] -= 1
        for side in (middle - 1, middle + 1):
            if rest[side]:
                rest[side] -= 1
            elif wilds:
                wilds -= 1
            else:
                break
        else:
            if _need(rest, hand.melds + 1, ts) <= wilds:
                return 1
    return 0


@check(needs=("chows",), tells_apart=_middle_key, most=_middle_most)
def win_in_chow_middle(v: View, ctx: WinContext, tiles: TileGroup) -> int:
    """捉五 (捉五魁): the winning tile, read as one of `tiles` (天津: 5万), sits in the middle
    of a chow (4万-5万-6万); the chow's other tiles may be wilds, and so may the winning tile
    itself."""
    win = v.facts.win_tile
    if win not in tiles:
        return 0
    g = v.win_group
    if g is not None:
        return 1 if g.kind == CHOW and g.tile + 1 == win else 0
    # Without wilds the winning tile may be any copy of its kind in a standing chow.
    for group in v.groups:
        if group.kind == CHOW and not group.declared and group.tile + 1 == win:
            return 1
    return 0


def _straight_key(kind: str, tile: int, tileset: TileSet, win: tuple[int, int] | None,
                  **params: Any) -> int | None:
    # Only the chows 123, 456 and 789 can be part of a 龙.
    if kind == CHOW and tileset.kinds[tile].rank in (1, 4, 7):
        return tile
    return None


def _chows_and_wilds(v: View, ctx: WinContext) -> tuple[tuple[int, ...], tuple[int, ...]]:
    # What 龙 reads: the chows; and 本混龙 the suit of the wild tiles.
    return v.chows, ctx.wilds


def _straight_starts(ts: TileSet, ctx: WinContext, suit: str) -> list[int]:
    # The first tile of each suit a 龙 may be of.
    if suit == "wild":
        if not ctx.wilds or not ts.kinds[ctx.wilds[0]].is_number:
            return []
        return [ts.suit_starts[ts.kinds[ctx.wilds[0]].suit]]
    return [ts.suit_starts[s] for s in ts.suits]


def _straight_most(hand: Held, ctx: WinContext, *,
                   suit: Literal["any", "wild"] = "any") -> int:
    # 1 to 9 of a suit among the standing tiles (natural tiles first, wilds for the rest), and
    # what is left still completes the hand with the wilds left (the tile counts alone: a
    # wild's fifth copy is not ruled out, so this may allow a 龙 no reading has).
    if hand.melds > 1:  # the three chows and the declared melds are more than four sets
        return 0
    ts = hand.tileset
    for start in _straight_starts(ts, ctx, suit):
        rest = hand.naturals[:]
        missing = 0
        for t in range(start, start + 9):
            if rest[t]:
                rest[t] -= 1
            else:
                missing += 1
        if missing <= hand.wilds and _need(rest, hand.melds + 3, ts) <= (
                hand.wilds - missing):
            return 1
    return 0


def _straight_readings(keys: tuple[Any, ...], tileset: TileSet, *,
                       suit: Literal["any", "wild"] = "any") -> tuple[int, ...]:
    # The first chow of each suit holding all three chows of a 龙 (the keys are the first
    # tiles of the chows 123, 456 and 789): which suit may count decides the rest (the wild
    # tiles' suit, from the context).
    starts = {k for k in keys if k is not None}
    return tuple(sorted(s for s in starts
                        if tileset.kinds[s].rank == 1 and s + 3 in starts and s + 6 in starts))


@check(needs=("chows",), tells_apart=_straight_key, depends_on=_chows_and_wilds,
       most=_straight_most, tells_readings_apart=_straight_readings)
def straight(v: View, ctx: WinContext, suit: Literal["any", "wild"] = "any") -> int:
    """龙 (一条龙) / 本混龙: 123, 456 and 789 of one suit as three chows (wilds may fill them);
    with `suit: wild`, only in the suit of the wild tiles (本混龙)."""
    chows = v.chows
    if len(chows) < 3:
        return 0
    for start in _straight_starts(v.facts.tileset, ctx, suit):
        if start in chows and start + 3 in chows and start + 6 in chows:
            return 1
    return 0
