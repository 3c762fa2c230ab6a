"""Many score or waits requests in one: `{"requests": [...]}` in, `{"results": [...]}` out.

The results come in the order of the requests, each exactly one of
`{"result": <what the single call answers>}` or `{"error": <the problem the single call would
get>}`. An item takes the single call's own path (its schema, `build`, the engine, the
response writer), so its answer is the single call's answer for the same body, and the
pointers of an error are relative to the item. One bad item never fails the others; only a
body that is not a batch is refused as a whole (not JSON, larger than the service's limit for
a batch body, no `requests` array, none or more than `MAX_BATCH_ITEMS` of them).

A batch runs under one time limit, the service's limit per request: past it, every item not
yet answered gets a `time_limit_exceeded` error (the engine stops the one it is on where it
checks the limit, between the hands it scores), and the items before keep their answers, so
the client sends those items again. Without a limit
(`seconds=None`: the command-line scorer by default) every item is scored.

An item the engine fails on (a bug, never expected) becomes an `internal_error` item and is
logged; the other items keep their answers.

Nothing here needs Flask: the command-line scorer and the library call (`mahjong_scoring`)
use the same functions.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from contextlib import nullcontext
from typing import Any

from app.domain.deadline import TimeLimitExceeded, check, time_limit
from app.domain.errors import HandError
from app.rules.cards import CardRuleSet
from app.rules.model import AnyRuleSet
from app.scoring import arranged, evaluate, waits
from app.scoring.explain import explained
from app.service.card_requests import read_card_score_request, read_card_waits_request
from app.service.card_responses import card_score_response, card_waits_response
from app.service.hand_requests import read_score_request, read_waits_request, validated
from app.service.json_body import not_an_object
from app.service.problems import ApiError, api_problem, hand_problem, problem_body
from app.service.responses import score_response, waits_response
from app.service.schema_fields import MAX_BATCH_ITEMS
from app.service.schemas import BATCH_REQUEST

__all__ = [
    "EXPLAINED_ITEM_FUNCTIONS",
    "ITEM_FUNCTIONS",
    "MAX_BATCH_ITEMS",
    "Item",
    "ItemFunction",
    "read_batch",
    "run_batch",
    "score_body",
    "score_item",
    "waits_body",
    "waits_item",
]

_log = logging.getLogger(__name__)

Item = dict[str, Any]
ItemFunction = Callable[[object, AnyRuleSet], Item]


def _item(body: object, ruleset: AnyRuleSet,
          answer: Callable[[dict[str, Any], AnyRuleSet], dict[str, Any]]) -> Item:
    """`answer`'s response to the body, or the problem the single call would get."""
    if type(body) is not dict:
        return {"error": api_problem(not_an_object(body))}
    try:
        return {"result": answer(body, ruleset)}
    except HandError as exc:
        return {"error": hand_problem(exc)}
    except ApiError as exc:
        return {"error": api_problem(exc)}


def score_body(body: dict[str, Any], ruleset: AnyRuleSet, explain: bool) -> dict[str, Any]:
    """The score response to a decoded request body, explained when asked: what the single
    call answers and what a batch item holds. Raises the request's error (`HandError`,
    `ApiError`)."""
    if isinstance(ruleset, CardRuleSet):
        # A card game scored by groups: its own request form and answer.
        card_hand, card_ctx = read_card_score_request(body, ruleset)
        if explain:
            card_result, why = arranged.explained(card_hand, card_ctx, ruleset)
            return card_score_response(card_result, ruleset, why)
        return card_score_response(arranged.score(card_hand, card_ctx, ruleset), ruleset)
    hand, ctx = read_score_request(body, ruleset)
    if explain:
        return score_response(*explained(hand, ctx, ruleset))
    return score_response(evaluate.score(hand, ctx, ruleset))


def waits_body(body: dict[str, Any], ruleset: AnyRuleSet, explain: bool) -> dict[str, Any]:
    """The waits response to a decoded request body, each wait explained when asked (as
    `score_body`)."""
    if isinstance(ruleset, CardRuleSet):
        cards, table, card_ctx = read_card_waits_request(body, ruleset)
        return card_waits_response(
            arranged.waits(cards, table, card_ctx, ruleset, explain), ruleset)
    standing, melds, ctx = read_waits_request(body, ruleset)
    return waits_response(waits.waits(standing, melds, ctx, ruleset, explain))


def score_item(body: object, ruleset: AnyRuleSet) -> Item:
    """One score request's item: its response, or the problem the single call would get."""
    return _item(body, ruleset, lambda b, rs: score_body(b, rs, False))


def waits_item(body: object, ruleset: AnyRuleSet) -> Item:
    """One waits request's item: its response, or the problem the single call would get."""
    return _item(body, ruleset, lambda b, rs: waits_body(b, rs, False))


def explained_score_item(body: object, ruleset: AnyRuleSet) -> Item:
    """As `score_item`, the response explained (`?explain=true`)."""
    return _item(body, ruleset, lambda b, rs: score_body(b, rs, True))


def explained_waits_item(body: object, ruleset: AnyRuleSet) -> Item:
    """As `waits_item`, each wait explained (`?explain=true`)."""
    return _item(body, ruleset, lambda b, rs: waits_body(b, rs, True))


# The item function of each endpoint that has a batch form, and its explained form.
ITEM_FUNCTIONS: Mapping[str, ItemFunction] = {"score": score_item, "waits": waits_item}
EXPLAINED_ITEM_FUNCTIONS: Mapping[str, ItemFunction] = {
    "score": explained_score_item, "waits": explained_waits_item}


def read_batch(body: Mapping[str, Any]) -> list[Any]:
    """The requests of a decoded batch body; `ApiError` invalid_request when it is not a
    batch (no `requests` array, an unknown field, none or more than MAX_BATCH_ITEMS)."""
    requests: list[Any] = validated(BATCH_REQUEST, body)["requests"]
    return requests


def internal_error_item() -> Item:
    return {"error": problem_body("internal_error",
                                  "The server failed to handle this request.")}


def time_limit_item(seconds: float) -> Item:
    return {"error": problem_body(
        "time_limit_exceeded",
        f"Not scored: the batch reached the service's time limit of {seconds:g} s before this "
        "request was done (the requests before it were answered). Send this request and the "
        "ones after it again, in a smaller batch; requests on hands holding many wild tiles "
        "are the slowest.")}


def run_batch(requests: Sequence[object], ruleset: AnyRuleSet, item: ItemFunction,
              seconds: float | None) -> list[Item]:
    """The items of `requests`, in order, all within `seconds` (None: no limit)."""
    results: list[Item] = []
    with time_limit(seconds) if seconds is not None else nullcontext():
        for body in requests:
            try:
                check()
                results.append(item(body, ruleset))
            except TimeLimitExceeded:
                break
            except Exception:
                _log.exception("unhandled error on item %d of a batch for %s",
                               len(results), ruleset.id)
                results.append(internal_error_item())
    if len(results) < len(requests):
        assert seconds is not None
        _log.warning("a batch for %s ran past the time limit of %g s: %d of its %d requests "
                     "not scored", ruleset.id, seconds, len(requests) - len(results),
                     len(requests))
        results.extend(time_limit_item(seconds) for _ in range(len(requests) - len(results)))
    return results
