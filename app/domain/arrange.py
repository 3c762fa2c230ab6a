"""Every arrangement of a hand of cards into groups of declared forms (an exact cover of its
count vector).

A form says which cards make a group: `same` (n identical cards), `run` (n consecutive ranks
of one suit), `ranks` (a listed set of ranks of one suit, such as 2-7-10), `mixed` (n cards of
one rank across two suits: n-1 of one and 1 of the other, either way). A form expands to the
concrete groups of a deck (`patterns`); the search takes the lowest card left, tries every
group that holds it as its lowest card, and recurses, remembering each count vector it has
solved. Which forms a hand may use, how many pairs it needs and which cards are locked are the
rule set's to say.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import NamedTuple

from app.domain.deck import Deck

FORMS = ("same", "run", "ranks", "mixed")


class Form(NamedTuple):
    form: str  # one of FORMS
    size: int
    ranks: tuple[int, ...] = ()  # the rank set of a `ranks` form


class Piece(NamedTuple):
    """One group of an arrangement: its kind and its cards (sorted indices)."""

    kind: str
    cards: tuple[int, ...]


def patterns(deck: Deck, form: Form) -> tuple[tuple[int, ...], ...]:
    """Every concrete group of `form` in `deck`, each as sorted card indices."""
    n = len(deck.ranks)
    out: list[tuple[int, ...]] = []
    for s in range(len(deck.suits)):
        base = s * n
        if form.form == "same":
            out.extend((base + r,) * form.size for r in range(n))
        elif form.form == "run":
            for r in range(n - form.size + 1):
                ranks = deck.ranks[r:r + form.size]
                if all(b - a == 1 for a, b in itertools.pairwise(ranks)):
                    out.append(tuple(range(base + r, base + r + form.size)))
        elif form.form == "ranks":
            if all(r in deck.ranks for r in form.ranks):
                out.append(tuple(sorted(base + deck.ranks.index(r) for r in form.ranks)))
        elif form.form == "mixed":
            for t in range(len(deck.suits)):
                if t == s:
                    continue
                for r in range(n):
                    out.append(tuple(sorted((base + r,) * (form.size - 1) + (t * n + r,))))
    return tuple(dict.fromkeys(out))


class Arranger:
    """The arrangements of hands under a fixed list of (kind, its groups), where the kind
    `pair_kind` is limited to an exact count of groups per hand."""

    def __init__(self, size: int, kinds: Sequence[tuple[str, Sequence[tuple[int, ...]]]],
                 pair_kind: str | None) -> None:
        self.size = size
        by_first: list[list[Piece]] = [[] for _ in range(size)]
        for kind, groups in kinds:
            for g in groups:
                by_first[g[0]].append(Piece(kind, g))
        self._by_first = tuple(tuple(p) for p in by_first)
        self.pair_kind = pair_kind

    def arrangements(self, counts: Sequence[int], pairs: int) -> tuple[tuple[Piece, ...], ...]:
        """Every way to cover `counts` with the kinds' groups, using exactly `pairs` groups
        of the pair kind (each arrangement once, its pieces in search order)."""
        memo: dict[tuple[tuple[int, ...], int, int, int], tuple[tuple[Piece, ...], ...]] = {}
        by_first = self._by_first
        pair_kind = self.pair_kind

        def solve(cs: tuple[int, ...], left: int, after: int, start: int
                  ) -> tuple[tuple[Piece, ...], ...]:
            # `start`: the first piece to try when the lowest card left is still `after`,
            # the lowest card of the piece taken before: pieces holding one lowest card are
            # taken in list order, so that each arrangement is found once.
            first = next((i for i, c in enumerate(cs) if c), None)
            if first is None:
                return ((),) if left == 0 else ()
            if first != after:
                start = 0
            key = (cs, left, first, start)
            found = memo.get(key)
            if found is not None:
                return found
            out: list[tuple[Piece, ...]] = []
            pieces = by_first[first]
            for n in range(start, len(pieces)):
                piece = pieces[n]
                is_pair = piece.kind == pair_kind
                if is_pair and left == 0:
                    continue
                rest = list(cs)
                for c in piece.cards:
                    rest[c] -= 1
                    if rest[c] < 0:
                        break
                else:
                    for tail in solve(tuple(rest), left - 1 if is_pair else left, first, n):
                        out.append((piece, *tail))
            result = tuple(out)
            memo[key] = result
            return result

        return solve(tuple(counts), pairs, -1, 0)
