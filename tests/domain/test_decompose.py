"""Decomposition of a hand into readings: every shape, the per-suit splits, and the waits.

Properties (hypothesis) pin the fast paths to brute force:
- `regular_waits(counts)` is exactly the set of tiles `t` with `is_regular_complete(counts + t)`;
- `formal_waits` (app.rules.view) is exactly the set of tiles whose addition gives `decompose`
  at least one reading, in any shape the mcr rule set admits;
- every reading uses exactly the hand's tiles.
A wait may be a fifth copy of a tile the hand holds four of (formal waits, MIL practice), so the
brute force adds every one of the 34 kinds, whatever the hand already holds.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement, product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.domain.decompose import (
    counts_of,
    is_regular_complete,
    part_ranks,
    regular_splits,
    regular_waits,
    suit_complete,
    suit_splits,
)
from app.domain.hand import CHOW, KONG, PUNG, Hand
from app.domain.hand_notation import parse_hand_string
from app.domain.notation import parse_tiles
from app.domain.readings import KNIT, PAIR, Group, Reading
from app.domain.shapes import (
    HONORS_AND_KNITTED,
    KNITTED_STRAIGHT,
    NINE_GATES,
    REGULAR,
    SEVEN_PAIRS,
    SHAPES,
    THIRTEEN_ORPHANS,
    completing_tiles,
    declared_groups,
    decompose,
    knitted_arrangements,
    waits_alone,
)
from app.domain.standing import standing, standing_waits, standing_waits_less, without
from app.domain.tiles import STANDARD
from app.rules.view import formal_waits


def special_waits(c: list[int], n_melds: int, shapes: frozenset[str], ts: object) -> set[int]:
    """The waits of the special shapes that are not also regular hands."""
    special = shapes & {THIRTEEN_ORPHANS, HONORS_AND_KNITTED, KNITTED_STRAIGHT}
    return set(completing_tiles(c, n_melds, special, T))

T = STANDARD
SIZE = T.size  # 34 playing kinds
ALL = frozenset(SHAPES)
PROPS = settings(max_examples=150, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def tiles(text: str) -> list[int]:
    return parse_tiles(text, T)


def hand(text: str) -> Hand:
    """Whole-hand notation: melds in brackets, the last standing tile is the winning tile."""
    standing, melds, win = parse_hand_string(text, T)
    return Hand(tuple(sorted(standing)), tuple(melds), win)


def counts(text: str) -> list[int]:
    return counts_of(tiles(text), SIZE)


def shapes_of(readings: list[Reading]) -> list[str]:
    return [r.shape for r in readings]


def group_tiles(g: Group) -> list[int]:
    if g.kind == CHOW:
        return [g.tile, g.tile + 1, g.tile + 2]
    if g.kind == KNIT:
        return [g.tile, g.tile + 3, g.tile + 6]
    return [g.tile] * {PUNG: 3, KONG: 4, PAIR: 2}[g.kind]


def reading_text(r: Reading) -> list[tuple[str, str]]:
    return [(g.kind, T.code(g.tile)) for g in r.groups]


# ---------------------------------------------------------------------------------------------
# suit_splits


def _reference_suit_splits(c: tuple[int, ...]) -> set[tuple[tuple[tuple[str, int], ...], int]]:
    """Every multiset of sets (and at most one pair) whose tiles are exactly `c`: brute force
    over multisets of the 16 possible sets of a suit."""
    n = sum(c)
    if n % 3 == 1:
        return set()
    sets = [("pung", r) for r in range(9)] + [("chow", r) for r in range(7)]
    pairs = [-1] if n % 3 == 0 else list(range(9))
    out = set()
    for chosen in combinations_with_replacement(sets, n // 3):
        for p in pairs:
            got = [0] * 9
            for kind, r in chosen:
                if kind == "pung":
                    got[r] += 3
                else:
                    for k in range(3):
                        got[r + k] += 1
            if p >= 0:
                got[p] += 2
            if tuple(got) == c:
                key = tuple(sorted(chosen, key=lambda s: (s[1], s[0] != "pung")))
                out.add((key, p))
    return out


@pytest.mark.parametrize(
    ("suit", "expected"),
    [
        # 111222333: three pungs, or three identical chows.
        ("111222333", {((("pung", 0), ("pung", 1), ("pung", 2)), -1),
                       ((("chow", 0), ("chow", 0), ("chow", 0)), -1)}),
        # 11123: the pair before or after the chow at rank 1 is one split, found once.
        ("11123", {((("chow", 0),), 0)}),
        ("1122", set()),
        ("1", set()),
        ("", {((), -1)}),
        ("55", {((), 4)}),
    ],
)
def test_suit_splits_examples(suit: str, expected: set[object]) -> None:
    c = tuple(counts_of([int(ch) - 1 for ch in suit], 9))
    got = suit_splits(c)
    assert set(got) == expected
    assert len(got) == len(set(got))


def test_suit_splits_order_is_pung_before_chow_at_the_lowest_rank() -> None:
    got = suit_splits((3, 3, 3, 0, 0, 0, 0, 0, 0))
    assert got[0] == ((("pung", 0), ("pung", 1), ("pung", 2)), -1)
    assert got[1] == ((("chow", 0), ("chow", 0), ("chow", 0)), -1)


def test_suit_splits_three_n_plus_one_cannot_split() -> None:
    assert suit_splits((1, 1, 1, 1, 0, 0, 0, 0, 0)) == ()
    assert suit_splits((4, 0, 0, 0, 0, 0, 0, 0, 0)) == ()


@st.composite
def suit_vectors(draw: st.DrawFn) -> tuple[int, ...]:
    """A suit's nine counts (each 0..4), usually one that splits: sets and maybe a pair."""
    c = [0] * 9
    if draw(st.booleans()):
        for _ in range(draw(st.integers(0, 4))):
            if draw(st.booleans()):
                r = draw(st.integers(0, 6))
                if all(c[r + k] < 4 for k in range(3)):
                    for k in range(3):
                        c[r + k] += 1
            else:
                r = draw(st.integers(0, 8))
                if c[r] <= 1:
                    c[r] += 3
        if draw(st.booleans()):
            r = draw(st.integers(0, 8))
            if c[r] <= 2:
                c[r] += 2
    else:
        c = draw(st.lists(st.integers(0, 4), min_size=9, max_size=9))
        if sum(c) > 14:
            c = [min(x, 1) for x in c]
    return tuple(c)


