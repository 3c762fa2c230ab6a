"""Reading a score or waits request into domain values: a `Hand` (or a hand one tile short)
and a `WinContext`, checking that they describe a real hand and a win that can happen.

`read_score_request` and `read_waits_request` are the whole path from a decoded JSON body:
the request schema (`app.service.schemas`, the one place JSON types, required and unknown fields
and size limits are checked; its refusal is `invalid_request`), then `build` /
`build_waiting`, which trust the schema's output and check what needs the rule set: tile
notation, counts, meld shapes, seats, options, wild tiles and the consistency of the context.
The first problem found is a `HandError` with a stable code, a message naming the offending
tile or field, and a JSON pointer to it.

Checks run in this order, so the same request always reports the same error: the hand's
fields one by one (notation, flowers, meld shapes, number of melds), then the tile count,
copies of each kind and the winning tile, then the context's fields, then the consistency of
the context with itself and with the hand. For optional fields JSON null means "use the
default".

Codes (all answered 422; `app.domain.errors.Code`):

- ``invalid_notation``, ``unknown_tile``: from the notation parser, pointing at the field
  (and, inside a string, the position);
- ``flower_in_hand``: a flower among the standing tiles, a meld or the winning tile;
- ``illegal_meld``: a meld whose tiles do not make its kind, a wrong number of tiles for the
  kind, ``concealed: true`` on a chow or pung, a kind the rule set does not let players
  declare, or a meld of wild tiles other than a concealed kong;
- ``too_many_melds``: more than 4 declared melds;
- ``wrong_tile_count``: standing tiles other than 14 - 3 per meld (13 - 3 per meld for a
  waiting hand);
- ``too_many_copies``: more copies of a kind than the tile set has (also a flower listed
  twice, or all four of an out-of-play wild indicator's kind);
- ``win_tile_missing``: ``hand.win_tile`` is not among the standing tiles (or a hand string
  has nothing outside brackets);
- ``seat_out_of_range``: winner, discarder or dealer outside 0..players-1;
- ``flowers_out_of_range``, ``not_a_flower``: too many flowers, or a tile that is not one;
- ``wilds_not_supported``: wild tiles for a rule set without them, or the one of the
  indicator and the list the rule set does not take;
- ``unknown_option``, ``invalid_option``: ``context.options`` against the rule set's options
  (a per-seat option's entry is pointed at by its index: ``/context/options/pulls/2``);
- ``inconsistent_context``: a win that cannot happen (see `_check_consistency`);
- ``invalid_field``: a value of the right type that the rule set refuses (a flower given as
  a wild tile or as the wild indicator).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from marshmallow import Schema, ValidationError

from app.domain.errors import Code, HandError, NotationError
from app.domain.hand import (
    CHOW,
    DISCARD,
    HAND_SIZE,
    KONG,
    KONG_AFTER_DISCARD,
    KONG_REPLACEMENT,
    KONG_ROBBED,
    MAX_MELDS,
    SELF_DRAW,
    WIND_NAMES,
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
    read_tiles,
    scan_tiles,
)
from app.domain.tiles import TileSet
from app.rules.definitions import ContextRule
from app.rules.model import AnyRuleSet, RuleSet
from app.rules.options import OptionDef
from app.service.problems import ApiError
from app.service.schema_fields import flatten_errors
from app.service.schemas import SCORE_REQUEST, WAITS_REQUEST

# A tile as read: the tile, the pointer of the field it was written in, and its position in
# that field's string (None for a list item).
_Read = tuple[int, str, int | None]


# --- the whole path ----------------------------------------------------------------------


def validated(schema: Schema, body: Mapping[str, Any]) -> dict[str, Any]:
    """The body through its schema; a refusal answers 422 invalid_request, its detail naming
    the first failing field."""
    try:
        data: dict[str, Any] = schema.load(body)
    except ValidationError as exc:
        errors = flatten_errors(exc.messages)
        first = errors[0]
        more = f" ({len(errors) - 1} more in errors)" if len(errors) > 1 else ""
        raise ApiError("invalid_request",
                       f"{field_name(first['pointer'])}: {first['message']}{more}",
                       errors=errors) from None
    return data


def check_named_ruleset(data: Mapping[str, Any], ruleset_id: str) -> None:
    """A request may name its rule set (`ruleset`, as a line of a log does): it must be the
    path's, else the request was meant for another rule set (422 invalid_field)."""
    named = data.get("ruleset")
    if named is not None and named != ruleset_id:
        raise HandError(Code.INVALID_FIELD,
                        f"ruleset {named!r} is not the rule set of the path ({ruleset_id!r}): "
                        f"post the request to /v1/rulesets/{named}/..., or leave ruleset out",
                        "/ruleset")


