"""The contract's texts: the document's own, its shared parameters and responses, the texts of
each declared scoring operation by family (`TEXTS`), and the operations that are not scoring
ones (the rule sets, the service itself).

The scoring operations themselves are declared once, in `app.service.operations` (path, ids,
schema names, forms), and laid out per family by `ServiceFamily.contract` (the tile games on
the templated paths, `{ruleset}` one of theirs; each word-card game on paths of its own with its
own bodies); here they get their descriptions, error answers and examples. The shapes are the
marshmallow schemas of `app.service`, named here by their component names (what an operation
and an answer hold: `shapes.py`; the picture operations beside the JSON ones: `pictures.py`).
`build.py` puts them together, sends every example request through the app to write the
answers it shows, and writes `openapi.yaml`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.rules.families import CARDS, TILES
from app.service.pictures.layout import MAX_ROW, MAX_WIDTH, MIN_WIDTH
from tools.openapi import examples as ex
from tools.openapi.examples import Example, Fixed
from tools.openapi.pictures import (
    ANALYSIS_PICTURE_WHAT,
    MATCH_PICTURE_WHAT,
    SCORE_PICTURE_WHAT,
    WAITS_PICTURE_WHAT,
)
from tools.openapi.shapes import Answer, BatchTexts, Operation, Place, Texts

TITLE = "Mahjong scoring service"
SUMMARY = "Score Chinese mahjong hands under rule sets defined as data."
DESCRIPTION = """\
A stateless service that scores mahjong hands: the fans (番) a hand holds, their total,
whether it is a legal win under the chosen rule set (and why not), the decomposition that
was scored and the money each seat pays or receives. One hand per `score` call, or up to
1,000 per `score/batch` call.

Rule sets (`mcr` 国标麻将 and more) are YAML files loaded at start-up; list them with
`GET /v1/rulesets`. Each belongs to a family, which decides the bodies its operations take:
the tile games (most) on the paths `/v1/rulesets/{ruleset}/...`, `{ruleset}` one of theirs;
each game of word cards (a rule set with a `deck`, such as hengyang 衡阳六胡抢) on paths of its
own, `/v1/rulesets/hengyang/score` and so on, with its own request and answer shapes. Only the
rule sets with a round settlement take `/v1/rulesets/{ruleset}/settle`.

Every error is an RFC 9457 problem document (`application/problem+json`) with a stable
snake_case `code`; validation errors list each fault in `errors` with a JSON pointer
(RFC 6901) into the request body and, inside notation strings, the 0-based `position`.

In request bodies, JSON `null` in an optional field means "use the default".

Every response carries `X-Request-ID`: the request's own `X-Request-ID` header when it
sent one of 1 to 128 characters from `A-Z a-z 0-9 . _ : / + = @ -`, else a new random ID.
Problem documents repeat it as `request_id`, and the service's access log names it.
Responses over 2 KB are gzip-compressed for clients whose `Accept-Encoding` accepts gzip
(`gzip;q=0` or `*;q=0` does not). A request body may be sent gzip-compressed
(`Content-Encoding: gzip`); the size limits hold for the decompressed body. Any other
`Content-Encoding` is refused with 415 `unsupported_content_encoding`. A request body
must arrive whole within the service's deadline (10 s by default) of the request's
headers; past it the answer is 408 `request_timeout` and the connection is closed.

This document is generated from the service's code (`./run openapi`): the request and answer
shapes are its marshmallow schemas, the examples' answers are what the service answers.
"""
LICENSE = {"name": "Proprietary", "identifier": "LicenseRef-Proprietary"}
SERVERS = (
    {"url": "/", "description": "The service that serves this document (`GET /openapi.yaml`)."},
    {"url": "http://localhost:8000", "description": "`./run serve` on this machine (PORT 8000)"},
)
TAGS = (
    {"name": "rulesets", "description": "The rule sets this service knows."},
    {"name": "scoring", "description": "Scoring hands."},
    {"name": "meta", "description": "Liveness, readiness, metrics and the contract itself."},
)

# --- shared parameters -------------------------------------------------------------------

RULESET_PATTERN = "^[a-z0-9][a-z0-9_-]{0,63}$"
PARAMETERS: dict[str, dict[str, Any]] = {
    "Ruleset": {
        "name": "ruleset", "in": "path", "required": True,
        "description": "A rule set id from `GET /v1/rulesets`.",
        "schema": {"type": "string", "pattern": RULESET_PATTERN}, "example": "mcr"},
    # The enums of these two are the rule sets' ids (build.py).
    "TileRuleset": {
        "name": "ruleset", "in": "path", "required": True,
        "description": "A tile game's rule set (a word-card game has paths of its own).",
        "schema": {"$ref": "#/components/schemas/TileRulesetId"}, "example": "mcr"},
    "RoundRuleset": {
        "name": "ruleset", "in": "path", "required": True,
        "description": "A rule set that settles rounds (its document's `settlement` is not "
                       "null).",
        "schema": {"$ref": "#/components/schemas/RoundRulesetId"}, "example": "sichuan"},
    "Explain": {
        "name": "explain", "in": "query", "required": False,
        "description": """\