@PROPS
@given(suit_vectors())
def test_suit_splits_match_brute_force_each_split_once(c: tuple[int, ...]) -> None:
    got = suit_splits(c)
    assert len(got) == len(set(got)), f"{c}: a split is listed twice: {got}"
    assert set(got) == _reference_suit_splits(c)


def test_suit_complete_agrees_with_the_splits_on_every_suit_of_up_to_eleven_tiles() -> None:
    # Every nine counts of 0..4 holding at most 11 tiles (3n+1 included); suit_vectors
    # below reaches 12..14.
    seen = 0
    for c in product(range(5), repeat=9):
        if sum(c) <= 11:
            seen += 1
            assert suit_complete(c) == bool(suit_splits(c)), c
    assert seen == 123_275


@PROPS
@given(suit_vectors())
def test_suit_complete_agrees_with_the_splits(c: tuple[int, ...]) -> None:
    assert suit_complete(c) == bool(_reference_suit_splits(c)), c


def _ranks_by_definition(c: tuple[int, ...]) -> tuple[bool, frozenset[int]]:
    grown = [(*c[:r], c[r] + 1, *c[r + 1:]) for r in range(9)]
    return suit_complete(c), frozenset(r for r in range(9) if suit_complete(grown[r]))


def test_part_ranks_is_its_definition_on_every_suit_of_up_to_ten_tiles() -> None:
    # Whether the suit splits, and the ranks whose one more tile would make it split: as
    # `suit_complete` says, for every nine counts of 0..4 holding at most 10 tiles;
    # suit_vectors below reaches further.
    for c in product(range(5), repeat=9):
        if sum(c) <= 10:
            assert part_ranks(c) == _ranks_by_definition(c), c
    assert part_ranks((2,)) == (True, frozenset({0}))  # an honour's pair takes a third