def read_score_request(body: Mapping[str, Any], ruleset: RuleSet) -> tuple[Hand, WinContext]:
    """A decoded score request body as the hand and the context of its win."""
    data = validated(SCORE_REQUEST, body)
    check_named_ruleset(data, ruleset.id)
    return build(data["hand"], data["context"], ruleset)


def read_waits_request(body: Mapping[str, Any], ruleset: RuleSet
                       ) -> tuple[tuple[int, ...], tuple[Meld, ...], WinContext]:
    """A decoded waits request body as (standing tiles, declared melds, context)."""
    data = validated(WAITS_REQUEST, body)
    check_named_ruleset(data, ruleset.id)
    return build_waiting(data["hand"], data["context"], ruleset)


def build(hand_data: str | Mapping[str, Any], context_data: Mapping[str, Any],
          ruleset: RuleSet) -> tuple[Hand, WinContext]:
    """A schema-valid ``hand`` and ``context`` as a `Hand` and a `WinContext`.

    ``hand_data`` is a whole-hand notation string or an object with ``concealed`` (string or
    list of tile codes, including the winning tile), ``melds`` (list of ``{kind, tiles,
    concealed}``) and optionally ``win_tile`` (default: the last standing tile written).
    ``context_data`` has ``win_type`` and any of the optional context fields.
    Raises `HandError` (or its subclass `NotationError`) on the first problem found.
    """
    standing, melds, win_tile = _read_hand(hand_data, ruleset.tileset, waiting=False)
    assert win_tile is not None
    hand = Hand(standing, melds, win_tile)
    check_meld_kinds(melds, hand_data, ruleset)
    context = _build_context(context_data, hand, ruleset)
    check_wild_tiles(standing, melds, context, ruleset, hand_data)
    return hand, context


def build_waiting(hand_data: str | Mapping[str, Any], context_data: Mapping[str, Any],
                  ruleset: RuleSet) -> tuple[tuple[int, ...], tuple[Meld, ...], WinContext]:
    """A waiting hand (one tile short of a win) and the context of the win.

    As `build`, but the standing tiles are 13 - 3 per meld and there is no winning tile: in
    a notation string every tile outside brackets is a standing tile. The context checks that
    need the winning tile (``robbed`` while holding another copy of it) cannot apply; the
    scoring of each completing tile leaves out what its context rules out.
    """
    standing, melds, _ = _read_hand(hand_data, ruleset.tileset, waiting=True)
    check_meld_kinds(melds, hand_data, ruleset)
    context = _build_context(context_data, melds, ruleset)
    check_wild_tiles(standing, melds, context, ruleset, hand_data)
    return standing, melds, context


def check_meld_kinds(melds: tuple[Meld, ...], hand_data: object, ruleset: RuleSet) -> None:
    """A rule set may not let players declare some kinds of meld (四川: no 吃, so no chow)."""
    for i, meld in enumerate(melds):
        if meld.kind not in ruleset.meld_kinds:
            pointer = "/hand" if isinstance(hand_data, str) else f"/hand/melds/{i}"
            allowed = ", ".join(ruleset.meld_kinds)
            raise HandError(
                Code.ILLEGAL_MELD,
                f"{ruleset.name} ({ruleset.id}) does not allow a declared {meld.kind} "
                f"({format_meld(meld.tiles, ruleset.tileset)}); declared melds may be: "
                f"{allowed}",
                pointer,
            )


