"""The declared shape of a word-card game's document (`GET /v1/rulesets/{ruleset}` of a rule set
with a `deck`, written by `app.service.cards.documents`). See `app.service.answer_fields` for how
it becomes the contract.
"""

from __future__ import annotations

from marshmallow import fields, validate

from app.service.answer_fields import Answer, Const, OneOf
from app.service.document_schemas import MatchDefinition, OptionDefinition, RulesetLimits


class CardChoice(Answer):
    """A value a house rule chooses: what the request's option `option` chooses. `values` maps each
    value of the option (as text when it is not a string: `true`, `15`) to what it chooses,
    which may itself be a choice; `default` is what the values not listed choose (null when all
    are listed). Empty `values`: the option's own value.
    """

    option = fields.String(required=True)
    values = fields.Raw(
        required=True, metadata={"json_schema": {"type": "object", "additionalProperties": True}})
    default = fields.Raw(required=True, metadata={"json_schema": {}})
    """What the values not listed choose; null when all are listed."""


class CardStep(Answer):
    """One step of the scoring pipeline: a registered step (docs/checks.md) and its parameters,
    each a value or a `CardChoice`.
    """

    step = fields.String(required=True)
    params = fields.Raw(
        required=True, metadata={"json_schema": {"type": "object", "additionalProperties": True}})


class _DeckCard(Answer):
    code = fields.String(required=True)
    name = fields.String(required=True)
    rank = fields.Integer(required=True)
    attributes = fields.List(fields.String(), required=True)


class _DeckSuit(Answer):
    letter = fields.String(required=True)
    name = fields.String(required=True)
    name_en = fields.String(required=True)
    cards = fields.List(fields.Nested(_DeckCard), required=True)


class _Deck(Answer):
    name = fields.String(required=True)
    ranks = fields.List(fields.Integer(), required=True)
    copies = fields.Integer(required=True)
    """The copies of each card kind."""
    kinds = fields.Integer(required=True)
    """The card kinds (suits × ranks)."""
    cards = fields.Integer(required=True)
    """The cards of the deck (kinds × copies)."""
    suits = fields.List(fields.Nested(_DeckSuit), required=True)
    """The suits; a card's code is its rank then the suit's letter (`10x`), and its name is one
    character a request may also write.
    """
    attributes = fields.Dict(keys=fields.String(), values=fields.List(fields.Integer()),
                             required=True)
    """Each attribute a pattern or step may count, with the ranks that have it."""
    aliases = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    """Other characters read as a card (traditional forms), with its code."""


class _GroupForm(Answer):
    form = fields.String(validate=validate.OneOf(("same", "run", "ranks", "mixed")), required=True)
    size = fields.Integer(required=True)
    ranks = fields.List(fields.Integer(), required=True)
    when = fields.String(required=True, allow_none=True)


class _GroupPoints(Answer):
    by_suit = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    ranks = fields.List(fields.List(fields.Integer()), required=True)


class _GroupKind(Answer):
    id = fields.String(required=True)
    name = fields.String(required=True)
    name_en = fields.String(required=True)
    description = fields.String(required=True)
    size = fields.Integer(required=True)
    forms = fields.List(fields.Nested(_GroupForm), required=True)
    """The cards that make the group: `same` (identical cards), `run` (consecutive ranks of one
    suit), `ranks` (the listed ranks of one suit), `mixed` (one rank, all but one card of one
    suit); `when`: a bool option the form needs on.
    """
    points = fields.Nested(_GroupPoints, required=True, allow_none=True)
    """The points (胡息) of the group by suit letter, earned only by the rank sets of `ranks` when
    any are listed; null for a kind scored as the kind it is made of.
    """
    table = fields.String(validate=validate.OneOf(("concealed", "exposed")), required=True,
                          allow_none=True)
    """How the group lies on the table: `concealed` (written `{...}`), `exposed` (`[...]`), or null
    (it is made in the hand only).
    """
    flags = fields.List(fields.String(), required=True)
    """Flags a table group of this kind may carry (they do not change the score)."""
    made_of = fields.List(fields.String(), required=True)
    """The kinds this one is read as (a table 吃 is a 句 or a 绞); empty otherwise."""


class _HandLocked(Answer):
    kind = fields.String(required=True)
    held = fields.Integer(required=True)


class _HandPair(Answer):
    kind = fields.String(required=True)
    when_size = fields.Integer(required=True)


class _Hand(Answer):
    groups = fields.List(fields.String(), required=True)
    locked = fields.Nested(_HandLocked, required=True)
    pair = fields.Nested(_HandPair, required=True)
    cards = OneOf(fields.Integer(), fields.Nested(CardChoice), required=True)
    per_extra = fields.Integer(required=True)


