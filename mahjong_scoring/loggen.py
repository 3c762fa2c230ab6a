"""A seeded generator of realistic game logs: JSON Lines of score (or waits) requests, for the
tests and benchmarks of bulk scoring.

What it generates. Each line is one request body as a game server would send it to
``POST /v1/rulesets/{id}/score`` (or ``.../waits``), with an extra top-level ``"ruleset"``
key naming its rule set (the command-line scorer strips it and scores the line with that
rule set). Several rule sets can be interleaved in one log. The hands are winning shapes
(four sets and a pair with declared melds, seven pairs, and the other shapes a rule set
declares), written in the mixed ways clients write them: a whole-hand notation string, or a
hand object whose standing tiles are a string or a list of codes (now and then Chinese or
riichi-style names), with or without ``win_tile``, with contexts that give every field or
only what differs from the defaults. ``waits`` gives the same hands one tile short. A share
of malformed lines can be mixed in: lines that are not JSON, JSON that is not an object, and
requests the service refuses in different ways (`MALFORMED_KINDS`).

How it stays legal. Nothing here knows a rule set by name: everything comes from the
`RuleSet` data, its tile set (suits, honours, flowers, copies of each kind), the kinds of
meld players may declare, its shapes, players, flowers, wild tiles and options. Hands are
built within the tile supply (at most the copies of a kind, one fewer of a wild indicator
that is out of play; wild tiles only ever in a concealed kong among declared melds) and the
context is physically consistent (a discarder other than the winner, the seat wind from the
winner and the dealer, kong flags only when they can happen, last of its kind only when no
other copy is held). Every request is then read and scored through the service's own path
(`read_score_request`, `score`; `read_waits_request` for waits): a request it refuses is
dropped and drawn again (`RequestGenerator.refused` counts them; expected: none), and the
engine's answer decides whether a hand wins, so that the share of hands that do not win (a
minimum not reached, a rule set's requirement) is the one asked for (``non_winning``, 0.1 by
default); where every hand built wins (no minimum, no requirement), a hand meant not to win
has one standing tile swapped, so that it has no winning shape. Themes favour hands with a
value (one or two suits, pungs, honours, runs), so a minimum such as 8 fan is reached often;
a win type the engine never lets win (a self-draw-only game) is learned from its answers and
no longer drawn for hands meant to win. Options keep their defaults mostly; now and then one
or two get a valid value of their declaration.

The determinism promise. The output depends only on the arguments and the rule-set files:
all randomness comes from `random.Random` objects seeded from the seed (and the rule set's
id), never from the global generator, the clock, hash order or set iteration order, so the
same call gives the same lines in every run and in every process. A rule set's valid lines
are the same whatever other rule sets a log mixes in: `requests(ruleset, n, seed)`.

Mahjong only. A card game scored by groups (a `CardRuleSet`, a rule set with a `deck:`) is
not generated: `log_lines` refuses its id, and the command line leaves such rule sets out of
``all`` (saying so on standard error) and refuses one named by ``--ruleset``. `tile_rulesets`
picks the rule sets it makes logs for.

The command line: ``mahjong-score-log`` or ``python -m mahjong_scoring.loggen`` (`main`).
"""

from __future__ import annotations

import argparse
import bisect
import copy
import itertools
import os
import random
import sys
from collections import deque
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

import app
from app.domain.errors import HandError
from app.domain.hand import (
    CHOW,
    DISCARD,
    HAND_SIZE,
    KONG,
    KONG_AFTER_DISCARD,
    KONG_REPLACEMENT,
    KONG_ROBBED,
    PUNG,
    SELF_DRAW,
    WINDS,
)
from app.domain.notation import format_meld, format_tiles
from app.domain.shapes import (
    HONORS_AND_KNITTED,
    KNITTED_STRAIGHT,
    NINE_GATES,
    REGULAR,
    SEVEN_PAIRS,
    THIRTEEN_ORPHANS,
)
from app.rules.loader import load_rulesets
from app.rules.model import AnyRuleSet, RuleSet
from app.rules.options import OptionDef
from app.scoring.evaluate import score
from app.service.hand_requests import read_score_request, read_waits_request
from app.service.problems import ApiError

__all__ = [
    "MALFORMED_KINDS",
    "NOT_AN_OBJECT_KINDS",
    "NOT_JSON_KINDS",
    "REFUSED_KINDS",
    "RequestGenerator",
    "dumps",
    "log_lines",
    "main",
    "malformed_line",
    "requests",
    "tile_rulesets",
]

Body = dict[str, Any]

# Malformed lines, by how they fail: not JSON at all, JSON that is not an object, and
# objects the service refuses (each in a different way; `unknown_ruleset` names a rule set
# that does not exist in the line's "ruleset" key, so it needs that key).
NOT_JSON_KINDS = ("truncated", "garbage", "empty")
NOT_AN_OBJECT_KINDS = ("array", "number")
REFUSED_KINDS = ("unknown_tile", "wrong_tile_count", "unknown_field", "wrong_type",
                 "seat_out_of_range", "unknown_option", "unknown_ruleset")
MALFORMED_KINDS = NOT_JSON_KINDS + NOT_AN_OBJECT_KINDS + REFUSED_KINDS

# A set before it is placed: its kind (chow or pung) and its three tiles.
_Set = tuple[str, tuple[int, int, int]]
# A declared meld: kind, tiles (sorted), concealed (only a kong can be).
_Meld = tuple[str, tuple[int, ...], bool]

# How many of a regular hand's four sets are declared (0..4), by weight.
_MELD_COUNT_WEIGHTS = (30, 25, 20, 13, 12)
# How many standing tiles are turned into wild tiles, when the rule set has them (0..3).
_WILD_COUNT_WEIGHTS = (45, 30, 17, 8)
# How many flowers a player shows, by weight (cut at the rule set's maximum).
_FLOWER_WEIGHTS = (30, 25, 18, 12, 7, 4, 2, 1, 1)
# Shapes by weight, for those the rule set declares (most hands are regular).
_SHAPE_WEIGHTS = {REGULAR: 84, SEVEN_PAIRS: 8, THIRTEEN_ORPHANS: 2, HONORS_AND_KNITTED: 2,
                  KNITTED_STRAIGHT: 2, NINE_GATES: 2}
