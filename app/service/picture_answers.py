"""Answers as pictures: a score, waits or analysis request answered with the SVG of its answer
(`image/svg+xml`, asked for with `Accept`), drawn by the rule set's family
(`ServiceFamily.pictures`, `app.service.pictures`).

The request is read, checked and answered exactly as for JSON (the same family functions,
the same errors, which stay problem documents); the picture is drawn from the request as the
engine took it and the JSON answer, so it shows what the JSON says. Another kind of answer
gets its picture by a reader here (`ANSWERS`) and a drawing function in each family.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.rules.families import ServedRuleSet
from app.service.families import service_family

__all__ = ["ANSWERS", "PICTURE_MEDIA_TYPE", "draws_picture", "picture_body"]

PICTURE_MEDIA_TYPE = "image/svg+xml"

Json = dict[str, Any]


def _score(body: Json, rs: ServedRuleSet) -> tuple[Any, Json]:
    family = service_family(rs)
    request = family.read_score(body, rs)
    return request, family.write_score(family.score(request, rs), rs, None)


def _waits(body: Json, rs: ServedRuleSet) -> tuple[Any, Json]:
    family = service_family(rs)
    request = family.read_waits(body, rs)
    return request, family.write_waits(family.waits(request, rs, False), rs)


def _analysis(body: Json, rs: ServedRuleSet) -> tuple[Any, Json]:
    analysis = service_family(rs).analysis
    assert analysis is not None, f"{rs.id}: its family analyses no hands"
    request = analysis.read(body, rs)
    return request, analysis.write(analysis.analyse(request, rs))


# answer kind -> (body, rule set) -> (the request as the engine took it, the JSON answer)
ANSWERS: Mapping[str, Callable[[Json, ServedRuleSet], tuple[Any, Json]]] = {
    "score": _score, "waits": _waits, "analysis": _analysis}


def draws_picture(rs: ServedRuleSet, kind: str) -> bool:
    """Whether the rule set's family draws this kind of answer."""
    return kind in ANSWERS and kind in service_family(rs).pictures


def picture_body(kind: str, body: Json, rs: ServedRuleSet) -> bytes:
    """The SVG of the answer of `kind` to a decoded request body (`draws_picture` holds);
    raises the request's error as the JSON answer would."""
    request, answer = ANSWERS[kind](body, rs)
    return service_family(rs).pictures[kind](request, answer, rs)
