"""The scoring operations, one declaration each (`OperationDecl`): everything the routes
(`app.api.routes`), the direct path (`app.api.direct`) and the contract's generator
(`tools/openapi`) need to know of an operation on a rule set, in one place.

An operation is a `POST` of a JSON body to `/v1/rulesets/{ruleset}/<name>`, answered by
`answer` (a decoded body, the rule set, the `explain` flag -> the answer's JSON; it raises the
request's error). Its declaration says besides:

- `explain`: whether it takes the `explain` query parameter (else a query string is not read);
- `counted`: for an operation that scores a number of hands per request (a round), the answer
  and that number, which the metrics count (else one hand per answer);
- `refuse`: a rule set it does not serve, refused once the body is read (given every loaded
  rule set, which the refusal may name: `settle_not_supported`);
- `picture`: its answer can be drawn (`POST .../<name>/picture`, or `Accept: image/svg+xml` on
  the JSON path): the reader giving the request as the engine took it and the JSON answer,
  drawn by the family's `pictures[name]` (`app.service.picture_answers`; a match's reader
  gives the body as posted, its scoresheet being drawn from the answer alone);
- `batch`: its batch form (`POST .../<name>/batch`): the item function, and the explained one;
- `direct`: the direct path may answer its common request (no query string, a JSON body);
- `body_limit`: the app setting naming the most bytes its body may hold, when it is not the
  single request's `MAX_CONTENT_LENGTH` (a match holds many hands);
- `serves`: whether the contract lists it for a family (every family by default; every rule
  set is routed, and a family that does not answer it refuses it with its own problem), and
  the contract's names: the
  `operation_id` (and `batch_id`), the request's and the answer's component names (a family
  adds its own prefixes, `ServiceFamily.contract`) and a one-line `summary`.

The built-in operations are declared here; `register_operation` adds one (a test's toy
operation), `unregister_operation` removes it. Routes are made from the table when an app is
made (`app.api.routes.register_operations`), so an operation registered before is served.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from app.rules.families import ServedRuleSet
from app.service.batch import (
    ItemFunction,
    analysis_item,
    explained_score_item,
    explained_waits_item,
    score_body,
    score_item,
    waits_body,
    waits_item,
)
from app.service.families import (
    AnyFamily,
    analysis_body,
    analysis_of,
    service_family,
    settle_body,
    settles_rounds,
)
from app.service.matches import match_answer, match_body
from app.service.problems import ApiError

__all__ = [
    "PREFIX",
    "BatchForm",
    "OperationDecl",
    "operation",
    "operations",
    "register_operation",
    "unregister_operation",
]

Json = dict[str, Any]
Answerer = Callable[[Json, ServedRuleSet, bool], Json]
CountedAnswerer = Callable[[Json, ServedRuleSet, bool], tuple[Json, int]]
PictureReader = Callable[[Json, ServedRuleSet], tuple[Any, Json]]
Refusal = Callable[[ServedRuleSet, Iterable[ServedRuleSet]], "ApiError | None"]

PREFIX = "/v1/rulesets/"


@dataclass(frozen=True)
class BatchForm:
    """An operation's batch form: the item function, and the one for `?explain=true` (None:
    the operation takes no `explain`)."""

    item: ItemFunction
    explained: ItemFunction | None = None
    operation_id: str = ""  # the contract's operationId of the batch form


@dataclass(frozen=True)
class OperationDecl:
    """One scoring operation (the module's docstring says each part)."""

    name: str  # the path's last segment, the metrics' endpoint, the kind of its picture
    answer: Answerer
    operation_id: str
    request_schema: str  # the contract's component names of its bodies (the tile games')
    answer_schema: str
    summary: str
    serves: Callable[[AnyFamily], bool] = lambda family: True
    explain: bool = False
    counted: CountedAnswerer | None = None
    refuse: Refusal | None = None
    picture: PictureReader | None = None
    batch: BatchForm | None = None
    direct: bool = False
    body_limit: str | None = None

    @property
    def method(self) -> str:
        return "POST"

    @property
    def path(self) -> str:
        """The path template, as the contract writes it."""
        return f"{PREFIX}{{ruleset}}/{self.name}"

    def answered(self, body: Json, rs: ServedRuleSet, explain: bool) -> tuple[Json, int]:
        """The answer to a decoded body and the hands it scored."""
        if self.counted is not None:
            return self.counted(body, rs, explain)
        return self.answer(body, rs, explain), 1


_DECLARED: dict[str, OperationDecl] = {}


def register_operation(decl: OperationDecl, *, replace: bool = False) -> None:
    """Declare an operation; `ValueError` when one of that name is declared already, unless
    `replace`: then it takes that one's place (a test's variant of a built-in operation), and
    `KeyError` when there is none."""
    if replace and decl.name not in _DECLARED:
        raise KeyError(f"no operation named {decl.name!r} to replace")
    if not replace and decl.name in _DECLARED:
        raise ValueError(f"an operation named {decl.name!r} is declared already")
    if decl.direct and (decl.counted is not None or decl.refuse is not None):
        # The direct path answers by `answer` alone, as the route does for such an operation.
        raise ValueError(f"operation {decl.name!r}: the direct path answers no counted or "
                         "refusing operation")
    _DECLARED[decl.name] = decl


def unregister_operation(name: str) -> None:
    """Remove an operation (a test's own, when it is done)."""
    del _DECLARED[name]


def operations() -> tuple[OperationDecl, ...]:
    """The declared operations, in the order they were declared."""
    return tuple(_DECLARED.values())


def operation(name: str) -> OperationDecl:
    """The operation of that name; `KeyError` when none is declared."""
    return _DECLARED[name]


# --- the built-in operations ----------------------------------------------------------------


def _score_drawn(body: Json, rs: ServedRuleSet) -> tuple[Any, Json]:
    family = service_family(rs)
    request = family.read_score(body, rs)
    return request, family.write_score(family.score(request, rs), rs, None)


def _waits_drawn(body: Json, rs: ServedRuleSet) -> tuple[Any, Json]:
    family = service_family(rs)
    request = family.read_waits(body, rs)
    return request, family.write_waits(family.waits(request, rs, False), rs)


def _analysis_drawn(body: Json, rs: ServedRuleSet) -> tuple[Any, Json]:
    analysis = analysis_of(rs)
    request = analysis.read(body, rs)
    return request, analysis.write(analysis.analyse(request, rs))


def _match_drawn(body: Json, rs: ServedRuleSet) -> tuple[Any, Json]:
    # The scoresheet is drawn from the answer alone: it holds every hand and the standings.
    return body, match_body(body, rs, False)


def _analysis(body: Json, rs: ServedRuleSet, explain: bool) -> Json:
    return analysis_body(body, rs)  # an analysis has nothing to explain


def _settle(body: Json, rs: ServedRuleSet, explain: bool) -> tuple[Json, int]:
    return settle_body(body, rs)


def _settle_answer(body: Json, rs: ServedRuleSet, explain: bool) -> Json:
    return settle_body(body, rs)[0]


def _settle_refusal(rs: ServedRuleSet, loaded: Iterable[ServedRuleSet]) -> ApiError | None:
    if settles_rounds(rs):
        return None
    settling = [r.id for r in loaded if settles_rounds(r)]
    return ApiError("settle_not_supported",
                    f"Rule set {rs.id!r} scores single hands but defines no round settlement; "
                    f"rule sets that settle rounds: {', '.join(settling) or 'none'}.")


for _decl in (
    OperationDecl(
        "score", score_body, "scoreHand", "ScoreRequest", "ScoreResponse", "Score one hand",
        explain=True, picture=_score_drawn, direct=True,
        batch=BatchForm(score_item, explained_score_item, "scoreHands")),
    OperationDecl(
        "waits", waits_body, "listWaits", "WaitsRequest", "WaitsResponse",
        "List the tiles a hand one tile short waits on, each with its score",
        explain=True, picture=_waits_drawn, direct=True,
        batch=BatchForm(waits_item, explained_waits_item, "listWaitsOfHands")),
    OperationDecl(
        "analysis", _analysis, "analyseHand", "AnalysisRequest", "AnalysisResponse",
        "Analyse a hand of 13 or 14 tiles: shanten, useful tiles, the value of each discard",
        serves=lambda family: family.analysis is not None, picture=_analysis_drawn,
        batch=BatchForm(analysis_item, None, "analyseHands")),
    OperationDecl(
        "settle", _settle_answer, "settleRound", "SettleRequest", "SettleResponse",
        "Settle a whole round (血战到底, 天津, 卡五星, 长春) from its events",
        serves=lambda family: family.rounds is not None, counted=_settle,
        refuse=_settle_refusal),
    OperationDecl(
        "match", match_body, "scoreMatch", "MatchRequest", "MatchResponse",
        "Score a whole match: who deals, the winds and seats, running totals and standings",
        serves=lambda family: family.plays_matches, explain=True, counted=match_answer,
        picture=_match_drawn, body_limit="MAX_MATCH_CONTENT_LENGTH"),
):
    register_operation(_decl)
