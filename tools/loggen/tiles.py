"""What a rule set's tiles allow, and one hand being drawn from its supply.

`Tables` are the tile-set facts the generator draws from, in index order (never from set
order); `Draw` counts the tiles of one hand against the copies there are; `Hand` is a complete
hand once built; `Weighted` is a weighted choice drawn with one `random()` call."""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from app.domain.hand import PUNG
from app.rules.model import RuleSet

__all__ = ["Body", "Draw", "Hand", "Meld", "Set", "Tables", "Weighted", "dumps"]

Body = dict[str, Any]

# A set before it is placed: its kind (chow or pung) and its three tiles.
Set = tuple[str, tuple[int, int, int]]
# A declared meld: kind, tiles (sorted), concealed (only a kong can be).
Meld = tuple[str, tuple[int, ...], bool]


def dumps(obj: Any) -> str:
    """One compact JSON line (UTF-8 text as is, no spaces), as every line of a log."""
    return orjson.dumps(obj).decode()


class Weighted:
    """A weighted choice drawn with one `random()` call (as `Random.choices` draws it),
    its cumulative weights made once."""

    def __init__(self, items: Sequence[Any], weights: Sequence[int]) -> None:
        self.items = tuple(items)
        self.cum = tuple(itertools.accumulate(weights))
        self.total = float(self.cum[-1])
        self.last = len(self.items) - 1

    def pick(self, rng: random.Random) -> Any:
        return self.items[bisect.bisect(self.cum, rng.random() * self.total, 0, self.last)]


class Tables:
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
class Draw:
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
class Hand:
    """A complete hand: standing tiles (the winning tile last), declared melds."""

    shape: str
    standing: list[int]
    melds: list[Meld] = field(default_factory=list)

    @property
    def win(self) -> int:
        return self.standing[-1]