@PROPS
@given(suit_vectors())
def test_part_ranks_is_its_definition(c: tuple[int, ...]) -> None:
    assert part_ranks(c) == _ranks_by_definition(c), c


# ---------------------------------------------------------------------------------------------
# regular_splits and is_regular_complete


def test_regular_splits_product_of_suits_and_honours() -> None:
    c = counts("111222333m123p55sEEE")
    splits = regular_splits(c, T)
    assert len(splits) == 2
    for split in splits:
        assert Group(PAIR, tiles("5s")[0]) in split
        assert Group(PUNG, tiles("E")[0]) in split
        assert Group(CHOW, tiles("1p")[0]) in split


@pytest.mark.parametrize(
    "text",
    [
        "123m456p789s11sEEEE",  # four of an honour is no set and no pair
        "123m456p789s11sEE",  # two pairs
        "123m456p789s111sE",  # a lone honour
        "123m456p789s111s",  # no pair
        "124m456p789s111sEE",  # a suit that does not split
    ],
)
def test_regular_splits_negative(text: str) -> None:
    c = counts(text)
    assert regular_splits(c, T) == []
    assert not is_regular_complete(c, T)


@PROPS
@given(st.lists(st.integers(0, SIZE - 1), min_size=2, max_size=14))
def test_is_regular_complete_agrees_with_regular_splits(ts: list[int]) -> None:
    c = counts_of(ts, SIZE)
    assert is_regular_complete(c, T) == bool(regular_splits(c, T))


# ---------------------------------------------------------------------------------------------
# decompose: each shape, positive and negative


def test_regular_reading_keeps_declared_melds_first_and_unsplit() -> None:
    h = hand("[123m][456m]789m11pEEE")
    readings = decompose(h, ALL, T)
    assert shapes_of(readings) == [REGULAR]
    groups = readings[0].groups
    assert groups[:2] == (Group(CHOW, tiles("1m")[0], True, False),
                          Group(CHOW, tiles("4m")[0], True, False))
    assert all(not g.declared for g in groups[2:])


def test_declared_kong_is_concealed_only_when_declared_so() -> None:
    h = hand("{5555s}[6666s]123m456m1p1p")
    (r,) = decompose(h, ALL, T)
    assert r.groups[0] == Group(KONG, tiles("5s")[0], True, True)
    assert r.groups[1] == Group(KONG, tiles("6s")[0], True, False)


def test_regular_every_distinct_reading() -> None:
    h = hand("111222333m456p77s")
    readings = decompose(h, frozenset({REGULAR}), T)
    # Groups come in tile order, and the suits in the order m, s, p.
    assert sorted(map(reading_text, readings)) == [
        [(CHOW, "1m"), (CHOW, "1m"), (CHOW, "1m"), (PAIR, "7s"), (CHOW, "4p")],
        [(PUNG, "1m"), (PUNG, "2m"), (PUNG, "3m"), (PAIR, "7s"), (CHOW, "4p")],
    ]


def test_regular_negative() -> None:
    assert decompose(hand("123m456p789s11sEW"), ALL, T) == []


def test_seven_pairs_positive_four_of_a_kind_is_two_pairs() -> None:
    h = hand("11112233m445566p")
    readings = decompose(h, ALL, T)
    assert SEVEN_PAIRS in shapes_of(readings)
    (sp,) = [r for r in readings if r.shape == SEVEN_PAIRS]
    assert [g.kind for g in sp.groups] == [PAIR] * 7
    assert Counter(g.tile for g in sp.groups)[tiles("1m")[0]] == 2


