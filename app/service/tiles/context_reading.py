"""Reading the context of a win: seats, flowers, wild tiles (混) and options into a
`WinContext`, checking that the context describes a win that can happen, with itself, with
the hand and under the rule set's context rules; and what wild tiles forbid in a hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from app.domain.errors import Code, HandError
from app.domain.hand import (
    DISCARD,
    KONG,
    KONG_AFTER_DISCARD,
    KONG_REPLACEMENT,
    KONG_ROBBED,
    SELF_DRAW,
    WIND_NAMES,
    Hand,
    Meld,
    WinContext,
)
from app.domain.notation import format_meld, format_tiles, parse_tile
from app.domain.tiles import TileSet
from app.rules.definitions import ContextRule
from app.rules.model import RuleSet
from app.service.option_reading import build_options
from app.service.tiles.hand_reading import ReadTile, read_field_tiles

# Hot-path named tuples are built with `tuple.__new__(Type, fields)`.
_new: Final = tuple.__new__


def build_context(data: Mapping[str, Any], hand: Hand | Sequence[Meld],
                  ruleset: RuleSet) -> WinContext:
    """The win context; ``hand`` is the hand, or for a waiting hand (no winning tile yet) its
    declared melds."""
    # The schema's reading is a dict: read as one, each field is a direct lookup.
    fields: dict[str, Any] = data if isinstance(data, dict) else dict(data)
    win_type = fields["win_type"]
    kong = fields.get("kong")
    flowers, flower_tiles = _flowers(fields.get("flowers"), ruleset)
    # Most requests give no wild tiles: told by two direct lookups.
    wild_indicator: int | None = None
    wilds: tuple[int, ...] = ()
    if fields.get("wild_indicator") or fields.get("wilds"):
        wild_indicator, wilds = _wilds(fields, ruleset)
    players = ruleset.players
    winner = _seat(fields.get("winner"), "winner", players) or 0
    dealer = _seat(fields.get("dealer"), "dealer", players) or 0
    discarder = _seat(fields.get("discarder"), "discarder", players)
    options = build_options(fields.get("options"), ruleset, dealer=dealer)
    first_turn = bool(fields.get("first_turn"))
    last_of_kind = bool(fields.get("last_of_kind"))

    _check_consistency(win_type, kong, winner, discarder, hand, ruleset)
    if last_of_kind and isinstance(hand, Hand):
        _check_last_of_kind(hand, ruleset.tileset)
    for rule in ruleset.context_rules:
        _check_context_rule(rule, win_type, winner, options)
    melds = hand.melds if isinstance(hand, Hand) else hand
    if (first_turn and not ruleset.first_turn_claims
            and any(not (m.kind == KONG and m.concealed) for m in melds)):
        raise _inconsistent(
            "context.first_turn is true but hand.melds holds a claimed meld: nothing can be "
            "claimed before a player's first turn (only a concealed kong can be declared)",
            "/context/first_turn",
        )
    seat_wind = fields.get("seat_wind")
    round_wind = fields.get("round_wind")
    # Built from a tuple in the fields' order (`tuple.__new__`, not `_make`, which is
    # Python-level code): a named tuple of fifteen fields called with keywords costs several
    # times as much (tests/service/tiles/test_requests.py checks the order on a context whose
    # fields all differ from their defaults).
    return _new(WinContext, (
        win_type,
        kong,
        bool(fields.get("last_tile")),
        last_of_kind,
        first_turn,
        WIND_NAMES[seat_wind] if seat_wind is not None else 0,
        WIND_NAMES[round_wind] if round_wind is not None else 0,
        flowers,
        flower_tiles,
        wild_indicator,
        wilds,
        winner,
        discarder,
        dealer,
        options,
    ))


def _seat(value: int | None, key: str, players: int) -> int | None:
    """A seat number in 0..players-1, or None when absent (the caller applies the default)."""
    if value is not None and not 0 <= value < players:
        raise HandError(
            Code.SEAT_OUT_OF_RANGE,
            f"context.{key} is {value}, but seats of this rule set are 0..{players - 1} "
            f"({players} players)",
            f"/context/{key}",
        )
    return value


def _flowers(value: int | str | list[str] | None,
             ruleset: RuleSet) -> tuple[int, tuple[int, ...]]:
    """Flowers as a count, or as flower tiles (a string or a list of codes)."""
    ptr = "/context/flowers"
    maximum = ruleset.max_flowers
    if value is None:
        return 0, ()
    if isinstance(value, int):
        if not 0 <= value <= maximum:
            raise _flowers_out_of_range(f"context.flowers is {value}", maximum)
        return value, ()
    tileset = ruleset.tileset
    read = _read_flower_tiles(value, tileset, ptr)
    counts: dict[int, int] = {}
    for tile, p, at in read:
        kind = tileset.kinds[tile]
        if not kind.is_flower:
            raise HandError(
                Code.NOT_A_FLOWER,
                f"{kind.code} in context.flowers is not a flower: flowers are "
                f"{format_tiles(tileset.flowers, tileset) or 'not in this tile set'}",
                p,
                at,
            )
        counts[tile] = counts.get(tile, 0) + 1
        if counts[tile] > kind.copies:
            raise HandError(
                Code.TOO_MANY_COPIES,
                f"flower {kind.code} ({kind.name_zh}) is listed {counts[tile]} times in "
                f"context.flowers, but there {'is' if kind.copies == 1 else 'are'} only "
                f"{kind.copies} of it",
                p,
                at,
            )
    if len(read) > maximum:
        raise _flowers_out_of_range(f"context.flowers lists {len(read)} flowers", maximum)
    tiles = tuple(t for t, _, _ in read)
    return len(tiles), tiles


def _read_flower_tiles(raw: str | list[str], tileset: TileSet, pointer: str) -> list[ReadTile]:
    """Like `read_field_tiles`, but a list item may hold several tiles ("15f")."""
    if isinstance(raw, str):
        return read_field_tiles(raw, tileset, pointer)
    out: list[ReadTile] = []
    for k, item in enumerate(raw):
        out += read_field_tiles(item, tileset, f"{pointer}/{k}")
    return out


def _flowers_out_of_range(what: str, maximum: int) -> HandError:
    allowed = f"0..{maximum}" if maximum else "none (this rule set plays without flowers)"
    return HandError(Code.FLOWERS_OUT_OF_RANGE,
                     f"{what}, but the allowed number is {allowed}", "/context/flowers")


def _wilds(data: Mapping[str, Any], ruleset: RuleSet) -> tuple[int | None, tuple[int, ...]]:
    """混: the flipped indicator or an explicit list, and the wild kinds they make.

    The rule set's `wild` says which of the two a request may give and how an indicator maps
    to wild kinds (天津: the indicator's kind and the next). Null or an empty list: no wilds in
    play. Returns (indicator, wild kinds sorted).
    """
    indicator: str | None = data.get("wild_indicator")
    wilds: str | list[str] | None = data.get("wilds")
    if not indicator and not wilds:
        return None, ()
    spec = ruleset.wild
    given = [(key, value) for key, value in (("wild_indicator", indicator), ("wilds", wilds))
             if value]
    if spec is None:
        for key, _ in given:
            raise HandError(
                Code.WILDS_NOT_SUPPORTED,
                f"rule set {ruleset.id} plays without wild tiles (混); omit context.{key} "
                f"or set it to null",
                f"/context/{key}",
            )
        return None, ()
    if len(given) == 2:
        raise _inconsistent(
            "context.wild_indicator and context.wilds are both given; give one of them",
            "/context/wilds")
    if indicator and spec.indicator is None:
        raise HandError(
            Code.WILDS_NOT_SUPPORTED,
            f"rule set {ruleset.id} takes its wild tiles as a list in context.wilds, not from "
            f"an indicator; omit context.wild_indicator",
            "/context/wild_indicator")
    if wilds and not spec.explicit:
        raise HandError(
            Code.WILDS_NOT_SUPPORTED,
            f"rule set {ruleset.id} derives its wild tiles from the flipped tile: give it as "
            f"context.wild_indicator and omit context.wilds",
            "/context/wilds")
    tileset = ruleset.tileset
    if indicator:
        ind = parse_tile(indicator, tileset, "/context/wild_indicator")
        if tileset.kinds[ind].is_flower:
            raise HandError(Code.INVALID_FIELD,
                            "context.wild_indicator must be a playing tile, not a flower",
                            "/context/wild_indicator")
        return ind, spec.kinds(ind, tileset.next_kinds)
    wild_tiles: set[int] = set()
    if wilds:
        for tile, ptr, at in read_field_tiles(wilds, tileset, "/context/wilds"):
            if tileset.kinds[tile].is_flower:
                raise HandError(
                    Code.INVALID_FIELD,
                    f"{tileset.code(tile)} in context.wilds is a flower; wilds are playing tiles",
                    ptr,
                    at,
                )
            wild_tiles.add(tile)
    return None, tuple(sorted(wild_tiles))


def build_round_wilds(data: Mapping[str, Any],
                      ruleset: RuleSet) -> tuple[int | None, tuple[int, ...]]:
    """A settle request's ``wild_indicator`` / ``wilds`` (one flipped tile for the whole
    round), read as a context's are: (indicator, wild kinds). Errors point at the request's
    own fields (``/wild_indicator``)."""
    try:
        return _wilds(data, ruleset)
    except HandError as exc:
        raise HandError(exc.code, exc.message.replace("context.", ""),
                        exc.pointer.replace("/context", "", 1), exc.position) from None


def check_wild_tiles(standing: Sequence[int], melds: Sequence[Meld], ctx: WinContext,
                     ruleset: RuleSet, hand_data: object) -> None:
    """What wild tiles forbid in a hand:

    - the flipped indicator is out of play (天津): with it, no kind appears more than four
      times, so the hand holds at most three of the indicator's kind (``too_many_copies``);
    - wild tiles are never claimed or melded, except four of them of one kind as a concealed
      kong (金杠) (``illegal_meld``).
    """
    spec = ruleset.wild
    if spec is None or not ctx.wilds:
        return
    tileset = ruleset.tileset
    ind = ctx.wild_indicator
    if ind is not None and spec.indicator_out_of_play:
        held = sum(1 for t in standing if t == ind) + sum(
            1 for m in melds for t in m.tiles if t == ind)
        copies = tileset.kinds[ind].copies
        if held + 1 > copies:
            raise HandError(
                Code.TOO_MANY_COPIES,
                f"{tileset.code(ind)} appears {held} times in the hand, but one "
                f"{tileset.code(ind)} is the flipped wild indicator: at most {copies - 1} are "
                f"in play",
                "/context/wild_indicator")
    wild_kinds = set(ctx.wilds)
    for i, m in enumerate(melds):
        if any(t in wild_kinds for t in m.tiles) and not (m.kind == KONG and m.concealed):
            raise HandError(
                Code.ILLEGAL_MELD,
                f"{format_meld(m.tiles, tileset)} is made of wild tiles (混): wilds cannot be "
                f"claimed or melded; four of one kind may only be a concealed kong (金杠)",
                "/hand" if isinstance(hand_data, str) else f"/hand/melds/{i}")


def _check_context_rule(rule: ContextRule, win_type: str, winner: int,
                        options: Mapping[str, Any]) -> None:
    """A rule set's condition on the context under some options (冲宝 and 摸宝: a
    self-drawn win by a player who had declared ready)."""
    if not all(c.holds(options) for c in rule.when):
        return
    chosen = ", ".join(f"options.{c.option} {options.get(c.option)!r}" for c in rule.when)
    if rule.win_type is not None and win_type != rule.win_type:
        raise _inconsistent(f"with {chosen}, context.win_type must be {rule.win_type} "
                            f"(got {win_type}): {rule.message}", "/context/win_type")
    if rule.winner_set is not None:
        flags = options.get(rule.winner_set) or ()
        if winner >= len(flags) or not flags[winner]:
            raise _inconsistent(f"with {chosen}, the winner's entry of options."
                                f"{rule.winner_set} must be set (seat {winner}): "
                                f"{rule.message}", f"/context/options/{rule.winner_set}")


def _check_consistency(win_type: str, kong: str | None, winner: int, discarder: int | None,
                       hand: Hand | Sequence[Meld], ruleset: RuleSet) -> None:
    """The context must describe a win that can happen (as far as it can be judged without
    the winning tile, for a waiting hand)."""
    melds = hand.melds if isinstance(hand, Hand) else hand
    if win_type == DISCARD and discarder is None:
        raise _inconsistent(
            "context.win_type is discard but context.discarder is missing: give the seat that "
            "discarded the winning tile",
            "/context/discarder",
        )
    if win_type == SELF_DRAW and discarder is not None:
        raise _inconsistent(
            f"context.discarder is {discarder} but context.win_type is self_draw: nobody "
            f"discards on a self-drawn win; omit context.discarder or set it to null",
            "/context/discarder",
        )
    if discarder is not None and discarder == winner:
        raise _inconsistent(
            f"context.discarder equals context.winner (seat {winner}): a player cannot win on "
            f"their own discard",
            "/context/discarder",
        )
    if kong is None:
        return
    # 抢杠和 and 杠上炮 win on a tile another player gave up, so they are discard wins;
    # 杠上开花 wins on the winner's own replacement draw, so it is a self-draw.
    needs = SELF_DRAW if kong == KONG_REPLACEMENT else DISCARD
    if win_type != needs:
        raise _inconsistent(
            f"context.kong is {kong} ({_KONG_ZH[kong]}), which needs context.win_type {needs}, "
            f"but context.win_type is {win_type}",
            "/context/kong",
        )
    if kong == KONG_REPLACEMENT and not any(m.kind == KONG for m in melds):
        raise _inconsistent(
            "context.kong is replacement (杠上开花) but hand.melds declares no kong: the "
            "winning tile must be the replacement drawn after the winner's own kong",
            "/context/kong",
        )
    if kong == KONG_ROBBED and isinstance(hand, Hand):
        # The robbed tile is the fourth of a pung another player is extending to a kong, so
        # the other three copies are in that pung and the winner cannot hold another.
        w = hand.win_tile
        others = hand.concealed.count(w) - 1 + sum(m.tiles.count(w) for m in hand.melds)
        if others > 0:
            tileset = ruleset.tileset
            raise _inconsistent(
                f"context.kong is robbed (抢杠和) but the hand holds another "
                f"{tileset.code(w)} besides hand.win_tile: the robbed tile is the fourth "
                f"{tileset.code(w)}, the other three being in the pung that was extended",
                "/context/kong",
            )


def _check_last_of_kind(hand: Hand, tileset: TileSet) -> None:
    """和绝张 wins on the last copy of a kind whose other three are in sight: in the
    discards, or in melds laid open on the table (the winner's own declared melds among
    them). A copy among the winner's standing tiles besides the winning tile is hidden, so
    the winning tile cannot be the last: the request contradicts itself."""
    w = hand.win_tile
    if hand.concealed.count(w) > 1:
        raise _inconsistent(
            f"context.last_of_kind is true (和绝张) but the standing tiles hold another "
            f"{tileset.code(w)} besides hand.win_tile: the last of a kind is won when its "
            f"other three are in sight, and a copy in the hand is not; set last_of_kind "
            f"false",
            "/context/last_of_kind",
        )


_KONG_ZH: Final = {KONG_REPLACEMENT: "杠上开花", KONG_ROBBED: "抢杠和",
                   KONG_AFTER_DISCARD: "杠上炮"}


def _inconsistent(message: str, pointer: str) -> HandError:
    return HandError(Code.INCONSISTENT_CONTEXT, message, pointer)