`true`: the response also explains the score (`explanation`: every fan the chosen reading had but
did not count, each with what left it out, and the readings that were compared). Off by default,
and the response is then exactly as without it. Anything but `true` or `false`, or the parameter
given twice, is answered `400 invalid_query`. A rule set of word cards explains its own way
(`CardExplanation`: the 名堂 an option left out, and the arrangements compared with their 胡息
and score).""",
        "schema": {"type": "string", "enum": ["true", "false"], "default": "false"}},
    "Width": {
        "name": "width", "in": "query", "required": False,
        "description": f"""\
The picture's width in pixels (a phone's screen, say): rows of tiles or cards wrap within it, a
group too wide for it goes on in the next row, and lines of text wrap at spaces (or between the
characters of a longer word), at their own size. Without it, rows wrap at about {MAX_ROW:.0f} px
and lines of text are not wrapped. A whole number from {MIN_WIDTH} to {MAX_WIDTH}; anything
else, or the parameter given twice, is answered `400 invalid_query`.""",
        "schema": {"type": "integer", "minimum": MIN_WIDTH, "maximum": MAX_WIDTH},
        "example": 360},
}

# --- shared responses ----------------------------------------------------------------------

SCORE_URL = "/v1/rulesets/mcr/score"
_GOOD = b'{"hand": "1112345678999m5m", "context": {"win_type": "self_draw"}}'
_JSON = {"Content-Type": "application/json"}
_MALFORMED_JSON = Example("malformed_json", None, None, "Not JSON", path=SCORE_URL, data=b"{",
                          headers=_JSON)
_MALFORMED_GZIP = Example("malformed_gzip", None, None, "A body sent as gzip that is not gzip",
                          path=SCORE_URL, data=b"not gzip",
                          headers={**_JSON, "Content-Encoding": "gzip"})

_DUPLICATE_KEY = Example(
    "duplicate_key", None, None, "A key given twice in one object", path=SCORE_URL,
    data=b'{"hand": "1112345678999m5m", "context": {"win_type": "self_draw"}, "hand": "1m"}',
    headers=_JSON)

RESPONSES: dict[str, Answer] = {
    "BadRequest": Answer(
        "The body is not JSON, not UTF-8, or not a JSON object (`malformed_json`), an object "
        "of it holds a key twice (`duplicate_key`, a pointer to each repeated key in "
        "`errors`), a body sent with `Content-Encoding: gzip` is not valid gzip "
        "(`malformed_gzip`), or a query parameter is not one the operation takes as given "
        "(`invalid_query`).",
        "Problem", examples=(
            _MALFORMED_JSON, _DUPLICATE_KEY, _MALFORMED_GZIP,
            Example("invalid_query", None, None,
                    "explain given as something else than true or false",
                    path=SCORE_URL + "?explain=maybe", data=_GOOD, headers=_JSON))),
    "PictureBadRequest": Answer(
        "The body is not JSON, not UTF-8, or not a JSON object (`malformed_json`), an object "
        "of it holds a key twice (`duplicate_key`, a pointer to each repeated key in "
        "`errors`), a body sent with `Content-Encoding: gzip` is not valid gzip "
        "(`malformed_gzip`), or `width` is not a number of pixels it takes "
        "(`invalid_query`).",
        "Problem", examples=(
            _MALFORMED_JSON, _DUPLICATE_KEY, _MALFORMED_GZIP,
            Example("invalid_width", None, None, "A width narrower than a picture can be",
                    path=SCORE_URL + "/picture?width=100", data=_GOOD, headers=_JSON))),
    "MalformedJson": Answer(
        "The body is not JSON, not UTF-8, or not a JSON object (`malformed_json`), an object "
        "of it holds a key twice (`duplicate_key`, a pointer to each repeated key in "
        "`errors`), or a body sent with `Content-Encoding: gzip` is not valid gzip "
        "(`malformed_gzip`).",
        "Problem", examples=(_MALFORMED_JSON, _DUPLICATE_KEY, _MALFORMED_GZIP)),
    "UnknownRuleset": Answer(
        "No rule set has this id (`unknown_ruleset`).", "Problem", examples=(
            Example("unknown_ruleset", None, None, "An unknown rule set",
                    path="/v1/rulesets/riichi"),)),
    "PayloadTooLarge": Answer(
        "The body is larger than 64 KiB (`payload_too_large`), as sent or, sent with "
        "`Content-Encoding: gzip`, once decompressed.", "Problem", examples=(
            Example("payload_too_large", None, None, "Over 64 KiB", path=SCORE_URL,
                    data=b" " * 70_000, headers=_JSON),)),
    "UnsupportedMediaType": Answer(
        "The body is not sent as `application/json` (`unsupported_media_type`), or it is sent "
        "with a `Content-Encoding` other than gzip (`unsupported_content_encoding`; the "
        "response's `Accept-Encoding` header names the one accepted, `gzip`).",
        "Problem", headers={"Accept-Encoding": {
            "description": "The content coding a request body may have (`gzip`); with "
                           "`unsupported_content_encoding` only.",
            "schema": {"type": "string", "const": "gzip"}}},
        examples=(
            Example("unsupported_media_type", None, None, "A form post", path=SCORE_URL,
                    data=b"a=1", headers={"Content-Type": "application/x-www-form-urlencoded"}),
            Example("unsupported_content_encoding", None, None, "A body compressed with brotli",
                    path=SCORE_URL, data=_GOOD, headers={**_JSON, "Content-Encoding": "br"}))),
    "RequestTimeout": Answer(
        "The request body did not arrive whole within the service's deadline "
        "(`request_timeout`; 10 s from the request's headers unless the operator sets "
        "MAHJONG_BODY_TIMEOUT): the rest of it is not read, and the connection is closed. Send "
        "the whole body right after the headers, at once.",
        "Problem", headers={"Connection": {
            "description": "`close`: the connection carries no further request.",
            "schema": {"type": "string", "const": "close"}}},
        examples=(Fixed("request_timeout", "A body sent a byte at a time", ex.REQUEST_TIMEOUT),)),
    "TimeLimitExceeded": Answer(
        "Scoring the request took longer than the service's limit per request "
        "(`time_limit_exceeded`; 10 s unless the operator sets MAHJONG_TIME_LIMIT), so it was "
        "stopped. Only the heaviest requests come near it (waits or rounds on hands holding "
        "many wild tiles).", "Problem", examples=(
            Fixed("time_limit_exceeded", "Stopped at the time limit", ex.TIME_LIMIT_EXCEEDED),)),
    "BatchPayloadTooLarge": Answer(
        "The batch body is larger than 2 MiB (`payload_too_large`), as sent or, sent with "
        "`Content-Encoding: gzip`, once decompressed.", "Problem", examples=(
            Example("payload_too_large", None, None, "Over 2 MiB",
                    path="/v1/rulesets/mcr/score/batch", data=b" " * 2_200_000,
                    headers=_JSON),)),
    "NotABatch": Answer(
        "The body is not a batch (`invalid_request`): no `requests` array, a field besides it, "
        "or none or more than 1,000 requests. What is wrong inside one request is that "
        "request's error item instead.", "Problem", examples=(
            Example("too_many", None, {"requests": [{}] * 1001}, "1,001 requests",
                    path="/v1/rulesets/mcr/score/batch"),)),
    "InternalError": Answer(
        "An unexpected failure (`internal_error`); the tests make sure no request causes one.",
        "Problem", examples=(
            Fixed("internal_error", "An unexpected failure", ex.INTERNAL_ERROR),)),
}

# The errors every body-taking operation may answer, besides its own 422.
_BODY_ERRORS: dict[int, str | Answer] = {
    400: "BadRequest", 404: "UnknownRuleset", 408: "RequestTimeout", 413: "PayloadTooLarge",
    415: "UnsupportedMediaType"}
BATCH_ERRORS: dict[int, str | Answer] = {
    **_BODY_ERRORS, 413: "BatchPayloadTooLarge", 422: "NotABatch", 500: "InternalError"}

# --- the tile games' scoring operations ----------------------------------------------------

SCORE_DESCRIPTION = """\
Scores one winning hand under the rule set. A well-formed hand that is not a legal win
(no winning shape, under the minimum, a discard win where only self-draw wins) is still
answered `200`, with `winning: false`, a `reason`, the fans it would have had where it
has a shape, and `payments: null`. A request that cannot be a real hand (unknown tile,
five copies of a tile, wrong tile count, illegal meld, bad seat, inconsistent context)
is answered `422` with the domain's code and a pointer to the field at fault."""

