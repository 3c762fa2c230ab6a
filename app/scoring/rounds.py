"""settle(round, rule set) -> SettleResult: the money of a whole round (血战到底, 天津), itemised.

The events of a validated `app.domain.events.Round` are settled in order, under the rule set's
`settlement` data (`app.rules.settlement`); nothing here knows a particular game's numbers.
Amounts of the settlement count in units of the payment's `base` (resolved with the round's
options, like the payment scheme's own parameters).

- A kong earns its money at once: from the discarder (`discarder`) or from every other player
  still in the round (`each_active`); an added kong that is not fresh earns nothing where the
  rule set pays only fresh ones (及时雨). A concealed kong of four of the round's wild tiles
  (金杠) is paid the `golden` amount where the rule set has one that is not `off`; a special
  kong (幺九杠, 旋风杠, 喜杠) the `special_kongs` amount, by every other player still in. With
  `seat_factors`, each payer pays the amount times the payment scheme's factor between it and
  the kong's maker (天津 坐庄 / 拉庄).
- A win is scored by `app.scoring.evaluate.score` and paid by `app.rules.payments.pay` with
  the players still in the round as payers: a discard win by the discarder, a self-draw by
  every other player still in. Winners drop out after their event, so several wins on one
  discard (一炮多响) are each paid by the discarder (where a win ends the round, there is no
  later event). A hand that is not a legal win cannot be settled: `HandError` `not_a_win`,
  naming the event.
- A robbed added kong (抢杠) is void where the rule set says so: its money goes back
  (`kong_void`). A win on the discard after a kong (杠上炮) does to that kong's money what the
  settlement's `kong_discard_money` (or the request's option it names) says: `refund` gives it
  back to its payers (`kong_refund`), `transfer` (呼叫转移) has the kong's maker pass it to the
  winner (`kong_transfer`; with several winners on that discard, 一炮多响, to the first of them
  in turn order after the discarder: seat discarder + 1, + 2, ...), `keep` leaves it. Each
  happens once per kong.
- A draw runs the drawn-game checks among the players not yet won, in this order: 查花猪 (each
  pig, holding more suits than `max_suits` or a tile of the suit its seat declared void, 定缺,
  where the settlement's `declared_void` names the option that says it, pays `pig_penalty`
  to each other player not yet won who is not a pig; a passive pig pays no penalty and
  counts as not ready), 查大叫 (each player not ready, and an active pig only where
  `pig_counts_as_not_ready`, pays each ready player that player's best value: the highest
  value over the tiles that complete the hand, from `app.scoring.waits` under a neutral
  context: a discard win, no kong, not the last tile, so only hand fans count), 退税 (each
  player not ready, or a pig, returns the kong money it still holds to the payers still in
  the round, whoever else is ready: with nobody ready 查大叫 pays nothing and 退税 still does).
  Where kong money does not stand on a drawn game (`kongs_stand` false, 荒庄荒杠), every kong's
  maker returns what it still holds (`drawn_game_refund`). A waiting hand is scored as a
  discard win or, with `ready_as: self_draw`, as a self-draw.
- 亮倒 (`reveal` events, where the settlement reads them): each win is scored with the seats
  revealed by then (the builder puts them in its context); at a drawn game, revealed players
  pay each player still in who has not revealed (`revealed_pay`: all of them, or the first to
  reveal), and where the settlement's `reveal` says `ready_hand`, a revealed seat whose hand
  is not ready (scored with the seats revealed) is refused: `HandError` `forbidden_event`,
  pointing at that hand. A kong that follows a kong (杠上杠, its `chain` place) earns
  2^(chain-1) times its money where the settlement says `kong_chain_doubling`; 亮倒 never
  changes kong money.
- 跟庄 (天津 铲, a `follow_dealer` event): after everything else, whether the round was won or
  drawn, the dealer pays each other player the `follow_dealer` amount (with the seat factor).

Every transfer names its reason and the index of its event; the nets are the sums of the
transfers, so they always sum to zero.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.domain.errors import Code, HandError
from app.domain.events import (
    ADDED,
    CONCEALED,
    DIRECT,
    SPECIAL,
    DrawEvent,
    DrawHand,
    FollowDealerEvent,
    KongEvent,
    RevealEvent,
    Round,
    WinEvent,
)
from app.domain.hand import DISCARD, KONG_AFTER_DISCARD, KONG_ROBBED, SELF_DRAW, WinContext
from app.rules.choices import resolve
from app.rules.model import RuleSet
from app.rules.payments import pay, seat_factor
from app.rules.settlement import (
    BEST_VALUE,
    DISCARDER,
    FIRST_REVEALED,
    GOLDEN,
    OFF,
    REFUND,
    TRANSFER,
    KongMoney,
    SettlementDef,
)
from app.scoring.evaluate import score
from app.scoring.matches import RoundWins
from app.scoring.result import (
    DrawPlayer,
    DrawSummary,
    SettleResult,
    SettleTransfer,
    WinSummary,
)
from app.scoring.waits import waits

# Transfer reasons (stable: clients switch on them).
KONG_REASONS = {DIRECT: "direct_kong", ADDED: "added_kong", CONCEALED: "concealed_kong",
                GOLDEN: "golden_kong", SPECIAL: "special_kong"}
KONG_VOID = "kong_void"
DRAWN_GAME_REFUND = "drawn_game_refund"
FOLLOW_DEALER = "follow_dealer"
KONG_REFUND = "kong_refund"
KONG_TRANSFER = "kong_transfer"  # 呼叫转移
WIN_DISCARD = "win_discard"
WIN_SELF_DRAW = "win_self_draw"
PIG_PENALTY = "pig_penalty"
NOT_READY = "not_ready"
TAX_REFUND = "tax_refund"
REVEALED_DRAW = "revealed_draw"

# A player's state at a draw.
READY = "ready"
NOT_READY_STATE = "not_ready"
PIG = "pig"
PASSIVE_PIG = "passive_pig"


@dataclass
class _Kong:
    """A kong's money still held by its maker: (payer, amount) not yet returned."""

    seat: int
    held: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class _State:
    rs: RuleSet
    sd: SettlementDef
    options: Mapping[str, Any]
    base: int
    active: list[int]  # seats still in the round, in seat order
    rnd: Round
    params: dict[str, Any]  # the payment's parameters, resolved with the round's options
    transfers: list[SettleTransfer] = field(default_factory=list)
    kongs: dict[int, _Kong] = field(default_factory=dict)  # by event index
    revealed: list[int] = field(default_factory=list)  # 亮倒, in the order of the reveals

    def factor(self, payer: int, payee: int) -> int:
        """The seat factor on money between two seats (1 unless the rule set applies the
        payment scheme's: 坐庄 / 拉庄)."""
        if not self.sd.seat_factors:
            return 1
        return seat_factor(self.rs.payment.scheme, self.params, payer, payee, self.rnd.dealer)

    def move(self, payer: int, payee: int, amount: int, reason: str, event: int) -> None:
        if amount > 0:
            self.transfers.append(SettleTransfer(payer, payee, amount, reason, event))

    def give_back(self, kong: _Kong, reason: str, event: int,
                  to: frozenset[int] | None = None) -> None:
        """The kong's maker returns what it holds (to the payers in `to`, or to all)."""
        kept = []
        for payer, amount in kong.held:
            if to is None or payer in to:
                self.move(kong.seat, payer, amount, reason, event)
            else:
                kept.append((payer, amount))
        kong.held = kept


