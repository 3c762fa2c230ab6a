"""Combination policies: how fans made of several chows are counted together.

Whether two chows form 一般高 or 喜相逢 is a pure relation; how many such fans a hand may
collect is a policy a rule set selects by name (`combination_policy:` in its YAML), because
the limits cannot be written as per-fan exclusions.

Relation kinds (the names fan checks ask for with `chow_combination(kind=...)`):

- pairs: `identical` 一般高, `mixed_same` 喜相逢, `shift_3` 连六, `terminal_pair` 老少副;
- triples: `mixed_shifted` 三色三步高, `mixed_triple` 三色三同顺, `mixed_straight` 花龙,
  `pure_straight` 清龙, `pure_shifted` 一色三步高, `pure_triple` 一色三同顺;
- quadruples: `pure_quadruple` 一色四同顺, `pure_four_shifted` 一色四步高;
- two-suit shifts, which only `account_once_with_mixed_shifts` counts: `two_suit_shifted`
  混三步 (a triple), `four_mixed_shifted` 混四步 (a quadruple).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from app.domain.tiles import TileSet


class _Facts(Protocol):
    @property
    def tileset(self) -> TileSet: ...


class Chows(Protocol):
    """What a policy reads of a reading (`app.rules.view.View` has it): its chows (first
    tiles, sorted) and the tile set. A protocol rather than the view's class: compiled, a
    policy then takes anything that has them (the tests' small stand-ins for a view)."""

    @property
    def chows(self) -> tuple[int, ...]: ...

    @property
    def facts(self) -> _Facts: ...


Policy = Callable[[Chows], dict[str, int]]

# Priority of pair fans when one chow may add only one (一般高 > 喜相逢 > 连六 > 老少副), and the
# order in which surplus pair fans are trimmed (the reverse).
PAIR_PRIORITY = ("identical", "mixed_same", "shift_3", "terminal_pair")
TRIM_ORDER = ("terminal_pair", "shift_3", "mixed_same", "identical")
TRIPLES = ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3))


def pair_relation(a: int, b: int, suit: tuple[int, ...], rank: tuple[int, ...]) -> str | None:
    """The pair fan two chows (given by first tiles) form, if any."""
    if suit[a] == suit[b]:
        if a == b:
            return "identical"
        ra, rb = rank[a], rank[b]
        if abs(ra - rb) == 3:
            return "shift_3"
        if ra + rb == 8 and ra * rb == 7:  # 123 and 789
            return "terminal_pair"
        return None
    if rank[a] == rank[b]:
        return "mixed_same"
    return None


def triple_relation(a: int, b: int, c: int, suit: tuple[int, ...],
                    rank: tuple[int, ...]) -> str | None:
    """The three-chow fan of chows a <= b <= c (first tiles), if any."""
    ra, rb, rc = sorted((rank[a], rank[b], rank[c]))
    sa, sb, sc = suit[a], suit[b], suit[c]
    if sa == sb == sc:
        if ra == rb == rc:
            return "pure_triple"
        if rb - ra == rc - rb and rb - ra in (1, 2):
            return "pure_shifted"
        if (ra, rb, rc) == (1, 4, 7):
            return "pure_straight"
        return None
    if sa != sb and sb != sc and sa != sc:
        if ra == rb == rc:
            return "mixed_triple"
        if (ra, rb, rc) == (1, 4, 7):
            return "mixed_straight"
        if rb - ra == 1 and rc - rb == 1:
            return "mixed_shifted"
    return None


def quad_relation(chows: tuple[int, ...], suit: tuple[int, ...],
                  rank: tuple[int, ...]) -> str | None:
    if len({suit[c] for c in chows}) != 1:
        return None
    rs = sorted(rank[c] for c in chows)
    steps = {rs[i + 1] - rs[i] for i in range(3)}
    if steps == {0}:
        return "pure_quadruple"
    if steps in ({1}, {2}):
        return "pure_four_shifted"
    return None


def two_suit_shifted_relation(a: int, b: int, c: int, suit: tuple[int, ...],
                              rank: tuple[int, ...]) -> bool:
    """混三步: three chows (given by first tiles) whose ranks step up by one, in exactly two
    suits (one suit is 一色三步高, three are 三色三步高)."""
    ra, rb, rc = sorted((rank[a], rank[b], rank[c]))
    return rb - ra == 1 and rc - rb == 1 and len({suit[a], suit[b], suit[c]}) == 2


def four_mixed_shifted_relation(chows: tuple[int, ...], suit: tuple[int, ...],
                                rank: tuple[int, ...]) -> bool:
    """混四步: four chows one rank apart each, in two or three suits."""
    rs = sorted(rank[c] for c in chows)
    return (len(chows) == 4 and all(rs[i + 1] - rs[i] == 1 for i in range(3))
            and len({suit[c] for c in chows}) > 1)


def _with_fourth(out: dict[str, int], chows: tuple[int, ...], triple: tuple[int, int, int],
                 suit: tuple[int, ...], rank: tuple[int, ...]) -> dict[str, int]:
    """`out` (a triple's fan) with the one pair fan, of highest priority, that the fourth
    chow forms with a chow of the triple, if any."""
    (fourth,) = {0, 1, 2, 3} - set(triple)
    found = {pair_relation(chows[fourth], chows[m], suit, rank) for m in triple}
    for kind in PAIR_PRIORITY:
        if kind in found:
            out[kind] = 1
            break
    return out