WAITS_DESCRIPTION = """\
Takes a hand one tile short of a win (13 − 3 × melds standing tiles, no winning tile)
and the context of the win, as for `score`. Tries every tile of the rule set's tile set
except a tile the hand already holds all four of (standing and melds together), and
lists, in the written order of tiles (m, p, s, honours), each tile that completes a
winning shape: the score of the completed hand won on that tile (fans, total, value,
multiplier, decomposition), exactly what `score` answers for it with the same context.
A completed hand under the minimum (or otherwise not a legal win) is still listed, with
`winning: false` and a `reason`. `ready` is true when any tile is listed; `best` is the
winning entry worth most (highest `value`, then highest `fan_total`, the first in tile
order among equals), null when no tile makes a legal win. A context flag that cannot
hold for some tile (`kong: robbed` while holding another copy of it) simply scores no
fan for it there. Errors are those of `score`; `hand.win_tile` is refused."""

SCORE_BATCH_DESCRIPTION = """\
Takes `requests`, 1 to 1,000 score requests (the rule set document's
`limits.batch_items`), each exactly as `{single}` takes it, and answers `200` with
`results` in the same order: for each request exactly one of `{{"result": ...}}`, what
`{single}` answers for it, or `{{"error": ...}}`, the problem `{single}` would answer
(its `status` inside it, its pointers relative to the request). One bad request never
fails the others, whatever is wrong with it (not an object, an unknown tile, a wrong
type). The body as a whole is refused only when it is not a batch: not JSON, or an object
of it, inside a request too, holding a key twice (`400`),
larger than 2 MiB (`limits.batch_bytes`, `413`), no `requests` array, an unknown field,
or none or more than 1,000 requests (`422 invalid_request`); or when it does not
arrive whole in time (`408 request_timeout`).

The batch runs under the service's time limit per request (`limits.time_limit_seconds`):
past it, every request not yet answered gets a `time_limit_exceeded` error item (the
engine stops the one it is on where it can), and the requests before keep their
results; send those again. Only hands holding many wild tiles come near it."""

