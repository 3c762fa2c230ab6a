"""The picture operations (app/service/picture_answers.py): the answer of score, waits or
analysis drawn as SVG, on paths of their own so that the JSON operations answer one type."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tools.openapi import examples as ex
from tools.openapi.shapes import Answer, Operation

PICTURE_MEDIA = "image/svg+xml"
PICTURE_NOTE = """\
The answer is JSON. The same request posted to `{picture}` answers it drawn as an SVG
picture. For the clients and the calculator page that ask so, this path also answers the
picture when the request's `Accept` prefers `image/svg+xml` to `application/json` (a higher
quality; a tie or `*/*` answers JSON): the same picture as `{picture_id}`'s."""

PICTURE_DESCRIPTION = """\
The request of `{json_id}`, answered drawn as a standalone SVG document (`image/svg+xml`)
whatever the request's `Accept`: {what} The request is read and checked exactly as
`{json_id}` reads it, and its errors are the same problem documents. docs/pictures.md
shows pictures whole."""

SCORE_PICTURE_WHAT = (
    "every tile or card drawn in SVG (`class=\"tile\"` or `\"card\"`, `data-tile` its "
    "code), the groups as scored, the winning tile apart, the fans, totals and payments "
    "written under them; a wild tile marked with what it stood for.")
WAITS_PICTURE_WHAT = (
    "the hand (`class=\"tile\"` or `\"card\"`, `data-tile` its code), then each wait with "
    "what it scores, the best marked.")
MATCH_PICTURE_WHAT = (
    "the match's scoresheet: players as columns, hands as rows (each hand's number, wind, "
    "dealer, winner and discarder, each player's net and running total, false wins, "
    "penalties and deductions), then the standings: totals, points, ranks and table "
    "points, and the next hand or the match's end.")
ANALYSIS_PICTURE_WHAT = (
    "the hand's tiles (`class=\"tile\"`, `data-tile` its code, declared melds set aside), "
    "the shanten overall and per shape; for 13 tiles the useful tiles with their copies "
    "left and the waits with what they score; for 14 one row per discard, best first: the "
    "tile to discard, the shanten it leaves, the useful tiles with their copies left and, "
    "for a row left ready, its waits with their values. The tiles the analysis speaks of "
    "are drawn small (`class=\"tile-small\"`).")
PICTURE_SCHEMA: dict[str, Any] = {
    "type": "string", "contentMediaType": PICTURE_MEDIA,
    "description": "A standalone SVG document."}


def picture_answer(what: str) -> Answer:
    return Answer(f"The answer drawn as SVG: {what}", PICTURE_SCHEMA, PICTURE_MEDIA)



def with_picture(op: Operation, picture_id: str, what: str, shown: tuple[str, ...]
                 ) -> tuple[Operation, Operation]:
    """The JSON operation `op`, its description pointing at its picture operation, and that
    picture operation (`picture_id`): the same path with `/picture`, the same request, its
    errors, the answer drawn as SVG. Its examples are those of `op` named in `shown`: the
    first a picture, the others requests it refuses."""
    path = f"{op.path}/picture"
    assert op.description is not None
    json_op = replace(op, description=op.description + "\n\n" + PICTURE_NOTE.format(
        picture=f"POST {path}", picture_id=picture_id))
    # The first named is a picture, shortened; the others are refused as `op` refuses them.
    examples = tuple(
        replace(e, trim=ex.svg_head, answer=(
            f"{e.answer}: the picture's head, its title and description (its drawing left "
            "out)" if e.name == shown[0] else e.answer))
        for e in op.examples if e.name in shown)
    assert len(examples) == len(shown), (op.operation_id, shown)
    picture = Operation(
        "post", path, picture_id, op.tag, f"{op.summary}, drawn as an SVG picture",
        PICTURE_DESCRIPTION.format(json_id=op.operation_id, what=what), picture_answer(what),
        {**op.responses, 400: "PictureBadRequest"}, op.request, examples,
        (*(p for p in op.parameters if p != "Explain"), "Width"), op.ruleset)
    return json_op, picture
