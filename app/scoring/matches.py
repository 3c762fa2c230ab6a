"""A match, hand by hand: who deals, where each player sits and which wind each holds, the
running totals and the standings, under a rule set's match rules (`app.rules.matches.Rules`).

Nothing here scores a hand: the service scores each hand through `score` or `settle` and
gives this module what came of it (`Outcome`: each player's points, the first win's winners
and discarder, the kongs made, who drew the last tile). Players are numbered by the seat each
held at the start (player 0 at seat 0, 东位 where there are winds); seats are numbered in turn
order, so seat s + 1 is seat s's next (下家).

1. `start`: the state before the first hand, the first dealer given.
2. `table`: the hand about to be played: its number, dealer, 圈, prevailing wind, the players
   at each seat and each player's seat wind (庄家 东, then in turn order).
3. `advance`: the state after a hand: totals, deductions, and where the deal goes (the
   rules' `dealer_wins`, `other_wins`, `drawn`, `several_winners`). A deal passing from the
   last seat back to the first begins a new 圈, where the players sit as the rules' seating
   says, the player at seat 0 dealing. The match ends after its last hand or when the deal
   would pass to a dealer past the last dealership.
4. `standings`: each player's points (the base points and the running total, which counts
   what was deducted),
   ranks (players with equal points share a rank) and table points (tied players share the
   mean of the points of the places they cover, rounded to 2 decimals).
"""

from __future__ import annotations

from typing import NamedTuple

from app.domain.hand import WINDS
from app.rules.matches import Rules

__all__ = ["MatchState", "Outcome", "RoundWins", "Standings", "Table", "advance",
           "false_win_cost",
           "standings", "start", "table"]


class MatchState(NamedTuple):
    """Where a match stands between two hands."""

    hands: int  # hands played
    dealer: int  # the player dealing the next hand
    circle: int  # 圈 begun so far, less one (0: the first)
    dealerships: int  # dealers so far, the next hand's included (a dealer kept counts once)
    repeat: int  # hands in a row the next hand's dealer has dealt before it (连庄)
    # Each player's running total: points won and lost, less points deducted.
    totals: tuple[int, ...]
    deducted: tuple[int, ...]  # of which deducted, paid to nobody (each >= 0)
    ended: bool


class Table(NamedTuple):
    """The hand about to be played."""

    number: int  # from 1
    dealer: int  # the player who deals
    dealer_seat: int
    circle: int  # the 圈, from 0
    round_wind: str | None  # the 圈's wind where the hands have winds
    seating: tuple[int, ...]  # the player at each seat
    seats: tuple[int, ...]  # each player's seat
    seat_winds: tuple[str, ...] | None  # each player's seat wind where the hands have winds
    repeat: int


class Outcome(NamedTuple):
    """What came of one hand, by player."""

    net: tuple[int, ...]  # points won or lost to other players (sums to 0)
    deducted: tuple[int, ...]  # points deducted, paid to nobody (each >= 0)
    winners: tuple[int, ...]  # the first win's winners, in turn order from its discarder
    discarder: int | None  # the first win's discarder (None: self-drawn or no win)
    # The discarder of the hand's first win by several players on one discard, if any.
    several_discarder: int | None = None
    kongs: frozenset[int] = frozenset()  # players who made a kong in the hand
    last_drawer: int | None = None  # who drew the last tile of a hand nobody won


class RoundWins(NamedTuple):
    """Who won a round of events first, as a match reads it (a family's settlement says it
    from its round, `app.service.families.RoundSettlement.wins`)."""

    winners: tuple[int, ...]  # the first win's winners: one, or several on one discard
    discarder: int | None  # that discard's discarder (None: self-drawn, or no win)
    several_discarder: int | None  # the discarder of the round's first win by several
    kongs: frozenset[int]  # the seats that made a kong in it


class Standings(NamedTuple):
    points: tuple[int, ...]  # base points + running totals
    ranks: tuple[int, ...]  # 1 is first; tied players share the best place they cover
    table_points: tuple[float, ...] | None


def start(rules: Rules, players: int, dealer: int) -> MatchState:
    """The state before the first hand, player `dealer` dealing it."""
    zero = (0,) * players
    return MatchState(0, dealer, 0, 1, 0, zero, zero, False)


