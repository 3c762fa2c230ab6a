"""The card games scored by groups as the service serves them (`FAMILY`, a `ServiceFamily`): the
request readers (`app.service.cards.requests`), the engine's calls (`app.scoring.arranged`),
the answers' writers (`app.service.cards.responses`), the rule-set document
(`app.service.cards.documents`), the pictures (`app.service.cards.pictures`) and how the
contract lays out their operations (`CARD_CONTRACT`). They settle no rounds and analyse no
hands. The package registers it (`app.service.cards`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from marshmallow import Schema

from app.domain.arrange import Piece
from app.domain.card_hand import CardHand, CardWin
from app.rules.cards.model import CardRuleSet
from app.rules.families import CARDS
from app.scoring import arranged
from app.scoring.arranged import CardExplanation, CardResult, CardWaits
from app.service.cards import answer_schemas, document_schemas
from app.service.cards.documents import card_ruleset_document
from app.service.cards.pictures import card_score_picture, card_waits_picture
from app.service.cards.requests import (
    card_schemas,
    read_card_score_request,
    read_card_waits_request,
)
from app.service.cards.responses import card_score_response, card_waits_response
from app.service.families import FamilyContract, RequestSchemas, ServiceFamily
from app.service.match_schemas import match_schemas
from app.service.pictures.scoresheet import match_scoresheet

__all__ = ["FAMILY"]

CardWaitsIn = tuple[tuple[int, ...], tuple[Piece, ...], CardWin]


def _card_score(request: tuple[CardHand, CardWin], rs: CardRuleSet) -> CardResult:
    return arranged.score(request[0], request[1], rs)


def _card_explain(request: tuple[CardHand, CardWin], rs: CardRuleSet
                  ) -> tuple[CardResult, CardExplanation]:
    return arranged.explained(request[0], request[1], rs)


def _card_waits(request: CardWaitsIn, rs: CardRuleSet, explain: bool) -> CardWaits:
    cards, table, ctx = request
    return arranged.waits(cards, table, ctx, rs, explain)


def _card_schemas(rs: CardRuleSet) -> RequestSchemas:
    schemas = card_schemas(rs)
    return RequestSchemas(schemas.score, schemas.waits)


def _card_components(rs: CardRuleSet | None, prefix: str) -> Iterable[tuple[str, Schema]]:
    """A word-card game's request components, named with its prefix (`HengyangScoreRequest`):
    its own shapes of a group, a hand, a context and the requests."""
    assert rs is not None
    score, waits = card_schemas(rs)
    hand = score.fields["hand"].objects  # type: ignore[attr-defined]
    waiting = waits.fields["hand"].objects  # type: ignore[attr-defined]
    return ((f"{prefix}Group", hand.fields["groups"].inner.schema),
            (f"{prefix}HandObject", hand), (f"{prefix}WaitingHandObject", waiting),
            (f"{prefix}Context", score.fields["context"].schema),  # type: ignore[attr-defined]
            (f"{prefix}WaitsContext", waits.fields["context"].schema),  # type: ignore[attr-defined]
            (f"{prefix}ScoreRequest", score), (f"{prefix}WaitsRequest", waits),
            *match_schemas(prefix, f"{prefix}ScoreRequest", None).parts)


def _card_figures(rs: CardRuleSet) -> Mapping[str, str]:
    return rs.figures


# Each word-card game on paths of its own, with its own request components; the figures its
# deck counts are keys of its answers.
CARD_CONTRACT: FamilyContract[CardRuleSet] = FamilyContract(
    own_paths=True, answers="Card", components=_card_components, figures=_card_figures,
    figured=("CardScoreResponse", "CardWaitEntry"),
    schemas=(answer_schemas, document_schemas))

FAMILY: ServiceFamily[Any, Any, Any, Any, Any, Any] = ServiceFamily(
    name=CARDS,
    read_score=read_card_score_request, score=_card_score, explain=_card_explain,
    write_score=card_score_response,
    read_waits=read_card_waits_request, waits=_card_waits, write_waits=card_waits_response,
    document=card_ruleset_document,
    schemas=_card_schemas,
    pictures={"score": card_score_picture, "waits": card_waits_picture,
              "match": match_scoresheet},
    contract=CARD_CONTRACT,
    plays_matches=True,
)
