"""Matches in bulk: a match request in, its answer out, as `POST /v1/rulesets/{ruleset}/match`
answers it (`app.service.matches`).

- `match`: one match request (a dict) and its rule set's id -> `{"result": <the answer>}`, or
  `{"error": <problem>}`: what the endpoint would answer, as an item of the bulk scorer;
- `MatchLineScorer`: the line scorer (`mahjong_scoring.lines.LineScorer`) of a log whose
  lines are match requests, each with an optional `"ruleset"` field: each output line is the
  line's match item, an error naming its input `line`; `mahjong-score --match` and
  `score_lines(..., match=True)` write with it, the same bytes;
- `line_scorer`: the line scorer of an endpoint, a match's included (the command-line scorer
  makes its scorers with it).

A line is one whole match (or its next hands, with the `state` an answer gave): the matches
of a log are independent of each other, so a log of matches is cut and scored in parallel as
a log of hands is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import orjson

from app.domain.errors import HandError
from app.rules.families import ServedRuleSet
from app.service.batch import Item
from app.service.json_body import not_an_object
from app.service.matches import match_body
from app.service.problems import ApiError, api_problem, hand_problem
from mahjong_scoring.lines import LineScorer, served_rulesets

__all__ = ["MATCH", "MatchLineScorer", "line_scorer", "match", "match_item"]

MATCH = "match"  # the endpoint's name, as the command-line scorer's settings name it


def _item(body: object, ruleset: ServedRuleSet, explain: bool) -> Item:
    if type(body) is not dict:
        return {"error": api_problem(not_an_object(body))}
    try:
        return {"result": match_body(body, ruleset, explain)}
    except HandError as exc:
        return {"error": hand_problem(exc)}
    except ApiError as exc:
        return {"error": api_problem(exc)}


def match_item(body: object, ruleset: ServedRuleSet) -> Item:
    """One match request's item: its answer, or the problem the endpoint would answer."""
    return _item(body, ruleset, False)


def explained_match_item(body: object, ruleset: ServedRuleSet) -> Item:
    """As `match_item`, each hand's answer explained (`?explain=true`)."""
    return _item(body, ruleset, True)


def match(request: Mapping[str, Any], ruleset: str) -> dict[str, Any]:
    """The answer to one match request, as `POST /v1/rulesets/{ruleset}/match` answers it:
    `{"result": ...}`, or `{"error": <problem>}` when the match cannot be scored.

        match({"hands": [{"win": {"hand": "123m123p123s789s5p5p", "context": {
            "win_type": "discard", "winner": 1, "discarder": 2}}}]},
            "mcr")["result"]["standings"]["totals"]   # [-8, 38, -22, -8]

    Raises ValueError when `ruleset` is not a served rule set."""
    rulesets = served_rulesets()
    if ruleset not in rulesets:
        raise ValueError(f"no rule set {ruleset!r}; known: {', '.join(rulesets)}")
    # As the endpoint sends it: plain JSON values (the answer's state holds tuples).
    return cast(dict[str, Any], orjson.loads(orjson.dumps(
        match_item(dict(request), rulesets[ruleset]))))


def _ended(result: Mapping[str, Any]) -> bool:
    return bool(result["ended"])


class MatchLineScorer(LineScorer):
    """A `LineScorer` whose lines are match requests: every line is read, numbered and
    written as a score request's is, and answered by `match_item` (a result counts as "won"
    when its match has ended)."""

    def __init__(self, rulesets: Mapping[str, ServedRuleSet], default: str | None = None,
                 seconds: float | None = None, explain: bool = False) -> None:
        super().__init__(rulesets, default, "score", seconds, explain)
        self.endpoint = MATCH
        self._item = explained_match_item if explain else match_item
        self._won = _ended


def line_scorer(rulesets: Mapping[str, ServedRuleSet], default: str | None = None,
                endpoint: str = "score", seconds: float | None = None,
                explain: bool = False) -> LineScorer:
    """The line scorer of `endpoint`: score, waits, analysis, or match."""
    if endpoint == MATCH:
        return MatchLineScorer(rulesets, default, seconds, explain)
    return LineScorer(rulesets, default, endpoint, seconds, explain)