def settle(rnd: Round, rs: RuleSet) -> SettleResult:
    """The money of a validated round under the rule set's settlement data."""
    sd = rs.settlement
    if sd is None:
        raise HandError(Code.SETTLE_NOT_SUPPORTED,
                        f"rule set {rs.id} settles single hands only", "")
    probe = WinContext(win_type=DISCARD, options=dict(rnd.options))
    params = rs.payment.params.resolve(probe.options)
    st = _State(rs=rs, sd=sd, options=rnd.options, base=int(params["base"]),
                active=list(range(rs.players)), rnd=rnd, params=params)
    wins: list[WinSummary] = []
    draw: DrawSummary | None = None
    followed: int | None = None
    for i, event in enumerate(rnd.events):
        if isinstance(event, KongEvent):
            _kong(st, i, event)
        elif isinstance(event, WinEvent):
            wins.append(_win(st, i, event))
        elif isinstance(event, FollowDealerEvent):
            followed = i  # paid after the normal settlement
        elif isinstance(event, RevealEvent):
            st.revealed.append(event.seat)  # each win's context already says it
        else:
            draw = _draw(st, i, event)
    if followed is not None and sd.follow_dealer is not None:
        # 铲: the dealer pays each other player, won or drawn, with the seat factor.
        amount = int(resolve(sd.follow_dealer.amount, st.options)) * st.base
        dealer = rnd.dealer
        for seat in range(rs.players):
            if seat != dealer:
                st.move(dealer, seat, amount * st.factor(dealer, seat), FOLLOW_DEALER,
                        followed)
    net = [0] * rs.players
    for t in st.transfers:
        net[t.payer] -= t.amount
        net[t.payee] += t.amount
    return SettleResult(rs.id, rnd.finished, tuple(net), tuple(st.transfers), tuple(wins), draw)


