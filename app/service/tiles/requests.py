"""Reading a score or waits request into domain values: a `Hand` (or a hand one tile short)
and a `WinContext`, checking that they describe a real hand and a win that can happen.

`read_score_request` and `read_waits_request` are the whole path from a decoded JSON body:
the request schema (`app.service.tiles.request_schemas`, the one place JSON types, required
and unknown fields and size limits are checked; its refusal is `invalid_request`,
`app.service.reading.validated`), then `build` /
`build_waiting`, which trust the schema's output and check what needs the rule set: tile
notation, counts, meld shapes, seats, options, wild tiles and the consistency of the context.
The hand is read by `app.service.tiles.hand_reading`, the context by
`app.service.tiles.context_reading` and its options by `app.service.option_reading`.
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
- ``inconsistent_context``: a win that cannot happen (see `app.service.tiles.context_reading`);
- ``invalid_field``: a value of the right type that the rule set refuses (a flower given as
  a wild tile or as the wild indicator).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.domain.errors import Code, HandError
from app.domain.hand import Hand, Meld, WinContext
from app.domain.notation import format_meld
from app.rules.model import RuleSet
from app.service.reading import check_named_ruleset, validated
from app.service.tiles.context_reading import build_context, check_wild_tiles
from app.service.tiles.hand_reading import read_field_tiles, read_hand
from app.service.tiles.request_schemas import ANALYSIS_REQUEST, SCORE_REQUEST, WAITS_REQUEST


def read_score_request(body: Mapping[str, Any], ruleset: RuleSet) -> tuple[Hand, WinContext]:
    """A decoded score request body as the hand and the context of its win."""
    data = validated(SCORE_REQUEST, body)
    if "ruleset" in data:  # (the rule set's id read only then)
        check_named_ruleset(data, ruleset.id)
    return build(data["hand"], data["context"], ruleset)


def read_waits_request(body: Mapping[str, Any], ruleset: RuleSet
                       ) -> tuple[tuple[int, ...], tuple[Meld, ...], WinContext]:
    """A decoded waits request body as (standing tiles, declared melds, context)."""
    data = validated(WAITS_REQUEST, body)
    if "ruleset" in data:  # (the rule set's id read only then)
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
    standing, melds, win_tile = read_hand(hand_data, ruleset.tileset, waiting=False)
    assert win_tile is not None
    hand = Hand(standing, melds, win_tile)
    check_meld_kinds(melds, hand_data, ruleset)
    context = build_context(context_data, hand, ruleset)
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
    standing, melds, _ = read_hand(hand_data, ruleset.tileset, waiting=True)
    check_meld_kinds(melds, hand_data, ruleset)
    context = build_context(context_data, melds, ruleset)
    check_wild_tiles(standing, melds, context, ruleset, hand_data)
    return standing, melds, context


def check_meld_kinds(melds: tuple[Meld, ...], hand_data: object, ruleset: RuleSet) -> None:
    """A rule set may not let players declare some kinds of meld (四川: no 吃, so no chow)."""
    if not melds:
        return
    kinds = ruleset.meld_kinds
    for i, meld in enumerate(melds):
        if meld.kind not in kinds:
            pointer = "/hand" if isinstance(hand_data, str) else f"/hand/melds/{i}"
            allowed = ", ".join(ruleset.meld_kinds)
            raise HandError(
                Code.ILLEGAL_MELD,
                f"{ruleset.name} ({ruleset.id}) does not allow a declared {meld.kind} "
                f"({format_meld(meld.tiles, ruleset.tileset)}); declared melds may be: "
                f"{allowed}",
                pointer,
            )


# An analysis request (`POST .../analysis`): a hand of 13 or 14 tiles, the tiles seen and
# whether the waits are scored.
AnalysisIn = tuple[tuple[int, ...], tuple[Meld, ...], WinContext, tuple[int, ...], bool]


def read_analysis_request(body: Mapping[str, Any], ruleset: RuleSet) -> AnalysisIn:
    """A decoded analysis request body as (standing tiles, declared melds, context, visible
    tiles, whether the waits are scored). The hand holds 13 or 14 tiles (melds counted as
    3), with no winning tile (`wrong_tile_count` otherwise); `visible` are tiles of the rule
    set's deck, never a flower (`invalid_field`), and no kind is seen more often than the
    deck holds it, the hand's copies and a flipped indicator out of play counted
    (`too_many_copies`, pointing at `visible`)."""
    data = validated(ANALYSIS_REQUEST, body)
    check_named_ruleset(data, ruleset.id)
    hand_data = data["hand"]
    tileset = ruleset.tileset
    try:
        standing, melds, _ = read_hand(hand_data, tileset, waiting=True)
        full = False
    except HandError as short:
        if short.code != Code.WRONG_TILE_COUNT:
            raise
        try:
            standing, melds, _ = read_hand(hand_data, tileset, waiting=False)
            full = True
        except HandError as exc:
            if exc.code != Code.WRONG_TILE_COUNT:
                raise
            n = _melds_written(hand_data)
            raise HandError(
                Code.WRONG_TILE_COUNT,
                f"{exc.message.split(', but ')[0]}, but {13 - 3 * n} or {14 - 3 * n} are "
                f"needed with {n} declared meld{'' if n == 1 else 's'} (13 or 14 less 3 per "
                "meld, a kong counting as 3: a hand to analyse is one tile short of a win, or "
                "holds one tile more)", exc.pointer) from None
    check_meld_kinds(melds, hand_data, ruleset)
    about: Hand | tuple[Meld, ...] = Hand(standing, melds, standing[-1]) if full else melds
    context = build_context(data["context"], about, ruleset)
    check_wild_tiles(standing, melds, context, ruleset, hand_data)
    visible = _read_visible(data.get("visible"), standing, melds, context, ruleset)
    return standing, melds, context, visible, data.get("score_waits") is not False


def _melds_written(hand_data: str | Mapping[str, Any]) -> int:
    """The declared melds a hand as written holds (its brackets, or its `melds`)."""
    if isinstance(hand_data, str):
        return hand_data.count("[") + hand_data.count("{")
    return len(hand_data.get("melds") or ())


def _read_visible(raw: str | list[str] | None, standing: tuple[int, ...],
                  melds: tuple[Meld, ...], context: WinContext,
                  ruleset: RuleSet) -> tuple[int, ...]:
    if raw is None:
        return ()
    tileset = ruleset.tileset
    read = read_field_tiles(raw, tileset, "/visible")
    counts = [0] * len(tileset.kinds)
    for t in standing:
        counts[t] += 1
    for m in melds:
        for t in m.tiles:
            counts[t] += 1
    indicator = context.wild_indicator
    out_of_play = (ruleset.wild is not None and ruleset.wild.indicator_out_of_play
                   and indicator is not None)
    if out_of_play and indicator is not None:
        counts[indicator] += 1
    for t, pointer, position in read:
        code = tileset.code(t)
        if t in tileset.flower_set:
            raise HandError(Code.INVALID_FIELD,
                            f"visible lists the flower {code}: flowers are never drawn into a "
                            "hand, list only the tiles of the wall seen elsewhere",
                            pointer, position)
        counts[t] += 1
        if counts[t] > tileset.kinds[t].copies:
            flipped = " and the flipped wild indicator" if out_of_play and t == indicator else ""
            raise HandError(Code.TOO_MANY_COPIES,
                            f"{code} is seen {counts[t]} times counting the hand{flipped} and "
                            f"visible, but there are only {tileset.kinds[t].copies} of it",
                            pointer, position)
    return tuple(t for t, _, _ in read)
