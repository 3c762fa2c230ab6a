"""Hand builders: a registry of the ways the generator builds a complete hand, one per winning
shape, keyed by the shape's name in the shape registry (`app.domain.shapes.SHAPES`).

A builder is registered with `@builder(shape, can=..., weight=...)`:

- the function, `build(maker, draw) -> Hand | None`: a complete hand of that shape drawn
  with `maker.rng` from the supply `draw` (None when the supply ran out: another is built);
- `can(tables) -> bool`: whether a tile set (`Tables`) can build the shape at all;
- `weight`: how often the shape is drawn among those a rule set declares (most hands are
  regular).

The generator draws among the shapes a rule set declares, in the rule set's order, looking
each builder up by name; a shape with no builder, or one its tile set cannot build, is left
out with the reason (`buildable`), and a rule set none of whose shapes can be built is
refused. A new shape in `app/domain/shapes.py` gets its builder here
(`tests/tools/loggen/test_hands.py` checks that every registered shape has one).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from app.domain.hand import CHOW, HAND_SIZE, KONG, PUNG
from app.domain.shapes import (
    HONORS_AND_KNITTED,
    KNITTED_STRAIGHT,
    NINE_GATES,
    REGULAR,
    SEVEN_PAIRS,
    THIRTEEN_ORPHANS,
)
from app.rules.model import RuleSet
from tools.loggen.tiles import Draw, Hand, Meld, Set, Tables, Weighted

__all__ = ["BUILDERS", "Builder", "HandMaker", "buildable", "builder", "no_shape",
           "shapes_left_out"]

# How many of a regular hand's four sets are declared (0..4), by weight.
_MELD_COUNT_WEIGHTS = (30, 25, 20, 13, 12)
# How many standing tiles are turned into wild tiles, when the rule set has them (0..3).
_WILD_COUNT_WEIGHTS = (45, 30, 17, 8)
_MELD_COUNTS = Weighted(range(5), _MELD_COUNT_WEIGHTS)
_WILD_COUNTS = Weighted(range(4), _WILD_COUNT_WEIGHTS)

BuildFn = Callable[["HandMaker", Draw], Hand | None]
CanFn = Callable[[Tables], bool]


@dataclass(frozen=True)
class Builder:
    """How hands of one shape are built: the function, whether a tile set can build the
    shape, and the shape's weight among those a rule set declares."""

    shape: str
    build: BuildFn
    can: CanFn
    weight: int


BUILDERS: dict[str, Builder] = {}


def builder(shape: str, *, can: CanFn, weight: int) -> Callable[[BuildFn], BuildFn]:
    """Register a hand builder under the name of the shape it builds."""

    def register(build: BuildFn) -> BuildFn:
        if shape in BUILDERS:
            raise RuntimeError(f"a hand builder for shape {shape!r} registered twice")
        if weight <= 0:
            raise ValueError(f"shape {shape!r}: a builder's weight is 1 or more, not {weight}")
        BUILDERS[shape] = Builder(shape, build, can, weight)
        return build

    return register


def buildable(ruleset: RuleSet, tables: Tables) -> tuple[tuple[str, ...], dict[str, str]]:
    """The shapes `ruleset` declares that hands can be built in with its tiles (in the rule
    set's order), and each of the others with the reason it is left out."""
    names: list[str] = []
    left_out: dict[str, str] = {}
    for name in ruleset.shapes:
        found = BUILDERS.get(name)
        if found is None:
            left_out[name] = "no hand builder is registered for it (tools.loggen.hands)"
        elif not found.can(tables):
            left_out[name] = "its tile set cannot build it"
        else:
            names.append(name)
    return tuple(names), left_out


def no_shape(rid: str, left_out: Mapping[str, str]) -> str:
    """Why no hand of rule set `rid` can be built: each of its shapes with its reason."""
    reasons = "; ".join(f"{shape}: {why}" for shape, why in left_out.items())
    return f"rule set {rid}: none of its shapes can be built here ({reasons})"


def shapes_left_out(ruleset: RuleSet) -> dict[str, str]:
    """The shapes of `ruleset` the generator builds no hand in, each with the reason."""
    return buildable(ruleset, Tables(ruleset))[1]