def _kong_money(st: _State, event: KongEvent) -> tuple[KongMoney | None, str]:
    """The money entry a kong is paid by, and its transfer reason: a 金杠 (a concealed kong
    of wild tiles) by `golden` unless that is off, any other kong by its kind."""
    golden = st.sd.kongs.get(GOLDEN)
    if (event.kind == CONCEALED and golden is not None and event.tile in st.rnd.wilds
            and resolve(golden.amount, st.options) != OFF):
        return golden, KONG_REASONS[GOLDEN]
    return st.sd.kongs.get(event.kind), KONG_REASONS[event.kind]


def _kong(st: _State, i: int, event: KongEvent) -> None:
    kong = st.kongs[i] = _Kong(event.seat)
    if event.kind == SPECIAL:
        _special_kong(st, i, event, kong)
        return
    money, reason = _kong_money(st, event)
    if money is None:
        return
    if event.kind == ADDED and resolve(money.only_if_fresh, st.options) and not event.fresh:
        return  # 及时雨: an added tile held earlier earns nothing
    amount = int(resolve(money.amount, st.options)) * st.base
    special = st.sd.kong_tiles
    if (special is not None and st.rs.tileset.code(event.tile) in special.tiles
            and resolve(special.enabled, st.options)):
        amount *= special.factor  # 长春: kongs of 1筒, 1条 and the dragons double
    if st.sd.kong_chain_doubling:
        amount <<= event.chain - 1  # 杠上杠: the n-th kong of a chain earns 2^(n-1) times
    if money.payer == DISCARDER:
        assert event.discarder is not None
        payers = [event.discarder]
    else:
        payers = [s for s in st.active if s != event.seat]
    for payer in payers:
        paid = amount * st.factor(payer, event.seat)
        st.move(payer, event.seat, paid, reason, i)
        if paid > 0:
            kong.held.append((payer, paid))


def _special_kong(st: _State, i: int, event: KongEvent, kong: _Kong) -> None:
    """幺九杠, 旋风杠, 喜杠: each other player still in the round pays the settlement's amount
    (with the seat factor, and the chain's doubling where chains double)."""
    special = st.sd.special_kongs
    assert special is not None  # the builder refuses a special kong elsewhere
    amount = int(resolve(special.amount, st.options)) * st.base
    if st.sd.kong_chain_doubling:
        amount <<= event.chain - 1
    for payer in st.active:
        if payer != event.seat:
            paid = amount * st.factor(payer, event.seat)
            st.move(payer, event.seat, paid, KONG_REASONS[SPECIAL], i)
            if paid > 0:
                kong.held.append((payer, paid))


