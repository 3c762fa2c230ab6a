"""Property test: realistic score requests (complete hands, random melds and win contexts)
reach the engine, and every answer is a documented 200 or a 422 with a domain code; never a
500. Schemathesis fuzzes the request shape; this fuzzes the mahjong inside it."""

from __future__ import annotations

from typing import Any

from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.service.problems import HAND_ERROR_CODES
from tests.api.helpers import SCORE_URL, validate_live

SUITS = "mps"
HONOURS = "ESWNCFP"
TILES = [f"{r}{s}" for s in SUITS for r in range(1, 10)] + list(HONOURS)


@st.composite
def hands(draw: st.DrawFn) -> Any:
    # Pungs, kongs and the pair take distinct kinds, so that most hands respect the four
    # copies of each tile; chows may still overlap them (then: too_many_copies, also fine).
    kinds = iter(draw(st.permutations(TILES)))
    sets: list[tuple[str, list[str]]] = []
    for _ in range(4):
        kind = draw(st.sampled_from(["chow", "chow", "pung", "kong"]))
        if kind == "chow":
            suit = draw(st.sampled_from(SUITS))
            start = draw(st.integers(1, 7))
            sets.append((kind, [f"{start + i}{suit}" for i in range(3)]))
        else:
            sets.append((kind, [next(kinds)] * (4 if kind == "kong" else 3)))
    pair = [next(kinds)] * 2
    declared = draw(st.integers(0, 4))
    melds = [
        {"kind": kind, "tiles": "".join(tiles) if draw(st.booleans()) else tiles,
         "concealed": kind == "kong" and draw(st.booleans())}
        for kind, tiles in sets[:declared]
    ]
    standing: list[str] = pair[:]
    for kind, tiles in sets[declared:]:
        # An undeclared kong stands as a pung (a hand holds 14 tiles plus kong extras).
        standing += tiles[:3] if kind == "kong" else tiles
    if draw(st.booleans()):
        # Sometimes not a winning shape: swap one standing tile for a random one.
        standing[draw(st.integers(0, len(standing) - 1))] = draw(st.sampled_from(TILES))
    standing = draw(st.permutations(standing))
    win_tile = draw(st.sampled_from(standing))
    if draw(st.booleans()):
        return {"concealed": standing, "melds": melds, "win_tile": win_tile}
    # The same hand in whole-hand notation: melds in brackets, the winning tile last.
    rest = list(standing)
    rest.remove(win_tile)
    written = "".join(
        ("{%s}" if m["concealed"] else "[%s]") % "".join(m["tiles"]) for m in melds
    )
    return written + "".join(rest) + win_tile


@st.composite
def contexts(draw: st.DrawFn) -> dict[str, Any]:
    seat = st.integers(0, 3)
    win_type = draw(st.sampled_from(["self_draw", "discard"]))
    ctx: dict[str, Any] = {
        "win_type": win_type,
        "winner": draw(seat),
        "dealer": draw(seat),
        "seat_wind": draw(st.sampled_from(["E", "S", "W", "N"])),
        "round_wind": draw(st.sampled_from(["E", "S", "W", "N"])),
        "last_tile": draw(st.booleans()),
        "last_of_kind": draw(st.booleans()),
        "kong": draw(st.sampled_from([None] * 6 + ["replacement", "robbed",
                                                    "after_kong_discard"])),
        "flowers": draw(st.one_of(st.integers(0, 8),
                                  st.lists(st.sampled_from([f"{i}f" for i in range(1, 9)]),
                                           max_size=8, unique=True))),
    }
    if win_type == "discard":
        ctx["discarder"] = (ctx["winner"] + draw(st.integers(1, 3))) % 4
    return ctx


@settings(max_examples=300, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(hand=hands(), context=contexts())
def test_realistic_requests_never_fail(app: Flask, spec: dict[str, Any], hand: Any,
                                       context: dict[str, Any]) -> None:
    with app.test_client() as client:
        response = client.post(SCORE_URL, json={"hand": hand, "context": context})
    assert response.status_code in (200, 422), response.get_data(as_text=True)
    validate_live(spec, "/v1/rulesets/{ruleset}/score", "post", response)
    body = response.get_json()
    if response.status_code == 422:
        assert body["code"] in HAND_ERROR_CODES, body
        return
    if body["winning"]:
        assert body["reason"] is None
        net = body["payments"]["net"]
        assert len(net) == 4 and sum(net) == 0
        assert net[context["winner"]] > 0
    else:
        assert body["reason"]["code"] and body["payments"] is None