# --- the hand ----------------------------------------------------------------------------


def _read_hand(data: str | Mapping[str, Any], tileset: TileSet, *, waiting: bool
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
    else:
        standing_ptr = "/hand/concealed"
        standing = _read_standing(data["concealed"], tileset, standing_ptr)
        raw_melds = data.get("melds") or ()
        if len(raw_melds) > MAX_MELDS:
            raise _too_many_melds(len(raw_melds), "/hand/melds")
        meld_ptrs = [f"/hand/melds/{k}" for k in range(len(raw_melds))]
        melds = [_read_meld(m, tileset, p) for m, p in zip(raw_melds, meld_ptrs, strict=True)]
        win_tile = _read_win_tile(data.get("win_tile"), tileset)

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
            Code.WIN_TILE_MISSING,
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
        Code.WRONG_TILE_COUNT,
        f"{what}, but {_needed(n_melds, waiting)} are needed with {n_melds} declared "
        f"meld{_s(n_melds)} ({rule})",
        pointer,
    )


def _parse_hand_string(text: str, tileset: TileSet, waiting: bool
                       ) -> tuple[list[int], list[Meld], int | None]:
    """Whole-hand notation; for a waiting hand every tile outside brackets is standing."""
    if not waiting:
        return parse_hand_string(text, tileset, "/hand")
    try:
        standing, melds, _ = parse_hand_string(text, tileset, "/hand")
    except NotationError as exc:
        if exc.code != Code.WIN_TILE_MISSING:
            raise
        # The parser read every meld before it found nothing outside the brackets, so each
        # opening bracket is one well-formed meld.
        n_melds = text.count("[") + text.count("{")
        if n_melds > MAX_MELDS:
            raise _too_many_melds(n_melds, "/hand") from None
        raise _wrong_tile_count("no standing tiles are written outside brackets in hand",
                                n_melds, True, "/hand") from None
    return standing, melds, None


def _read_standing(raw: str | list[str], tileset: TileSet, pointer: str) -> list[int]:
    """Standing tiles (or a meld's), refusing a flower where it was written."""
    if isinstance(raw, str):
        tiles = read_tiles(raw, tileset, pointer=pointer)
    else:
        tiles = [parse_tile(item, tileset, f"{pointer}/{k}") for k, item in enumerate(raw)]
    flowers = tileset.flower_set
    if flowers and not flowers.isdisjoint(tiles):
        k = next(k for k, t in enumerate(tiles) if t in flowers)
        if isinstance(raw, str):
            positions = scan_tiles(raw, tileset, pointer=pointer)[1]
            raise _flower_in_hand(tileset, tiles[k], pointer, positions[k])
        raise _flower_in_hand(tileset, tiles[k], f"{pointer}/{k}", None)
    return tiles


def _read_tiles(raw: str | Sequence[str], tileset: TileSet, pointer: str) -> list[_Read]:
    """Tiles of a string or list field, each with the pointer and position it was written at."""
    if isinstance(raw, str):
        tiles, positions = scan_tiles(raw, tileset, pointer=pointer)
        return [(t, pointer, at) for t, at in zip(tiles, positions, strict=True)]
    return [(parse_tile(item, tileset, f"{pointer}/{k}"), f"{pointer}/{k}", None)
            for k, item in enumerate(raw)]


