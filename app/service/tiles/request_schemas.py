"""The request schemas of the tile games' score, waits and analysis requests (a batch's, and the
field naming a request's rule set, are every family's: `app.service.request_schemas`).

The building blocks (the strict object schema, the field classes, the limits and messages) are
`app.service.schema_fields`; the settle request's are `app.service.tiles.settle_schemas`. A schema's
docstring and the docstrings below its fields are its description in `openapi.yaml`, which is
generated from these schemas (tools/openapi); the API tests generate bodies from it and fail if
a body the contract allows is refused here.
"""

from __future__ import annotations

from typing import Any, ClassVar

from marshmallow import Schema, fields, validate

from app.domain.hand import KONG_FLAGS, MELD_KINDS, WIN_TYPES, WIND_NAMES
from app.service.request_schemas import NamedRuleset
from app.service.schema_fields import (
    MAX_MELDS_LISTED,
    MSG_NO_WIN_TILE,
    MSG_NOT_MELDS,
    MSG_NULL,
    RULESET_ID_MAX,
    Flowers,
    HandBase,
    NotAllowed,
    Options,
    Seat,
    StrictBool,
    StrictStr,
    TileCode,
    Tiles,
    WildIndicator,
    WildTiles,
    _more,
    _required,
    _Strict,
)


class WinType(StrictStr):
    """How the hand was won."""

    contract_name: ClassVar[str] = "WinType"


class KongFlag(StrictStr):
    """杠上开花 `replacement`, 抢杠和 `robbed`, 杠上炮 `after_kong_discard`."""

    contract_name: ClassVar[str] = "KongFlag"


class Wind(StrictStr):
    contract_name: ClassVar[str] = "Wind"


