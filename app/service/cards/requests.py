"""Reading a score or waits request of a card game scored by groups (a `CardRuleSet`) into
domain values: a `CardHand` (or a hand one card short with its table groups) and a `CardWin`,
checking that they describe a real hand and a win that can happen.

The path is the tile games' (`app.service.tiles.requests`): the request schema first (JSON types,
required and unknown fields, sizes; its refusal is `invalid_request`), then the checks that
need the rule set. The schema is made from the rule set once (`card_schemas`): the win types,
the context fields naming the seat a card came from (`payer_field` of each win type), the
boolean context flags, the context fields naming a card, the group kinds that may lie on the
table and their flags all come from its YAML, so nothing here names a game.

The request (score):

- ``hand``: a whole-hand string (``{...}`` a concealed table group, ``[...]`` an exposed one,
  the rest the hand, the last card written outside brackets the winning card) or an object
  ``{cards, groups, win_card}``: ``cards`` the cards in hand, the winning card included (a
  string of compact groups or characters, or a list of one card each), ``groups`` the table
  groups ``{kind, cards}`` (plus the kind's flags, such as ``chou``), ``win_card`` one of
  ``cards`` (null or absent: the last card written);
- ``context``: ``win_type``, ``winner``, ``dealer`` (seats, default 0), the payer field of
  each win type (required for its win type, null for the others), the flags (default false),
  the context cards, ``options``.

A waits request is the same with a hand one card short: no ``win_card`` (every card outside
brackets is a hand card) and an optional ``win_type`` (absent: every win type is tried, and
then no payer field may be given).

Checks, in this order, so that the same request always reports the same error (each a
`HandError`, answered 422, with a JSON pointer and, inside a string, the position):

1. the notation of the hand's cards, each group's cards and the winning card
   (``unknown_card``, ``invalid_notation``);
2. ``context.options`` (``unknown_option``, ``invalid_option``);
3. each table group against its kind, and its flags (``illegal_group``, ``invalid_field``);
4. the number of cards (``wrong_card_count``), the copies of each card over the hand and its
   table groups (``too_many_copies``), the winning card among the hand's cards
   (``win_card_missing``), four of a card held (``undeclared_four``);
5. the seats (``seat_out_of_range``), the payer fields and the context cards the scoring
   needs (``inconsistent_context``), a context card's notation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, ClassVar, NamedTuple

from marshmallow import Schema, ValidationError, fields, validate

from app.domain.arrange import Piece
from app.domain.card_hand import CardHand, CardWin
from app.domain.deck import Deck
from app.domain.errors import Code, HandError, NotationError
from app.rules.cards.model import CardRuleSet, GroupKind
from app.rules.choices import Chosen, resolve
from app.service.option_reading import build_options
from app.service.reading import check_named_ruleset, field_name, validated
from app.service.request_schemas import NamedRuleset
from app.service.schema_fields import (
    MAX_MELDS_LISTED,
    MAX_NOTATION_LENGTH,
    MSG_NULL,
    RULESET_ID_MAX,
    HandBase,
    NotAllowed,
    Options,
    Seat,
    StrictBool,
    StrictStr,
    _more,
    _required,
    _Strict,
    _type,
    _unknown,
)

# Size limits (the domain then names the exact fault): a hand is at most 21 cards and a few
# table groups more.
MAX_CARD_LIST = 32
MAX_CARD_CODE_LENGTH = 8

MSG_NOT_CARDS = _type('Not cards: expected a string such as "78x 123d" or "七八壹贰叁", or a list '
                      'of card codes such as ["7x", "8x", "1d"].')
MSG_NOT_CARD = _type('Not a card: expected a string such as "10x", "3d" or "拾".')
MSG_NOT_CARD_HAND = _type('Not a hand: expected a whole-hand string such as '
                          '"[2710x]78x123d55x9x" or an object with cards, groups and win_card.')
MSG_NOT_GROUPS = _type('Not a list of groups: expected objects with kind and cards, such as kind '
                       '"peng" and cards "444d".')
MSG_NO_WIN_CARD = _unknown(
    "a waiting hand is one card short and has no winning card; every card that completes it "
    "is tried.")


class Cards(fields.Field[Any]):
    """Word cards as one string of compact groups (`78x 123d`: ranks then the case letter; `10`
    is one rank, `110x` = 一 十), codes or characters (`七八壹贰叁`), or as a list of card codes
    (`["7x", "8x", "1d"]`).
    """

    contract_name: ClassVar[str] = "Cards"

    default_error_messages = {"invalid": MSG_NOT_CARDS, "null": MSG_NULL}  # noqa: RUF012

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if type(value) is str:
            if len(value) > MAX_NOTATION_LENGTH:
                raise self.make_error("long")
            return value
        if type(value) is not list:
            raise self.make_error("invalid")
        if len(value) > MAX_CARD_LIST:
            raise self.make_error("many")
        errors: dict[int, list[str]] = {}
        for i, item in enumerate(value):
            if type(item) is not str:
                errors[i] = [MSG_NOT_CARD]
            elif len(item) > MAX_CARD_CODE_LENGTH:
                errors[i] = [f"Longer than {MAX_CARD_CODE_LENGTH} characters."]
        if errors:
            raise ValidationError(errors)
        return value

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.error_messages["long"] = f"Longer than {MAX_NOTATION_LENGTH} characters."
        self.error_messages["many"] = _more(MAX_CARD_LIST)


class CardCode(StrictStr):
    """One word card (rule sets with a `deck`, such as hengyang): the rank then the case letter,
    `1x`-`10x` 小写 一…十 and `1d`-`10d` 大写 壹…拾, or the card's character (十, 拾; the
    traditional 貳 參 叄 陸 too). Letters are case-sensitive: `X` and `D` are unknown cards.
    """

    contract_name: ClassVar[str] = "CardCode"
    contract_examples: ClassVar[tuple[str, ...]] = ("10x", "3d", "拾")
    default_error_messages = {"invalid": MSG_NOT_CARD, "null": MSG_NULL}  # noqa: RUF012

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=MAX_CARD_CODE_LENGTH, **kwargs)


class CardHandField(HandBase):
    """A hand of word cards: an object, or one whole-hand string. In the string `{...}` is a
    concealed table group, `[...]` an exposed one (their kinds and cards as the rule set's
    table groups), everything outside brackets the hand, and the last card written outside
    brackets the winning card.
    """

    # `hand`: a whole-hand string or a hand object read by `objects`; in the contract, a
    # component named after the object's, one per rule set.
    default_error_messages = {  # noqa: RUF012
        "invalid": MSG_NOT_CARD_HAND, "null": MSG_NOT_CARD_HAND}

    def __init__(self, objects: Schema, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.objects = objects


class WaitingCardHandField(CardHandField):
    """A waiting hand of word cards: an object, or one whole-hand string as a hand's where every
    card outside brackets is a hand card (there is no winning card).
    """


class CardSchemas(NamedTuple):
    score: Schema
    waits: Schema


def table_kinds(rs: CardRuleSet) -> tuple[GroupKind, ...]:
    """The group kinds that may lie on the table, in the rule set's order."""
    return tuple(k for k in rs.groups.values() if k.table is not None)