WAITS_BATCH_DESCRIPTION = """\
As `{batch}`, for waits: `requests` holds 1 to 1,000 waits requests, each exactly as
`{single}` takes it, and each item of `results` is `{{"result": ...}}`, what `{single}`
answers for it, or `{{"error": ...}}`, the problem it would answer. The same limits and
the same time limit apply; waits on hands holding many wild tiles are the slowest
requests of all, so send those in smaller batches."""

ANALYSIS_DESCRIPTION = """\
Discard analysis (牌效). Takes a hand as `listWaits` takes it, but of 13 or 14 tiles
(declared melds counted as 3, no winning tile), its context, and optionally `visible`: the
tiles seen elsewhere (discards, other players' melds), which lower the copies left.

13 tiles: `shanten` (向听数: 0 ready, 1 one tile from ready, ...), `shapes` (the shanten
under each shape the rule set plays under the request's options: regular, seven_pairs,
thirteen_orphans, honors_and_knitted, knitted_straight, nine_gates), `useful` (every tile
that, drawn, lowers the shanten, with its copies `left`: the deck's copies less the hand,
`visible` and a flipped wild indicator the rule set puts out of play; a kind the hand holds
every copy of is never listed, nor the indicator's kind held three times: every copy in
play is in the hand) and `useful_left` (their sum). When ready, `waits`, `best` and
`can_win` as `listWaits` answers them, and `useful` lists exactly the waits' tiles (a 国标
hand whose every wait is under 8 番 is ready but `can_win: false`). Scoring the waits of a
hand holding many wild tiles costs far more than counting: with `score_waits: false` they
are not scored (`waits`, `best`, `can_win` null), many times faster.

14 tiles: `shanten` of the hand as it stands (-1 when it is complete by shape: `win` is then
its score, won on its last standing tile under the context, and may say `winning: false`
when it is under the minimum or misses a requirement), and `discards`, one row per distinct
tile held with what the 13 left answer, best first: lower shanten, then a tile of a void
suit (定缺) before others, then more useful copies left, then the better best wait (value,
then fan total), then the written order of tiles. A row's own discard counts as a copy seen:
a ready row's `useful` lists exactly its waits' tiles, the discarded kind with 0 left when
it was the last copy.

The rule set says the rest: its shapes and their options, its deck (a tile it lacks is
never useful), its wild tiles (each counts as any tile; a drawn wild is always useful) and
a limit on the suits of a win (四川 定缺: a hand holding three suits is not ready). Void
tiles (`void`, the first discards): the suit the winner declared void where the request
names it (`context.options.void_suit`), and only the two others may be kept; undeclared, a
hand of at most two suits has none, and a hand of three has the tiles of the suit it does
best to give up. `shanten` is null when declared melds hold three suits, or the declared
void suit. Errors are those of `listWaits`,
with `wrong_tile_count` for a hand of other than 13 or 14 tiles, `too_many_copies` (pointer
`/visible`) for more copies seen than the deck holds, and `analysis_not_supported` for a
game of word cards."""

ANALYSIS_BATCH_DESCRIPTION = """\
As `{batch}`, for analyses: `requests` holds 1 to 1,000 analysis requests, each exactly as
`{single}` takes it, and each item of `results` is `{{"result": ...}}`, what `{single}`
answers for it, or `{{"error": ...}}`, the problem it would answer. The same limits and
the same time limit apply."""

BATCH_ITEMS = {
    "score": "Score requests, each as `{single}` takes it. An item may be any JSON value: one "
             "that is not such a request is still answered, with its own error item (what "
             "`{single}` would answer for it), and never fails the batch.",
    "waits": "Waits requests, each as `{single}` takes it. An item may be any JSON value: one "
             "that is not such a request is still answered, with its own error item (what "
             "`{single}` would answer for it), and never fails the batch.",
    "analysis": "Analysis requests, each as `{single}` takes it. An item may be any JSON "
                "value: one that is not such a request is still answered, with its own error "
                "item (what `{single}` would answer for it), and never fails the batch.",
}
ANALYSIS_ANSWER = ("The analysis: for 13 tiles the shanten, useful tiles and (ready) the "
                   "waits; for 14 the shanten and one row per discard, best first.")

SCORE_ANSWER = ("The score. `winning` says whether the hand is a legal win under the rule set; "
                "when it is not, `reason` says why and `payments` is null.")
WAITS_ANSWER = ("The waits. `ready` says whether any tile completes the hand; `best` is the "
                "winning entry worth most, or null.")
BATCH_ANSWER = "One item per request, in order."
SINGLE_ERRORS: dict[int, str | Answer] = {**_BODY_ERRORS, 500: "InternalError",
                                          503: "TimeLimitExceeded"}


