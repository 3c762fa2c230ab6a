"""Score a finished hand of a card game scored by groups (a `CardRuleSet`).

The pipeline:
 1. Where the winning card goes: every placement the rule set allows for what it completes
    and the win type (a group with held cards, onto a table group, or an ordinary hand card).
 2. For each placement: the locked groups (held cards that may not be split), the number of
    pairs the finished hand needs, and every arrangement of the rest (`app.domain.arrange`).
 3. Each arrangement: the points of its groups, the patterns that apply, then the rule
    set's scoring steps in order (minimum, units, bonuses, multiplier, score).
 4. The best arrangement: a win before a non-win, then by the rule set's ranking (points,
    score), then the first group list in canonical notation.
 5. Who pays: by the win type (every other seat one share, or the payer several).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from app.domain.arrange import Piece
from app.domain.card_hand import CardHand, CardWin
from app.domain.money import Payments, Transfer, payments_of
from app.rules.cards.model import (
    FREE,
    CardRuleSet,
    Finished,
    PatternDef,
    StepDef,
    Tally,
)
from app.rules.choices import Chosen, resolve
from app.scoring.result import FanResult, NotCounted, Reason

NO_SHAPE = "no_shape"


class GroupResult(NamedTuple):
    kind: str
    cards: str
    points: int
    on_table: bool
    has_win_card: bool


class CardResult(NamedTuple):
    """A scored hand of cards. Its fields shared with every family's scored hand
    (`app.service.envelope`) mean the same as a tile game's: `fans` are the 名堂, `fan_total`
    what they come to under this family's arithmetic (their product, `multiplier`), `value`
    one paying share (`score`)."""

    ruleset: str
    winning: bool
    reason: Reason | None
    points: int | None  # 胡息 of the chosen arrangement (None without one)
    units: int | None
    parts: tuple[tuple[str, int], ...]
    figures: tuple[tuple[str, int], ...]  # counts of card attributes (red cards)
    fans: tuple[FanResult, ...]
    multiplier: int
    score: int | None
    groups: tuple[GroupResult, ...] | None
    payments: Payments | None

    @property
    def fan_total(self) -> int:
        """What the 名堂 come to: their product (番)."""
        return self.multiplier

    @property
    def value(self) -> int | None:
        """One paying share: the score (番 × 囤); None when the hand does not win."""
        return self.score


class _Reading(NamedTuple):
    groups: tuple[Piece, ...]
    on_table: int  # how many of `groups` (the first ones) lie on the table
    win_group: int  # the group the winning card went to
    tally: Tally


def placements(hand: CardHand, ctx: CardWin, rs: CardRuleSet
               ) -> list[tuple[str, int | None, int]]:
    """Where the winning card may go: (kind or FREE, the table group it joins or None, the
    held cards it joins)."""
    w = hand.win_card
    held = hand.cards.count(w) - 1
    for p in rs.placements:
        if p.held is not None and held == p.held:
            target = None
        elif p.table is not None:
            target = next((i for i, g in enumerate(hand.table)
                           if g.kind == p.table and g.cards[0] == w), None)
            if target is None:
                continue
        else:
            continue
        allowed = resolve(p.by_win_type.get(ctx.win_type, (FREE,)), ctx.options)
        return [(k, target, 0 if target is not None or k == FREE else held) for k in allowed]
    return [(FREE, None, 0)]


def _steps(rs: CardRuleSet, options: Mapping[str, Any]
           ) -> list[tuple[StepDef, dict[str, Any]]]:
    return [(s, s.params.resolve(options))
            for s in resolve(rs.steps, options)]


def _patterns(rs: CardRuleSet, options: Mapping[str, Any]
              ) -> list[tuple[PatternDef, int, dict[str, Any]]]:
    out = []
    for p in rs.patterns:
        value = resolve(p.value, options)
        if value:
            out.append((p, value, p.params.resolve(options)))
    return out


def _readings(hand: CardHand, ctx: CardWin, rs: CardRuleSet
              ) -> list[tuple[tuple[Piece, ...], int, int]]:
    """Every finished grouping: (groups, how many lie on the table, the group the winning
    card went to: the one made with it, else the first hand group holding its kind)."""
    w = hand.win_card
    held = [0] * rs.deck.size
    for c in hand.cards:
        held[c] += 1
    held[w] -= 1
    rule = rs.hand
    arranger = rs.arranger(ctx.options)
    out = []
    for kind, target, joined in placements(hand, ctx, rs):
        counts = list(held)
        table = list(hand.table)
        made: list[Piece] = []
        if kind == FREE:
            counts[w] += 1
        elif target is not None:
            table[target] = Piece(kind, tuple(sorted((*table[target].cards, w))))
        else:
            counts[w] -= joined
            made.append(Piece(kind, (w,) * (joined + 1)))
        locked = [Piece(rule.locked_kind, (c,) * rule.locked_held)
                  for c in range(rs.deck.size) if held[c] == rule.locked_held
                  and counts[c] >= rule.locked_held]
        for p in locked:
            counts[p.cards[0]] -= rule.locked_held
        size = rule.pair_when_size
        pairs = int(any(len(g.cards) == size for g in (*table, *made)))
        fixed = (*table, *made, *locked)
        for tail in arranger.arrangements(counts, pairs):
            if target is not None:
                win = target
            elif made:
                win = len(table)
            else:
                win = len(fixed) + next(i for i, g in enumerate(tail) if w in g.cards)
            out.append(((*fixed, *tail), len(table), win))
    return out


def _counts(hand: CardHand, rs: CardRuleSet) -> tuple[int, ...]:
    """The copies of each card over the whole finished hand (the same for every
    arrangement): the hand's cards and the table's."""
    counts = [0] * rs.deck.size
    for c in hand.cards:
        counts[c] += 1
    for g in hand.table:
        for c in g.cards:
            counts[c] += 1
    return tuple(counts)


def _finished(hand: CardHand, ctx: CardWin, rs: CardRuleSet, counts: tuple[int, ...],
              groups: tuple[Piece, ...]) -> Finished:
    return Finished(rs.deck, counts, groups, hand.table, hand.win_card, ctx.win_type,
                    ctx.winner, ctx.dealer, ctx.flags, ctx.cards, ctx.options)


def _tally(points: int, hand: Finished, steps: Sequence[tuple[StepDef, dict[str, Any]]],
           patterns: Sequence[tuple[PatternDef, int, dict[str, Any]]]) -> Tally:
    found = []
    for p, value, params in patterns:
        n = p.check(hand, **params)
        if n:
            found.append((p, value, n))
    t = Tally(points=points, patterns=tuple(found))
    for s, params in steps:
        t = s.func(t, hand, **params)
        if t.reason is not None:
            break
    return t


def _rank(r: _Reading, order: Sequence[str], canonical: tuple[str, ...]) -> tuple[Any, ...]:
    t = r.tally
    won = t.reason is None
    figures = tuple(-(t.points if k == "points" else (t.score if won else -1)) for k in order)
    return (not won, *figures, canonical)


def _ranked(hand: CardHand, ctx: CardWin, rs: CardRuleSet
            ) -> Iterator[tuple[tuple[Any, ...], _Reading]]:
    """Every arrangement scored, with its rank (lowest first)."""
    options = ctx.options
    steps = _steps(rs, options)
    patterns = _patterns(rs, options)
    order = resolve(rs.rank_by, options)
    deck = rs.deck
    counts = _counts(hand, rs)
    for groups, on_table, win in _readings(hand, ctx, rs):
        points = sum(rs.points(g) for g in groups)
        reading = _Reading(groups, on_table, win, _tally(
            points, _finished(hand, ctx, rs, counts, groups), steps, patterns))
        canonical = tuple(sorted(f"{g.kind} {deck.format_group(g.cards)}" for g in groups))
        yield _rank(reading, order, canonical), reading


def score(hand: CardHand, ctx: CardWin, rs: CardRuleSet) -> CardResult:
    """The best arrangement of a finished hand, its figures and who pays."""
    best = min(_ranked(hand, ctx, rs), key=lambda kr: kr[0], default=None)
    return _result(hand, ctx, rs, None if best is None else best[1])


def _result(hand: CardHand, ctx: CardWin, rs: CardRuleSet, reading: _Reading | None
            ) -> CardResult:
    deck = rs.deck
    counts = _counts(hand, rs)
    figures = tuple((name, sum(counts[c] for c in deck.with_attribute(attr)))
                    for name, attr in rs.figures.items())
    if reading is None:
        return CardResult(rs.id, False, Reason(NO_SHAPE, _no_shape(rs)), None, None, (),
                          figures, (), 1, None, None, None)
    t = reading.tally
    fans = tuple(FanResult(p.id, p.name, p.name_en, value, n) for p, value, n in t.patterns)
    shown = _group_results(reading, rs)
    if t.reason is not None:
        return CardResult(rs.id, False, Reason(t.reason, t.reason_message), t.points, None, (),
                          figures, fans, t.multiplier, None, shown, None)
    return CardResult(rs.id, True, None, t.points, t.units, t.parts, figures, fans,
                      t.multiplier, t.score, shown, _pay(t.score, ctx, rs))


def _no_shape(rs: CardRuleSet) -> str:
    kinds = ", ".join(rs.groups[k].name for k in rs.hand.kinds)
    return (f"No arrangement of the cards is a finished hand: every card must sit in one "
            f"group ({kinds}), with exactly one {rs.groups[rs.hand.pair_kind].name} when the "
            f"hand holds a group of {rs.hand.pair_when_size} cards and none otherwise.")


def _group_results(reading: _Reading, rs: CardRuleSet) -> tuple[GroupResult, ...]:
    return tuple(GroupResult(g.kind, rs.deck.format_group(g.cards), rs.points(g),
                             i < reading.on_table, i == reading.win_group)
                 for i, g in enumerate(reading.groups))


def _pay(score: int, ctx: CardWin, rs: CardRuleSet) -> Payments:
    wt = rs.win_types[ctx.win_type]
    transfers: list[Transfer] = []
    if wt.pays == "each_other":
        transfers = [Transfer(s, ctx.winner, score, wt.reason)
                     for s in range(ctx.players) if s != ctx.winner]
    else:
        assert ctx.payer is not None
        shares = resolve(wt.shares, ctx.options)
        n = ctx.players - 1 if shares == "others" else int(shares)
        transfers = [Transfer(ctx.payer, ctx.winner, score * n, wt.reason)]
    return payments_of(ctx.players, transfers)


class CardWait(NamedTuple):
    """A card that finishes a waiting hand by one win type, and what the hand then is (with
    what the scoring compared, when asked for)."""

    card: str
    win_type: str
    result: CardResult
    explanation: CardExplanation | None = None


class CardWaits(NamedTuple):
    ruleset: str
    ready: bool  # some card finishes the hand into groups (won, or below the minimum)
    can_win: bool  # some card wins
    waits: tuple[CardWait, ...]  # by card, then win type in the rule set's order
    best: CardWait | None  # the highest score (the first such, in the order above)


def waits(cards: tuple[int, ...], table: tuple[Piece, ...], ctx: CardWin,
          rs: CardRuleSet, explain: bool = False) -> CardWaits:
    """Every card that finishes a hand one card short, under each win type: the context's
    win type when it names one, else every win type of the rule set. A win type whose card
    comes from another seat is paid by the context's payer, else by the seat after the
    winner (the money of a wait is an illustration; its score does not depend on it).

    A card is tried while a copy of it is left (fewer than the deck's copies in hand and on
    the table). `explain`: each wait also carries its explanation (as `explained`)."""
    types = [ctx.win_type] if ctx.win_type in rs.win_types else list(rs.win_types)
    used = [0] * rs.deck.size
    for c in (*cards, *(c for g in table for c in g.cards)):
        used[c] += 1
    found: list[CardWait] = []
    for card in range(rs.deck.size):
        if used[card] >= rs.deck.copies:
            continue
        hand = CardHand((*cards, card), table, card)
        for wt in types:
            payer = None
            if rs.win_types[wt].payer_field is not None:
                payer = ctx.payer if ctx.payer is not None else (ctx.winner + 1) % ctx.players
            win = ctx._replace(win_type=wt, payer=payer)
            why = None
            if explain:
                result, why = explained(hand, win, rs)
            else:
                result = score(hand, win, rs)
            if result.groups is not None:
                found.append(CardWait(rs.deck.cards[card].code, wt, result, why))
    winners = [w for w in found if w.result.winning]
    best = None
    for w in winners:
        if best is None or (w.result.score or 0) > (best.result.score or 0):
            best = w
    return CardWaits(rs.id, bool(found), bool(winners), tuple(found), best)


# --- explanations --------------------------------------------------------------------------

MAX_READINGS = 5


class CardReading(NamedTuple):
    """One arrangement the scoring compared."""

    groups: tuple[GroupResult, ...]
    points: int
    score: int | None  # None: not a win (below the minimum)
    reason: str | None
    chosen: bool


class CardExplanation(NamedTuple):
    # 名堂 the hand had that the request's options leave out (rule `option`, by the option).
    not_counted: tuple[NotCounted, ...]
    readings: tuple[CardReading, ...]  # the chosen one first, then by rank; at most 5
    readings_compared: int


def explained(hand: CardHand, ctx: CardWin, rs: CardRuleSet
              ) -> tuple[CardResult, CardExplanation]:
    """The result (as `score`) and what it compared: the arrangements by rank, and the
    patterns whose check finds the hand but which an option leaves out."""
    ranked = sorted(_ranked(hand, ctx, rs), key=lambda kr: kr[0])
    chosen = ranked[0][1] if ranked else None
    result = _result(hand, ctx, rs, chosen)
    readings = tuple(
        CardReading(_group_results(r, rs), r.tally.points,
                    r.tally.score if r.tally.reason is None else None, r.tally.reason, i == 0)
        for i, (_, r) in enumerate(ranked[:MAX_READINGS]))
    left: list[NotCounted] = []
    if chosen is not None:
        finished = _finished(hand, ctx, rs, _counts(hand, rs), chosen.groups)
        for p in rs.patterns:
            if resolve(p.value, ctx.options):
                continue
            n = p.check(finished, **p.params.resolve(ctx.options))
            option = _deciding_option(p.value, ctx.options)
            if n and option is not None:
                left.append(NotCounted(
                    p.id, p.name, p.name_en, resolve(p.value, rs.option_defaults), n,
                    "option", option,
                    f"{p.name} is not counted: option {option} is "
                    f"{ctx.options.get(option)!r}."))
    return result, CardExplanation(tuple(left), readings, len(ranked))


def _deciding_option(value: object, options: Mapping[str, Any]) -> str | None:
    """The option whose value chose the value 0 (the last choice on the way)."""
    option = None
    while isinstance(value, Chosen):
        option = value.option
        chosen = options[value.option]
        value = next((v for k, v in value.values.items()
                      if type(k) is type(chosen) and k == chosen), value.default)
    return option
