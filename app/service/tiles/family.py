"""The tile games as the service serves them (`FAMILY`, a `ServiceFamily`): the request readers
(`app.service.tiles.requests`, `settle_requests`), the engine's calls (`app.scoring.evaluate`,
`waits`, `explain`, `rounds`, `analysis`), the answers' writers (`app.service.tiles.responses`),
the rule-set document (`app.service.tiles.documents`) and the pictures
(`app.service.tiles.pictures`), and how the contract lays out its operations (`TILE_CONTRACT`).
The package registers it (`app.service.tiles`)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema

from app.domain.events import Round
from app.domain.hand import Hand, Meld, WinContext
from app.rules.families import TILES
from app.rules.model import RuleSet
from app.scoring import analysis, evaluate, rounds, waits
from app.scoring.analysis import AnalysisResult
from app.scoring.explain import explained
from app.scoring.matches import RoundWins
from app.scoring.result import Explanation, ScoreResult, SettleResult, WaitsResult
from app.service.families import (
    DiscardAnalysis,
    FamilyContract,
    RequestSchemas,
    RoundSettlement,
    ServiceFamily,
)
from app.service.match_schemas import TILE_MATCH
from app.service.pictures.scoresheet import match_scoresheet
from app.service.tiles import answer_schemas, document_schemas
from app.service.tiles.documents import tile_ruleset_document
from app.service.tiles.pictures import (
    tile_analysis_picture,
    tile_score_picture,
    tile_waits_picture,
)
from app.service.tiles.request_schemas import ANALYSIS_REQUEST, SCORE_REQUEST, WAITS_REQUEST
from app.service.tiles.requests import AnalysisIn as AnalysisRequest
from app.service.tiles.requests import (
    read_analysis_request,
    read_score_request,
    read_waits_request,
)
from app.service.tiles.responses import (
    analysis_response,
    score_answer,
    score_line_answer,
    settle_response,
    waits_line_answer,
    waits_response,
)
from app.service.tiles.settle_requests import read_settle_request, round_hands
from app.service.tiles.settle_schemas import SETTLE_REQUEST

__all__ = ["FAMILY", "TILE_ANALYSIS", "TILE_ROUNDS"]

Json = dict[str, Any]
TileScoreIn = tuple[Hand, WinContext]
TileWaitsIn = tuple[tuple[int, ...], tuple[Meld, ...], WinContext]


def _tile_score(request: TileScoreIn, rs: RuleSet) -> ScoreResult:
    # `evaluate.score` looked up at each call (a test puts a broken engine in its place).
    return evaluate.score(request[0], request[1], rs)


def _tile_explain(request: TileScoreIn, rs: RuleSet) -> tuple[ScoreResult, Explanation]:
    return explained(request[0], request[1], rs)


def _tile_waits(request: TileWaitsIn, rs: RuleSet, explain: bool) -> WaitsResult:
    standing, melds, ctx = request
    return waits.waits(standing, melds, ctx, rs, explain)


def _tile_waits_response(result: WaitsResult, rs: RuleSet) -> Json:
    return waits_response(result)


def _tile_ready_before_win(request: TileScoreIn, rs: RuleSet) -> bool:
    hand, ctx = request
    before = list(hand.concealed)
    before.remove(hand.win_tile)
    found = waits.waits(tuple(before), hand.melds, ctx, rs)
    return bool(found.waits)


def _tile_schemas(rs: RuleSet) -> RequestSchemas:
    return RequestSchemas(SCORE_REQUEST, WAITS_REQUEST, SETTLE_REQUEST)


def _tile_settles(rs: RuleSet) -> bool:
    return rs.settlement is not None


def _tile_round_wins(round_: Round, rs: RuleSet) -> RoundWins:
    return rounds.round_wins(round_, rs.players)


TILE_ROUNDS: RoundSettlement[RuleSet, Round, SettleResult] = RoundSettlement(
    settles=_tile_settles, read=read_settle_request, settle=rounds.settle,
    write=settle_response, hands=round_hands, wins=_tile_round_wins)


def _tile_analyse(request: AnalysisRequest, rs: RuleSet) -> AnalysisResult:
    standing, melds, ctx, visible, score_waits = request
    return analysis.analyse(standing, melds, ctx, rs, visible, score_waits)


TILE_ANALYSIS: DiscardAnalysis[RuleSet, AnalysisRequest, AnalysisResult] = DiscardAnalysis(
    read=read_analysis_request, analyse=_tile_analyse, write=analysis_response,
    schema=ANALYSIS_REQUEST)

def _tile_components(rs: RuleSet | None, prefix: str) -> tuple[tuple[str, Schema], ...]:
    return (("ScoreRequest", SCORE_REQUEST), ("WaitsRequest", WAITS_REQUEST),
            ("AnalysisRequest", ANALYSIS_REQUEST), ("SettleRequest", SETTLE_REQUEST),
            *TILE_MATCH.parts)


# Every tile game on the templated paths, its requests' components named by their schemas.
TILE_CONTRACT: FamilyContract[RuleSet] = FamilyContract(
    parameter="TileRuleset",
    rulesets="A rule set of the tile games (all but the word-card games).",
    components=_tile_components, schemas=(answer_schemas, document_schemas))

FAMILY: ServiceFamily[Any, Any, Any, Any, Any, Any] = ServiceFamily(
    name=TILES,
    read_score=read_score_request, score=_tile_score, explain=_tile_explain,
    write_score=score_answer,
    read_waits=read_waits_request, waits=_tile_waits, write_waits=_tile_waits_response,
    document=tile_ruleset_document,
    schemas=_tile_schemas,
    rounds=TILE_ROUNDS,
    analysis=TILE_ANALYSIS,
    pictures={"score": tile_score_picture, "waits": tile_waits_picture,
              "analysis": tile_analysis_picture, "match": match_scoresheet},
    contract=TILE_CONTRACT,
    plays_matches=True,
    ready_before_win=_tile_ready_before_win,
    write_score_encoded=score_line_answer,
    write_waits_encoded=waits_line_answer,
)