SETTLE_DESCRIPTION = """\
Takes one round as ordered events and answers the money of every seat, itemised.
Events: `kong` (the seat, `kind` `direct` 点杠 with the `discarder`, `added` 加杠 with
`fresh`: the added tile is the one just drawn, or `concealed` 暗杠, and the `tile`; or
`special`, 长春's 幺九杠, 旋风杠 and 喜杠, with its three `tiles`),
`win` (the seat, the hand and its context as for `score`; the seat is the winner and the
round's `options` apply), `follow_dealer` (跟庄, 天津 铲: every other player followed
the dealer's first discard), `reveal` (亮倒, 卡五星: the seat reveals its ready hand;
later wins are scored with the seats revealed by then) and, when the wall runs out, `draw`
(the hand, one tile short, of every seat not yet won, and whether it is a passive pig). The
round's `dealer` (default 0) and, for rule sets with wild tiles, its `wild_indicator` are given
once, for every event.

天津 (`tianjin`): the first win ends the round (one winner, nobody drops out); kongs
are paid at once by every other player, 1 exposed, 2 concealed, a 金杠 of four wilds as
the `golden_kong` option, all with the dealer's stakes (坐庄 doubles money between the
dealer and another player, each pull of that player doubles it again); `follow_dealer`
makes the dealer pay each other player 1 (× the stakes) after everything else, won or
drawn; a drawn game pays no hand money, and kong money stands unless the option
`drawn_kongs_stand` is false (`drawn_game_refund`).

The rule set's settlement data says what each kong earns (paid at once, from the
discarder or from every other player still in), whether a robbed added kong (抢杠) is
void and what a win on the discard after a kong (杠上炮) does to that kong's money:
refunded to its payers (`kong_refund`), passed by the kong's maker to the winner
(呼叫转移, `kong_transfer`; with several winners on that discard, to the first in turn
order after the discarder) or kept (sichuan and chengdu: the option
`gang_shang_pao_kong_money`, refund by default). Wins are
scored as `score` scores them and paid by the players still in the round: winners drop
out after their event (血战到底), and several wins on one discard (一炮多响) are each
paid by the discarder. A draw runs 查花猪 (a pig pays a penalty to each other non-pig
still in; a passive pig pays none and counts as not ready), 查大叫 (each player not
ready pays each ready one that player's best value: the highest `value` over the
tiles that complete its hand, as `waits` computes it, for a discard win with no kong
flag, not the last tile) and 退税 (a player not ready, or a pig, returns the kong money
it holds to the payers still in, even when nobody is ready); an active pig pays no
查大叫. When all are ready and there is no pig, nothing is paid.

`net` has one entry per seat and sums to zero; each transfer names its `reason`
(`direct_kong`, `added_kong`, `concealed_kong`, `golden_kong`, `special_kong`, `kong_void`,
`kong_refund`, `kong_transfer`, `win_discard`, `win_self_draw`, `pig_penalty`,
`not_ready`, `tax_refund`, `drawn_game_refund`, `follow_dealer`, `revealed_draw`) and
the index of its `event`; transfers come in event order, except `follow_dealer`'s, which
come last. `finished` says whether the round is over (a draw, every seat but one has won, or
a win that ends the round); a round cut short is settled as far as it goes.

A sequence that cannot happen is `422` with a code naming the event (pointer
`/events/<i>/...`, message starting `events[<i>]`): `seat_already_won`, `round_over`,
`wrong_draw_players`, `inconsistent_event`, `kong_mismatch`, `too_many_copies`,
`not_a_win` (a win's hand that is not a legal win), `forbidden_event` (an event the rule
set forbids, never paid 0: 卡五星's 加杠 of a tile held earlier, 卡五星's revealed hand not
ready at the drawn game, 长春's second win on one discard), and the hand codes of `score`
and `waits` inside an event. `{ruleset}` is one of the rule sets that settle rounds; any other
(`mcr`, a game of word cards) answers `settle_not_supported`."""


MATCH_DESCRIPTION = """\
Takes a match as the hands played, in order, and answers every hand at the table the match
derives, the standings and the next hand's table. A hand is one of: `win` (the winning hand
as `score` takes it, `winner` and `discarder` being players), `claims` (several players
claim one discard: where one discard has one winner, 截和, the first legal win in turn order
from the discarder stands), `round` (a round of events as `settle` takes it, for the rule
sets that settle rounds) or `drawn` (荒庄); with `false_wins` (a claimed hand the service
classifies as 错和 `wrong_shape`, 和错牌 `wrong_tile` or 诈和 `not_ready`, priced by the
rule set's match rules) and `penalties` (罚分: paid to a player, or deducted and paid to
nobody, shown apart). Players are numbered by the seat each held at the start (player 0 at
东位). The service derives each hand's dealer, prevailing wind, seating (国标 换位 after each
圈) and seat winds from the rule set's `match` rules and the `match_options`, and fills them
into each hand's request; a hand's request that gives them must give the derived ones. Each
answer carries a `state`: posted with the next hands, it answers exactly what posting the
whole match would."""

_MATCH_422 = (
    "The body does not match the schema (`invalid_request`), the hands cannot be this match "
    "(`match_over`, `inconsistent_dealer`, `inconsistent_winds`, `player_out_of_range`, "
    "`no_claim_stands`, `not_a_false_win`, `false_win_unpriced`, `invalid_state`, "
    "`wrong_hand_kind`), or a hand's own request cannot be scored (the codes of `score` "
    "and `settle`, pointing into the hand: `/hands/2/win/context/discarder`).")

