"""A deck of cards declared by a rule set: its kinds, their names and attributes, the copies
of each, and the notation its requests are written in.

A deck has suits (for word cards: the two cases, 小写 and 大写) and ranks; a card kind is one
(suit, rank), with its index suit-major: all of the first suit in rank order, then the next.
Card codes are the rank token then the suit letter (`10x`); a compact group runs several rank
tokens before one letter (`2710x`). Rank tokens may be longer than one digit (`10`): the
notation reads the longest token that fits at each place, which is unambiguous as long as no
token is a prefix of a longer one that could also start there (`1` and `10`: a `0` never
stands alone). Each card may also be written as one character of its name (`十`, `拾`), and
declared aliases (traditional forms) read the same.

Nothing here knows a particular game: the rule set loader builds the deck from YAML.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from app.domain.errors import Code, HandError, NotationError


@dataclass(frozen=True)
class Suit:
    letter: str
    name: str
    name_en: str
    # One name per rank, in rank order (the characters a card may be written as).
    rank_names: tuple[str, ...]


@dataclass(frozen=True)
class Card:
    index: int
    code: str
    suit: str
    rank: int
    name: str
    attributes: frozenset[str]


class TableGroup(NamedTuple):
    """A group written in brackets in a whole-hand string: `[...]` exposed, `{...}`
    concealed; the position is that of its opening bracket."""

    concealed: bool
    cards: tuple[int, ...]
    position: int


class HandText(NamedTuple):
    """A whole-hand string read: the cards outside brackets (the last is the winning card)
    and the bracketed groups in the order written."""

    cards: tuple[int, ...]
    groups: tuple[TableGroup, ...]
    win_card: int


@dataclass(frozen=True)
class Deck:
    name: str
    suits: tuple[Suit, ...]
    ranks: tuple[int, ...]
    copies: int
    # attribute -> the ranks that have it (the same in every suit).
    attributes: Mapping[str, frozenset[int]] = field(default_factory=dict)
    # Extra characters read as a card: character -> card code.
    aliases: Mapping[str, str] = field(default_factory=dict)

    @cached_property
    def cards(self) -> tuple[Card, ...]:
        out: list[Card] = []
        for suit in self.suits:
            for rank, name in zip(self.ranks, suit.rank_names, strict=True):
                attrs = frozenset(a for a, ranks in self.attributes.items() if rank in ranks)
                out.append(Card(len(out), f"{rank}{suit.letter}", suit.letter, rank, name,
                                attrs))
        return tuple(out)

    @property
    def size(self) -> int:
        return len(self.ranks) * len(self.suits)

    @cached_property
    def by_code(self) -> Mapping[str, int]:
        return {c.code: c.index for c in self.cards}

    @cached_property
    def by_char(self) -> Mapping[str, int]:
        table = {c.name: c.index for c in self.cards}
        table.update({ch: self.by_code[code] for ch, code in self.aliases.items()})
        return table

    @cached_property
    def _rank_tokens(self) -> tuple[tuple[str, int], ...]:
        # Longest first, so that `10` is read before `1`.
        return tuple(sorted(((str(r), r) for r in self.ranks), key=lambda t: -len(t[0])))

    @cached_property
    def _suit_letters(self) -> Mapping[str, int]:
        return {s.letter: i for i, s in enumerate(self.suits)}

    def index(self, suit: str, rank: int) -> int:
        return self._suit_letters[suit] * len(self.ranks) + self.ranks.index(rank)

    def with_attribute(self, attribute: str) -> frozenset[int]:
        """The indices of the card kinds that have `attribute` (none for an unknown one)."""
        return self._by_attribute.get(attribute, frozenset())

    @cached_property
    def _by_attribute(self) -> Mapping[str, frozenset[int]]:
        return {a: frozenset(c.index for c in self.cards if a in c.attributes)
                for a in self.attributes}

    # --- reading ---------------------------------------------------------------------

    def parse_cards(self, text: str, pointer: str) -> tuple[int, ...]:
        """Cards written as compact groups, single codes or characters, spaces allowed."""
        return self._read(text, pointer, brackets=False)[0]

    def parse_codes(self, codes: Sequence[object], pointer: str) -> tuple[int, ...]:
        """Cards given as a list, each one card (a code or a character)."""
        out = []
        for i, code in enumerate(codes):
            here = f"{pointer}/{i}"
            if not isinstance(code, str):
                raise HandError(Code.INVALID_FIELD, f"Card {i} must be a string.", here)
            read = self.parse_cards(code, here)
            if len(read) != 1:
                raise HandError(Code.INVALID_NOTATION,
                                f"Card {i} ({code[:20]!r}) must be one card, not {len(read)}.",
                                here)
            out.append(read[0])
        return tuple(out)

    def parse_hand(self, text: str, pointer: str) -> HandText:
        """A whole-hand string: `[...]` exposed groups, `{...}` concealed groups, the rest
        the hand; the last card written outside brackets is the winning card."""
        cards, groups, last = self._read(text, pointer, brackets=True)
        if last is None:
            raise NotationError(Code.WIN_CARD_MISSING,
                                "The hand string has no card outside brackets, so no winning "
                                "card: the last card written outside brackets is the winning "
                                "card.", pointer, len(text))
        return HandText(cards, groups, last)

    def _read(self, text: str, pointer: str, brackets: bool
              ) -> tuple[tuple[int, ...], tuple[TableGroup, ...], int | None]:
        """(the cards, the bracketed groups, the last card) of a string of cards, with
        groups in brackets only where `brackets` says they may be."""
        cards: list[int] = []
        groups: list[TableGroup] = []
        inside: list[int] | None = None
        opened = (0, "")
        pending: list[tuple[int, int]] = []  # (rank, position) read before their letter
        closers = {"[": "]", "{": "}"}
        i = 0
        n = len(text)

        def take(index: int) -> None:
            (inside if inside is not None else cards).append(index)

        while i < n:
            ch = text[i]
            if ch.isdigit():
                rank, length = self._rank_at(text, i, pointer)
                pending.append((rank, i))
                i += length
                continue
            if pending and ch not in self._suit_letters:
                raise NotationError(Code.INVALID_NOTATION if ch.isascii() and not ch.isalpha()
                                    else Code.UNKNOWN_CARD,
                                    f"Ranks at position {pending[0][1]} must be followed by a "
                                    f"suit letter ({', '.join(self._suit_letters)}), not "
                                    f"{ch!r} at position {i}.", pointer, i)
            if ch in self._suit_letters:
                if not pending:
                    raise NotationError(Code.INVALID_NOTATION,
                                        f"Suit letter {ch!r} at position {i} has no ranks "
                                        "before it.", pointer, i)
                for rank, _ in pending:
                    take(self.index(ch, rank))
                pending.clear()
            elif ch in self.by_char:
                take(self.by_char[ch])
            elif ch.isspace() or ch == ",":
                pass
            elif brackets and ch in closers:
                if inside is not None:
                    raise NotationError(Code.INVALID_NOTATION,
                                        f"{ch!r} at position {i} opens a group inside the "
                                        f"group opened at position {opened[0]}.", pointer, i)
                inside, opened = [], (i, closers[ch])
            elif brackets and ch in "]}":
                groups.append(_closed(ch, i, inside, opened, pointer))
                inside = None
            else:
                raise self._not_a_card(ch, i, pointer)
            i += 1
        self._check_end(pending, opened[0] if inside is not None else -1, pointer, n)
        return tuple(cards), tuple(groups), cards[-1] if cards else None

    def _rank_at(self, text: str, i: int, pointer: str) -> tuple[int, int]:
        """The rank written at position `i`, and how many characters it takes."""
        for token, rank in self._rank_tokens:
            if text.startswith(token, i):
                return rank, len(token)
        raise NotationError(Code.INVALID_NOTATION,
                            f"{text[i]!r} at position {i} does not start a rank; ranks "
                            f"are {', '.join(str(r) for r in self.ranks)} (a 0 only "
                            "follows a 1, as in 10).", pointer, i)

    def _not_a_card(self, ch: str, i: int, pointer: str) -> NotationError:
        """The error for a character `ch`, at position `i`, that is not a card."""
        code = Code.UNKNOWN_CARD if ch.isalpha() else Code.INVALID_NOTATION
        return NotationError(code,
                             f"{ch!r} at position {i} is not a card: write ranks "
                             f"then {' or '.join(self._suit_letters)} (e.g. 2710x), "
                             "or the card's character (e.g. 十, 拾).", pointer, i)

    def _check_end(self, pending: list[tuple[int, int]], open_at: int, pointer: str,
                   n: int) -> None:
        """At the end of a string of `n` characters: an error for ranks still waiting for
        their suit letter (`pending`), or for a group still open (opened at `open_at`; -1:
        none is)."""
        if pending:
            raise NotationError(Code.INVALID_NOTATION,
                                f"Ranks at position {pending[0][1]} have no suit letter after "
                                f"them ({', '.join(self._suit_letters)}).", pointer, n)
        if open_at >= 0:
            raise NotationError(Code.INVALID_NOTATION,
                                f"The group opened at position {open_at} is not closed.",
                                pointer, open_at)

    # --- writing ---------------------------------------------------------------------

    def format_hand(self, cards: Iterable[int]) -> str:
        """Cards as one compact group per suit, in rank order: `123x 2710d`."""
        per_suit: dict[int, list[int]] = {}
        for c in sorted(cards):
            per_suit.setdefault(c // len(self.ranks), []).append(c)
        return " ".join(self._compact(g) for _, g in sorted(per_suit.items()))

    def format_group(self, cards: Iterable[int]) -> str:
        """One group: compact when of one suit (`2710x`), else card by card in rank order,
        the first suit before the next (`9x9x9d`)."""
        ordered = sorted(cards, key=lambda c: (self.cards[c].rank, c))
        if len({c // len(self.ranks) for c in ordered}) == 1:
            return self._compact(ordered)
        return "".join(self.cards[c].code for c in ordered)

    def _compact(self, cards: Sequence[int]) -> str:
        cs = [self.cards[c] for c in cards]
        return "".join(str(c.rank) for c in cs) + cs[0].suit


def _closed(ch: str, i: int, inside: list[int] | None, opened: tuple[int, str],
            pointer: str) -> TableGroup:
    """The group that `ch`, at position `i`, closes: the cards read `inside` it since it was
    opened (`opened`: where, and the bracket that closes it); an error if no group is open,
    if it was opened with another bracket, or if it is empty."""
    if inside is None or ch != opened[1]:
        raise NotationError(Code.INVALID_NOTATION,
                            f"{ch!r} at position {i} closes no group opened with its pair.",
                            pointer, i)
    if not inside:
        raise NotationError(Code.ILLEGAL_GROUP, f"The group at position {opened[0]} is empty.",
                            pointer, opened[0])
    return TableGroup(ch == "}", tuple(inside), opened[0])