@pytest.mark.parametrize(
    "text",
    [
        "1112233m4455667p",  # a triple and a single
        "[123m]22m445566p77p",  # declared meld: no seven pairs
    ],
)
def test_seven_pairs_negative(text: str) -> None:
    assert SEVEN_PAIRS not in shapes_of(decompose(hand(text), ALL, T))


def test_seven_pairs_only_when_the_shape_is_enabled() -> None:
    h = hand("1133557799m1133p")
    assert shapes_of(decompose(h, ALL, T)) == [SEVEN_PAIRS]
    assert decompose(h, frozenset({REGULAR}), T) == []


def test_thirteen_orphans() -> None:
    h = hand("19m19p19sESWNCFPC")
    assert shapes_of(decompose(h, ALL, T)) == [THIRTEEN_ORPHANS]
    assert decompose(h, ALL, T)[0].groups == ()
    # One orphan missing, another doubled twice over: not the shape.
    assert decompose(hand("19m19p19sESWNCCPP"), ALL, T) == []
    # A simple among them.
    assert decompose(hand("19m19p19sESWNCF5mP"), ALL, T) == []


def test_honors_and_knitted_lesser_and_greater() -> None:
    lesser = hand("147m258p369sESWNC")
    assert shapes_of(decompose(lesser, ALL, T)) == [HONORS_AND_KNITTED]
    greater = hand("147m25p36sESWNCFP")
    assert shapes_of(decompose(greater, ALL, T)) == [HONORS_AND_KNITTED]
    # Any subset of one knitted arrangement will do.
    assert shapes_of(decompose(hand("14m25p369sESWNCFP"), ALL, T)) == [HONORS_AND_KNITTED]


@pytest.mark.parametrize(
    "text",
    [
        "147m258p369sESWNN",  # a pair: 13 kinds
        "12m258p369sESWNCF",  # 1m and 2m are neighbours, no arrangement holds both
        "147m147p369sESWNC",  # 147 twice: two suits with the same offsets
    ],
)
def test_honors_and_knitted_negative(text: str) -> None:
    assert HONORS_AND_KNITTED not in shapes_of(decompose(hand(text), ALL, T))


def test_knitted_straight_with_a_set_and_a_pair() -> None:
    h = hand("147m258p369s123m55s")
    readings = decompose(h, ALL, T)
    assert shapes_of(readings) == [KNITTED_STRAIGHT]
    assert reading_text(readings[0]) == [
        (KNIT, "1m"), (KNIT, "3s"), (KNIT, "2p"), (CHOW, "1m"), (PAIR, "5s")]


def test_knitted_straight_with_one_declared_meld() -> None:
    h = hand("[EEE]147m258p369s55s")
    readings = decompose(h, ALL, T)
    assert shapes_of(readings) == [KNITTED_STRAIGHT]
    assert readings[0].groups[0] == Group(PUNG, tiles("E")[0], True, False)


def test_knitted_straight_negative() -> None:
    # Two declared melds: the nine knitted tiles cannot stand with 3 more tiles.
    assert decompose(hand("[EEE][SSS]147m258p369s"), ALL, T) == []
    # A knitted tile missing.
    assert decompose(hand("147m258p36s123m55sE"), ALL, T) == []
    # The rest is no set and pair.
    assert decompose(hand("147m258p369s124m55s"), ALL, T) == []


@pytest.mark.parametrize("win", [f"{r}m" for r in range(1, 10)])
def test_nine_gates_on_every_tile_of_the_suit(win: str) -> None:
    h = hand("1112345678999m" + win)
    readings = decompose(h, ALL, T)
    assert shapes_of(readings)[0] == NINE_GATES
    assert set(shapes_of(readings)) == {NINE_GATES, REGULAR}
    (ng,) = [r for r in readings if r.shape == NINE_GATES]
    assert sorted(t for g in ng.groups for t in group_tiles(g)) == sorted(h.concealed)