class HandMaker:
    """Complete hands of the shapes a rule set declares, drawn with the generator's `rng`
    (shared: the order of its draws is the log's)."""

    def __init__(self, ruleset: RuleSet, rng: random.Random, tables: Tables) -> None:
        self.rng = rng
        self.t = tables
        self.meld_kinds = ruleset.meld_kinds
        names, self.left_out = buildable(ruleset, tables)
        if not names:
            raise ValueError(no_shape(ruleset.id, self.left_out))
        self.shapes = Weighted(names, [BUILDERS[s].weight for s in names])
        self.themes = self._themes()

    def hand(self, draw: Draw) -> Hand | None:
        """A hand of a shape drawn by weight, wild tiles added when the draw has them; None
        when the supply ran out while building."""
        shape: str = self.shapes.pick(self.rng)
        built = BUILDERS[shape].build(self, draw)
        if built is None:
            return None
        self.add_wilds(built, draw)
        return built

    # -- what builders share ----------------------------------------------------------------

    def pool(self, suits: int, honours: bool) -> tuple[int, ...]:
        """The tiles of `suits` numbered suits chosen at random, honours added if asked."""
        t = self.t
        chosen = self.rng.sample(t.suits, min(suits, len(t.suits)))
        pool = tuple(i for run in chosen for i in run)
        return pool + t.honours if honours else pool

    def pick(self, draw: Draw, pool: Sequence[int], starts: Sequence[int],
             chow_share: float) -> Set | None:
        """A set of tiles from `pool` that the supply still has (a chow when chosen and one
        can begin in `pool`)."""
        rng = self.rng
        for _ in range(12):
            if starts and rng.random() < chow_share:
                s: Set = (CHOW, self.t.chow(rng.choice(starts)))
            else:
                tile = rng.choice(pool)
                s = (PUNG, (tile, tile, tile))
            if draw.take_set(*s):
                return s
        return None

    def declare(self, sets: list[Set], draw: Draw, n: int) -> tuple[list[Meld], list[Set]]:
        """Declare up to `n` of the sets as melds of the kinds the rule set allows: a chow as
        a chow, a pung as a pung or as a kong (exposed or concealed) when the fourth tile is
        left. A set holding a wild tile is declared only as a concealed kong (金杠)."""
        rng = self.rng
        kinds = self.meld_kinds
        kong_bias = rng.random() < 0.05  # now and then a hand of kongs (三杠, 四杠)
        declarable = [i for i, s in enumerate(sets) if self._declarable(s, draw)]
        chosen = set(rng.sample(declarable, min(n, len(declarable))))
        melds: list[Meld] = []
        standing: list[Set] = []
        for i, (kind, tiles) in enumerate(sets):
            if i not in chosen:
                standing.append((kind, tiles))
                continue
            if kind == CHOW:
                melds.append((CHOW, tiles, False))
                continue
            tile = tiles[0]
            kong_ok = KONG in kinds and draw.fits((tile,))
            if tile in draw.wilds:
                # Four wild tiles of one kind: only ever a concealed kong (金杠).
                if kong_ok and draw.take((tile,)):
                    melds.append((KONG, (tile,) * 4, True))
                else:
                    standing.append((kind, tiles))
                continue
            r = rng.random()
            if kong_bias:
                r = 0.4 + r * 0.6
            if not kong_ok or (PUNG in kinds and r < 0.62):
                melds.append((PUNG, tiles, False))
                continue
            draw.take((tile,))  # the fourth tile
            concealed = r >= 0.82 if PUNG in kinds else r >= 0.55
            melds.append((KONG, (tile,) * 4, concealed))
        return melds, standing

    def _declarable(self, s: Set, draw: Draw) -> bool:
        kind, tiles = s
        kinds = self.meld_kinds
        if any(x in draw.wilds for x in tiles):
            # Wilds are never claimed: only four of a wild kind as a concealed kong.
            return kind == PUNG and KONG in kinds and draw.fits((tiles[0],))
        if kind == CHOW:
            return CHOW in kinds
        return PUNG in kinds or (KONG in kinds and draw.fits((tiles[0],)))

    def finish(self, shape: str, standing: list[int], melds: list[Meld],
               win: int | None = None) -> Hand:
        """The hand with its winning tile (one of the standing tiles, at random unless
        given) written last."""
        rng = self.rng
        rng.shuffle(standing)
        pos = standing.index(win) if win is not None else rng.randrange(len(standing))
        standing.append(standing.pop(pos))
        return Hand(shape, standing, melds)

    def knitted(self) -> list[int]:
        """A knitted straight: 1-4-7, 2-5-8 and 3-6-9, each of another suit."""
        runs = self.rng.sample(self.t.full_suits, 3)
        return [run[r] for run, first in zip(runs, (0, 1, 2), strict=True)
                for r in (first, first + 3, first + 6)]

    def add_wilds(self, hand: Hand, draw: Draw) -> None:
        """Hands sometimes hold wild tiles: a wild stands for the tile it replaces, so the
        hand stays complete (a wild of the indicator's kind only while one is left)."""
        if not draw.wilds:
            return
        rng = self.rng
        for _ in range(_WILD_COUNTS.pick(rng)):
            pos = rng.randrange(len(hand.standing))
            old = hand.standing[pos]
            new = rng.choice(draw.wilds)
            if old in draw.wilds or not draw.fits((new,)):
                continue
            draw.counts[old] -= 1
            draw.counts[new] += 1
            hand.standing[pos] = new

    # -- regular hands: the themes of their sets --------------------------------------------

    def _themes(self) -> Weighted:
        """Ways of choosing a regular hand's sets, those the tile set allows, by weight.
        Beside plain random hands they favour what real winning hands look like (one or two
        suits, pungs, honours, runs): hands with a value, so that a rule set's minimum is
        reached often."""
        t = self.t
        themes = {"random": 22, "two_suits": 14, "one_suit": 14, "pungs": 9,
                  "shifted_chows": 6, "same_chows": 6}
        if t.honours:
            themes["honours"] = 10
        if len(t.orphans) >= 5:
            themes["orphans"] = 3
        if t.simples:
            themes["simples"] = 6
        if t.full_suits:
            themes["straight"] = 6
            themes["shifted_pungs"] = 5
        names = tuple(themes)
        return Weighted(names, [themes[n] for n in names])

    def theme(self) -> tuple[list[Set], Sequence[int], float, Sequence[int]]:
        """(fixed sets, pool for the others, their chow share, pool of the pair)."""
        rng = self.rng
        t = self.t
        theme = self.themes.pick(rng)
        fixed: list[Set] = []
        pool: Sequence[int] = t.playing
        share = 0.55
        if theme == "two_suits":
            pool = self.pool(2, bool(t.honours) and rng.random() < 0.3)
        elif theme == "one_suit":
            pool = self.pool(1, bool(t.honours) and rng.random() < 0.45)
        elif theme == "pungs":
            pool = rng.choice((t.playing, self.pool(2, bool(t.honours)), self.pool(1, False)))
            share = 0.0
        elif theme == "honours":
            k = rng.randint(1, min(4, len(t.honours)))
            fixed = [(PUNG, (h, h, h)) for h in rng.sample(t.honours, k)]
            pair = t.honours if rng.random() < 0.4 else t.playing
            return fixed, pool, share, pair
        elif theme == "orphans":
            pool, share = t.orphans, 0.0
        elif theme == "simples":
            pool, share = t.simples, 0.6
        elif theme == "straight":
            # 1-2-3, 4-5-6, 7-8-9: of one suit, or of three different suits.
            if len(t.full_suits) >= 3 and rng.random() < 0.4:
                runs = rng.sample(t.full_suits, 3)
            else:
                runs = [rng.choice(t.full_suits)] * 3
            fixed = [(CHOW, t.chow(run[r])) for run, r in zip(runs, (0, 3, 6), strict=True)]
        elif theme == "shifted_pungs":
            run = rng.choice(t.full_suits)
            n = rng.choice((3, 3, 4))
            first = rng.randrange(10 - n)
            fixed = [(PUNG, (x, x, x)) for x in run[first:first + n]]
        elif theme == "shifted_chows":
            step = rng.choice((1, 1, 2))
            starts = t.chow_starts
            start = rng.choice(starts)
            chain = [start]
            while len(chain) < 3:
                nxt = chain[-1]
                for _ in range(step):
                    nxt = t.succ[nxt] if nxt >= 0 else -1
                if nxt < 0 or nxt not in starts:
                    break
                chain.append(nxt)
            if len(chain) == 3:
                fixed = [(CHOW, t.chow(s)) for s in chain]
        elif theme == "same_chows":
            start = rng.choice(t.chow_starts)
            fixed = [(CHOW, t.chow(start))] * rng.choice((2, 2, 3, 4))
        return fixed, pool, share, pool