def payer_fields(rs: CardRuleSet) -> tuple[str, ...]:
    """The context fields naming the seat a winning card came from, one per win type that has
    one, in the rule set's order."""
    return tuple(dict.fromkeys(w.payer_field for w in rs.win_types.values() if w.payer_field))


def _schema(name: str, what: str, declared: Mapping[str, fields.Field[Any]],
            doc: str | None = None) -> Schema:
    # `doc`: the object's description in the contract (openapi.yaml), as a docstring is.
    cls = type(name, (_Strict,), {"what": what, "__doc__": doc, **declared})
    schema: Schema = cls()
    return schema


def _doc(text: str) -> dict[str, str]:
    """A field's description in the contract (openapi.yaml), as metadata."""
    return {"description": text}


@cache
def card_schemas(rs: CardRuleSet) -> CardSchemas:
    """The request schemas of a card rule set (made once per rule set)."""
    group_schema = _group_schema(table_kinds(rs))
    hand, waiting = _hand_schema(group_schema), _waiting_schema(group_schema)
    context, waits_context = _context_schema(rs, True), _context_schema(rs, False)
    context_required = _required("the context of the win, an object with at least win_type.")
    score = _schema("CardScoreRequestSchema", "a score request", {
        "hand": CardHandField(hand, required=True, error_messages={
            "required": _required('the hand, as a whole-hand string such as "[2710x]78x123d55x9x" '
                                  "or an object with cards, groups and win_card.")}),
        "context": fields.Nested(context, required=True, error_messages={
            "required": context_required, "null": MSG_NULL}),
        "ruleset": NamedRuleset(allow_none=True, max_length=RULESET_ID_MAX),
    }, "A score request to a rule set of word cards. The cards of the hand and its table groups "
       "must number the rule set's count (the rule set document's `hand.cards`, plus "
       "`hand.per_extra` for each table group of `hand.when_size` cards after the first; else "
       "`wrong_card_count`).")
    waits = _schema("CardWaitsRequestSchema", "a waits request", {
        "hand": WaitingCardHandField(waiting, required=True,
                                     error_messages={"required": _required(
                                         'the hand one card short of a win, as a whole-hand '
                                         'string such as "[2710x]78x123d55x" or an object '
                                         "with cards and groups.")}),
        "context": fields.Nested(waits_context, required=True, error_messages={
            "required": _required("the context, an object (win_type may be left out: every "
                                  "win type is tried)."), "null": MSG_NULL}),
        "ruleset": NamedRuleset(allow_none=True, max_length=RULESET_ID_MAX),
    }, "A waits request to a rule set of word cards: a hand one card short of a win.")
    return CardSchemas(score, waits)


