"""Many score or waits requests in one: `{"requests": [...]}` in, `{"results": [...]}` out.

The results come in the order of the requests, each exactly one of
`{"result": <what the single call answers>}` or `{"error": <the problem the single call would
get>}`. An item takes the single call's own path (the schema, request reader, engine call and
response writer of the rule set's family, `app.service.families`), so its answer is the
single call's answer for the same body, and the pointers of an error are relative to the
item. One bad item never fails the others; only a body that is not a batch is refused as a
whole (not JSON, larger than the service's limit for a batch body, no `requests` array, none
or more than `MAX_BATCH_ITEMS` of them).

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
from app.rules.families import ServedRuleSet
from app.service.families import analysis_body, service_family
from app.service.hand_requests import validated
from app.service.json_body import not_an_object
from app.service.problems import ApiError, api_problem, hand_problem, problem_body
from app.service.schema_fields import MAX_BATCH_ITEMS
from app.service.schemas import BATCH_REQUEST

__all__ = [
    "EXPLAINED_ITEM_FUNCTIONS",
    "ITEM_FUNCTIONS",
    "MAX_BATCH_ITEMS",
    "Item",
    "ItemFunction",
    "analysis_item",
    "read_batch",
    "run_batch",
    "score_body",
    "score_item",
    "waits_body",
    "waits_item",
]

_log = logging.getLogger(__name__)

Item = dict[str, Any]
ItemFunction = Callable[[object, ServedRuleSet], Item]


def _item(body: object, ruleset: ServedRuleSet,
          answer: Callable[[dict[str, Any], ServedRuleSet], dict[str, Any]]) -> Item:
    """`answer`'s response to the body, or the problem the single call would get."""
    if type(body) is not dict:
        return {"error": api_problem(not_an_object(body))}
    try:
        return {"result": answer(body, ruleset)}
    except HandError as exc:
        return {"error": hand_problem(exc)}
    except ApiError as exc:
        return {"error": api_problem(exc)}


def score_body(body: dict[str, Any], ruleset: ServedRuleSet, explain: bool) -> dict[str, Any]:
    """The score response to a decoded request body, explained when asked: what the single
    call answers and what a batch item holds. Raises the request's error (`HandError`,
    `ApiError`). The rule set's family reads, scores and writes it (`app.service.families`)."""
    family = service_family(ruleset)
    request = family.read_score(body, ruleset)
    if explain:
        result, why = family.explain(request, ruleset)
        return family.write_score(result, ruleset, why)
    return family.write_score(family.score(request, ruleset), ruleset, None)


def waits_body(body: dict[str, Any], ruleset: ServedRuleSet, explain: bool) -> dict[str, Any]:
    """The waits response to a decoded request body, each wait explained when asked (as
    `score_body`)."""
    family = service_family(ruleset)
    request = family.read_waits(body, ruleset)
    return family.write_waits(family.waits(request, ruleset, explain), ruleset)


def score_item(body: object, ruleset: ServedRuleSet) -> Item:
    """One score request's item: its response, or the problem the single call would get."""
    return _item(body, ruleset, lambda b, rs: score_body(b, rs, False))


def waits_item(body: object, ruleset: ServedRuleSet) -> Item:
    """One waits request's item: its response, or the problem the single call would get."""
    return _item(body, ruleset, lambda b, rs: waits_body(b, rs, False))


def analysis_item(body: object, ruleset: ServedRuleSet) -> Item:
    """One analysis request's item: its response, or the problem the single call would get."""
    return _item(body, ruleset, analysis_body)


def explained_score_item(body: object, ruleset: ServedRuleSet) -> Item:
    """As `score_item`, the response explained (`?explain=true`)."""
    return _item(body, ruleset, lambda b, rs: score_body(b, rs, True))


def explained_waits_item(body: object, ruleset: ServedRuleSet) -> Item:
    """As `waits_item`, each wait explained (`?explain=true`)."""
    return _item(body, ruleset, lambda b, rs: waits_body(b, rs, True))


# The item function of each endpoint that has a batch form, and its explained form.
ITEM_FUNCTIONS: Mapping[str, ItemFunction] = {"score": score_item, "waits": waits_item,
                                              "analysis": analysis_item}
EXPLAINED_ITEM_FUNCTIONS: Mapping[str, ItemFunction] = {
    "score": explained_score_item, "waits": explained_waits_item,
    "analysis": analysis_item}  # an analysis has nothing to explain


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


def run_batch(requests: Sequence[object], ruleset: ServedRuleSet, item: ItemFunction,
              seconds: float | None, encode: Callable[[Item], Any] | None = None) -> list[Any]:
    """The items of `requests`, in order, all within `seconds` (None: no limit); each passed
    through `encode` as soon as it is made when given (the service keeps its JSON bytes, far
    smaller than the objects of a large answer, which are then freed one by one)."""
    results: list[Any] = []
    keep: Callable[[Item], Any] = encode if encode is not None else _itself
    with time_limit(seconds) if seconds is not None else nullcontext():
        for body in requests:
            try:
                check()
                results.append(keep(item(body, ruleset)))
            except TimeLimitExceeded:
                break
            except Exception:
                _log.exception("unhandled error on item %d of a batch for %s",
                               len(results), ruleset.id)
                results.append(keep(internal_error_item()))
    if len(results) < len(requests):
        assert seconds is not None
        _log.warning("a batch for %s ran past the time limit of %g s: %d of its %d requests "
                     "not scored", ruleset.id, seconds, len(requests) - len(results),
                     len(requests))
        results.extend(keep(time_limit_item(seconds))
                       for _ in range(len(requests) - len(results)))
    return results


def _itself(item: Item) -> Item:
    return item