# --- the builders, one per shape ----------------------------------------------------------


@builder(REGULAR, can=lambda t: bool(t.playing), weight=84)
def _regular(m: HandMaker, draw: Draw) -> Hand | None:
    """Four sets and a pair, chosen by a theme, some of the sets declared."""
    rng = m.rng
    fixed, pool, share, pair_pool = m.theme()
    sets: list[Set] = []
    for s in fixed[:4]:
        if not draw.take_set(*s):
            return None
        sets.append(s)
    starts = m.t.starts(pool) if share else ()
    while len(sets) < 4:
        picked = m.pick(draw, pool, starts, share)
        if picked is None:
            return None
        sets.append(picked)
    pair = rng.choice(pair_pool)
    if not draw.take((pair, pair)):
        return None
    rng.shuffle(sets)
    melds, standing_sets = m.declare(sets, draw, _MELD_COUNTS.pick(rng))
    standing = [pair, pair] + [x for s in standing_sets for x in s[1]]
    return m.finish(REGULAR, standing, melds)


@builder(SEVEN_PAIRS, can=lambda t: len(t.playing) >= 7, weight=8)
def _seven_pairs(m: HandMaker, draw: Draw) -> Hand | None:
    """Seven pairs of one, two or any suits; now and then seven consecutive pairs, or four
    of a kind as two pairs."""
    rng = m.rng
    t = m.t
    r = rng.random()
    pool: Sequence[int] = t.playing
    if r < 0.25:
        pool = m.pool(1, bool(t.honours) and rng.random() < 0.5)
    elif r < 0.55:
        pool = m.pool(2, bool(t.honours) and rng.random() < 0.3)
    if len(pool) < 7:
        pool = t.playing
    if t.full_suits and rng.random() < 0.08:
        run = rng.choice(t.full_suits)  # seven consecutive pairs of one suit
        first = rng.randrange(3)
        kinds = list(run[first:first + 7])
    else:
        kinds = rng.sample(pool, 7)
        if rng.random() < 0.12:
            kinds[6] = kinds[0]  # four of a kind counts as two pairs
    tiles = kinds + kinds
    if not draw.take(tiles):
        return None
    return m.finish(SEVEN_PAIRS, tiles, [])


