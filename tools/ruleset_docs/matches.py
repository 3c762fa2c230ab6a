"""The Matches section of every rule set's page: how a match of it is played (`POST
.../match`), in words, from its document's `match` (`app.service.definitions.match_definition`,
the YAML's `match:` section). A rule or a value it has no words for stops the generator
(`DocsError`), so a new rule cannot go undocumented."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tools.ruleset_docs.common import (
    OPTION_KEYS,
    DocsError,
    code,
    flow,
    known,
    md,
    option_range,
    para,
    table,
)

__all__ = ["match_section"]

MATCH_KEYS = frozenset({"description", "options", "rules"})
_MOVES = {"stays": "the dealer deals again", "next": "the dealer's next seat deals",
          "winner": "the winner deals", "kong_passes": (
              "the dealer deals again, unless the dealer made no kong in the hand and another "
              "player did: then the next seat deals"),
          "last_drawer": "whoever drew the last tile deals"}
_SEVERAL = {"discarder": "when the hand's first win was several players winning one discard "
                         "(一炮多响), its discarder deals",
            "any_discarder": "when several players won one discard anywhere in the hand, the "
                             "discarder of the first such discard deals",
            "winner": "the first winner in turn order from the discarder counts as the winner"}
_FALSE_KINDS = {"wrong_shape": "错和 (a complete hand that does not win)",
                "wrong_tile": "和错牌 (a ready hand claiming a tile it does not wait on)",
                "not_ready": "诈和 (a hand not ready)"}


def _length(rules: Mapping[str, Any]) -> Any:
    hands, dealerships = rules["hands"], rules["dealerships"]
    if isinstance(hands, Mapping) or isinstance(dealerships, Mapping):
        # Chosen by an option: both are the option's mapping, by the same choices.
        chosen = hands if isinstance(hands, Mapping) else dealerships
        return {"option": chosen["option"], "values": {
            k: {"hands": _value(hands, k), "dealerships": _value(dealerships, k)}
            for k in chosen["values"]}}
    return {"hands": hands, "dealerships": dealerships}


def _value(v: Any, key: str) -> Any:
    return v["values"][key] if isinstance(v, Mapping) and "option" in v else v


def _length_words(v: Mapping[str, Any]) -> str:
    if v["hands"] is not None:
        return f"{v['hands']} hands"
    if v["dealerships"] is not None:
        return (f"{v['dealerships']} dealerships: it ends when the deal would pass to a "
                f"dealer past the {v['dealerships']}th")
    return "open: it ends when the players stop"


def _seating_words(v: Any) -> str:
    if v is None:
        return "the players keep their seats"
    return "; ".join(f"圈 {i + 1}: " + " ".join(f"P{p}" for p in row)
                     for i, row in enumerate(v)) + " (the players at 东位 南位 西位 北位)"


def _false_win_words(v: Any) -> str:
    if v is None:
        return "none priced (a penalty states the points)"
    parts = []
    for kind, (how, points) in v.items():
        if kind not in _FALSE_KINDS or how not in ("each", "deduct"):
            raise DocsError(f"match.rules.false_win: no words for {kind!r}: {how!r}")
        cost = (f"pays {points} to each other player" if how == "each"
                else f"{points} deducted, paid to nobody")
        parts.append(f"{_FALSE_KINDS[kind]}: {cost}")
    return "; ".join(parts)


def _table_points_words(v: Any) -> str:
    if v is None:
        return "none: ranks by points only"
    return "/".join(flow(p) for p in v) + " by place (tied players share the mean)"


def _words(table_: Mapping[str, str]) -> Callable[[Any], str]:
    def say(v: Any) -> str:
        if v not in table_:
            raise DocsError(f"match.rules: no words for {v!r}")
        return table_[v]
    return say


_RULES: tuple[tuple[str, str, Callable[[Any], str]], ...] = (
    ("dealer_wins", "After the dealer wins", _words(_MOVES)),
    ("other_wins", "After another player wins first", _words(_MOVES)),
    ("drawn", "After a hand nobody won", _words(_MOVES)),
    ("several_winners", "Several winners on one discard", _words(_SEVERAL)),
    ("length", "Length", _length_words),
    ("seating", "Seats", _seating_words),
    ("winds", "Winds", lambda v: ("the prevailing wind is the 圈's, the dealer holds 东" if v
                                  else "none")),
    ("one_winner", "One discard, one winner (截和)", lambda v: (
        "yes: of several claims, the first in turn order from the discarder" if v else "no")),
    ("false_win", "False wins", _false_win_words),
    ("false_win_voids_kongs", "A false win's kong money", lambda v: (
        "goes back to those who paid it (the offender's kongs of that hand)" if v
        else "stands")),
    ("offender_plays_on", "After a false win", lambda v: (
        "the offender plays the hand on but may not win it (陪打)" if v
        else "nothing more is said of the offender")),
    ("base_points", "Base points", lambda v: f"{v} each at the start"),
    ("table_points", "Table points", _table_points_words),
)


def _said(v: Any, say: Callable[[Any], str]) -> str:
    """A rule's words; a rule an option chooses, each choice's."""
    if isinstance(v, Mapping) and set(v) >= {"option", "values"}:
        choices = "; ".join(f"{code(_choice(k))}: {_said(x, say)}"
                            for k, x in v["values"].items())
        default = f"; otherwise {_said(v['default'], say)}" if "default" in v else ""
        return f"by the match option {code(v['option'])}: {choices}{default}"
    if isinstance(v, Mapping) and set(v) == {"option"}:
        return f"the match option {code(v['option'])}'s value"
    return md(say(v))


def _choice(key: str) -> str:
    # A document's keys are strings: a bool option's choices are written as JSON writes them.
    return {"True": "true", "False": "false"}.get(key, key)


def match_section(rid: str, match: Mapping[str, Any] | None) -> list[str]:
    """The page's Matches section."""
    if match is None:
        return ["## Matches", "", "This rule set plays no matches.", ""]
    known(match, MATCH_KEYS, "match")
    rules = dict(match["rules"])
    rules["length"] = _length(rules)
    names = {key for key, _, _ in _RULES} | {"hands", "dealerships"}
    known(rules, names, "match.rules")
    lines = ["## Matches", "", para(
        f"A whole match is scored at {code(f'POST /v1/rulesets/{rid}/match')}: every hand at "
        "the table the match derives, the running totals and the standings. "
        + match["description"]), ""]
    lines += table(["Rule", "This rule set"],
                   [[md(label), _said(rules[key], say)] for key, label, say in _RULES])
    if match["options"]:
        lines += [f"The match's own options, set in a match request's "
                  f"{code('match_options')}:", ""]
        rows = []
        for o in match["options"]:
            known(o, OPTION_KEYS, "match.options")
            rows.append([code(o["name"]), code(o["type"]), code(flow(o["default"])),
                         option_range(o), md(o["description"])])
        lines += table(["Option", "Type", "Default", "Choices or range", "Description"], rows)
    return lines