def _group_schema(kinds: Sequence[GroupKind]) -> Schema:
    """The schema of a table group of one of `kinds`."""
    kind_ids = tuple(k.id for k in kinds)
    flags = tuple(dict.fromkeys(f for k in kinds for f in k.flags))
    group: dict[str, fields.Field[Any]] = {
        "kind": StrictStr(required=True, choices=kind_ids,
                          error_messages={"required": _required(", ".join(kind_ids) + ".")}),
        "cards": Cards(required=True, error_messages={"required": _required(
            'the group\'s cards, such as "444d" or ["4d", "4d", "4d"].')}),
    }
    group.update({f: StrictBool(allow_none=True, metadata=_doc(
        "A flag of a table group (accepted on " + ", ".join(
            f"`{k.id}`" for k in kinds if f in k.flags) + " only; the score does not change)."))
        for f in flags})
    return _schema("CardGroupSchema", "a group", group, (
        "A group on the table before the win. Its cards must make one group of its kind (else "
        "`illegal_group`): " + "; ".join(
            f"`{k.id}` {k.name}, {k.description}".rstrip(".") for k in kinds) + "."))


def _groups(group_schema: Schema) -> fields.Field[Any]:
    """A hand's `groups` field."""
    return fields.List(fields.Nested(group_schema), allow_none=True, load_default=None,
                       validate=validate.Length(max=MAX_MELDS_LISTED,
                                                error=_more(MAX_MELDS_LISTED, "groups")),
                       error_messages={"invalid": MSG_NOT_GROUPS},
                       metadata=_doc("The groups on the table before the win. Default none."))


def _hand_schema(group_schema: Schema) -> Schema:
    """The schema of a winning hand written as an object."""
    return _schema("CardHandSchema", "a hand", {
        "cards": Cards(required=True, error_messages={"required": _required(
            'the cards in hand, the winning card included, such as "78x 123d 55x 9x" or a '
            "list of card codes.")}, metadata=_doc(
                "The cards in hand, including the winning card.")),
        "groups": _groups(group_schema),
        "win_card": CardCode(allow_none=True, metadata=_doc(
            "The winning card, one of `cards` (else `win_card_missing`). Default the last card "
            "written in `cards`.")),
    }, "A hand of word cards: the cards in hand, the table groups and the winning card.")


