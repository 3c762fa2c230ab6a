"""Whole-hand notation (declared melds in brackets) and the kinds of meld: every form, every
error, and round-trip properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain.errors import HandError, NotationError
from app.domain.hand import CHOW, KONG, PUNG, Meld
from app.domain.hand_notation import meld_kind, parse_hand_string
from app.domain.notation import format_meld
from app.domain.tiles import STANDARD

T = STANDARD
c = T.by_code  # code -> tile


def tiles(*codes: str) -> list[int]:
    return [c[x] for x in codes]


# ---------------------------------------------------------------------------------------------
# meld_kind


@pytest.mark.parametrize(
    ("codes", "kind"),
    [
        (["1m", "2m", "3m"], CHOW),
        (["3m", "1m", "2m"], CHOW),
        (["7p", "8p", "9p"], CHOW),
        (["5s", "5s", "5s"], PUNG),
        (["E", "E", "E"], PUNG),
        (["C", "C", "C", "C"], KONG),
        (["8m", "9m", "1s"], None),  # across the suit boundary
        (["9m", "1s", "2s"], None),
        (["E", "S", "W"], None),  # honours never chow
        (["1m", "2m", "4m"], None),
        (["1m", "1m", "2m"], None),
        (["1m", "2m", "3m", "4m"], None),
        (["1m", "1m"], None),
        ([], None),
    ],
)
def test_meld_kind(codes: list[str], kind: str | None) -> None:
    assert meld_kind(tiles(*codes), T) == kind


# ---------------------------------------------------------------------------------------------
# parse_hand_string


def test_hand_string_reference_example() -> None:
    standing, melds, win = parse_hand_string("[123p][555s]1112345678999m5m", T)
    assert standing == tiles("1m", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m",
                             "9m", "9m", "9m", "5m")
    assert melds == [Meld(CHOW, tuple(tiles("1p", "2p", "3p"))),
                     Meld(PUNG, tuple(tiles("5s", "5s", "5s")))]
    assert win == c["5m"]


def test_hand_string_last_tile_is_the_winning_tile() -> None:
    standing, melds, win = parse_hand_string("[123p][555s]11123m5m", T)
    assert standing == tiles("1m", "1m", "1m", "2m", "3m", "5m")
    assert len(melds) == 2
    assert win == c["5m"]


@pytest.mark.parametrize(
    ("text", "kind", "concealed"),
    [
        ("[5555s]11m", KONG, False),
        ("[5555s,1]11m", KONG, False),
        ("[5555s,3]11m", KONG, False),
        ("{5555s}11m", KONG, True),
        ("[5555s,0]11m", KONG, True),
        ("[ 5555s , 0 ]11m", KONG, True),
        ("[555s,2]11m", PUNG, False),
        ("[345s,1]11m", CHOW, False),
        ("[534s]11m", CHOW, False),
        ("[EEE]11m", PUNG, False),
        ("[五条五条五条]11m", PUNG, False),
        ("{中中中中}11m", KONG, True),
    ],
)
def test_hand_string_melds(text: str, kind: str, concealed: bool) -> None:
    _, melds, _ = parse_hand_string(text, T)
    assert len(melds) == 1
    assert melds[0].kind == kind
    assert melds[0].concealed is concealed
    assert list(melds[0].tiles) == sorted(melds[0].tiles)


def test_hand_string_melds_may_follow_standing_tiles() -> None:
    standing, melds, win = parse_hand_string("11m[EEE]23m 4m", T)
    assert standing == tiles("1m", "1m", "2m", "3m", "4m")
    assert melds[0].kind == PUNG
    assert win == c["4m"]


def test_hand_string_keeps_written_order_and_pointer() -> None:
    standing, _, win = parse_hand_string("9m1m", T, "/x")
    assert standing == tiles("9m", "1m")
    assert win == c["1m"]


@pytest.mark.parametrize(
    ("text", "code", "position"),
    [
        ("[123p]0m", "unknown_tile", 6),
        ("[12p]11m", "illegal_meld", 0),  # too few tiles
        ("11m[]", "illegal_meld", 3),  # empty
        ("[12345p]11m", "illegal_meld", 0),
        ("[124p]11m", "illegal_meld", 0),
        ("[ESW]11m", "illegal_meld", 0),  # honours chow
        ("[899m]11m", "illegal_meld", 0),
        ("[5556s]11m", "illegal_meld", 0),  # kong of unequal tiles
        ("[555s,0]11m", "illegal_meld", 0),  # offer 0 on a pung
        ("[123s,0]11m", "illegal_meld", 0),
        ("{555s}11m", "illegal_meld", 0),  # braces on a pung
        ("[555s,4]11m", "invalid_notation", 5),
        ("[555s,]11m", "invalid_notation", 5),
        ("[555s,12]11m", "invalid_notation", 5),
        ("[555s,x]11m", "invalid_notation", 5),
        ("{5555s,0}11m", "invalid_notation", 6),
        ("[555s11m", "invalid_notation", 0),  # not closed
        ("[555s{5555s}]11m", "invalid_notation", 0),  # nested
        ("[555s}11m", "invalid_notation", 0),  # mismatched
        ("555s]11m", "invalid_notation", 4),
        ("11m}", "invalid_notation", 3),
        ("1,1m", "invalid_notation", 1),  # offer outside brackets
        ("[1f1f1f]11m", "flower_in_hand", 1),
        ("[123m]11m1f", "flower_in_hand", 9),
        ("春11m", "flower_in_hand", 0),
        ("[123m]", "win_tile_missing", 6),
        ("", "win_tile_missing", 0),
        ("[123m]12", "invalid_notation", 6),
    ],
)
def test_hand_string_errors(text: str, code: str, position: int) -> None:
    with pytest.raises(NotationError) as exc:
        parse_hand_string(text, T)
    assert exc.value.code == code
    assert exc.value.position == position
    assert exc.value.pointer == "/hand"
    assert exc.value.message


def test_illegal_meld_message_names_the_meld_and_position() -> None:
    with pytest.raises(NotationError) as exc:
        parse_hand_string("11m[ESW]1m", T)
    assert "[ESW]" in exc.value.message
    assert "position 3" in exc.value.message
    assert "chow" in exc.value.message


def test_flower_message_points_to_context_flowers() -> None:
    with pytest.raises(NotationError) as exc:
        parse_hand_string("11m2f", T)
    assert "2f" in exc.value.message
    assert "context.flowers" in exc.value.message


# ---------------------------------------------------------------------------------------------
# Properties

# Text built mostly from notation characters, so that the parser gets deep before failing,
# plus arbitrary unicode.
_alphabet = st.sampled_from([*"0123456789mpszfESWNCFP[]{},  \t", "一万", "东", "中", "白板",
                             "春", "风"])
notationish = st.lists(_alphabet, max_size=30).map("".join)
any_text = st.one_of(notationish, st.text(max_size=30))


@given(any_text)
def test_parse_hand_string_only_raises_hand_errors(text: str) -> None:
    try:
        standing, melds, win = parse_hand_string(text, T)
    except HandError as err:
        assert isinstance(err, NotationError)
        assert err.code in ("invalid_notation", "unknown_tile", "illegal_meld",
                            "flower_in_hand", "win_tile_missing")
        assert err.pointer == "/hand"
        assert err.position is not None and 0 <= err.position <= len(text)
    else:
        assert win == standing[-1]
        assert all(meld_kind(m.tiles, T) == m.kind for m in melds)
        assert all(not T.kinds[t].is_flower for t in standing)


@given(st.lists(st.sampled_from(T.playing), min_size=1, max_size=14),
       st.lists(st.tuples(st.sampled_from(T.playing), st.booleans()), max_size=4))
def test_hand_string_round_trip(standing: list[int], pungs: list[tuple[int, bool]]) -> None:
    # Write melds (as pungs or concealed kongs) and standing tiles, read them back.
    text = "".join(
        "{" + format_meld([t] * 4, T) + "}" if kong else "[" + format_meld([t] * 3, T) + "]"
        for t, kong in pungs
    ) + format_meld(standing, T)
    got_standing, got_melds, win = parse_hand_string(text, T)
    assert got_standing == standing
    assert win == standing[-1]
    assert [(m.tiles[0], m.kind == KONG, m.concealed) for m in got_melds] == [
        (t, kong, kong) for t, kong in pungs
    ]
