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
from app.service.families import AnyFamily, analysis_body, service_family
from app.service.json_body import not_an_object
from app.service.problems import ApiError, api_problem, hand_problem, problem_body
from app.service.reading import validated
from app.service.request_schemas import BATCH_REQUEST
from app.service.schema_fields import MAX_BATCH_ITEMS

__all__ = [
    "CHUNK",
    "EXPLAINED_ITEM_FUNCTIONS",
    "ITEM_FUNCTIONS",
    "MAX_BATCH_ITEMS",
    "Item",
    "ItemFunction",
    "StepwiseItem",
    "analysis_item",
    "encoded_item",
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


# One step of an item: (what the step before made, the rule set) -> what it makes.
Step = Callable[[Any, ServedRuleSet], Any]
# The items a batch takes each step for in turn (see `StepwiseItem`).
CHUNK = 32


class StepwiseItem:
    """An item function in three steps of the rule set's family (`steps(family)`): read the
    body into a request, answer it, write the answer. Called on one body, it is the item;
    `run_batch` instead takes each step for up to `CHUNK` items in turn, so that each
    step's code is still in the processor's caches for the next item (a batch of scores
    costs less per item so, see bench/README.md on `perhand.py`)."""

    __slots__ = ("steps",)

    def __init__(self, steps: Callable[[AnyFamily], tuple[Step, Step, Step]]) -> None:
        self.steps = steps

    def __call__(self, body: object, ruleset: ServedRuleSet) -> Item:
        read, answer, write = self.steps(service_family(ruleset))
        return _item(body, ruleset, lambda b, rs: write(answer(read(b, rs), rs), rs))


def _score_steps(family: AnyFamily) -> tuple[Step, Step, Step]:
    write = family.write_score
    return family.read_score, family.score, lambda result, rs: write(result, rs, None)


def _waits_steps(family: AnyFamily) -> tuple[Step, Step, Step]:
    waits = family.waits
    return family.read_waits, lambda request, rs: waits(request, rs, False), family.write_waits


def _encoded_score_steps(family: AnyFamily) -> tuple[Step, Step, Step]:
    read, score, write = _score_steps(family)
    return read, score, family.write_score_encoded or write


def _encoded_waits_steps(family: AnyFamily) -> tuple[Step, Step, Step]:
    read, waits, write = _waits_steps(family)
    return read, waits, family.write_waits_encoded or write


# One score request's item: its response, or the problem the single call would get.
score_item = StepwiseItem(_score_steps)
# As `score_item`, for an item encoded with orjson at once and read no further than its
# result's `winning`: the same JSON once encoded (see `ServiceFamily.write_score_encoded`).
encoded_score_item = StepwiseItem(_encoded_score_steps)
# One waits request's item: its response, or the problem the single call would get.
waits_item = StepwiseItem(_waits_steps)
# As `waits_item`, for an item encoded at once and read no further than its `ready`.
encoded_waits_item = StepwiseItem(_encoded_waits_steps)


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


def encoded_item(item: ItemFunction) -> ItemFunction:
    """The item function making the same JSON as `item` once encoded with orjson, for items
    encoded at once and read no further than their result's `winning` (or `ready`)."""
    if item is score_item:
        return encoded_score_item
    return encoded_waits_item if item is waits_item else item


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


def _batch_item(index: int) -> str:
    return f"item {index} of a batch"


def run_batch(requests: Sequence[object], ruleset: ServedRuleSet, item: ItemFunction,
              seconds: float | None, encode: Callable[[Item], Any] | None = None,
              where: Callable[[int], str] = _batch_item) -> list[Any]:
    """The items of `requests`, in order, all within `seconds` (None: no limit); each passed
    through `encode` as soon as it is made when given (the service keeps its JSON bytes, far
    smaller than the objects of a large answer, which are then freed one by one). `where`
    names an item by its index in the log line of an unhandled error (the command-line
    scorer names the input line)."""
    results: list[Any] = []
    keep: Callable[[Item], Any] = encode if encode is not None else _itself
    with time_limit(seconds) if seconds is not None else nullcontext():
        if isinstance(item, StepwiseItem):
            _run_stepwise(requests, ruleset, item, keep, results, where)
        else:
            for body in requests:
                try:
                    check()
                    results.append(keep(item(body, ruleset)))
                except TimeLimitExceeded:
                    break
                except Exception:
                    _log.exception("unhandled error on %s for %s", where(len(results)),
                                   ruleset.id)
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


def _run_stepwise(requests: Sequence[object], ruleset: ServedRuleSet, item: StepwiseItem,
                  keep: Callable[[Item], Any], results: list[Any],
                  where: Callable[[int], str]) -> None:
    """`run_batch` of a stepwise item, up to `CHUNK` items at a time: every body read, then
    every request answered (the time limit checked before each item, as one by one), then
    every answer written. Past the limit, the items before the one it stopped keep their
    answers (those answered are written) and the rest are left to `run_batch`."""
    read, answer, write = item.steps(service_family(ruleset))
    for start in range(0, len(requests), CHUNK):
        bodies = requests[start:start + CHUNK]
        # (True, what the steps made so far) or (False, the item: a problem)
        staged = [_step(read, body, ruleset, where, start + j) if type(body) is dict
                  else (False, {"error": api_problem(not_an_object(body))})
                  for j, body in enumerate(bodies)]
        done = 0
        try:
            for j, (ok, made) in enumerate(staged):
                check()
                if ok:
                    staged[j] = _step(answer, made, ruleset, where, start + j)
                done = j + 1
        except TimeLimitExceeded:
            pass
        for j in range(done):
            ok, made = staged[j]
            if ok:
                ok, made = _step(write, made, ruleset, where, start + j)
            results.append(keep({"result": made} if ok else made))
        if done < len(bodies):
            return


def _step(step: Step, made: Any, ruleset: ServedRuleSet, where: Callable[[int], str],
          index: int) -> tuple[bool, Any]:
    """(True, what `step` makes of `made`), or (False, the item it ends in: the problem the
    single call would get, or an internal error, logged)."""
    try:
        return True, step(made, ruleset)
    except HandError as exc:
        return False, {"error": hand_problem(exc)}
    except ApiError as exc:
        return False, {"error": api_problem(exc)}
    except TimeLimitExceeded:
        raise
    except Exception:
        _log.exception("unhandled error on %s for %s", where(index), ruleset.id)
        return False, internal_error_item()