def mcr_account_once(view: Chows) -> dict[str, int]:
    """套算一次: each chow combines with the others at most once (MCR as scored today).

    Four chows: a four-chow fan stands alone; else the first triple (of the chows in tile
    order) with a three-chow fan scores it and the fourth chow adds at most one pair fan with
    the triple; else pair fans count, at most (chows − 1 − chows related to none), surplus
    trimmed duplicates first in the order 老少副, 连六, 喜相逢, 一般高. Three chows: the same
    without the four-chow step. Two chows: their pair fan.
    """
    chows = view.chows
    n = len(chows)
    if n < 2:
        return {}
    ts = view.facts.tileset
    suit, rank = ts.suit_no, ts.ranks
    if n == 4:
        quad = quad_relation(chows, suit, rank)
        if quad:
            return {quad: 1}
        for i, j, k in TRIPLES:
            tri = triple_relation(chows[i], chows[j], chows[k], suit, rank)
            if tri:
                return _with_fourth({tri: 1}, chows, (i, j, k), suit, rank)
    elif n == 3:
        tri = triple_relation(chows[0], chows[1], chows[2], suit, rank)
        if tri:
            return {tri: 1}
    counts: dict[str, int] = {}
    related = [False] * n
    total = 0
    for i in range(n):
        for j in range(i + 1, n):
            rel = pair_relation(chows[i], chows[j], suit, rank)
            if rel:
                counts[rel] = counts.get(rel, 0) + 1
                related[i] = related[j] = True
                total += 1
    cap = n - 1 - related.count(False)
    excess = total - cap
    if excess > 0:
        for kind in TRIM_ORDER:
            while excess > 0 and counts.get(kind, 0) > 1:
                counts[kind] -= 1
                excess -= 1
        for kind in TRIM_ORDER:
            while excess > 0 and counts.get(kind, 0) > 0:
                counts[kind] -= 1
                excess -= 1
    return counts


# The three- and four-chow kinds of `mcr_account_once`: when it counts one of them, the
# two-suit shifts yield to it.
_TRIPLE_AND_QUAD_KINDS = ("pure_quadruple", "pure_four_shifted", "mixed_shifted", "mixed_triple",
                          "mixed_straight", "pure_straight", "pure_shifted", "pure_triple")


def account_once_with_mixed_shifts(view: Chows) -> dict[str, int]:
    """套算一次 (with 混三步 and 混四步): `mcr_account_once`, and the two-suit shifts as its
    lowest-priority combinations.

    When `mcr_account_once` counts a three- or four-chow fan, that is the answer (就高不就低:
    the two-suit shifts never stand beside or above 一色三步高, 三色三步高 or any other).
    Otherwise, four chows one rank apart in two or three suits are 混四步 and stand alone (as
    the other four-chow fans do); else the first triple (of the chows in tile order) that is
    混三步 scores it, and the fourth chow adds at most one pair fan with the triple (一般高 >
    喜相逢 > 连六 > 老少副); else the pair fans of `mcr_account_once`.
    """
    base = mcr_account_once(view)
    if any(base.get(k) for k in _TRIPLE_AND_QUAD_KINDS):
        return base
    chows = view.chows
    n = len(chows)
    if n < 3:
        return base
    ts = view.facts.tileset
    suit, rank = ts.suit_no, ts.ranks
    if n == 4 and four_mixed_shifted_relation(chows, suit, rank):
        return {"four_mixed_shifted": 1}
    for i, j, k in (TRIPLES if n == 4 else ((0, 1, 2),)):
        if two_suit_shifted_relation(chows[i], chows[j], chows[k], suit, rank):
            out = {"two_suit_shifted": 1}
            return _with_fourth(out, chows, (i, j, k), suit, rank) if n == 4 else out
    return base


def count_every_combination(view: Chows) -> dict[str, int]:
    """Every pair and triple of chows counts on its own (no account-once limit)."""
    chows = view.chows
    ts = view.facts.tileset
    suit, rank = ts.suit_no, ts.ranks
    out: dict[str, int] = {}
    n = len(chows)
    for i in range(n):
        for j in range(i + 1, n):
            rel = pair_relation(chows[i], chows[j], suit, rank)
            if rel:
                out[rel] = out.get(rel, 0) + 1
            for k in range(j + 1, n):
                tri = triple_relation(chows[i], chows[j], chows[k], suit, rank)
                if tri:
                    out[tri] = out.get(tri, 0) + 1
    if n == 4:
        quad = quad_relation(chows, suit, rank)
        if quad:
            out[quad] = 1
    return out


def every_combination_with_mixed_shifts(view: Chows) -> dict[str, int]:
    """Every combination `count_every_combination` counts, and every triple of chows that is
    混三步 and a four-chow run that is 混四步, each on its own (no account-once limit)."""
    out = count_every_combination(view)
    chows = view.chows
    ts = view.facts.tileset
    suit, rank = ts.suit_no, ts.ranks
    n = len(chows)
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                if two_suit_shifted_relation(chows[i], chows[j], chows[k], suit, rank):
                    out["two_suit_shifted"] = out.get("two_suit_shifted", 0) + 1
    if n == 4 and four_mixed_shifted_relation(chows, suit, rank):
        out["four_mixed_shifted"] = 1
    return out


POLICIES: dict[str, Policy] = {
    "mcr_account_once": mcr_account_once,
    "count_every_combination": count_every_combination,
    "account_once_with_mixed_shifts": account_once_with_mixed_shifts,
}

# For each policy, the counting without its limits: every combination its relations can form.
# An explanation compares the two to say what account-once left out (`app.scoring.explain`).
UNLIMITED: dict[str, Policy] = {
    "mcr_account_once": count_every_combination,
    "count_every_combination": count_every_combination,
    "account_once_with_mixed_shifts": every_combination_with_mixed_shifts,
}
