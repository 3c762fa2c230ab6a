"""The word-card deck and its notation (`app.domain.deck`), on the deck a rule set declares."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain.deck import Deck
from app.domain.errors import Code, HandError, NotationError
from app.rules.cards.model import CardRuleSet
from tests.loaded import repo_rulesets

ROOT = Path(__file__).resolve().parents[2]
CARD_RULESETS = [rs for rs in repo_rulesets().values()
                 if isinstance(rs, CardRuleSet)]
DECK: Deck = CARD_RULESETS[0].deck


def codes(text: str) -> list[str]:
    return [DECK.cards[c].code for c in DECK.parse_cards(text, "/x")]


def test_the_deck_has_twenty_kinds_of_four_and_24_red_cards() -> None:
    assert DECK.size == 20 and DECK.copies == 4
    red = DECK.with_attribute("red")
    assert sorted(DECK.cards[c].code for c in red) == sorted(
        ["2x", "7x", "10x", "2d", "7d", "10d"])
    assert len(red) * DECK.copies == 24


@pytest.mark.parametrize(("text", "want"), [
    ("110x", ["1x", "10x"]),
    ("1110x", ["1x", "1x", "10x"]),
    ("1010x", ["10x", "10x"]),
    ("2710d", ["2d", "7d", "10d"]),
    ("101010x", ["10x", "10x", "10x"]),
    ("123x 2710d", ["1x", "2x", "3x", "2d", "7d", "10d"]),
    ("壹贰叁二七十", ["1d", "2d", "3d", "2x", "7x", "10x"]),
    ("貳參叄陸", ["2d", "3d", "3d", "6d"]),
])
def test_compact_groups_read_10_as_one_rank(text: str, want: list[str]) -> None:
    assert codes(text) == want


@pytest.mark.parametrize(("text", "code", "position"), [
    ("100x", Code.INVALID_NOTATION, 2),
    ("0x", Code.INVALID_NOTATION, 0),
    ("123X", Code.UNKNOWN_CARD, 3),
    ("12", Code.INVALID_NOTATION, 2),
    ("x", Code.INVALID_NOTATION, 0),
    ("1m", Code.UNKNOWN_CARD, 1),
    ("东", Code.UNKNOWN_CARD, 0),
])
def test_bad_notation_names_the_position(text: str, code: Code, position: int) -> None:
    with pytest.raises(NotationError) as info:
        DECK.parse_cards(text, "/hand/cards")
    assert info.value.code == code and info.value.position == position
    assert info.value.pointer == "/hand/cards"


def test_whole_hand_string() -> None:
    read = DECK.parse_hand("{10101010d}[2710x]78x123d55x9x", "/hand")
    assert [(g.concealed, [DECK.cards[c].code for c in g.cards]) for g in read.groups] == [
        (True, ["10d"] * 4), (False, ["2x", "7x", "10x"])]
    assert DECK.cards[read.win_card].code == "9x"
    assert len(read.cards) == 8


@pytest.mark.parametrize("text", ["[123x", "123x]", "{[11x]}", "{}9x", "[123x]"])
def test_whole_hand_string_errors(text: str) -> None:
    with pytest.raises(HandError):
        DECK.parse_hand(text, "/hand")


def test_output_is_one_compact_group_per_case_and_mixed_groups_card_by_card() -> None:
    assert DECK.format_hand(DECK.parse_cards("十二七壹叁贰", "")) == "2710x 123d"
    assert DECK.format_group(DECK.parse_cards("9d9x9x", "")) == "9x9x9d"
    assert DECK.format_group(DECK.parse_cards("6d6x6d", "")) == "6x6d6d"


card_lists = st.lists(st.integers(0, 19), min_size=1, max_size=21)


@given(card_lists, st.randoms(use_true_random=False))
def test_every_notation_reads_back_the_same_cards(cards: list[int], rnd: object) -> None:
    compact = DECK.format_hand(cards)
    chinese = "".join(DECK.cards[c].name for c in cards)
    listed = [DECK.cards[c].code for c in cards]
    want = sorted(cards)
    assert sorted(DECK.parse_cards(compact, "")) == want
    assert sorted(DECK.parse_cards(chinese, "")) == want
    assert sorted(DECK.parse_codes(listed, "")) == want
    assert sorted(DECK.parse_cards(" ".join(listed), "")) == want
