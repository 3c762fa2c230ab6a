"""The Settlement section of a tile rule set's page: one sentence per field of the settlement
model (`app.rules.settlement`), a table of kong money, and the checks of a drawn game. A field
it has no words for stops the generator (`known`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.domain.events import KONG_KINDS
from app.rules.settlement import (
    ALL_REVEALED,
    BEST_VALUE,
    DISCARDER,
    EACH_ACTIVE,
    FIRST_REVEALED,
    GOLDEN,
    KEEP,
    REFUND,
    TRANSFER,
)
from tools.ruleset_docs.common import DocsError, code, known, md, table
from tools.ruleset_docs.tile_labels import TileLabels

__all__ = ["SettlementSection"]


class SettlementSection(TileLabels):
    """The words of the settlement of a tile rule set (`settlement`); the page is one
    (`tools.ruleset_docs.tile_page.TilePage`)."""

    KONG_NAMES: Mapping[str, str] = {"direct": "点杠 direct (on a discard)",
                                     "added": "加杠 added (to a declared pung)",
                                     "concealed": "暗杠 concealed",
                                     GOLDEN: "金杠 golden (four wild tiles, concealed)"}
    PAYERS: Mapping[str, str] = {DISCARDER: "the discarder of the konged tile",
                                 EACH_ACTIVE: "each other player not yet won"}
    KONG_FIELDS = frozenset({"payer", "amount", "only_if_fresh", "must_be_fresh"})
    FOLLOW_DEALER_FIELDS = frozenset({"amount"})
    # Fields of the settlement with a section of their own.
    SETTLEMENT_SECTIONS = frozenset({"kongs", "drawn_game"})

    ROUND_SENTENCES: Mapping[str, Callable[[SettlementSection, Any], str | None]] = {
        "win_ends_round": lambda p, v: (
            ("The first win ends the round, and a hand has one winner (截和): a second win, "
             f"even on the same discard, is refused ({code('forbidden_event')})."
             if p.doc["settlement"]["one_winner"] else
             "The first win ends the round (other players may still win on the same discard, "
             "一炮多响, each paid separately), and nobody drops out before it.")
            if v else "Winners drop out and the others play on (血战到底); a discard several "
            "players win on is paid to each of them by the discarder."),
        "one_winner": lambda p, v: None,  # said with win_ends_round
        "seat_factors": lambda p, v: (
            "Kong money and 跟庄 money between two seats are multiplied by the payment "
            "scheme's seat factor between them, as the win's money is (坐庄 / 拉庄)."
            if v else "Kong money is the same between any two seats (no seat factor)."),
        "robbed_kong_void": lambda p, v: (
            "A robbed added kong (抢杠) is void: its money goes back." if v
            else "A robbed added kong (抢杠) keeps its money."),
        "kong_discard_money": lambda p, v: p.kong_discard(v),
        "follow_dealer": lambda p, v: p.follow_dealer(v),
        "reveal_option": lambda p, v: (
            f"亮倒: players reveal a ready hand by {code('reveal')} events; each win is scored "
            f"with the seats revealed by then as {p.option(v)} (a round's request does not set "
            "it)." if v is not None else None),
        "reveal_ready_hand": lambda p, v: (
            "A revealed hand is ready by definition: at a drawn game a revealed seat whose "
            f"hand is not ready is refused ({code('forbidden_event')})." if v else None),
        "special_kongs": lambda p, v: p.special_kongs(v),
        "kong_tiles": lambda p, v: (
            f"A kong of {', '.join(code(t) for t in v['tiles'])} earns {v['factor']} times "
            "its money" + (f" while {p.option(v['enabled']['option'])} is on"
                           if isinstance(v["enabled"], Mapping) else "" if v["enabled"]
                           else " (switched off)") + "."
            if v is not None else None),
        "kong_chain_doubling": lambda p, v: (
            "杠上杠: a kong that follows a kong (a kong event's `follows`) is the next of a "
            "chain, and the n-th kong of a chain earns 2^(n-1) times its money."
            if v else None),
    }

    DRAWN_SENTENCES: Mapping[str, Callable[[SettlementSection, Any], str | None]] = {
        "max_suits": lambda p, v: (
            f"查花猪: a player not yet won holding more than {v} numbered suits is a pig (花猪)."
            if v is not None else "No player is a pig (no 查花猪)."),
        "declared_void": lambda p, v: (
            f"定缺 declared: a player holding a tile of the suit its seat declared void is a "
            f"pig too; the declarations are {p.option(v)}." if v is not None else None),
        "pig_penalty": lambda p, v: (
            f"Each pig pays {p.amount(v)} to each other player not yet won who is not a pig."
            if p.drawn()["max_suits"] is not None else None),
        "pig_counts_as_not_ready": lambda p, v: (
            ("A pig also counts as not ready (没叫)." if v
             else "A pig is not also counted as not ready.")
            if p.drawn()["max_suits"] is not None else None),
        "not_ready_pays": lambda p, v: p.not_ready(v),
        "refund_kongs": lambda p, v: (
            "退税: each player not ready, or a pig, returns the kong money it still holds to "
            "the payers still in the round." if v else "No 退税: kong money stays with who "
            "earned it, ready or not."),
        "ready_as": lambda p, v: p.ready_as(v),
        "kongs_stand": lambda p, v: p.flag(
            v, "kong money stands on a drawn game (荒庄不荒杠)",
            "a drawn game returns every kong's money (荒庄荒杠)"),
        "revealed_pay": lambda p, v: p.revealed_pay(v),
    }

    # 杠上炮: what becomes of that kong's money, by mode.
    KONG_DISCARD_MODES: Mapping[str, str] = {
        REFUND: f"goes back to those who paid it, the winner included ({code('kong_refund')})",
        TRANSFER: ("goes from the kong's maker to the winner (呼叫转移, "
                   f"{code('kong_transfer')}; with several winners on that discard, 一炮多响, "
                   "to the first of them in turn order after the discarder)"),
        KEEP: "stands"}

    def kong_discard(self, v: Any) -> str:
        """杠上炮: the settlement's mode, or the option choosing one (each of its choices)."""
        lead = "On a win on the discard a kong's maker makes right after it (杠上炮)"
        if isinstance(v, Mapping) and set(v) == {"option"}:
            return (f"{lead}, that kong's money, as {self.option(v['option'])} says: "
                    + "; ".join(f"{code(k)}, {w}" for k, w in self.KONG_DISCARD_MODES.items()
                                if k in self.options[v["option"]]["choices"]) + ".")
        if v in self.KONG_DISCARD_MODES:
            return f"{lead}, that kong's money {self.KONG_DISCARD_MODES[v]}."
        raise DocsError(f"settlement.kong_discard_money: no words for {v!r}")

    SPECIAL_KONG_FIELDS = frozenset({"amount", "sets", "stand_in"})

    def special_kongs(self, v: Any) -> str | None:
        """幺九杠, 旋风杠, 喜杠: the sets, the stand-in and the amount."""
        if v is None:
            return None
        known(v, self.SPECIAL_KONG_FIELDS, "settlement.special_kongs")
        for n, entry in enumerate(v["sets"]):
            known(entry, {"name", "of"}, f"settlement.special_kongs.sets[{n}]")
        sets = "; ".join(f"{e['name']}: three different of {code(''.join(e['of']))}"
                         for e in v["sets"])
        stand = (f", or two of them and {code(v['stand_in'])} standing in for the third"
                 if v["stand_in"] is not None else "")
        return (f"Special kongs ({code('kind: special')} events naming their three tiles): "
                f"{sets}{stand}. Each other player still in pays {self.amount(v['amount'])} "
                f"({code('special_kong')}); three tiles that make none of them are refused "
                f"({code('illegal_meld')}).")

    REVEALED_PAY_FIELDS = frozenset({"amount", "payers"})
    REVEALED_PAYERS: Mapping[str, str] = {
        ALL_REVEALED: "each player who has revealed (亮倒)",
        FIRST_REVEALED: "the first player to reveal (亮倒)"}

    def revealed_pay(self, v: Any) -> str | None:
        if v is None:
            return None
        known(v, self.REVEALED_PAY_FIELDS, "settlement.drawn_game.revealed_pay")
        payers = v["payers"]
        if isinstance(payers, Mapping) and set(payers) == {"option"}:
            who = (f"as {self.option(payers['option'])} says ("
                   + "; ".join(f"{code(k)}: {w}" for k, w in self.REVEALED_PAYERS.items())
                   + ")")
        elif payers in self.REVEALED_PAYERS:
            who = self.REVEALED_PAYERS[payers]
        else:
            raise DocsError(f"settlement.drawn_game.revealed_pay.payers: no words for {payers!r}")
        return (f"亮倒 at a drawn game: {who} pays {self.amount(v['amount'])} to each player "
                f"still in who has not revealed ({code('revealed_draw')}).")

    def drawn(self) -> Mapping[str, Any]:
        drawn: Mapping[str, Any] = self.doc["settlement"]["drawn_game"]
        return drawn

    def follow_dealer(self, v: Any) -> str:
        if v is None:
            return "No 跟庄 money: the rule set does not pay a followed first discard."
        known(v, self.FOLLOW_DEALER_FIELDS, "settlement.follow_dealer")
        return ("跟庄: when every other player follows the dealer's first discard (a "
                f"{code('follow_dealer')} event), the dealer pays each other player "
                f"{self.amount(v['amount'])}, after the rest of the round is settled.")

    def not_ready(self, v: Any) -> str:
        if v is None:
            return "A player not ready pays nothing for it (no 查大叫)."
        if v == BEST_VALUE:
            return ("查大叫: each player not ready pays each ready player that player's best "
                    "value (the highest over the tiles that complete the hand).")
        raise DocsError(f"settlement.drawn_game.not_ready_pays: no words for {v!r}")

    def ready_as(self, v: Any) -> str:
        if v == "discard":
            return ("A waiting hand is ready when some discard would complete it as a win; "
                    "its value counts the hand's own fans only (a discard win, no kong, not "
                    "the last tile).")
        if v == "self_draw":
            return ("A waiting hand is ready when it would win by self-draw, and is valued "
                    "as that self-draw (for a rule set that allows no other win).")
        raise DocsError(f"settlement.drawn_game.ready_as: no words for {v!r}")

    def settlement(self) -> list[str]:
        s = self.doc["settlement"]
        lines = ["## Settlement", ""]
        if s is None:
            return [*lines, "This rule set settles single hands only: it has no round "
                    f"settlement ({code(f'POST /v1/rulesets/{self.rs.id}/settle')} answers "
                    f"{code('settle_not_supported')}).", ""]
        known(s, {*self.ROUND_SENTENCES, *self.SETTLEMENT_SECTIONS}, "settlement")
        lines += [f"A whole round is settled by {code(f'POST /v1/rulesets/{self.rs.id}/settle')}"
                  ", its events in order. Amounts count in units of the payment's "
                  f"{code('base')}.", "", "### Kongs", ""]
        kongs = s["kongs"]
        rows = []
        for kind in (*KONG_KINDS, GOLDEN):
            if kind in kongs:
                k = kongs[kind]
                known(k, self.KONG_FIELDS, f"settlement.kongs.{kind}")
                fresh = k["only_if_fresh"]
                cond = (self.flag(fresh, "only when the added tile is the one just drawn (及时雨)",
                                  "always")
                        if fresh is not False else "Always.")
                must = k["must_be_fresh"]
                if must is not False:
                    made = self.flag(must, "made only with the tile just drawn: one held "
                                     "earlier cannot be added (refused, "
                                     f"{code('forbidden_event')})",
                                     "a tile held earlier may be added too")
                    cond = made if must is True else f"{made} {cond}"
                rows.append([md(self.KONG_NAMES[kind]), self.PAYERS[k["payer"]],
                             self.amount(k["amount"], golden=kind == GOLDEN), cond])
        known(kongs, self.KONG_NAMES, "settlement.kongs")
        if rows:
            lines += ["A kong earns its money at once; a kind of kong not listed earns nothing.",
                      ""]
            lines += table(["Kong", "Paid by", "Amount", "Paid"], rows)
        else:
            lines += ["No kong earns money.", ""]
        lines += ["### The round", ""]
        for key, sentence in self.ROUND_SENTENCES.items():
            text = sentence(self, s[key])
            if text:
                lines.append(f"- {text}")
        lines += ["", "### A drawn game", "",
                  "When the wall runs out with players not yet won, these checks run among "
                  "them:", ""]
        drawn = s["drawn_game"]
        known(drawn, self.DRAWN_SENTENCES, "settlement.drawn_game")
        for key, sentence in self.DRAWN_SENTENCES.items():
            text = sentence(self, drawn[key])
            if text:
                lines.append(f"- {text}")
        lines.append("")
        return lines