def _waiting_schema(group_schema: Schema) -> Schema:
    """The schema of a waiting hand written as an object."""
    return _schema("WaitingCardHandSchema", "a waiting hand", {
        "cards": Cards(required=True, error_messages={"required": _required(
            'the cards in hand, one short of a win, such as "78x 123d 55x" or a list of card '
            "codes.")}, metadata=_doc("The cards in hand, one fewer than a finished hand holds.")),
        "groups": _groups(group_schema),
        "win_card": NotAllowed(MSG_NO_WIN_CARD),
    }, "A hand of word cards one card short of a win; there is no `win_card`.")


def _context_schema(rs: CardRuleSet, win_type_required: bool) -> Schema:
    """The schema of a score request's context (`win_type_required`) or a waits request's."""
    win_types = tuple(rs.win_types)
    how = "; ".join(
        f"`{w.id}` {w.name}" + (f" (the seat it came from: `{w.payer_field}`)"
                                if w.payer_field else "") for w in rs.win_types.values())
    declared: dict[str, fields.Field[Any]] = {
        "win_type": StrictStr(required=win_type_required, allow_none=not win_type_required,
                              choices=win_types, error_messages={
                                  "required": _required(" or ".join(win_types) + ".")},
                              metadata=_doc(f"How the hand was won: {how}." + (
                                  "" if win_type_required else " Null or absent: every "
                                  "win type is tried."))),
        "winner": Seat(allow_none=True, metadata=_doc(
            "The winner's seat, 0..players-1. Default 0.")),
        "dealer": Seat(allow_none=True, metadata=_doc("The dealer's seat. Default 0.")),
    }
    declared.update({f: Seat(allow_none=True, metadata=_doc(
        "The seat the winning card came from, for " + ", ".join(
            f"`{w.id}`" for w in rs.win_types.values() if w.payer_field == f)
        + (": required for it" if win_type_required else "") + ", never the winner, "
        "and null for the other win types (else `inconsistent_context`)."))
        for f in payer_fields(rs)})
    declared.update({f: StrictBool(allow_none=True, metadata=_doc(
        "A fact of the win the rule set's patterns read. Default false."))
        for f in rs.context_flags})
    declared.update({f: CardCode(allow_none=True, metadata=_doc(
        "A card the rule set's scoring reads, when its options ask for it. Default null."))
        for f in rs.context_cards})
    declared["options"] = Options(allow_none=True)
    return _schema("CardContextSchema", "a context", declared, (
        "The win, for a rule set of word cards." if win_type_required else
        "The win, for a waits request to a rule set of word cards: `win_type` may be left "
        "out or null, every win type of the rule set is then tried, and no payer field may "
        "be given. A win type whose card comes from another seat is paid, in each wait, by "
        "the seat given, or else by the seat after the winner."))


# --- the whole path ----------------------------------------------------------------------


def read_card_score_request(body: Mapping[str, Any], rs: CardRuleSet
                            ) -> tuple[CardHand, CardWin]:
    """A decoded score request body as the hand and the context of its win."""
    data = validated(card_schemas(rs).score, body)
    check_named_ruleset(data, rs.id)
    return build_card_hand(data["hand"], data["context"], rs)


def read_card_waits_request(body: Mapping[str, Any], rs: CardRuleSet
                            ) -> tuple[tuple[int, ...], tuple[Piece, ...], CardWin]:
    """A decoded waits request body as (hand cards, table groups, context)."""
    data = validated(card_schemas(rs).waits, body)
    check_named_ruleset(data, rs.id)
    return build_card_waiting(data["hand"], data["context"], rs)


def build_card_hand(hand_data: str | Mapping[str, Any], context_data: Mapping[str, Any],
                    rs: CardRuleSet) -> tuple[CardHand, CardWin]:
    """A schema-valid ``hand`` and ``context`` as a `CardHand` and a `CardWin`."""
    read = _read_hand(hand_data, rs.deck, waiting=False)
    options = build_options(context_data.get("options"), rs)
    table = _check_hand(read, options, rs, waiting=False)
    assert read.win_card is not None
    ctx = _build_context(context_data, options, rs)
    return CardHand(read.cards, table, read.win_card), ctx