# Candidates drawn for one request before taking a hand of the other kind (winning or not);
# once a kind has not turned up, it is looked for less long (a rule set may never make it).
_TRIES = 400
_TRIES_RARE = 25
# Hands of one win type scored without a win before that win type counts as never winning.
_NEVER_WINS = 200
# Hands of the unwanted kind kept for a later request that wants them.
_STASH = 64
# A generator that draws this many candidates in a row without one the service accepts has a
# rule set it cannot serve (a bug here): it stops rather than loop.
_MAX_REFUSED_IN_A_ROW = 1000

# Names that are no field of a request (unknown_field) and no option (unknown_option).
_UNKNOWN_FIELDS = ("table_id", "player_name", "timestamp", "comment", "hand_no")
_UNKNOWN_OPTIONS = ("house_bonus", "double_dealer", "max_points", "fast_game", "limit_hand")
_GARBAGE = ("hand=123m456p789s11z", "GET /v1/rulesets HTTP/1.1", "<html><body>502 Bad Gateway",
            "Traceback (most recent call last):", "score me please", "{hand: 123m, ctx}",
            "\ufffd\ufffd garbled bytes", "NaNaN", "'single quotes'", "=== round 3 ===")
# Tile codes that no tile set here knows (checked against the set before use).
_BOGUS_TILES = ("Q", "X", "0m", "0p", "0s", "10m", "Z")


class _Weighted:
    """A weighted choice drawn with one `random()` call (as `Random.choices` draws it),
    its cumulative weights made once."""

    def __init__(self, items: Sequence[Any], weights: Sequence[int]) -> None:
        self.items = tuple(items)
        self.cum = tuple(itertools.accumulate(weights))
        self.total = float(self.cum[-1])
        self.last = len(self.items) - 1

    def pick(self, rng: random.Random) -> Any:
        return self.items[bisect.bisect(self.cum, rng.random() * self.total, 0, self.last)]


_MELD_COUNTS = _Weighted(range(5), _MELD_COUNT_WEIGHTS)
_WILD_COUNTS = _Weighted(range(4), _WILD_COUNT_WEIGHTS)
_ROUND_WINDS = _Weighted(range(4), (6, 3, 2, 1))


def dumps(obj: Any) -> str:
    """One compact JSON line (UTF-8 text as is, no spaces), as every line of a log."""
    return orjson.dumps(obj).decode()


# --- what a rule set's tiles allow ------------------------------------------------------------


class _Tables:
    """The tile-set facts the generator draws from, in index order (never from set order)."""

    def __init__(self, ruleset: RuleSet) -> None:
        ts = ruleset.tileset
        kinds = ts.kinds
        self.codes = tuple(k.code for k in kinds)
        self.copies = ts.copies
        self.playing = tuple(ts.playing)
        self.flowers = tuple(ts.flowers)
        # Each numbered suit's tiles by rank, in the tile set's suit order.
        suits: list[tuple[int, ...]] = []
        for s in ts.suits:
            run = sorted((i for i, k in enumerate(kinds) if k.is_number and k.suit == s),
                         key=lambda i: kinds[i].rank)
            if run:
                suits.append(tuple(run))
        self.suits = tuple(suits)
        # Suits of nine ranks 1..9 (straights, knitted tiles, nine gates need them).
        self.full_suits = tuple(s for s in self.suits
                                if [kinds[i].rank for i in s] == list(range(1, 10)))
        self.honours = tuple(i for i in self.playing if kinds[i].is_honor)
        self.terminals = tuple(sorted(ts.terminals))
        self.orphans = self.terminals + self.honours
        self.simples = tuple(i for i in self.playing if kinds[i].is_number
                             and not kinds[i].is_terminal)
        # succ[t]: the tile one rank above t in its suit (a chow is t, succ[t], succ[succ[t]]).
        succ = [-1] * len(kinds)
        for suit in self.suits:
            for a, b in itertools.pairwise(suit):
                if kinds[b].rank == kinds[a].rank + 1:
                    succ[a] = b
        self.succ = tuple(succ)
        self._starts: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.chow_starts = self.starts(self.playing)
        # Other names of each tile (一万, 1z ...), sorted, for clients that write them.
        names: list[list[str]] = [[] for _ in kinds]
        for name, t in sorted(ts.aliases.items()):
            if name != kinds[t].code:
                names[t].append(name)
        self.aliases = tuple(tuple(n) for n in names)
        self.has_winds = bool(ts.winds)

    def chow(self, start: int) -> tuple[int, int, int]:
        mid = self.succ[start]
        return (start, mid, self.succ[mid])

    def starts(self, pool: Sequence[int]) -> tuple[int, ...]:
        """The tiles of `pool` that begin a chow of tiles all in `pool` (remembered: pools
        are a few combinations of suits)."""
        key = tuple(pool)
        found = self._starts.get(key)
        if found is None:
            found = self._starts[key] = self._find_starts(key)
        return found

    def _find_starts(self, pool: tuple[int, ...]) -> tuple[int, ...]:
        inside = frozenset(pool)  # membership only: the order comes from `pool`
        out = []
        for t in pool:
            mid = self.succ[t]
            if mid >= 0 and mid in inside and self.succ[mid] >= 0 and self.succ[mid] in inside:
                out.append(t)
        return tuple(out)


@dataclass
class _Draw:
    """One hand being drawn: the counts of each kind so far and how many may be held."""

    counts: list[int]
    limit: list[int]
    wilds: tuple[int, ...] = ()
    indicator: int | None = None

    def fits(self, tiles: Sequence[int]) -> bool:
        counts = self.counts
        limit = self.limit
        return all(counts[t] + tiles.count(t) <= limit[t] for t in tiles)

    def take_set(self, kind: str, tiles: tuple[int, int, int]) -> bool:
        """`take` for a set of three (a pung's one kind, a chow's three)."""
        counts = self.counts
        limit = self.limit
        if kind == PUNG:
            t = tiles[0]
            if counts[t] + 3 > limit[t]:
                return False
            counts[t] += 3
            return True
        a, b, c = tiles
        if counts[a] >= limit[a] or counts[b] >= limit[b] or counts[c] >= limit[c]:
            return False
        counts[a] += 1
        counts[b] += 1
        counts[c] += 1
        return True

    def take(self, tiles: Sequence[int]) -> bool:
        """Add `tiles` when the supply has them; False (nothing added) when it does not."""
        if not self.fits(tiles):
            return False
        for t in tiles:
            self.counts[t] += 1
        return True


