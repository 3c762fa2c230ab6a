"""What checks see: facts about the whole hand, and one reading of it.

`HandFacts` is computed once per request (tile counts, suits, the formal waits); `View` once per
reading (its chows, pungs, kongs, pair, concealed pungs and where the winning tile sits). Both
are plain attribute bags filled eagerly, because every check reads them and the engine scores
several readings per hand: the cheaper a lookup, the faster a request.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, NamedTuple

from app.domain.hand import CHOW, KONG, PUNG, SELF_DRAW, Hand, WinContext
from app.domain.readings import EDGE as EDGE_PLACE
from app.domain.readings import (
    IN_CHOW,
    IN_PUNG,
    KNIT,
    MIDDLE,
    PAIR,
    Group,
    Piece,
    Reading,
)
from app.domain.shapes import SEVEN_PAIRS, completing_tiles, waits_alone
from app.domain.standing import Standing, standing, without
from app.domain.tiles import TileSet

# Features of a reading that checks may declare they need (bit flags of `View.features`):
# pungs (kongs included), kongs, chows, two chows or more, a place for the winning tile
# (边, 嵌, 单钓), two pungs or kongs of numbered tiles or more, four chows (a knitted
# straight's knits counted as chows), four pungs or kongs. `last_tile` and `kong_win` come
# from the win context: the request said last_tile, or named a kong win.
PUNGS: Final = 1
KONGS: Final = 2
CHOWS: Final = 4
CHOW_PAIRS: Final = 8
WAIT: Final = 16
LAST_TILE: Final = 32
KONG_WIN: Final = 64
NUMBERED_PUNGS: Final = 128
FOUR_CHOWS: Final = 256
FOUR_PUNGS: Final = 512
FEATURES: Final = {"pungs": PUNGS, "kongs": KONGS, "chows": CHOWS, "chow_pairs": CHOW_PAIRS,
                   "wait": WAIT, "last_tile": LAST_TILE, "kong_win": KONG_WIN,
                   "numbered_pungs": NUMBERED_PUNGS, "four_chows": FOUR_CHOWS,
                   "four_pungs": FOUR_PUNGS}
# The features that come from the context, the same for every reading of a hand.
CONTEXT_FEATURES: Final = LAST_TILE | KONG_WIN

# Hot-path named tuples are built with `tuple.__new__(Type, fields)`: a NamedTuple's own
# constructor runs a slower Python-level __new__.
_new: Final = tuple.__new__

EDGE: Final = "edge"
CLOSED: Final = "closed"
SINGLE: Final = "single"


# The numbered suits present, by the bits of their categories (0, 1, 2).
_SUITS_OF: Final = tuple(frozenset(s for s in range(3) if bits >> s & 1) for bits in range(8))


# A row of 0s per size of tile set, for the meld counts of a hand without melds (a dict
# rather than `lru_cache`: compiled code finds a row without a call; a few sizes exist).
_NO_MELDS: Final[dict[int, tuple[int, ...]]] = {}
NO_MELDS_LIMIT: Final = 8


def _no_melds(size: int) -> tuple[int, ...]:
    found = _NO_MELDS.get(size)
    if found is None:
        if len(_NO_MELDS) >= NO_MELDS_LIMIT:
            _NO_MELDS.clear()
        found = _NO_MELDS[size] = (0,) * size
    return found


class Held(NamedTuple):
    """A hand as held, for what a check says of every reading of it (`check(most=)`)."""

    naturals: list[int]  # the standing tiles that are not wild, as counts by kind
    wilds: int  # the standing wild tiles
    win_tile: int
    win_wild: bool  # the winning tile is one of the wild tiles
    melds: int  # declared melds
    tileset: TileSet


def held(hand: Hand, wilds: Sequence[int] | frozenset[int], tileset: TileSet) -> Held:
    """The hand as held, its standing tiles of `wilds` counted apart."""
    naturals: list[int] = [0] * tileset.size
    n = 0
    for t in hand.concealed:
        if t in wilds:
            n += 1
        else:
            naturals[t] = naturals[t] + 1
    return _new(Held, (naturals, n, hand.win_tile, hand.win_tile in wilds, len(hand.melds),
                       tileset))


class DeclaredSets(NamedTuple):
    """What a hand's declared melds put in each of its readings."""

    chows: tuple[int, ...]  # first tiles, in the order declared
    pungs: tuple[int, ...]  # pungs and kongs
    kongs: tuple[tuple[int, bool], ...]  # (tile, concealed)
    concealed: int  # concealed kongs
    numbered_pungs: int  # pungs and kongs of numbered tiles
    groups: tuple[Group, ...]  # the melds as groups (`app.domain.shapes.declared_groups`)


