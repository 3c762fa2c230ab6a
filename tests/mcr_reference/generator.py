"""Random legal 国标 (MCR) hands, and the reference calculator as an oracle.

`random_hands(n, seed)` builds `n` winning hands with a consistent win context, each as our
`Hand` + `WinContext` and as the argument tuple of the reference calculator (PyPI
`pymahjonggb` 1.4.0, `MahjongGB.MahjongFanCalculator`). Hands are winning by construction
(sets + pair, or one of the special forms); every hand is also run through the oracle and
kept only if it accepts it, and the rejections are counted (expected: none).

The mix is biased so that the interesting fans appear often enough: besides plain random
hands, "themes" build one-suit hands, straights, shifted and identical chows, shifted and
identical pungs, wind and dragon hands, terminal and range-restricted hands, many kongs, and
the special forms (seven pairs, 连七对, 十三幺, 全不靠, 七星不靠, 组合龙 with 0 or 1 declared
meld, 九莲宝灯).

Context flags are always physically consistent:
- a discard win has a discarder seat different from the winner;
- `kong="replacement"` (杠上开花) only with a self-draw and at least one declared kong;
- `kong="robbed"` (抢杠和) only with a discard, and only when the winning tile appears nowhere
  else in the hand or the melds;
- `last_of_kind` (和绝张) only when the winner holds no other copy of the winning tile among
  the standing tiles; it is always set when the other three copies are in the winner's own
  melds (then the winning tile is the last of its kind);
- the dealer is derived from the seat wind (seat wind = (winner - dealer) mod 4).
`last_tile` may stack with a kong flag (妙手回春 + 杠上开花, 海底捞月 + 抢杠和), as the
reference allows.

Everything is deterministic for a seed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from MahjongGB import MahjongFanCalculator  # type: ignore[import-not-found]

from app.domain.hand import (
    CHOW,
    DISCARD,
    KONG,
    KONG_REPLACEMENT,
    KONG_ROBBED,
    PUNG,
    SELF_DRAW,
    WINDS,
    Hand,
    Meld,
    WinContext,
)

# --------------------------------------------------------------------------------------------
# Tiles (the `standard` tile set's indices, see app.domain.tiles)

M0, S0, P0 = 0, 9, 18  # first index of 万, 条, 筒
SUITS = (M0, S0, P0)
WIND_TILES = (27, 28, 29, 30)
DRAGON_TILES = (31, 32, 33)  # 中 发 白
HONOURS = WIND_TILES + DRAGON_TILES
NUMBERED = tuple(range(27))
ALL_TILES = tuple(range(34))
TERMINALS = tuple(s + r for s in SUITS for r in (0, 8))
ORPHANS = TERMINALS + HONOURS

_SUIT_LETTER = {M0: "m", S0: "s", P0: "p"}
_HONOUR_CODE = ("E", "S", "W", "N", "C", "F", "P")
_ORACLE_SUIT = {M0: "W", S0: "T", P0: "B"}
_ORACLE_HONOUR = ("F1", "F2", "F3", "F4", "J1", "J2", "J3")


def suit_of(t: int) -> int | None:
    """First index of the tile's suit, or None for an honour."""
    return None if t >= 27 else (t // 9) * 9


def rank_of(t: int) -> int:
    """1..9 for numbered tiles, 1..7 for honours (E S W N C F P)."""
    return t % 9 + 1 if t < 27 else t - 26


def tile_code(t: int) -> str:
    """Our single-tile code: 5m, E, C ..."""
    if t >= 27:
        return _HONOUR_CODE[t - 27]
    return f"{t % 9 + 1}{_SUIT_LETTER[(t // 9) * 9]}"


def oracle_tile(t: int) -> str:
    """The reference calculator's code: W1-9 万, T1-9 条, B1-9 饼, F1-4 winds, J1-3 中发白."""
    if t < 27:
        return f"{_ORACLE_SUIT[(t // 9) * 9]}{t % 9 + 1}"
    return _ORACLE_HONOUR[t - 27]


def _display_key(t: int) -> tuple[int, int]:
    # Written order: m, p, s, honours (E S W N C F P).
    order = {M0: 0, P0: 1, S0: 2}
    s = suit_of(t)
    return (3 if s is None else order[s], t)


def format_tiles(tiles: Iterable[int]) -> str:
    """Compact groups in written order, e.g. `1112345m55pEE`."""
    out: list[str] = []
    group: list[str] = []
    letter: str | None = None
    for t in sorted(tiles, key=_display_key):
        if t >= 27:
            if group:
                out.append("".join(group) + (letter or ""))
                group, letter = [], None
            out.append(_HONOUR_CODE[t - 27])
            continue
        lt = _SUIT_LETTER[(t // 9) * 9]
        if letter is not None and lt != letter:
            out.append("".join(group) + letter)
            group = []
        letter = lt
        group.append(str(t % 9 + 1))
    if group:
        out.append("".join(group) + (letter or ""))
    return "".join(out)


def format_meld(meld: Meld) -> str:
    """`[123m]` chow, `[555s]` pung, `[5555s]` exposed kong, `{5555s}` concealed kong."""
    body = format_tiles(meld.tiles)
    return f"{{{body}}}" if meld.kind == KONG and meld.concealed else f"[{body}]"


def format_hand(hand: Hand) -> str:
    """Our notation: declared melds in brackets, then the standing tiles without the winning
    tile, then the winning tile last, e.g. `[123p][555s]1112345678999m5m`. A concealed kong is
    written in braces, `{5555s}`."""
    standing = list(hand.concealed)
    standing.remove(hand.win_tile)
    return (
        "".join(format_meld(m) for m in hand.melds)
        + format_tiles(standing)
        + tile_code(hand.win_tile)
    )


def context_summary(ctx: WinContext) -> str:
    """One line naming every scoring-relevant context field, e.g.
    `discard seat=E round=S flowers=0 kong=robbed last_tile`."""
    parts = [
        "self_draw" if ctx.win_type == SELF_DRAW else "discard",
        f"seat={WINDS[ctx.seat_wind]}",
        f"round={WINDS[ctx.round_wind]}",
        f"flowers={ctx.flowers}",
    ]
    if ctx.kong:
        parts.append(f"kong={ctx.kong}")
    if ctx.last_tile:
        parts.append("last_tile")
    if ctx.last_of_kind:
        parts.append("last_of_kind")
    return " ".join(parts)


# --------------------------------------------------------------------------------------------
# Cases

OracleArgs = tuple[Any, ...]
FanKey = tuple[str, int, int]  # (zh name, value of one occurrence, count)


@dataclass(frozen=True)
class OracleResult:
    fans: tuple[FanKey, ...]
    total: int


@dataclass(frozen=True)
class Case:
    """One generated hand: what our engine takes, what the oracle takes, and how it was made."""

    kind: str  # top-level kind, one of KINDS
    theme: str  # finer label (for regular hands: the bias theme and the number of melds)
    hand: Hand
    ctx: WinContext
    oracle_args: OracleArgs
    reference: OracleResult | None = None

    @property
    def notation(self) -> str:
        return format_hand(self.hand)

    @property
    def context(self) -> str:
        return context_summary(self.ctx)


KINDS = (
    "regular",
    "seven_pairs",
    "seven_shifted_pairs",  # 连七对
    "thirteen_orphans",
    "knitted_honours",  # 全不靠 (incl. 组合龙 inside it when all 9 numbered tiles are present)
    "greater_honours",  # 七星不靠
    "knitted_straight",  # 组合龙 + set + pair, no declared meld
    "knitted_straight_meld",  # 组合龙 + pair standing, one declared meld
    "nine_gates",
)

_KIND_WEIGHTS = {
    "regular": 70,
    "seven_pairs": 7,
    "seven_shifted_pairs": 2,
    "thirteen_orphans": 3,
    "knitted_honours": 4,
    "greater_honours": 3,
    "knitted_straight": 4,
    "knitted_straight_meld": 3,
    "nine_gates": 4,
}


# A set before it is placed: ("chow", first tile) or ("pung", tile).
RawSet = tuple[str, int]


def _set_tiles(s: RawSet) -> list[int]:
    kind, t = s
    return [t, t + 1, t + 2] if kind == CHOW else [t, t, t]


def _chow(suit: int, rank: int) -> RawSet:
    """Chow starting at `rank` (1..7) of `suit`."""
    return (CHOW, suit + rank - 1)


def _pung(t: int) -> RawSet:
    return (PUNG, t)


# --------------------------------------------------------------------------------------------
# Regular-hand themes: each returns four sets and the pair tile (may be impossible: the caller
# checks the tile supply and retries).

Theme = Callable[[random.Random], tuple[list[RawSet], int]]


def _any_set(rng: random.Random, chow_share: float = 0.55) -> RawSet:
    if rng.random() < chow_share:
        return _chow(rng.choice(SUITS), rng.randint(1, 7))
    return _pung(rng.choice(ALL_TILES))


def _sets_from(rng: random.Random, tiles: tuple[int, ...], chow_share: float) -> RawSet:
    """A set using only `tiles` (a chow when possible and chosen)."""
    starts = [t for t in tiles if t < 27 and t % 9 <= 6 and t + 1 in tiles and t + 2 in tiles]
    if starts and rng.random() < chow_share:
        return (CHOW, rng.choice(starts))
    return _pung(rng.choice(tiles))


def theme_random(rng: random.Random) -> tuple[list[RawSet], int]:
    return [_any_set(rng) for _ in range(4)], rng.choice(ALL_TILES)


def theme_all_pungs(rng: random.Random) -> tuple[list[RawSet], int]:
    return [_any_set(rng, 0.0) for _ in range(4)], rng.choice(ALL_TILES)


def theme_all_chows(rng: random.Random) -> tuple[list[RawSet], int]:
    return [_any_set(rng, 1.0) for _ in range(4)], rng.choice(NUMBERED)


def theme_one_suit(rng: random.Random) -> tuple[list[RawSet], int]:
    suit = rng.choice(SUITS)
    tiles = tuple(range(suit, suit + 9))
    half = rng.random() < 0.45  # 混一色: honours mixed in
    sets = [_sets_from(rng, tiles, 0.6) for _ in range(4)]
    pair = rng.choice(tiles)
    if half:
        for i in rng.sample(range(4), rng.randint(1, 2)):
            sets[i] = _pung(rng.choice(HONOURS))
        if rng.random() < 0.4:
            pair = rng.choice(HONOURS)
    return sets, pair


def theme_honours(rng: random.Random) -> tuple[list[RawSet], int]:
    """Wind and dragon hands: 大/小四喜, 大/小三元, 三风刻, 双箭刻, 字一色, wind pungs."""
    pick = rng.choice(
        ["big_winds", "little_winds", "big_dragons", "little_dragons", "three_winds",
         "two_dragons", "all_honours", "some_honours"]
    )
    if pick == "big_winds":
        return [_pung(t) for t in WIND_TILES], rng.choice(ALL_TILES)
    if pick == "little_winds":
        winds = list(WIND_TILES)
        rng.shuffle(winds)
        return [_pung(t) for t in winds[:3]] + [_any_set(rng)], winds[3]
    if pick == "big_dragons":
        return [_pung(t) for t in DRAGON_TILES] + [_any_set(rng)], rng.choice(ALL_TILES)
    if pick == "little_dragons":
        dragons = list(DRAGON_TILES)
        rng.shuffle(dragons)
        return [_pung(t) for t in dragons[:2]] + [_any_set(rng), _any_set(rng)], dragons[2]
    if pick == "three_winds":
        winds = rng.sample(WIND_TILES, 3)
        return [_pung(t) for t in winds] + [_any_set(rng)], rng.choice(ALL_TILES)
    if pick == "two_dragons":
        dragons = rng.sample(DRAGON_TILES, 2)
        return [_pung(t) for t in dragons] + [_any_set(rng), _any_set(rng)], rng.choice(ALL_TILES)
    if pick == "all_honours":
        honours = rng.sample(HONOURS, 5)
        return [_pung(t) for t in honours[:4]], honours[4]
    k = rng.randint(1, 3)
    sets = [_pung(t) for t in rng.sample(HONOURS, k)] + [_any_set(rng) for _ in range(4 - k)]
    return sets, rng.choice(ALL_TILES)


def theme_straight(rng: random.Random) -> tuple[list[RawSet], int]:
    """清龙, 花龙, 一色双龙会, 三色双龙会."""
    pick = rng.choice(["pure", "pure", "mixed", "mixed", "pure_terminal", "mixed_terminal"])
    if pick == "pure":
        s = rng.choice(SUITS)
        return [_chow(s, 1), _chow(s, 4), _chow(s, 7), _any_set(rng)], rng.choice(ALL_TILES)
    if pick == "mixed":
        a, b, c = rng.sample(SUITS, 3)
        return [_chow(a, 1), _chow(b, 4), _chow(c, 7), _any_set(rng)], rng.choice(ALL_TILES)
    if pick == "pure_terminal":
        s = rng.choice(SUITS)
        return [_chow(s, 1), _chow(s, 1), _chow(s, 7), _chow(s, 7)], s + 4
    a, b, c = rng.sample(SUITS, 3)
    return [_chow(a, 1), _chow(a, 7), _chow(b, 1), _chow(b, 7)], c + 4


def theme_shifted_chows(rng: random.Random) -> tuple[list[RawSet], int]:
    """一色三步高/一色四步高 (steps 1 or 2), 三色三步高."""
    if rng.random() < 0.6:
        s = rng.choice(SUITS)
        step = rng.choice([1, 2])
        n = rng.choice([3, 3, 4])
        first = rng.randint(1, 7 - step * (n - 1))
        sets = [_chow(s, first + step * i) for i in range(n)]
    else:
        suits = rng.sample(SUITS, 3)
        first = rng.randint(1, 5)
        sets = [_chow(suits[i], first + i) for i in range(3)]
    while len(sets) < 4:
        sets.append(_any_set(rng))
    return sets, rng.choice(ALL_TILES)


def theme_same_chows(rng: random.Random) -> tuple[list[RawSet], int]:
    """一般高, 一色三同顺, 一色四同顺, 喜相逢, 三色三同顺."""
    rank = rng.randint(1, 7)
    pick = rng.choice(["pure2", "pure3", "pure3", "pure4", "mixed2", "mixed3", "mixed3"])
    if pick.startswith("pure"):
        s = rng.choice(SUITS)
        sets = [_chow(s, rank)] * int(pick[-1])
    else:
        suits = rng.sample(SUITS, int(pick[-1]))
        sets = [_chow(s, rank) for s in suits]
    while len(sets) < 4:
        sets.append(_any_set(rng))
    return sets, rng.choice(ALL_TILES)


def theme_pungs(rng: random.Random) -> tuple[list[RawSet], int]:
    """一色三节高/四节高, 三色三节高, 三同刻, 双同刻."""
    pick = rng.choice(["pure3", "pure4", "mixed3", "same3", "same2"])
    rank = rng.randint(1, 9)
    if pick == "pure3" or pick == "pure4":
        n = int(pick[-1])
        s = rng.choice(SUITS)
        first = rng.randint(1, 10 - n)
        sets = [_pung(s + first - 1 + i) for i in range(n)]
    elif pick == "mixed3":
        suits = rng.sample(SUITS, 3)
        first = rng.randint(1, 7)
        sets = [_pung(suits[i] + first - 1 + i) for i in range(3)]
    else:
        suits = rng.sample(SUITS, int(pick[-1]))
        sets = [_pung(s + rank - 1) for s in suits]
    while len(sets) < 4:
        sets.append(_any_set(rng, 0.5))
    return sets, rng.choice(ALL_TILES)


def _ranks(ranks: Iterable[int]) -> tuple[int, ...]:
    return tuple(s + r - 1 for s in SUITS for r in ranks)


_GREEN = (S0 + 1, S0 + 2, S0 + 3, S0 + 5, S0 + 7, 32)  # 23468s 发
_REVERSIBLE = tuple(P0 + r - 1 for r in (1, 2, 3, 4, 5, 8, 9)) + tuple(
    S0 + r - 1 for r in (2, 4, 5, 6, 8, 9)
) + (33,)  # 1234589p 245689s 白


def theme_restricted(rng: random.Random) -> tuple[list[RawSet], int]:
    """Hands drawn from a restricted tile set: 断幺, 全大/全中/全小, 大于五/小于五, 全双刻,
    绿一色, 推不倒, 清幺九, 混幺九."""
    pick = rng.choice(
        ["simples", "upper", "middle", "lower", "upper4", "lower4", "even_pungs", "green",
         "reversible", "terminals", "terminals_honours"]
    )
    chow_share = 0.6
    if pick == "simples":
        tiles = _ranks(range(2, 9))
    elif pick == "upper":
        tiles = _ranks((7, 8, 9))
    elif pick == "middle":
        tiles = _ranks((4, 5, 6))
    elif pick == "lower":
        tiles = _ranks((1, 2, 3))
    elif pick == "upper4":
        tiles = _ranks((6, 7, 8, 9))
    elif pick == "lower4":
        tiles = _ranks((1, 2, 3, 4))
    elif pick == "even_pungs":
        tiles, chow_share = _ranks((2, 4, 6, 8)), 0.0
    elif pick == "green":
        tiles = _GREEN
    elif pick == "reversible":
        tiles = _REVERSIBLE
    elif pick == "terminals":
        tiles, chow_share = TERMINALS, 0.0
    else:
        tiles, chow_share = ORPHANS, 0.0
    if chow_share == 0.0:  # distinct pungs, so that a small pool does not run out of tiles
        return [_pung(t) for t in rng.sample(tiles, 4)], rng.choice(tiles)
    return [_sets_from(rng, tiles, chow_share) for _ in range(4)], rng.choice(tiles)


def theme_outside(rng: random.Random) -> tuple[list[RawSet], int]:
    """全带幺 and 全带五: every set and the pair contain a terminal/honour (or a five)."""
    if rng.random() < 0.6:
        def one() -> RawSet:
            r = rng.random()
            if r < 0.5:
                return _chow(rng.choice(SUITS), rng.choice([1, 7]))
            return _pung(rng.choice(ORPHANS))
        return [one() for _ in range(4)], rng.choice(ORPHANS)

    def five() -> RawSet:
        if rng.random() < 0.7:
            return _chow(rng.choice(SUITS), rng.randint(3, 5))
        return _pung(rng.choice(SUITS) + 4)
    return [five() for _ in range(4)], rng.choice(SUITS) + 4


def theme_tile_hog(rng: random.Random) -> tuple[list[RawSet], int]:
    """四归一: all four copies of a tile used across sets and pair (not as a kong)."""
    s = rng.choice(SUITS)
    r = rng.randint(3, 7)
    t = s + r - 1
    pick = rng.choice(["pung_chow", "pair_chows", "chows"])
    if pick == "pung_chow":
        sets = [_pung(t), (CHOW, t - rng.randint(0, 2))]
        pair = rng.choice(ALL_TILES)
    elif pick == "pair_chows":
        sets = [(CHOW, t - rng.randint(0, 2)), (CHOW, t - rng.randint(0, 2))]
        pair = t
    else:
        sets = [(CHOW, t - rng.randint(0, 2)) for _ in range(4)]
        pair = rng.choice(ALL_TILES)
    while len(sets) < 4:
        sets.append(_any_set(rng))
    return sets, pair


def _split(counts: list[int], base: int) -> list[RawSet] | None:
    """Sets (pungs first, then chows, lowest tile first) covering `counts` exactly, if any."""
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        return []
    if counts[i] >= 3:
        counts[i] -= 3
        rest = _split(counts, base)
        counts[i] += 3
        if rest is not None:
            return [_pung(base + i), *rest]
    if i <= 6 and counts[i + 1] and counts[i + 2]:
        for k in (i, i + 1, i + 2):
            counts[k] -= 1
        rest = _split(counts, base)
        for k in (i, i + 1, i + 2):
            counts[k] += 1
        if rest is not None:
            return [(CHOW, base + i), *rest]
    return None


def theme_nine_gates_shape(rng: random.Random) -> tuple[list[RawSet], int]:
    """1112345678999 + any tile of the suit, read as sets and a pair. With no declared meld and a
    winning tile other than the extra one it is 清一色, not 九莲宝灯 (九莲宝灯 is the pure
    nine-sided wait only)."""
    s = rng.choice(SUITS)
    counts = [3, 1, 1, 1, 1, 1, 1, 1, 3]
    counts[rng.randrange(9)] += 1
    for p in rng.sample(range(9), 9):
        if counts[p] >= 2:
            counts[p] -= 2
            sets = _split(counts, s)
            counts[p] += 2
            if sets is not None:
                return sets, s + p
    raise AssertionError("1112345678999 + X always splits")  # pragma: no cover


def theme_plain(rng: random.Random) -> tuple[list[RawSet], int]:
    """Near-无番和: unrelated chows across all three suits and an honour pair."""
    suits = [*SUITS, rng.choice(SUITS)]
    rng.shuffle(suits)
    return [_chow(s, rng.randint(1, 7)) for s in suits], rng.choice(HONOURS)


THEMES: dict[str, tuple[Theme, int]] = {
    "random": (theme_random, 30),
    "all_pungs": (theme_all_pungs, 6),
    "all_chows": (theme_all_chows, 6),
    "one_suit": (theme_one_suit, 10),
    "honours": (theme_honours, 8),
    "straight": (theme_straight, 6),
    "shifted_chows": (theme_shifted_chows, 6),
    "same_chows": (theme_same_chows, 7),
    "pungs": (theme_pungs, 7),
    "restricted": (theme_restricted, 8),
    "outside": (theme_outside, 4),
    "tile_hog": (theme_tile_hog, 3),
    "plain": (theme_plain, 4),
    "nine_gates_shape": (theme_nine_gates_shape, 3),
}

# How many of the four sets are declared, and how a declared pung is declared.
_MELD_COUNT_WEIGHTS = (34, 20, 18, 14, 14)


def _supply_ok(tiles: Iterable[int]) -> bool:
    return all(c <= 4 for c in Counter(tiles).values())


def _build_regular(rng: random.Random) -> tuple[str, list[Meld], list[int]] | None:
    names = list(THEMES)
    theme = rng.choices(names, weights=[THEMES[n][1] for n in names])[0]
    sets, pair = THEMES[theme][0](rng)
    many_kongs = rng.random() < 0.06  # 三杠/四杠 need the kongs on purpose
    n_melds = 4 if many_kongs else rng.choices(range(5), weights=_MELD_COUNT_WEIGHTS)[0]
    if theme == "nine_gates_shape" and not many_kongs and rng.random() < 0.7:
        n_melds = 0  # keep the shape standing
    declared_idx = set(rng.sample(range(4), n_melds))
    melds: list[Meld] = []
    standing: list[int] = [pair, pair]
    for i, s in enumerate(sets):
        tiles = _set_tiles(s)
        if i not in declared_idx:
            standing.extend(tiles)
            continue
        if s[0] == CHOW:
            melds.append(Meld(CHOW, tuple(tiles), False))
            continue
        r = rng.random()
        if many_kongs and r < 0.8:
            r = 0.5 + r / 1.6  # mostly kongs
        if r < 0.55:
            melds.append(Meld(PUNG, tuple(tiles), False))
        elif r < 0.78:
            melds.append(Meld(KONG, (s[1],) * 4, False))
        else:
            melds.append(Meld(KONG, (s[1],) * 4, True))
    all_tiles = standing + [t for m in melds for t in m.tiles]
    if not _supply_ok(all_tiles):
        return None
    label = f"{theme}/{len(melds)}m" + ("/kongs" if many_kongs else "")
    return label, melds, standing


def _build_seven_pairs(rng: random.Random, shifted: bool) -> tuple[str, list[int]]:
    if shifted:
        s = rng.choice(SUITS)
        first = rng.randint(1, 3)
        pairs = [s + first - 1 + i for i in range(7)]
        return f"start{first}", pairs + pairs
    while True:
        style = rng.choice(
            ["random", "random", "one_suit", "honours", "simples", "terminals", "runs"]
        )
        pool: tuple[int, ...]
        if style == "runs":
            # Pairs that also read as two identical chows (e.g. 445566m): 七对 competes with
            # regular readings (the best reading is scored).
            kinds = []
            for _ in range(rng.choice([1, 2, 2])):
                st = rng.choice(SUITS) + rng.randint(1, 7) - 1
                kinds += [st, st + 1, st + 2]
            kinds += rng.sample(ALL_TILES, 7 - len(kinds))
            tiles = kinds + kinds
            if _supply_ok(tiles):
                return style, tiles
            continue
        if style == "one_suit":
            s = rng.choice(SUITS)
            pool = tuple(range(s, s + 9)) + (HONOURS if rng.random() < 0.5 else ())
        elif style == "honours":
            pool = HONOURS + tuple(rng.sample(NUMBERED, 4))
        elif style == "simples":
            pool = _ranks(range(2, 9))
        elif style == "terminals":
            pool = ORPHANS
        else:
            pool = ALL_TILES
        kinds = rng.sample(pool, min(7, len(pool)))
        if rng.random() < 0.25:  # a 4-of-a-kind counted as two pairs
            kinds[-1] = kinds[0]
        if len(kinds) == 7:
            tiles = kinds + kinds
            if _supply_ok(tiles):
                return style + ("/hog" if len(set(kinds)) < 7 else ""), tiles


def _knitted_numbers(rng: random.Random) -> list[int]:
    """The nine tiles of a knitted straight: 147, 258, 369 each in a different suit."""
    suits = list(SUITS)
    rng.shuffle(suits)
    return [suits[i] + r - 1 for i in range(3) for r in (1 + i, 4 + i, 7 + i)]


def _build_knitted_honours(rng: random.Random, greater: bool) -> tuple[str, list[int]]:
    numbers = _knitted_numbers(rng)
    n_honours = 7 if greater else rng.choice([5, 5, 6])
    honours = rng.sample(HONOURS, n_honours)
    nums = rng.sample(numbers, 14 - n_honours)
    label = f"{14 - n_honours}numbered"
    return label, nums + honours


def _build_knitted_straight(
    rng: random.Random, with_meld: bool
) -> tuple[str, list[Meld], list[int]] | None:
    numbers = _knitted_numbers(rng)
    pair = rng.choice(ALL_TILES)
    s = _any_set(rng, 0.5)
    melds: list[Meld] = []
    standing = [*numbers, pair, pair]
    if with_meld:
        tiles = _set_tiles(s)
        if s[0] == CHOW:
            melds.append(Meld(CHOW, tuple(tiles), False))
        else:
            r = rng.random()
            if r < 0.6:
                melds.append(Meld(PUNG, tuple(tiles), False))
            else:
                melds.append(Meld(KONG, (s[1],) * 4, r < 0.8))
    else:
        standing.extend(_set_tiles(s))
    if not _supply_ok(standing + [t for m in melds for t in m.tiles]):
        return None
    label = ("meld_" + melds[0].kind + ("_concealed" if melds[0].concealed else "")
             if melds else s[0])
    return label, melds, standing


# --------------------------------------------------------------------------------------------
# Context and oracle arguments


def _pick_context(
    rng: random.Random, standing: list[int], melds: list[Meld], win_tile: int
) -> WinContext:
    self_draw = rng.random() < 0.5
    has_kong = any(m.kind == KONG for m in melds)
    in_standing = standing.count(win_tile)
    in_melds = sum(m.tiles.count(win_tile) for m in melds)
    kong: str | None = None
    if self_draw and has_kong and rng.random() < 0.3:
        kong = KONG_REPLACEMENT
    elif not self_draw and in_standing == 1 and in_melds == 0 and rng.random() < 0.15:
        kong = KONG_ROBBED
    last_tile = rng.random() < 0.1
    last_of_kind = False
    if in_standing == 1:
        # All other copies in the winner's own melds: physically the last of its kind.
        last_of_kind = in_melds == 3 or rng.random() < 0.2
    seat, round_wind = rng.randrange(4), rng.randrange(4)
    flowers = 0 if rng.random() < 0.5 else rng.randint(1, 8)
    winner = 0
    dealer = (winner - seat) % 4
    discarder = None if self_draw else rng.choice([s for s in range(4) if s != winner])
    return WinContext(
        win_type=SELF_DRAW if self_draw else DISCARD,
        kong=kong,
        last_tile=last_tile,
        last_of_kind=last_of_kind,
        seat_wind=seat,
        round_wind=round_wind,
        flowers=flowers,
        winner=winner,
        discarder=discarder,
        dealer=dealer,
    )


def oracle_args(hand: Hand, ctx: WinContext, rng: random.Random | None = None) -> OracleArgs:
    """The reference calculator's positional arguments for a hand and context.

    Exposed melds get a nonzero `offer` (1..3, random when `rng` is given); a concealed kong
    gets 0. A chow is given by its middle tile."""
    pack: list[tuple[str, str, int]] = []
    for m in hand.melds:
        offer = 0 if m.concealed else (rng.randint(1, 3) if rng else 1)
        if m.kind == CHOW:
            pack.append(("CHI", oracle_tile(m.tiles[1]), offer))
        elif m.kind == PUNG:
            pack.append(("PENG", oracle_tile(m.tiles[0]), offer))
        else:
            pack.append(("GANG", oracle_tile(m.tiles[0]), offer))
    standing = sorted(hand.concealed)
    standing.remove(hand.win_tile)
    return (
        tuple(pack),
        tuple(oracle_tile(t) for t in standing),
        oracle_tile(hand.win_tile),
        ctx.flowers,
        ctx.win_type == SELF_DRAW,
        ctx.last_of_kind,
        ctx.kong in (KONG_REPLACEMENT, KONG_ROBBED),
        ctx.last_tile,
        ctx.seat_wind,
        ctx.round_wind,
    )


def call_oracle(args: OracleArgs) -> OracleResult:
    """Run the reference; raises TypeError('ERROR_NOT_WIN') for a hand that is no win."""
    raw = MahjongFanCalculator(*args, verbose=True)
    fans = tuple((str(zh), int(value), int(count)) for value, count, zh, _en in raw)
    return OracleResult(fans, sum(v * c for _, v, c in fans))


def oracle(case: Case) -> tuple[list[FanKey], int]:
    """The reference's fans as (zh name, value, count) and its total (flowers included)."""
    res = call_oracle(case.oracle_args)
    return list(res.fans), res.total


# --------------------------------------------------------------------------------------------
# The generator


@dataclass
class Generation:
    cases: list[Case]
    seed: int
    rejected: int = 0  # hands the oracle refused (expected 0: hands are wins by construction)
    rejected_examples: list[str] = field(default_factory=list)
    supply_retries: int = 0  # drafts dropped before use for exceeding four copies of a tile

    def kind_counts(self) -> Counter[str]:
        return Counter(c.kind for c in self.cases)

    def theme_counts(self) -> Counter[str]:
        return Counter(f"{c.kind}:{c.theme}" for c in self.cases)


def _draft(rng: random.Random, kind: str) -> tuple[str, list[Meld], list[int], int] | None:
    """(theme label, melds, standing tiles incl. winning tile, winning tile) or None."""
    melds: list[Meld] = []
    win: int | None = None
    if kind == "regular":
        built = _build_regular(rng)
        if built is None:
            return None
        label, melds, standing = built
    elif kind in ("seven_pairs", "seven_shifted_pairs"):
        label, standing = _build_seven_pairs(rng, kind == "seven_shifted_pairs")
    elif kind == "thirteen_orphans":
        extra = rng.choice(ORPHANS)
        standing = [*ORPHANS, extra]
        label = "pair_" + tile_code(extra)
    elif kind in ("knitted_honours", "greater_honours"):
        label, standing = _build_knitted_honours(rng, kind == "greater_honours")
    elif kind in ("knitted_straight", "knitted_straight_meld"):
        built_k = _build_knitted_straight(rng, kind == "knitted_straight_meld")
        if built_k is None:
            return None
        label, melds, standing = built_k
    elif kind == "nine_gates":
        s = rng.choice(SUITS)
        win = s + rng.randint(1, 9) - 1
        standing = [s, s, s, *range(s + 1, s + 8), s + 8, s + 8, s + 8, win]
        label = f"win{rank_of(win)}"
    else:  # pragma: no cover - KINDS and _KIND_WEIGHTS are kept in step
        raise ValueError(kind)
    if win is None:
        win = rng.choice(standing)
    return label, melds, standing, win


def generate(n: int, seed: int) -> Generation:
    """`n` hands accepted by the oracle, with the generation statistics."""
    rng = random.Random(seed)
    kinds = list(_KIND_WEIGHTS)
    weights = [_KIND_WEIGHTS[k] for k in kinds]
    gen = Generation(cases=[], seed=seed)
    while len(gen.cases) < n:
        kind = rng.choices(kinds, weights=weights)[0]
        draft = _draft(rng, kind)
        if draft is None:
            gen.supply_retries += 1
            continue
        label, melds, standing, win = draft
        hand = Hand(
            concealed=tuple(sorted(standing)),
            melds=tuple(sorted(melds, key=lambda m: (m.tiles, m.kind, m.concealed))),
            win_tile=win,
        )
        ctx = _pick_context(rng, standing, melds, win)
        args = oracle_args(hand, ctx, rng)
        try:
            ref = call_oracle(args)
        except TypeError as exc:
            gen.rejected += 1
            if len(gen.rejected_examples) < 20:
                gen.rejected_examples.append(
                    f"{kind}:{label} {format_hand(hand)} ({context_summary(ctx)}): {exc}"
                )
            continue
        gen.cases.append(Case(kind, label, hand, ctx, args, ref))
    return gen


def random_hands(n: int, seed: int) -> list[Case]:
    """`n` random legal winning hands, deterministic for `seed`."""
    return generate(n, seed).cases