@dataclass
class _Hand:
    """A complete hand: standing tiles (the winning tile last), declared melds."""

    shape: str
    standing: list[int]
    melds: list[_Meld] = field(default_factory=list)

    @property
    def win(self) -> int:
        return self.standing[-1]


# --- the generator ------------------------------------------------------------------------------


class RequestGenerator:
    """Requests for one rule set, each checked through the service's path; `next()` gives
    the next one. Deterministic for (rule set, seed, waits, non_winning).

    ``non_winning`` is the share of requests whose hand does not win (the engine says
    ``winning: false``, e.g. below the rule set's minimum): each request is first drawn to
    be winning or not, then hands are built until the engine's answer agrees (a hand of the
    other kind is kept for a later request). When a rule set rarely or never gives a kind,
    a hand of the other kind is taken after a bounded number of tries.

    Counters: ``drawn`` candidates built, ``refused`` of them refused by the service (each
    by its problem code in ``refusals``), ``winning`` and ``not_winning`` requests given.
    """

    def __init__(self, ruleset: RuleSet, seed: int | str, *, waits: bool = False,
                 non_winning: float = 0.1) -> None:
        if not 0.0 <= non_winning <= 1.0:
            raise ValueError(f"non_winning must be a share from 0 to 1, not {non_winning!r}")
        self.ruleset = ruleset
        self.waits = waits
        self.non_winning = non_winning
        # One stream per rule set, so that the requests of a rule set are the same whatever
        # other rule sets a log mixes in.
        self.rng = random.Random(f"{seed}:{ruleset.id}")
        self.t = _Tables(ruleset)
        self.players = ruleset.players
        self.meld_kinds = ruleset.meld_kinds
        self.shapes = self._shapes()
        self.themes = self._themes()
        weights = _FLOWER_WEIGHTS[:max(0, ruleset.max_flowers) + 1]
        self._flower_counts = _Weighted(range(len(weights)), weights)
        self.drawn = 0
        self.refused = 0
        self.refusals: dict[str, int] = {}
        self.winning = 0
        self.not_winning = 0
        self._stash: dict[bool, deque[Body]] = {True: deque(), False: deque()}
        self._tries = {True: _TRIES, False: _TRIES}
        # Set once no hand built has failed to win in many (a rule set with no minimum and no
        # requirement): a hand meant not to win then has a standing tile swapped (`_broken`).
        self._break_hands = False
        # Per win type, [hands scored, hands that won]: a win type that never wins in this
        # rule set (self-draw only games) is not drawn for a request that wants a win.
        self._by_type = {SELF_DRAW: [0, 0], DISCARD: [0, 0]}

    # -- the requests -----------------------------------------------------------------------

    def next(self) -> Body:
        """The next request body (a waits body when the generator makes waits)."""
        want = self.rng.random() >= self.non_winning  # True: a winning hand
        body = self._of_kind(want)
        if body is None and not want and not self._break_hands:
            # Every hand built wins here: from now on one meant not to win is broken.
            self._break_hands = True
            body = self._of_kind(want)
        if body is None:
            # The wanted kind did not turn up: take the other one.
            self._tries[want] = _TRIES_RARE
            want = not want
            body = self._of_kind(want, tries=_MAX_REFUSED_IN_A_ROW)
            if body is None:
                raise RuntimeError(f"no request for rule set {self.ruleset.id} could be made")
        if want:
            self.winning += 1
        else:
            self.not_winning += 1
        return body

    def _of_kind(self, winning: bool, tries: int | None = None) -> Body | None:
        stash = self._stash[winning]
        if stash:
            return stash.popleft()
        refused_in_a_row = 0
        for _ in range(self._tries[winning] if tries is None else tries):
            made = self._candidate(winning)
            if made is None:
                refused_in_a_row += 1
                if refused_in_a_row >= _MAX_REFUSED_IN_A_ROW:
                    raise RuntimeError(
                        f"{refused_in_a_row} requests in a row for rule set {self.ruleset.id} "
                        f"were refused; last refusals: {self.refusals}")
                continue
            refused_in_a_row = 0
            body, won = made
            if won == winning:
                return body
            other = self._stash[won]
            if len(other) < _STASH:
                other.append(body)
        return None

    def _candidate(self, winning: bool) -> tuple[Body, bool] | None:
        """A new request and whether its hand wins; None when the service refuses it.
        `winning`: whether the request wanted is to win."""
        hand: _Hand | None = None
        while hand is None:  # None: the supply ran out while building; build another
            draw = self._new_draw()
            hand = self._hand(draw)
        if not winning and self._break_hands:
            self._broken(hand, draw)
        self.drawn += 1
        context = self._context(hand, draw, self._never_wins() if winning else None)
        score_hand, waits_hand = self._forms(hand)
        body: Body = {"hand": score_hand, "context": context}
        try:
            read, ctx = read_score_request(body, self.ruleset)
            won = score(read, ctx, self.ruleset).winning
            seen = self._by_type[ctx.win_type]
            seen[0] += 1
            seen[1] += won
            if self.waits:
                body = {"hand": waits_hand, "context": context}
                read_waits_request(body, self.ruleset)
        except HandError as exc:
            self._refusal(str(exc.code))
            return None
        except ApiError as exc:
            self._refusal(exc.code)
            return None
        return body, won

    def _broken(self, hand: _Hand, draw: _Draw) -> None:
        """A hand meant not to win where every hand built wins: one standing tile other than
        the winning tile (written last) swapped for another kind the supply still has, so
        that (most likely) it no longer has a winning shape. Never a wild tile."""
        rng = self.rng
        standing = hand.standing
        pos = rng.randrange(len(standing) - 1)
        old = standing[pos]
        counts, limit = draw.counts, draw.limit
        choices = [t for t in self.t.playing
                   if t != old and counts[t] < limit[t] and t not in draw.wilds]
        if not choices or old in draw.wilds:
            return
        new = rng.choice(choices)
        counts[old] -= 1
        counts[new] += 1
        standing[pos] = new

    def _never_wins(self) -> str | None:
        """A win type that has not won once in many hands (the engine's answers), or None."""
        for win_type, (scored, won) in self._by_type.items():
            if scored >= _NEVER_WINS and not won:
                return win_type
        return None

    def _refusal(self, code: str) -> None:
        self.refused += 1
        self.refusals[code] = self.refusals.get(code, 0) + 1

    # -- tiles ------------------------------------------------------------------------------

    def _new_draw(self) -> _Draw:
        """The supply for one hand, and the wild tiles in play when the rule set has them."""
        t = self.t
        draw = _Draw([0] * len(t.codes), list(t.copies))
        spec = self.ruleset.wild
        if spec is None:
            return draw
        rng = self.rng
        ts = self.ruleset.tileset
        if spec.indicator is not None and (not spec.explicit or rng.random() < 0.8):
            # 混: the flipped tile names the wild kinds by the rule set's rule.
            ind = rng.choice(t.playing)
            draw.indicator = ind
            draw.wilds = spec.kinds(ind, ts.next_kinds)
            if spec.indicator_out_of_play:
                draw.limit[ind] -= 1  # the flipped copy is in sight, not in a hand
        elif spec.explicit:
            # The wild kinds listed in the request (one or two kinds).
            draw.wilds = tuple(sorted(rng.sample(t.playing, rng.choice((1, 1, 2)))))
        return draw

    def _shapes(self) -> _Weighted:
        """The shapes the rule set declares that its tile set can build, with weights."""
        t = self.t
        can = {
            REGULAR: bool(t.playing),
            SEVEN_PAIRS: len(t.playing) >= 7,
            THIRTEEN_ORPHANS: len(t.orphans) == HAND_SIZE - 1,
            HONORS_AND_KNITTED: len(t.full_suits) >= 3 and 9 + len(t.honours) >= HAND_SIZE,
            KNITTED_STRAIGHT: len(t.full_suits) >= 3,
            NINE_GATES: bool(t.full_suits),
        }
        names = tuple(s for s in self.ruleset.shapes if can.get(s, False))
        if not names:
            raise ValueError(f"rule set {self.ruleset.id}: none of its shapes can be built here")
        return _Weighted(names, [_SHAPE_WEIGHTS[s] for s in names])

    def _hand(self, draw: _Draw) -> _Hand | None:
        shape = self.shapes.pick(self.rng)
        built: _Hand | None
        if shape == SEVEN_PAIRS:
            built = self._seven_pairs(draw)
        elif shape == THIRTEEN_ORPHANS:
            built = self._thirteen_orphans(draw)
        elif shape == HONORS_AND_KNITTED:
            built = self._honours_and_knitted(draw)
        elif shape == KNITTED_STRAIGHT:
            built = self._knitted_straight(draw)
        elif shape == NINE_GATES:
            built = self._nine_gates(draw)
        else:
            built = self._regular(draw)
        if built is None:
            return None
        self._add_wilds(built, draw)
        return built

    # -- regular hands: four sets and a pair ------------------------------------------------

    def _themes(self) -> _Weighted:
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
        return _Weighted(names, [themes[n] for n in names])

    def _pool(self, suits: int, honours: bool) -> tuple[int, ...]:
        """The tiles of `suits` numbered suits chosen at random, honours added if asked."""
        t = self.t
        chosen = self.rng.sample(t.suits, min(suits, len(t.suits)))
        pool = tuple(i for run in chosen for i in run)
        return pool + t.honours if honours else pool

    def _pick(self, draw: _Draw, pool: Sequence[int], starts: Sequence[int],
              chow_share: float) -> _Set | None:
        """A set of tiles from `pool` that the supply still has (a chow when chosen and one
        can begin in `pool`)."""
        rng = self.rng
        for _ in range(12):
            if starts and rng.random() < chow_share:
                s: _Set = (CHOW, self.t.chow(rng.choice(starts)))
            else:
                tile = rng.choice(pool)
                s = (PUNG, (tile, tile, tile))
            if draw.take_set(*s):
                return s
        return None

    def _theme(self) -> tuple[list[_Set], Sequence[int], float, Sequence[int]]:
        """(fixed sets, pool for the others, their chow share, pool of the pair)."""
        rng = self.rng
        t = self.t
        theme = self.themes.pick(rng)
        fixed: list[_Set] = []
        pool: Sequence[int] = t.playing
        share = 0.55
        if theme == "two_suits":
            pool = self._pool(2, bool(t.honours) and rng.random() < 0.3)
        elif theme == "one_suit":
            pool = self._pool(1, bool(t.honours) and rng.random() < 0.45)
        elif theme == "pungs":
            pool = rng.choice((t.playing, self._pool(2, bool(t.honours)), self._pool(1, False)))
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

    def _regular(self, draw: _Draw) -> _Hand | None:
        rng = self.rng
        fixed, pool, share, pair_pool = self._theme()
        sets: list[_Set] = []
        for s in fixed[:4]:
            if not draw.take_set(*s):
                return None
            sets.append(s)
        starts = self.t.starts(pool) if share else ()
        while len(sets) < 4:
            picked = self._pick(draw, pool, starts, share)
            if picked is None:
                return None
            sets.append(picked)
        pair = rng.choice(pair_pool)
        if not draw.take((pair, pair)):
            return None
        rng.shuffle(sets)
        melds, standing_sets = self._declare(sets, draw, _MELD_COUNTS.pick(rng))
        standing = [pair, pair] + [x for s in standing_sets for x in s[1]]
        return self._finish(REGULAR, standing, melds)

    def _declare(self, sets: list[_Set], draw: _Draw, n: int
                 ) -> tuple[list[_Meld], list[_Set]]:
        """Declare up to `n` of the sets as melds of the kinds the rule set allows: a chow as
        a chow, a pung as a pung or as a kong (exposed or concealed) when the fourth tile is
        left. A set holding a wild tile is declared only as a concealed kong (金杠)."""
        rng = self.rng
        kinds = self.meld_kinds
        kong_bias = rng.random() < 0.05  # now and then a hand of kongs (三杠, 四杠)
        declarable = [i for i, s in enumerate(sets) if self._declarable(s, draw)]
        chosen = set(rng.sample(declarable, min(n, len(declarable))))
        melds: list[_Meld] = []
        standing: list[_Set] = []
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

    def _declarable(self, s: _Set, draw: _Draw) -> bool:
        kind, tiles = s
        kinds = self.meld_kinds
        if any(x in draw.wilds for x in tiles):
            # Wilds are never claimed: only four of a wild kind as a concealed kong.
            return kind == PUNG and KONG in kinds and draw.fits((tiles[0],))
        if kind == CHOW:
            return CHOW in kinds
        return PUNG in kinds or (KONG in kinds and draw.fits((tiles[0],)))

    def _finish(self, shape: str, standing: list[int], melds: list[_Meld],
                win: int | None = None) -> _Hand:
        """The hand with its winning tile (one of the standing tiles, at random unless
        given) written last."""
        rng = self.rng
        rng.shuffle(standing)
        pos = standing.index(win) if win is not None else rng.randrange(len(standing))
        standing.append(standing.pop(pos))
        return _Hand(shape, standing, melds)

    # -- the other shapes -------------------------------------------------------------------

    def _seven_pairs(self, draw: _Draw) -> _Hand | None:
        rng = self.rng
        t = self.t
        r = rng.random()
        pool: Sequence[int] = t.playing
        if r < 0.25:
            pool = self._pool(1, bool(t.honours) and rng.random() < 0.5)
        elif r < 0.55:
            pool = self._pool(2, bool(t.honours) and rng.random() < 0.3)
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
        return self._finish(SEVEN_PAIRS, tiles, [])

    def _thirteen_orphans(self, draw: _Draw) -> _Hand | None:
        tiles = [*self.t.orphans, self.rng.choice(self.t.orphans)]
        if not draw.take(tiles):
            return None
        return self._finish(THIRTEEN_ORPHANS, tiles, [])

    def _knitted(self) -> list[int]:
        """A knitted straight: 1-4-7, 2-5-8 and 3-6-9, each of another suit."""
        runs = self.rng.sample(self.t.full_suits, 3)
        return [run[r] for run, first in zip(runs, (0, 1, 2), strict=True)
                for r in (first, first + 3, first + 6)]

    def _honours_and_knitted(self, draw: _Draw) -> _Hand | None:
        rng = self.rng
        knitted = self._knitted()
        honours = list(self.t.honours)
        if rng.random() < 0.3 and len(honours) < HAND_SIZE:
            tiles = honours + rng.sample(knitted, HAND_SIZE - len(honours))  # all the honours
        else:
            tiles = rng.sample(knitted + honours, HAND_SIZE)
        if not draw.take(tiles):
            return None
        return self._finish(HONORS_AND_KNITTED, tiles, [])

    def _knitted_straight(self, draw: _Draw) -> _Hand | None:
        rng = self.rng
        t = self.t
        knitted = self._knitted()
        if not draw.take(knitted):
            return None
        picked = self._pick(draw, t.playing, t.chow_starts, 0.5)
        pair = rng.choice(t.playing)
        if picked is None or not draw.take((pair, pair)):
            return None
        melds, rest = self._declare([picked], draw, rng.choice((0, 0, 1)))
        standing = knitted + [pair, pair] + [x for s in rest for x in s[1]]
        return self._finish(KNITTED_STRAIGHT, standing, melds)

    def _nine_gates(self, draw: _Draw) -> _Hand | None:
        rng = self.rng
        run = rng.choice(self.t.full_suits)
        extra = rng.choice(run)
        tiles = [run[0]] * 3 + list(run[1:8]) + [run[8]] * 3 + [extra]
        if not draw.take(tiles):
            return None
        # Won on the extra tile (the nine-sided wait) mostly; else it is an ordinary hand.
        win = extra if rng.random() < 0.8 else rng.choice(tiles)
        return self._finish(NINE_GATES, tiles, [], win)

    def _add_wilds(self, hand: _Hand, draw: _Draw) -> None:
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

    # -- the context ------------------------------------------------------------------------

    def _context(self, hand: _Hand, draw: _Draw, avoid: str | None) -> Body:
        """The context of the win; `avoid`: a win type not to draw (see `_never_wins`)."""
        rng = self.rng
        players = self.players
        win = hand.win
        winner = rng.randrange(players)
        dealer = rng.randrange(players)
        self_draw = players < 2 or rng.random() < 0.45
        if avoid is not None:
            self_draw = avoid == DISCARD
        discarder = None if self_draw else rng.choice(
            [s for s in range(players) if s != winner])
        in_melds = sum(m[1].count(win) for m in hand.melds)
        held = hand.standing.count(win) + in_melds
        kong: str | None = None
        r = rng.random()
        if self_draw:
            # 杠上开花: the winning tile is the replacement drawn after one's own kong.
            if r < 0.18 and any(m[0] == KONG for m in hand.melds):
                kong = KONG_REPLACEMENT
        elif r < 0.04:
            # 抢杠和: the winning tile is the fourth of another player's pung, so the winner
            # holds no other copy, and it cannot be a wild tile (wilds are never melded).
            if held == 1 and win not in draw.wilds and draw.limit[win] >= 4:
                kong = KONG_ROBBED
        elif r < 0.07:
            kong = KONG_AFTER_DISCARD  # 杠上炮: the discard made after a kong
        last_tile = rng.random() < 0.03
        last_of_kind = False
        if kong != KONG_ROBBED and hand.standing.count(win) == 1:
            # 和绝张: no other copy among the standing tiles; when the winner's own melds hold
            # every other copy, it is the last of its kind for sure.
            last_of_kind = in_melds == draw.limit[win] - 1 or rng.random() < 0.08
        first_turn = False
        if (not hand.melds and kong is None and not last_tile and rng.random() < 0.015
                and (self_draw or (winner != dealer and discarder == dealer))):
            # 天胡 / 地胡: nothing claimed yet; the dealer wins on the deal (a self-draw), any
            # other player on the first draw or on the dealer's first discard.
            first_turn = True

        full = rng.random() < 0.3  # a client that sends every field, defaults included
        names = _wind_names(rng)
        ctx: Body = {"win_type": SELF_DRAW if self_draw else DISCARD}

        def put(key: str, value: Any, default: Any) -> None:
            if full or value != default:
                ctx[key] = value

        put("winner", winner, 0)
        put("discarder", discarder, None)
        put("dealer", dealer, 0)
        if players <= len(WINDS):
            # The dealer is East; the seats after it follow in wind order.
            put("seat_wind", names[(winner - dealer) % players], names[0])
            if self.t.has_winds or full:
                wind = _ROUND_WINDS.pick(rng)
                ctx["round_wind"] = names[wind if wind < players else 0]
        put("kong", kong, None)
        put("last_tile", last_tile, False)
        put("last_of_kind", last_of_kind, False)
        put("first_turn", first_turn, False)
        put("flowers", self._flowers(), 0)
        if draw.indicator is not None:
            ctx["wild_indicator"] = self._code(draw.indicator)
        elif draw.wilds:
            ctx["wilds"] = [self._code(w) for w in draw.wilds]
        elif full:
            ctx["wild_indicator"] = None
        put("options", self._options(dealer), {})
        return ctx

    def _flowers(self) -> int | str | list[str]:
        maximum = self.ruleset.max_flowers
        if maximum <= 0:
            return 0
        rng = self.rng
        n: int = self._flower_counts.pick(rng)
        flowers = self.t.flowers
        if n == 0 or len(flowers) < n or rng.random() < 0.4:
            return n
        shown = [self.t.codes[f] for f in rng.sample(flowers, n)]
        return shown if rng.random() < 0.5 else "".join(shown)

    def _options(self, dealer: int) -> dict[str, Any]:
        """Mostly the defaults; now and then one or two options set to a valid value."""
        rng = self.rng
        options = self.ruleset.options
        if not options or rng.random() >= 0.25:
            return {}
        chosen = rng.sample(options, min(len(options), rng.choice((1, 1, 2))))
        picked = {od.name: _option_value(od, rng, self.players, dealer) for od in chosen}
        # An option that brings a context rule into force (冲宝 and 摸宝: a ready player's
        # self-draw) would make most contexts drawn here refused: such choices are left at
        # their defaults, so the log stays a log of requests the service accepts.
        full = {od.name: od.default for od in options} | picked
        for rule in self.ruleset.context_rules:
            if all(c.holds(full) for c in rule.when):
                for c in rule.when:
                    picked.pop(c.option, None)
        return picked

    # -- writing the hand -------------------------------------------------------------------

    def _code(self, tile: int) -> str:
        return self.t.codes[tile]

    def _forms(self, hand: _Hand) -> tuple[str | Body, str | Body]:
        """The hand as a client writes it, for score and for waits: the waits form is the
        same written the same way, without the winning tile (and without ``win_tile``)."""
        rng = self.rng
        ts = self.ruleset.tileset
        rest = hand.standing[:-1]  # the standing tiles but the winning tile (written last)
        win = hand.win
        style = rng.random()
        if style < 0.3:
            # Whole-hand notation: melds in brackets, then the standing tiles, the winning
            # tile last (a waiting hand has none: every tile outside brackets stands).
            melds = "".join(self._meld_notation(m, rng) for m in hand.melds)
            written = melds + format_tiles(rest, ts)
            return written + self._code(win), written
        # Now and then a client writing other names (Chinese, riichi-style 1z..7z): one
        # choice among each tile's names for the whole hand; -1: the canonical codes.
        naming = rng.randrange(6) if rng.random() < 0.08 else -1
        with_win = rng.random() < 0.7
        for_score: Body = {}
        waits: Body = {}
        if style >= 0.65:
            # A list of codes: as drawn, or in the order shown on screen.
            shown = rng.random() < 0.5
            pairs = [(x, self._name(x, naming)) for x in rest]
            if shown:
                pairs.sort(key=lambda p: ts.display_rank[p[0]])
            waits["concealed"] = [n for _, n in pairs]
            pairs.append((win, self._name(win, naming)))
            if shown and with_win:
                pairs.sort(key=lambda p: ts.display_rank[p[0]])
            for_score["concealed"] = [n for _, n in pairs]
        else:
            waits["concealed"] = format_tiles(rest, ts)
            # With win_tile given the tiles are written in order; without it, win last.
            for_score["concealed"] = (format_tiles(hand.standing, ts) if with_win
                                  else waits["concealed"] + self._code(win))
        full = rng.random() < 0.3
        if hand.melds or full:
            for_score["melds"] = waits["melds"] = [self._meld_object(m, rng, full, naming)
                                               for m in hand.melds]
        if with_win:
            for_score["win_tile"] = self._name(win, naming)
        return for_score, waits

    def _name(self, tile: int, naming: int) -> str:
        names = self.t.aliases[tile]
        if naming >= 0 and names:
            return names[naming % len(names)]
        return self.t.codes[tile]

    def _meld_notation(self, meld: _Meld, rng: random.Random) -> str:
        _, tiles, concealed = meld
        body = format_meld(tiles, self.ruleset.tileset)
        if concealed:
            return f"[{body},0]" if rng.random() < 0.15 else f"{{{body}}}"
        if rng.random() < 0.1:
            return f"[{body},{rng.randint(1, 3)}]"  # the seat it was claimed from (ignored)
        return f"[{body}]"

    def _meld_object(self, meld: _Meld, rng: random.Random, full: bool, naming: int) -> Body:
        kind, tiles, concealed = meld
        written: str | list[str]
        if rng.random() < 0.5:
            written = format_meld(tiles, self.ruleset.tileset)
        else:
            written = [self._name(x, naming) for x in tiles]
        out: Body = {"kind": kind, "tiles": written}
        if concealed or full:
            out["concealed"] = concealed
        return out