def _win(st: _State, i: int, event: WinEvent) -> WinSummary:
    rs = st.rs
    result = score(event.hand, event.context, rs)
    if not result.winning:
        why = f": {result.reason.message} ({result.reason.code})" if result.reason else ""
        raise HandError(Code.NOT_A_WIN, f"events[{i}] (win by seat {event.seat}): the hand is not "
                        f"a legal win under {rs.name} ({rs.id}){why}; a round settles wins only",
                        f"/events/{i}/hand")
    ctx = event.context
    if event.kong_event is not None:
        kong = st.kongs[event.kong_event]
        if ctx.kong == KONG_ROBBED and st.sd.robbed_kong_void:
            st.give_back(kong, KONG_VOID, i)
        elif ctx.kong == KONG_AFTER_DISCARD:
            _after_kong_discard(st, i, event, kong)
    why_paid = WIN_SELF_DRAW if ctx.self_drawn else WIN_DISCARD
    # Where a win ends the round nobody drops out before it: a second win on the same discard
    # (一炮多响) is paid as if it were alone (包胡 counts the first winner among the others).
    payers = list(range(rs.players)) if st.sd.win_ends_round else st.active
    payments = pay(rs.payment.scheme, rs.payment.params, result.fan_total, ctx,
                   rs.players, payers=payers,
                   fans=tuple((f.id, f.count) for f in result.fans))
    for t in payments.transfers:
        st.move(t.payer, t.payee, t.amount, why_paid, i)
    st.active.remove(event.seat)
    return WinSummary(i, event.seat, result.fans, result.fan_total, result.value,
                      result.multiplier, result.decomposition)


def _after_kong_discard(st: _State, i: int, event: WinEvent, kong: _Kong) -> None:
    """杠上炮: the kong's money under the settlement's mode. `refund` returns it to its payers
    (the winner included); `transfer` (呼叫转移) has the maker pass all it still holds of it to
    the winner, that is to the first winner on that discard in turn order after the discarder;
    `keep` leaves it with the maker."""
    mode = resolve(st.sd.kong_discard_money, st.options)
    if mode == REFUND:
        st.give_back(kong, KONG_REFUND, i)
    elif mode == TRANSFER and event.seat == _first_winner_on(st, event):
        st.move(kong.seat, event.seat, sum(amount for _, amount in kong.held), KONG_TRANSFER, i)
        kong.held = []


def _first_winner_on(st: _State, event: WinEvent) -> int:
    """一炮多响 on a 杠上炮: of the seats that win the kong maker's discard (the win events
    after that kong), the first in turn order after the discarder (seat discarder + 1 plays
    next), whatever the order the events list them in."""
    discarder = event.context.discarder
    assert discarder is not None
    seats = [e.seat for e in st.rnd.events if isinstance(e, WinEvent)
             and e.kong_event == event.kong_event and e.context.kong == KONG_AFTER_DISCARD]
    return min(seats, key=lambda seat: (seat - discarder) % st.rs.players)


def _draw(st: _State, i: int, event: DrawEvent) -> DrawSummary:
    dg = st.sd.drawn_game
    players = tuple(_state_of(st, hand, event) for hand in event.hands)
    if st.sd.reveal_ready_hand:
        _revealed_are_ready(st, i, event, players)
    state = {p.seat: p for p in players}
    pigs = [p.seat for p in players if p.state == PIG]
    ready = [p for p in players if p.state == READY]
    # 1. 查花猪
    penalty = int(resolve(dg.pig_penalty, st.options)) * st.base
    for pig in pigs:
        for other in st.active:
            if other not in pigs:
                st.move(pig, other, penalty, PIG_PENALTY, i)
    # 2. 查大叫
    not_ready = [p.seat for p in players if p.state in (NOT_READY_STATE, PASSIVE_PIG)
                 or (p.state == PIG and dg.pig_counts_as_not_ready)]
    if dg.not_ready_pays == BEST_VALUE:
        for r in ready:
            assert r.best is not None and r.best.value is not None
            for payer in not_ready:
                st.move(payer, r.seat, r.best.value, NOT_READY, i)
    # 3. 退税: only among the players still in the round.
    if dg.refund_kongs:
        still_in = frozenset(st.active)
        for kong in st.kongs.values():
            if kong.seat in state and state[kong.seat].state != READY:
                st.give_back(kong, TAX_REFUND, i, to=still_in)
    # 4. 亮倒 at a drawn game: revealed players pay each player still in who has not revealed.
    rp = dg.revealed_pay
    if rp is not None:
        payers = st.revealed
        if resolve(rp.payers, st.options) == FIRST_REVEALED:
            payers = payers[:1]
        amount = int(resolve(rp.amount, st.options)) * st.base
        for payer in payers:
            for seat in st.active:
                if seat not in st.revealed:
                    st.move(payer, seat, amount, REVEALED_DRAW, i)
    # 5. 荒庄荒杠: where kong money does not stand on a drawn game, it all goes back.
    if not resolve(dg.kongs_stand, st.options):
        for kong in st.kongs.values():
            st.give_back(kong, DRAWN_GAME_REFUND, i)
    return DrawSummary(i, players)


