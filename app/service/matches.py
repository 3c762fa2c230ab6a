"""A match request answered (`POST /v1/rulesets/{ruleset}/match`): each hand scored through the
operation it is (a win through `score`, a round through `settle`) at the table the match
derives, then the match advanced (`app.scoring.matches`).

1. The body through its schema (`app.service.match_schemas`), the match's options, the rules
   they choose (`app.rules.matches`), and the state to start from: the request's `state`
   (checked against the rules and the players), else the first hand's.
2. Each hand in turn, at the table `app.scoring.matches.table` gives it:
   - a `win`: its request with the table filled in (the dealer's seat, the winds where the
     game has them) and its players made seats; scored by the rule set's family; it must win
     (else `not_a_win`); each player's points are the answer's payments, seat by seat;
   - `claims` on one discard (截和): scored in turn order from the discarder, the first win
     stands, claims before it are false wins, claims after it pass;
   - a `round`: the settle request with the dealer filled in; each player's points are the
     round's net; the first win (and whether several won that discard) says who deals next;
   - `drawn`: nobody won;
   then its false wins (priced by the rules' `false_win`, a hand sent being classified) and
   its penalties (罚分: paid to `to`, else deducted).
3. The answer: every hand (its table, its own answer, each player's net, deductions and
   running total), the standings, the next hand's table (or that the match has ended), and
   the state to post with the next hands.

A hand's own faults are those of its operation, the pointer moved into the hand
(`/hands/2/win/context/discarder`) and the message starting with the hand (`hands[2] (win):`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from app.domain.errors import Code, HandError
from app.domain.hand import WIND_NAMES, WINDS
from app.rules.families import ServedRuleSet
from app.rules.matches import FALSE_WIN_KINDS, MatchRules, Rules
from app.scoring.matches import (
    MatchState,
    Outcome,
    Table,
    advance,
    false_win_cost,
    standings,
    start,
    table,
)
from app.scoring.rounds import (
    DRAWN_GAME_REFUND,
    KONG_REASONS,
    KONG_REFUND,
    KONG_TRANSFER,
    KONG_VOID,
    TAX_REFUND,
)
from app.service.batch import score_body
from app.service.families import service_family, settled_round, settles_rounds
from app.service.match_schemas import MATCH_REQUEST
from app.service.option_reading import build_options
from app.service.problems import ApiError
from app.service.reading import validated
from app.service.schema_fields import as_integer

__all__ = ["match_answer", "match_body"]

Json = dict[str, Any]
KINDS = ("win", "claims", "round", "drawn")


class _Hand:
    """What one hand adds up to while it is played (by player)."""

    def __init__(self, players: int) -> None:
        self.net = [0] * players
        self.deducted = [0] * players

    def pay(self, amounts: Sequence[int]) -> None:
        for p, n in enumerate(amounts):
            self.net[p] += n

    def deduct(self, amounts: Sequence[int]) -> None:
        for p, n in enumerate(amounts):
            self.deducted[p] += n


def match_body(body: Json, rs: ServedRuleSet, explain: bool) -> Json:
    """The match answer to a decoded body (raises the request's error)."""
    return match_answer(body, rs, explain)[0]


def match_answer(body: Json, rs: ServedRuleSet, explain: bool) -> tuple[Json, int]:
    """The match answer to a decoded body, and the hands it scored (the metrics count
    them)."""
    data = validated(MATCH_REQUEST, body)
    definition: MatchRules | None = rs.match
    if definition is None:
        raise ApiError("match_not_supported",
                       f"Rule set {rs.id!r} defines no match rules (no match section).")
    match_options = build_options(data.get("match_options"),
                                  cast(Any, _Named(rs.id, definition)), "/match_options")
    rules = definition.rules(match_options)
    options = data.get("options") or {}
    # Checked once here (each hand's request reads them again, with its own dealer).
    players = _players(rs, options)
    state = _state(data, rules, players)
    answered: list[Json] = []
    scored = 0
    for i, hand in enumerate(data["hands"]):
        if state.ended:
            raise HandError(Code.MATCH_OVER, f"hands[{i}]: the match is over: {_over(rules)}; "
                            "a hand after its end cannot be scored", f"/hands/{i}")
        here = table(rules, players, state)
        play = _Play(rs, rules, players, here, options, explain, i)
        outcome, own, n = play.hand(hand)
        scored += n
        state = advance(rules, players, state, outcome)
        answered.append(_hand_json(here, hand, own, outcome, state, play))
    return _answer(rs, rules, players, state, answered, match_options), scored


class _Named:
    """The match's options as `build_options` reads a rule set's: named after the rule set."""

    def __init__(self, rid: str, definition: MatchRules) -> None:
        self.id = f"{rid} (its match)"
        self.players = definition.players
        self.option_defaults = definition.option_defaults
        self.option_by_name = definition.option_by_name


def _players(rs: ServedRuleSet, options: Mapping[str, Any]) -> int:
    """The players of the match, its options checked (a card game's may set them)."""
    resolved = build_options(options, cast(Any, rs), "/options")
    players_of = getattr(rs, "players_of", None)
    return int(rs.players if players_of is None else players_of(resolved))


def _over(rules: Rules) -> str:
    if rules.hands is not None:
        return f"it is {rules.hands} hands"
    return f"it ends after its {rules.dealerships}th dealership"


def _state(data: Mapping[str, Any], rules: Rules, players: int) -> MatchState:
    """The state to start from: the request's, checked, or the first hand's."""
    given = data.get("state")
    first = data.get("first_dealer")
    if given is None:
        dealer = 0 if first is None else first
        if dealer >= players:
            raise HandError(Code.PLAYER_OUT_OF_RANGE, f"first_dealer is {dealer}, but the "
                            f"players are 0 to {players - 1}", "/first_dealer")
        if rules.seating is not None and dealer != 0:
            raise HandError(Code.INCONSISTENT_DEALER, f"first_dealer is {dealer}, but in this "
                            "game the first dealer is the player at 东位, player 0",
                            "/first_dealer")
        return start(rules, players, dealer)
    if first is not None:
        raise HandError(Code.INVALID_STATE, "first_dealer goes with the first hand only: a "
                        "request with a state continues from its dealer", "/first_dealer")
    return _checked_state(given, rules, players)


def _checked_state(given: Mapping[str, Any], rules: Rules, players: int) -> MatchState:
    def bad(field: str, message: str) -> HandError:
        return HandError(Code.INVALID_STATE, f"state.{field}: {message} (post the state an "
                         "answer gave, unchanged)", f"/state/{field}")

    for field in ("totals", "deducted"):
        if len(given[field]) != players:
            raise bad(field, f"has {len(given[field])} entries, but the match has {players} "
                      "players")
    if any(d < 0 for d in given["deducted"]):
        raise bad("deducted", "a deduction is never negative")
    if given["dealer"] >= players:
        raise bad("dealer", f"is {given['dealer']}, but the players are 0 to {players - 1}")
    if rules.hands is not None and given["hands"] > rules.hands:
        raise bad("hands", f"is {given['hands']}, but the match is {rules.hands} hands")
    if given["dealerships"] > given["hands"] + 1:
        raise bad("dealerships", "is more than the hands played and the next")
    # A match ends exactly when its rules end it (after its last hand, or when the deal
    # would pass past its last dealership): a state saying otherwise would let a 17th 国标
    # hand be scored, or refuse a hand the match still has.
    over = ((rules.hands is not None and given["hands"] >= rules.hands)
            or (rules.dealerships is not None and given["dealerships"] > rules.dealerships))
    if given["ended"] != over:
        raise bad("ended", f"is {str(given['ended']).lower()}, but after "
                  f"{given['hands']} hands and {given['dealerships']} dealerships the match "
                  f"{'has ended' if over else 'goes on'}")
    return MatchState(given["hands"], given["dealer"], given["circle"],
                      given["dealerships"], given["repeat"], tuple(given["totals"]),
                      tuple(given["deducted"]), given["ended"])


class _Play:
    """One hand played at its table."""

    def __init__(self, rs: ServedRuleSet, rules: Rules, players: int, here: Table,
                 options: Mapping[str, Any], explain: bool, index: int) -> None:
        self.rs = rs
        self.rules = rules
        self.players = players
        self.here = here
        self.options = options
        self.explain = explain
        self.index = index
        self.at = f"/hands/{index}"
        self.claims: list[Json] = []
        self.false_wins: list[Json] = []
        self.penalties: list[Json] = []
        self.kind = ""
        self.last_request: Json = {}
        self.round_answer: Json | None = None  # the settle answer of a round hand

    def hand(self, hand: Mapping[str, Any]) -> tuple[Outcome, Json | None, int]:
        kinds = [k for k in KINDS if hand.get(k) is not None]
        if len(kinds) != 1:
            raise HandError(Code.WRONG_HAND_KIND, f"hands[{self.index}]: a hand is exactly one "
                            f"of {', '.join(KINDS)} (got {', '.join(kinds) or 'none'})",
                            self.at)
        self.kind = kind = kinds[0]
        expected = hand.get("dealer")
        if expected is not None and expected != self.here.dealer:
            raise self.error(Code.INCONSISTENT_DEALER, f"the dealer is player "
                             f"{self.here.dealer}, not {expected}", "/dealer")
        sums = _Hand(self.players)
        outcome, own, scored = getattr(self, f"_{kind}")(hand[kind], sums)
        for j, false_win in enumerate(hand.get("false_wins") or ()):
            scored += self._false_win(false_win, f"/false_wins/{j}", sums)
            if self.rules.offender_plays_on and self.false_wins[-1]["player"] in outcome.winners:
                raise self.error(Code.INCONSISTENT_CONTEXT, f"player "
                                 f"{self.false_wins[-1]['player']} false-won in this hand, and "
                                 "plays it on without winning it (陪打)",
                                 f"/false_wins/{j}/player")
        for j, penalty in enumerate(hand.get("penalties") or ()):
            self._penalty(penalty, f"/penalties/{j}", sums)
        return outcome._replace(net=tuple(sums.net), deducted=tuple(sums.deducted)), own, scored

    def error(self, code: Code, message: str, pointer: str) -> HandError:
        return HandError(code, f"hands[{self.index}] ({self.kind}): {message}",
                         self.at + pointer)

    def player(self, value: Any, pointer: str) -> int:
        number = as_integer(value)  # as in JSON Schema, 2.0 is the integer 2
        if number is None or not 0 <= number < self.players:
            raise self.error(Code.PLAYER_OUT_OF_RANGE, f"{value!r} is not a player: the "
                             f"players are 0 to {self.players - 1}", pointer)
        return number

    # --- the kinds of hand ------------------------------------------------------------------

    def _win(self, win: Json, sums: _Hand) -> tuple[Outcome, Json, int]:
        answer, winner, discarder = self.scored(win, "/win")
        if not answer.get("winning"):
            raise self.error(Code.NOT_A_WIN, "the hand does not win ("
                             f"{(answer.get('reason') or {}).get('code')}): a false win is "
                             "sent in false_wins", "/win")
        sums.pay(self.by_player(answer["payments"]["net"]))
        return Outcome((), (), (winner,), discarder), answer, 1

    def _claims(self, claims: Json, sums: _Hand) -> tuple[Outcome, Json, int]:
        if not self.rules.one_winner:
            raise self.error(Code.WRONG_HAND_KIND, "in this game a discard may win for "
                             "several players: send the hand as a round", "/claims")
        discarder = self.player(claims["discarder"], "/claims/discarder")
        stood: tuple[Json, int] | None = None
        scored = 0
        for k, claimant in self._claim_order(claims["claims"], discarder):
            at = f"/claims/claims/{k}/win"
            win = claims["claims"][k]["win"]
            if stood is not None:
                self.claims.append({"player": claimant, "outcome": "passed"})
                continue
            answer, winner, _ = self.scored(win, at)
            scored += 1
            if answer.get("winning"):
                stood = (answer, winner)
                self.claims.append({"player": claimant, "outcome": "won"})
                continue
            kind = self.false_kind(answer, at)
            self.claims.append({"player": claimant, "outcome": "false", "kind": kind})
            self.price_false_win(claimant, kind, at, sums)
        if stood is None:
            raise self.error(Code.NO_CLAIM_STANDS, "no claim is a legal win: send the false "
                             "claims in false_wins, with how the hand ended", "/claims")
        answer, winner = stood
        sums.pay(self.by_player(answer["payments"]["net"]))
        return Outcome((), (), (winner,), discarder), answer, scored

    def _claim_order(self, claims: Sequence[Json], discarder: int) -> list[tuple[int, int]]:
        """(index, claimant) of each claim in turn order from the discarder, every claim
        checked to be another player's, once each, on that discard: a claim passed over
        after the one that stands is not scored, but it is a claim of that discard."""
        seen: set[int] = set()
        out = []
        for k, claim in enumerate(claims):
            at = f"/claims/claims/{k}/win/context"
            claimant = self._claimant(claim, k)
            context = claim["win"].get("context")
            context = context if isinstance(context, dict) else {}
            if context.get("win_type") != "discard" or context.get("discarder") != discarder:
                raise self.error(Code.INCONSISTENT_CONTEXT, f"claim {k} is not a win on "
                                 f"player {discarder}'s discard", at + "/discarder")
            if claimant == discarder or claimant in seen:
                raise self.error(Code.INCONSISTENT_CONTEXT, f"claim {k} is player "
                                 f"{claimant}'s, who " + ("discarded the tile"
                                 if claimant == discarder else "has claimed it already"),
                                 at + "/winner")
            seen.add(claimant)
            out.append((k, claimant))
        seats = self.here.seats
        return sorted(out, key=lambda kc: (seats[kc[1]] - seats[discarder]) % self.players)

    def _claimant(self, claim: Json, k: int) -> int:
        context = claim["win"].get("context")
        winner = context.get("winner", 0) if isinstance(context, dict) else 0
        return self.player(winner, f"/claims/claims/{k}/win/context/winner")

    def _round(self, body: Json, sums: _Hand) -> tuple[Outcome, Json, int]:
        if not settles_rounds(self.rs):
            raise self.error(Code.WRONG_HAND_KIND, "this rule set settles no rounds: send a "
                             "win, claims or drawn", "/round")
        given = body.get("dealer")
        if given is not None and given != self.here.dealer:
            raise self.error(Code.INCONSISTENT_DEALER, f"the dealer is player "
                             f"{self.here.dealer}, not {given}", "/round/dealer")
        request = {**body, "dealer": self.here.dealer_seat,
                   "options": self.with_options(body.get("options"))}
        answer, scored, wins = self.inner(lambda: settled_round(request, self.rs), "/round")
        self.round_answer = answer
        sums.pay(self.by_player(answer["net"]))
        seating = self.here.seating  # the round's seats, made players
        outcome = Outcome(
            (), (), tuple(seating[s] for s in wins.winners),
            None if wins.discarder is None else seating[wins.discarder],
            several_discarder=(None if wins.several_discarder is None
                               else seating[wins.several_discarder]),
            kongs=frozenset(seating[s] for s in wins.kongs))
        if not outcome.winners and self.rules.drawn == "last_drawer":
            # Nobody won, and whoever drew the last tile deals next: a round does not say
            # who did, and keeping the dealer instead would answer another game's dealer.
            raise self.error(Code.INVALID_FIELD, "nobody won this round, and who drew the "
                             "last tile deals next, which a round does not say: send the hand "
                             "as drawn, with last_drawer (its kong money as penalties paid "
                             "to their makers)", "/round")
        return outcome, answer, scored

    def _drawn(self, drawn: Json, sums: _Hand) -> tuple[Outcome, None, int]:
        last = drawn.get("last_drawer")
        if last is not None:
            last = self.player(last, "/drawn/last_drawer")
        elif self.rules.drawn == "last_drawer":
            raise self.error(Code.INVALID_FIELD, "who drew the last tile deals next: "
                             "drawn.last_drawer is required", "/drawn/last_drawer")
        return Outcome((), (), (), None, last_drawer=last), None, 0

    # --- false wins and penalties ------------------------------------------------------------

    def _false_win(self, false_win: Json, at: str, sums: _Hand) -> int:
        offender = self.player(false_win["player"], at + "/player")
        kind = false_win.get("kind")
        win = false_win.get("win")
        scored = 0
        if win is not None:
            answer, winner, _ = self.scored(win, at + "/win")
            scored = 1
            if winner != offender:
                raise self.error(Code.INCONSISTENT_CONTEXT, "the claimed win's winner is not "
                                 "the false win's player", at + "/win/context/winner")
            if answer.get("winning"):
                raise self.error(Code.NOT_A_FALSE_WIN, "the claimed hand is a legal win",
                                 at + "/win")
            found = self.false_kind(answer, at + "/win")
            if kind is not None and kind != found:
                raise self.error(Code.INCONSISTENT_CONTEXT, f"the claimed hand is "
                                 f"{found}, not {kind}", at + "/kind")
            kind = found
        elif kind is None:
            raise self.error(Code.INVALID_FIELD, "a false win gives its kind ("
                             f"{', '.join(FALSE_WIN_KINDS)}) or the claimed win", at)
        self.price_false_win(offender, kind, at, sums)
        return scored

    def price_false_win(self, offender: int, kind: str, at: str, sums: _Hand) -> None:
        cost = false_win_cost(self.rules, kind, offender, self.players)
        if cost is None:
            raise self.error(Code.FALSE_WIN_UNPRICED, "this game prices no false win: send "
                             "what the players agreed as a penalty", at)
        net, deducted = cost
        returned = self.kongs_returned(offender)
        net = tuple(n + r for n, r in zip(net, returned, strict=True))
        sums.pay(net)
        sums.deduct(deducted)
        self.false_wins.append({"player": offender, "kind": kind, "net": list(net),
                                "deducted": list(deducted),
                                "kongs_returned": -returned[offender]})

    def kongs_returned(self, offender: int) -> list[int]:
        """By player, the offender's kong money of this hand going back to those who paid it,
        where the rules void it on a false win (the offender's entry: all of it, negative):
        what each payer paid for the offender's kongs, less what came back to it already
        (a void or refunded kong, 退税, a drawn game's refund); what the offender passed on
        (呼叫转移) no longer being its own, it is taken from the first payers' money."""
        out = [0] * self.players
        if not self.rules.false_win_voids_kongs or self.round_answer is None:
            return out
        held = [0] * self.players
        passed_on = 0
        player_at = self.here.seating
        for t in self.round_answer["transfers"]:
            payer, payee = player_at[t["from"]], player_at[t["to"]]
            if payee == offender and t["reason"] in _KONG_EARNED:
                held[payer] += t["amount"]
            elif payer == offender and t["reason"] in _KONG_RETURNED:
                held[payee] -= t["amount"]
            elif payer == offender and t["reason"] == KONG_TRANSFER:
                passed_on += t["amount"]
        for p in range(self.players):
            still = max(0, held[p])
            gone = min(still, passed_on)  # passed on from the first payers' money first
            passed_on -= gone
            out[p] += still - gone
            out[offender] -= still - gone
        return out

    def _penalty(self, penalty: Json, at: str, sums: _Hand) -> None:
        player = self.player(penalty["player"], at + "/player")
        points = penalty["points"]
        to = penalty.get("to")
        entry: Json = {"player": player, "points": points, "to": to,
                       "reason": penalty.get("reason")}
        if to is None:
            sums.deducted[player] += points
        else:
            to = self.player(to, at + "/to")
            if to == player:
                raise self.error(Code.INVALID_FIELD, "a penalty is paid to another player",
                                 at + "/to")
            sums.net[player] -= points
            sums.net[to] += points
        self.penalties.append(entry)

    # --- scoring through the family ---------------------------------------------------------

    def scored(self, win: Json, at: str) -> tuple[Json, int, int | None]:
        """The score answer of a win at this table, its winner and its discarder (the
        request as scored is kept in `last_request`)."""
        given = win.get("context")
        if not isinstance(given, dict):
            # Absent or not an object: the win's own request refuses it.
            self.inner(lambda: score_body(win, self.rs, False), at)
            raise self.error(Code.INVALID_FIELD, "a win's context is an object",
                             at + "/context")
        context = dict(given)
        seats = self.here.seats
        winner = self.player(context.get("winner", 0), at + "/context/winner")
        context["winner"] = seats[winner]
        discarder = None
        for field in ("discarder", "flipper"):
            if context.get(field) is not None:
                player = self.player(context[field], f"{at}/context/{field}")
                discarder = player if field == "discarder" else discarder
                context[field] = seats[player]
        self.fill_table(context, winner, at)
        context["options"] = self.with_options(context.get("options"))
        request = {**win, "context": context}
        self.last_request = request
        answer = self.inner(lambda: score_body(request, self.rs, self.explain), at)
        return answer, winner, discarder

    def fill_table(self, context: Json, winner: int, at: str) -> None:
        """The table's dealer and winds in a win's context; given, they must be these."""
        here = self.here
        given = context.get("dealer")
        if given is not None and given != here.dealer:
            raise self.error(Code.INCONSISTENT_DEALER, f"the dealer is player {here.dealer}, "
                             f"not {given}", at + "/context/dealer")
        context["dealer"] = here.dealer_seat
        if here.seat_winds is None or here.round_wind is None:
            return
        for field, wind in (("seat_wind", here.seat_winds[winner]),
                            ("round_wind", here.round_wind)):
            if context.get(field) is not None and _wind(context[field]) != wind:
                raise self.error(Code.INCONSISTENT_WINDS, f"{field} is {wind} at this table, "
                                 f"not {context[field]}", f"{at}/context/{field}")
            context[field] = wind

    def false_kind(self, answer: Json, at: str) -> str:
        """The kind of the false win just scored (`scored`): 错和 (a winning shape that does
        not win), else 和错牌 when the hand was ready without its winning tile, else 诈和."""
        reason = (answer.get("reason") or {}).get("code")
        if reason != "no_winning_shape":
            return "wrong_shape"
        family = service_family(self.rs)
        if family.ready_before_win is None:
            raise self.error(Code.INVALID_FIELD, "the kind of this game's false win cannot be "
                             "told from the hand: give its kind", at)
        request = family.read_score(self.last_request, self.rs)
        return "wrong_tile" if family.ready_before_win(request, self.rs) else "not_ready"

    def with_options(self, own: Any) -> Any:
        """A hand's options: the match's, with the hand's own over them (not an object: as
        given, for the hand's request to refuse)."""
        if own is None:
            return dict(self.options)
        if not isinstance(own, dict):
            return own
        return {**self.options, **own}

    def inner(self, call: Callable[[], Any], at: str) -> Any:
        """`call`, its errors pointing into this hand."""
        try:
            return call()
        except HandError as exc:
            raise HandError(exc.code, f"hands[{self.index}] ({self.kind}): {exc.message}",
                            self.at + at + exc.pointer, exc.position) from None
        except ApiError as exc:
            errors = [{**e, "pointer": self.at + at + e.get("pointer", "")}
                      for e in exc.errors]
            raise ApiError(exc.code, f"hands[{self.index}] ({self.kind}): {exc.detail}",
                           status=exc.status, errors=errors) from None

    def by_player(self, by_seat: Sequence[int]) -> list[int]:
        return [by_seat[self.here.seats[p]] for p in range(self.players)]


# The transfers of a round that pay a kong's maker, and those that give such money back.
_KONG_EARNED = frozenset(KONG_REASONS.values())
_KONG_RETURNED = frozenset({KONG_VOID, KONG_REFUND, TAX_REFUND, DRAWN_GAME_REFUND})

def _wind(value: Any) -> Any:
    """A wind as a request may write it (E, 东, 东风) as its letter."""
    index = WIND_NAMES.get(value) if isinstance(value, str) else None
    return value if index is None else WINDS[index]


def _hand_json(here: Table, hand: Mapping[str, Any], own: Json | None, outcome: Outcome,
               after: MatchState, play: _Play) -> Json:
    return {
        "number": here.number, "dealer": here.dealer, "repeat": here.repeat,
        "circle": here.circle, "round_wind": here.round_wind, "seating": list(here.seating),
        "seat_winds": list(here.seat_winds) if here.seat_winds is not None else None,
        "kind": play.kind,
        "winners": list(outcome.winners),
        "discarder": outcome.discarder,
        "result": own,
        "claims": play.claims,
        "false_wins": play.false_wins,
        "penalties": play.penalties,
        "net": list(outcome.net),
        "deducted": list(outcome.deducted),
        "totals": list(after.totals),
    }


def _table_json(here: Table) -> Json:
    return {"number": here.number, "dealer": here.dealer, "repeat": here.repeat,
            "circle": here.circle, "round_wind": here.round_wind,
            "seating": list(here.seating),
            "seat_winds": list(here.seat_winds) if here.seat_winds is not None else None}


def _answer(rs: ServedRuleSet, rules: Rules, players: int, state: MatchState,
            hands: list[Json], match_options: Mapping[str, Any]) -> Json:
    ranked = standings(rules, state)
    return {
        "ruleset": rs.id,
        "match_options": dict(match_options),
        "hands": hands,
        "standings": {
            "totals": list(state.totals), "deducted": list(state.deducted),
            "base_points": rules.base_points, "points": list(ranked.points),
            "ranks": list(ranked.ranks),
            "table_points": (list(ranked.table_points)
                             if ranked.table_points is not None else None),
        },
        "ended": state.ended,
        "next": None if state.ended else _table_json(table(rules, players, state)),
        "state": {k: list(v) if isinstance(v, tuple) else v
                  for k, v in state._asdict().items()},
    }