def _wind_names(rng: random.Random) -> tuple[str, ...]:
    """The winds as this client writes them: letters mostly, else 东 or 东风."""
    r = rng.random()
    if r < 0.85:
        return WINDS
    zh = ("东", "南", "西", "北")
    return zh if r < 0.95 else tuple(w + "风" for w in zh)


def _option_value(od: OptionDef, rng: random.Random, players: int, dealer: int) -> Any:
    """A valid value of a declared option, other than its default when it has others."""
    default = list(od.default) if isinstance(od.default, tuple) else od.default
    value = _any_option_value(od, rng, players, dealer)
    for _ in range(8):
        if value != default:
            break
        value = _any_option_value(od, rng, players, dealer)
    return value


def _any_option_value(od: OptionDef, rng: random.Random, players: int, dealer: int) -> Any:
    if od.type == "bool":
        return rng.random() < 0.5
    if od.choices:
        return rng.choice(od.choices)
    low = od.minimum if od.minimum is not None else 0
    high = od.maximum if od.maximum is not None else low + 100
    if od.type == "per_seat":
        values = [rng.randint(low, high) for _ in range(players)]
        if od.dealer_entry is not None:
            values[dealer] = od.dealer_entry
        return values
    # An integer: small values mostly (a money unit of 1 to 10), now and then any.
    if rng.random() < 0.85:
        return rng.randint(low, min(high, low + 9))
    return rng.randint(low, high)


