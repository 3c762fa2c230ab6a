"""A tile rule set's page (`docs/rulesets/<id>.md`): at a glance, what a win requires, wild
tiles, shapes, fans, the checks used, options, payment, settlement
(`tools.ruleset_docs.settlement`) and worked examples from its cases."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, cast

from app.rules.checks import CHECKS
from app.rules.model import RuleSet
from tools.ruleset_docs.checks_page import chinese_name
from tools.ruleset_docs.common import (
    TO_CHECKS,
    TO_ROOT,
    check_anchor,
    code,
    flow,
    flow_items,
    known,
    link,
    md,
    policy_anchor,
    scheme_anchor,
    shape_anchor,
    table,
)
from tools.ruleset_docs.settlement import SettlementSection
from tools.ruleset_docs.skeleton import PageSkeleton
from tools.ruleset_docs.sources import case_tables
from tools.ruleset_docs.tile_labels import (
    FAN_KEYS,
    FAN_REQUIREMENT_KEYS,
    PAYMENT_KEYS,
    REQUIREMENT_KEYS,
    SHAPE_DEF_FIELDS,
)

__all__ = ["TilePage"]


class TilePage(SettlementSection, PageSkeleton):
    """The words of one tile rule set's page, section by section (`render`)."""

    def sections(self) -> Sequence[Callable[[], list[str]]]:
        return (self.title, self.summary, self.requirements, self.wild, self.shapes,
                self.fan_table, self.checks_used, self.option_table, self.payment,
                self.settlement, self.matches, self.examples)

    def title(self) -> list[str]:
        d = self.doc
        lines = self.heading()
        rid = self.rs.id
        served = (f"The service serves this rule set at {code(f'GET /v1/rulesets/{rid}')} (the "
                  "data of this page) and scores hands and waits at "
                  f"{code(f'POST /v1/rulesets/{rid}/score')} and "
                  f"{code(f'POST /v1/rulesets/{rid}/waits')}")
        if d["settlement"] is not None:
            served += f"; it settles rounds at {code(f'POST /v1/rulesets/{rid}/settle')}"
        lines += [served + ".", ""]
        return lines

    def summary(self) -> list[str]:
        d, rs = self.doc, self.rs
        ts = rs.tileset
        tiles = sum(ts.copies[t] for t in ts.playing)
        tileset = f"{code(d['tiles'])}: {ts.size} kinds, {tiles} tiles"
        if ts.flowers:
            tileset += (f" (the set also has {len(ts.flowers)} flowers: bonus tiles, never "
                        "part of a hand)")
        melds = ", ".join(code(k) for k in d["meld_kinds"])
        missing = [k for k in ("chow", "pung", "kong") if k not in d["meld_kinds"]]
        if missing:
            melds += f" (no {', '.join(missing)})"
        if d["max_flowers"]:
            flowers = f"up to {d['max_flowers']} set aside by the winner"
            if rs.flower_fan:
                flowers += f", counted as {self.fan(rs.flower_fan)}"
        else:
            flowers = "none: a hand may set aside no flower"
        shapes = ", ".join(
            link(code(sid), f"{TO_CHECKS}#{shape_anchor(sid)}")
            + (f" (while {code(s.enabled_by)} is true)" if s.enabled_by is not None else "")
            for sid, s in rs.shapes.items())
        rows = [
            ["Id", code(d["id"])],
            ["Players", str(d["players"])],
            ["Tile set", tileset],
            ["Declared melds", melds],
            ["Winning shapes", shapes],
            ["Minimum fan", str(d["min_fan"])],
        ]
        if d["max_fan"] is not None:
            rows.append(["Fan cap (封顶)", f"{d['max_fan']}: a larger total counts "
                         f"{d['max_fan']}, its fans still listed"])
        rows.append(["Flowers", flowers])
        if d["first_turn_claims"]:
            rows.append(["First turn", "`context.first_turn` is a win in the first go-round: "
                         "a meld claimed in it is allowed"])
        if rs.combination_policy:
            rows.append(["Chow combinations", link(code(rs.combination_policy),
                                                    f"{TO_CHECKS}#"
                                                    f"{policy_anchor(rs.combination_policy)}")])
        if rs.tie_break_fans:
            rows.append(["Between readings of equal total",
                         f"one with {self.fans(rs.tie_break_fans)} is preferred"])
        # A rule set extends only one of its own family.
        parent = cast(RuleSet | None, self.src.parent)
        if parent is not None:
            rows.append(["Extends", link(code(parent.id), f"{parent.id}.md")
                         + f" ({md(parent.name)})"])
        rows.append(["Rule set file", link(code(f"rulesets/{rs.id}.yaml"),
                                           f"{TO_ROOT}rulesets/{rs.id}.yaml")])
        if self.src.cases:
            rows.append(["Cases", link(code(f"tests/cases/{rs.id}/"),
                                       f"{TO_ROOT}tests/cases/{rs.id}/")])
        lines = ["## At a glance", "", *table(["", "This rule set"], rows)]
        if parent is not None:
            lines += self.extends(parent)
        return lines

    def extends(self, parent: RuleSet) -> list[str]:
        raw = self.src.raw
        keys = sorted(set(raw) - {"id", "family", "extends", "fans", "remove_fans"})
        own = [str(f["id"]) for f in raw.get("fans") or [] if isinstance(f, Mapping)]
        inherited = set(parent.fan_by_id)
        replaced = [fid for fid in own if fid in inherited]
        added = [fid for fid in own if fid not in inherited]
        removed = [str(fid) for fid in raw.get("remove_fans") or []]
        text = (f"This rule set extends {link(code(parent.id), parent.id + '.md')}: it starts "
                "from that rule set's definition, and each top-level key its file gives "
                "replaces the parent's, but shapes and options, which replace the parent's "
                f"entry of the same name (here: {', '.join(code(k) for k in keys) or 'none'}).")
        if replaced:
            text += (f" Fans it changes (the keys it gives laid over the parent's entry): "
                     f"{self.fans(replaced)}.")
        if added:
            text += f" Fans it adds: {self.fans(added)}."
        if removed:
            text += f" Fans of the parent it removes: {', '.join(code(f) for f in removed)}."
        return [text, ""]

    def requirements(self) -> list[str]:
        d = self.doc
        lines = ["## What a win requires", ""]
        items = ["a reading in one of the winning shapes (see Shapes below)"]
        if d["min_fan"]:
            fewer = [f.id for f in self.rs.fans if not f.counts_toward_minimum]
            item = f"at least {d['min_fan']} fan"
            if fewer:
                item += f", not counting {self.fans(fewer)}"
            items.append(item)
        lines += [f"- {item}" for item in items]
        if d["requirements"]:
            lines.append("- every condition of this table; a hand that fails one is no win, "
                         "and its result gives the reason:")
        lines.append("")
        if d["requirements"]:
            rows = []
            for r in d["requirements"]:
                known(r, REQUIREMENT_KEYS, "requirements")
                rows.append([link(code(r["check"]), f"{TO_CHECKS}#{check_anchor(r['check'])}"),
                             code(flow_items(r["params"])) if r["params"] else "none",
                             code(r["reason"]), md(r["message"])])
            lines += table(["Check", "Parameters", "Reason", "Message"], rows)
        if d["fan_requirements"]:
            lines += ["After the fans are counted, a winning hand must also count some fan "
                      "besides those named here, while the condition holds:", ""]
            rows = []
            for r in d["fan_requirements"]:
                known(r, FAN_REQUIREMENT_KEYS, "fan_requirements")
                when = r["when"]
                if when is None:
                    cond = "always"
                else:
                    values = ", ".join(code(flow(v)) for v in when["in"])
                    cond = f"the option {code(when['option'])} is one of {values}"
                if r["win_type"] is not None:
                    won = f"the hand is won by {code(r['win_type'])}"
                    cond = won if when is None else f"{cond}, and {won}"
                rows.append([self.fans(r["some_fan_besides"]) or "none (any fan)", cond,
                             code(r["reason"]),
                             md(r["message"])])
            lines += table(["Some fan besides", "While", "Reason", "Message"], rows)
        lines += self.context_rules()
        return lines

    def _while(self, conditions: Any) -> str:
        parts = [f"{code(c.option)} is " + " or ".join(code(flow(v)) for v in c.values)
                 for c in conditions]
        return "While " + " and ".join(parts)

    def context_rules(self) -> list[str]:
        """The rule set's conditions on the context (refused as inconsistent_context)."""
        rules = self.rs.context_rules
        if not rules:
            return []
        lines = ["A request is refused (422 " + code("inconsistent_context") + ") when it "
                 "breaks one of these conditions on the context:", ""]
        for r in rules:
            needs = []
            if r.win_type is not None:
                needs.append(f"the win is by {code(r.win_type)}")
            if r.winner_set is not None:
                needs.append(f"the winner's entry of {code(r.winner_set)} is set")
            lines.append(f"- {self._while(r.when)}: {' and '.join(needs)} ({md(r.message)}).")
        return [*lines, ""]

    WILD_SENTENCES: Mapping[str, Callable[[TilePage, Any], str | None]] = {
        "indicator": lambda p, v: (
            f"A request names the flipped indicator tile in {code('context.wild_indicator')}; "
            f"the wild kinds are {md(p.doc['wild']['indicator_rule'])} (rule {code(v)})."
            if v is not None else f"A request may not name an indicator tile "
            f"({code('context.wild_indicator')})."),
        "indicator_rule": lambda p, v: None,  # said with `indicator`
        "explicit": lambda p, v: (
            f"A request may list the wild kinds themselves in {code('context.wilds')}."
            if v else f"A request may not list wild kinds ({code('context.wilds')})."),
        "indicator_out_of_play": lambda p, v: (
            "The flipped indicator tile is out of play: it counts as one copy of its kind in "
            "sight." if v else "The indicator tile is not counted as a copy in sight."),
        "description": lambda p, v: md(v) if v else None,
    }

    def wild(self) -> list[str]:
        w = self.doc["wild"]
        lines = ["## Wild tiles", ""]
        if w is None:
            lines += ["This rule set plays without wild tiles: a request that names "
                      f"them ({code('context.wild_indicator')}, {code('context.wilds')}) is "
                      "refused.", ""]
            stand_in = self.rs.stand_in
            if stand_in is not None:
                lines += [self._while(stand_in.when) + ", the winning tile is a stand-in: "
                          "it stands for the tile completing the rest of the hand that "
                          "scores best (a win first, then the higher value, then the higher "
                          "fan total), and the result's "
                          f"{code('decomposition.wilds')} pairs it with that tile. "
                          + md(stand_in.description), ""]
            return lines
        known(w, self.WILD_SENTENCES, "wild")
        for key, sentence in self.WILD_SENTENCES.items():
            text = sentence(self, w[key])
            if text:
                lines += [text, ""]
        return lines

    def shapes(self) -> list[str]:
        lines = ["## Shapes", "",
                 "The ways a hand may be read here. Between readings of equal total the lower "
                 "priority is preferred; when a final shape is found, no other reading is "
                 "compared.", ""]
        rows = []
        switched = []
        for sid, s in self.rs.shapes.items():
            known((f.name for f in dataclasses.fields(s)), SHAPE_DEF_FIELDS, f"shapes.{sid}")
            if s.enabled_by is not None:
                switched.append(f"{code(sid)} is a winning shape only while "
                                f"{self.option(s.enabled_by)} is true; otherwise a hand read "
                                f"only in it is no win ({code('no_winning_shape')}), and "
                                "waits leave out the tiles it alone completes.")
            only = "every fan" if s.only_fans is None else self.fans(s.only_fans)
            extras = "; ".join(f"{rank}: {self.fans(fans)}"
                               for rank, fans in sorted(s.extras_by_win_rank.items()))
            rows.append([link(code(sid), f"{TO_CHECKS}#{shape_anchor(sid)}"),
                         str(s.priority), "yes" if s.final else "no", only, extras or "none"])
        lines += table(["Shape", "Priority", "Final", "Fans looked for",
                        "Fixed extras by the rank of the winning tile"], rows)
        for text in switched:
            lines += [text, ""]
        return lines

    def fan_notes(self, fid: str) -> str:
        f = self.rs.fan_by_id[fid]
        notes = []
        if f.shapes is not None:
            notes.append("only in shape " + ", ".join(code(s) for s in sorted(f.shapes)))
        for c in f.when:
            if c.switch:  # `enabled_by: X`, the shorthand of `when: {option: X, in: [true]}`
                notes.append(f"counts only while {self.option(c.option)} is true")
                continue
            values = ", ".join(code(flow(v)) for v in c.values)
            some = "is" if len(c.values) == 1 else "is one of"
            notes.append(f"counts only while {self.option(c.option)} {some} {values}")
        if f.needs_other_fan:
            notes.append("counts only beside some other fan")
        if f.final:
            notes.append("final: a reading counting it is the hand's, no other is compared")
        if not f.counts_toward_minimum:
            notes.append("not counted toward the minimum")
        if f.when_nothing_else:
            notes.append("decided last: counted only when no other fan counts")
        if f.id == self.rs.flower_fan:
            notes.append("the flower fan: once per flower set aside")
        if f.id in self.rs.tie_break_fans:
            notes.append("breaks ties between readings of equal total")
        return "; ".join(notes)

    def fan_table(self) -> list[str]:
        fans = self.doc["fans"]
        if not fans:
            return ["## Fans", "",
                    "This rule set counts no fan: every winning hand scores 0 fan (an empty "
                    f"{code('fans')} list and a {code('fan_total')} of 0 in every result). It "
                    "decides whether a hand is a legal win, and its money is the payment "
                    "below.", ""]
        lines = ["## Fans", "",
                 f"{len(fans)} fans, in the rule set's order as "
                 f"{code(f'GET /v1/rulesets/{self.rs.id}')} lists them, which is the order the "
                 "engine decides them in (a fan before the fans it excludes). A fan "
                 "counted leaves out the fans it excludes (不计). The check is the function "
                 "that finds the fan, with the rule set's parameters "
                 f"({link('the checks', TO_CHECKS)}).",
                 ""]
        rows = []
        for f in fans:
            known(f, FAN_KEYS, "fans")
            fd = self.rs.fan_by_id[f["id"]]
            check = link(code(fd.check), f"{TO_CHECKS}#{check_anchor(fd.check)}")
            if fd.params:
                check += " " + code(flow_items(fd.params))
            value = (str(f["value"]) if fd.value_by is None
                     else self.option(fd.value_by.option) if not fd.value_by.values
                     else f"{f['value']} (chosen by {self.option(fd.value_by.option)})")
            rows.append([md(f["name"]), md(f["name_en"]), code(f["id"]), value,
                         self.fans(f["excludes"]) or "none", md(f["description"]), check,
                         self.fan_notes(f["id"])])
        lines += table(["番种", "Fan", "Id", "Value", "Excludes", "Description", "Check",
                        "Notes"], rows)
        return lines

    def checks_used(self) -> list[str]:
        users: dict[str, list[str]] = {}
        for f in self.rs.fans:
            users.setdefault(f.check, []).append(self.fan(f.id))
        for r in self.doc["requirements"]:
            users.setdefault(r["check"], []).append(f"the requirement {code(r['reason'])}")
        if not users:
            return ["## Checks used", "", "None: this rule set has no fan and no requirement "
                    "that names a check.", ""]
        rows = [[link(code(name), f"{TO_CHECKS}#{check_anchor(name)}"),
                 md(chinese_name(CHECKS[name])), ", ".join(users[name])]
                for name in sorted(users)]
        return ["## Checks used", "", *table(["Check", "Name", "Used by"], rows)]

    def payment(self) -> list[str]:
        p = self.doc["payment"]
        known(p, PAYMENT_KEYS, "payment")
        scheme = p["scheme"]
        lines = ["## Payment", "",
                 f"Scheme {link(code(scheme), f'{TO_CHECKS}#{scheme_anchor(scheme)}')}. "
                 + md(p["description"]), ""]
        rows = []
        for name, value in p["params"].items():
            if isinstance(value, Mapping) and set(value) == {"option"}:
                shown = f"{self.option(value['option'])}, as the request sets it"
            else:
                shown = code(flow(value))
            rows.append([code(name), shown])
        if rows:
            lines += table(["Parameter", "Value"], rows)
        return lines

    # worked examples

    SCORE_EXPECT = frozenset({"winning", "reason", "shape", "fans", "fan_total", "value", "net",
                              "error", "not_counted"})
    # The rules an explanation may name besides a counted fan, in words.
    LEFT_OUT_BY: ClassVar[Mapping[str, str]] = {
        "shape": "the shape", "option": "an option", "account_once": "套算一次",
        "needs_other_fan": "no other fan"}
    WAITS_EXPECT = frozenset({"waits", "not_winning", "fans", "best"})

    def counted(self, fans: Mapping[str, int], where: str) -> str:
        items = [(self.fan_key(name, where), n) for name, n in fans.items()]
        if not items:
            return "no fan"
        shown = [f"{self.fan(fid)} ×{n}" for fid, n in items if n > 0]
        absent = [self.fan(fid) for fid, n in items if n == 0]
        if not absent:
            return ", ".join(shown)
        text = "among its fans " + ", ".join(shown) if shown else ""
        return (text + "; " if text else "") + "not " + ", ".join(absent)

    def score_expect(self, exp: Mapping[str, Any], where: str) -> str:
        known(exp, self.SCORE_EXPECT, f"{where}: expect")
        if "error" in exp:
            return f"refused: {code(exp['error'])}"
        parts = self.outcome(exp)
        if "shape" in exp:
            parts.append(f"shape {code(exp['shape'])}")
        if "fans" in exp:
            parts.append(self.counted(exp["fans"], where))
        if "fan_total" in exp:
            parts.append(f"{exp['fan_total']} fan")
        if "value" in exp:
            parts.append(f"value {flow(exp['value'])}")
        if "net" in exp:
            parts.append(f"net {code(flow(exp['net']))}")
        if "not_counted" in exp:
            left = [f"{self.fan(self.fan_key(name, where))} (by "
                    + (self.LEFT_OUT_BY[by] if by in self.LEFT_OUT_BY
                       else self.fan(self.fan_key(by, where))) + ")"
                    for name, by in exp["not_counted"].items()]
            parts.append("not counted: " + (", ".join(left) or "none"))
        return "; ".join(parts)

    def waits_expect(self, exp: Mapping[str, Any], where: str) -> str:
        known(exp, self.WAITS_EXPECT, f"{where}: expect")
        waits = exp.get("waits") or {}
        if not waits:
            parts = ["not ready"]
        else:
            parts = ["waits (tile: fan) " + ", ".join(f"{code(t)}: {n}" for t, n in waits.items())]
        if exp.get("not_winning"):
            parts.append("no win on " + ", ".join(code(t) for t in exp["not_winning"]))
        for tile, fans in (exp.get("fans") or {}).items():
            parts.append(f"on {code(tile)}: {self.counted(fans, where)}")
        if "best" in exp:
            parts.append("best " + (code(exp["best"]) if exp["best"] is not None else "none"))
        return "; ".join(parts)

    def examples(self) -> list[str]:
        rid = self.rs.id
        lines = ["## Worked examples", ""]
        if not self.src.cases:
            return [*lines, f"No cases yet: add them under {code(f'tests/cases/{rid}/')}.", ""]
        lines += ["Each case is a test: the hand cases are scored by "
                  f"{code('tests/cases/test_cases.py')} and the waits cases answered by "
                  f"{code('tests/cases/test_waits_cases.py')}, each checked against the "
                  "expected result shown. Hands are written as a request takes them: "
                  f"{code('[...]')} a declared meld, {code('{...}')} a concealed kong, the last "
                  "tile outside brackets the winning tile (for waits, the hand is one tile "
                  "short). A fan marked not is asserted absent, the others then being some of "
                  "the fans only.", ""]
        return [*lines, *case_tables(
            self.src.cases, lambda h: code(h if isinstance(h, str) else flow(h)),
            self.score_expect, self.waits_expect)]