@builder(THIRTEEN_ORPHANS, can=lambda t: len(t.orphans) == HAND_SIZE - 1, weight=2)
def _thirteen_orphans(m: HandMaker, draw: Draw) -> Hand | None:
    """One of each terminal and honour, one of them twice."""
    tiles = [*m.t.orphans, m.rng.choice(m.t.orphans)]
    if not draw.take(tiles):
        return None
    return m.finish(THIRTEEN_ORPHANS, tiles, [])


@builder(HONORS_AND_KNITTED,
         can=lambda t: len(t.full_suits) >= 3 and 9 + len(t.honours) >= HAND_SIZE, weight=2)
def _honours_and_knitted(m: HandMaker, draw: Draw) -> Hand | None:
    """Fourteen different tiles of a knitted straight and the honours."""
    rng = m.rng
    knitted = m.knitted()
    honours = list(m.t.honours)
    if rng.random() < 0.3 and len(honours) < HAND_SIZE:
        tiles = honours + rng.sample(knitted, HAND_SIZE - len(honours))  # all the honours
    else:
        tiles = rng.sample(knitted + honours, HAND_SIZE)
    if not draw.take(tiles):
        return None
    return m.finish(HONORS_AND_KNITTED, tiles, [])


@builder(KNITTED_STRAIGHT, can=lambda t: len(t.full_suits) >= 3, weight=2)
def _knitted_straight(m: HandMaker, draw: Draw) -> Hand | None:
    """A knitted straight, one set (now and then declared) and a pair."""
    rng = m.rng
    t = m.t
    knitted = m.knitted()
    if not draw.take(knitted):
        return None
    picked = m.pick(draw, t.playing, t.chow_starts, 0.5)
    pair = rng.choice(t.playing)
    if picked is None or not draw.take((pair, pair)):
        return None
    melds, rest = m.declare([picked], draw, rng.choice((0, 0, 1)))
    standing = knitted + [pair, pair] + [x for s in rest for x in s[1]]
    return m.finish(KNITTED_STRAIGHT, standing, melds)


@builder(NINE_GATES, can=lambda t: bool(t.full_suits), weight=2)
def _nine_gates(m: HandMaker, draw: Draw) -> Hand | None:
    """1112345678999 of one suit and one more tile of it."""
    rng = m.rng
    run = rng.choice(m.t.full_suits)
    extra = rng.choice(run)
    tiles = [run[0]] * 3 + list(run[1:8]) + [run[8]] * 3 + [extra]
    if not draw.take(tiles):
        return None
    # Won on the extra tile (the nine-sided wait) mostly; else it is an ordinary hand.
    win = extra if rng.random() < 0.8 else rng.choice(tiles)
    return m.finish(NINE_GATES, tiles, [], win)
