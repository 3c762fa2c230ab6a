"""Reading a settle request into a `Round`: its events, checked to be a round that can happen.

`read_settle_request` is the whole path from a decoded JSON body: the request schema
(`app.service.tiles.settle_schemas`; its refusal is `invalid_request`), then `build_round`,
which trusts the schema's output and checks what it cannot: the seats, each hand (as a score
request's, the pointer moved into its event) and that the sequence of events can happen. The
first problem found is raised as a `HandError` whose pointer names the event and whose
message starts with it. The events, the round's dealer and wild tiles, and every code a round
may be refused with are the API's: docs/api.md, "Settle".

Whether a win's hand is a legal win, or a hand at the draw ready, is the scorer's question
(`app.scoring.rounds`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.domain.errors import Code, HandError
from app.domain.events import (
    ADDED,
    CONCEALED,
    DIRECT,
    FOLLOW_DEALER,
    FOLLOWS_DISCARD,
    FOLLOWS_REPLACEMENT,
    REVEAL,
    SPECIAL,
    DrawEvent,
    DrawHand,
    Event,
    FollowDealerEvent,
    KongEvent,
    RevealEvent,
    Round,
    WinEvent,
)
from app.domain.hand import (
    DISCARD,
    KONG,
    KONG_AFTER_DISCARD,
    KONG_REPLACEMENT,
    KONG_ROBBED,
    MAX_MELDS,
    SELF_DRAW,
    Hand,
    Meld,
    WinContext,
)
from app.domain.notation import format_tiles, parse_tile, parse_tiles
from app.rules.choices import resolve
from app.rules.model import RuleSet
from app.service.option_reading import build_options
from app.service.reading import validated
from app.service.tiles.context_reading import build_round_wilds
from app.service.tiles.requests import build, build_waiting
from app.service.tiles.settle_schemas import SETTLE_REQUEST


def read_settle_request(body: Mapping[str, Any], ruleset: RuleSet) -> Round:
    """A decoded settle request body as a `Round`."""
    return build_round(validated(SETTLE_REQUEST, body), ruleset)


def round_hands(round_: Round) -> int:
    """The hands a settled round scores (what the metrics count): each win, and each hand of
    its drawn game."""
    return sum(1 if isinstance(event, WinEvent)
               else len(event.hands) if isinstance(event, DrawEvent) else 0
               for event in round_.events)


def build_round(data: Mapping[str, Any], ruleset: RuleSet) -> Round:
    """A schema-valid settle request (``options``, ``dealer``, wild tiles, ``events``) as a
    `Round`."""
    if ruleset.settlement is None:
        raise HandError(
            Code.SETTLE_NOT_SUPPORTED,
            f"rule set {ruleset.id} settles single hands only: it defines no round settlement",
            "",
        )
    dealer = _round_dealer(data.get("dealer"), ruleset.players)
    indicator, wilds = build_round_wilds(data, ruleset)
    revealed_by = ruleset.settlement.reveal_option
    if revealed_by is not None and (data.get("options") or {}).get(revealed_by) is not None:
        raise HandError(Code.INVALID_OPTION, f"options.{revealed_by}: in a round, who has "
                        "revealed (亮倒) is said by reveal events, in the order they happen; "
                        "leave the option out", f"/options/{revealed_by}")
    options = build_options(data.get("options"), ruleset, "/options", dealer=dealer,
                            dealer_field="dealer")
    raw_events = data["events"]
    builder = _Builder(ruleset, options, dealer,
                       {k: data[k] for k in ("wild_indicator", "wilds") if data.get(k)},
                       indicator, wilds)
    for i, raw in enumerate(raw_events):
        builder.add(i, raw)
    return Round(options=options, events=tuple(builder.events),
                 robbed=frozenset(builder.robbed), finished=builder.over is not None,
                 dealer=dealer, wild_indicator=indicator, wilds=wilds)


def _round_dealer(value: int | None, players: int) -> int:
    """The round's ``dealer``: a seat, default 0."""
    if value is None:
        return 0
    if not 0 <= value < players:
        raise HandError(Code.SEAT_OUT_OF_RANGE, f"dealer is {value}, but seats of this rule set "
                        f"are 0..{players - 1}", "/dealer")
    return value