def _revealed_are_ready(st: _State, i: int, event: DrawEvent,
                        players: tuple[DrawPlayer, ...]) -> None:
    """亮倒 shows a ready hand (and the hand can no longer change): a revealed seat that shows a
    hand that is not ready at the drawn game cannot have revealed it."""
    for hand, player in zip(event.hands, players, strict=True):
        if hand.seat in st.revealed and player.state != READY:
            order = st.revealed.index(hand.seat) + 1
            raise HandError(Code.FORBIDDEN_EVENT, f"events[{i}] (draw), seat {hand.seat}: the seat "
                            f"revealed its hand (亮倒, the reveal number {order} of the round), "
                            "and a revealed hand is ready, but this one completes with no tile; "
                            "show the hand it revealed", f"/events/{i}/hands/{hand.entry}/hand")


def _state_of(st: _State, hand: DrawHand, event: DrawEvent) -> DrawPlayer:
    dg = st.sd.drawn_game
    rs = st.rs
    if dg.is_pig(hand.standing, hand.melds, rs.tileset, st.options, hand.seat):
        return DrawPlayer(hand.seat, PASSIVE_PIG if hand.passive_pig else PIG, None)
    # A neutral win: on a discard (from another player still in), no kong, not the last tile,
    # so that only the hand's own fans count; or, where the rule set says so (self-draw only
    # games), a self-draw. The round's dealer and wild tiles hold, and who has revealed (亮倒:
    # a revealed hand may win where another may not).
    rnd = st.rnd
    options = dict(st.options)
    if st.sd.reveal_option is not None:
        options[st.sd.reveal_option] = [int(s in st.revealed) for s in range(rs.players)]
    if dg.ready_as == SELF_DRAW:
        ctx = WinContext(win_type=SELF_DRAW, winner=hand.seat, dealer=rnd.dealer,
                         wild_indicator=rnd.wild_indicator, wilds=rnd.wilds,
                         options=options)
    else:
        others = [h.seat for h in event.hands if h.seat != hand.seat]
        ctx = WinContext(win_type=DISCARD, winner=hand.seat, discarder=others[0],
                         dealer=rnd.dealer, wild_indicator=rnd.wild_indicator,
                         wilds=rnd.wilds, options=options)
    best = waits(hand.standing, hand.melds, ctx, rs).best
    return DrawPlayer(hand.seat, READY if best is not None else NOT_READY_STATE, best)


def round_wins(rnd: Round, players: int) -> RoundWins:
    """Who won the round first: the first win's winner, or its winners when several won that
    discard (一炮多响: wins in a row on one seat's discard of one tile, as the settlement
    reads them), in turn order from the discarder; the discarder of the round's first such
    win; and the seats that made a kong."""
    groups: list[tuple[tuple[int, int] | None, list[int]]] = []
    last = -2
    for i, event in enumerate(rnd.events):
        if not isinstance(event, WinEvent):
            continue
        ctx = event.context
        discard = ((ctx.discarder, event.hand.win_tile) if ctx.discarder is not None
                   else None)
        if groups and discard is not None and groups[-1][0] == discard and i == last + 1:
            groups[-1][1].append(event.seat)
        else:
            groups.append((discard, [event.seat]))
        last = i
    kongs = frozenset(e.seat for e in rnd.events if isinstance(e, KongEvent))
    if not groups:
        return RoundWins((), None, None, kongs)
    discard, first = groups[0]
    discarder = None if discard is None else discard[0]
    if discarder is not None:
        first = sorted(first, key=lambda s: (s - discarder) % players)
    several = next((d[0] for d, seats in groups if d is not None and len(seats) > 1), None)
    return RoundWins(tuple(first), discarder, several, kongs)
