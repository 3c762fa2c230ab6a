"""Malformed lines, by how they fail: not JSON at all (`NOT_JSON_KINDS`), JSON that is not an
object (`NOT_AN_OBJECT_KINDS`), and objects the service refuses, each in a different way
(`REFUSED_KINDS`; `unknown_ruleset` names a rule set that does not exist in the line's
``"ruleset"`` key, so it needs that key). Each is made from a valid request."""

from __future__ import annotations

import copy
import random
from collections.abc import Collection, Mapping
from typing import Any

from app.domain.errors import HandError
from app.rules.model import RuleSet
from app.service.problems import ApiError
from app.service.tiles.requests import read_score_request, read_waits_request
from tools.loggen.tiles import Body, dumps

__all__ = ["GARBAGE", "MALFORMED_KINDS", "NOT_AN_OBJECT_KINDS", "NOT_JSON_KINDS",
           "REFUSED_KINDS", "malformed_line"]

NOT_JSON_KINDS = ("truncated", "garbage", "empty")
NOT_AN_OBJECT_KINDS = ("array", "number")
REFUSED_KINDS = ("unknown_tile", "wrong_tile_count", "unknown_field", "wrong_type",
                 "seat_out_of_range", "unknown_option", "unknown_ruleset")
MALFORMED_KINDS = NOT_JSON_KINDS + NOT_AN_OBJECT_KINDS + REFUSED_KINDS

# Names that are no field of a request (unknown_field) and no option (unknown_option).
_UNKNOWN_FIELDS = ("table_id", "player_name", "timestamp", "comment", "hand_no")
_UNKNOWN_OPTIONS = ("house_bonus", "double_dealer", "max_points", "fast_game", "limit_hand")
# Lines that are not JSON (garbage).
GARBAGE = ("hand=123m456p789s11z", "GET /v1/rulesets HTTP/1.1", "<html><body>502 Bad Gateway",
           "Traceback (most recent call last):", "score me please", "{hand: 123m, ctx}",
           "\ufffd\ufffd garbled bytes", "NaNaN", "'single quotes'", "=== round 3 ===")
# Tile codes that no tile set here knows (checked against the set before use).
_BOGUS_TILES = ("Q", "X", "0m", "0p", "0s", "10m", "Z")


def malformed_line(kind: str, body: Mapping[str, Any], ruleset: RuleSet, rng: random.Random,
                   *, waits: bool = False, name_ruleset: bool = True,
                   known: Collection[str] = ()) -> str:
    """A malformed line of `kind` (one of `MALFORMED_KINDS`) made from a valid request
    `body` of `ruleset` (a score body, or a waits body when `waits`).

    The refused kinds are checked through the service's path (`read_score_request` or
    `read_waits_request`): should one be accepted after all, another is drawn, and in the
    end a garbage line is given instead. `known` are the rule-set ids that exist (an
    `unknown_ruleset` line names none of them, nor `ruleset.id`); with ``name_ruleset`` the
    line's request carries its ``"ruleset"`` key, and `unknown_ruleset` needs it."""
    if kind not in MALFORMED_KINDS:
        raise ValueError(f"unknown kind of malformed line {kind!r}; kinds: "
                         f"{', '.join(MALFORMED_KINDS)}")
    if kind == "unknown_ruleset" and not name_ruleset:
        raise ValueError("an unknown_ruleset line needs the ruleset key (name_ruleset)")

    def line(request: Any, rid: str = ruleset.id) -> str:
        if name_ruleset and isinstance(request, dict):
            return dumps({"ruleset": rid, **request})
        return dumps(request)

    if kind == "truncated":
        text = line(dict(body))
        return text[:rng.randrange(1, len(text))]  # an object cut short is never JSON
    if kind == "garbage":
        return rng.choice(GARBAGE)
    if kind == "empty":
        return ""
    if kind == "array":
        return dumps(rng.choice(([dict(body)], [], [body.get("hand")], [1, 2, 3])))
    if kind == "number":
        return rng.choice(("42", "-1", "3.14", "0", "1e3"))
    if kind == "unknown_ruleset":
        taken = {*known, ruleset.id}
        names = [n for n in (f"{ruleset.id}-house", f"{ruleset.id}2", ruleset.id.upper(),
                             "default", "unknown") if n not in taken]
        return line(dict(body), rng.choice(names))
    read = read_waits_request if waits else read_score_request
    for _ in range(8):
        request = _refused(kind, copy.deepcopy(dict(body)), ruleset, rng)
        try:
            read(request, ruleset)
        except (HandError, ApiError):
            return line(request)
    return rng.choice(GARBAGE)  # pragma: no cover - every kind above is refused


def _refused(kind: str, body: Body, ruleset: RuleSet, rng: random.Random) -> Body:
    """`body` changed so that the service refuses it in the way `kind` names."""
    ts = ruleset.tileset
    hand = body["hand"]
    context: Body = body["context"]
    if kind == "unknown_tile":
        bogus = rng.choice([c for c in _BOGUS_TILES if c not in ts.by_code])
        if isinstance(hand, str):
            body["hand"] = bogus + hand
        elif isinstance(hand["concealed"], str):
            hand["concealed"] = bogus + hand["concealed"]
        else:
            hand["concealed"][rng.randrange(len(hand["concealed"]))] = bogus
    elif kind == "wrong_tile_count":
        extra = ts.code(rng.choice(ts.playing))
        if isinstance(hand, str):
            body["hand"] = hand + extra
        elif isinstance(hand["concealed"], str):
            hand["concealed"] = hand["concealed"] + extra
        elif rng.random() < 0.5:
            hand["concealed"].append(extra)
        else:
            hand["concealed"].pop(rng.randrange(len(hand["concealed"])))
    elif kind == "unknown_field":
        name = rng.choice(_UNKNOWN_FIELDS)
        value = rng.choice((1, "x", True))
        r = rng.random()
        if r < 0.6:
            context[name] = value
        elif r < 0.85 or isinstance(hand, str):
            body[name] = value
        else:
            hand[name] = value
    elif kind == "wrong_type":
        r = rng.randrange(5)
        if r == 0:
            context["winner"] = str(context.get("winner") or 0)  # a seat as a string
        elif r == 1:
            context["last_tile"] = "yes"
        elif r == 2:
            context["win_type"] = 1
        elif r == 3:
            body["hand"] = 14
        else:
            context["options"] = ["base", 2]
    elif kind == "seat_out_of_range":
        seats = ["winner", "dealer"] + (["discarder"] if context.get("discarder") is not None
                                        else [])
        context[rng.choice(seats)] = ruleset.players + rng.randrange(4)
    elif kind == "unknown_option":
        name = rng.choice([n for n in _UNKNOWN_OPTIONS if n not in ruleset.option_by_name])
        context["options"] = {**(context.get("options") or {}), name: rng.choice((True, 2))}
    return body