# --- malformed lines ---------------------------------------------------------------------------


def malformed_line(kind: str, body: Mapping[str, Any], ruleset: RuleSet, rng: random.Random,
                   *, waits: bool = False, name_ruleset: bool = True,
                   known: Collection[str] = ()) -> str:
    """A malformed line of `kind` (one of `MALFORMED_KINDS`) made from a valid request
    `body` of `ruleset` (a score body, or a waits body when `waits`).

    The refused kinds are checked through the service's path (`read_score_request` or
    `read_waits_request`): should one be accepted after all, another is drawn, and in the
    end a garbage line is given instead. `known` are the rule-set ids that exist (an
    `unknown_ruleset` line names none of them, nor `ruleset.id`); with ``name_ruleset`` the
    line's request carries its ``"ruleset"`` key, and `unknown_ruleset` needs it."""
    if kind not in MALFORMED_KINDS:
        raise ValueError(f"unknown kind of malformed line {kind!r}; kinds: "
                         f"{', '.join(MALFORMED_KINDS)}")
    if kind == "unknown_ruleset" and not name_ruleset:
        raise ValueError("an unknown_ruleset line needs the ruleset key (name_ruleset)")

    def line(request: Any, rid: str = ruleset.id) -> str:
        if name_ruleset and isinstance(request, dict):
            return dumps({"ruleset": rid, **request})
        return dumps(request)

    if kind == "truncated":
        text = line(dict(body))
        return text[:rng.randrange(1, len(text))]  # an object cut short is never JSON
    if kind == "garbage":
        return rng.choice(_GARBAGE)
    if kind == "empty":
        return ""
    if kind == "array":
        return dumps(rng.choice(([dict(body)], [], [body.get("hand")], [1, 2, 3])))
    if kind == "number":
        return rng.choice(("42", "-1", "3.14", "0", "1e3"))
    if kind == "unknown_ruleset":
        taken = {*known, ruleset.id}
        names = [n for n in (f"{ruleset.id}-house", f"{ruleset.id}2", ruleset.id.upper(),
                             "default", "unknown") if n not in taken]
        return line(dict(body), rng.choice(names))
    read = read_waits_request if waits else read_score_request
    for _ in range(8):
        request = _refused(kind, copy.deepcopy(dict(body)), ruleset, rng)
        try:
            read(request, ruleset)
        except (HandError, ApiError):
            return line(request)
    return rng.choice(_GARBAGE)  # pragma: no cover - every kind above is refused