class _Builder:
    """The sequence so far: who has won, the kongs, every hand shown, the tiles they hold."""

    def __init__(self, ruleset: RuleSet, options: dict[str, Any], dealer: int,
                 wild_fields: dict[str, Any], indicator: int | None,
                 wilds: tuple[int, ...]) -> None:
        self.rs = ruleset
        self.options = options
        self.dealer = dealer
        # The round's wild tiles, as given (for the hands' contexts) and as read.
        self.wild_fields = wild_fields
        self.indicator = indicator
        self.wilds = wilds
        self.followed: int | None = None  # the index of the follow_dealer event
        # 亮倒: the settlement's per-seat option for it, and the seats revealed (in order).
        settlement = ruleset.settlement
        self.reveal_option = settlement.reveal_option if settlement is not None else None
        self.chains_pay = settlement is not None and settlement.kong_chain_doubling
        self.revealed: dict[int, int] = {}  # seat -> the index of its reveal event
        # Where a win ended the round on a discard: (discarder, tile), which other players may
        # still win on (一炮多响).
        self.end_discard: tuple[int | None, int] | None = None
        self.players = ruleset.players
        self.events: list[Event] = []
        self.won: list[int] = []  # in the order they won
        self.kongs: dict[int, KongEvent] = {}  # by event index
        self.special: dict[int, KongEvent] = {}  # special kongs (no meld), by event index
        self.kong_of_tile: dict[int, int] = {}  # tile -> the event index of its kong
        self.robbed: set[int] = set()
        # The last hand each seat showed (its win or its draw hand), as tile counts.
        self.shown: dict[int, list[int]] = {}
        # Copies counted twice because several players won the same discarded tile.
        self.shared = [0] * len(ruleset.tileset.kinds)
        self.over: str | None = None

    # -- events ---------------------------------------------------------------------------

    def add(self, i: int, raw: Mapping[str, Any]) -> None:
        at = f"/events/{i}"
        kind = raw["type"]
        if self.over is not None and not (kind == "win" and self.end_discard is not None):
            raise HandError(Code.ROUND_OVER, f"events[{i}] ({kind}): the round is already over "
                            f"({self.over}); nothing can follow", at)
        if kind == "kong":
            self.events.append(self._kong(i, raw))
        elif kind == "win":
            self.events.append(self._win(i, raw))
        elif kind == FOLLOW_DEALER:
            self.events.append(self._follow(i))
        elif kind == REVEAL:
            self.events.append(self._reveal(i, raw))
        else:
            self.events.append(self._draw(i, raw))

    def _kong(self, i: int, raw: Mapping[str, Any]) -> KongEvent:
        at = f"/events/{i}"
        seat = self._seat(raw, "seat", at, f"events[{i}] (kong)")
        what = f"events[{i}] (kong by seat {seat})"
        self._not_won(seat, "seat", at, what, "cannot declare a kong")
        kind = raw["kind"]
        what = f"events[{i}] ({kind} kong by seat {seat})"
        if kind == SPECIAL:
            return self._special_kong(i, seat, raw["tiles"], what)
        try:
            tile = parse_tile(raw["tile"], self.rs.tileset, "/tile")
        except HandError as exc:
            raise _within(exc, at, what, "") from None
        tileset = self.rs.tileset
        if tileset.kinds[tile].is_flower:
            raise HandError(Code.FLOWER_IN_HAND, f"{what}: {tileset.code(tile)} is a flower, and "
                            "flowers are never konged", f"{at}/tile")
        # The schema gives a direct kong its discarder and an added kong its freshness.
        discarder: int | None = None
        if kind == DIRECT:
            discarder = self._seat(raw, "discarder", at, what)
            if discarder == seat:
                raise HandError(Code.INCONSISTENT_EVENT, f"{what}: the discarder is the kong's "
                                "own seat; a direct kong (点杠) is made on another player's "
                                "discard", f"{at}/discarder")
            self._not_won(discarder, "discarder", at, what, "cannot discard")
        fresh = bool(raw.get("fresh"))
        if kind == ADDED and not fresh:
            self._stale_added_kong(at, what)
        follows = raw.get("follows")
        chain = self._chain(follows, kind, seat, discarder, at, what)
        if sum(1 for k in self.kongs.values() if k.seat == seat) >= MAX_MELDS:
            raise HandError(Code.INCONSISTENT_EVENT, f"{what}: seat {seat} has already made "
                            f"{MAX_MELDS} kongs, and a hand holds at most {MAX_MELDS} melds",
                            f"{at}/tile")
        if tile in self.wilds:
            # Wilds are never claimed or melded; four of them may be a concealed kong (金杠).
            if kind != CONCEALED:
                raise HandError(Code.ILLEGAL_MELD, f"{what}: {tileset.code(tile)} is a wild tile "
                                "(混) this round: wilds are never claimed or melded, four of "
                                "them may only be a concealed kong (金杠)", f"{at}/kind")
        if tile == self.indicator and self.rs.wild is not None \
                and self.rs.wild.indicator_out_of_play:
            raise HandError(
                Code.TOO_MANY_COPIES,
                f"{what}: one {tileset.code(tile)} is the flipped "
                "wild indicator, out of play, so nobody holds four", f"{at}/tile")
        earlier = self.kong_of_tile.get(tile)
        if earlier is not None:
            raise HandError(
                Code.TOO_MANY_COPIES,
                f"{what}: {tileset.code(tile)} was already konged "
                f"in events[{earlier}]; there are only {tileset.kinds[tile].copies}",
                f"{at}/tile")
        event = KongEvent(seat=seat, kind=kind, tile=tile, discarder=discarder,
                          fresh=fresh if kind == ADDED else False, follows=follows, chain=chain)
        self.kongs[i] = event
        self.kong_of_tile[tile] = i
        self._check_copies(f"{at}/tile", what, (tile,))
        return event

    def _special_kong(self, i: int, seat: int, text: str, what: str) -> KongEvent:
        """A kong of three different tiles (长春 幺九杠, 旋风杠, 喜杠), as the settlement's
        `special_kongs` define them; its tiles leave the hand, which declares no meld for it."""
        at = f"/events/{i}"
        special = self.rs.settlement.special_kongs if self.rs.settlement else None
        if special is None:
            raise HandError(Code.INVALID_FIELD, f"{what}: rule set {self.rs.id} has no special "
                            "kongs (its settlement defines none)", f"{at}/kind")
        tileset = self.rs.tileset
        try:
            tiles = parse_tiles(text, tileset, pointer="/tiles")
        except HandError as exc:
            raise _within(exc, at, what, "") from None
        codes = [tileset.code(t) for t in tiles]
        name = special.named(codes)
        if name is None or any(t in self.wilds for t in tiles):
            sets = ", ".join(f"{s.name} of {''.join(s.of)}" for s in special.sets)
            also = f", or two and {special.stand_in} for the third" if special.stand_in else ""
            raise HandError(Code.ILLEGAL_MELD, f"{what}: {''.join(codes)} makes no special kong "
                            f"of {self.rs.name} ({self.rs.id}): each is three different tiles "
                            f"of its set{also} ({sets})", f"{at}/tiles")
        event = KongEvent(seat=seat, kind=SPECIAL, tile=tiles[0], tiles=tuple(tiles))
        self.special[i] = event
        self._check_copies(f"{at}/tiles", what, tiles)
        return event

    def _stale_added_kong(self, at: str, what: str) -> None:
        """An added kong of a tile held earlier, where the rule set's added kong must be made
        with the tile just drawn ("必须当时就杠，否则，不能再杠"): no kong at all."""
        money = self.rs.settlement.kongs.get(ADDED) if self.rs.settlement else None
        if money is not None and resolve(money.must_be_fresh, self.options):
            raise HandError(Code.FORBIDDEN_EVENT, f"{what}: fresh is false, but under "
                            f"{self.rs.name} ({self.rs.id}) a tile can be added to a pung only "
                            "as it is drawn; one held earlier can no longer be konged",
                            f"{at}/fresh")

    def _win(self, i: int, raw: Mapping[str, Any]) -> WinEvent:
        at = f"/events/{i}"
        seat = self._seat(raw, "seat", at, f"events[{i}] (win)")
        what = f"events[{i}] (win by seat {seat})"
        self._not_won(seat, "seat", at, what, "cannot win again")
        context = raw["context"]
        merged = self._win_context(seat, context, at, what)
        try:
            hand, ctx = build(raw["hand"], merged, self.rs)
        except HandError as exc:
            raise _within(exc, at, what, "/context/options") from None
        if (ctx.wild_indicator, ctx.wilds) != (self.indicator, self.wilds):
            field = "wild_indicator" if context.get("wild_indicator") else "wilds"
            raise HandError(Code.INCONSISTENT_EVENT, f"{what}: context.{field} makes other tiles "
                            "wild than the round's (the request's wild_indicator or wilds); a "
                            "round has one flipped tile: omit it here or give the same one",
                            f"{at}/context/{field}")
        self._check_win_after_end(hand, ctx, at, what)
        if ctx.discarder is not None:
            self._not_won(ctx.discarder, "context/discarder", at, what, "cannot discard")
        kong_event = self._kong_link(i, seat, hand, ctx, what)
        self._check_kongs(seat, hand.concealed, hand.melds, f"{at}/hand", what)
        self._share_win_tile(hand, ctx, kong_event)
        shown = self.shown[seat] = self._counts(hand.concealed, hand.melds)
        self._check_copies(f"{at}/hand", what, [t for t, n in enumerate(shown) if n])
        self.won.append(seat)
        self._end_by_win(i, seat, hand, ctx)
        return WinEvent(seat=seat, hand=hand, context=ctx, kong_event=kong_event)

    def _win_context(self, seat: int, context: Mapping[str, Any], at: str, what: str
                     ) -> dict[str, Any]:
        """A win's context as the hand is built with it: the event's seat the winner, the
        round's options (and reveals), dealer and wild tiles where the context gives none."""
        # The schema has refused context.winner and context.options here: the event's seat
        # is the winner, and the options are the round's.
        given = context.get("dealer")
        if given is not None and given != self.dealer:
            raise HandError(Code.INCONSISTENT_EVENT, f"{what}: context.dealer is {given}, but the "
                            f"round's dealer is seat {self.dealer} (the request's dealer); a "
                            "round has one dealer: omit context.dealer or give the same seat",
                            f"{at}/context/dealer")
        options = self.options
        if self.reveal_option is not None:
            # 亮倒: who has revealed by now, as the rule set's per-seat option.
            options = {**options, self.reveal_option: [
                1 if s in self.revealed else 0 for s in range(self.players)]}
        merged = {**context, "winner": seat, "options": options}
        if merged.get("dealer") is None:
            merged["dealer"] = self.dealer
        if not context.get("wild_indicator") and not context.get("wilds"):
            merged.update(self.wild_fields)
        return merged

    def _check_win_after_end(self, hand: Hand, ctx: WinContext, at: str, what: str) -> None:
        """A win after the round is over: only another win on the discard that ended it."""
        if self.over is None:
            return
        # Only another win on the discard that ended the round (一炮多响) may follow it.
        if ctx.win_type != DISCARD or (ctx.discarder, hand.win_tile) != self.end_discard:
            raise HandError(Code.ROUND_OVER, f"{what}: the round is already over "
                            f"({self.over}); only another win on the same discard "
                            "(一炮多响) can follow", at)
        if self.rs.settlement is not None and self.rs.settlement.one_winner:
            raise HandError(Code.FORBIDDEN_EVENT, f"{what}: {self.over}; under "
                            f"{self.rs.name} ({self.rs.id}) a hand has one winner (截和): "
                            "of several claims on one discard only the one nearest the "
                            "discarder's turn wins; settle that win alone", f"{at}/seat")

    def _share_win_tile(self, hand: Hand, ctx: WinContext, kong_event: int | None) -> None:
        """A tile won by several players (a robbed kong's, 一炮多响's discard) is one tile."""
        _, previous = self._last()
        if ctx.kong == KONG_ROBBED and kong_event is not None:
            self.robbed.add(kong_event)
            if isinstance(previous, WinEvent):  # a second player robbing the same tile
                self.shared[hand.win_tile] += 1
        elif (ctx.win_type == DISCARD and isinstance(previous, WinEvent)
              and previous.context.win_type == DISCARD
              and previous.context.discarder == ctx.discarder
              and previous.hand.win_tile == hand.win_tile):
            # 一炮多响: the same discarded tile, won by several players, is one tile.
            self.shared[hand.win_tile] += 1

    def _end_by_win(self, i: int, seat: int, hand: Hand, ctx: WinContext) -> None:
        """Whether the win ends the round: every seat but one has won, or the rule set ends it
        at a win (then only another win on the same discard may follow)."""
        if len(self.won) == self.players - 1:
            self.over = f"every seat but one has won by events[{i}]"
            self.end_discard = None
        elif self.rs.settlement is not None and self.rs.settlement.win_ends_round:
            if self.over is None:
                self.over = f"seat {seat} won in events[{i}], and a win ends the round here"
                self.end_discard = ((ctx.discarder, hand.win_tile) if ctx.win_type == DISCARD
                                    else None)

    def _last(self) -> tuple[int, Event | None]:
        """The latest event that is not a reveal, with its index (a reveal separates nothing:
        a discard and a claim on it may have one between them)."""
        for j in range(len(self.events) - 1, -1, -1):
            if not isinstance(self.events[j], RevealEvent):
                return j, self.events[j]
        return -1, None

    def _chain(self, follows: str | None, kind: str, seat: int, discarder: int | None,
               at: str, what: str) -> int:
        """杠上杠: the place of a kong in its chain, checked against the kong it follows."""
        if follows is None:
            return 1
        j, previous = self._last()
        if not isinstance(previous, KongEvent):
            raise HandError(Code.INCONSISTENT_EVENT, f"{what}: follows {follows}, but the event "
                            "before it is not a kong", f"{at}/follows")
        if follows == FOLLOWS_DISCARD and (kind != DIRECT or discarder != previous.seat):
            raise HandError(Code.INCONSISTENT_EVENT, f"{what}: a kong on the discard after a "
                            f"kong (follows {FOLLOWS_DISCARD}) is a direct kong on the discard of "
                            f"seat {previous.seat}, who made the kong of events[{j}]",
                            f"{at}/follows")
        if follows == FOLLOWS_REPLACEMENT and (kind == DIRECT or seat != previous.seat):
            raise HandError(Code.INCONSISTENT_EVENT, f"{what}: a kong straight after the "
                            f"replacement draw (follows {FOLLOWS_REPLACEMENT}) is an added or "
                            f"concealed kong by seat {previous.seat}, who made the kong of "
                            f"events[{j}]", f"{at}/follows")
        return previous.chain + 1

    def _reveal(self, i: int, raw: Mapping[str, Any]) -> RevealEvent:
        at = f"/events/{i}"
        if self.reveal_option is None:
            raise HandError(Code.INVALID_FIELD, f"events[{i}] (reveal): rule set {self.rs.id} "
                            "has no 亮倒 (its settlement reads no reveal events)", f"{at}/type")
        seat = self._seat(raw, "seat", at, f"events[{i}] (reveal)")
        what = f"events[{i}] (reveal by seat {seat})"
        self._not_won(seat, "seat", at, what, "cannot reveal")
        if seat in self.revealed:
            raise HandError(Code.INCONSISTENT_EVENT, f"{what}: seat {seat} already revealed its "
                            f"hand in events[{self.revealed[seat]}]; a hand is revealed once",
                            f"{at}/seat")
        self.revealed[seat] = i
        return RevealEvent(seat)

    def _follow(self, i: int) -> FollowDealerEvent:
        at = f"/events/{i}"
        what = f"events[{i}] ({FOLLOW_DEALER})"
        if self.rs.settlement is None or self.rs.settlement.follow_dealer is None:
            raise HandError(Code.INVALID_FIELD, f"{what}: rule set {self.rs.id} does not settle "
                            "跟庄 (its settlement has no follow_dealer)", f"{at}/type")
        if self.followed is not None:
            raise HandError(Code.INCONSISTENT_EVENT, f"{what}: the dealer's first discard was "
                            f"already followed in events[{self.followed}]; it happens once",
                            f"{at}/type")
        if self.won:
            raise HandError(Code.INCONSISTENT_EVENT, f"{what}: following the dealer's first "
                            "discard happens in the first go-round, before any win", f"{at}/type")
        self.followed = i
        return FollowDealerEvent()

    def _kong_link(self, i: int, seat: int, hand: Hand, ctx: WinContext,
                   what: str) -> int | None:
        """The kong a 杠上开花, 杠上炮 or 抢杠 win belongs to; the flag must fit the sequence."""
        ptr = f"/events/{i}/context/kong"
        j, previous = self._last()
        tileset = self.rs.tileset
        if ctx.kong == KONG_REPLACEMENT:
            if isinstance(previous, KongEvent) and previous.seat == seat:
                return j
            raise HandError(
                Code.INCONSISTENT_EVENT,
                f"{what}: 杠上开花 (kong: replacement) wins on the replacement tile after the "
                "winner's own kong, so the event before it must be a kong by the same seat",
                ptr)
        if ctx.kong == KONG_AFTER_DISCARD:
            if isinstance(previous, KongEvent) and previous.seat == ctx.discarder:
                return j
            if (isinstance(previous, WinEvent) and previous.context.kong == KONG_AFTER_DISCARD
                    and previous.context.discarder == ctx.discarder):
                return previous.kong_event
            raise HandError(Code.INCONSISTENT_EVENT, f"{what}: 杠上炮 (kong: after_kong_discard) "
                            f"wins on the discard seat {ctx.discarder} makes right after a kong, "
                            "so the event before it must be that seat's kong (or another win on "
                            "the same discard)", ptr)
        if ctx.kong == KONG_ROBBED:
            if (isinstance(previous, KongEvent) and previous.kind == ADDED
                    and previous.seat == ctx.discarder and previous.tile == hand.win_tile):
                if self.chains_pay and previous.follows is not None:
                    raise HandError(Code.INCONSISTENT_EVENT, f"{what}: the added kong of "
                                    f"events[{j}] follows a kong (杠上杠), and a kong of a chain "
                                    "cannot be robbed here", ptr)
                return j
            if (isinstance(previous, WinEvent) and previous.context.kong == KONG_ROBBED
                    and previous.context.discarder == ctx.discarder
                    and previous.hand.win_tile == hand.win_tile):
                return previous.kong_event
            raise HandError(
                Code.INCONSISTENT_EVENT,
                f"{what}: 抢杠 (kong: robbed) wins on the tile seat {ctx.discarder} adds to a "
                f"pung, so the event before it must be that seat's added kong of "
                f"{tileset.code(hand.win_tile)}", ptr)
        # No flag: a win right after a kong that it necessarily belongs to must say so (a
        # special kong is no meld of the hand: nothing to say).
        if isinstance(previous, KongEvent) and previous.kind != SPECIAL:
            if ctx.win_type == SELF_DRAW and previous.seat == seat:
                raise HandError(Code.INCONSISTENT_EVENT, f"{what}: a self-draw right after the "
                                "winner's own kong is on the replacement tile: give kong: "
                                "replacement (杠上开花)", ptr)
            if ctx.win_type == DISCARD and previous.seat == ctx.discarder:
                raise HandError(Code.INCONSISTENT_EVENT, f"{what}: a win on seat {ctx.discarder}'s "
                                "discard right after that seat's kong is 杠上炮: give kong: "
                                "after_kong_discard (or robbed, for 抢杠)", ptr)
        return None

    def _draw(self, i: int, raw: Mapping[str, Any]) -> DrawEvent:
        at = f"/events/{i}"
        what = f"events[{i}] (draw)"
        hands_raw = raw["hands"]
        active = [s for s in range(self.players) if s not in self.won]
        hands: list[DrawHand] = []
        seen: set[int] = set()
        drawn_game = self.rs.settlement.drawn_game if self.rs.settlement else None
        for k, item in enumerate(hands_raw):
            hp = f"{at}/hands/{k}"
            seat = self._seat(item, "seat", hp, what)
            who = f"{what}, seat {seat}"
            self._not_won(seat, "seat", hp, who, "is out of the round and shows no hand")
            if seat in seen:
                raise HandError(Code.WRONG_DRAW_PLAYERS, f"{who}: seat {seat} is listed twice",
                                f"{hp}/seat")
            seen.add(seat)
            try:
                standing, melds, _ = build_waiting(
                    item["hand"], {"win_type": SELF_DRAW, **self.wild_fields}, self.rs)
            except HandError as exc:
                if exc.pointer.startswith("/context"):
                    # The round's wild tiles against this hand (it holds the out-of-play
                    # indicator's kind four times, a meld of wilds): the hand is at fault.
                    exc = HandError(exc.code, exc.message, "/hand", exc.position)
                raise _within(exc, hp, who, "") from None
            passive = bool(item.get("passive_pig"))
            if passive and (drawn_game is None or not drawn_game.is_pig(
                    standing, melds, self.rs.tileset, self.options, seat)):
                raise HandError(Code.INCONSISTENT_EVENT, f"{who}: passive_pig is true, but the "
                                "hand is not a pig (花猪): it holds neither more suits than "
                                "allowed nor its declared void suit", f"{hp}/passive_pig")
            self._check_kongs(seat, standing, melds, f"{hp}/hand", who)
            shown = self.shown[seat] = self._counts(standing, melds)
            self._check_copies(f"{hp}/hand", who, [t for t, n in enumerate(shown) if n])
            hands.append(DrawHand(seat, standing, melds, passive, k))
        missing = [s for s in active if s not in seen]
        if missing:
            raise HandError(
                Code.WRONG_DRAW_PLAYERS,
                f"{what}: the draw must show the hand of every "
                f"seat not yet won ({_seats(active)}); missing: {_seats(missing)}",
                f"{at}/hands")
        self.over = f"the wall ran out at events[{i}]"
        return DrawEvent(tuple(sorted(hands, key=lambda h: h.seat)))

    # -- checks ---------------------------------------------------------------------------

    def _seat(self, raw: Mapping[str, Any], key: str, at: str, what: str) -> int:
        value: int = raw[key]
        if not 0 <= value < self.players:
            raise HandError(Code.SEAT_OUT_OF_RANGE, f"{what}: {key} is {value}, but seats of this "
                            f"rule set are 0..{self.players - 1}", f"{at}/{key}")
        return value

    def _not_won(self, seat: int, key: str, at: str, what: str, cannot: str) -> None:
        if seat in self.won:
            when = self.events.index(next(e for e in self.events
                                          if isinstance(e, WinEvent) and e.seat == seat))
            raise HandError(Code.SEAT_ALREADY_WON, f"{what}: seat {seat} won in events[{when}] and "
                            f"{cannot} (血战到底: a winner is out of the round)", f"{at}/{key}")

    def _check_kongs(self, seat: int, standing: Sequence[int], melds: Sequence[Meld],
                     pointer: str, what: str) -> None:
        tileset = self.rs.tileset
        made = sorted((k.tile, k.kind == CONCEALED) for i, k in self.kongs.items()
                      if k.seat == seat and i not in self.robbed)
        declared = sorted((m.tiles[0], m.concealed) for m in melds if m.kind == KONG)
        if made != declared:
            def say(kongs: list[tuple[int, bool]]) -> str:
                return ", ".join(("{%s}" if c else "[%s]") % format_tiles([t] * 4, tileset)
                                 for t, c in kongs) or "none"
            raise HandError(
                Code.KONG_MISMATCH,
                f"{what}: the hand declares the kongs {say(declared)}"
                f", but seat {seat} made {say(made)} in the events: a hand declares "
                "exactly its seat's kongs (concealed as {5555m}, direct or added as "
                "[5555m]; a robbed kong is void and stays a pung)", pointer)

    def _counts(self, standing: Sequence[int], melds: Sequence[Meld]) -> list[int]:
        counts = [0] * len(self.rs.tileset.kinds)
        for t in standing:
            counts[t] += 1
        for m in melds:
            for t in m.tiles:
                counts[t] += 1
        return counts

    def _check_copies(self, pointer: str, what: str, touched: Iterable[int]) -> None:
        """Across the round: each seat's last shown hand, or else its kongs (a robbed kong
        keeps three), and its special kongs' tiles (never in a hand shown), less the tiles
        several players won from one discard. Only the kinds of `touched`, the tiles the
        event just added, are counted: every other kind held no more copies before it, and was
        checked then."""
        kinds = self.rs.tileset.kinds
        out_of_play = (self.indicator if self.indicator is not None and self.rs.wild is not None
                       and self.rs.wild.indicator_out_of_play else None)
        ordered = sorted(set(touched))
        place = {t: n for n, t in enumerate(ordered)}
        # The flipped copy is out of play.
        totals = [-self.shared[t] + (t == out_of_play) for t in ordered]
        for k in self.special.values():  # laid out, never in a hand shown
            for t in k.tiles:
                if t in place:
                    totals[place[t]] += 1
        for seat in range(self.players):
            shown = self.shown.get(seat)
            if shown is not None:
                for n, t in enumerate(ordered):
                    totals[n] += shown[t]
                continue
            for i, k in self.kongs.items():
                if k.seat == seat and k.tile in place:
                    totals[place[k.tile]] += 3 if i in self.robbed else 4
        for t, total in zip(ordered, totals, strict=True):
            if total > kinds[t].copies:
                raise HandError(Code.TOO_MANY_COPIES, f"{what}: the round now holds {total} "
                                f"copies of {kinds[t].code} across its hands and kongs, but "
                                f"there are only {kinds[t].copies}", pointer)


def _within(exc: HandError, at: str, what: str, moved: str) -> HandError:
    """A hand or context error moved into the event: the pointer under ``at`` (an error in
    the injected options, under ``moved``, points at the request's ``/options``) and the
    message naming the event."""
    if moved and exc.pointer.startswith(moved):
        pointer = "/options" + exc.pointer[len(moved):]
    else:
        pointer = at + exc.pointer
    return HandError(exc.code, f"{what}: {exc.message}", pointer, exc.position)


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(map(str, seats)) or "none"