def build_card_waiting(hand_data: str | Mapping[str, Any], context_data: Mapping[str, Any],
                       rs: CardRuleSet) -> tuple[tuple[int, ...], tuple[Piece, ...], CardWin]:
    """A waiting hand (one card short of a win), its table groups and the context."""
    read = _read_hand(hand_data, rs.deck, waiting=True)
    options = build_options(context_data.get("options"), rs)
    table = _check_hand(read, options, rs, waiting=True)
    return read.cards, table, _build_context(context_data, options, rs)


# --- the hand ----------------------------------------------------------------------------


class _Group(NamedTuple):
    """A table group as read: its kind (None: to be found from its brackets), cards, whether
    written concealed ({...}), where it was written and the flags it was given."""

    kind: str | None
    cards: tuple[int, ...]
    concealed: bool
    pointer: str
    position: int | None
    flags: Mapping[str, bool]


class _ReadHand(NamedTuple):
    cards: tuple[int, ...]
    cards_pointer: str
    groups: tuple[_Group, ...]
    win_card: int | None
    win_pointer: str


def _read_hand(data: str | Mapping[str, Any], deck: Deck, *, waiting: bool) -> _ReadHand:
    if isinstance(data, str):
        return _read_string(data, deck, waiting)
    cards = _read_cards(data["cards"], deck, "/hand/cards")
    groups = []
    for i, g in enumerate(data.get("groups") or ()):
        pointer = f"/hand/groups/{i}"
        flags = {k: v for k, v in g.items() if k not in ("kind", "cards") and v is not None}
        groups.append(_Group(g["kind"], _read_cards(g["cards"], deck, f"{pointer}/cards"),
                             False, pointer, None, flags))
    win_card = None
    if not waiting:
        raw = data.get("win_card")
        if raw is None:
            if not cards:
                raise HandError(Code.WIN_CARD_MISSING,
                                "hand.cards is empty, so there is no winning card: hand.cards "
                                "holds the cards in hand, the winning card included",
                                "/hand/cards")
            win_card = cards[-1]  # the last card written, as in a whole-hand string
        else:
            win_card = _one_card(raw, deck, "/hand/win_card")
    return _ReadHand(cards, "/hand/cards", tuple(groups), win_card, "/hand/win_card")


def _read_string(text: str, deck: Deck, waiting: bool) -> _ReadHand:
    try:
        read = deck.parse_hand(text, "/hand")
    except NotationError as exc:
        if not waiting or exc.code != Code.WIN_CARD_MISSING:
            raise
        raise HandError(Code.WRONG_CARD_COUNT,
                        "No card is written outside brackets in hand: a waiting hand holds "
                        "its cards in hand outside the brackets (the table groups inside).",
                        "/hand") from None
    groups = tuple(_Group(None, g.cards, g.concealed, "/hand", g.position, {})
                   for g in read.groups)
    return _ReadHand(read.cards, "/hand", groups, None if waiting else read.win_card, "/hand")


def _read_cards(raw: str | Sequence[str], deck: Deck, pointer: str) -> tuple[int, ...]:
    if isinstance(raw, str):
        return deck.parse_cards(raw, pointer)
    return deck.parse_codes(raw, pointer)


def _one_card(raw: str, deck: Deck, pointer: str) -> int:
    cards = deck.parse_cards(raw, pointer)
    if len(cards) != 1:
        raise HandError(Code.INVALID_NOTATION,
                        f"{field_name(pointer)} is {raw[:20]!r}, which is {len(cards)} cards: "
                        "it must be one card, such as 10x or 拾", pointer)
    return cards[0]


def _name(deck: Deck, card: int) -> str:
    c = deck.cards[card]
    return f"{c.code} ({c.name})"


def _kind_text(kind: GroupKind) -> str:
    return f"{kind.id} ({kind.name}, {kind.name_en}: {kind.description})"


