"""analyse(standing, melds, context, rule set, visible) -> AnalysisResult: discard analysis
(牌效): how far a hand is from a win, which tiles bring it closer, and for a hand holding
one tile more, what each discard leaves.

- A hand one tile short (13 tiles, a declared meld counted as three): its shanten (向听数:
  0 ready, 1 one tile from ready …), the shanten under each shape the rule set enables under
  the request's options (`app.domain.shanten`, None for a shape the hand cannot make: 七对
  with a declared meld), the useful tiles (every kind that, drawn, lowers the shanten), each
  with the copies left, and when ready its waits exactly as `app.scoring.waits` answers them
  (scored, and whether each can win).
- A hand of 14: its shanten as it stands (-1: it is complete by shape; it is then scored by
  `app.scoring.evaluate.score` with its last standing tile as the winning tile, under the
  request's context, and that score may still be no win: under the minimum, a requirement
  missing), and one row per distinct tile held: the analysis of the 13 left. Rows come best
  first: lower shanten, then a tile of a void suit (定缺) before others, then more useful
  copies left, then the better best wait (value, then fan total), then the written order of
  tiles.

The rule set says everything: its shapes and their options, its deck (`rs.tileset`: a kind
it lacks is never useful), its wild tiles (each counts as any tile: a drawn wild is always
useful), and a requirement that a win holds at most `count` numbered suits (定缺, the check
`suits_at_most`): the hand keeps the suits that bring it closest, tiles of the others are
never kept, so a hand still holding its void suit is not ready. Which tiles are void (the
discards to make first): where the winner declared a suit void (the requirement
`lacks_declared_suit` names the per-seat option), exactly that suit's tiles, and only the
other suits may be kept; undeclared, a hand of no more suits than a win may hold has no void
tiles (it gives nothing up), and one holding more has the tiles of the suits it does best to
give up (on a tie, the first choice of kept suits in the tile set's suit order: 万条, 万筒,
条筒). Declared melds holding more suits than a win may (or the declared suit) leave no
shape: shanten None. Other requirements and the minimum (国标's 8 番) do not change the
shanten: they show in the waits (`winning: false`, and `can_win` false when no wait wins).

Copies left of a kind: the deck's copies, less the copies in the hand (standing and
melds), less `visible` (tiles seen elsewhere), less the flipped wild indicator where the
rule set puts it out of play. A kind of which the hand and the indicator already account for
every copy cannot be drawn and is never listed; one whose last copies are among `visible` is
listed with 0 left. A discard row's own discard is one of those seen: its kind is listed
when it lowers the shanten, with the copies left after it (0 for the last copy), as `waits`
lists it. The shanten counts do not count copies; when a ready hand's (or row's) waits are
scored, its useful tiles are exactly the tiles of its waits (a wild standing for a fifth copy
of a kind completes nothing: the counts alone would list that kind).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import Final, NamedTuple

from app.domain.hand import Hand, Meld, WinContext
from app.domain.shanten import IMPOSSIBLE, SHAPE_BOUNDS, SHAPE_NEEDS, probe, shanten_of
from app.domain.tiles import TileSet
from app.rules.checks.traits import declared_suit
from app.rules.model import RuleSet
from app.scoring.evaluate import score
from app.scoring.result import ScoreResult, WaitEntry
from app.scoring.waits import copies_gone
from app.scoring.waits import waits as find_waits

# Hot-path named tuples are built with `tuple.__new__(Type, fields)`: a NamedTuple's own
# constructor runs a Python-level __new__ that costs several times more.
_new: Final = tuple.__new__

# The requirement that limits the numbered suits of a win (定缺), by its check's name, and the
# one that refuses the suit the winner declared void (its `option` names the per-seat option).
SUITS_AT_MOST: Final = "suits_at_most"
LACKS_DECLARED_SUIT: Final = "lacks_declared_suit"


class UsefulTile(NamedTuple):
    tile: str
    left: int


class Standing13(NamedTuple):
    """The analysis of a hand one tile short."""

    shanten: int | None  # None: no shape can be made (more suits in melds than allowed)
    shapes: tuple[tuple[str, int | None], ...]
    useful: tuple[UsefulTile, ...]
    useful_left: int
    # Scored waits when ready (shanten 0) and asked for; None otherwise.
    waits: tuple[WaitEntry, ...] | None
    best: WaitEntry | None


class DiscardRow(NamedTuple):
    tile: str
    void: bool  # a tile of a suit the hand gives up (定缺)
    left: Standing13


class AnalysisResult(NamedTuple):
    ruleset: str
    tiles: int  # 13 or 14 (declared melds counted as three)
    hand: Standing13 | None  # 13 tiles: the hand's own analysis
    shanten: int | None
    shapes: tuple[tuple[str, int | None], ...]
    win: ScoreResult | None  # 14 tiles at shanten -1: the hand scored
    discards: tuple[DiscardRow, ...]  # 14 tiles


class _Setup(NamedTuple):
    tileset: TileSet
    shapes: tuple[str, ...]
    wilds: frozenset[int]
    n_melds: int
    # Each choice of suits the hand may keep: the tiles it may not keep (a void suit's).
    excluded: tuple[frozenset[int], ...]
    # The tiles of the suit the winner declared void (定缺), None when undeclared: the only
    # choice (in `excluded`, unless a declared meld holds that suit) gives them up.
    declared: frozenset[int] | None
    # The most numbered suits a win may hold, None without a limit.
    limit: int | None
    # Copies that can still come: deck less hand, indicator, visible (per kind), and whether
    # the kind can be drawn at all (not every copy in the hand and the indicator).
    left: list[int]
    drawable: list[bool]


def suit_limit(rs: RuleSet) -> int | None:
    """The most numbered suits a win may hold (定缺), None without such a requirement."""
    limits = [int(r.params["count"]) for r in rs.requirements if r.check == SUITS_AT_MOST]
    return min(limits) if limits else None


def declared_void(rs: RuleSet, ctx: WinContext) -> str | None:
    """The suit the winner declared void (定缺 declared at the table: the winner's entry of the
    per-seat option the requirement names), None when undeclared or without the rule."""
    for r in rs.requirements:
        if r.check == LACKS_DECLARED_SUIT:
            suit = declared_suit(ctx.options, str(r.params["option"]), ctx.winner)
            if suit is not None:
                return suit
    return None


def _suit_choices(melds: Sequence[Meld], tileset: TileSet, limit: int | None,
                  declared: str | None) -> tuple[frozenset[int], ...]:
    """Each choice of numbered suits a win may keep, as the tiles it gives up: any `limit`
    suits that hold the declared melds' (定缺), none of them the declared void suit; one
    choice giving up nothing without a limit or a declaration; none when the declared melds
    hold more suits than allowed."""
    suit_no = tileset.suit_no
    allowed = [n for n, suit in enumerate(tileset.suits) if suit != declared]
    size = len(allowed) if limit is None else min(limit, len(allowed))
    if size >= len(tileset.suits):
        return (frozenset(),)
    in_melds = {suit_no[t] for m in melds for t in m.tiles if suit_no[t] >= 0}
    return tuple(frozenset(t for t in tileset.playing
                           if suit_no[t] >= 0 and suit_no[t] not in kept)
                 for kept in combinations(allowed, size) if in_melds <= set(kept))


def _setup(standing: Sequence[int], melds: Sequence[Meld], ctx: WinContext, rs: RuleSet,
           visible: Sequence[int]) -> _Setup:
    tileset = rs.tileset
    kinds = tileset.kinds
    gone = copies_gone(standing, melds, ctx, rs)
    drawable = [gone[t] < kinds[t].copies for t in range(len(kinds))]
    seen = gone[:]
    for t in visible:
        seen[t] += 1
    left = [max(kinds[t].copies - seen[t], 0) for t in range(len(kinds))]
    wilds = frozenset(ctx.wilds) if rs.wild is not None else frozenset()
    limit = suit_limit(rs)
    declared = declared_void(rs, ctx)
    excluded = _suit_choices(melds, tileset, limit, declared)
    void = (None if declared is None
            else frozenset(t for t in tileset.playing if tileset.kinds[t].suit == declared))
    return _Setup(tileset, tuple(sorted(rs.plan.shapes_for(ctx.options))), wilds,
                  len(melds), excluded, void, limit, left, drawable)


def _needs(counts: list[int], setup: _Setup, exact: bool = True) -> dict[str, int]:
    """Each shape's need; unless `exact`, a shape whose bound shows it needs more than
    another shape is given that bound (it cannot be the least)."""
    needs = {s: SHAPE_NEEDS[s](counts, setup.n_melds, setup.tileset)
             for s in setup.shapes if exact or s not in SHAPE_BOUNDS}
    if not exact:
        least = min(needs.values(), default=IMPOSSIBLE)
        for s in setup.shapes:
            if s in SHAPE_BOUNDS:
                bound = SHAPE_BOUNDS[s](counts, setup.n_melds, setup.tileset)
                needs[s] = (bound if bound > least
                            else SHAPE_NEEDS[s](counts, setup.n_melds, setup.tileset))
    return needs


def _usable(standing: Sequence[int], setup: _Setup, excluded: frozenset[int]) -> list[int]:
    counts = [0] * setup.tileset.size
    for t in standing:
        if t not in setup.wilds and t not in excluded:
            counts[t] += 1
    return counts


def _analyse13(standing: Sequence[int], melds: tuple[Meld, ...], ctx: WinContext,
               rs: RuleSet, setup: _Setup, score_waits: bool,
               exact: bool = True, discarded: int | None = None) -> Standing13:
    """The analysis of 13 tiles; unless `exact`, the per-shape shanten are left out (a
    discard row: None each, only the least is worked out). `discarded`: the tile a row
    discards from 14 (its kind can be drawn again, with that copy counted as seen)."""
    tileset = setup.tileset
    w = sum(1 for t in standing if t in setup.wilds)
    # Per choice of suits: the usable counts and each shape's need.
    per_choice: list[tuple[frozenset[int], list[int], dict[str, int]]] = []
    for excluded in setup.excluded:
        counts = _usable(standing, setup, excluded)
        per_choice.append((excluded, counts, _needs(counts, setup, exact)))
    shape_need = {s: min((n[s] for _, _, n in per_choice), default=IMPOSSIBLE)
                  for s in setup.shapes}
    need = min(shape_need.values(), default=IMPOSSIBLE)
    shapes = tuple((s, shanten_of(shape_need[s], w)) for s in setup.shapes) if exact else ()
    shanten = shanten_of(need, w)
    if shanten is None:
        return Standing13(None, shapes, (), 0, None, None)
    # A drawn tile lowers the need when, under a choice of suits that keeps it, a shape at
    # the least need needs less with it.
    probes = [(excluded, probe(s, counts, setup.n_melds, tileset))
              for excluded, counts, needs in per_choice
              for s, n in needs.items() if n == need]
    useful: list[UsefulTile] = []
    kinds = tileset.kinds
    drawable = setup.drawable
    wilds = setup.wilds
    left = setup.left
    lowering: set[int] = set()  # every kind that lowers the need, drawable or not
    for t in _playing_in_order(tileset):
        lowers = t in wilds
        if not lowers:
            for excluded, p in probes:
                if t not in excluded and p.need_with(t) < need:
                    lowers = True
                    break
        if lowers:
            lowering.add(t)
            if drawable[t] or t == discarded:
                useful.append(_new(UsefulTile, (kinds[t].code, left[t])))
    waits: tuple[WaitEntry, ...] | None = None
    best = None
    if shanten == 0 and score_waits:
        within = None
        if setup.excluded == (frozenset(),):
            # Only a tile that brings the need to the wilds' can complete the hand (the
            # counts never miss a reading the scoring finds): ready, the need is one more
            # than the wilds, so exactly the tiles that lower it. With 定缺 every tile is
            # tried, as `waits` lists a completion of a void suit too (not winning).
            within = frozenset(lowering)
        found = find_waits(tuple(standing), melds, ctx, rs, within=within)
        waits, best = found.waits, found.best
        # A ready hand's useful tiles are the tiles that complete it: the scored waits say
        # which exactly, where the counts cannot (a wild that would be a fifth copy).
        completing = {w.tile for w in waits}
        useful = [u for u in useful if u.tile in completing]
    return Standing13(shanten, shapes, tuple(useful), sum(u.left for u in useful), waits, best)


def _suits_held(standing: Sequence[int], melds: Sequence[Meld], tileset: TileSet) -> int:
    suit_no = tileset.suit_no
    return len({suit_no[t] for t in (*standing, *(t for m in melds for t in m.tiles))
                if suit_no[t] >= 0})


@lru_cache(maxsize=8)
def _playing_in_order(tileset: TileSet) -> tuple[int, ...]:
    return tuple(t for t in tileset.display_order if not tileset.kinds[t].is_flower)


def _worth(entry: WaitEntry | None) -> tuple[int, int]:
    if entry is None:
        return (-1, -1)
    return (entry.value if entry.value is not None else -1, entry.fan_total)


def shanten(standing: Sequence[int], melds: tuple[Meld, ...], ctx: WinContext,
            rs: RuleSet) -> int | None:
    """The shanten of a hand of 13 or 14 tiles alone (what `analyse` answers as
    `shanten`): -1 a win (14 tiles), 0 ready, …; None when no shape can be made."""
    setup = _setup(standing, melds, ctx, rs, ())
    w = sum(1 for t in standing if t in setup.wilds)
    need = min((min(_needs(_usable(standing, setup, excluded), setup, exact=False).values(),
                    default=IMPOSSIBLE) for excluded in setup.excluded), default=IMPOSSIBLE)
    return shanten_of(need, w)


def analyse(standing: Sequence[int], melds: tuple[Meld, ...], ctx: WinContext, rs: RuleSet,
            visible: Sequence[int] = (), score_waits: bool = True) -> AnalysisResult:
    """The analysis of a hand of 13 or 14 tiles (declared melds counted as three; the caller
    has checked the size, the copies and the tiles). `score_waits=False` leaves out the
    waits of ready hands (the rest is the same)."""
    setup = _setup(standing, melds, ctx, rs, visible)
    size = len(standing) + 3 * len(melds)
    if size == 13:
        own = _analyse13(standing, melds, ctx, rs, setup, score_waits)
        return AnalysisResult(rs.id, 13, own, own.shanten, own.shapes, None, ())
    tileset = setup.tileset
    w = sum(1 for t in standing if t in setup.wilds)
    best_need: dict[str, int] = {}
    void_tiles: frozenset[int] = frozenset()
    overall = IMPOSSIBLE
    for excluded in setup.excluded:
        needs = _needs(_usable(standing, setup, excluded), setup)
        least = min(needs.values(), default=IMPOSSIBLE)
        if least < overall:
            overall, void_tiles = least, excluded
        for s, n in needs.items():
            best_need[s] = min(best_need.get(s, IMPOSSIBLE), n)
    if setup.declared is not None:
        void_tiles = setup.declared
    elif _suits_held(standing, melds, tileset) <= (setup.limit or 0):
        # Undeclared, a hand of no more suits than a win may hold gives none up: no void.
        void_tiles = frozenset()
    shapes = tuple((s, shanten_of(best_need.get(s, IMPOSSIBLE), w)) for s in setup.shapes)
    shanten = shanten_of(overall, w)
    win = None
    if shanten == -1:
        win = score(Hand(tuple(standing), melds, standing[-1]), ctx, rs)
    rows: list[DiscardRow] = []
    done: set[int] = set()
    for t in standing:
        if t in done:
            continue
        done.add(t)
        rest = list(standing)
        rest.remove(t)
        left = _analyse13(rest, melds, ctx, rs, setup, score_waits, exact=False, discarded=t)
        rows.append(DiscardRow(tileset.kinds[t].code, t in void_tiles, left))
    rank = {tileset.kinds[t].code: tileset.display_rank[t] for t in done}
    rows.sort(key=lambda r: (r.left.shanten if r.left.shanten is not None else IMPOSSIBLE,
                             not r.void, -r.left.useful_left,
                             tuple(-x for x in _worth(r.left.best)), rank[r.tile]))
    return AnalysisResult(rs.id, 14, None, shanten, shapes, win, tuple(rows))
