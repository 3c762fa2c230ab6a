"""The request generator of one rule set: hands built (`tools.loggen.hands`), their context
(`tools.loggen.context`) and their written form (`tools.loggen.forms`), each request read and
scored through the service's own path, until the engine's answers give the share of hands that
do not win that was asked for."""

from __future__ import annotations

import random
from collections import deque

from app.domain.errors import HandError
from app.domain.hand import DISCARD, SELF_DRAW
from app.rules.model import RuleSet
from app.scoring.evaluate import score
from app.service.problems import ApiError
from app.service.tiles.requests import read_score_request, read_waits_request
from tools.loggen.context import ContextMaker
from tools.loggen.forms import HandWriter
from tools.loggen.hands import HandMaker
from tools.loggen.tiles import Body, Draw, Hand, Tables

__all__ = ["RequestGenerator"]

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


class RequestGenerator:
    """Requests for one rule set, each checked through the service's path; `next()` gives
    the next one. Deterministic for (rule set, seed, waits, non_winning).

    ``non_winning`` is the share of requests whose hand does not win (the engine says
    ``winning: false``, e.g. below the rule set's minimum): each request is first drawn to
    be winning or not, then hands are built until the engine's answer agrees (a hand of the
    other kind is kept for a later request). When a rule set rarely or never gives a kind,
    a hand of the other kind is taken after a bounded number of tries.

    Hands are built in the shapes the rule set declares that have a hand builder and that
    its tiles can build; ``left_out`` names the others, each with the reason. A rule set with
    no such shape is refused (ValueError).

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
        # other rule sets a log mixes in. Hands, contexts and written forms all draw from it.
        self.rng = random.Random(f"{seed}:{ruleset.id}")
        self.t = Tables(ruleset)
        self.hands = HandMaker(ruleset, self.rng, self.t)
        self.left_out = self.hands.left_out
        self.contexts = ContextMaker(ruleset, self.rng, self.t)
        self.writer = HandWriter(ruleset, self.rng, self.t)
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
        hand: Hand | None = None
        while hand is None:  # None: the supply ran out while building; build another
            draw = self._new_draw()
            hand = self.hands.hand(draw)
        if not winning and self._break_hands:
            self._broken(hand, draw)
        self.drawn += 1
        context = self.contexts.context(hand, draw, self._never_wins() if winning else None)
        score_hand, waits_hand = self.writer.forms(hand)
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

    def _broken(self, hand: Hand, draw: Draw) -> None:
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

    def _new_draw(self) -> Draw:
        """The supply for one hand, and the wild tiles in play when the rule set has them."""
        t = self.t
        draw = Draw([0] * len(t.codes), list(t.copies))
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
