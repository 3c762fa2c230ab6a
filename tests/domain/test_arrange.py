"""Arrangements of a hand of cards into groups (`app.domain.arrange`)."""

from __future__ import annotations

from app.domain.arrange import Arranger, Form, patterns
from app.domain.deck import Deck, Suit

# A small deck of two suits of five ranks, two copies each.
DECK = Deck("test", (Suit("a", "A", "A", "一二三四五"), Suit("b", "B", "B", "壹贰叁肆伍")),
            (1, 2, 3, 4, 5), 2)


def test_forms_expand_to_the_concrete_groups() -> None:
    assert len(patterns(DECK, Form("same", 3))) == 10
    assert patterns(DECK, Form("run", 3))[:3] == ((0, 1, 2), (1, 2, 3), (2, 3, 4))
    assert patterns(DECK, Form("ranks", 3, (1, 3, 5))) == ((0, 2, 4), (5, 7, 9))
    mixed = patterns(DECK, Form("mixed", 3))
    assert (0, 0, 5) in mixed and (0, 5, 5) in mixed and len(mixed) == 10


def test_every_arrangement_once_with_the_pairs_asked() -> None:
    arr = Arranger(DECK.size, [("run", patterns(DECK, Form("run", 3))),
                               ("pair", patterns(DECK, Form("same", 2)))], "pair")
    counts = [0] * DECK.size
    for c in (0, 1, 2, 0, 1, 2):  # 一二三 一二三
        counts[c] += 1
    assert [[p.kind for p in a] for a in arr.arrangements(counts, 0)] == [["run", "run"]]
    assert arr.arrangements(counts, 1) == ()
    counts[4] += 2  # + 五五
    found = arr.arrangements(counts, 1)
    assert len(found) == 1 and sorted(p.kind for p in found[0]) == ["pair", "run", "run"]


def test_an_arrangement_is_found_once_whichever_group_takes_the_lowest_card_first() -> None:
    # 一一二三 壹壹: 一二三 + 一壹壹 can be found by taking either group first.
    arr = Arranger(DECK.size, [("run", patterns(DECK, Form("run", 3))),
                               ("mixed", patterns(DECK, Form("mixed", 3)))], None)
    counts = [0] * DECK.size
    for c in (0, 0, 1, 2, 5, 5):
        counts[c] += 1
    found = arr.arrangements(counts, 0)
    assert [sorted(p.kind for p in a) for a in found] == [["mixed", "run"]]
    # Two equal groups are one arrangement too.
    counts = [0] * DECK.size
    for c in (0, 1, 2, 0, 1, 2):
        counts[c] += 1
    assert len(arr.arrangements(counts, 0)) == 1