def _read_meld(raw: Mapping[str, Any], tileset: TileSet, pointer: str) -> Meld:
    kind = raw["kind"]
    tiles_ptr = f"{pointer}/tiles"
    tiles = _read_standing(raw["tiles"], tileset, tiles_ptr)
    concealed = bool(raw.get("concealed"))
    size = 4 if kind == KONG else 3
    if len(tiles) == size and meld_kind(tiles, tileset) == kind and (not concealed
                                                                     or kind == KONG):
        return Meld(kind, tuple(sorted(tiles)), concealed)
    # What is wrong with it, in words.
    name = field_name(pointer)
    written = format_meld(tiles, tileset) or "no tiles"
    if len(tiles) != size:
        raise HandError(
            Code.ILLEGAL_MELD,
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
            Code.ILLEGAL_MELD, f"{name} {written} is not a {kind}: {why}{seen}", tiles_ptr
        )
    if concealed and kind != KONG:
        # Only a kong is declared while concealed (暗杠); a concealed chow or pung is simply
        # part of the standing tiles.
        raise HandError(
            Code.ILLEGAL_MELD,
            f"{name} is a {kind} with concealed: true, but only a kong can be declared "
            f"concealed; put a concealed {kind} among the standing tiles instead",
            f"{pointer}/concealed",
        )
    raise AssertionError("a meld refused for no reason")  # pragma: no cover


def _read_win_tile(raw: str | None, tileset: TileSet) -> int | None:
    if raw is None:
        return None
    tile = parse_tile(raw, tileset, "/hand/win_tile")
    if tileset.kinds[tile].is_flower:
        raise _flower_in_hand(tileset, tile, "/hand/win_tile", None)
    return tile


def _check_copies(standing: list[int], standing_ptr: str, melds: list[Meld],
                  meld_ptrs: list[str], tileset: TileSet) -> None:
    """No kind may appear more often than the tile set has copies of it (4 in a standard set).

    The pointer names the field where the count first goes over.
    """
    copies = tileset.copies
    counts = [0] * len(copies)
    over = False
    for t in standing:
        n = counts[t] = counts[t] + 1
        over |= n > copies[t]
    for m in melds:
        for t in m.tiles:
            n = counts[t] = counts[t] + 1
            over |= n > copies[t]
    if not over:
        return
    seen = [0] * len(counts)
    groups: list[tuple[Sequence[int], str]] = [(standing, standing_ptr)]
    groups += [(m.tiles, p if p == "/hand" else f"{p}/tiles")
               for m, p in zip(melds, meld_ptrs, strict=True)]
    for tiles, ptr in groups:
        for t in tiles:
            seen[t] += 1
            if seen[t] > copies[t]:
                raise HandError(
                    Code.TOO_MANY_COPIES,
                    f"{tileset.code(t)} appears {counts[t]} times in the hand (standing tiles "
                    f"and melds together), but there are only {copies[t]} of it",
                    ptr,
                )


# --- the context -------------------------------------------------------------------------


def _build_context(data: Mapping[str, Any], hand: Hand | Sequence[Meld],
                   ruleset: RuleSet) -> WinContext:
    """The win context; ``hand`` is the hand, or for a waiting hand (no winning tile yet) its
    declared melds."""
    tileset = ruleset.tileset
    get = data.get
    win_type = data["win_type"]
    kong = get("kong")
    flowers, flower_tiles = _flowers(get("flowers"), ruleset)
    wild_indicator, wilds = _wilds(data, ruleset)
    winner = _seat(get("winner"), "winner", ruleset.players) or 0
    dealer = _seat(get("dealer"), "dealer", ruleset.players) or 0
    discarder = _seat(get("discarder"), "discarder", ruleset.players)
    options = build_options(get("options"), ruleset, dealer=dealer)
    first_turn = bool(get("first_turn"))

    _check_consistency(win_type, kong, winner, discarder, hand, tileset)
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
    seat_wind = get("seat_wind")
    round_wind = get("round_wind")
    return WinContext(
        win_type=win_type,
        kong=kong,
        last_tile=bool(get("last_tile")),
        last_of_kind=bool(get("last_of_kind")),
        first_turn=first_turn,
        seat_wind=WIND_NAMES[seat_wind] if seat_wind is not None else 0,
        round_wind=WIND_NAMES[round_wind] if round_wind is not None else 0,
        flowers=flowers,
        flower_tiles=flower_tiles,
        wild_indicator=wild_indicator,
        wilds=wilds,
        winner=winner,
        discarder=discarder,
        dealer=dealer,
        options=options,
    )


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


