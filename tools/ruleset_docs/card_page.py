"""A card rule set's page (a game scored by groups, a rule set of `family: cards`): at a glance,
the deck, groups and their points, the hand, where the winning card goes, scoring steps,
patterns (名堂), the checks used, options, win types and payments, and worked examples."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, cast

from app.rules.cards.model import FREE, CardRuleSet
from app.rules.families import CARDS, family_of
from tools.ruleset_docs.common import (
    DOCUMENT_SKIPPED,
    TO_CHECKS,
    TO_ROOT,
    DocsError,
    card_check_anchor,
    card_step_anchor,
    code,
    flow,
    flow_items,
    known,
    link,
    md,
    table,
)
from tools.ruleset_docs.skeleton import PageSkeleton
from tools.ruleset_docs.sources import Source, case_tables

__all__ = ["CardPage", "is_choice"]

# The keys of a card rule set's document (`app.service.cards.documents.card_ruleset_document`) its
# page renders, and those it leaves out on purpose (as for the tile games).
CARD_DOCUMENT_KEYS = frozenset({
    "id", "name", "name_en", "players", "description", "kind", "players_option", "deck",
    "groups", "hand", "win_card", "win_types", "context_flags", "context_cards", "figures",
    "names", "rank_by", "scoring", "patterns", "options", "settlement", "source", "match"})
CARD_GROUP_KEYS = frozenset({"id", "name", "name_en", "description", "size", "forms", "points",
                             "table", "flags", "made_of"})
CARD_PATTERN_KEYS = frozenset({"id", "name", "name_en", "description", "check", "params",
                               "value"})
CARD_WIN_TYPE_KEYS = frozenset({"id", "name", "payer", "pays", "shares", "reason"})
CHOICE_KEYS = frozenset({"option", "values", "default"})
FORM_WORDS: Mapping[str, Callable[[Mapping[str, Any]], str]] = {
    "same": lambda f: f"{f['size']} identical cards",
    "run": lambda f: f"{f['size']} consecutive ranks of one suit",
    "ranks": lambda f: "the ranks " + "-".join(str(r) for r in f["ranks"]) + " of one suit",
    "mixed": lambda f: (f"{f['size']} cards of one rank, {f['size'] - 1} of one suit and 1 of "
                        "the other"),
}
TABLE_WORDS: Mapping[str, str] = {"concealed": "concealed, written `{...}`",
                                  "exposed": "exposed, written `[...]`"}
PAYS_WORDS: Mapping[str, str] = {"each_other": "every other player pays one share",
                                 "payer": "the payer alone pays"}

def is_choice(value: Any) -> bool:
    """A value a house rule chooses, as the card document writes it."""
    return isinstance(value, Mapping) and set(value) == CHOICE_KEYS


class CardPage(PageSkeleton):
    """The words of a card rule set's page (a game scored by groups), section by section
    (`render`)."""

    CARD_EXPECT = frozenset({"winning", "reason", "error", "huxi", "tun", "tun_parts", "fans",
                             "multiplier", "score", "net", "groups"})

    def __init__(self, src: Source) -> None:
        if family_of(src.ruleset) != CARDS:
            raise DocsError(f"{src.ruleset.id}: not a card rule set")
        self.src = src
        self.rs = cast(CardRuleSet, src.ruleset)
        self.doc = src.document
        known(self.doc, CARD_DOCUMENT_KEYS | DOCUMENT_SKIPPED, "the card rule-set document")
        self.options = {o["name"]: o for o in self.doc["options"]}
        self.points = self.doc["names"].get("points", "points")
        self.units = self.doc["names"].get("units", "units")

    # labels

    def option(self, name: str) -> str:
        o = self.options.get(name)
        if o is None:
            raise DocsError(f"{self.rs.id}: no option {name!r}")
        return f"{code(name)} (default {code(flow(o['default']))})"

    def chosen(self, value: Any, words: Callable[[Any], str]) -> str:
        """A value in words, a house rule's choice as the option and what each value chooses
        (`words` says a plain value)."""
        if not is_choice(value):
            return words(value)
        if not value["values"]:
            return f"the option {self.option(value['option'])}"
        parts = [f"{code(k)}: {self.chosen(v, words)}" for k, v in value["values"].items()]
        if value["default"] is not None:
            parts.append(f"otherwise: {self.chosen(value['default'], words)}")
        return f"by {self.option(value['option'])} (" + "; ".join(parts) + ")"

    def kind(self, kid: str) -> str:
        for g in self.doc["groups"]:
            if g["id"] == kid:
                return f"{md(g['name'])} {code(kid)}"
        if kid == FREE:
            return f"{code(FREE)} (an ordinary hand card)"
        raise DocsError(f"{self.rs.id}: no group kind {kid!r}")

    def kinds(self, kids: Iterable[str]) -> str:
        return ", ".join(self.kind(k) for k in kids)

    def pattern(self, pid: str, where: str) -> str:
        for p in self.doc["patterns"]:
            if pid in (p["id"], p["name"]):
                return f"{md(p['name'])} {code(p['id'])}"
        raise DocsError(f"{where}: unknown pattern {pid!r} of rule set {self.rs.id}")

    def suit(self, letter: str) -> str:
        for s in self.doc["deck"]["suits"]:
            if s["letter"] == letter:
                return f"{md(s['name'])} {code(letter)}"
        raise DocsError(f"{self.rs.id}: no suit {letter!r}")

    # the page

    def sections(self) -> Sequence[Callable[[], list[str]]]:
        return (self.title, self.summary, self.deck, self.groups, self.hand, self.win_card,
                self.scoring, self.patterns, self.checks_used, self.option_table, self.payment,
                self.matches, self.examples)

    def title(self) -> list[str]:
        d = self.doc
        lines = self.heading()
        rid = self.rs.id
        # "It settles no rounds" is the page's words for the document's null settlement.
        if d["settlement"] is not None:
            raise DocsError(f"{rid}: settlement: no words for a card game's round settlement")
        lines += [f"A card game scored by groups: the service serves it at "
                  f"{code(f'GET /v1/rulesets/{rid}')} (the data of this page, "
                  f"{code('kind: cards')}) and scores hands at "
                  f"{code(f'POST /v1/rulesets/{rid}/score')} and waits at "
                  f"{code(f'POST /v1/rulesets/{rid}/waits')}. It settles no rounds.", ""]
        return lines

    def summary(self) -> list[str]:
        d = self.doc
        deck = d["deck"]
        players = str(d["players"])
        if d["players_option"]:
            players += f" by default; the option {self.option(d['players_option'])} sets it"
        rows = [
            ["Id", code(d["id"])],
            ["Players", players],
            ["Deck", f"{md(deck['name'])}: {deck['cards']} cards, {deck['kinds']} kinds × "
                     f"{deck['copies']} copies"],
            ["Points and units", f"{md(self.points)} (points of the groups), "
                                 f"{md(self.units)} (units the score multiplies)"],
        ]
        if d["figures"]:
            rows.append(["Figures of a result", ", ".join(
                f"{code(k)}: the cards with {code(v)}" for k, v in d["figures"].items())])
        if d["context_flags"] or d["context_cards"]:
            rows.append(["Context fields it reads", ", ".join(
                code(f"context.{f}") for f in (*d["context_flags"], *d["context_cards"]))])
        parent = self.src.parent
        if parent is not None:
            rows.append(["Extends", link(code(parent.id), f"{parent.id}.md")
                         + f" ({md(parent.name)})"])
        rows.append(["Rule set file", link(code(f"rulesets/{self.rs.id}.yaml"),
                                           f"{TO_ROOT}rulesets/{self.rs.id}.yaml")])
        if self.src.cases:
            rows.append(["Cases", link(code(f"tests/cases/{self.rs.id}/"),
                                       f"{TO_ROOT}tests/cases/{self.rs.id}/")])
        return ["## At a glance", "", *table(["", "This rule set"], rows)]

    def deck(self) -> list[str]:
        deck = self.doc["deck"]
        lines = ["## The deck", "",
                 f"{deck['kinds']} kinds of card, {deck['copies']} copies of each. A card is "
                 "written as its rank then its suit letter (" + code("10x") + "), several of "
                 "one suit as their ranks before one letter (" + code("2710x") + "), or as "
                 "its one-character name.", ""]
        rows = []
        for s in deck["suits"]:
            rows.append([code(s["letter"]), md(s["name"]), md(s["name_en"]),
                         " ".join(f"{code(c['code'])} {md(c['name'])}" for c in s["cards"])])
        lines += table(["Letter", "Suit", "In English", "Cards"], rows)
        for attr, ranks in deck["attributes"].items():
            cards = [f"{md(c['name'])}" for s in deck["suits"] for c in s["cards"]
                     if attr in c["attributes"]]
            lines += [f"Attribute {code(attr)}: the ranks {', '.join(str(r) for r in ranks)} "
                      f"of every suit ({' '.join(cards)}; {len(cards) * deck['copies']} cards "
                      "of the deck).", ""]
        if deck["aliases"]:
            lines += ["Also read as a card: " + ", ".join(
                f"{md(ch)} as {code(c)}" for ch, c in deck["aliases"].items()) + ".", ""]
        return lines

    def groups(self) -> list[str]:
        letters = [s["letter"] for s in self.doc["deck"]["suits"]]
        lines = [f"## Groups and their {md(self.points)}", "",
                 f"Every card of a finished hand, its table groups included, lies in one "
                 f"group; the {md(self.points)} of the hand is the sum over its groups. A "
                 "group earns the points of its suit, and only in the rank sets listed when "
                 "some are.", ""]
        rows = []
        for g in self.doc["groups"]:
            known(g, CARD_GROUP_KEYS, "groups")
            forms = []
            for f in g["forms"]:
                if f["form"] not in FORM_WORDS:
                    raise DocsError(f"groups.{g['id']}: form {f['form']!r} has no words")
                text = FORM_WORDS[f["form"]](f)
                when = f["when"]
                if isinstance(when, dict):  # a condition other than a bool option on
                    some = "is" if len(when["in"]) == 1 else "is one of"
                    values = ", ".join(code(flow(v)) for v in when["in"])
                    text += f" (while {self.option(when['option'])} {some} {values})"
                elif when:
                    text += f" (while {self.option(when)} is true)"
                forms.append(text)
            if g["made_of"]:
                forms.append("read as " + " or ".join(self.kind(k) for k in g["made_of"]))
            points = g["points"]
            by_suit = [str(points["by_suit"].get(x, 0)) if points else "as read"
                       for x in letters]
            earned = ("; ".join("-".join(str(r) for r in rs) for rs in points["ranks"])
                      if points and points["ranks"] else "any")
            on_table = md(TABLE_WORDS[g["table"]]) if g["table"] else "no (hand only)"
            if g["flags"]:
                on_table += "; flags " + ", ".join(code(f) for f in g["flags"])
            rows.append([md(g["name"]), code(g["id"]), md(g["name_en"]), str(g["size"]),
                         "; ".join(forms), *by_suit, earned, on_table, md(g["description"])])
        lines += table(["Group", "Kind", "In English", "Size", "Cards",
                        *(f"{md(self.points)} {self.suit(x)}" for x in letters),
                        "Ranks that earn it", "On the table", "Description"], rows)
        return lines

    def hand(self) -> list[str]:
        h = self.doc["hand"]
        per = h["pair"]["when_size"]
        return ["## The hand", "",
                f"- The cards in hand are arranged into {self.kinds(h['groups'])}.",
                f"- {h['locked']['held']} held cards of a kind (held before the winning card) "
                f"always make one {self.kind(h['locked']['kind'])}: they are never split.",
                f"- Exactly one {self.kind(h['pair']['kind'])} when the finished hand holds a "
                f"group of {per} cards (on the table or made by the winning card); none "
                "otherwise.",
                "- Cards of a hand, the winning card and the table groups included: "
                + self.chosen(h["cards"], str) + f", plus {h['per_extra']} for each table "
                f"group of {per} cards after the first.",
                ""]

    def win_card(self) -> list[str]:
        win_types = [w["id"] for w in self.doc["win_types"]]
        lines = ["## Where the winning card goes", "",
                 "When the winning card completes one of these, the service tries each group "
                 "it may make (per win type) and keeps the best result; "
                 f"{code(FREE)} means it stays an ordinary hand card. Anything else it "
                 "completes, it is an ordinary hand card.", ""]
        rows = []
        for p in self.doc["win_card"]:
            if p["held"] is not None:
                what = f"a card the hand holds {p['held']} of"
            else:
                what = f"the card of a table {self.kind(p['table'])}"
            cells = [self.chosen(p["by_win_type"][w], self.kinds) if w in p["by_win_type"]
                     else "not a win" for w in win_types]
            rows.append([what, *cells])
        lines += table(["The winning card is", *(code(w) for w in win_types)], rows)
        return lines

    def scoring(self) -> list[str]:
        lines = ["## Scoring", "",
                 "The readings of a hand (each placement of the winning card and each "
                 "arrangement) are ranked "
                 + self.chosen(self.doc["rank_by"],
                               lambda v: "by " + " then ".join(code(x) for x in v))
                 + ", then the first group list in canonical notation. The best reading goes "
                 "through the scoring steps in order "
                 f"({link('the steps', f'{TO_CHECKS}#card-games-scoring-steps')}).", ""]
        scoring = self.doc["scoring"]
        if not is_choice(scoring):
            return [*lines, *self.steps(scoring)]
        option = scoring["option"]
        default = self.options[option]["default"]
        for value in self.options[option].get("choices", ()):
            steps = scoring["values"].get(str(value).lower() if isinstance(value, bool)
                                          else str(value), scoring["default"])
            mark = " (the default)" if value == default else ""
            lines += [f"### {code(option)}: {code(flow(value))}{mark}", ""]
            lines += self.steps(steps)
        return lines

    def steps(self, steps: Any) -> list[str]:
        if is_choice(steps):
            raise DocsError(f"{self.rs.id}: scoring: a choice of steps inside a choice has no "
                            "words")
        rows = []
        for i, s in enumerate(steps, 1):
            params = "; ".join(f"{code(k)}: {self.chosen(v, lambda x: code(flow(x)))}"
                               for k, v in s["params"].items())
            rows.append([str(i), link(code(s["step"]),
                                      f"{TO_CHECKS}#{card_step_anchor(s['step'])}"),
                         params or "none"])
        return table(["", "Step", "Parameters"], rows)

    def patterns(self) -> list[str]:
        pats = self.doc["patterns"]
        lines = ["## 名堂 (patterns)", ""]
        if not pats:
            return [*lines, "This rule set has no multiplying pattern.", ""]
        lines += ["Each pattern that applies multiplies the score by its value; their "
                  "product is the multiplier (1 with none). A value of 0 means the pattern "
                  "is not counted under those options.", ""]
        rows = []
        described = any(p.get("description") for p in pats)
        for p in pats:
            known(p, CARD_PATTERN_KEYS, "patterns")
            check = link(code(p["check"]), f"{TO_CHECKS}#{card_check_anchor(p['check'])}")
            if p["params"]:
                check += " " + code(flow_items(p["params"]))
            rows.append([md(p["name"]), md(p["name_en"]), code(p["id"]),
                         self.chosen(p["value"], lambda v: f"×{v}"), check,
                         *([md(p["description"])] if described else [])])
        lines += table(["名堂", "Pattern", "Id", "Value", "Check",
                        *(["Description"] if described else [])], rows)
        return lines

    def checks_used(self) -> list[str]:
        users: dict[str, list[str]] = {}
        for p in self.doc["patterns"]:
            users.setdefault(p["check"], []).append(f"{md(p['name'])} {code(p['id'])}")
        if not users:
            return []
        rows = [[link(code(name), f"{TO_CHECKS}#{card_check_anchor(name)}"), ", ".join(u)]
                for name, u in sorted(users.items())]
        return ["## Checks used", "", *table(["Check", "Used by"], rows)]

    def payment(self) -> list[str]:
        lines = ["## Win types and payments", "",
                 f"What each {code('context.win_type')} is and who pays the score (one share "
                 "is the score). One player wins a hand.", ""]
        rows = []
        for w in self.doc["win_types"]:
            known(w, CARD_WIN_TYPE_KEYS, "win_types")
            if w["pays"] not in PAYS_WORDS:
                raise DocsError(f"win_types.{w['id']}: pays {w['pays']!r} has no words")
            who = PAYS_WORDS[w["pays"]]
            if w["pays"] == "payer":
                who += ", " + self.chosen(w["shares"], lambda v: (
                    "one share per other player" if v == "others" else f"{v} shares"))
            payer = code(f"context.{w['payer']}") if w["payer"] else "the winner's own card"
            rows.append([code(w["id"]), md(w["name"]), payer, who, code(w["reason"])])
        lines += table(["Win type", "Name", "The card came from", "Who pays",
                        "Reason of the transfers"], rows)
        return lines

    # worked examples

    def expect(self, exp: Mapping[str, Any], where: str) -> str:
        figures = set(self.doc["figures"])
        known(exp, self.CARD_EXPECT | figures, f"{where}: expect")
        if "error" in exp:
            return f"refused: {code(exp['error'])}"
        parts = self.outcome(exp)
        if "huxi" in exp:
            parts.append(f"{exp['huxi']} {md(self.points)}")
        if "tun" in exp:
            parts.append(f"{exp['tun']} {md(self.units)}")
        if "tun_parts" in exp:
            parts.append(f"{md(self.units)} parts {code(flow(exp['tun_parts']))}")
        for key in sorted(figures & set(exp)):
            parts.append(f"{code(key)} {exp[key]}")
        if "fans" in exp:
            fans = exp["fans"]
            parts.append(", ".join(f"{self.pattern(p, where)} ×{n}" for p, n in fans.items())
                         if fans else "no 名堂")
        if "multiplier" in exp:
            parts.append(f"multiplier {exp['multiplier']}")
        if "score" in exp:
            parts.append(f"score {exp['score']}")
        if "net" in exp:
            parts.append(f"net {code(flow(exp['net']))}")
        if "groups" in exp:
            parts.append("groups " + ", ".join(code(g) for g in exp["groups"]))
        return "; ".join(parts)

    WAITS_EXPECT = frozenset({"waits", "not_winning", "best"})

    def waits_expect(self, exp: Mapping[str, Any], where: str) -> str:
        known(exp, self.WAITS_EXPECT, f"{where}: expect")
        waits = exp.get("waits") or {}
        if not waits:
            parts = ["not ready"]
        else:
            parts = ["waits (card and win type: score) " + ", ".join(
                f"{code(w)}: {'below the minimum' if n is None else n}"
                for w, n in waits.items())]
        if exp.get("not_winning"):
            parts.append("no win on " + ", ".join(code(w) for w in exp["not_winning"]))
        if "best" in exp:
            parts.append("best " + (code(exp["best"]) if exp["best"] is not None else "none"))
        return "; ".join(parts)

    def examples(self) -> list[str]:
        rid = self.rs.id
        lines = ["## Worked examples", ""]
        if not self.src.cases:
            return [*lines, f"No cases yet: add them under {code(f'tests/cases/{rid}/')}.", ""]
        lines += ["Each case is a test, checked against the expected result shown (the waits "
                  "cases, under " + code(f"tests/cases/{rid}/waits/") + ", take the hand one "
                  "card short). A hand is "
                  "written as a request takes it: a string, where " + code("[...]") + " is an "
                  "exposed table group, " + code("{...}") + " a concealed one and the last "
                  "card outside brackets the winning card; or an object of the cards in hand "
                  "(the winning card among them), the table groups and the winning card. "
                  "Groups are listed as a multiset.", ""]
        return [*lines, *case_tables(self.src.cases, self.hand_text, self.expect,
                                     self.waits_expect)]

    @staticmethod
    def hand_text(hand: Any) -> str:
        if isinstance(hand, str):
            return code(hand)
        if isinstance(hand, Mapping):
            cards = hand.get("cards")
            text = code(cards if isinstance(cards, str) else flow(cards))
            groups = hand.get("groups") or []
            if groups:
                text += ", table " + ", ".join(
                    code(flow_items(g) if isinstance(g, Mapping) else flow(g)) for g in groups)
            if "win_card" in hand:
                text += f", winning card {code(flow(hand['win_card']))}"
            return text
        return code(flow(hand))