def test_nine_gates_negative() -> None:
    # The same fourteen tiles, but the winning tile leaves 11123455678999 - 9 = not 1112345678999.
    h = hand("1112345567899m9m")
    assert NINE_GATES not in shapes_of(decompose(h, ALL, T))
    assert REGULAR in shapes_of(decompose(h, ALL, T))
    # Another suit's tile.
    assert decompose(hand("111234567899m99p"), ALL, T) == []


def test_special_shapes_come_before_regular() -> None:
    h = hand("11223344556677m")
    assert shapes_of(decompose(h, ALL, T))[0] == SEVEN_PAIRS
    assert REGULAR in shapes_of(decompose(h, ALL, T))


def test_knitted_arrangements_are_the_six_permutations() -> None:
    arrs = knitted_arrangements(T)
    assert len(set(arrs)) == 6
    for arr in arrs:
        assert len(arr) == 9
        assert {T.kinds[t].suit for t in arr} == {"m", "p", "s"}
        assert sorted(T.kinds[t].rank % 3 for t in arr) == [0, 0, 0, 1, 1, 1, 2, 2, 2]


# ---------------------------------------------------------------------------------------------
# Waits, unit cases


@pytest.mark.parametrize(
    ("standing", "expected"),
    [
        ("1112345678999m", "123456789m"),  # nine gates
        ("123m456p789s111sE", "E"),
        ("123m456p789s11s23m", "14m"),
        ("123m456p789s11s13m", "2m"),
        ("123m456p789s11s12m", "3m"),
        ("123m456p789s1155s", "15s"),
        ("1111m", "1m"),  # 111+11 with a fifth 1m: formal waits count it
        ("4444666s", "45s"),  # 444+44+666 with a fifth 4s, or 444+456+66
        ("123m456p789s11sEW", ""),
    ],
)
def test_regular_waits_examples(standing: str, expected: str) -> None:
    assert regular_waits(counts(standing), T) == set(tiles(expected))


def test_special_waits_examples() -> None:
    c = counts("19m19p19sESWNCFP")
    assert special_waits(c, 0, ALL, T) == set(tiles("19m19p19sESWNCFP"))
    c = counts("19m19p19sESWNCCF")
    assert special_waits(c, 0, ALL, T) == set(tiles("P"))
    c = counts("147m258p369sESWN")
    assert special_waits(c, 0, ALL, T) == set(tiles("CFP"))
    c = counts("147m258p36sESWNC")
    assert special_waits(c, 0, ALL, T) == set(tiles("9sFP"))
    # 组合龙 with a declared meld: ten standing tiles less one.
    c = counts("147m258p369s5s")
    assert special_waits(c, 1, ALL, T) == set(tiles("5s"))
    # The shapes must be enabled.
    assert special_waits(counts("19m19p19sESWNCFP"), 0, frozenset({REGULAR}), T) == set()


def test_formal_waits_counts_seven_pairs_only_without_melds() -> None:
    standing = counts("1133557799m113p3p")
    win = tiles("3p")[0]
    assert tiles("3p")[0] in formal_waits(standing, win, 0, ALL, T)
    assert formal_waits(standing, win, 0, frozenset({REGULAR}), T) == frozenset()


# ---------------------------------------------------------------------------------------------
# Properties


