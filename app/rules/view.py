"""What checks see: facts about the whole hand, and one reading of it.

`HandFacts` is computed once per request (tile counts, suits, the formal waits); `View` once per
reading (its chows, pungs, kongs, pair, concealed pungs and where the winning tile sits). Both
are plain attribute bags filled eagerly, because every check reads them and the engine scores
several readings per hand: the cheaper a lookup, the faster a request.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress

from app.domain.decompose import KNIT, PAIR, Reading, counts_of
from app.domain.hand import CHOW, KONG, PUNG, Hand, WinContext
from app.domain.shapes import SEVEN_PAIRS, completing_tiles
from app.domain.tiles import TileSet

# Features of a reading that checks may declare they need (bit flags of `View.features`).
# The last two come from the win context: the request said last_tile, or named a kong win.
PUNGS, KONGS, CHOWS, CHOW_PAIRS, WAIT, LAST_TILE, KONG_WIN = 1, 2, 4, 8, 16, 32, 64
FEATURES = {"pungs": PUNGS, "kongs": KONGS, "chows": CHOWS, "chow_pairs": CHOW_PAIRS,
            "wait": WAIT, "last_tile": LAST_TILE, "kong_win": KONG_WIN}
# The features that come from the context, the same for every reading of a hand.
CONTEXT_FEATURES = LAST_TILE | KONG_WIN

EDGE = "edge"
CLOSED = "closed"
SINGLE = "single"


class HandFacts:
    """Facts about the whole hand that do not depend on how it is read."""

    __slots__ = (
        "_waits",
        "counts",
        "ctx",
        "exposed_melds",
        "hand",
        "has_dragons",
        "has_honors",
        "has_winds",
        "kinds",
        "kong_tiles",
        "meld_counts",
        "physical",
        "shapes",
        "standing_counts",
        "suits",
        "tileset",
        "wild_count",
        "win_tile",
        "win_wild",
    )

    def __init__(self, hand: Hand, ctx: WinContext, tileset: TileSet,
                 shapes: frozenset[str]) -> None:
        self.hand = hand
        self.ctx = ctx
        self.tileset = tileset
        self.win_tile = hand.win_tile
        size = tileset.size
        standing = counts_of(hand.concealed, size)
        self.standing_counts = standing
        counts = standing[:]
        meld_counts = [0] * size
        kong_tiles = []
        exposed = 0
        for m in hand.melds:
            for t in m.tiles:
                meld_counts[t] += 1
                counts[t] += 1
            if m.kind == KONG:
                kong_tiles.append(m.tiles[0])
            if not (m.kind == KONG and m.concealed):
                exposed += 1
        self.meld_counts = meld_counts
        self.kong_tiles = tuple(kong_tiles)
        self.exposed_melds = exposed
        self.counts = counts
        kinds = frozenset(compress(range(size), counts))
        self.kinds = kinds
        category = tileset.category
        present = {category[t] for t in kinds}
        # Numbered suits present, by position in the tile set's suits.
        self.suits = present & {0, 1, 2}
        self.has_winds = 3 in present
        self.has_dragons = 4 in present
        self.has_honors = self.has_winds or self.has_dragons
        self.shapes = shapes
        self._waits: frozenset[int] | None = None
        # With wild tiles, these facts are those of one substitution (the engine builds one
        # HandFacts per distinct set of tiles the wilds stand for): `physical` is the hand as
        # requested, `wild_count` how many wild tiles it holds (melds included), `win_wild`
        # whether the winning tile is one of them. Without wilds: the hand, 0, False.
        self.physical = hand
        self.wild_count = 0
        self.win_wild = False

    @property
    def waits(self) -> frozenset[int]:
        """听: the tiles that would complete the standing tiles without the winning tile.

        Formal waits: a tile whose four copies are all in sight still counts (MIL practice),
        so the answer depends only on the tiles, never on what is left in the wall.
        """
        if self._waits is None:
            self._waits = formal_waits(
                self.standing_counts, self.win_tile, len(self.hand.melds), self.shapes,
                self.tileset,
            )
        return self._waits

    @property
    def unique_wait(self) -> bool:
        return self.waits == frozenset((self.win_tile,))


class SubstitutedFacts(HandFacts):
    """The facts of one substitution of a hand with wild tiles (the hand as read), filled in
    only when a check first asks for more than the winning tile: most readings of a wild hand
    are decided on their groups alone, and a hand with many wilds has hundreds of
    substitutions."""

    __slots__ = ()

    def __init__(self, hand: Hand, ctx: WinContext, tileset: TileSet, shapes: frozenset[str],
                 physical: Hand, wild_count: int, win_wild: bool) -> None:
        self.hand = hand
        self.ctx = ctx
        self.tileset = tileset
        self.shapes = shapes
        self.win_tile = hand.win_tile
        self.physical = physical
        self.wild_count = wild_count
        self.win_wild = win_wild

    def __getattr__(self, name: str) -> object:
        # Called only for a fact not filled in yet: fill them all, keep what this kind of
        # facts says about the wilds.
        if name.startswith("__"):
            raise AttributeError(name)
        physical, wild_count, win_wild = self.physical, self.wild_count, self.win_wild
        HandFacts.__init__(self, self.hand, self.ctx, self.tileset, self.shapes)
        self.physical, self.wild_count, self.win_wild = physical, wild_count, win_wild
        return object.__getattribute__(self, name)


def formal_waits(standing: list[int], win_tile: int, n_melds: int, shapes: frozenset[str],
                 tileset: TileSet) -> frozenset[int]:
    """Every tile that completes the standing tiles less the winning tile, in any shape."""
    before = standing[:]
    before[win_tile] -= 1
    return completing_tiles(before, n_melds, shapes, tileset)


class View:
    """One reading of the hand, as the checks see it."""

    __slots__ = (
        "chows",
        "combos",
        "concealed_pungs",
        "ctx",
        "facts",
        "features",
        "groups",
        "knits",
        "kongs",
        "pair",
        "pairs",
        "pungs",
        "reading",
        "shape",
        "wait",
        "win_group",
    )

    def __init__(self, reading: Reading, facts: HandFacts,
                 combo_policy: Callable[[View], dict[str, int]] | None) -> None:
        self.reading = reading
        self.shape = reading.shape
        self.groups = reading.groups
        self.facts = facts
        ctx = facts.ctx
        self.ctx = ctx
        win = facts.win_tile
        chows: list[int] = []
        pungs: list[int] = []
        kongs: list[tuple[int, bool]] = []
        pairs: list[int] = []
        knits: list[int] = []
        concealed_pungs = 0
        win_in_standing_chow = False
        win_pung = False
        edge = closed = False
        # A reading of a hand with wilds names the winning tile's group; otherwise any
        # standing group holding the winning tile may be its place.
        placed = reading.win
        self.win_group = reading.groups[placed] if placed >= 0 else None
        for i, g in enumerate(reading.groups):
            kind = g.kind
            if kind == CHOW:
                chows.append(g.tile)
                if not g.declared and g.tile <= win <= g.tile + 2 and (placed < 0
                                                                      or placed == i):
                    win_in_standing_chow = True
                    if win == g.tile + 1:
                        closed = True
                    else:
                        rank = facts.tileset.kinds[g.tile].rank
                        if (rank == 1 and win == g.tile + 2) or (rank == 7 and win == g.tile):
                            edge = True
            elif kind == PUNG or kind == KONG:
                pungs.append(g.tile)
                if kind == KONG:
                    kongs.append((g.tile, g.concealed))
                if g.concealed:
                    if not g.declared and g.tile == win and (placed < 0 or placed == i):
                        win_pung = True
                    concealed_pungs += 1
            elif kind == PAIR:
                pairs.append(g.tile)
            elif kind == KNIT:
                knits.append(g.tile)
        # 暗刻: a standing pung of the winning tile completed by a discard is a claimed pung,
        # unless this reading can put the winning tile into a standing chow instead.
        if win_pung and not ctx.self_drawn and not win_in_standing_chow:
            concealed_pungs -= 1
        self.chows = tuple(sorted(chows))
        self.pungs = tuple(sorted(pungs))
        self.kongs = tuple(kongs)
        self.pairs = tuple(pairs)
        self.pair = pairs[0] if len(pairs) == 1 else -1
        self.knits = tuple(knits)
        self.concealed_pungs = concealed_pungs
        # Where the winning tile sits, by priority 边 > 嵌 > 单钓 (one at most).
        if edge:
            self.wait: str | None = EDGE
        elif closed:
            self.wait = CLOSED
        elif (self.pair == win and reading.shape != SEVEN_PAIRS
              and (placed < 0 or reading.groups[placed].kind == PAIR)):
            self.wait = SINGLE
        else:
            self.wait = None
        # Chow combinations (一般高, 清龙 ...) under the rule set's policy: every reading with
        # two chows or more asks for them, so they are worked out here once.
        self.combos: dict[str, int] = (
            combo_policy(self) if combo_policy is not None and len(chows) >= 2 else {}
        )
        self.features = (
            (PUNGS if pungs else 0) | (KONGS if kongs else 0) | (CHOWS if chows else 0)
            | (CHOW_PAIRS if len(chows) >= 2 else 0) | (WAIT if self.wait else 0)
            | (LAST_TILE if ctx.last_tile else 0) | (KONG_WIN if ctx.kong else 0)
        )
