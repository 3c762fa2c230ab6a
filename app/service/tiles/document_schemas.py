"""The declared shape of a tile game's rule-set document (`GET /v1/rulesets/{ruleset}`, written
by `app.service.tiles.documents`). What every family's document shares is
`app.service.document_schemas`; a word-card game's document is
`app.service.cards.document_schemas`. See `app.service.answer_fields` for how they become the
contract.
"""

from __future__ import annotations

from marshmallow import fields, validate

from app.domain.hand import WIN_TYPES
from app.service.answer_fields import Answer, JsonScalar, OneOf
from app.service.document_schemas import MatchDefinition, OptionDefinition, RulesetLimits
from app.service.tiles.request_schemas import WinType


class FanDefinition(Answer):
    id = fields.String(required=True)
    name = fields.String(required=True)
    name_en = fields.String(required=True)
    value = fields.Integer(required=True)
    """The value of one occurrence; for a fan whose value a request option gives (erren's 清一色 and
    平和), the option's default, and a result lists the value chosen.
    """
    excludes = fields.List(fields.String(), required=True)
    """不计 - the ids of the fans not also counted when this fan counts."""
    description = fields.String(required=True)


class _OptionValue(Answer):
    option = fields.String(required=True)


class _ChosenValue(Answer):
    """A value the request's option chooses, each of its choices standing for a value of the
    parameter (changchun's dealer_bonus: mil is always, seed is discarder_only_on_discard).
    """

    option = fields.String(required=True)
    values = fields.Dict(keys=fields.String(), values=JsonScalar(), required=True)


class _PointsTable(Answer):
    doubling = fields.Boolean(required=True)
    add = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    times = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)


class PaymentDefinition(Answer):
    scheme = fields.String(required=True)
    params = fields.Dict(keys=fields.String(), required=True, values=OneOf(
        JsonScalar(), fields.List(fields.Integer()), fields.Nested(_OptionValue),
        fields.Nested(_ChosenValue), fields.Dict(keys=fields.String(), values=fields.Nested(
            _PointsTable), metadata={"description": "Points tables by name (the `points` scheme's "
                                                    "`tables`)."}),
        metadata={"keyword": "anyOf"}))
    """The scheme's parameters: a fixed value, or `{option: name}` for a value the request's
    options choose (sichuan's base, cap and self-draw mode), or `{option: name, values: {choice:
    value}}` for the value each choice stands for, or for the `points` scheme (tianjin) `tables`:
    the points of a hand by table name, `doubling` (2^(sum of 番)) or `{add, times}` (the fans
    that add up, a hand where none adds being 1, and the fans that then multiply), selected by
    `table`.
    """
    description = fields.String(required=True)


class _Requirement(Answer):
    check = fields.String(required=True)
    params = fields.Raw(required=True, metadata={"json_schema": {"type": "object"}})
    reason = fields.String(required=True)
    message = fields.String(required=True)


class _FanRequirementWhen(Answer):
    option = fields.String(required=True)
    in_ = fields.List(JsonScalar(), required=True, data_key="in")


class _FanRequirement(Answer):
    some_fan_besides = fields.List(fields.String(), required=True)
    when = fields.Nested(_FanRequirementWhen, required=True, allow_none=True)
    win_type = WinType(required=True, allow_none=True, choices=WIN_TYPES)
    reason = fields.String(required=True)
    message = fields.String(required=True)


class _Wild(Answer):
    indicator = fields.String(validate=validate.OneOf(("self", "next", "self_and_next")),
                              required=True, allow_none=True)
    indicator_rule = fields.String(required=True, allow_none=True)
    explicit = fields.Boolean(required=True)
    indicator_out_of_play = fields.Boolean(required=True)
    description = fields.String(required=True)


class _TileKind(Answer):
    code = fields.String(required=True)
    """Its code in the service's notation (`1m`, `E`, `C`, `1f`)."""
    name = fields.String(required=True)
    """Its Chinese name (一万, 东, 中, 春)."""
    suit = fields.String(validate=validate.OneOf(("m", "p", "s", "z", "f")), required=True)
    """`m` 万, `p` 筒, `s` 条, `z` winds and dragons, `f` flowers."""