def _check_hand(read: _ReadHand, options: Mapping[str, Any], rs: CardRuleSet, *,
                waiting: bool) -> tuple[Piece, ...]:
    """The table groups as pieces, after every check of the hand (steps 3 and 4)."""
    deck = rs.deck
    table = tuple(_table_piece(g, i, options, rs) for i, g in enumerate(read.groups))
    _check_count(read, table, options, rs, waiting)
    _check_copies(read, deck)
    held = list(read.cards)
    if read.win_card is not None and read.win_card not in held:
        raise HandError(Code.WIN_CARD_MISSING,
                        f"hand.win_card {_name(deck, read.win_card)} is not among hand.cards "
                        f"({deck.format_hand(held) or 'none'}): hand.cards holds the cards "
                        "in hand, the winning card included", read.win_pointer)
    for card in sorted(set(held)):
        if held.count(card) >= rs.hand.pair_when_size and card != read.win_card:
            fours = ", ".join(k.id for k in table_kinds(rs)
                              if k.table == "concealed" and k.size == rs.hand.pair_when_size)
            where = (" (and it is not hand.win_card, the only card that may join three "
                     "held)" if read.win_card is not None else "")
            raise HandError(Code.UNDECLARED_FOUR,
                            f"The hand holds {held.count(card)} of {_name(deck, card)}{where}: "
                            f"{rs.hand.pair_when_size} of a card held are a table group "
                            f"({fours or 'a group of four'}); list them in hand.groups",
                            read.cards_pointer)
    return table


def _table_piece(g: _Group, i: int, options: Mapping[str, Any], rs: CardRuleSet) -> Piece:
    deck = rs.deck
    cards = tuple(sorted(g.cards))
    written = deck.format_group(cards) if cards else "no cards"
    if g.kind is None:
        # A bracketed group of a whole-hand string: the first kind of its brackets it fits.
        table = "concealed" if g.concealed else "exposed"
        candidates = [k for k in table_kinds(rs) if k.table == table]
        for kind in candidates:
            if cards in rs.kind_groups(kind.id, options):
                return Piece(kind.id, cards)
        brackets = "{...}" if g.concealed else "[...]"
        assert g.position is not None
        raise NotationError(Code.ILLEGAL_GROUP,
                            f"The {brackets} group at position {g.position} ({written}) is "
                            f"no {table} table group; one is: "
                            + "; ".join(_kind_text(k) for k in candidates),
                            g.pointer, g.position)
    kind = rs.groups[g.kind]
    name = field_name(g.pointer)
    if cards not in rs.kind_groups(kind.id, options):
        fits = [k.id for k in table_kinds(rs) if cards in rs.kind_groups(k.id, options)]
        seen = f" ({written} is a {' or '.join(fits)})" if fits else ""
        raise HandError(Code.ILLEGAL_GROUP,
                        f"{name} is a {kind.id} group, but {written} is not one: a "
                        f"{_kind_text(kind)}{seen}", f"{g.pointer}/cards")
    for flag in g.flags:
        if flag not in kind.flags:
            owners = [k.id for k in table_kinds(rs) if flag in k.flags]
            raise HandError(Code.INVALID_FIELD,
                            f"{name}.{flag} is a flag of {' and '.join(owners)} groups only; "
                            f"leave it out (or null) for a {kind.id} group",
                            f"{g.pointer}/{flag}")
    return Piece(kind.id, cards)


def _check_count(read: _ReadHand, table: Sequence[Piece], options: Mapping[str, Any],
                 rs: CardRuleSet, waiting: bool) -> None:
    rule = rs.hand
    fours = sum(1 for p in table if len(p.cards) == rule.pair_when_size)
    base = int(resolve(rule.cards, options))
    extra = rule.per_extra * max(0, fours - 1)
    needed = base + extra - (1 if waiting else 0)
    on_table = sum(len(p.cards) for p in table)
    total = len(read.cards) + on_table
    if total == needed:
        return
    chosen = (f" (options.{rule.cards.option} {options[rule.cards.option]})"
              if isinstance(rule.cards, Chosen) else "")
    why = f"{base}{chosen}"
    if rule.per_extra:
        why += (f" plus {rule.per_extra} for each table group of {rule.pair_when_size} cards "
                f"after the first ({fours} on the table, so {extra} more)")
    if waiting:
        why += " minus 1: a waiting hand is one card short of a win"
    else:
        why += "; the cards in hand include the winning card"
    raise HandError(Code.WRONG_CARD_COUNT,
                    f"The hand holds {total} cards ({len(read.cards)} in hand, {on_table} in "
                    f"{len(table)} table group{'' if len(table) == 1 else 's'}), but {needed} "
                    f"are needed: {why}", read.cards_pointer)