def _refused(kind: str, body: Body, ruleset: RuleSet, rng: random.Random) -> Body:
    """`body` changed so that the service refuses it in the way `kind` names."""
    ts = ruleset.tileset
    hand = body["hand"]
    context: Body = body["context"]
    if kind == "unknown_tile":
        bogus = rng.choice([c for c in _BOGUS_TILES if c not in ts.by_code])
        if isinstance(hand, str):
            body["hand"] = bogus + hand
        elif isinstance(hand["concealed"], str):
            hand["concealed"] = bogus + hand["concealed"]
        else:
            hand["concealed"][rng.randrange(len(hand["concealed"]))] = bogus
    elif kind == "wrong_tile_count":
        extra = ts.code(rng.choice(ts.playing))
        if isinstance(hand, str):
            body["hand"] = hand + extra
        elif isinstance(hand["concealed"], str):
            hand["concealed"] = hand["concealed"] + extra
        elif rng.random() < 0.5:
            hand["concealed"].append(extra)
        else:
            hand["concealed"].pop(rng.randrange(len(hand["concealed"])))
    elif kind == "unknown_field":
        name = rng.choice(_UNKNOWN_FIELDS)
        value = rng.choice((1, "x", True))
        r = rng.random()
        if r < 0.6:
            context[name] = value
        elif r < 0.85 or isinstance(hand, str):
            body[name] = value
        else:
            hand[name] = value
    elif kind == "wrong_type":
        r = rng.randrange(5)
        if r == 0:
            context["winner"] = str(context.get("winner") or 0)  # a seat as a string
        elif r == 1:
            context["last_tile"] = "yes"
        elif r == 2:
            context["win_type"] = 1
        elif r == 3:
            body["hand"] = 14
        else:
            context["options"] = ["base", 2]
    elif kind == "seat_out_of_range":
        seats = ["winner", "dealer"] + (["discarder"] if context.get("discarder") is not None
                                        else [])
        context[rng.choice(seats)] = ruleset.players + rng.randrange(4)
    elif kind == "unknown_option":
        name = rng.choice([n for n in _UNKNOWN_OPTIONS if n not in ruleset.option_by_name])
        context["options"] = {**(context.get("options") or {}), name: rng.choice((True, 2))}
    return body