_TILE_TEXTS: dict[str, Texts] = {
    "score": Texts(
        "Score one hand", SCORE_DESCRIPTION, SCORE_ANSWER, {**SINGLE_ERRORS, 422: Answer(
            "The body does not match the schema (`invalid_request`), or it cannot describe "
            "a real hand or win (the domain's code: `unknown_tile`, `too_many_copies`, "
            "`wrong_tile_count`, `inconsistent_context`, ...).", "Problem",
            examples=(ex.BAD_TYPE,))},
        ex.SCORE, "mcr", picture=(SCORE_PICTURE_WHAT, ("nine_gates", "five_copies")),
        batch=BatchTexts("Score up to 1,000 hands in one call",
                         SCORE_BATCH_DESCRIPTION.format(single="scoreHand"), ex.SCORE_BATCH)),
    "waits": Texts(
        "List the tiles a hand one tile short waits on, each with its score",
        WAITS_DESCRIPTION, WAITS_ANSWER, {**SINGLE_ERRORS, 422: Answer(
            "The body does not match the schema (`invalid_request`, also for a "
            "`hand.win_tile`), or it cannot describe a hand one tile short of a win (the "
            "domain's code: `wrong_tile_count` for other than 13 − 3 × melds standing "
            "tiles, `too_many_copies`, `illegal_meld`, `inconsistent_context`, ...).",
            "Problem", examples=(ex.WITH_WIN_TILE,))},
        ex.WAITS, "mcr", picture=(WAITS_PICTURE_WHAT, ("nine_gates", "wrong_tile_count")),
        batch=BatchTexts("List the waits of up to 1,000 hands in one call",
                         WAITS_BATCH_DESCRIPTION.format(batch="scoreHands", single="listWaits"),
                         ex.WAITS_BATCH)),
    "analysis": Texts(
        "Analyse a hand of 13 or 14 tiles: shanten, useful tiles, the value of each discard",
        ANALYSIS_DESCRIPTION, ANALYSIS_ANSWER, {**SINGLE_ERRORS, 422: Answer(
            "The body does not match the schema (`invalid_request`, also for a "
            "`hand.win_tile`), it cannot describe a hand of 13 or 14 tiles "
            "(`wrong_tile_count`, `too_many_copies` also counting `visible`, "
            "`illegal_meld`, `inconsistent_context`, ...), or the rule set is a game of "
            "word cards (`analysis_not_supported`).", "Problem",
            examples=ex.ANALYSIS_PROBLEMS)},
        ex.ANALYSIS, "mcr", picture=(ANALYSIS_PICTURE_WHAT, ("discards",)),
        batch=BatchTexts("Analyse up to 1,000 hands in one call",
                         ANALYSIS_BATCH_DESCRIPTION.format(batch="scoreHands",
                                                           single="analyseHand"),
                         ex.ANALYSIS_BATCH)),
    "settle": Texts(
        "Settle a whole round (血战到底, 天津, 卡五星, 长春) from its events", SETTLE_DESCRIPTION,
        "The money of the round, itemised; `net` sums to zero.",
        {400: "MalformedJson", 404: "UnknownRuleset", 408: "RequestTimeout",
         413: "PayloadTooLarge", 415: "UnsupportedMediaType", 422: Answer(
             "The body does not match the schema (`invalid_request`), the events cannot be a "
             "real round (`seat_already_won`, `round_over`, `wrong_draw_players`, "
             "`inconsistent_event`, `kong_mismatch`, `too_many_copies`, `not_a_win`, "
             "`forbidden_event`, or a hand code inside an event), or the rule set settles "
             "single hands only "
             "(`settle_not_supported`).", "Problem", examples=ex.SETTLE_PROBLEMS),
         500: "InternalError", 503: "TimeLimitExceeded"},
        ex.SETTLE, "sichuan", parameter=(
            "RoundRuleset",
            "A rule set that settles rounds (`POST /v1/rulesets/{ruleset}/settle`).")),
    "match": Texts(
        "Score a whole match: who deals, the winds and seats, running totals and standings",
        MATCH_DESCRIPTION,
        "Every hand at its table with each player's net and running total, the standings, "
        "the next hand's table and the state to continue from.",
        {**SINGLE_ERRORS, 422: Answer(_MATCH_422, "Problem", examples=ex.MATCH_PROBLEMS)},
        ex.MATCH, "mcr", picture=(MATCH_PICTURE_WHAT, ("worked_mcr",))),
}


def _tile_texts(operation: str, place: Place) -> Texts | None:
    """The tile games' operations, on the templated paths."""
    return _TILE_TEXTS.get(operation)


# --- a word-card game's scoring operations ------------------------------------------------

