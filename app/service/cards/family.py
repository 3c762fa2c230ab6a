"""The card games scored by groups as the service serves them (`FAMILY`, a `ServiceFamily`): the
request readers (`app.service.cards.requests`), the engine's calls (`app.scoring.arranged`),
the answers' writers (`app.service.cards.responses`), the rule-set document
(`app.service.cards.documents`) and the pictures (`app.service.cards.pictures`). They settle
no rounds and analyse no hands. The package registers it (`app.service.cards`)."""

from __future__ import annotations

from typing import Any

from app.domain.arrange import Piece
from app.domain.card_hand import CardHand, CardWin
from app.rules.cards import CardRuleSet
from app.rules.families import CARDS
from app.scoring import arranged
from app.scoring.arranged import CardExplanation, CardResult, CardWaits
from app.service.cards.documents import card_ruleset_document
from app.service.cards.pictures import card_score_picture, card_waits_picture
from app.service.cards.requests import (
    card_schemas,
    read_card_score_request,
    read_card_waits_request,
)
from app.service.cards.responses import card_score_response, card_waits_response
from app.service.families import RequestSchemas, ServiceFamily

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


FAMILY: ServiceFamily[Any, Any, Any, Any, Any, Any] = ServiceFamily(
    name=CARDS,
    read_score=read_card_score_request, score=_card_score, explain=_card_explain,
    write_score=card_score_response,
    read_waits=read_card_waits_request, waits=_card_waits, write_waits=card_waits_response,
    document=card_ruleset_document,
    schemas=_card_schemas,
    pictures={"score": card_score_picture, "waits": card_waits_picture},
)