class CountedTiles(Tiles):
    """Tiles as one notation string or as a list of exactly `count` tile codes."""

    # Used by a schema's `contract_variants` only: the contract says the count of a list (a
    # notation string is counted when read), the reader refuses a wrong count itself, with the
    # meld's own message.
    contract_name: ClassVar[str | None] = None  # type: ignore[assignment]

    def __init__(self, count: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.count = count


_MELD_TILES_REQUIRED = _required('the meld\'s tiles, such as "123m" or ["1m", "2m", "3m"].')


class MeldSchema(_Strict):
    """A declared meld. Only a kong can be concealed (暗杠)."""

    what = "a meld"
    kind = StrictStr(required=True, choices=MELD_KINDS,
                     error_messages={"required": _required("chow, pung or kong.")})
    tiles = Tiles(required=True, error_messages={"required": _MELD_TILES_REQUIRED})
    concealed = StrictBool(allow_none=True)
    """True only for a concealed kong. Default false."""

    # The contract (tools/openapi) writes a meld as one object shape per kind, these fields
    # standing in for the schema's own: a chow or pung holds three tiles and is never concealed,
    # a kong holds four. (Said so, not as `if`/`then` rules, which schema-driven generators
    # merge on every draw.) The reader refuses the same bodies with messages of its own.
    contract_variants: ClassVar[tuple[dict[str, fields.Field[Any]], ...]] = (
        {"kind": StrictStr(required=True, choices=("chow", "pung")),
         "tiles": CountedTiles(3, required=True),
         "concealed": StrictBool(allow_none=True,
                                 metadata={"json_schema": {"type": "boolean", "const": False}})},
        {"kind": StrictStr(required=True, choices=("kong",)),
         "tiles": CountedTiles(4, required=True)},
    )


_MELDS = fields.List(fields.Nested(MeldSchema()), allow_none=True, load_default=None,
                     validate=validate.Length(max=MAX_MELDS_LISTED,
                                              error=_more(MAX_MELDS_LISTED, "melds")),
                     error_messages={"invalid": MSG_NOT_MELDS})
_CONCEALED_REQUIRED = _required('the standing tiles, the winning tile included, such as '
                                '"1112345678999m5m" or a list of tile codes.')


class HandObjectSchema(_Strict):
    what = "a hand"
    concealed = Tiles(required=True, error_messages={"required": _CONCEALED_REQUIRED})
    """The standing tiles, including the winning tile."""
    melds = _MELDS
    """Declared melds (at most 4 make a hand). Default none."""
    win_tile = TileCode(allow_none=True)
    """The winning tile, one of the standing tiles. Default the last standing tile written."""


class WaitingHandObjectSchema(_Strict):
    """A hand one tile short of a win; there is no `win_tile`."""

    # As `HandObjectSchema`, without `win_tile`.
    what = "a waiting hand"
    concealed = Tiles(required=True, error_messages={"required": _required(
        'the standing tiles, one short of a win, such as "1112345678999m" or a list of tile '
        "codes.")})
    """The standing tiles, 13 − 3 × melds of them."""
    melds = _MELDS
    """Declared melds (at most 4 make a hand). Default none."""
    win_tile = NotAllowed(MSG_NO_WIN_TILE)


MSG_NO_WIN_TILE_TO_ANALYSE = (
    "Unknown field: a hand to analyse has no winning tile; a hand of 13 tiles is analysed "
    "with every tile it may draw, a hand of 14 with every tile it may discard.")


class AnalysisHandObjectSchema(_Strict):
    """A hand to analyse: one tile short of a win, or holding one tile more (a turn's draw
    made, a discard to choose); there is no `win_tile`."""

    what = "a hand to analyse"
    concealed = Tiles(required=True, error_messages={"required": _required(
        'the standing tiles, 13 or 14 less 3 per meld, such as "1112345678999m" or a list of '
        "tile codes.")})
    """The standing tiles, 13 − 3 × melds (one short of a win) or 14 − 3 × melds."""
    melds = _MELDS
    """Declared melds (at most 4 make a hand). Default none."""
    win_tile = NotAllowed(MSG_NO_WIN_TILE_TO_ANALYSE)


_HAND_OBJECT = HandObjectSchema()
_WAITING_HAND_OBJECT = WaitingHandObjectSchema()
_ANALYSIS_HAND_OBJECT = AnalysisHandObjectSchema()


class HandField(HandBase):
    """A hand object, or one whole-hand notation string: `[...]` are declared melds (`[123p]`
    chow, `[555s]` pung, `[5555s]` exposed kong, `{5555s}` concealed kong; `[555s,1]` names the
    seat offset the tile was claimed from), then the standing tiles; the last tile written is
    the winning tile.
    """

    contract_name: ClassVar[str] = "Hand"
    objects: Schema = _HAND_OBJECT


class WaitingHandField(HandField):
    """A waiting hand object, or one whole-hand notation string: `[...]` are declared melds as in
    `Hand`, and every tile outside brackets is a standing tile (there is no winning tile).
    """

    contract_name: ClassVar[str] = "WaitingHand"
    objects = _WAITING_HAND_OBJECT


class AnalysisHandField(HandField):
    """A hand to analyse, as an object or one whole-hand notation string: `[...]` are declared
    melds as in `Hand`, and every tile outside brackets is a standing tile (13 or 14 with the
    melds counted as 3; there is no winning tile).
    """

    contract_name: ClassVar[str] = "AnalysisHand"
    objects = _ANALYSIS_HAND_OBJECT


class ContextSchema(_Strict):
    # What the context reading refuses (inconsistent_context) across fields, said in the
    # contract where it stays cheap for schema-driven generators: an indicator and a list of
    # wilds not both. (A meld's tile count by kind, a discard win's discarder and the kong
    # flags' win types are not said: as `if`/`then` rules, hypothesis-jsonschema merges them
    # on every draw, which made the schema-driven tests of every body that holds them take
    # minutes; the readers refuse them, 422.)
    contract_rules: ClassVar[dict[str, Any]] = {
        "not": {"required": ["wild_indicator", "wilds"], "properties": {
            "wild_indicator": {"type": "string", "minLength": 1},
            "wilds": {"anyOf": [{"type": "string", "minLength": 1},
                                {"type": "array", "minItems": 1}]}}}}
    what = "a context"
    win_type = WinType(required=True, choices=WIN_TYPES,
                       error_messages={"required": _required("self_draw or discard.")})
    kong = KongFlag(allow_none=True, choices=KONG_FLAGS)
    """The kong the win came with, if any. Default null."""
    last_tile = StrictBool(allow_none=True)
    """Won with the last tile of the wall (妙手回春 / 海底捞月). Default false."""
    last_of_kind = StrictBool(allow_none=True)
    """The winning tile is the last of its kind (和绝张). Default false."""
    first_turn = StrictBool(allow_none=True)
    """The win came on the winner's first turn, before any claim (in lianzhong: in the first
    go-round, a claim allowed). With `dealer` and `winner` it names the fans of rule sets that
    score them: chengdu (with an option) 天胡 for the dealer's self-draw, 地胡 for another
    player's first-turn win; lianzhong 天和 for the dealer's self-draw, 地和 for the next seat's
    self-draw on its first draw, 人和 for any other first-round win (every win after a claim);
    erren-gb 天和 for the dealer, 地和 for the other player's self-draw, 人和 for a win on the
    dealer's first discard. No claimed meld may be declared with it, except where the rule
    set's `first_turn_claims` is true (lianzhong). Default false.
    """
    seat_wind = Wind(allow_none=True, choices=tuple(WIND_NAMES))
    """Default E."""
    round_wind = Wind(allow_none=True, choices=tuple(WIND_NAMES))
    """Default E."""
    flowers = Flowers(allow_none=True)
    """Default 0."""
    wild_indicator = WildIndicator(allow_none=True)
    """Null (the default) means no wilds in play."""
    wilds = WildTiles(allow_none=True)
    winner = Seat(allow_none=True)
    """The winner's seat. Default 0."""
    discarder = Seat(allow_none=True)
    """The discarder's seat; required for a discard win, absent or null for a self-draw."""
    dealer = Seat(allow_none=True)
    """The dealer's seat. Default 0."""
    options = Options(allow_none=True)


_HAND_REQUIRED = _required('the hand, as a notation string such as "1112345678999m5m" or an '
                           "object with concealed, melds and win_tile.")
_CONTEXT_REQUIRED = _required("the context of the win, an object with at least win_type.")


class ScoreRequestSchema(_Strict):
    what = "a score request"
    hand = HandField(required=True, error_messages={"required": _HAND_REQUIRED})
    context = fields.Nested(ContextSchema(), required=True,
                            error_messages={"required": _CONTEXT_REQUIRED, "null": MSG_NULL})
    ruleset = NamedRuleset(allow_none=True, max_length=RULESET_ID_MAX)


class WaitsRequestSchema(_Strict):
    # The score request with a hand one tile short (no `win_tile`).
    what = "a waits request"
    hand = WaitingHandField(required=True, error_messages={"required": _required(
        'the hand one tile short of a win, as a notation string such as "1112345678999m" or '
        "an object with concealed and melds.")})
    context = fields.Nested(ContextSchema(), required=True,
                            error_messages={"required": _CONTEXT_REQUIRED, "null": MSG_NULL})
    """The context of the win, as for `score`; each completing tile is scored with it."""
    ruleset = NamedRuleset(allow_none=True, max_length=RULESET_ID_MAX)


class AnalysisRequestSchema(_Strict):
    # A waits request whose hand may hold one tile more, and the tiles seen elsewhere.
    what = "an analysis request"
    hand = AnalysisHandField(required=True, error_messages={"required": _required(
        'the hand to analyse, 13 or 14 tiles with melds counted as 3, as a notation string '
        'such as "1112345678999m" or an object with concealed and melds.')})
    context = fields.Nested(ContextSchema(), required=True,
                            error_messages={"required": _CONTEXT_REQUIRED, "null": MSG_NULL})
    """The context, as for `waits`: the waits of a ready hand are scored with it, and a
    fourteen-tile hand that is a win already is scored with it, won on its last standing
    tile."""
    visible = Tiles(allow_none=True)
    """The tiles the player sees elsewhere (discards, other players' melds, a flipped
    indicator where the rule set keeps it in play), as a notation string or a list of tile
    codes: they lower the copies left of each useful tile. Default none."""
    score_waits = StrictBool(allow_none=True)
    """false: the waits of a ready hand (or of a discard that leaves it ready) are not scored
    (`waits`, `best` and `can_win` are null). Scoring them costs far more on a hand holding
    many wild tiles (every completion is scored under every reading of the wilds): false makes
    such an answer many times faster. Default true."""
    ruleset = NamedRuleset(allow_none=True, max_length=RULESET_ID_MAX)


SCORE_REQUEST = ScoreRequestSchema()
WAITS_REQUEST = WaitsRequestSchema()
ANALYSIS_REQUEST = AnalysisRequestSchema()


def load_score_request(body: dict[str, Any]) -> dict[str, Any]:
    """Validate a score request body; raises `ValidationError`."""
    result: dict[str, Any] = SCORE_REQUEST.load(body)
    return result


def load_waits_request(body: dict[str, Any]) -> dict[str, Any]:
    """Validate a waits request body; raises `ValidationError`."""
    result: dict[str, Any] = WAITS_REQUEST.load(body)
    return result