# --- the public functions ----------------------------------------------------------------------


def requests(ruleset: RuleSet, n: int, seed: int, *, waits: bool = False,
             non_winning: float = 0.1) -> list[dict[str, Any]]:
    """`n` score request bodies for `ruleset` (waits bodies with ``waits``: the same hands
    one tile short), each accepted by the service; a share ``non_winning`` of them (about)
    do not win. The same for the same arguments, in any process."""
    gen = RequestGenerator(ruleset, seed, waits=waits, non_winning=non_winning)
    return [gen.next() for _ in range(n)]


def tile_rulesets(rulesets: Mapping[str, AnyRuleSet]) -> dict[str, RuleSet]:
    """The rule sets of `rulesets` the generator makes logs for: the tile games (a card game
    scored by groups is left out), in the same order."""
    return {rid: rs for rid, rs in rulesets.items() if isinstance(rs, RuleSet)}


def _not_tiles(rid: str) -> str:
    return (f"rule set {rid!r} is a card game scored by groups: the log generator makes "
            "mahjong requests only")


def log_lines(rulesets: Mapping[str, AnyRuleSet], ids: Sequence[str], n: int, seed: int, *,
              waits: bool = False, malformed: float = 0.0, name_ruleset: bool = True,
              non_winning: float = 0.1) -> Iterator[str]:
    """`n` lines of a log (without the newline): requests of the rule sets `ids` (keys of
    `rulesets`; each line's rule set drawn at random), a share ``malformed`` of the lines
    (about) malformed (`MALFORMED_KINDS`, in equal shares). With ``name_ruleset`` each
    request carries its rule set's id as a top-level ``"ruleset"`` key.

    The valid lines of one rule set are `requests(rulesets[id], k, seed, ...)` in order,
    whatever else the log holds. An id of a card rule set is refused (mahjong only)."""
    if not ids:
        raise ValueError("ids must name at least one rule set")
    unknown = [i for i in ids if i not in rulesets]
    if unknown:
        raise ValueError(f"unknown rule set(s) {', '.join(unknown)}; known: "
                         f"{', '.join(sorted(rulesets))}")
    tiles = tile_rulesets(rulesets)
    cards = [i for i in ids if i not in tiles]
    if cards:
        raise ValueError(_not_tiles(cards[0]))
    if not 0.0 <= malformed <= 1.0:
        raise ValueError(f"malformed must be a share from 0 to 1, not {malformed!r}")
    if not 0.0 <= non_winning <= 1.0:
        raise ValueError(f"non_winning must be a share from 0 to 1, not {non_winning!r}")
    if n < 0:
        raise ValueError(f"n must be 0 or more, not {n}")
    return _log_lines(tiles, list(ids), n, seed, waits, malformed, name_ruleset,
                      non_winning, known=rulesets)