@st.composite
def one_short(draw: st.DrawFn) -> list[int]:
    """A count vector of 1, 4, 7, 10 or 13 tiles, each kind at most 4: half the time a
    complete hand less one tile (so that it waits), else random tiles from a narrow pool."""
    n = draw(st.sampled_from([1, 4, 7, 10, 13]))
    c = [0] * SIZE
    if draw(st.booleans()):
        sets = (n - 1) // 3
        placed = 0
        while placed < sets:
            if draw(st.booleans()):
                start = draw(st.sampled_from(sorted(T.chow_starts)))
                if all(c[start + k] < 4 for k in range(3)):
                    for k in range(3):
                        c[start + k] += 1
                    placed += 1
                    continue
            t = draw(st.integers(0, SIZE - 1))
            if c[t] <= 1:
                c[t] += 3
                placed += 1
        t = draw(st.sampled_from([t for t in range(SIZE) if c[t] <= 2]))
        c[t] += 2
        drop = draw(st.sampled_from([t for t in range(SIZE) if c[t]]))
        c[drop] -= 1
        return c
    low = draw(st.integers(0, SIZE - 11))
    pool = draw(st.lists(st.integers(low, low + 10), min_size=4, max_size=8,
                         unique=True))
    while sum(c) < n:
        free = [t for t in pool if c[t] < 4]
        if not free:
            free = [t for t in range(SIZE) if c[t] < 4]
        c[draw(st.sampled_from(free))] += 1
    return c


@PROPS
@given(one_short())
def test_regular_waits_equal_brute_force(c: list[int]) -> None:
    brute = set()
    for t in range(SIZE):
        c[t] += 1
        if is_regular_complete(c, T):
            brute.add(t)
        c[t] -= 1
    assert regular_waits(c, T) == brute


def _base_hands() -> list[list[int]]:
    """Complete 14-tile hands of every mcr shape, to be perturbed by the strategy below."""
    arr = knitted_arrangements(T)[0]
    honours = list(range(27, 34))
    return [
        tiles("1112345678999m5m"),
        tiles("19m19p19sESWNCFPE"),
        [*arr, *honours[:5]],
        tiles("147m25p36sESWNCFP"),
        [*arr, *tiles("123m55s")],
        tiles("1133557799m1133p"),
        tiles("11223344556677s"),
        tiles("123m456p789s111sEE"),
        tiles("111222333m456p77s"),
    ]


BASES = _base_hands()


@st.composite
def zero_meld_hands(draw: st.DrawFn) -> tuple[list[int], int]:
    """(14 standing tiles, the winning tile among them): a complete hand of some shape with
    up to two tiles replaced at random (so also near misses and non-winning hands)."""
    ts = list(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(0, 2))):
        i = draw(st.integers(0, 13))
        ts[i] = draw(st.integers(0, SIZE - 1))
    if max(Counter(ts).values()) > 4:
        ts = list(draw(st.sampled_from(BASES)))
    win = draw(st.sampled_from(ts))
    return ts, win


@PROPS
@given(zero_meld_hands())
def test_formal_waits_equal_brute_force_over_decompose(data: tuple[list[int], int]) -> None:
    ts, win = data
    before = list(ts)
    before.remove(win)
    brute = set()
    for t in range(SIZE):
        h = Hand(tuple(sorted([*before, t])), (), t)
        if decompose(h, ALL, T):
            brute.add(t)
    got = formal_waits(counts_of(ts, SIZE), win, 0, ALL, T)
    assert got == brute, f"{sorted(before)}: formal {sorted(got)} brute {sorted(brute)}"


@st.composite
def complete_hands(draw: st.DrawFn) -> Hand:
    """Winning hands: one of the bases, or 0..4 declared melds and standing sets + pair."""
    if draw(st.booleans()):
        ts = draw(st.sampled_from(BASES))
        return Hand(tuple(sorted(ts)), (), draw(st.sampled_from(ts)))
    from app.domain.hand import Meld

    c = [0] * SIZE
    melds = []
    standing: list[int] = []
    n_melds = draw(st.integers(0, 4))
    for i in range(4):
        if draw(st.booleans()):
            start = draw(st.sampled_from(sorted(T.chow_starts)))
            group = [start, start + 1, start + 2]
            kind = CHOW
        else:
            t = draw(st.integers(0, SIZE - 1))
            kind = draw(st.sampled_from([PUNG, KONG])) if i < n_melds else PUNG
            group = [t] * (4 if kind == KONG else 3)
        if any(c[t] + group.count(t) > 4 for t in group):
            continue
        for t in group:
            c[t] += 1
        if i < n_melds:
            melds.append(Meld(kind, tuple(group), kind == KONG and draw(st.booleans())))
        else:
            standing += group
    pair = draw(st.sampled_from([t for t in range(SIZE) if c[t] <= 2]))
    standing += [pair, pair]
    return Hand(tuple(sorted(standing)), tuple(melds), draw(st.sampled_from(standing)))