def _check_copies(read: _ReadHand, deck: Deck) -> None:
    """No card more often than the deck has copies of it, over the hand and its groups; the
    pointer names the field where the count first goes over."""
    counts = [0] * deck.size
    for c in (*read.cards, *(c for g in read.groups for c in g.cards)):
        counts[c] += 1
    if max(counts, default=0) <= deck.copies:
        return
    seen = [0] * deck.size
    parts = [(read.cards, read.cards_pointer)]
    parts += [(g.cards, g.pointer if g.position is not None else f"{g.pointer}/cards")
              for g in read.groups]
    for cards, pointer in parts:
        for c in cards:
            seen[c] += 1
            if seen[c] > deck.copies:
                raise HandError(Code.TOO_MANY_COPIES,
                                f"{_name(deck, c)} appears {counts[c]} times in the hand "
                                f"(its cards and table groups together), but the deck has "
                                f"{deck.copies} of each card", pointer)
    raise AssertionError("too many copies found nowhere")  # pragma: no cover


# --- the context -------------------------------------------------------------------------


def _build_context(data: Mapping[str, Any], options: Mapping[str, Any],
                   rs: CardRuleSet) -> CardWin:
    get = data.get
    players = rs.players_of(options)
    winner = _seat(get("winner"), "winner", players) or 0
    dealer = _seat(get("dealer"), "dealer", players) or 0
    seats = {f: _seat(get(f), f, players) for f in payer_fields(rs)}
    win_type: str | None = get("win_type")
    payer = None
    needed = rs.win_types[win_type].payer_field if win_type is not None else None
    for f, seat in seats.items():
        if f == needed:
            if seat is None:
                raise _inconsistent(f"context.win_type is {win_type} but context.{f} is "
                                    f"missing: give the seat the winning card came from",
                                    f"/context/{f}")
            if seat == winner:
                raise _inconsistent(f"context.{f} equals context.winner (seat {winner}): the "
                                    f"winning card of a {win_type} win comes from another "
                                    "player", f"/context/{f}")
            payer = seat
        elif seat is not None:
            uses = [w for w, d in rs.win_types.items() if d.payer_field == f]
            if win_type is None:
                why = ("no context.win_type is given, so every win type is tried; give "
                       f"context.win_type {' or '.join(uses)} with it, or leave it null")
            else:
                why = (f"context.win_type is {win_type}; context.{f} names the seat of a "
                       f"{' or '.join(uses)} win, so leave it null")
            raise _inconsistent(f"context.{f} is {seat} but {why}", f"/context/{f}")
    flags = {f: bool(get(f)) for f in rs.context_flags}
    cards: dict[str, int | None] = {}
    for f in rs.context_cards:
        raw = get(f)
        cards[f] = None if raw is None else _one_card(raw, rs.deck, f"/context/{f}")
    _check_context_cards(cards, options, rs)
    return CardWin(win_type if win_type is not None else "", winner, dealer, payer, players,
                   flags, cards, options)


def _check_context_cards(cards: Mapping[str, int | None], options: Mapping[str, Any],
                         rs: CardRuleSet) -> None:
    """A context card a scoring step reads under the request's options must be given."""
    for step in resolve(rs.steps, options):
        for value in step.params.values():
            named = resolve(value, options)
            if isinstance(named, str) and named in cards and cards[named] is None:
                chosen = (f"with options.{value.option} {options[value.option]!r}, "
                          if isinstance(value, Chosen) else "")
                raise _inconsistent(f"context.{named} is missing: {chosen}the scoring step "
                                    f"{step.name} counts the copies of that card in the "
                                    "finished hand; give it", f"/context/{named}")


def _seat(value: int | None, key: str, players: int) -> int | None:
    if value is not None and not 0 <= value < players:
        raise HandError(Code.SEAT_OUT_OF_RANGE,
                        f"context.{key} is {value}, but the seats are 0..{players - 1} "
                        f"({players} players)", f"/context/{key}")
    return value


def _inconsistent(message: str, pointer: str) -> HandError:
    return HandError(Code.INCONSISTENT_CONTEXT, message, pointer)
