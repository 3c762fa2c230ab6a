"""The families of game, as the service serves them: for each family (named as in
`app.rules.families`), how a request is read, which engine call answers it, how the answer and
the rule set's document are written, and whether it settles rounds.

Every answer of the service about a rule set goes through here: the routes
(`GET /v1/rulesets/{ruleset}`, `/settle`), the score and waits answers that the routes, the
direct path and each batch item share (`app.service.batch.score_body`, `waits_body`), and so
the bulk scorer (`mahjong_scoring`). Nothing else asks a rule set's class: a family is served
as soon as it is registered here and in the rules layer, without a change to `app/api`.

What a family gives (`ServiceFamily`):

- `read_score`, `read_waits`: a decoded body and the rule set -> the request as the engine
  takes it, or the request's error (`HandError`, `ApiError`); `schemas`, the marshmallow
  schemas they check a body with first;
- `score`, `explain`, `waits`: the engine's calls (`explain`: the result and what the scoring
  compared, for `?explain=true`; `waits` takes the `explain` flag itself);
- `write_score`, `write_waits`: the answers' JSON, the envelope of `app.service.envelope`
  included; `write_score_encoded`, `write_waits_encoded` (optional): the same JSON once
  encoded with orjson, for answers encoded at once (the bulk scorer's lines);
- `document`: the rule set's document (`GET /v1/rulesets/{ruleset}`);
- `rounds`: how a round is read, settled and written (`POST .../settle`), or None: the family
  settles no rounds, and its rule sets answer 422 `settle_not_supported`;
- `analysis`: how a hand to analyse is read, analysed and written (`POST .../analysis`: 牌效,
  shanten and useful tiles), or None: its rule sets answer 422 `analysis_not_supported`;
- `contract`: how `openapi.yaml` lays out its operations (`FamilyContract`: the templated
  paths or each rule set's own, its components' names, its figures), or None: its rule sets are
  served but not in the contract;
- `plays_matches`: its rule sets play matches (`POST .../match`), each by its `match:`
  section; else the contract lists no match for it, and a match of its rule sets answers
  `match_not_supported`;
- `ready_before_win`: whether a hand claimed as a win that is none was ready without its
  winning tile (how a match tells a false win's kind), or None;
- `pictures`: per kind of answer (`score`, `waits`, `analysis`, `match`), the function drawing
  it as SVG from the request as the engine took it and the answer's JSON (`app.service.pictures`;
  a match's scoresheet is drawn from its answer alone, one drawing both families name;
  sent for `Accept: image/svg+xml`, `app.service.picture_answers`); a kind without one is
  answered in JSON only.

Each family registers itself from its own package (`app.service.tiles`, `app.service.cards`:
`register_service_family` with the family's `ServiceFamily`); the service's package
(`app.service`) imports the served families' packages, one line each, so that the families are
served whatever module of the service is imported first. Nothing here names a family.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Generic, TypeVar

from marshmallow import Schema

from app.rules.families import ServedRuleSet, family_of
from app.service.problems import ApiError

__all__ = [
    "DiscardAnalysis",
    "FamilyContract",
    "RequestSchemas",
    "RoundSettlement",
    "ServiceFamily",
    "analyses_hands",
    "analysis_body",
    "check_served",
    "register_service_family",
    "ruleset_document",
    "served_family",
    "service_families",
    "service_family",
    "settle_body",
    "settled_round",
    "settles_rounds",
    "unregister_service_family",
]

Json = dict[str, Any]
RS = TypeVar("RS")  # the family's rule set
ScoreIn = TypeVar("ScoreIn")  # a score request as the engine takes it
Scored = TypeVar("Scored")  # the engine's scored hand
Why = TypeVar("Why")  # the engine's explanation of a scored hand
WaitsIn = TypeVar("WaitsIn")  # a waits request as the engine takes it
Waits = TypeVar("Waits")  # the engine's waits
RoundIn = TypeVar("RoundIn")  # a round as the engine takes it
AnalysisIn = TypeVar("AnalysisIn")  # a hand to analyse as the engine takes it
Analysed = TypeVar("Analysed")  # the engine's analysis
Settled = TypeVar("Settled")  # the engine's settled round


@dataclass(frozen=True)
class RequestSchemas:
    """The marshmallow schemas a family's requests are checked with first."""

    score: Schema
    waits: Schema
    settle: Schema | None = None