@PROPS
@given(complete_hands())
def test_every_reading_uses_exactly_the_hands_tiles(h: Hand) -> None:
    readings = decompose(h, ALL, T)
    assert readings, f"{h}: a complete hand has at least one reading"
    all_tiles = sorted([*h.concealed, *(t for m in h.melds for t in m.tiles)])
    for r in readings:
        if not r.groups:
            assert r.shape in (THIRTEEN_ORPHANS, HONORS_AND_KNITTED)
            continue
        used = sorted(t for g in r.groups for t in group_tiles(g))
        assert used == all_tiles, f"{r}"
        declared = [g for g in r.groups if g.declared]
        assert [(g.kind, g.tile) for g in declared] == [(m.kind, m.tiles[0]) for m in h.melds]
        standing = sorted(t for g in r.groups if not g.declared for t in group_tiles(g))
        assert standing == sorted(h.concealed)
    assert len(readings) == len(set(readings)), "a reading is listed twice"


# ---------------------------------------------------------------------------------------------
# The shapes' bounds (Shape.melds, Shape.kinds): decompose and completing_tiles ask a shape
# only about hands within them, so a shape must find nothing outside them.


def _one_short(h: Hand) -> list[Hand]:
    return [Hand(tuple(t for i, t in enumerate(h.concealed) if i != h.concealed.index(x)),
                 h.melds, h.win_tile) for x in sorted(set(h.concealed))]


def test_shapes_find_nothing_outside_their_bounds() -> None:
    from tests.mcr_reference.generator import generate

    found: dict[str, int] = {}
    hands = [c.hand for c in generate(1500, 31).cases]
    hands += [hand(text) for text in ("1112345678999m5m", "19m19p19sESWNCFPC", "147m258p369sESWNC",
                                      "147m258p369s123m5s", "11223344556677m")]
    for h in hands:
        tiles = standing(h.concealed, T)
        declared = declared_groups(h)
        for s in SHAPES.values():
            if s.read(tiles, declared, h.win_tile, T):
                found[s.name] = found.get(s.name, 0) + 1
                assert len(h.melds) <= s.melds, (s.name, h)
                assert s.kinds[0] <= tiles.distinct <= s.kinds[1], (s.name, h)
        for short in _one_short(h):
            before = standing(short.concealed, T)
            for s in SHAPES.values():
                if s.completes(before, len(h.melds), T):
                    assert len(h.melds) <= s.melds, (s.name, short)
                    assert s.kinds[0] - 1 <= before.distinct <= s.kinds[1], (s.name, short)
    assert set(found) == set(SHAPES), found


@PROPS
@given(st.lists(st.integers(0, SIZE - 1), min_size=1, max_size=14))
def test_standing_reads_the_counts(ts: list[int]) -> None:
    tiles = standing(ts, T)
    c = counts_of(ts, SIZE)
    assert tiles.counts == c
    assert tiles.kinds == {t for t in range(SIZE) if c[t]}
    assert tiles.distinct == len(tiles.kinds) and tiles.size == len(ts)
    assert tiles.fours == tuple(t for t in range(SIZE) if c[t] == 4)
    assert tiles.categories == sum({1 << T.category[t] for t in tiles.kinds})
    assert standing_waits(tiles) == regular_waits(c, T)


@PROPS
@given(st.lists(st.integers(0, SIZE - 1), min_size=1, max_size=14), st.data())
def test_without_is_standing_less_one_tile(ts: list[int], data: st.DataObject) -> None:
    t = data.draw(st.sampled_from(ts))
    rest = list(ts)
    rest.remove(t)
    assert without(standing(ts, T), t, T) == standing(rest, T)