CARD_SCORE_DESCRIPTION = """\
Scores one winning hand of word cards under {name} ({id}): its cards, the groups on the table
and the winning card (`flip` wins name the `flipper`, `discard` wins the `discarder`). The
answer gives the points of the chosen arrangement (胡息 `huxi`), its units (囤 `tun`), the
名堂 as `fans`, and `score` = 番 × 囤, what each paying share is worth. A well-formed hand that
is not a win (no arrangement, under 起胡) is still answered `200` with `winning: false` and a
`reason`. A request that cannot be a real hand is answered `422` with the domain's code
(`unknown_card`, `illegal_group`, `wrong_card_count`, `win_card_missing`,
`undeclared_four`, ...) and a pointer to the field at fault."""

CARD_WAITS_DESCRIPTION = """\
Takes a hand of word cards one card short of a win, under {name} ({id}), and lists each card
of which a copy is left that finishes it, by each win type (every win type of the rule set
when `context.win_type` is left out): the hand so finished, scored as `{score}` scores it.
`best` is the winning entry with the highest score, null when no card wins."""

CARD_422 = ("The body does not match the schema (`invalid_request`), or it cannot describe a "
            "real hand of word cards (the domain's code: `unknown_card`, `illegal_group`, "
            "`wrong_card_count`, `win_card_missing`, `undeclared_four`, `too_many_copies`, "
            "`inconsistent_context`, ...).")


def _card_texts(operation: str, place: Place) -> Texts | None:
    """A word-card game's score and waits and their batches, on paths of its own; its prefix
    names its components and operations (`hengyang`: `HengyangScoreRequest`,
    `scoreHandHengyang`)."""
    rid, name, prefix = place.ruleset, place.name, place.prefix
    examples = ex.CARD_EXAMPLES.get(rid or "", {})
    shown = ex.CARD_PICTURE_EXAMPLES.get(rid or "", {})
    score_id, waits_id, batch_id = f"scoreHand{prefix}", f"listWaits{prefix}", f"scoreHands{prefix}"
    if operation == "score":
        return Texts(
            f"Score one hand of {name}", CARD_SCORE_DESCRIPTION.format(name=name, id=rid),
            SCORE_ANSWER, {**SINGLE_ERRORS, 422: Answer(
                CARD_422, "Problem", examples=examples.get("score_problems", ()))},
            examples.get("score", ()), picture=(SCORE_PICTURE_WHAT, shown.get("score", ())),
            batch=BatchTexts(f"Score up to 1,000 hands of {name} in one call",
                             SCORE_BATCH_DESCRIPTION.format(single=score_id),
                             examples.get("score_batch", ())))
    if operation == "waits":
        return Texts(
            f"List the cards a hand of {name} one card short waits on, each with its score",
            CARD_WAITS_DESCRIPTION.format(name=name, id=rid, score=score_id),
            WAITS_ANSWER.replace("tile", "card"), {**SINGLE_ERRORS, 422: Answer(
                CARD_422, "Problem", examples=examples.get("waits_problems", ()))},
            examples.get("waits", ()), picture=(WAITS_PICTURE_WHAT, shown.get("waits", ())),
            batch=BatchTexts(f"List the waits of up to 1,000 hands of {name} in one call",
                             WAITS_BATCH_DESCRIPTION.format(batch=batch_id, single=waits_id),
                             examples.get("waits_batch", ())))
    if operation == "match":
        return Texts(
            f"Score a whole match of {name}: who deals, running totals and standings",
            MATCH_DESCRIPTION.replace("`round` (a round of events as `settle` takes it, for "
                                      "the rule\nsets that settle rounds) or ", ""),
            "Every hand with each player's net and running total, the standings, the next "
            "hand's table and the state to continue from.",
            {**SINGLE_ERRORS, 422: Answer(_MATCH_422, "Problem",
                                          examples=examples.get("match_problems", ()))},
            examples.get("match", ()), picture=(MATCH_PICTURE_WHAT, ("two_hands",)))
    return None


# --- the rule sets, and the service itself -----------------------------------------------

RULESETS_LIST = Operation(
    "get", "/v1/rulesets", "listRulesets", "rulesets", "List the rule sets",
    "Every rule set loaded at start-up, ordered by id.",
    Answer("The rule sets.", "RulesetList", "application/json", examples=(
        Example("served", None, None, "The rule sets served (a server may load more)",
                path="/v1/rulesets"),)),
    {500: "InternalError"})

RULESET_DOCUMENT = Operation(
    "get", "/v1/rulesets/{ruleset}", "getRuleset", "rulesets",
    "Get one rule set's full definition", """\
Every fan in the rule set's order (id, names, value, what it excludes), the options a
request may set in `context.options` with their types, choices or bounds, defaults
and descriptions, the requirements of a win (on the hand, and on its counted fans),
the payment scheme, the round settlement and the wild tiles. A card game scored by
groups (`kind: cards`) answers a `CardRuleSetDocument` instead: its deck, group kinds
and their points, hand rule, where the winning card may go, scoring steps, patterns,
payments and options.""",
    Answer("The rule set.", {"oneOf": [{"$ref": "#/components/schemas/RulesetDetail"},
                                       {"$ref": "#/components/schemas/CardRuleSetDocument"}]},
           "application/json", examples=(
               Example("mcr", None, None, "MCR (the fan list shortened to three of its 82 fans)",
                       path="/v1/rulesets/mcr", trim=ex.three_fans),)),
    {404: "UnknownRuleset", 500: "InternalError"}, parameters=("Ruleset",))

