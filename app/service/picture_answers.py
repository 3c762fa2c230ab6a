"""Answers as pictures: a score, waits, analysis or match request answered with the SVG of its
answer (`image/svg+xml`), drawn by the rule set's family (`ServiceFamily.pictures`,
`app.service.pictures`; a match's scoresheet is the same drawing in every family). A picture
is asked for in one of two ways, both answered here: on the picture operation's own path
(`.../score/picture`, `.../waits/picture`, `.../analysis/picture`, `.../match/picture`), or
on the JSON path with an `Accept` that prefers SVG.

The request is read, checked and answered exactly as for JSON (the same family functions,
the same errors, which stay problem documents); the picture is drawn from the request as the
engine took it and the JSON answer, so it shows what the JSON says. Another kind of answer
gets its picture by the reader its operation declares (`OperationDecl.picture`,
`app.service.operations`) and a drawing function in each family.
"""

from __future__ import annotations

from typing import Any

from app.rules.families import ServedRuleSet
from app.service.families import service_family
from app.service.operations import operation
from app.service.pictures.layout import MAX_WIDTH, MIN_WIDTH
from app.service.problems import ApiError

__all__ = ["MAX_WIDTH", "MIN_WIDTH", "PICTURE_MEDIA_TYPE", "draws_picture",
           "picture_body"]

PICTURE_MEDIA_TYPE = "image/svg+xml"

Json = dict[str, Any]


def draws_picture(rs: ServedRuleSet, kind: str) -> bool:
    """Whether the rule set's family draws this kind of answer (an operation's name)."""
    return kind in service_family(rs).pictures and operation(kind).picture is not None


def picture_body(kind: str, body: Json, rs: ServedRuleSet, width: int | None = None) -> bytes:
    """The SVG of the answer of `kind` to a decoded request body, kept within `width` pixels
    when given (`app.service.pictures.layout`); raises the request's error as the JSON answer
    would (analysis_not_supported for a family that analyses no hands), and not_found for a
    family that answers but does not draw this kind."""
    read = operation(kind).picture
    assert read is not None, f"the {kind} operation declares no picture"
    request, answer = read(body, rs)
    draw = service_family(rs).pictures.get(kind)
    if draw is None:
        raise ApiError("not_found", f"Rule set {rs.id!r} draws no picture of its {kind} "
                                    f"answers; post the request to the JSON operation.")
    return draw(request, answer, rs, width)
