"""Readings of hands with wild tiles (app.domain.wildcards), checked against plain counting."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.hand import CHOW, PUNG
from app.domain.readings import PAIR, Group
from app.domain.shapes import REGULAR, SEVEN_PAIRS
from app.domain.suit_search import FunctionDescriber, profiled_options
from app.domain.tiles import STANDARD
from app.domain.wildcards import (
    _find_option,
    _profile,
    _suit_options,
    every_identity,
    group_tiles,
    places,
    wild_readings,
)

TS = STANDARD
FREE = every_identity(TS)
SHAPES = frozenset({REGULAR, SEVEN_PAIRS})


def counts(*codes: str) -> list[int]:
    c = [0] * TS.size
    for code in codes:
        c[TS.by_code[code]] += 1
    return c


_NUMBERS: dict[object, int] = {}


def _number(thing: object) -> int:
    return _NUMBERS.setdefault(thing, len(_NUMBERS))


def identity_info(g: Group) -> tuple[int, int]:
    """A stand-in for the engine's keys: every group its own key (subs aside), and a bit for
    each tile a winning wild could be read as in it."""
    bits = 0
    for w in places(g, 0, True):
        bits |= 1 << _number(("held", g.kind, g.tile, w))
    return 1 << (4 * _number((g.kind, g.tile))), bits


def _tiles_of(groups: tuple[Group, ...]) -> Counter[int]:
    out: Counter[int] = Counter()
    for g in groups:
        out.update(group_tiles(g.kind, g.tile))
    return out


suit_counts = st.lists(st.integers(0, 3), min_size=9, max_size=9).filter(
    lambda c: 0 < sum(c) <= 8)


@settings(max_examples=120, deadline=None)
@given(suit_counts, st.integers(0, 4), st.lists(st.sampled_from([2, 3, 4]), min_size=9,
                                                 max_size=9))
def test_one_option_per_profile_is_found_without_listing_them_all(
        seg: list[int], budget: int, room: list[int]) -> None:
    """The shared-state search finds exactly the profiles the full listing has, a stand-in
    from each, and the fewest wilds any option of the profile places at each rank."""
    caps = tuple(max(c, r) for c, r in zip(seg, room, strict=True))
    every = _suit_options(0, tuple(seg), caps, budget)
    by_profile: dict[object, list[tuple[int, ...]]] = {}
    for o in every:
        by_profile.setdefault(_profile(o, identity_info), []).append(o[3])
    found = profiled_options(0, tuple(seg), caps, budget, FunctionDescriber(identity_info), {})
    assert set(found) == set(by_profile)
    for profile, (option, least) in found.items():
        assert option in every and _profile(option, identity_info) == profile
        assert least == tuple(min(col) for col in zip(*by_profile[profile], strict=True))


@settings(max_examples=80, deadline=None)
@given(suit_counts, st.integers(0, 4), st.lists(st.integers(0, 2), min_size=9, max_size=9))
def test_a_profile_is_found_within_room_kept_back_exactly_when_one_fits(
        seg: list[int], budget: int, need: list[int]) -> None:
    """`_find_option` (one profile, lowered caps) finds an option exactly when the full
    listing has one of that profile leaving `need` at every rank."""
    caps = (4,) * 9
    less = tuple(c - d for c, d in zip(caps, need, strict=True))
    if any(n > c for n, c in zip(seg, less, strict=True)):
        return
    every = _suit_options(0, tuple(seg), caps, budget)
    for profile in {_profile(o, identity_info) for o in every}:
        fitting = [o for o in every if _profile(o, identity_info) == profile
                   and all(n + u <= c for n, u, c in zip(seg, o[3], less, strict=True))]
        got = _find_option(0, tuple(seg), less, budget, identity_info, profile)
        assert (got is None) == (not fitting)
        if got is not None:
            assert _profile(got, identity_info) == profile and got in every


def test_every_suit_option_uses_its_naturals_and_respects_the_caps() -> None:
    seg = (1, 1, 1, 1, 1, 1, 1, 0, 0)
    options = _suit_options(0, seg, (4,) * 9, 7)
    assert len(options) > 1000
    for groups, wilds, pair, used in options:
        tiles = _tiles_of(groups)
        assert all(tiles[r] == seg[r] + used[r] for r in range(9))
        assert sum(used) == wilds <= 7
        assert pair == any(g.kind == PAIR for g in groups)
        # Every group holds at least one natural tile.
        assert all(len(g.subs) < len(group_tiles(g.kind, g.tile)) for g in groups)


@pytest.mark.parametrize("seed", range(3))
def test_readings_hold_the_hand_exactly(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for _ in range(60):
        naturals = [0] * TS.size
        for t in rng.sample(range(27), 6):
            naturals[t] += rng.choice((1, 2, 2))
        n = sum(naturals)
        # Up to four wilds: with every identity its own class, more would list thousands.
        if not 10 <= n <= 13:
            continue
        wilds = 14 - n
        caps = [4] * TS.size
        win = next(t for t, c in enumerate(naturals) if c)
        for r in wild_readings(naturals, wilds, (), caps, win, False, SHAPES, TS, FREE):
            tiles = _tiles_of(r.groups) if r.shape == REGULAR else Counter(
                t for g in r.groups for t in (g.tile, g.tile))
            subs = Counter(s for g in r.groups for s in g.subs)
            assert sum(subs.values()) == wilds
            assert all(tiles[t] == naturals[t] + subs[t] for t in range(TS.size))
            assert max(tiles.values()) <= 4
            g = r.groups[r.win]
            assert r.win_as == win and win in group_tiles(g.kind, g.tile)
            checked += 1
    assert checked > 20


def test_a_lone_natural_takes_the_wild_as_its_pair() -> None:
    naturals = counts("1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "E", "E", "E", "5p")
    readings = list(wild_readings(naturals, 1, (), [4] * TS.size, TS.by_code["5p"], False,
                                  frozenset({REGULAR}), TS, FREE))
    assert {next(g for g in r.groups if g.kind == PAIR) for r in readings} == {
        Group(PAIR, TS.by_code["5p"], subs=(TS.by_code["5p"],))}
    assert {r.win for r in readings} == {next(i for i, g in enumerate(readings[0].groups)
                                             if g.kind == PAIR)}


def test_the_winning_wild_may_be_read_as_any_tile_its_group_lacks() -> None:
    g = Group(CHOW, TS.by_code["4m"], subs=(TS.by_code["4m"], TS.by_code["6m"]))
    assert places(g, TS.by_code["3p"], True) == (TS.by_code["4m"], TS.by_code["6m"])
    assert places(g, TS.by_code["5m"], False) == (TS.by_code["5m"],)
    assert places(g, TS.by_code["4m"], False) == ()  # its 4m is a wild, not the winning tile
    assert places(Group(PUNG, 0, True), 0, False) == ()  # never in a declared meld


def test_seven_pairs_with_wilds() -> None:
    naturals = counts("1m", "1m", "3m", "5p", "5p", "7s", "E", "E", "C", "C", "C")
    readings = list(wild_readings(naturals, 3, (), [4] * TS.size, TS.by_code["3m"], False,
                                  frozenset({SEVEN_PAIRS}), TS, FREE))
    assert readings
    for r in readings:
        assert len(r.groups) == 7 and all(g.kind == PAIR for g in r.groups)
        kinds = Counter(g.tile for g in r.groups)
        assert kinds[TS.by_code["C"]] == 2  # three 中 and a wild: two pairs


def test_the_caps_keep_a_wild_from_being_a_fifth_copy() -> None:
    # Four 1m are held: no reading may read a wild as 1m.
    naturals = counts("1m", "1m", "1m", "1m", "2m", "3m", "5p", "5p", "5p", "9s", "9s", "9s")
    for r in wild_readings(naturals, 2, (), [4] * TS.size, TS.by_code["2m"], False,
                           frozenset({REGULAR}), TS, FREE):
        assert TS.by_code["1m"] not in {s for g in r.groups for s in g.subs}
