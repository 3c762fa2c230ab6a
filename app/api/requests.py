"""Turning a decoded score request into domain values, checking that it is a real hand.

The API layer's schema has already checked JSON types and enums; `build` re-checks the
semantics a schema cannot express (tile notation, counts, meld shapes, seats, the consistency
of the win context) and reports the first problem as a `HandError` with a stable code, a
message that names the offending tile or field, and a JSON pointer to that field. It also
re-checks types cheaply, so that a caller that bypasses the schema (another endpoint, a test)
still gets a `HandError` (`invalid_field` / `missing_field`) and never a crash.

`build_waiting` does the same for a hand one tile short of a win (the waits request): 13 - 3
per meld standing tiles and no winning tile, the same checks otherwise.

Checks run in this order, so the same request always reports the same error: the hand's
fields one by one (notation, flowers, meld shapes, number of melds), then the tile count,
copies of each kind and the winning tile, then the context's fields, then the consistency of
the context with itself and with the hand.

For optional fields JSON null means "use the default".

Error codes (all answered 422):

- ``invalid_notation``, ``unknown_tile``: from the notation parser, pointing at the field
  (and, inside a string, the position);
- ``flower_in_hand``: a flower among the standing tiles, a meld or the winning tile;
- ``illegal_meld``: a meld whose tiles do not make its kind, a wrong number of tiles for the
  kind, or ``concealed: true`` on a chow or pung;
- ``too_many_melds``: more than 4 declared melds;
- ``wrong_tile_count``: standing tiles other than 14 - 3 per meld (13 - 3 per meld for a
  waiting hand);
- ``too_many_copies``: more copies of a kind than the tile set has (also a flower listed
  twice in ``context.flowers``);
- ``win_tile_missing``: ``hand.win_tile`` is not among the standing tiles (or a hand string
  has nothing outside brackets);
- ``seat_out_of_range``: winner, discarder or dealer outside 0..players-1;
- ``flowers_out_of_range``: more flowers than the rule set allows;
- ``not_a_flower``: a non-flower tile listed in ``context.flowers``;
- ``wilds_not_supported``: a wild indicator or wild tiles for a rule set without wilds, or
  the one of the two the rule set does not take; both given is ``inconsistent_context``; all
  four of an out-of-play indicator's kind is ``too_many_copies``, a meld of wild tiles other
  than a concealed kong ``illegal_meld`` (`check_wild_tiles`);
- ``unknown_option``, ``invalid_option``: ``context.options`` against the rule set's options
  (a per-seat option's entry is pointed at by its index: ``/context/options/pulls/2``; an
  entry the dealer may not have, by the dealer's seat);
- ``inconsistent_context``: a win that cannot happen (see `_check_consistency`);
- ``missing_field``, ``invalid_field``: a required field absent, or a value of the wrong type
  or outside its enum (normally caught by the API schema first).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.domain.errors import HandError, NotationError
from app.domain.hand import (
    CHOW,
    DISCARD,
    KONG,
    KONG_AFTER_DISCARD,
    KONG_FLAGS,
    KONG_REPLACEMENT,
    KONG_ROBBED,
    MELD_KINDS,
    SELF_DRAW,
    WIN_TYPES,
    Hand,
    Meld,
    WinContext,
)
from app.domain.notation import (
    format_meld,
    format_tiles,
    meld_kind,
    parse_hand_string,
    parse_tile,
    scan_tiles,
)
from app.domain.tiles import TileSet
from app.rules.model import OptionDef, RuleSet

# A hand is 14 tiles; each declared meld takes 3 of them off the standing tiles (a kong's
# fourth tile is the replacement draw, so a kong also counts as 3).
HAND_SIZE = 14
MAX_MELDS = 4

# Seat and round winds by letter or Chinese name (东, or 东风): index into `WINDS`.
_WIND_INDEX: dict[str, int] = {
    name: i
    for i, (letter, zh) in enumerate((("E", "东"), ("S", "南"), ("W", "西"), ("N", "北")))
    for name in (letter, zh, zh + "风")
}

_MISSING = object()


def build(
    hand_data: str | Mapping[str, Any], context_data: Mapping[str, Any], ruleset: RuleSet
) -> tuple[Hand, WinContext]:
    """Validate a decoded request's ``hand`` and ``context`` into a `Hand` and a `WinContext`.

    ``hand_data`` is a whole-hand notation string or a dict with ``concealed`` (string or
    list of tile codes, including the winning tile), ``melds`` (list of ``{kind, tiles,
    concealed}``) and optionally ``win_tile`` (default: the last standing tile written).
    ``context_data`` follows DESIGN §3 (``win_type`` required, everything else defaulted).
    Raises `HandError` (or its subclass `NotationError`) on the first problem found.
    """
    hand = _build_hand(hand_data, ruleset.tileset)
    check_meld_kinds(hand.melds, hand_data, ruleset)
    context = _build_context(context_data, hand, ruleset)
    check_wild_tiles(hand.concealed, hand.melds, context, ruleset, hand_data)
    return hand, context


def check_meld_kinds(melds: tuple[Meld, ...], hand_data: object, ruleset: RuleSet) -> None:
    """A rule set may not let players declare some kinds of meld (四川: no 吃, so no chow)."""
    for i, meld in enumerate(melds):
        if meld.kind not in ruleset.meld_kinds:
            pointer = "/hand" if isinstance(hand_data, str) else f"/hand/melds/{i}"
            allowed = ", ".join(ruleset.meld_kinds)
            raise HandError(
                "illegal_meld",
                f"{ruleset.name} ({ruleset.id}) does not allow a declared {meld.kind} "
                f"({format_meld(meld.tiles, ruleset.tileset)}); declared melds may be: "
                f"{allowed}",
                pointer,
            )


def build_waiting(
    hand_data: str | Mapping[str, Any], context_data: Mapping[str, Any], ruleset: RuleSet
) -> tuple[tuple[int, ...], tuple[Meld, ...], WinContext]:
    """Validate a waits request: a hand one tile short of a win, and the context of the win.

    As `build`, but the standing tiles are 13 - 3 per meld and there is no winning tile: in
    the object form ``win_tile`` is refused (``invalid_field``), in a notation string every
    tile outside brackets is a standing tile. The same codes otherwise. The context checks
    that need the winning tile (``robbed`` while holding another copy of it) cannot apply; the
    scoring of each completing tile leaves out what its context rules out.
    Returns (standing tiles, declared melds, context).
    """
    standing, melds, _ = _read_hand(hand_data, ruleset.tileset, waiting=True)
    check_meld_kinds(melds, hand_data, ruleset)
    context = _build_context(context_data, melds, ruleset)
    check_wild_tiles(standing, melds, context, ruleset, hand_data)
    return standing, melds, context


# ---------------------------------------------------------------------------------------------
# The hand


def _build_hand(data: object, tileset: TileSet) -> Hand:
    standing, melds, win_tile = _read_hand(data, tileset, waiting=False)
    assert win_tile is not None
    return Hand(standing, melds, win_tile)


def _read_hand(
    data: object, tileset: TileSet, *, waiting: bool
) -> tuple[tuple[int, ...], tuple[Meld, ...], int | None]:
    """(standing tiles, melds, winning tile); a waiting hand is one tile short and has no
    winning tile (None)."""
    win_tile: int | None
    if isinstance(data, str):
        standing, melds, win_tile = _parse_hand_string(data, tileset, waiting)
        standing_ptr = "/hand"
        meld_ptrs = ["/hand"] * len(melds)
        if len(melds) > MAX_MELDS:
            raise _too_many_melds(len(melds), "/hand")
    elif isinstance(data, Mapping):
        standing_ptr = "/hand/concealed"
        standing = _read_standing(_required(data, "concealed", "/hand"), tileset, standing_ptr)
        raw_melds = data.get("melds")
        if raw_melds is None:
            raw_melds = []
        if not isinstance(raw_melds, list | tuple):
            raise _invalid("/hand/melds", "hand.melds must be a list of melds")
        if len(raw_melds) > MAX_MELDS:
            raise _too_many_melds(len(raw_melds), "/hand/melds")
        meld_ptrs = [f"/hand/melds/{k}" for k in range(len(raw_melds))]
        melds = [_read_meld(m, tileset, p) for m, p in zip(raw_melds, meld_ptrs, strict=True)]
        if waiting and "win_tile" in data:
            raise _invalid(
                "/hand/win_tile",
                "hand.win_tile is not allowed here: a waiting hand is one tile short and has no "
                "winning tile yet; every tile that completes it is tried",
            )
        win_tile = _read_win_tile(data.get("win_tile"), tileset)
    else:
        raise _invalid(
            "/hand",
            "hand must be a notation string such as \"[123p]1112345678m9m\" or an object "
            "with concealed, melds and win_tile",
        )

    if len(standing) != _needed(len(melds), waiting):
        where = "outside brackets in hand" if standing_ptr == "/hand" else "in hand.concealed"
        raise _wrong_tile_count(f"{len(standing)} standing tile{_s(len(standing))} {where}",
                                len(melds), waiting, standing_ptr)
    _check_copies(standing, standing_ptr, melds, meld_ptrs, tileset)

    if waiting:
        return tuple(standing), tuple(melds), None
    if win_tile is None:
        # Default: the last tile written, as in the whole-hand notation.
        win_tile = standing[-1]
    elif win_tile not in standing:
        raise HandError(
            "win_tile_missing",
            f"hand.win_tile {tileset.code(win_tile)} is not among the standing tiles "
            f"({format_tiles(standing, tileset)}): hand.concealed must include the winning tile",
            "/hand/win_tile",
        )
    return tuple(standing), tuple(melds), win_tile


def _needed(n_melds: int, waiting: bool) -> int:
    return HAND_SIZE - (1 if waiting else 0) - 3 * n_melds


def _wrong_tile_count(what: str, n_melds: int, waiting: bool, pointer: str) -> HandError:
    if waiting:
        rule = ("13 minus 3 per meld, a kong counting as 3: a waiting hand is one tile short "
                "of a win")
    else:
        rule = ("14 minus 3 per meld, a kong counting as 3; the standing tiles include the "
                "winning tile")
    return HandError(
        "wrong_tile_count",
        f"{what}, but {_needed(n_melds, waiting)} are needed with {n_melds} declared "
        f"meld{_s(n_melds)} ({rule})",
        pointer,
    )


def _parse_hand_string(
    text: str, tileset: TileSet, waiting: bool
) -> tuple[list[int], list[Meld], int | None]:
    """Whole-hand notation; for a waiting hand every tile outside brackets is standing."""
    if not waiting:
        return parse_hand_string(text, tileset, "/hand")
    try:
        standing, melds, _ = parse_hand_string(text, tileset, "/hand")
    except NotationError as exc:
        if exc.code != "win_tile_missing":
            raise
        # The parser read every meld before it found nothing outside the brackets, so each
        # opening bracket is one well-formed meld.
        n_melds = text.count("[") + text.count("{")
        if n_melds > MAX_MELDS:
            raise _too_many_melds(n_melds, "/hand") from None
        raise _wrong_tile_count("no standing tiles are written outside brackets in hand",
                                n_melds, True, "/hand") from None
    return standing, melds, None


def _read_standing(raw: object, tileset: TileSet, pointer: str) -> list[int]:
    tiles = _read_tiles(raw, tileset, pointer, "hand.concealed")
    for tile, ptr, at in tiles:
        if tileset.kinds[tile].is_flower:
            raise _flower_in_hand(tileset, tile, ptr, at)
    return [t for t, _, _ in tiles]


def _read_tiles(
    raw: object, tileset: TileSet, pointer: str, field: str
) -> list[tuple[int, str, int | None]]:
    """Tiles of a string or list field, each with the pointer and position it was written at."""
    if isinstance(raw, str):
        tiles, positions = scan_tiles(raw, tileset, pointer=pointer)
        return [(t, pointer, at) for t, at in zip(tiles, positions, strict=True)]
    if isinstance(raw, list | tuple):
        out: list[tuple[int, str, int | None]] = []
        for k, item in enumerate(raw):
            ptr = f"{pointer}/{k}"
            if not isinstance(item, str):
                raise _invalid(ptr, f"{field}[{k}] must be one tile code such as \"5m\" or \"E\"")
            out.append((parse_tile(item, tileset, ptr), ptr, None))
        return out
    raise _invalid(pointer, f"{field} must be a string of tiles or a list of tile codes")


def _read_meld(raw: object, tileset: TileSet, pointer: str) -> Meld:
    name = _field_name(pointer)
    if not isinstance(raw, Mapping):
        raise _invalid(pointer, f"{name} must be an object with kind, tiles and concealed")
    kind = _required(raw, "kind", pointer)
    if kind not in MELD_KINDS:
        raise _invalid(f"{pointer}/kind", f"{name}.kind must be one of chow, pung, kong")
    tiles_ptr = f"{pointer}/tiles"
    read = _read_tiles(_required(raw, "tiles", pointer), tileset, tiles_ptr, f"{name}.tiles")
    for tile, ptr, at in read:
        if tileset.kinds[tile].is_flower:
            raise _flower_in_hand(tileset, tile, ptr, at)
    tiles = [t for t, _, _ in read]
    concealed = raw.get("concealed")
    if concealed is None:
        concealed = False
    if not isinstance(concealed, bool):
        raise _invalid(f"{pointer}/concealed", f"{name}.concealed must be true or false")

    written = format_meld(tiles, tileset) or "no tiles"
    size = 4 if kind == KONG else 3
    if len(tiles) != size:
        raise HandError(
            "illegal_meld",
            f"{name} is a {kind}, which has {size} tiles, but {len(tiles)} "
            f"{'was' if len(tiles) == 1 else 'were'} given ({written})",
            tiles_ptr,
        )
    actual = meld_kind(tiles, tileset)
    if actual != kind:
        if kind == CHOW:
            if any(not tileset.kinds[t].is_number for t in tiles):
                why = "honours never form a chow"
            else:
                why = "a chow is 3 consecutive tiles of one numbered suit"
        elif kind == KONG:
            why = "a kong is 4 identical tiles"
        else:
            why = "a pung is 3 identical tiles"
        seen = f" ({written} is a {actual})" if actual else ""
        raise HandError(
            "illegal_meld", f"{name} {written} is not a {kind}: {why}{seen}", tiles_ptr
        )
    if concealed and kind != KONG:
        # Only a kong is declared while concealed (暗杠); a concealed chow or pung is simply
        # part of the standing tiles.
        raise HandError(
            "illegal_meld",
            f"{name} is a {kind} with concealed: true, but only a kong can be declared "
            f"concealed; put a concealed {kind} among the standing tiles instead",
            f"{pointer}/concealed",
        )
    return Meld(kind, tuple(sorted(tiles)), concealed)


def _read_win_tile(raw: object, tileset: TileSet) -> int | None:
    if raw is None:
        return None
    if not isinstance(raw, str):
        raise _invalid("/hand/win_tile", "hand.win_tile must be one tile code such as \"5m\"")
    tile = parse_tile(raw, tileset, "/hand/win_tile")
    if tileset.kinds[tile].is_flower:
        raise _flower_in_hand(tileset, tile, "/hand/win_tile", None)
    return tile


def _check_copies(
    standing: list[int],
    standing_ptr: str,
    melds: list[Meld],
    meld_ptrs: list[str],
    tileset: TileSet,
) -> None:
    """No kind may appear more often than the tile set has copies of it (4 in a standard set).

    The pointer names the field where the count first goes over.
    """
    counts: dict[int, int] = {}
    groups: list[tuple[Sequence[int], str]] = [(standing, standing_ptr)]
    groups += [(m.tiles, p if p == "/hand" else f"{p}/tiles") for m, p in zip(melds, meld_ptrs,
                                                                                strict=True)]
    for tiles, ptr in groups:
        for t in tiles:
            n = counts.get(t, 0) + 1
            counts[t] = n
            if n > tileset.kinds[t].copies:
                total = sum(1 for ts, _ in groups for x in ts if x == t)
                raise HandError(
                    "too_many_copies",
                    f"{tileset.code(t)} appears {total} times in the hand (standing tiles and "
                    f"melds together), but there are only {tileset.kinds[t].copies} of it",
                    ptr,
                )


# ---------------------------------------------------------------------------------------------
# The context


def _build_context(data: object, hand: Hand | Sequence[Meld], ruleset: RuleSet) -> WinContext:
    """The win context; ``hand`` is the hand, or for a waiting hand (no winning tile yet) its
    declared melds."""
    if not isinstance(data, Mapping):
        raise _invalid("/context", "context must be an object with at least win_type")
    tileset = ruleset.tileset

    win_type = _required(data, "win_type", "/context")
    if win_type not in WIN_TYPES:
        raise _invalid("/context/win_type", "context.win_type must be self_draw or discard")
    kong = data.get("kong")
    if kong is not None and kong not in KONG_FLAGS:
        raise _invalid(
            "/context/kong",
            "context.kong must be null, replacement, robbed or after_kong_discard",
        )
    last_tile = _flag(data, "last_tile")
    last_of_kind = _flag(data, "last_of_kind")
    first_turn = _flag(data, "first_turn")
    seat_wind = _wind(data, "seat_wind")
    round_wind = _wind(data, "round_wind")
    flowers, flower_tiles = _flowers(data.get("flowers"), ruleset)
    wild_indicator, wilds = _wilds(data, ruleset)
    winner = _seat(data, "winner", ruleset.players) or 0
    dealer = _seat(data, "dealer", ruleset.players) or 0
    discarder = _seat(data, "discarder", ruleset.players)
    options = build_options(data.get("options"), ruleset, dealer=dealer)

    _check_consistency(win_type, kong, winner, discarder, hand, tileset)
    melds = hand.melds if isinstance(hand, Hand) else hand
    if first_turn and any(not (m.kind == KONG and m.concealed) for m in melds):
        raise _inconsistent(
            "context.first_turn is true but hand.melds holds a claimed meld: nothing can be "
            "claimed before a player's first turn (only a concealed kong can be declared)",
            "/context/first_turn",
        )
    return WinContext(
        win_type=win_type,
        kong=kong,
        last_tile=last_tile,
        last_of_kind=last_of_kind,
        first_turn=first_turn,
        seat_wind=seat_wind,
        round_wind=round_wind,
        flowers=flowers,
        flower_tiles=flower_tiles,
        wild_indicator=wild_indicator,
        wilds=wilds,
        winner=winner,
        discarder=discarder,
        dealer=dealer,
        options=options,
    )


def _flag(data: Mapping[str, Any], key: str) -> bool:
    value = data.get(key)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise _invalid(f"/context/{key}", f"context.{key} must be true or false")
    return value


def _wind(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if value is None:
        return 0
    index = _WIND_INDEX.get(value) if isinstance(value, str) else None
    if index is None:
        raise _invalid(
            f"/context/{key}", f"context.{key} must be E, S, W or N (or 东, 南, 西, 北)"
        )
    return index


def _seat(data: Mapping[str, Any], key: str, players: int) -> int | None:
    """A seat number in 0..players-1, or None when absent (the caller applies the default)."""
    value = data.get(key)
    if value is None:
        return None
    # bool is an int in Python, but true is not a seat number.
    if not isinstance(value, int) or isinstance(value, bool):
        raise _invalid(f"/context/{key}", f"context.{key} must be a seat number")
    if not 0 <= value < players:
        raise HandError(
            "seat_out_of_range",
            f"context.{key} is {value}, but seats of this rule set are 0..{players - 1} "
            f"({players} players)",
            f"/context/{key}",
        )
    return value


def _flowers(value: object, ruleset: RuleSet) -> tuple[int, tuple[int, ...]]:
    """Flowers as a count, or as flower tiles (a string or a list of codes)."""
    ptr = "/context/flowers"
    maximum = ruleset.max_flowers
    if value is None:
        return 0, ()
    if isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value <= maximum:
            raise _flowers_out_of_range(f"context.flowers is {value}", maximum)
        return value, ()
    tileset = ruleset.tileset
    if not isinstance(value, str | list | tuple):
        raise _invalid(ptr, "context.flowers must be a count or a list of flower codes")
    read = _read_tiles_lenient(value, tileset, ptr)
    counts: dict[int, int] = {}
    for tile, p, at in read:
        kind = tileset.kinds[tile]
        if not kind.is_flower:
            raise HandError(
                "not_a_flower",
                f"{kind.code} in context.flowers is not a flower: flowers are "
                f"{format_tiles(tileset.flowers, tileset) or 'not in this tile set'}",
                p,
                at,
            )
        counts[tile] = counts.get(tile, 0) + 1
        if counts[tile] > kind.copies:
            raise HandError(
                "too_many_copies",
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


def _read_tiles_lenient(
    raw: str | list[Any] | tuple[Any, ...], tileset: TileSet, pointer: str
) -> list[tuple[int, str, int | None]]:
    """Like `_read_tiles`, but a list item may hold several tiles ("15f")."""
    if isinstance(raw, str):
        tiles, positions = scan_tiles(raw, tileset, pointer=pointer)
        return [(t, pointer, at) for t, at in zip(tiles, positions, strict=True)]
    out: list[tuple[int, str, int | None]] = []
    for k, item in enumerate(raw):
        ptr = f"{pointer}/{k}"
        if not isinstance(item, str):
            raise _invalid(ptr, f"context.flowers[{k}] must be a flower code such as \"1f\"")
        tiles, positions = scan_tiles(item, tileset, pointer=ptr)
        out += [(t, ptr, at) for t, at in zip(tiles, positions, strict=True)]
    return out


def _flowers_out_of_range(what: str, maximum: int) -> HandError:
    allowed = f"0..{maximum}" if maximum else "none (this rule set plays without flowers)"
    return HandError(
        "flowers_out_of_range", f"{what}, but the allowed number is {allowed}", "/context/flowers"
    )


def _wilds(data: Mapping[str, Any], ruleset: RuleSet) -> tuple[int | None, tuple[int, ...]]:
    """混: the flipped indicator or an explicit list, and the wild kinds they make.

    The rule set's `wild` says which of the two a request may give and how an indicator maps
    to wild kinds (天津: the indicator's kind and the next). Null or an empty list: no wilds in
    play. Returns (indicator, wild kinds sorted).
    """
    indicator = data.get("wild_indicator")
    wilds = data.get("wilds")
    if wilds is not None and not isinstance(wilds, str | list | tuple):
        raise _invalid("/context/wilds", "context.wilds must be a list of tile codes")
    if indicator is not None and not isinstance(indicator, str):
        raise _invalid("/context/wild_indicator", "context.wild_indicator must be one tile code")
    spec = ruleset.wild
    given = [(key, value) for key, value in (("wild_indicator", indicator), ("wilds", wilds))
             if value is not None and len(value) > 0]
    if spec is None:
        for key, _ in given:
            raise HandError(
                "wilds_not_supported",
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
            "wilds_not_supported",
            f"rule set {ruleset.id} takes its wild tiles as a list in context.wilds, not from "
            f"an indicator; omit context.wild_indicator",
            "/context/wild_indicator")
    if wilds and not spec.explicit:
        raise HandError(
            "wilds_not_supported",
            f"rule set {ruleset.id} derives its wild tiles from the flipped tile: give it as "
            f"context.wild_indicator and omit context.wilds",
            "/context/wilds")
    tileset = ruleset.tileset
    if indicator:
        ind = parse_tile(indicator, tileset, "/context/wild_indicator")
        if tileset.kinds[ind].is_flower:
            raise _invalid("/context/wild_indicator",
                           "context.wild_indicator must be a playing tile, not a flower")
        return ind, spec.kinds(ind, tileset.next_kinds)
    wild_tiles: set[int] = set()
    if wilds:
        for tile, ptr, at in _read_tiles(wilds, tileset, "/context/wilds", "context.wilds"):
            if tileset.kinds[tile].is_flower:
                raise HandError(
                    "invalid_field",
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
                "too_many_copies",
                f"{tileset.code(ind)} appears {held} times in the hand, but one "
                f"{tileset.code(ind)} is the flipped wild indicator: at most {copies - 1} are "
                f"in play",
                "/context/wild_indicator")
    wild_kinds = set(ctx.wilds)
    for i, m in enumerate(melds):
        if any(t in wild_kinds for t in m.tiles) and not (m.kind == KONG and m.concealed):
            raise HandError(
                "illegal_meld",
                f"{format_meld(m.tiles, tileset)} is made of wild tiles (混): wilds cannot be "
                f"claimed or melded; four of one kind may only be a concealed kong (金杠)",
                "/hand" if isinstance(hand_data, str) else f"/hand/melds/{i}")


def build_options(
    value: object, ruleset: RuleSet, pointer: str = "/context/options", *,
    dealer: int | None = None, dealer_field: str = "context.dealer",
) -> dict[str, Any]:
    """House rules: every declared option, the request's value or the rule set's default.

    ``pointer`` is where the options are in the request (a settle request carries them at
    ``/options``). ``dealer``: the dealer's seat, named ``dealer_field`` in messages, for the
    per-seat options whose dealer entry is fixed (a per-seat value is kept as a tuple)."""
    if value is None:
        value = {}
    if not isinstance(value, Mapping):
        raise _invalid(pointer, f"{_field_name(pointer)} must be an object")
    declared = ruleset.option_by_name
    out = {o.name: o.default for o in ruleset.options}
    for name, v in value.items():
        ptr = f"{pointer}/{_escape(str(name))}"
        od = declared.get(name)
        if od is None:
            known = ", ".join(sorted(declared)) or "none"
            raise HandError(
                "unknown_option",
                f"rule set {ruleset.id} has no option {name!r}; its options are: {known}",
                ptr,
            )
        if od.type == "per_seat":
            out[name] = _per_seat(od, v, ruleset.players, ptr, dealer, dealer_field)
            continue
        problem = _option_problem(od, v)
        if problem is not None:
            raise HandError(
                "invalid_option", f"option {name!r} is {_json(v)}, but it {problem}", ptr
            )
        out[name] = v
    return out


def _per_seat(od: OptionDef, v: object, players: int, ptr: str, dealer: int | None,
              dealer_field: str) -> tuple[int, ...]:
    """A per-seat option: one integer per seat, each within the bounds, the dealer's entry
    the one the option fixes (拉庄: the dealer pulls nobody)."""
    def bad(problem: str, at: str = ptr) -> HandError:
        return HandError("invalid_option", f"option {od.name!r} is {_json(v)}, but {problem}",
                         at)

    if not isinstance(v, list | tuple) or len(v) != players:
        raise bad(f"it must list one integer per seat: {players} entries, for seats "
                  f"0..{players - 1}")
    for seat, n in enumerate(v):
        at = f"{ptr}/{seat}"
        if not isinstance(n, int) or isinstance(n, bool):
            raise bad(f"entry {seat} (seat {seat}) must be an integer", at)
        if od.minimum is not None and n < od.minimum:
            raise bad(f"entry {seat} (seat {seat}) must be at least {od.minimum}", at)
        if od.maximum is not None and n > od.maximum:
            raise bad(f"entry {seat} (seat {seat}) must be at most {od.maximum}", at)
    if dealer is not None and od.dealer_entry is not None and v[dealer] != od.dealer_entry:
        raise bad(f"entry {dealer} must be {od.dealer_entry}: seat {dealer} is the dealer "
                  f"({dealer_field}), and the dealer's own entry is always "
                  f"{od.dealer_entry}; set it to {od.dealer_entry}, or name the right dealer",
                  f"{ptr}/{dealer}")
    return tuple(v)


def _option_problem(od: OptionDef, v: object) -> str | None:
    """Why ``v`` is not a valid value of option ``od``, or None."""
    if od.type == "bool" and not isinstance(v, bool):
        return "must be true or false"
    if od.type == "int":
        if not isinstance(v, int) or isinstance(v, bool):
            return "must be an integer"
        if od.minimum is not None and v < od.minimum:
            return f"must be at least {od.minimum}"
        if od.maximum is not None and v > od.maximum:
            return f"must be at most {od.maximum}"
    # Compare with the type too: true == 1 in Python, but not in JSON.
    if od.choices and not any(type(c) is type(v) and c == v for c in od.choices):
        return "must be one of " + ", ".join(_json(c) for c in od.choices)
    return None


def _check_consistency(
    win_type: str,
    kong: str | None,
    winner: int,
    discarder: int | None,
    hand: Hand | Sequence[Meld],
    tileset: TileSet,
) -> None:
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
            raise _inconsistent(
                f"context.kong is robbed (抢杠和) but the hand holds another "
                f"{tileset.code(w)} besides hand.win_tile: the robbed tile is the fourth "
                f"{tileset.code(w)}, the other three being in the pung that was extended",
                "/context/kong",
            )


_KONG_ZH = {KONG_REPLACEMENT: "杠上开花", KONG_ROBBED: "抢杠和", KONG_AFTER_DISCARD: "杠上炮"}


# ---------------------------------------------------------------------------------------------
# Small helpers


def _required(data: Mapping[str, Any], key: str, pointer: str) -> Any:
    value = data.get(key, _MISSING)
    if value is _MISSING or value is None:
        raise HandError(
            "missing_field", f"{_field_name(pointer)}.{key} is required", f"{pointer}/{key}"
        )
    return value


def _field_name(pointer: str) -> str:
    """``/hand/melds/1`` -> ``hand.melds[1]``, for messages."""
    out = ""
    for part in pointer.strip("/").split("/"):
        out += f"[{part}]" if part.isdigit() else f".{part}" if out else part
    return out


def _invalid(pointer: str, message: str) -> HandError:
    return HandError("invalid_field", message, pointer)


def _too_many_melds(n: int, pointer: str) -> HandError:
    return HandError(
        "too_many_melds",
        f"the hand declares {n} melds, but a hand has at most {MAX_MELDS}",
        pointer,
    )


def _flower_in_hand(tileset: TileSet, tile: int, pointer: str, at: int | None) -> HandError:
    where = "" if at is None else f" at position {at}"
    message = (
        f"{tileset.code(tile)}{where} is a flower: flowers are not part of the hand; list them "
        f"in context.flowers"
    )
    if at is None:
        return HandError("flower_in_hand", message, pointer)
    return NotationError("flower_in_hand", message, pointer, at)


def _inconsistent(message: str, pointer: str) -> HandError:
    return HandError("inconsistent_context", message, pointer)


def _escape(name: str) -> str:
    """A JSON pointer reference token (RFC 6901)."""
    return name.replace("~", "~0").replace("/", "~1")


def _json(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_json(x) for x in v) + "]"
    return str(v)


def _s(n: int) -> str:
    return "" if n == 1 else "s"