@PROPS
@given(st.lists(st.integers(0, SIZE - 1), min_size=1, max_size=14), st.data())
def test_standing_waits_less_is_the_waits_of_the_tiles_less_one(ts: list[int],
                                                                 data: st.DataObject) -> None:
    t = data.draw(st.sampled_from(ts))
    tiles = standing(ts, T)
    assert standing_waits_less(tiles, t, T) == standing_waits(without(tiles, t, T))


@PROPS
@given(zero_meld_hands())
def test_waits_alone_is_a_single_formal_wait(data: tuple[list[int], int]) -> None:
    ts, win = data
    tiles = standing(ts, T)
    for shapes in (ALL, frozenset({REGULAR}), ALL - {REGULAR}, frozenset({SEVEN_PAIRS})):
        expected = completing_tiles(without(tiles, win, T), 0, shapes, T) == {win}
        assert waits_alone(tiles, win, 0, shapes, T) == expected, (sorted(ts), win, shapes)


@PROPS
@given(complete_hands())
def test_waits_alone_of_complete_hands_with_melds(h: Hand) -> None:
    tiles = standing(h.concealed, T)
    for win in sorted(set(h.concealed)):
        expected = completing_tiles(without(tiles, win, T), len(h.melds), ALL, T) == {win}
        assert waits_alone(tiles, win, len(h.melds), ALL, T) == expected, (h, win)


def test_parts_of_two_tile_sets_at_the_same_kinds_are_kept_apart() -> None:
    """The 84-tile set's 中发白 sit at the kinds of the standard set's 1p-3p: a part read in
    one set is never handed to the other (their categories differ)."""
    from app.domain.standing import standing
    from app.domain.tiles import DOTS_BAMBOO_DRAGONS as KWX

    dragons = standing(parse_tiles("CCCFF", KWX), KWX)
    dots = standing(parse_tiles("111p22p", STANDARD), STANDARD)
    assert dragons.ordered == dots.ordered  # the same kinds, by index
    assert dragons.categories == 1 << 4  # dragons
    assert dots.categories == 1 << STANDARD.category[dots.ordered[0]]  # 筒
    again = standing(parse_tiles("CCCFF", KWX), KWX)
    assert again.categories == 1 << 4
    # Its 条 sit where the standard set has 万: the same counts, but written otherwise.
    bamboo = standing(parse_tiles("234s", KWX), KWX)
    characters = standing(parse_tiles("234m", STANDARD), STANDARD)
    assert bamboo.ordered == characters.ordered
    assert bamboo.parts[0] is not characters.parts[0]
    # The 108-tile set lays its suits out as the standard set does, and shares its parts.
    from app.domain.tiles import SUITS
    assert standing(parse_tiles("234m", SUITS), SUITS).parts[0] is characters.parts[0]


def test_the_136_tile_set_is_the_standard_set_without_flowers() -> None:
    """`no_flowers` keeps the standard set's 34 kinds at the same indices (so it shares its
    parts), four of each, and has no flower: a flower written in it is no tile at all."""
    from app.domain.errors import NotationError
    from app.domain.standing import standing
    from app.domain.tiles import NO_FLOWERS

    assert [k.code for k in NO_FLOWERS.kinds] == [STANDARD.kinds[t].code
                                                  for t in STANDARD.playing]
    assert sum(NO_FLOWERS.copies) == 136 and not NO_FLOWERS.flowers
    assert parse_tiles("19m19p19sESWNCFP", NO_FLOWERS) == parse_tiles("19m19p19sESWNCFP",
                                                                      STANDARD)
    assert (standing(parse_tiles("234m", NO_FLOWERS), NO_FLOWERS).parts[0]
            is standing(parse_tiles("234m", STANDARD), STANDARD).parts[0])
    for flower in ("1f", "春"):
        with pytest.raises(NotationError) as exc:
            parse_tiles(flower, NO_FLOWERS)
        assert exc.value.code == "unknown_tile"
