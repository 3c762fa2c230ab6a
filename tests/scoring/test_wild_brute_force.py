"""Property test: with up to two wild tiles, `score` finds the best substitution.

For a hand holding one or two wild tiles (混), the brute force tries every assignment of a
concrete tile kind to each physical wild tile (its own kind included; never more than four
of a kind, declared melds included), scores each concrete hand with the same rule set and a
context without wilds (the engine's plain path, no wild code involved), and keeps the
highest total; a substitution that is not a winning shape has no total. The engine's answer
on the hand with wilds must have the same winning flag and the same total.

Rule-set variants are built here (explicit wilds, `context.wilds`), with fans that do not
depend on how the wilds were used (no 混儿吊 or 素), each fan worth a distinct amount so that
totals tell fan sets apart:

- `reduced`: every fan's check declares `tells_apart`, so readings are reduced by group keys
  and free groups try one identity per class (龙, 清一色, 碰碰和, 箭刻, 断幺, 捉五 on 5万, 杠开,
  海底, 无字, 自摸, 无番和);
- `exact` (`wild.read: full`): the same plus checks that declare nothing (全带幺, 平和, 四归一,
  and 七对 in the seven-pairs variant), every reading enumerated;
- each in a regular-only and a regular + seven-pairs version.

Hands: complete hands (four sets and a pair, or seven pairs; sometimes one or two sets
declared as pungs or kongs, a kong of a wild kind then being a concealed 金杠) with one or two
tiles replaced by wild tiles, near-complete hands (one more tile swapped for a random one),
and fully random tiles; the winning tile is any standing tile (often a wild). Substitutions
that are no winning shape are skipped by an independent completeness check written here (and
checked against the engine on a sample).

The real `tianjin` rule set is checked the same way against a model of its 和目 written here
(本混龙/龙, 捉五, 混儿吊, 素, 杠开 as the rule set documents them, over every substitution and
every place of the winning tile), on hands whose wilds come from an indicator; the model
reproduces the worked examples (tests/cases/tianjin/rule_page.yaml). Its waits are checked
against scoring every tile.

WILD_BRUTE_HANDS (default 1500) sets the number of hands, WILD_BRUTE_TIANJIN_HANDS (800)
and WILD_BRUTE_WAITS_HANDS (80) those of the tianjin checks, WILD_BRUTE_SEED the seed and
WILD_BRUTE_MAX_WILDS (default 2) the most wild tiles a hand holds (3 or 4 run fine, slower).
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations_with_replacement, product
from pathlib import Path
from typing import Any

import pytest

from app.domain.hand import Hand, Meld, WinContext
from app.rules.checks import CHECKS
from app.rules.model import RuleSet
from app.rules.tile_loader import build_ruleset
from app.scoring.evaluate import score
from app.scoring.waits import waits
from app.service.tiles.requests import build, build_waiting
from tests.loaded import repo_rulesets

HANDS = int(os.environ.get("WILD_BRUTE_HANDS", "1500"))
SEED = int(os.environ.get("WILD_BRUTE_SEED", "20261130"))
# More wilds make free groups of wilds only (three wilds: a free set); slower (34^n tries).
MAX_WILDS = int(os.environ.get("WILD_BRUTE_MAX_WILDS", "2"))
TIANJIN_HANDS = int(os.environ.get("WILD_BRUTE_TIANJIN_HANDS", "800"))
WAITS_HANDS = int(os.environ.get("WILD_BRUTE_WAITS_HANDS", "80"))
ROOT = Path(__file__).resolve().parents[2]


def _fan(fid: str, value: int, check: str, **params: Any) -> dict[str, Any]:
    fan: dict[str, Any] = {"id": fid, "name": fid, "name_en": fid, "value": value,
                           "check": check, "description": f"test fan {fid}"}
    if params:
        fan["params"] = params
    return fan


# Every check here declares tells_apart. Values are distinct (most of them powers of two), so
# that a total says which fans counted.
REDUCED_FANS = [
    _fan("straight", 2048, "straight"),
    _fan("one_suit", 1024, "one_suit", honors=False),
    _fan("all_pungs", 512, "all_pungs"),
    _fan("dragon_pung", 128, "pungs_among", tiles="CFP"),  # per pung
    _fan("all_simples", 64, "tiles_within", tiles="2345678m2345678p2345678s"),
    _fan("zhuo_wu", 32, "win_in_chow_middle", tiles="5m"),
    _fan("kong_replacement", 16, "kong_win", kind="replacement"),
    _fan("last", 8, "last_tile"),
    _fan("no_honors", 4, "no_honors"),
    _fan("self_drawn", 1, "self_drawn"),
    _fan("nothing", 2, "nothing_else"),
]
# These checks see the groups without saying what they tell apart: readings are exact.
EXACT_FANS = [
    _fan("outside_hand", 16384, "every_group_has", tiles="19m19p19sESWNCFP"),  # 全带幺
    _fan("all_chows", 8192, "all_chows"),  # 平和
    _fan("tile_hog", 4096, "tile_hog"),  # 四归一, per kind
    *REDUCED_FANS,
]
SEVEN_PAIRS_FAN = _fan("seven_pairs", 32768, "shape_is", shape="seven_pairs")


def _variant(name: str, fans: list[dict[str, Any]], seven_pairs: bool, read: str) -> RuleSet:
    shapes: dict[str, Any] = {"regular": {}}
    if seven_pairs:
        shapes["seven_pairs"] = {}
    data = {
        "id": name, "name": name, "name_en": name, "description": "wild brute-force variant",
        "players": 4, "tiles": "standard", "min_fan": 0, "max_flowers": 0,
        "wild": {"indicator": None, "explicit": True, "read": read},
        "shapes": shapes,
        "payment": {"scheme": "doubling", "params": {"base": 1, "cap": "none"}},
        "fans": fans,
    }
    return build_ruleset(data, f"{name} (test variant)")


VARIANTS: dict[str, RuleSet] = {
    "reduced": _variant("reduced", REDUCED_FANS, False, "reduced"),
    "reduced_7p": _variant("reduced_7p", REDUCED_FANS, True, "reduced"),
    "exact": _variant("exact", EXACT_FANS, False, "full"),
    "exact_7p": _variant("exact_7p", [*EXACT_FANS, SEVEN_PAIRS_FAN], True, "full"),
}
TS = VARIANTS["exact"].tileset
PLAYING = list(TS.playing)
HONOURS = [t for t in PLAYING if TS.kinds[t].is_honor]
CODE = {t: TS.code(t) for t in PLAYING}
SUIT_STARTS = sorted(TS.suit_starts.values())


def test_the_variants_take_both_paths() -> None:
    """The reduced variants read wild hands reduced (every check declares tells_apart); the
    exact ones read them in full, and some of their checks declare nothing."""
    for name, rs in VARIANTS.items():
        assert rs.wild is not None
        declared = {f.check: CHECKS[f.check].tells_apart is not None for f in rs.fans}
        reduced = name.startswith("reduced")
        assert rs.wild.read == ("reduced" if reduced else "full"), name
        assert all(declared.values()) is reduced, (name, declared)


# ---------------------------------------------------------------------------------------------
# An independent completeness check (no engine code).


@cache
def _pair_counts(seg: tuple[int, ...], chows: bool) -> frozenset[int]:
    """How many pairs a split of `seg` (counts of consecutive ranks) into sets and pairs can
    hold, when it splits into sets and at most one pair."""
    i = next((k for k, n in enumerate(seg) if n), -1)
    if i < 0:
        return frozenset({0})
    out: set[int] = set()
    left = list(seg)
    if seg[i] >= 3:
        left[i] -= 3
        out |= _pair_counts(tuple(left), chows)
        left[i] += 3
    if chows and i + 2 < len(seg) and seg[i + 1] and seg[i + 2]:
        left[i] -= 1
        left[i + 1] -= 1
        left[i + 2] -= 1
        out |= _pair_counts(tuple(left), chows)
        left[i] += 1
        left[i + 1] += 1
        left[i + 2] += 1
    if seg[i] >= 2:
        left[i] -= 2
        out |= {n + 1 for n in _pair_counts(tuple(left), chows) if n == 0}
    return frozenset(out)


def complete(counts: Sequence[int], n_melds: int, seven_pairs: bool) -> bool:
    """Whether standing tile counts (14 - 3 per meld) make sets and one pair, or seven
    pairs (four of a kind as two pairs) when `seven_pairs` and no meld is declared."""
    if seven_pairs and not n_melds and all(n % 2 == 0 for n in counts):
        return True
    pairs = 0
    for start in SUIT_STARTS:
        seg = tuple(counts[start:start + 9])
        need = sum(seg) % 3
        if need == 1 or (need // 2) not in _pair_counts(seg, True):
            return False
        pairs += need // 2
    for t in HONOURS:
        n = counts[t]
        if n in (1, 4):
            return False
        pairs += n == 2
    return pairs == 1


# ---------------------------------------------------------------------------------------------
# Random hands.


class Case:
    """A hand with wilds as a request, and its parts for the brute force."""

    def __init__(self, standing: list[int], melds: list[tuple[str, int, bool]], win: int,
                 wilds: list[int], ctx: dict[str, Any], origin: str,
                 indicator: int | None = None) -> None:
        self.standing = sorted(standing)
        self.melds = melds  # (kind, tile, concealed)
        self.win = win
        self.wilds = sorted(wilds)
        self.ctx = ctx
        self.origin = origin
        self.indicator = indicator  # the flipped tile, when the wilds come from one

    def notation(self) -> str:
        rest = list(self.standing)
        rest.remove(self.win)
        out = "".join(("{%s}" if c else "[%s]") % (CODE[t] * (4 if k == "kong" else 3))
                      for k, t, c in self.melds)
        return out + "".join(CODE[t] for t in rest) + CODE[self.win]

    def request(self) -> tuple[dict[str, Any], dict[str, Any]]:
        hand = {"concealed": [CODE[t] for t in self.standing],
                "melds": [{"kind": k, "tiles": [CODE[t]] * (4 if k == "kong" else 3),
                           "concealed": c} for k, t, c in self.melds],
                "win_tile": CODE[self.win]}
        if self.indicator is not None:
            return hand, {**self.ctx, "wild_indicator": CODE[self.indicator]}
        return hand, {**self.ctx, "wilds": [CODE[t] for t in self.wilds]}

    def __repr__(self) -> str:
        ind = f" indicator={CODE[self.indicator]}" if self.indicator is not None else ""
        return (f"{self.origin}: {self.notation()} wilds="
                f"{''.join(CODE[t] for t in self.wilds)}{ind} ctx={self.ctx}")


def _complete_hand(rng: random.Random, seven_pairs: bool, one_suit: bool, five: bool = False,
                   straight: int | None = None) -> tuple[list[int], list[int]]:
    """A complete hand's tiles as (tiles of the sets, pair tiles); four copies at most. With
    `one_suit`, every tile of one suit (many copies of few kinds: the four-copy limit binds
    the wilds often); with `five`, one set is 4m-5m-6m (捉五); with `straight` (a suit's
    first tile), three sets are its 123, 456 and 789 (龙)."""
    used: Counter[int] = Counter()
    sets: list[list[int]] = []
    if five:
        four = TS.by_code["4m"]
        sets.append([four, four + 1, four + 2])
    if straight is not None:
        sets += [[straight + k, straight + k + 1, straight + k + 2] for k in (0, 3, 6)]
    for group in sets:
        used.update(group)
    suit = rng.choice(SUIT_STARTS)
    kinds_from = list(range(suit, suit + 9)) if one_suit else PLAYING
    if seven_pairs:
        kinds = rng.sample(kinds_from, 7)
        if rng.random() < 0.2:  # four of a kind as two pairs
            kinds[1] = kinds[0]
        for t in kinds:
            used[t] += 2
        return [], [t for t in kinds for _ in range(2)]
    while len(sets) < 4:
        if rng.random() < 0.55:
            start = (suit if one_suit else rng.choice(SUIT_STARTS)) + rng.randrange(7)
            group = [start, start + 1, start + 2]
        else:
            group = [rng.choice(kinds_from)] * 3
        if all(used[t] + group.count(t) <= 4 for t in group):
            used.update(group)
            sets.append(group)
    while True:
        t = rng.choice(kinds_from)
        if used[t] <= 2:
            return [x for g in sets for x in g], [t, t]


def next_kind(t: int) -> int:
    """The kind after `t` (天津: the indicator's kind and this one are wild): 9 -> 1 within a
    suit, E S W N E, C F P C."""
    code = CODE[t]
    if code[0].isdigit():
        return TS.by_code[f"{int(code[0]) % 9 + 1}{code[1]}"]
    for cycle in ("ESWN", "CFP"):
        if code in cycle:
            return TS.by_code[cycle[(cycle.index(code) + 1) % len(cycle)]]
    raise AssertionError(code)


def _random_case(rng: random.Random, tianjin: bool = False) -> Case | None:
    """A random hand with standing wild tiles (one or two, at most MAX_WILDS), or None when
    the draw fails. `tianjin`: regular hands, wilds from an indicator (its kind and the
    next), the flipped copy out of play."""
    roll = rng.random()
    melds: list[tuple[str, int, bool]] = []
    straight: int | None = None
    if roll < 0.15:
        origin = "random"
        n_melds = rng.choice([0, 0, 1, 2])
        pool = [t for t in PLAYING for _ in range(4)]
        rng.shuffle(pool)
        for _ in range(n_melds):
            kong = rng.random() < 0.4
            size = 4 if kong else 3
            t = rng.choice([x for x in PLAYING if pool.count(x) >= size])
            for _ in range(size):
                pool.remove(t)
            melds.append(("kong" if kong else "pung", t, kong and rng.random() < 0.5))
        standing = pool[:14 - 3 * n_melds]
    else:
        seven = roll > 0.85 and not tianjin
        one_suit = rng.random() < 0.3
        origin = ("seven_pairs" if seven else "complete") + ("_one_suit" if one_suit else "")
        if tianjin and not one_suit and rng.random() < 0.25:
            straight = rng.choice(SUIT_STARTS)
        sets, pair = _complete_hand(rng, seven, one_suit, straight=straight,
                                    five=(tianjin and not one_suit and straight is None
                                          and rng.random() < 0.3))
        groups = [sets[i:i + 3] for i in range(0, len(sets), 3)]
        if not seven and rng.random() < 0.35:
            for _ in range(rng.choice([1, 1, 2])):
                pungs = [g for g in groups if g[0] == g[1]]
                if not pungs:
                    break
                g = rng.choice(pungs)
                groups.remove(g)
                copies = sum(x == g[0] for x in sets) + pair.count(g[0])
                kong = copies < 4 and rng.random() < 0.4
                melds.append(("kong" if kong else "pung", g[0], kong and rng.random() < 0.5))
        standing = [t for g in groups for t in g] + pair
        if rng.random() < 0.25:
            origin = "near_" + origin
            standing[rng.randrange(len(standing))] = rng.choice(PLAYING)
    # The wild kinds (one or two), the physical wild tiles (one or two standing tiles).
    indicator = rng.choice(PLAYING) if tianjin else None
    if tianjin and straight is not None and rng.random() < 0.5:
        indicator = straight + rng.randrange(9)  # a 龙 in the wild suit: 本混龙
    if indicator is not None:
        wild_kinds = [indicator, next_kind(indicator)]
    else:
        wild_kinds = rng.sample(PLAYING, rng.choice([1, 1, 2]))
    n_wild = rng.choice([1, 2, 2]) if MAX_WILDS == 2 else rng.randint(1, MAX_WILDS)
    already = [i for i, t in enumerate(standing) if t in wild_kinds]
    others = [i for i, t in enumerate(standing) if t not in wild_kinds]
    if len(already) > n_wild:
        return None
    for i in rng.sample(others, n_wild - len(already)):
        standing[i] = rng.choice(wild_kinds)
    # Melds of a wild kind may only be concealed kongs (金杠).
    melds = [(("kong", t, True) if t in wild_kinds else (k, t, c)) for k, t, c in melds]
    held = Counter(standing)
    for k, t, _ in melds:
        held[t] += 4 if k == "kong" else 3
    if any(n > 4 for n in held.values()):
        return None
    if indicator is not None and held[indicator] > 3:
        return None  # the flipped copy is out of play
    wild_standing = [t for t in standing if t in wild_kinds]
    win = rng.choice(wild_standing) if rng.random() < 0.4 else rng.choice(standing)
    self_draw = rng.random() < (0.9 if tianjin else 0.6)
    ctx: dict[str, Any] = {"win_type": "self_draw" if self_draw else "discard",
                           "last_tile": rng.random() < 0.2}
    if not self_draw:
        ctx["discarder"] = 2
    elif any(k == "kong" for k, _, _ in melds) and rng.random() < 0.5:
        ctx["kong"] = "replacement"
    return Case(standing, melds, win, wild_kinds, ctx, origin, indicator)


def random_cases(n: int, seed: int, tianjin: bool = False) -> Iterator[Case]:
    rng = random.Random(seed)
    made = 0
    while made < n:
        case = _random_case(rng, tianjin)
        if case is not None:
            made += 1
            yield case


# ---------------------------------------------------------------------------------------------
# The brute force.


def substitutions(case: Case) -> Iterator[tuple[list[int], int]]:
    """Every concrete hand for the case (standing tiles, winning tile) that is a winning
    shape of regular or seven pairs, each wild tile standing for any kind."""
    natural = [t for t in case.standing if t not in case.wilds]
    wild_tiles = [t for t in case.standing if t in case.wilds]
    win_wild = case.win in case.wilds
    base = [0] * len(PLAYING)
    for t in natural:
        base[t] += 1
    in_melds = [0] * len(PLAYING)
    for k, t, _ in case.melds:
        in_melds[t] += 4 if k == "kong" else 3
    n_melds = len(case.melds)
    # The winning wild (if any) first: its substitute is the winning tile. The others are
    # interchangeable, so their substitutes are taken as a multiset.
    first = [PLAYING] if win_wild else []
    rest = len(wild_tiles) - len(first)
    for head in product(*first):
        for tail in combinations_with_replacement(PLAYING, rest):
            subs = [*head, *tail]
            counts = base[:]
            for t in subs:
                counts[t] += 1
            if any(counts[t] + in_melds[t] > 4 for t in subs):
                continue
            if not complete(counts, n_melds, True):
                continue
            standing = sorted([*natural, *subs])
            yield standing, (subs[0] if win_wild else case.win)


def _concrete(case: Case, standing: list[int], win: int) -> Hand:
    melds = tuple(Meld(k, (t,) * (4 if k == "kong" else 3), c) for k, t, c in case.melds)
    return Hand(tuple(standing), melds, win)


def brute_force(case: Case, rs: RuleSet, ctx: WinContext,
                concrete: list[tuple[list[int], int]]) -> int | None:
    """The best total over the concrete hands, scored without wilds; None: none wins."""
    plain = ctx._replace(wilds=())
    best: int | None = None
    for standing, win in concrete:
        result = score(_concrete(case, standing, win), plain, rs)
        if result.winning and (best is None or result.fan_total > best):
            best = result.fan_total
    return best


def test_completeness_check_agrees_with_the_plain_engine() -> None:
    """The brute force skips substitutions `complete` rejects: on hands without wilds it
    must say what the engine's plain decomposition says (the first wild tile of each random
    hand read as every kind in turn, the others as random kinds)."""
    rng = random.Random(SEED + 1)
    rs = VARIANTS["exact_7p"]
    ctx = WinContext(win_type="self_draw")
    seen = Counter[bool]()
    for case in random_cases(200, SEED + 2):
        at = [i for i, t in enumerate(case.standing) if t in case.wilds]
        for x in PLAYING:
            standing = list(case.standing)
            for i in at:
                standing[i] = rng.choice(PLAYING)
            standing[at[0]] = x
            held = Counter(standing)
            for k, t, _ in case.melds:
                held[t] += 4 if k == "kong" else 3
            if any(n > 4 for n in held.values()):
                continue
            result = score(_concrete(case, sorted(standing), x), ctx, rs)
            got = complete([standing.count(t) for t in PLAYING], len(case.melds), True)
            assert got is (result.decomposition is not None), (case, standing)
            seen[got] += 1
    assert seen[True] >= 100 and seen[False] >= 100, seen


def test_engine_matches_brute_force_over_substitutions() -> None:
    started = time.perf_counter()
    counts: Counter[str] = Counter()
    failures: list[str] = []
    engine_s = brute_s = 0.0
    for case in random_cases(HANDS, SEED):
        counts[case.origin] += 1
        counts[f"wilds={sum(t in case.wilds for t in case.standing)}"] += 1
        hand_data, ctx_data = case.request()
        t0 = time.perf_counter()
        concrete = list(substitutions(case))
        brute_s += time.perf_counter() - t0
        for name, rs in VARIANTS.items():
            if name.endswith("_7p") and case.melds:
                continue  # seven pairs takes no melds: the same as the regular variant
            hand, ctx = build(hand_data, ctx_data, rs)
            t0 = time.perf_counter()
            expected = brute_force(case, rs, ctx, concrete)
            t1 = time.perf_counter()
            result = score(hand, ctx, rs)
            engine_s += time.perf_counter() - t1
            brute_s += t1 - t0
            got = result.fan_total if result.winning else None
            counts["checks"] += 1
            counts["winning"] += expected is not None
            if got != expected:
                failures.append(f"{name}: {case}: engine {got}, brute force {expected}")
    elapsed = time.perf_counter() - started
    print(f"\nwild brute force: {HANDS} hands (seed {SEED}), {counts['checks']} checks "
          f"({counts['winning']} winning), {len(failures)} mismatches; "
          f"engine {engine_s:.1f} s, brute force {brute_s:.1f} s, total {elapsed:.1f} s; "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())
                      if k not in ("checks", "winning")))
    assert not failures, f"{len(failures)} mismatches, first ones:\n" + "\n".join(failures[:10])


# ---------------------------------------------------------------------------------------------
# The real tianjin rule set against a model of its 和目 written here.


def _chow_start(t: int) -> bool:
    code = CODE[t]
    return code[0].isdigit() and int(code[0]) <= 7


def _group_tiles(kind: str, t: int) -> list[int]:
    return [t, t + 1, t + 2] if kind == "chow" else [t] * (3 if kind == "pung" else 2)


@cache
def decompositions(counts: tuple[int, ...], pair: bool) -> frozenset[tuple[tuple[str, int], ...]]:
    """Every way to cut standing counts into chows, pungs and (unless `pair` is already
    taken) one pair; each a sorted tuple of (kind, first tile)."""
    i = next((k for k, n in enumerate(counts) if n), -1)
    if i < 0:
        return frozenset({()}) if pair else frozenset()
    out: set[tuple[tuple[str, int], ...]] = set()
    options = [("pung", 3)] + ([] if pair else [("pair", 2)])
    for kind, size in options:
        if counts[i] >= size:
            left = list(counts)
            left[i] -= size
            for rest in decompositions(tuple(left), pair or kind == "pair"):
                out.add(tuple(sorted(((kind, i), *rest))))
    if _chow_start(i) and counts[i + 1] and counts[i + 2]:
        left = list(counts)
        for x in (i, i + 1, i + 2):
            left[x] -= 1
        for rest in decompositions(tuple(left), pair):
            out.add(tuple(sorted((("chow", i), *rest))))
    return frozenset(out)


def tianjin_model(case: Case) -> int | None:
    """The best 番 total of a tianjin hand over every substitution of its wild tiles, from
    the rules: 本混龙 3 (instead of 龙 2), 捉五 1, 混儿吊 1, 素 1, 杠开 1; None when no
    substitution wins or the win is not self-drawn."""
    if case.ctx["win_type"] != "self_draw":
        return None
    assert case.indicator is not None
    wild_held = sum(t in case.wilds for t in case.standing) + sum(
        (4 if k == "kong" else 3) for k, t, _ in case.melds if t in case.wilds)
    fixed = (0 if wild_held else 1) + (
        1 if case.ctx.get("kong") == "replacement" and any(k == "kong" for k, _, _ in case.melds)
        else 0)
    ind_code = CODE[case.indicator]
    wild_suit = TS.by_code[f"1{ind_code[1]}"] if ind_code[0].isdigit() else None
    five, four = TS.by_code["5m"], TS.by_code["4m"]
    natural = [t for t in case.standing if t not in case.wilds]
    wild_tiles = [t for t in case.standing if t in case.wilds]
    win_wild = case.win in case.wilds
    in_melds = Counter[int]()
    for k, t, _ in case.melds:
        in_melds[t] += 4 if k == "kong" else 3
    best: int | None = None
    first = [PLAYING] if win_wild else []
    for head in product(*first):
        for tail in combinations_with_replacement(PLAYING, len(wild_tiles) - len(first)):
            subs = [*head, *tail]
            counts = [0] * len(PLAYING)
            for t in natural + subs:
                counts[t] += 1
            if any(counts[t] + in_melds[t] > 4 for t in subs):
                continue
            if not complete(counts, len(case.melds), False):
                continue
            win = subs[0] if win_wild else case.win
            # Tiles the other wilds stand for: what may sit beside the winning tile as wilds.
            beside = Counter(subs[1:] if win_wild else subs)
            for groups in decompositions(tuple(counts), False):
                if len(groups) != 5 - len(case.melds):
                    continue
                chows = {t for kind, t in groups if kind == "chow"}
                dragon = 0
                for start in SUIT_STARTS:
                    if {start, start + 3, start + 6} <= chows:
                        dragon = max(dragon, 3 if start == wild_suit else 2)
                place = -1
                for kind, t in groups:
                    tiles = _group_tiles(kind, t)
                    if win not in tiles:
                        continue
                    tiles.remove(win)
                    hun = all(beside[x] >= tiles.count(x) for x in tiles)
                    zhuo = win == five and kind == "chow" and t == four
                    place = max(place, int(hun) + int(zhuo))
                if place >= 0:
                    total = fixed + dragon + place
                    best = total if best is None else max(best, total)
    return best


TIANJIN = repo_rulesets()["tianjin"]


def test_tianjin_matches_its_model() -> None:
    counts: Counter[str] = Counter()
    failures: list[str] = []
    for case in random_cases(TIANJIN_HANDS, SEED + 3, tianjin=True):
        hand_data, ctx_data = case.request()
        hand, ctx = build(hand_data, ctx_data, TIANJIN)
        result = score(hand, ctx, TIANJIN)
        expected = tianjin_model(case)
        got = result.fan_total if result.winning else None
        counts["winning"] += expected is not None
        counts[f"total={expected}"] += 1
        if got != expected:
            failures.append(f"{case}: engine {got} ({[f.id for f in result.fans]}), "
                            f"model {expected}")
    print(f"\ntianjin model: {TIANJIN_HANDS} hands, {len(failures)} mismatches; "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    assert not failures, f"{len(failures)} mismatches, first ones:\n" + "\n".join(failures[:10])


@pytest.mark.parametrize(("notation", "indicator", "expected"), [
    ("234m678m22s35s777p4s", "3p", 1),  # 素
    ("5p5p6p123p4p78p1s222s1s", "5p", 3),  # 本混龙
    ("1234567mS9m333pE2p", "E", 3),  # 龙 + 混儿吊
    ("1234567mS9m333pE2p", "9m", None),  # S, E and 2p need three wilds; two are held
    ("123s777s555p11pEES", "E", 2),  # 双混儿捉五
])
def test_tianjin_model_reproduces_the_rule_page(notation: str, indicator: str,
                                                expected: int | None) -> None:
    """The model above, on the worked examples (tests/cases/tianjin/rule_page.yaml has
    the engine's side)."""
    hand, ctx = build(notation, {"win_type": "self_draw", "wild_indicator": indicator}, TIANJIN)
    case = Case(list(hand.concealed), [], hand.win_tile, list(ctx.wilds),
                {"win_type": "self_draw"}, "worked example", ctx.wild_indicator)
    assert tianjin_model(case) == expected


def test_tianjin_waits_list_every_completing_tile() -> None:
    """With wilds in the hand, the waits are exactly the tiles (not all of whose copies are
    in sight) whose completed hand has a winning shape, each scored as `score` scores it."""
    checked = ready = 0
    for case in random_cases(WAITS_HANDS, SEED + 4, tianjin=True):
        hand_data, ctx_data = case.request()
        concealed = list(hand_data["concealed"])
        concealed.remove(hand_data.pop("win_tile"))
        hand_data["concealed"] = concealed
        standing, melds, ctx = build_waiting(hand_data, ctx_data, TIANJIN)
        got = {w.tile: (w.winning, w.fan_total) for w in waits(standing, melds, ctx, TIANJIN).waits}
        in_sight = Counter(standing)
        for m in melds:
            in_sight.update(m.tiles)
        if ctx.wild_indicator is not None:
            in_sight[ctx.wild_indicator] += 1  # the flipped tile
        expected = {}
        for t in PLAYING:
            if in_sight[t] >= 4:
                continue
            result = score(Hand((*standing, t), melds, t), ctx, TIANJIN)
            if result.decomposition is not None:
                expected[CODE[t]] = (result.winning, result.fan_total)
        assert got == expected, case
        checked += 1
        ready += bool(expected)
    assert ready >= checked // 3, (ready, checked)


# ---------------------------------------------------------------------------------------------
# A few hands by hand, so that the brute force's own reasoning is checked too.


@pytest.mark.parametrize(("variant", "notation", "wilds", "ctx", "expected"), [
    # Both 5m are wild: one fills 4m-6m, the other the pung of E; the winning one, read as
    # 5m in 4m-5m-6m, is 捉五 (32) on top of the 龙 (2048); a discard, so no 自摸; E is held,
    # so no 无字.
    ("reduced", "123m4m5m6m789m11sEE5m", "5m", {"win_type": "discard", "discarder": 2}, 2080),
    # Two lone honours and one wild: no reading wins.
    ("reduced", "123m456m789m1s9sESW", "W", {"win_type": "self_draw"}, None),
    # The wild drawn last, read as 5m between 4m and 6m: 捉五 + 无字 + 自摸.
    ("reduced", "46m111p222p333s99sN", "N", {"win_type": "self_draw"}, 37),
    # The wild pairs the 9s: 全带幺 + 平和 + 无字 + 自摸.
    ("exact", "123m789m123p789s9sW", "W", {"win_type": "self_draw"}, 16384 + 8192 + 4 + 1),
    # Seven pairs with the wild completing 5p5p: 七对 + 断幺 + 无字 + 自摸, better than any
    # regular reading.
    ("exact_7p", "22m44m66m22s88s33p5pN", "N", {"win_type": "self_draw"}, 32768 + 64 + 4 + 1),
])
def test_brute_force_by_hand(variant: str, notation: str, wilds: str, ctx: dict[str, Any],
                             expected: int | None) -> None:
    rs = VARIANTS[variant]
    hand, built = build(notation, {**ctx, "wilds": wilds}, rs)
    result = score(hand, built, rs)
    assert (result.fan_total if result.winning else None) == expected
    case = Case(list(hand.concealed), [(m.kind, m.tiles[0], m.concealed) for m in hand.melds],
                hand.win_tile, list(built.wilds), ctx, "by hand")
    assert brute_force(case, rs, built, list(substitutions(case))) == expected