class _WinCardPlace(Answer):
    held = fields.Integer(required=True, allow_none=True)
    table = fields.String(required=True, allow_none=True)
    by_win_type = fields.Dict(keys=fields.String(), required=True, values=OneOf(
        fields.List(fields.String()), fields.Nested(CardChoice)))


class _WinType(Answer):
    id = fields.String(required=True)
    name = fields.String(required=True)
    payer = fields.String(required=True, allow_none=True)
    pays = fields.String(validate=validate.OneOf(("each_other", "payer")), required=True)
    shares = OneOf(fields.Raw(metadata={"json_schema": {"type": ["integer", "string"]}}),
                   fields.Nested(CardChoice), required=True)
    reason = fields.String(required=True)
    """The reason of the transfers."""


class _Pattern(Answer):
    id = fields.String(required=True)
    name = fields.String(required=True)
    name_en = fields.String(required=True)
    description = fields.String(required=True)
    check = fields.String(required=True)
    params = fields.Raw(
        required=True, metadata={"json_schema": {"type": "object", "additionalProperties": True}})
    value = OneOf(fields.Integer(), fields.Nested(CardChoice), required=True)


class CardRuleSetDocument(Answer):
    """A card game scored by groups (`kind: cards`): its deck, the groups a finished hand is
    arranged into and their points (胡息), where the winning card may go, the scoring steps, the
    multiplying patterns (名堂), who pays, and the options. Where a house rule chooses a value it
    is written as a `CardChoice`.
    """

    id = fields.String(required=True)
    name = fields.String(required=True)
    name_en = fields.String(required=True)
    players = fields.Integer(validate=validate.Range(min=2), required=True)
    """The default number of players."""
    description = fields.String(required=True)
    kind = Const("cards", required=True)
    players_option = fields.String(required=True, allow_none=True)
    """The option that sets the number of players (null when it is fixed)."""
    deck = fields.Nested(_Deck, required=True)
    groups = fields.List(fields.Nested(_GroupKind), required=True)
    """The group kinds, as hands, table groups and results name them."""
    hand = fields.Nested(_Hand, required=True)
    """How the hand is arranged: the kinds it may form, the held cards that stay one group
    (`locked`), exactly one `pair` when the finished hand holds a group of `when_size` cards
    (none otherwise), and its card count: `cards`, plus `per_extra` for each table group of
    `when_size` cards after the first.
    """
    win_card = fields.List(fields.Nested(_WinCardPlace), required=True)
    """Where the winning card may go when it completes something: onto `held` cards of its kind in
    hand, or onto a table group of kind `table`; per win type, the kinds of group it may make,
    `free` meaning it stays an ordinary hand card. Elsewhere it is always free.
    """
    win_types = fields.List(fields.Nested(_WinType), required=True)
    """Each `context.win_type` and who pays: `each_other` (every other seat one share) or `payer`
    (the seat named by the context field `payer`, alone, `shares` shares; `others`: one per
    other player).
    """
    context_flags = fields.List(fields.String(), required=True)
    """The boolean context fields the rule set reads."""
    context_cards = fields.List(fields.String(), required=True)
    """The context fields naming a card."""
    figures = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    """Result fields that count the cards with a deck attribute over the finished hand."""
    names = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    """The rule set's words for the points and the units of a hand."""
    rank_by = OneOf(fields.List(fields.String(validate=validate.OneOf(("points", "score")))),
                    fields.Nested(CardChoice), required=True)
    """How readings of a hand are ranked (`points`, `score`, first first)."""
    scoring = OneOf(fields.List(fields.Nested(CardStep)), fields.Nested(CardChoice),
                    required=True)
    """The scoring steps in order, or a choice of them by a house rule."""
    patterns = fields.List(fields.Nested(_Pattern), required=True)
    """The multiplying patterns (名堂): the check that finds each (docs/checks.md) with its
    parameters, and the multiplier it brings (0: not counted under those options).
    """
    options = fields.List(fields.Nested(OptionDefinition), required=True)
    settlement = fields.Raw(required=True, metadata={"json_schema": {"type": "null"}})
    """Always null, as in a tile game's document without round settlement: no card game settles
    rounds (`POST .../settle` answers `settle_not_supported`).
    """
    source = fields.String(required=True)
    """The rule set's file under `rulesets/`."""
    match = fields.Nested(MatchDefinition, required=True, allow_none=True)
    """How a match of the rule set is played (`POST .../match`); null when it plays none."""
    limits = fields.Nested(RulesetLimits, required=True)