def _log_lines(rulesets: Mapping[str, RuleSet], ids: list[str], n: int, seed: int,
               waits: bool, malformed: float, name_ruleset: bool,
               non_winning: float, known: Collection[str]) -> Iterator[str]:
    rng = random.Random(f"{seed}:log")
    kinds = MALFORMED_KINDS if name_ruleset else tuple(
        k for k in MALFORMED_KINDS if k != "unknown_ruleset")
    gens: dict[str, RequestGenerator] = {}
    # Malformed lines are made from requests of separate streams, so that they take nothing
    # from the valid lines' streams.
    bases: dict[str, RequestGenerator] = {}
    for _ in range(n):
        rid = rng.choice(ids)
        if malformed and rng.random() < malformed:
            base = bases.get(rid)
            if base is None:
                base = bases[rid] = RequestGenerator(rulesets[rid], f"{seed}:malformed",
                                                     waits=waits, non_winning=non_winning)
            yield malformed_line(rng.choice(kinds), base.next(), rulesets[rid], rng,
                                 waits=waits, name_ruleset=name_ruleset, known=known)
            continue
        gen = gens.get(rid)
        if gen is None:
            gen = gens[rid] = RequestGenerator(rulesets[rid], seed, waits=waits,
                                               non_winning=non_winning)
        body = gen.next()
        yield dumps({"ruleset": rid, **body} if name_ruleset else body)


# --- the command line --------------------------------------------------------------------------


def _share(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"a share is from 0 to 1, not {text}")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mahjong-score-log",
        description=(
            "Write a log of realistic mahjong score requests, one JSON object per line "
            "(JSON Lines), for testing and benchmarking bulk scoring. Every request is "
            "checked against the scoring service's own rules, so the hands are legal and "
            "most of them win. The same options and seed always give the same log."),
    )
    parser.add_argument(
        "--ruleset", action="append", metavar="ID",
        help="a rule set to make requests for (its id, as in rulesets/); repeat it to mix "
             "several in one log, lines interleaved at random; 'all' (the default) uses "
             "every mahjong rule set (card games scored by groups, such as word-card "
             "rule sets, are not generated)")
    parser.add_argument("--hands", type=_count, default=1000, metavar="N",
                        help="how many lines to write (default 1000)")
    parser.add_argument("--seed", type=int, default=1, metavar="S",
                        help="the random seed: the same seed gives the same log (default 1)")
    parser.add_argument(
        "--waits", action="store_true",
        help="write waits requests instead: the same hands one tile short, with no winning "
             "tile, asking which tiles complete them")
    parser.add_argument(
        "--malformed", type=_share, default=0.0, metavar="SHARE",
        help="the share of lines (0 to 1) that are broken on purpose: not JSON, not a JSON "
             "object, or a request the service refuses (default 0)")
    parser.add_argument(
        "--non-winning", type=_share, default=0.1, metavar="SHARE",
        help="the share of requests (0 to 1) whose hand is complete but does not win, e.g. "
             "below the rule set's minimum (default 0.1)")
    parser.add_argument(
        "--no-ruleset-field", action="store_true",
        help="leave out the \"ruleset\" key that names each line's rule set (then a line is "
             "exactly a request body; use it with one rule set)")
    parser.add_argument(
        "--rulesets-dir", type=Path, metavar="DIR",
        help="where the rule-set files are (default: $MAHJONG_RULESETS_DIR, else the "
             "project's rulesets/)")
    parser.add_argument("-o", "--output", type=Path, metavar="FILE",
                        help="the file to write (default: standard output)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The command line `mahjong-score-log`: write a log; 0 on success (2 on a usage
    error, from argparse)."""
    parser = _parser()
    args = parser.parse_args(argv)
    rulesets = load_rulesets(app.rulesets_dir({"RULESETS_DIR": args.rulesets_dir}))
    tiles = tile_rulesets(rulesets)
    asked: list[str] = args.ruleset or ["all"]
    ids: list[str] = []
    for rid in asked:
        if rid == "all":
            ids += sorted(tiles)
            left = sorted(set(rulesets) - set(tiles))
            if left:
                print(f"mahjong-score-log: leaving out {', '.join(left)}: card games scored "
                      "by groups are not generated", file=sys.stderr)
        elif rid in tiles:
            ids.append(rid)
        elif rid in rulesets:
            parser.error(_not_tiles(rid))
        else:
            parser.error(f"unknown rule set {rid!r}; known: {', '.join(sorted(rulesets))}, "
                         f"or all")
    ids = list(dict.fromkeys(ids))  # each once, in the order asked
    lines = log_lines(rulesets, ids, args.hands, args.seed, waits=args.waits,
                      malformed=args.malformed, name_ruleset=not args.no_ruleset_field,
                      non_winning=args.non_winning)
    if args.output is None:
        # UTF-8 whatever the terminal's encoding (tiles may be written in Chinese).
        out = sys.stdout.buffer
        try:
            for text in lines:
                out.write(text.encode("utf-8") + b"\n")
            out.flush()
        except BrokenPipeError:
            # The reader stopped early (`| head`): not an error of ours.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    with args.output.open("w", encoding="utf-8", newline="\n") as file:
        for text in lines:
            file.write(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