@dataclass(frozen=True)
class RoundSettlement(Generic[RS, RoundIn, Settled]):
    """How a family settles a round (`POST .../settle`)."""

    settles: Callable[[RS], bool]  # whether this rule set settles rounds (its YAML says how)
    read: Callable[[Mapping[str, Any], RS], RoundIn]
    settle: Callable[[RoundIn, RS], Settled]
    write: Callable[[Settled], Json]
    hands: Callable[[RoundIn], int]  # the hands the round scores (the metrics count them)
    # Who won the round first, as a match reads it (`app.scoring.matches.RoundWins`).
    wins: Callable[[RoundIn, RS], Any]


@dataclass(frozen=True)
class DiscardAnalysis(Generic[RS, AnalysisIn, Analysed]):
    """How a family analyses a hand (`POST .../analysis`)."""

    read: Callable[[Mapping[str, Any], RS], AnalysisIn]
    analyse: Callable[[AnalysisIn, RS], Analysed]
    write: Callable[[Analysed], Json]
    schema: Schema


@dataclass(frozen=True)
class FamilyContract(Generic[RS]):
    """How the contract (`openapi.yaml`, tools/openapi) lays out the family's operations: on the
    templated paths, `{ruleset}` one of its rule sets (the path parameter `parameter`, whose
    enum `<parameter>Id` is described by `rulesets`), or, `own_paths`, each rule set on paths of
    its own with its own request components (`components`: name -> schema, the names starting
    with the rule set's prefix; else the schemas in `components` are named by their class).
    Its answers' components are the declared ones with `answers` before the name
    (`CardScoreResponse`); `figured` lists those that take an integer key per figure a rule
    set counts (`figures`: name -> the deck's attribute). `schemas`: the modules declaring the
    family's own answer and document schemas, which the contract reads its components from
    (those both families share are the service core's)."""

    own_paths: bool = False
    parameter: str = ""
    rulesets: str = ""
    answers: str = ""
    components: Callable[[RS | None, str], Iterable[tuple[str, Schema]]] = lambda rs, p: ()
    figures: Callable[[RS], Mapping[str, str]] = lambda rs: {}
    figured: tuple[str, ...] = ()
    schemas: tuple[ModuleType, ...] = ()


@dataclass(frozen=True)
class ServiceFamily(Generic[RS, ScoreIn, Scored, Why, WaitsIn, Waits]):
    """A family of game as the service serves it (the module's docstring says each part)."""

    name: str
    read_score: Callable[[Mapping[str, Any], RS], ScoreIn]
    score: Callable[[ScoreIn, RS], Scored]
    explain: Callable[[ScoreIn, RS], tuple[Scored, Why]]
    write_score: Callable[[Scored, RS, Why | None], Json]
    read_waits: Callable[[Mapping[str, Any], RS], WaitsIn]
    waits: Callable[[WaitsIn, RS, bool], Waits]
    write_waits: Callable[[Waits, RS], Json]
    document: Callable[[RS, Mapping[str, float]], Json]
    schemas: Callable[[RS], RequestSchemas]
    rounds: RoundSettlement[RS, Any, Any] | None = None
    analysis: DiscardAnalysis[RS, Any, Any] | None = None
    # answer kind -> (the request as read, the answer's JSON, the rule set) -> SVG bytes
    pictures: Mapping[str, Callable[[Any, Json, RS, float | None], bytes]] = field(
        default_factory=dict)
    contract: FamilyContract[RS] | None = None  # None: not in the contract
    # Whether a scored hand that is no win was ready before its winning tile (a match's
    # false win: a ready hand claiming a tile it does not wait on, else not ready at all);
    # None: the family cannot tell, and a false win of its rule sets must say its kind.
    ready_before_win: Callable[[ScoreIn, RS], bool] | None = None
    # Its rule sets play matches (`POST .../match`: each has a `match:` section).
    plays_matches: bool = False
    # The unexplained score answer as `write_score` writes it, for an answer encoded with
    # orjson at once and read no further than its `winning` (the bulk scorer's lines): the
    # same JSON once encoded, made for less (parts of it held as encoded fragments); None:
    # `write_score` writes those too.
    write_score_encoded: Callable[[Scored, RS], Json] | None = None
    # The same for the waits answer (`write_waits`), for an answer read no further than its
    # `ready`; None: `write_waits` writes those too.
    write_waits_encoded: Callable[[Waits, RS], Json] | None = None


