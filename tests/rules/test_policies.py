"""Chow combinations: the relations between chows, and the two policies that count them.

The worked examples are 国标 hands as the reference calculator scores them; they are checked
here at the policy level, on the reading the engine scores.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from app.domain.hand import Hand, WinContext
from app.domain.notation import parse_tile, parse_tiles
from app.domain.shapes import REGULAR, decompose
from app.domain.tiles import STANDARD
from app.rules.policies import (
    POLICIES,
    UNLIMITED,
    account_once_with_mixed_shifts,
    count_every_combination,
    every_combination_with_mixed_shifts,
    four_mixed_shifted_relation,
    mcr_account_once,
    pair_relation,
    quad_relation,
    triple_relation,
    two_suit_shifted_relation,
)
from app.rules.view import HandFacts, View

T = STANDARD
SUIT, RANK = T.suit_no, T.ranks


def chow(code: str) -> int:
    """A chow by its first tile ("1m" = 123m)."""
    return parse_tile(code, T)


def fake_view(*firsts: str) -> Any:
    """What a policy reads from a view: the chows (first tiles, sorted) and the tile set."""
    return SimpleNamespace(chows=tuple(sorted(chow(c) for c in firsts)),
                           facts=SimpleNamespace(tileset=T))


def real_view(text: str, chows: list[str]) -> View:
    """The regular reading of a 14-tile hand (no melds) whose chows are `chows`."""
    tiles = parse_tiles(text, T)
    hand = Hand(tuple(sorted(tiles)), (), tiles[-1])
    facts = HandFacts(hand, WinContext("self_draw"), T, frozenset({REGULAR}))
    want = tuple(sorted(chow(c) for c in chows))
    for r in decompose(hand, frozenset({REGULAR}), T):
        v = View(r, facts, None)
        if v.chows == want:
            return v
    raise AssertionError(f"{text}: no reading with chows {chows}")


# ---------------------------------------------------------------------------------------------
# Relations


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("2m", "2m", "identical"),
        ("2m", "2p", "mixed_same"),
        ("2s", "2p", "mixed_same"),
        ("2m", "5m", "shift_3"),
        ("4s", "1s", "shift_3"),
        ("1p", "7p", "terminal_pair"),
        ("7p", "1p", "terminal_pair"),
        ("1m", "7p", None),  # 123 and 789 of different suits
        ("1m", "2m", None),
        ("1m", "3m", None),
        ("1m", "4p", None),
        ("3m", "6p", None),
        ("2m", "6m", None),
    ],
)
def test_pair_relation(a: str, b: str, expected: str | None) -> None:
    assert pair_relation(chow(a), chow(b), SUIT, RANK) == expected


@pytest.mark.parametrize(
    ("chows", "expected"),
    [
        (("3m", "3m", "3m"), "pure_triple"),
        (("1m", "2m", "3m"), "pure_shifted"),
        (("1m", "3m", "5m"), "pure_shifted"),
        (("1m", "4m", "7m"), "pure_straight"),
        (("7m", "1m", "4m"), "pure_straight"),
        (("2m", "2p", "2s"), "mixed_triple"),
        (("1m", "4p", "7s"), "mixed_straight"),
        (("7m", "1s", "4p"), "mixed_straight"),
        (("1m", "2p", "3s"), "mixed_shifted"),
        (("3m", "1p", "2s"), "mixed_shifted"),
        (("1m", "3p", "5s"), None),  # 三色 steps of two are no fan
        (("1m", "2m", "4m"), None),
        (("1m", "1m", "1p"), None),  # two suits only
        (("1m", "4m", "7p"), None),
        (("1m", "2m", "3p"), None),
    ],
)
def test_triple_relation(chows: tuple[str, str, str], expected: str | None) -> None:
    a, b, c = sorted(chow(x) for x in chows)
    assert triple_relation(a, b, c, SUIT, RANK) == expected


@pytest.mark.parametrize(
    ("chows", "expected"),
    [
        (("2m", "2m", "2m", "2m"), "pure_quadruple"),
        (("1s", "2s", "3s", "4s"), "pure_four_shifted"),
        (("1s", "3s", "5s", "7s"), "pure_four_shifted"),
        (("1s", "2s", "3s", "5s"), None),
        (("1s", "2s", "3s", "4p"), None),
        (("1s", "1s", "1s", "2s"), None),
    ],
)
def test_quad_relation(chows: tuple[str, ...], expected: str | None) -> None:
    assert quad_relation(tuple(sorted(chow(c) for c in chows)), SUIT, RANK) == expected


# ---------------------------------------------------------------------------------------------
# mcr_account_once: the worked examples of mcr.md §3(d)


@pytest.mark.parametrize(
    ("text", "chows", "expected"),
    [
        ("234567s234567pEE", ["2s", "5s", "2p", "5p"], {"mixed_same": 2, "shift_3": 1}),
        ("234s223344567pEE", ["2s", "2p", "2p", "5p"],
         {"identical": 1, "mixed_same": 1, "shift_3": 1}),
        ("112233456789mEE", ["1m", "1m", "4m", "7m"], {"pure_straight": 1, "identical": 1}),
        # The reference's own doc says 老少副×2 + 喜相逢; the calculator gives this (same total).
        ("123789m123789sEE", ["1m", "7m", "1s", "7s"], {"mixed_same": 2, "terminal_pair": 1}),
    ],
)
def test_mcr_account_once_worked_examples(text: str, chows: list[str],
                                          expected: dict[str, int]) -> None:
    v = real_view(text, chows)
    got = {k: n for k, n in mcr_account_once(v).items() if n}
    assert got == expected


def test_worked_examples_through_the_view_combos() -> None:
    """The View works the policy out once per reading; checks read it from there."""
    tiles = parse_tiles("234567s234567pEE", T)
    hand = Hand(tuple(sorted(tiles)), (), tiles[-1])
    facts = HandFacts(hand, WinContext("self_draw"), T, frozenset({REGULAR}))
    (r,) = decompose(hand, frozenset({REGULAR}), T)
    v = View(r, facts, mcr_account_once)
    assert {k: n for k, n in v.combos.items() if n} == {"mixed_same": 2, "shift_3": 1}
    assert View(r, facts, None).combos == {}


# ---------------------------------------------------------------------------------------------
# mcr_account_once: the rules, chow count by chow count


def nonzero(d: dict[str, int]) -> dict[str, int]:
    return {k: n for k, n in d.items() if n}


def test_fewer_than_two_chows() -> None:
    assert mcr_account_once(fake_view()) == {}
    assert mcr_account_once(fake_view("1m")) == {}


@pytest.mark.parametrize(
    ("chows", "expected"),
    [
        (("2m", "2m"), {"identical": 1}),
        (("2m", "2s"), {"mixed_same": 1}),
        (("2m", "5m"), {"shift_3": 1}),
        (("1m", "7m"), {"terminal_pair": 1}),
        (("1m", "2m"), {}),
    ],
)
def test_two_chows_their_pair_fan(chows: tuple[str, ...], expected: dict[str, int]) -> None:
    assert nonzero(mcr_account_once(fake_view(*chows))) == expected


@pytest.mark.parametrize(
    ("chows", "expected"),
    [
        # A three-chow fan leaves out every pair fan among the same chows.
        (("3m", "3m", "3m"), {"pure_triple": 1}),
        (("1m", "4m", "7m"), {"pure_straight": 1}),
        (("2m", "2p", "2s"), {"mixed_triple": 1}),
        # Otherwise pair fans, at most two (each chow combines once more at most) ...
        (("2m", "2m", "2p"), {"identical": 1, "mixed_same": 1}),
        (("1m", "4m", "1p"), {"shift_3": 1, "mixed_same": 1}),
        # ... and one when a chow is related to nothing.
        (("2m", "2m", "6p"), {"identical": 1}),
        (("1m", "4m", "7p"), {"shift_3": 1}),
    ],
)
def test_three_chows(chows: tuple[str, ...], expected: dict[str, int]) -> None:
    assert nonzero(mcr_account_once(fake_view(*chows))) == expected


@pytest.mark.parametrize(
    ("chows", "expected"),
    [
        # A four-chow fan stands alone.
        (("2m", "2m", "2m", "2m"), {"pure_quadruple": 1}),
        (("1p", "2p", "3p", "4p"), {"pure_four_shifted": 1}),
        (("1p", "3p", "5p", "7p"), {"pure_four_shifted": 1}),
        # The first triple with a fan, and the fourth adds its best pair fan with the triple.
        (("1m", "1m", "4m", "7m"), {"pure_straight": 1, "identical": 1}),
        (("1m", "4m", "7m", "4p"), {"pure_straight": 1, "mixed_same": 1}),
        (("1m", "4m", "7m", "1s"), {"pure_straight": 1, "mixed_same": 1}),
        (("2m", "2m", "2m", "5m"), {"pure_triple": 1, "shift_3": 1}),
        (("2m", "2m", "2m", "6p"), {"pure_triple": 1}),
        # 一般高 before 喜相逢: the fourth chow 2m relates to the triple as 一般高 and 喜相逢.
        (("2m", "2p", "2s", "2m"), {"mixed_triple": 1, "identical": 1}),
        # No triple: pair fans, capped at 3 − chows related to none, duplicates trimmed first
        # (老少副, 连六, 喜相逢, 一般高).
        (("2s", "5s", "2p", "5p"), {"mixed_same": 2, "shift_3": 1}),
        (("1m", "7m", "1s", "7s"), {"mixed_same": 2, "terminal_pair": 1}),
        (("2m", "2m", "2p", "2p"), {"identical": 2, "mixed_same": 1}),
        (("2m", "2m", "6p", "8s"), {"identical": 1}),
    ],
)
def test_four_chows(chows: tuple[str, ...], expected: dict[str, int]) -> None:
    assert nonzero(mcr_account_once(fake_view(*chows))) == expected


def test_account_once_never_exceeds_one_combination_per_extra_chow() -> None:
    """Over every multiset of two to four chows: at most n − 1 pair fans, and a three- or
    four-chow fan at most once."""
    from itertools import combinations_with_replacement

    starts = sorted(T.chow_starts)
    for n in (2, 3, 4):
        for chows in combinations_with_replacement(starts, n):
            got = mcr_account_once(SimpleNamespace(chows=chows,
                                                   facts=SimpleNamespace(tileset=T)))
            pairs = sum(got.get(k, 0) for k in ("identical", "mixed_same", "shift_3",
                                               "terminal_pair"))
            bigger = sum(n for k, n in got.items() if k not in (
                "identical", "mixed_same", "shift_3", "terminal_pair"))
            assert pairs <= n - 1, (chows, got)
            assert bigger <= 1, (chows, got)
            assert all(v >= 0 for v in got.values()), (chows, got)


# ---------------------------------------------------------------------------------------------
# count_every_combination


@pytest.mark.parametrize(
    ("chows", "expected"),
    [
        (("2s", "5s", "2p", "5p"), {"mixed_same": 2, "shift_3": 2}),
        (("1m", "1m", "4m", "7m"),
         {"identical": 1, "shift_3": 3, "terminal_pair": 2, "pure_straight": 2}),
        (("2m", "2m", "2m"), {"identical": 3, "pure_triple": 1}),
        (("2m", "2m", "2m", "2m"), {"identical": 6, "pure_triple": 4, "pure_quadruple": 1}),
        (("1p", "2p", "3p", "4p"), {"pure_shifted": 2, "shift_3": 1, "pure_four_shifted": 1}),
        (("2m", "2p", "2s"), {"mixed_same": 3, "mixed_triple": 1}),
        (("1m", "3p"), {}),
        (("1m",), {}),
    ],
)
def test_count_every_combination(chows: tuple[str, ...], expected: dict[str, int]) -> None:
    assert nonzero(count_every_combination(fake_view(*chows))) == expected


def test_policies_are_registered_by_name() -> None:
    assert POLICIES == {"mcr_account_once": mcr_account_once,
                        "count_every_combination": count_every_combination,
                        "account_once_with_mixed_shifts": account_once_with_mixed_shifts}
    assert set(UNLIMITED) == set(POLICIES)
    assert UNLIMITED["account_once_with_mixed_shifts"] is every_combination_with_mixed_shifts


# ---------------------------------------------------------------------------------------------
# Two-suit shifted chows (混三步, 混四步) and the account-once policy that counts them last


@pytest.mark.parametrize(
    ("chows", "expected"),
    [
        (("2m", "3p", "4m"), True),
        (("4s", "2s", "3p"), True),
        (("1m", "2m", "3m"), False),  # one suit: 一色三步高
        (("1m", "2p", "3s"), False),  # three suits: 三色三步高
        (("1m", "3p", "5m"), False),  # steps of two are no 混三步
        (("1m", "2p", "4m"), False),
        (("2m", "2p", "3m"), False),
    ],
)
def test_two_suit_shifted_relation(chows: tuple[str, str, str], expected: bool) -> None:
    a, b, c = sorted(chow(x) for x in chows)
    assert two_suit_shifted_relation(a, b, c, SUIT, RANK) is expected


@pytest.mark.parametrize(
    ("chows", "expected"),
    [
        (("1m", "2p", "3m", "4p"), True),
        (("1m", "2p", "3p", "4s"), True),
        (("1m", "2m", "3m", "4m"), False),  # one suit: 一色四步高
        (("1m", "3p", "5m", "7p"), False),  # steps of two
        (("1m", "2p", "3m", "5p"), False),
        (("1m", "1p", "2m", "3p"), False),
    ],
)
def test_four_mixed_shifted_relation(chows: tuple[str, ...], expected: bool) -> None:
    assert four_mixed_shifted_relation(tuple(sorted(chow(c) for c in chows)), SUIT,
                                       RANK) is expected


@pytest.mark.parametrize(
    ("chows", "expected"),
    [
        # 混三步, and with four chows the fourth's best pair fan with the triple.
        (("2m", "3p", "4m"), {"two_suit_shifted": 1}),
        (("2m", "3p", "4m", "6p"), {"two_suit_shifted": 1, "shift_3": 1}),
        (("2m", "3p", "4m", "2m"), {"two_suit_shifted": 1, "identical": 1}),
        (("2m", "3p", "4m", "7s"), {"two_suit_shifted": 1}),
        # 混四步 stands alone (no 混三步, no 连六 of 2m and 5m).
        (("2m", "3p", "4m", "5m"), {"four_mixed_shifted": 1}),
        (("1m", "2p", "3p", "4s"), {"four_mixed_shifted": 1}),
        # 就高不就低: any three-chow fan of mcr wins, 混三步 and 混四步 yield.
        (("1m", "2p", "3s", "2m"), {"mixed_shifted": 1, "mixed_same": 1}),
        (("1m", "2p", "3s", "4s"), {"mixed_shifted": 1}),
        (("1m", "2m", "3m", "2p"), {"pure_shifted": 1, "mixed_same": 1}),
        (("1m", "2m", "3m", "4m"), {"pure_four_shifted": 1}),
        (("1m", "4m", "7m", "2p"), {"pure_straight": 1}),
        # No two-suit shift: mcr's pair fans.
        (("2m", "5m", "2p"), {"shift_3": 1, "mixed_same": 1}),
        (("2m", "2m"), {"identical": 1}),
    ],
)
def test_account_once_with_mixed_shifts(chows: tuple[str, ...],
                                        expected: dict[str, int]) -> None:
    assert nonzero(account_once_with_mixed_shifts(fake_view(*chows))) == expected


def test_account_once_with_mixed_shifts_is_mcr_without_them() -> None:
    """Over every multiset of two to four chows: mcr's count whenever neither two-suit shift
    is counted, and otherwise one of them (at most one pair fan beside 混三步, none beside
    混四步), never worth less than mcr's pair fans."""
    from itertools import combinations_with_replacement

    values = {"identical": 1, "mixed_same": 1, "shift_3": 1, "terminal_pair": 1,
              "two_suit_shifted": 2, "four_mixed_shifted": 4}
    starts = sorted(T.chow_starts)
    shifted = 0
    for n in (2, 3, 4):
        for chows in combinations_with_replacement(starts, n):
            v = SimpleNamespace(chows=chows, facts=SimpleNamespace(tileset=T))
            got, mcr = nonzero(account_once_with_mixed_shifts(v)), nonzero(mcr_account_once(v))
            new = {"two_suit_shifted", "four_mixed_shifted"} & set(got)
            if not new:
                assert got == mcr, chows
                continue
            shifted += 1
            assert len(new) == 1 and all(k in values for k in mcr), (chows, got, mcr)
            pairs = sum(n for k, n in got.items() if k not in new)
            assert pairs <= (1 if "two_suit_shifted" in new else 0), (chows, got)
            assert (sum(values[k] * n for k, n in got.items())
                    > sum(values[k] * n for k, n in mcr.items())), (chows, got, mcr)
    assert shifted > 100


@pytest.mark.parametrize(
    ("chows", "expected"),
    [
        (("2m", "3p", "4m", "5m"),
         {"two_suit_shifted": 2, "four_mixed_shifted": 1, "shift_3": 1}),
        (("1m", "2p", "3s", "2m"), {"mixed_shifted": 1, "two_suit_shifted": 1,
                                    "mixed_same": 1}),
        (("2m", "5m", "2p"), {"shift_3": 1, "mixed_same": 1}),
    ],
)
def test_every_combination_with_mixed_shifts(chows: tuple[str, ...],
                                             expected: dict[str, int]) -> None:
    assert nonzero(every_combination_with_mixed_shifts(fake_view(*chows))) == expected
