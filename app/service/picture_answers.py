"""Answers as pictures: a score, waits or analysis request answered with the SVG of its answer
(`image/svg+xml`), drawn by the rule set's family (`ServiceFamily.pictures`,
`app.service.pictures`). A picture is asked for in one of two ways, both answered here: on
the picture operation's own path (`.../score/picture`, `.../waits/picture`,
`.../analysis/picture`), or on the JSON path with an `Accept` that prefers SVG.

The request is read, checked and answered exactly as for JSON (the same family functions,
the same errors, which stay problem documents); the picture is drawn from the request as the
engine took it and the JSON answer, so it shows what the JSON says. Another kind of answer
gets its picture by a reader here (`ANSWERS`) and a drawing function in each family.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.rules.families import ServedRuleSet
from app.service.families import analysis_of, service_family
from app.service.pictures.layout import MAX_WIDTH, MIN_WIDTH
from app.service.problems import ApiError

__all__ = ["ANSWERS", "MAX_WIDTH", "MIN_WIDTH", "PICTURE_MEDIA_TYPE", "draws_picture",
           "picture_body"]

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
    analysis = analysis_of(rs)
    request = analysis.read(body, rs)
    return request, analysis.write(analysis.analyse(request, rs))


# answer kind -> (body, rule set) -> (the request as the engine took it, the JSON answer)
ANSWERS: Mapping[str, Callable[[Json, ServedRuleSet], tuple[Any, Json]]] = {
    "score": _score, "waits": _waits, "analysis": _analysis}


def draws_picture(rs: ServedRuleSet, kind: str) -> bool:
    """Whether the rule set's family draws this kind of answer."""
    return kind in ANSWERS and kind in service_family(rs).pictures


def picture_body(kind: str, body: Json, rs: ServedRuleSet, width: int | None = None) -> bytes:
    """The SVG of the answer of `kind` to a decoded request body, kept within `width` pixels
    when given (`app.service.pictures.layout`); raises the request's error as the JSON answer
    would (analysis_not_supported for a family that analyses no hands), and not_found for a
    family that answers but does not draw this kind."""
    request, answer = ANSWERS[kind](body, rs)
    draw = service_family(rs).pictures.get(kind)
    if draw is None:
        raise ApiError("not_found", f"Rule set {rs.id!r} draws no picture of its {kind} "
                                    f"answers; post the request to the JSON operation.")
    return draw(request, answer, rs, width)