def _seating(rules: Rules, players: int, circle: int) -> tuple[int, ...]:
    if rules.seating is None:
        return tuple(range(players))
    return rules.seating[circle % len(rules.seating)]


def table(rules: Rules, players: int, state: MatchState) -> Table:
    """The next hand's table."""
    seating = _seating(rules, players, state.circle)
    seats = [0] * players
    for seat, player in enumerate(seating):
        seats[player] = seat
    dealer_seat = seats[state.dealer]
    winds = None
    round_wind = None
    if rules.winds:
        round_wind = WINDS[state.circle % len(WINDS)]
        winds = tuple(WINDS[(seats[p] - dealer_seat) % players] for p in range(players))
    return Table(state.hands + 1, state.dealer, dealer_seat, state.circle, round_wind,
                 seating, tuple(seats), winds, state.repeat)


def advance(rules: Rules, players: int, state: MatchState, outcome: Outcome) -> MatchState:
    """The state after a hand with `outcome`."""
    here = table(rules, players, state)
    seat = _next_dealer_seat(rules, here, outcome, players)
    circle = state.circle
    seating = here.seating
    if seat < here.dealer_seat:
        # The deal went back past the first seat: a new 圈, whose seating says who sits at
        # the seat it reached.
        circle += 1
        seating = _seating(rules, players, circle)
    dealer = seating[seat]
    kept = dealer == state.dealer and circle == state.circle
    dealerships = state.dealerships + (0 if kept else 1)
    totals = tuple(t + n - d for t, n, d in zip(state.totals, outcome.net, outcome.deducted,
                                                 strict=True))
    deducted = tuple(d + n for d, n in zip(state.deducted, outcome.deducted, strict=True))
    hands = state.hands + 1
    ended = ((rules.hands is not None and hands >= rules.hands)
             or (rules.dealerships is not None and dealerships > rules.dealerships))
    return MatchState(hands, dealer, circle, dealerships, state.repeat + 1 if kept else 0,
                      totals, deducted, ended)


def _next_dealer_seat(rules: Rules, here: Table, outcome: Outcome, players: int) -> int:
    """The seat that deals next, counted in this hand's seating."""
    nxt = (here.dealer_seat + 1) % players
    if outcome.several_discarder is not None and rules.several_winners == "any_discarder":
        return here.seats[outcome.several_discarder]
    if outcome.winners:
        if (len(outcome.winners) > 1 and outcome.discarder is not None
                and rules.several_winners in ("discarder", "any_discarder")):
            return here.seats[outcome.discarder]
        first = outcome.winners[0]
        move = rules.dealer_wins if first == here.dealer else rules.other_wins
        if move == "winner":
            return here.seats[first]
        return nxt if move == "next" else here.dealer_seat
    move = rules.drawn
    if move == "kong_passes":
        passes = here.dealer not in outcome.kongs and bool(outcome.kongs)
        return nxt if passes else here.dealer_seat
    if move == "last_drawer" and outcome.last_drawer is not None:
        return here.seats[outcome.last_drawer]
    return nxt if move == "next" else here.dealer_seat


def false_win_cost(rules: Rules, kind: str, offender: int, players: int
                   ) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """(net, deducted) of a false win of `kind` by `offender`; None where the rules price
    none."""
    if rules.false_win is None:
        return None
    how, points = rules.false_win[kind]
    net = [0] * players
    deducted = [0] * players
    if how == "each":
        for p in range(players):
            if p != offender:
                net[p] += points
                net[offender] -= points
    else:
        deducted[offender] = points
    return tuple(net), tuple(deducted)


def standings(rules: Rules, state: MatchState) -> Standings:
    """Points, ranks and table points of the match as it stands."""
    points = tuple(rules.base_points + t for t in state.totals)
    order = sorted(range(len(points)), key=lambda p: -points[p])
    ranks = [0] * len(points)
    shares: list[float] = [0.0] * len(points)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and points[order[j + 1]] == points[order[i]]:
            j += 1
        if rules.table_points is not None:
            share = round(sum(rules.table_points[i:j + 1]) / (j + 1 - i), 2)
        else:
            share = 0.0
        for k in range(i, j + 1):
            ranks[order[k]] = i + 1
            shares[order[k]] = share
        i = j + 1
    table_points = tuple(shares) if rules.table_points is not None else None
    return Standings(points, tuple(ranks), table_points)