class HandFacts:
    """Facts about the whole hand that do not depend on how it is read."""

    __slots__ = (
        "_counts",
        "_declared",
        "_full",
        "_meld_counts",
        "_standing_counts",
        "_unique_wait",
        "_waits",
        "categories",
        "ctx",
        "exposed_melds",
        "fours",
        "hand",
        "kinds",
        "kong_tiles",
        "physical",
        "shapes",
        "standing",
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
        tiles = standing(hand.concealed, tileset)
        self.standing = tiles
        present = tiles.categories
        if hand.melds:
            present = self._melded(tiles, present)
        else:
            # Nothing melded: the standing tiles are the hand.
            self.kinds: frozenset[int] = tiles.kinds
            self.kong_tiles: tuple[int, ...] = ()
            self.exposed_melds = 0
            self.fours: tuple[int, ...] = tiles.fours
            self._declared: DeclaredSets = _NO_DECLARED
        # Bit `TileSet.category` for each category of tile held: numbered suits present, by
        # position in the tile set's suits (categories 0, 1, 2), and winds (3), dragons (4).
        self.categories = present
        self.shapes = shapes
        self._waits: frozenset[int] | None = None
        self._unique_wait: bool | None = None
        self._counts: list[int] | None = None
        self._meld_counts: Sequence[int] | None = None
        # With wild tiles, these facts are those of one substitution (the engine builds one
        # HandFacts per distinct set of tiles the wilds stand for): `physical` is the hand as
        # requested, `wild_count` how many wild tiles it holds (melds included), `win_wild`
        # whether the winning tile is one of them. Without wilds: the hand, 0, False.
        self.physical = hand
        self.wild_count = 0
        self.win_wild = False
        self._full = True

    def filled(self) -> HandFacts:
        """These facts, every one filled in: what compiled code reads (`app.rules.checks.keys`)
        of facts that `SubstitutedFacts` fills in only when first asked for, since compiled
        code reads an attribute directly, never through `__getattr__`."""
        if not self._full:
            self._fill()
        return self

    def _fill(self) -> None:
        # Fill in every fact, keeping what these facts say about the wilds.
        physical, wild_count, win_wild = self.physical, self.wild_count, self.win_wild
        HandFacts.__init__(self, self.hand, self.ctx, self.tileset, self.shapes)
        self.physical, self.wild_count, self.win_wild = physical, wild_count, win_wild

    def _melded(self, tiles: Standing, present: int) -> int:
        """Fill in the facts of a hand with declared melds (`tiles` its standing tiles):
        what the facts say of the melds, and what the melds put in every reading
        (`declared()`, their groups for `decompose`); answer `present`, the categories
        held standing, with the melds' added. One pass over the melds."""
        melds = self.hand.melds
        tileset = self.tileset
        melded: list[int] = []
        chows: list[int] = []
        pungs: list[int] = []
        kongs: list[tuple[int, bool]] = []
        kong_tiles: list[int] = []
        groups: list[Group] = []
        exposed = concealed = numbered = 0
        category, suit = tileset.category, tileset.suit_no
        for m in melds:
            kind = m.kind
            first = m.tiles[0]
            melded += m.tiles
            present |= 1 << category[first]  # a meld's tiles are of one category
            if kind == CHOW:
                chows.append(first)
                exposed += 1
                groups.append(_new(Group, (kind, first, True, False, ())))
                continue
            pungs.append(first)
            numbered += suit[first] >= 0
            if kind == KONG:
                kongs.append((first, m.concealed))
                kong_tiles.append(first)
                if m.concealed:
                    concealed += 1
                else:
                    exposed += 1
                groups.append(_new(Group, (kind, first, True, m.concealed, ())))
            else:
                exposed += 1
                groups.append(_new(Group, (kind, first, True, False, ())))
        self._declared = _new(DeclaredSets, (tuple(chows), tuple(pungs), tuple(kongs),
                                             concealed, numbered, tuple(groups)))
        # Kinds held four times, melds included (a kong's among them); a kind held four
        # times standing is in no meld. Counted in a list by kind: compiled, cheaper than
        # counting each melded kind in the tiles (`x[i] = x[i] + 1` rather than `x[i] += 1`:
        # mypyc adds in place on a list item as on any object, through a generic call).
        held: list[int] = [0] * tileset.size
        for t in melded:
            held[t] = held[t] + 1
        for t in tiles.ordered:
            held[t] = held[t] + 1
        fours = []
        for t in melded:
            if held[t] == 4:
                fours.append(t)
                held[t] = 0  # once each
        if fours:
            fours += tiles.fours
            self.fours = tuple(sorted(fours))
        else:
            self.fours = tiles.fours
        self.kinds = tiles.kinds.union(melded)
        self.kong_tiles = tuple(kong_tiles)
        self.exposed_melds = exposed
        return present

    @property
    def suits(self) -> frozenset[int]:
        """The numbered suits held, by position in the tile set's suits."""
        return _SUITS_OF[self.categories & 7]

    @property
    def has_winds(self) -> bool:
        return bool(self.categories & 8)

    @property
    def has_dragons(self) -> bool:
        return bool(self.categories & 16)

    @property
    def has_honors(self) -> bool:
        return bool(self.categories & 24)

    # The counts of the tiles, worked out when first asked for (most hands are scored
    # without them).

    @property
    def standing_counts(self) -> list[int]:
        """The count of each kind among the standing tiles (do not change it)."""
        if self._counts is None:
            self._fill_counts()
        return self._standing_counts

    @property
    def counts(self) -> list[int]:
        """The count of each kind in the hand, melds included (do not change it)."""
        if self._counts is None:
            self._fill_counts()
        return self._counts  # type: ignore[return-value]

    @property
    def meld_counts(self) -> Sequence[int]:
        """The count of each kind in the declared melds (worked out apart from the other
        counts: 和绝张 asks it of most hands, and without melds it is a shared row of 0s)."""
        found = self._meld_counts
        if found is None:
            melds = self.hand.melds
            if melds:
                counts: list[int] = [0] * self.tileset.size
                for m in melds:
                    for t in m.tiles:
                        counts[t] = counts[t] + 1
                found = counts
            else:
                found = _no_melds(self.tileset.size)
            self._meld_counts = found
        return found

    def _fill_counts(self) -> None:
        standing_counts = self.standing.counts
        self._standing_counts = standing_counts
        if self.hand.melds:
            self._counts = [a + b for a, b in zip(standing_counts, self.meld_counts,
                                                  strict=True)]
        else:
            self._counts = standing_counts

    def declared(self) -> DeclaredSets:
        """What the declared melds add to every reading (worked out with the facts)."""
        return self._declared

    @property
    def waits(self) -> frozenset[int]:
        """听: the tiles that would complete the standing tiles without the winning tile.

        Formal waits: a tile whose four copies are all in sight still counts (MIL practice),
        so the answer depends only on the tiles, never on what is left in the wall.
        """
        if self._waits is None:
            self._waits = completing_tiles(without(self.standing, self.win_tile, self.tileset),
                                           len(self.hand.melds), self.shapes, self.tileset)
        return self._waits

    @property
    def unique_wait(self) -> bool:
        """The hand waited on the winning tile alone: `waits` is exactly {win_tile} (worked
        out without listing every wait: `waits_alone` stops at the first other one)."""
        found = self._unique_wait
        if found is None:
            found = self._unique_wait = waits_alone(self.standing, self.win_tile,
                                                    len(self.hand.melds), self.shapes,
                                                    self.tileset)
        return found


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
        self._full = False

    def __getattr__(self, name: str) -> object:
        # Called only for a fact not filled in yet: fill them all, keep what this kind of
        # facts says about the wilds.
        if name.startswith("__") or self._full:
            raise AttributeError(name)
        self._fill()
        return getattr(self, name)


def formal_waits(standing: list[int], win_tile: int, n_melds: int, shapes: frozenset[str],
                 tileset: TileSet) -> frozenset[int]:
    """Every tile that completes the standing tiles less the winning tile, in any shape."""
    before = standing[:]
    before[win_tile] -= 1
    return completing_tiles(before, n_melds, shapes, tileset)


class View:
    """One reading of the hand, as the checks see it."""

    __slots__ = (
        "_combos",
        "_numbered_pungs",
        "_policy",
        "_suit_pungs",
        "chows",
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
    _numbered_pungs: int
    _policy: Callable[[View], dict[str, int]] | None
    _suit_pungs: tuple[int, ...] | None
    chows: tuple[int, ...]  # first tiles, sorted
    concealed_pungs: int
    features: int
    groups: tuple[Group, ...]
    knits: tuple[int, ...]
    kongs: tuple[tuple[int, bool], ...]  # (tile, concealed)
    pair: int  # the pair's tile; -1 without exactly one pair
    pairs: tuple[int, ...]
    pungs: tuple[int, ...]  # kongs included, sorted
    shape: str
    wait: str | None  # EDGE, CLOSED, SINGLE or None
    win_group: Group | None

    def __init__(self, reading: Reading, facts: HandFacts,
                 combo_policy: Callable[[View], dict[str, int]] | None) -> None:
        self.reading = reading
        self.shape = reading.shape
        self.groups = reading.groups
        self.facts = facts
        ctx = facts.ctx
        self.ctx = ctx
        self._policy = combo_policy
        self._suit_pungs = None
        self._combos: dict[str, int] | None = None
        pieces = reading.pieces
        if pieces:
            self._of_pieces(pieces, facts, ctx)
        else:
            self._of_groups(reading, facts, ctx)
        self._features(ctx)

    def _of_pieces(self, pieces: tuple[Piece, ...], facts: HandFacts, ctx: WinContext
                   ) -> None:
        """A regular reading of a hand without wilds, from its parts' cuts (`Piece`)."""
        declared = facts.declared()
        win = facts.win_tile
        chows = declared.chows
        pungs = declared.pungs
        concealed = declared.concealed
        numbered = declared.numbered_pungs
        pair = -1
        at = 0
        for piece in pieces:
            if piece.chows:
                chows += piece.chows
            if piece.pungs:
                pungs += piece.pungs
                concealed += len(piece.pungs)
                numbered += piece.numbered_pungs
            if piece.pair >= 0:
                pair = piece.pair
            place = piece.places.get(win)
            if place:
                at |= place
        if declared.chows:
            chows = tuple(sorted(chows))
        if declared.pungs:
            pungs = tuple(sorted(pungs))
        self.chows = chows
        self.pungs = pungs
        self.kongs = declared.kongs
        self.pair = pair
        self.pairs = (pair,)
        self.knits = ()
        self.win_group = None
        # 暗刻: a standing pung of the winning tile completed by a discard is a claimed pung,
        # unless this reading can put the winning tile into a standing chow instead.
        if at & IN_PUNG and not at & IN_CHOW and ctx.win_type != SELF_DRAW:
            concealed -= 1
        self.concealed_pungs = concealed
        self._numbered_pungs = numbered
        # Where the winning tile sits, by priority 边 > 嵌 > 单钓 (one at most).
        if at & EDGE_PLACE:
            self.wait = EDGE
        elif at & MIDDLE:
            self.wait = CLOSED
        elif pair == win:
            self.wait = SINGLE
        else:
            self.wait = None

    @property
    def combos(self) -> dict[str, int]:
        """Chow combinations (一般高, 清龙 ...) under the rule set's policy, worked out when a
        check first asks (most readings are decided without them: see `depends_on`)."""
        combos = self._combos
        if combos is None:
            policy = self._policy
            combos = self._combos = (policy(self) if policy is not None
                                     and len(self.chows) >= 2 else _NO_COMBOS)
        return combos

    def _features(self, ctx: WinContext) -> None:
        pungs, chows = self.pungs, self.chows
        features = ((PUNGS | (FOUR_PUNGS if len(pungs) == 4 else 0)
                     | (NUMBERED_PUNGS if self._numbered_pungs >= 2 else 0)) if pungs else 0)
        if chows:
            features |= CHOWS
            if len(chows) >= 2:
                features |= CHOW_PAIRS
        if len(chows) + len(self.knits) == 4:
            features |= FOUR_CHOWS
        if self.kongs:
            features |= KONGS
        if self.wait:
            features |= WAIT
        if ctx.last_tile:
            features |= LAST_TILE
        if ctx.kong:
            features |= KONG_WIN
        self.features = features

    def _of_groups(self, reading: Reading, facts: HandFacts, ctx: WinContext) -> None:
        """Any reading, from its groups."""
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
        self._numbered_pungs = _numbered(pungs, facts.tileset.suit_no)
        self.kongs = tuple(kongs)
        self.pairs = tuple(pairs)
        self.pair = pairs[0] if len(pairs) == 1 else -1
        self.knits = tuple(knits)
        self.concealed_pungs = concealed_pungs
        self.wait = _wait_of_groups(edge, closed, self.pair == win, reading)

    def suit_pungs(self) -> tuple[int, ...]:
        """The pungs and kongs of numbered tiles, per numbered suit (in the tile set's
        order): bit `rank` set for a pung of that rank (worked out when first asked)."""
        found = self._suit_pungs
        if found is None:
            ts = self.facts.tileset
            suit, rank = ts.suit_no, ts.ranks
            masks = [0] * len(ts.suits)
            for t in self.pungs:
                s = suit[t]
                if s >= 0:
                    masks[s] |= 1 << rank[t]
            found = self._suit_pungs = tuple(masks)
        return found


def _numbered(pungs: list[int], suit: tuple[int, ...]) -> int:
    """How many of the pungs and kongs are of numbered tiles."""
    numbered = 0
    for t in pungs:
        if suit[t] >= 0:
            numbered += 1
    return numbered


def _wait_of_groups(edge: bool, closed: bool, pair_of_win: bool, reading: Reading
                    ) -> str | None:
    """Where the winning tile sits in a reading read from its groups, by priority 边 > 嵌 >
    单钓 (one at most): `edge` and `closed`, whether a standing chow holds it at its edge or
    in its middle; `pair_of_win`, whether the one pair is of the winning tile (单钓 unless the
    shape is 七对, or the reading of a hand with wilds places the winning tile elsewhere)."""
    if edge:
        return EDGE
    if closed:
        return CLOSED
    placed = reading.win
    if (pair_of_win and reading.shape != SEVEN_PAIRS
            and (placed < 0 or reading.groups[placed].kind == PAIR)):
        return SINGLE
    return None


_NO_COMBOS: Final[dict[str, int]] = {}
_NO_DECLARED: Final = DeclaredSets((), (), (), 0, 0, ())