META = (
    Operation(
        "get", "/healthz", "getHealth", "meta", "Liveness",
        "The service is up; the version it runs and the rule sets it loaded.",
        Answer("Up.", "Health", "application/json", examples=(
            Example("ok", None, None, "Up, with the rule sets loaded", path="/healthz"),)),
        {500: "InternalError"}),
    Operation(
        "get", "/readyz", "getReadiness", "meta", "Readiness",
        "This worker can score: its rule sets are loaded and compiled (at start-up, before it "
        "accepts a connection). A load balancer routes to replicas that answer `200`; "
        "`/healthz` is for liveness.",
        Answer("Ready.", "Readiness", "application/json", examples=(
            Example("ready", None, None, "Ready, with the rule sets loaded", path="/readyz"),)),
        {500: "InternalError", 503: Answer("Not ready (`not_ready`).", "Problem", examples=(
            Fixed("not_ready", "No rule set loaded yet", ex.NOT_READY),))}),
    Operation(
        "get", "/docs", "getDocs", "meta", "Interactive API docs",
        "Swagger UI on this document (`GET /openapi.yaml`), its files served by the service "
        "itself (`/docs/assets/...`, from a PyPI package), so it works without internet access.",
        Answer("The page.", {"type": "string"}, "text/html", examples=(
            Fixed("page", "The first line", "<!doctype html>\n"),)),
        {500: "InternalError"}),
    Operation(
        "get", "/docs/assets/{asset}", "getDocsAsset", "meta",
        "A file of the interactive API docs", None,
        Answer("The file (Swagger UI's stylesheet or script).", {"type": "string"}, "text/css",
               examples=(Fixed("css", "Swagger UI's stylesheet", ".swagger-ui{...}"),)),
        {404: Answer("No such file (`not_found`).", "Problem", examples=(
            Example("not_found", None, None, "Not a file of the docs",
                    path="/docs/assets/index.html"),)),
         500: "InternalError"},
        parameters=({"name": "asset", "in": "path", "required": True,
                     "schema": {"type": "string",
                                "enum": ["swagger-ui.css", "swagger-ui-bundle.js"]}},)),
    Operation(
        "get", "/calculator", "getCalculator", "meta", "Calculator page",
        "A page for people: pick a rule set, enter a hand by clicking tiles or typing its "
        "notation, set its context and options, and read its score, waits and picture. Its "
        "script and style sheet are the service's own (`/calculator/...`); everything it "
        "shows it asks of this API.",
        Answer("The page.", {"type": "string"}, "text/html", examples=(
            Fixed("page", "The first line", "<!doctype html>\n"),)),
        {500: "InternalError"}),
    Operation(
        "get", "/calculator/{name}", "getCalculatorFile", "meta",
        "A file of the calculator page", None,
        Answer("The file (the page's script or style sheet).", {"type": "string"},
               "text/javascript", examples=(
                   Fixed("js", "The page's script", "/* The calculator page ... */"),),
               also={"text/css": {"schema": {"type": "string"}, "examples": {"css": {
                   "summary": "The page's style sheet",
                   "value": "/* The calculator page ... */"}}}}),
        {404: Answer("No such file (`not_found`).", "Problem", examples=(
            Example("not_found", None, None, "Not a file of the page",
                    path="/calculator/calculator.html"),)),
         500: "InternalError"},
        parameters=({"name": "name", "in": "path", "required": True,
                     "schema": {"type": "string",
                                "enum": ["calculator.js", "calculator.css"]}},)),
    Operation(
        "get", "/openapi.yaml", "getOpenApi", "meta", "This contract",
        "The OpenAPI document, byte for byte the file committed with the service, generated "
        "from the service's code (`./run openapi`).",
        Answer("The OpenAPI document.", {"type": "string"}, "application/yaml", examples=(
            Fixed("head", "The first line", "openapi: 3.1.0\n"),)),
        {500: "InternalError"}),
    Operation(
        "get", "/metrics", "getMetrics", "meta", "Prometheus metrics", """\
The service's metrics in Prometheus' text exposition format, added up over every
worker process: requests by route template (`route`: the URL rule, or `unmatched` for
a path no rule matches), rule set (`ruleset`: a loaded rule set's id, `unknown`, or
empty on routes without one), method and status; a latency histogram by route; hands
scored by rule set and endpoint (a batch counts its items answered with a result, a
round its wins and the hands of its drawn game); and the requests in flight (not
counting the scrape itself).""",
        Answer("The metrics.", {"type": "string"}, "text/plain", examples=(
            Fixed("after_one_score", "Excerpt, after one hand scored", ex.METRICS),)),
        {500: "InternalError"}),
)

# The docs' script: a second media type of getDocsAsset's answer.
DOCS_SCRIPT = ("text/javascript", {"type": "string"},
               Fixed("js", "Swagger UI's script", "!function(e,t){...}"))

# What the contract says of each declared operation (`app.service.operations`), by family:
# (the operation's name, where) -> its texts, or None (a declared operation without texts is
# written with its declaration's summary and the errors of every single call).
TEXTS: dict[str, Callable[[str, Place], Texts | None]] = {TILES: _tile_texts, CARDS: _card_texts}