def _read_flower_tiles(raw: str | list[str], tileset: TileSet, pointer: str) -> list[_Read]:
    """Like `_read_tiles`, but a list item may hold several tiles ("15f")."""
    if isinstance(raw, str):
        return _read_tiles(raw, tileset, pointer)
    out: list[_Read] = []
    for k, item in enumerate(raw):
        out += _read_tiles(item, tileset, f"{pointer}/{k}")
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
        for tile, ptr, at in _read_tiles(wilds, tileset, "/context/wilds"):
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


def build_options(value: Mapping[str, Any] | None, ruleset: AnyRuleSet,
                  pointer: str = "/context/options", *, dealer: int | None = None,
                  dealer_field: str = "context.dealer") -> dict[str, Any]:
    """House rules: every declared option, the request's value or the rule set's default.

    ``pointer`` is where the options are in the request (a settle request carries them at
    ``/options``). ``dealer``: the dealer's seat, named ``dealer_field`` in messages, for the
    per-seat options whose dealer entry is fixed (a per-seat value is kept as a tuple)."""
    out = dict(ruleset.option_defaults)
    if not value:
        return out
    declared = ruleset.option_by_name
    for name, v in value.items():
        ptr = f"{pointer}/{_escape(name)}"
        od = declared.get(name)
        if od is None:
            known = ", ".join(sorted(declared)) or "none"
            raise HandError(
                Code.UNKNOWN_OPTION,
                f"rule set {ruleset.id} has no option {name!r}; its options are: {known}",
                ptr,
            )
        if od.type == "per_seat":
            out[name] = _per_seat(od, v, ruleset.players, ptr, dealer, dealer_field)
            continue
        problem = _option_problem(od, v)
        if problem is not None:
            raise HandError(
                Code.INVALID_OPTION, f"option {name!r} is {_json(v)}, but it {problem}", ptr
            )
        out[name] = v
    return out


def _per_seat(od: OptionDef, v: object, players: int, ptr: str, dealer: int | None,
              dealer_field: str) -> tuple[int, ...]:
    """A per-seat option: one integer per seat, each within the bounds, the dealer's entry
    the one the option fixes (拉庄: the dealer pulls nobody)."""
    def bad(problem: str, at: str = ptr) -> HandError:
        return HandError(Code.INVALID_OPTION, f"option {od.name!r} is {_json(v)}, but {problem}",
                         at)

    if not isinstance(v, list | tuple) or len(v) != players:
        raise bad(f"it must list one integer per seat: {players} entries, for seats "
                  f"0..{players - 1}")
    for seat, n in enumerate(v):
        at = f"{ptr}/{seat}"
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
                       hand: Hand | Sequence[Meld], tileset: TileSet) -> None:
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


# --- small helpers -----------------------------------------------------------------------


def field_name(pointer: str) -> str:
    """``/hand/melds/1`` -> ``hand.melds[1]``, for messages; the root is "the request"."""
    out = ""
    for part in pointer.strip("/").split("/"):
        if not part:
            continue
        part = part.replace("~1", "/").replace("~0", "~")
        out += f"[{part}]" if part.isdigit() else f".{part}" if out else part
    return out or "the request"


def _too_many_melds(n: int, pointer: str) -> HandError:
    return HandError(
        Code.TOO_MANY_MELDS,
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
        return HandError(Code.FLOWER_IN_HAND, message, pointer)
    return NotationError(Code.FLOWER_IN_HAND, message, pointer, at)


def _inconsistent(message: str, pointer: str) -> HandError:
    return HandError(Code.INCONSISTENT_CONTEXT, message, pointer)


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