class RulesetDetail(Answer):
    id = fields.String(required=True)
    name = fields.String(required=True)
    name_en = fields.String(required=True)
    players = fields.Integer(validate=validate.Range(min=1), required=True)
    description = fields.String(required=True)
    tiles = fields.String(required=True)
    """The tile set's name (`standard` = 34 kinds + 8 flowers; `no_flowers` = the 34 kinds, 136
    tiles, a flower being no tile; `suits` = 万 条 筒 only, 108 tiles; `dots_bamboo_dragons` = 筒 条
    and 中 发 白, 84 tiles).
    """
    tile_kinds = fields.List(fields.Nested(_TileKind), required=True)
    """Every kind of tile of the tile set, in the order they are written (万 筒 条, winds,
    dragons, flowers): what a hand of this rule set may hold (a calculator's palette).
    """
    min_fan = fields.Integer(validate=validate.Range(min=0), required=True)
    """The minimum fan for a legal win (0 = none)."""
    max_fan = fields.Integer(validate=validate.Range(min=1), required=True, allow_none=True)
    """封顶: the fan total never exceeds this (erren: 13); the fans counted are still listed. null:
    no cap.
    """
    first_turn_claims = fields.Boolean(required=True)
    """Whether `context.first_turn` (a win in the first go-round) may come with claimed melds.
    false: it is the winner's first turn, before any claim, and a claimed meld is refused (422
    inconsistent_context); true (lianzhong, whose 人和 is any win in the first go-round): a claim
    may come first, and only 人和 can then count.
    """
    max_flowers = fields.Integer(validate=validate.Range(min=0), required=True)
    fans = fields.List(fields.Nested(FanDefinition), required=True)
    """In the rule set's evaluation order; empty for a rule set that counts no fan (it decides
    legality and money only).
    """
    options = fields.List(fields.Nested(OptionDefinition), required=True)
    meld_kinds = fields.List(fields.String(validate=validate.OneOf(("chow", "pung", "kong"))),
                             required=True)
    """The kinds of meld a player may declare (sichuan has no chow)."""
    requirements = fields.List(fields.Nested(_Requirement), required=True)
    """Conditions every win must meet besides a shape and the minimum; a hand that fails one
    answers `winning: false` with the requirement's reason (sichuan 定缺).
    """
    fan_requirements = fields.List(fields.Nested(_FanRequirement), required=True)
    """Conditions on the fans a winning hand counts, decided after them: the hand must count some
    fan besides `some_fan_besides`, while the option `when.option` has one of the values
    `when.in` (always, when `when` is null), for wins of the type `win_type` (every win, when
    null). A hand that fails one answers `winning: false` with its reason (tianjin `min_hand`: a
    plain 提溜 is `below_minimum`).
    """
    payment = fields.Nested(PaymentDefinition, required=True)
    settlement = fields.Raw(required=True, allow_none=True,
                            metadata={"json_schema": {"type": "object"}})
    """How `POST .../settle` settles a round (kong money, 金杠 `golden`, an added kong that
    `must_be_fresh` (one of a tile held earlier is refused), void kongs, what 杠上炮 does to the
    kong's money (`kong_discard_money`: `refund`, `transfer`, `keep`, or the option choosing
    one), whether a win ends the round and whether a hand has `one_winner` (截和), whether kong
    and 跟庄 money take the payment's seat factors, 跟庄 `follow_dealer`, 亮倒 (`reveal_option`,
    and `reveal_ready_hand`: a revealed hand must be ready at the draw), the `special_kongs`
    (长春 幺九杠, 旋风杠, 喜杠: their sets, stand-in tile and amount), the drawn-game checks and
    whether kong money stands on a drawn game); amounts are in units of the payment's base, and
    `{option: name}` is a value the request's options choose. Null when the rule set does not
    settle rounds.
    """
    wild = fields.Nested(_Wild, required=True, allow_none=True)
    """Wild tiles (混): how a request gives them (`context.wild_indicator` read by `indicator`, or
    the list `context.wilds` when `explicit`), and whether the flipped indicator is out of play
    (it then counts as one copy in sight). Null when the rule set plays without wilds (a request
    naming wilds is then a 422 `wilds_not_supported`).
    """
    match = fields.Nested(MatchDefinition, required=True, allow_none=True)
    """How a match of the rule set is played (`POST .../match`); null when it plays none."""
    limits = fields.Nested(RulesetLimits, required=True)
