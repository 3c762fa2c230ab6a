"""Tile notation: every input form, every error, and round-trip properties (a whole hand's
notation: tests/domain/test_hand_notation.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain.errors import NotationError
from app.domain.notation import (
    format_meld,
    format_tiles,
    parse_tile,
    parse_tiles,
    read_tiles,
    scan_tiles,
)
from app.domain.tiles import STANDARD, TileKind, TileSet

T = STANDARD
c = T.by_code  # code -> tile


def tiles(*codes: str) -> list[int]:
    return [c[x] for x in codes]


# ---------------------------------------------------------------------------------------------
# parse_tiles: input forms


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("123m", ["1m", "2m", "3m"]),
        ("EEE", ["E", "E", "E"]),
        ("1112345678999m5m",
         ["1m", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "9m", "9m", "5m"]),
        ("19m19p19sESWNCFP",
         ["1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "C", "F", "P"]),
        ("1234567z", ["E", "S", "W", "N", "P", "F", "C"]),  # riichi order: 5z 白, 6z 发, 7z 中
        ("5z6z7z", ["P", "F", "C"]),
        ("一万九筒五条三饼七索", ["1m", "9p", "5s", "3p", "7s"]),
        ("东南西北中发白", ["E", "S", "W", "N", "C", "F", "P"]),
        ("红中發发财白板东风", ["C", "F", "F", "P", "E"]),
        ("春夏秋冬梅兰竹菊", ["1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f"]),
        ("1f8f", ["1f", "8f"]),
        ("15f", ["1f", "5f"]),
        (" 123m  456p\t789s\nEE ", ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s",
                                   "E", "E"]),
        ("1m 一万 1z E 东", ["1m", "1m", "E", "E", "E"]),
        ("", []),
        ("   ", []),
    ],
)
def test_parse_tiles_forms(text: str, expected: list[str]) -> None:
    assert parse_tiles(text, T) == tiles(*expected)


def test_parse_tiles_keeps_written_order() -> None:
    assert parse_tiles("5mE1m", T) == tiles("5m", "E", "1m")


def test_letters_are_case_sensitive() -> None:
    # P is 白 and F is 发; lower-case p and f are suit letters.
    assert parse_tiles("PF", T) == tiles("P", "F")
    assert parse_tiles("1p1f", T) == tiles("1p", "1f")


def test_scan_tiles_reports_positions() -> None:
    assert scan_tiles("12m E 一万", T) == (tiles("1m", "2m", "E", "1m"), [0, 1, 4, 6])


# ---------------------------------------------------------------------------------------------
# parse_tiles: errors


@pytest.mark.parametrize(
    ("text", "code", "position", "names"),
    [
        ("0m", "unknown_tile", 0, "'0m'"),
        ("123m8z", "unknown_tile", 4, "'8z'"),
        ("9f", "unknown_tile", 0, "'9f'"),
        ("12x", "invalid_notation", 0, "'x'"),  # digits not followed by a suit letter
        ("123m4", "invalid_notation", 4, "suit letter"),
        ("12 3m", "invalid_notation", 0, "'12'"),  # no whitespace inside a group
        ("12E", "invalid_notation", 0, "'E'"),
        ("m", "invalid_notation", 0, "no digits"),
        ("EEx", "unknown_tile", 2, "'x'"),
        ("e", "unknown_tile", 0, "'e'"),  # winds are upper-case
        ("一", "unknown_tile", 0, "'一'"),
        ("风", "unknown_tile", 0, "'风'"),
        ("1m[", "unknown_tile", 2, "'['"),
        ("１m", "unknown_tile", 0, "'１'"),  # full-width digit
        ("٣m", "unknown_tile", 0, "'٣'"),  # another script's digit is not a digit here
    ],
)
def test_parse_tiles_errors(text: str, code: str, position: int, names: str) -> None:
    with pytest.raises(NotationError) as exc:
        parse_tiles(text, T, pointer="/hand/concealed")
    err = exc.value
    assert err.code == code
    assert err.position == position
    assert err.pointer == "/hand/concealed"
    assert names in err.message
    assert f"position {position}" in err.message


def test_missing_suit_message_says_what_was_expected() -> None:
    with pytest.raises(NotationError) as exc:
        parse_tiles("123", T)
    assert "m/p/s/z/f" in exc.value.message
    assert "position 0" in exc.value.message


def test_unknown_tile_message_names_the_valid_digits() -> None:
    with pytest.raises(NotationError) as exc:
        parse_tiles("8z", T)
    assert "1-7" in exc.value.message


# ---------------------------------------------------------------------------------------------
# parse_tile


@pytest.mark.parametrize(
    ("text", "code"),
    [("5m", "5m"), ("E", "E"), ("5z", "P"), ("7z", "C"), ("中", "C"), ("白板", "P"),
     (" 9s ", "9s"), ("1f", "1f"), ("春", "1f")],
)
def test_parse_tile(text: str, code: str) -> None:
    assert parse_tile(text, T, "/hand/win_tile") == c[code]


@pytest.mark.parametrize(("text", "position"), [("", 0), ("  ", 0), ("12m", 1), ("EE", 1)])
def test_parse_tile_needs_exactly_one(text: str, position: int) -> None:
    with pytest.raises(NotationError) as exc:
        parse_tile(text, T, "/hand/win_tile")
    assert exc.value.code == "invalid_notation"
    assert exc.value.pointer == "/hand/win_tile"
    assert exc.value.position == position


def test_parse_tile_propagates_unknown_tile() -> None:
    with pytest.raises(NotationError) as exc:
        parse_tile("0p", T, "/x")
    assert exc.value.code == "unknown_tile"


# ---------------------------------------------------------------------------------------------
# format_tiles / format_meld


@pytest.mark.parametrize(
    ("codes", "expected"),
    [
        (["1m", "2m", "3m", "E", "E", "E"], "123mEEE"),
        (["E", "E", "E", "3m", "1m", "2m"], "123mEEE"),
        (["1m", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "9m", "9m"],
         "1112345678999m"),
        (["5m", "5m"], "55m"),
        (["9s", "1s", "9p", "1p", "9m", "1m"], "19m19p19s"),  # display order m, p, s
        (["P", "F", "C", "N", "W", "S", "E"], "ESWNCFP"),
        (["5f", "1f", "E"], "E15f"),
        ([], ""),
    ],
)
def test_format_tiles(codes: list[str], expected: str) -> None:
    assert format_tiles(tiles(*codes), T) == expected


@pytest.mark.parametrize(
    ("codes", "expected"),
    [(["2m", "3m", "4m"], "234m"), (["E", "E", "E"], "EEE"), (["5s"] * 4, "5555s"),
     (["5m", "5m"], "55m"), (["1m", "4p", "7s"], "1m4p7s")],
)
def test_format_meld(codes: list[str], expected: str) -> None:
    assert format_meld(tiles(*codes), T) == expected


def test_format_meld_keeps_the_meld_order() -> None:
    # A knitted group is written as held, not re-sorted into display order.
    assert format_meld(tiles("1m", "4s", "7p"), T) == "1m4s7p"
    assert format_tiles(tiles("1m", "4s", "7p"), T) == "1m7p4s"


# ---------------------------------------------------------------------------------------------
# Another tile set: the notation comes from the tile set, not from hard-wired codes


def test_other_tileset_uses_its_own_codes() -> None:
    kinds = (*(TileKind(f"{r}m", "m", r, f"{r}万") for r in range(1, 10)),
             TileKind("X", "z", 1, "混"))
    small = TileSet("small", kinds, suits=("m",), aliases={"混儿": 9})
    assert parse_tiles("123mX混儿", small) == [0, 1, 2, 9, 9]
    assert format_tiles([9, 2, 0], small) == "13mX"
    # A suit of the notation that the set lacks is an unknown tile; any other letter is
    # not notation at all.
    with pytest.raises(NotationError) as exc:
        parse_tiles("1p", small)
    assert exc.value.code == "unknown_tile"
    assert "suit letters m" in exc.value.message
    with pytest.raises(NotationError) as exc:
        parse_tiles("1q", small)
    assert exc.value.code == "invalid_notation"
    assert "suit letter m" in exc.value.message


# ---------------------------------------------------------------------------------------------
# Properties

all_tiles = st.sampled_from(range(len(T.kinds)))
display = T.display_rank.__getitem__


@given(st.lists(all_tiles, max_size=40))
def test_format_then_parse_round_trips(xs: list[int]) -> None:
    text = format_tiles(xs, T)
    assert parse_tiles(text, T) == sorted(xs, key=display)
    # Canonical: formatting is idempotent through a parse.
    assert format_tiles(parse_tiles(text, T), T) == text


@given(st.lists(all_tiles, max_size=20))
def test_format_meld_then_parse_keeps_order(xs: list[int]) -> None:
    assert parse_tiles(format_meld(xs, T), T) == xs


# Text built mostly from notation characters, so that the parser gets deep before failing,
# plus arbitrary unicode.
_alphabet = st.sampled_from([*"0123456789mpszfESWNCFP[]{},  \t", "一万", "东", "中", "白板",
                             "春", "风"])
notationish = st.lists(_alphabet, max_size=30).map("".join)
any_text = st.one_of(notationish, st.text(max_size=30))


@given(any_text)
def test_parse_tiles_only_raises_notation_errors(text: str) -> None:
    try:
        out = parse_tiles(text, T)
    except NotationError as err:
        assert err.code in ("invalid_notation", "unknown_tile")
        assert err.position is not None and 0 <= err.position <= len(text)
        assert err.message
    else:
        assert all(0 <= t < len(T.kinds) for t in out)


# --- read_tiles: its compact reading and its token memo read what the scanner reads ------

_PIECES = ["1", "2", "5", "9", "0", "123", "55", "m", "p", "s", "z", "f", "E", "C", "P", "F",
           "S", "W", "N", "8f", "1234567", "~", " ", "东", "风", "东风", "一万", "一", "万",
           "红中", "中", "發", "x", "[", "\t"]


def _either(read: object, *args: object) -> tuple[str, object]:
    try:
        return "ok", read(*args, T)  # type: ignore[operator]
    except NotationError as exc:
        return "error", (exc.code, exc.message, exc.position)


@given(st.lists(st.lists(st.sampled_from(_PIECES), max_size=8).map("".join), min_size=1,
                max_size=6))
def test_read_tiles_reads_as_the_scanner_does(texts: list[str]) -> None:
    # Several texts in a row: what one text leaves in the memo must not change the next.
    for text in texts:
        expected = _either(parse_tiles, text)
        assert _either(read_tiles, text) == expected
        if expected[0] == "ok":
            assert read_tiles(text, T) == parse_tiles(text, T)


def test_a_character_that_starts_a_name_is_read_in_context() -> None:
    assert read_tiles("东", T) == parse_tiles("东", T)
    # 东 alone is one tile; 东风 is one tile too, not 东 and an unknown 风.
    assert read_tiles("东风", T) == parse_tiles("东风", T) == [parse_tile("E", T)]
    assert read_tiles("123m东风", T) == parse_tiles("123m东风", T)


def test_the_token_memo_is_bounded() -> None:
    from app.domain import notation

    def digits(n: int) -> str:  # n written in base 9 with the digits 1..9
        out = ""
        while n:
            n, d = divmod(n, 9)
            out += str(d + 1)
        return out

    for n in range(1, notation.TOKENS_LIMIT + 10):
        read_tiles(digits(n) + "p", T)
        assert len(notation._grammar(T).tokens) <= notation.TOKENS_LIMIT