AnyFamily = ServiceFamily[Any, Any, Any, Any, Any, Any]
_SERVED: dict[str, AnyFamily] = {}


def register_service_family(family: AnyFamily) -> None:
    """Serve a family; `ValueError` when one of that name is served already."""
    if family.name in _SERVED:
        raise ValueError(f"a family named {family.name!r} is served already")
    _SERVED[family.name] = family


def unregister_service_family(name: str) -> None:
    """Stop serving a family (a test's own, when it is done)."""
    del _SERVED[name]


def service_families() -> tuple[str, ...]:
    """The names of the served families, in the order they were registered."""
    return tuple(_SERVED)


def served_family(name: str) -> AnyFamily:
    """The served family of that name; `KeyError` when none is."""
    return _SERVED[name]


def service_family(ruleset: ServedRuleSet) -> AnyFamily:
    """How the service serves the family of a loaded rule set; `LookupError` when it serves
    no such family."""
    name = family_of(ruleset)
    found = _SERVED.get(name)
    if found is None:
        raise LookupError(f"rule set {ruleset.id!r} is of family {name!r}, which the service "
                          f"does not serve (served: {', '.join(_SERVED)})")
    return found


def check_served(rulesets: Iterable[ServedRuleSet]) -> None:
    """`LookupError` unless the service serves the family of every rule set (at start-up, so
    that a family loaded but not served stops the service rather than failing requests)."""
    for rs in rulesets:
        service_family(rs)


def ruleset_document(rs: ServedRuleSet, limits: Mapping[str, float]) -> Json:
    """Everything a client needs to know about a rule set (`GET /v1/rulesets/{ruleset}`),
    with the service's `limits` on requests to it."""
    return service_family(rs).document(rs, limits)


def settles_rounds(rs: ServedRuleSet) -> bool:
    """Whether `POST .../settle` settles rounds of this rule set: its family settles rounds
    and its YAML says how."""
    settlement = service_family(rs).rounds
    return settlement is not None and settlement.settles(rs)


def analyses_hands(rs: ServedRuleSet) -> bool:
    """Whether `POST .../analysis` analyses hands of this rule set (its family does)."""
    return service_family(rs).analysis is not None


def analysis_of(rs: ServedRuleSet) -> DiscardAnalysis[Any, Any, Any]:
    """The rule set's family's discard analysis, or `ApiError` analysis_not_supported for a
    family that analyses no hands."""
    analysis = service_family(rs).analysis
    if analysis is None:
        raise ApiError(
            "analysis_not_supported",
            f"Rule set {rs.id!r} is a game of {family_of(rs)}: the discard analysis (shanten, "
            "useful tiles) is served for the tile games only; post the hand to one of them.")
    return analysis


def analysis_body(body: Mapping[str, Any], rs: ServedRuleSet) -> Json:
    """The analysis response to a decoded request body; raises the request's error, and
    `ApiError` analysis_not_supported for a rule set whose family analyses no hands."""
    analysis = analysis_of(rs)
    return analysis.write(analysis.analyse(analysis.read(body, rs), rs))


def settle_body(body: Mapping[str, Any], rs: ServedRuleSet) -> tuple[Json, int]:
    """The settle response to a decoded request body, and the hands the round scored. The
    rule set settles rounds (`settles_rounds`); raises the request's error."""
    answer, hands, _ = settled_round(body, rs)
    return answer, hands


def settled_round(body: Mapping[str, Any], rs: ServedRuleSet) -> tuple[Json, int, Any]:
    """`settle_body`'s answer and hands, and who won the round first (a match's
    `app.scoring.matches.RoundWins`)."""
    settlement = service_family(rs).rounds
    assert settlement is not None, f"{rs.id} settles no rounds"
    round_ = settlement.read(body, rs)
    answer = settlement.write(settlement.settle(round_, rs))
    return answer, settlement.hands(round_), settlement.wins(round_, rs)
