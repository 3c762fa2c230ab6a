"""Property test: hands holding many wild tiles (混) never break or stall the service.

天津 hands with up to seven wilds (three of the flipped indicator's kind, four of the next;
sometimes the four as a concealed kong, 金杠), random other tiles and declared melds, go to
the score and the waits endpoints: every answer is a documented 200 or a 422 with a domain
code, its body valid against the OpenAPI document, and each request finishes in time (LIMIT:
generous bounds that a hang or an exponential blow-up would pass far beyond). A rule-set
variant with explicit wilds (three wild kinds, up to twelve wild tiles) is scored in-process
the same way, and a hand that wins with its wilds read as themselves must win at least as
much with them wild.
"""

from __future__ import annotations

import time
from typing import Any

from flask import Flask
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from app.domain.errors import HandError
from app.rules.tile_loader import build_ruleset
from app.scoring.evaluate import score
from app.service.problems import HAND_ERROR_CODES
from app.service.tiles.requests import build
from tests.api.helpers import validate_live

# Hands are 14 tiles drawn one by one: large inputs by construction.
SUPPRESS = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]
# Seconds per request. A 7-wild score takes some 25 ms at worst on a cold engine (bench/wilds.py);
# waits score every tile, each with up to eight wilds: about a second cold for seven wilds.
LIMIT = {"score": 2.0, "waits": 5.0}
SUITS = "mps"
HONOURS = "ESWNCFP"
TILES = [f"{r}{s}" for s in SUITS for r in range(1, 10)] + list(HONOURS)


def next_kind(code: str) -> str:
    """The kind after `code`: 9 -> 1 within a suit, E S W N E, C F P C."""
    if code[0].isdigit():
        return f"{int(code[0]) % 9 + 1}{code[1]}"
    cycle = "ESWN" if code in "ESWN" else "CFP"
    return cycle[(cycle.index(code) + 1) % len(cycle)]


def _meld(kind: str, tile: str, concealed: bool) -> dict[str, Any]:
    return {"kind": kind, "tiles": [tile] * (4 if kind == "kong" else 3), "concealed": concealed}


@st.composite
def wild_hands(draw: st.DrawFn, wild_kinds: list[str], copies: dict[str, int],
               waiting: bool) -> tuple[list[str], list[dict[str, Any]], str | None]:
    """Standing tiles (many of them wild), declared melds and the winning tile (None for a
    waiting hand). `copies`: how many tiles of each wild kind are in play."""
    melds: list[dict[str, Any]] = []
    held: dict[str, int] = {}
    # 金杠: four of a wild kind as a concealed kong.
    for w in wild_kinds:
        if copies[w] == 4 and draw(st.integers(0, 4)) == 0:
            melds.append(_meld("kong", w, True))
            held[w] = 4
    others = [t for t in TILES if t not in wild_kinds]
    for _ in range(draw(st.integers(0, 2))):
        if len(melds) >= 2:
            break
        tile = draw(st.sampled_from(others))
        if held.get(tile, 0):
            continue
        kind = draw(st.sampled_from(["pung", "pung", "kong"]))
        melds.append(_meld(kind, tile, kind == "kong" and draw(st.booleans())))
        held[tile] = 4 if kind == "kong" else 3
    size = 14 - 3 * len(melds) - (1 if waiting else 0)
    standing: list[str] = []
    for w in wild_kinds:
        most = copies[w] - held.get(w, 0)
        n = draw(st.one_of(st.just(most), st.integers(0, most)))  # often all of them
        standing += [w] * min(n, size - len(standing))
    # Natural tiles: mostly in runs and pairs (near-winning), within four copies; a tile
    # that would be a fifth is skipped, the first free kinds fill what is left.
    starts = draw(st.lists(st.tuples(st.sampled_from(others), st.sampled_from([1, 1, 2, 3])),
                           min_size=size, max_size=size))
    fill = [(t, 1) for t in others for _ in range(4)]
    for tile, run in starts + fill:
        for k in range(run):
            t = tile
            if k and tile[0].isdigit() and int(tile[0]) + k <= 9:
                t = f"{int(tile[0]) + k}{tile[1]}"
            if len(standing) < size and held.get(t, 0) < 4:
                standing.append(t)
                held[t] = held.get(t, 0) + 1
        if len(standing) == size:
            break
    standing = draw(st.permutations(standing))
    win = None if waiting else draw(st.sampled_from(standing))
    return list(standing), melds, win


@st.composite
def tianjin_requests(draw: st.DrawFn, waiting: bool) -> tuple[dict[str, Any], int]:
    """A request body, and how many standing tiles are wild."""
    indicator = draw(st.sampled_from(TILES))
    wilds = [indicator, next_kind(indicator)]
    standing, melds, win = draw(wild_hands(wilds, {indicator: 3, wilds[1]: 4}, waiting))
    self_draw = draw(st.integers(0, 5)) > 0
    ctx: dict[str, Any] = {"win_type": "self_draw" if self_draw else "discard",
                           "wild_indicator": indicator}
    if not self_draw:
        ctx["discarder"] = draw(st.integers(1, 3))
    elif any(m["kind"] == "kong" for m in melds) and draw(st.booleans()):
        ctx["kong"] = "replacement"
    hand: Any
    if draw(st.booleans()):
        hand = {"concealed": standing, "melds": melds}
        if win is not None:
            hand["win_tile"] = win
    else:
        rest = list(standing)
        if win is not None:
            rest.remove(win)
            rest.append(win)  # the winning tile is written last
        hand = "".join(("{%s}" if m["concealed"] else "[%s]") % "".join(m["tiles"])
                       for m in melds) + "".join(rest)
    return {"hand": hand, "context": ctx}, sum(t in wilds for t in standing)


def _post(app: Flask, spec: dict[str, Any], endpoint: str, body: dict[str, Any]) -> Any:
    started = time.perf_counter()
    with app.test_client() as client:
        response = client.post(f"/v1/rulesets/tianjin/{endpoint}", json=body)
    elapsed = time.perf_counter() - started
    assert elapsed < LIMIT[endpoint], f"{endpoint} took {elapsed:.2f} s: {body}"
    assert response.status_code in (200, 422), (body, response.get_data(as_text=True))
    validate_live(spec, f"/v1/rulesets/{{ruleset}}/{endpoint}", "post", response)
    payload = response.get_json()
    if response.status_code == 422:
        assert payload["code"] in HAND_ERROR_CODES, payload
    return payload


@settings(max_examples=150, deadline=None, database=None,
          suppress_health_check=SUPPRESS)
@given(request=tianjin_requests(waiting=False))
def test_tianjin_score_with_many_wilds(app: Flask, spec: dict[str, Any],
                                       request: tuple[dict[str, Any], int]) -> None:
    body, n_wilds = request
    payload = _post(app, spec, "score", body)
    event(f"wilds: {n_wilds}")
    event(f"winning: {payload.get('winning', 'error')}")
    if payload.get("winning"):
        # A win is self-drawn, worth 2^番 under the default table.
        assert body["context"]["win_type"] == "self_draw"
        assert payload["value"] == 2 ** payload["fan_total"]


@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=SUPPRESS)
@given(request=tianjin_requests(waiting=True))
def test_tianjin_waits_with_many_wilds(app: Flask, spec: dict[str, Any],
                                       request: tuple[dict[str, Any], int]) -> None:
    body, n_wilds = request
    payload = _post(app, spec, "waits", body)
    event(f"wilds: {n_wilds}")
    event(f"ready: {payload.get('ready', 'error')}")
    if "ready" in payload:
        assert payload["ready"] is bool(payload["waits"])


# An explicit-wilds variant: three wild kinds, so up to twelve wild tiles in a hand; fans that
# do not look at how the wilds were used (so reading them as themselves is one reading).
EXPLICIT = build_ruleset({
    "id": "many_wilds", "name": "many wilds", "name_en": "many wilds",
    "description": "explicit wilds, many of them", "players": 4, "tiles": "standard",
    "min_fan": 0, "max_flowers": 0, "wild": {"indicator": None, "explicit": True},
    "shapes": {"regular": {}, "seven_pairs": {}},
    "payment": {"scheme": "doubling", "params": {"base": 1, "cap": "none"}},
    "fans": [
        {"id": f, "name": f, "name_en": f, "value": v, "check": c, "description": f,
         **({"params": p} if p else {})}
        for f, v, c, p in [
            ("straight", 8, "straight", {}),
            ("zhuo_wu", 4, "win_in_chow_middle", {"tiles": "5m"}),
            ("kong_replacement", 2, "kong_win", {"kind": "replacement"}),
            ("self_drawn", 1, "self_drawn", {}),
            ("nothing", 0, "nothing_else", {}),
        ]
    ],
}, "many_wilds (test variant)")


@st.composite
def explicit_requests(draw: st.DrawFn) -> tuple[Any, dict[str, Any]]:
    wilds = draw(st.lists(st.sampled_from(TILES), min_size=1, max_size=3, unique=True))
    standing, melds, win = draw(wild_hands(wilds, dict.fromkeys(wilds, 4), False))
    ctx: dict[str, Any] = {"win_type": "self_draw", "wilds": wilds}
    if any(m["kind"] == "kong" for m in melds) and draw(st.booleans()):
        ctx["kong"] = "replacement"
    return {"concealed": standing, "melds": melds, "win_tile": win}, ctx


@settings(max_examples=150, deadline=None, database=None,
          suppress_health_check=SUPPRESS)
@given(request=explicit_requests())
def test_explicit_variant_with_many_wilds(request: tuple[Any, dict[str, Any]]) -> None:
    hand_data, ctx_data = request
    try:
        hand, ctx = build(hand_data, ctx_data, EXPLICIT)
    except HandError:
        return  # a hand the request rules refuse (copies, melds): the API answers 422
    event(f"wilds: {sum(t in ctx.wilds for t in hand.concealed)}")
    started = time.perf_counter()
    result = score(hand, ctx, EXPLICIT)
    elapsed = time.perf_counter() - started
    assert elapsed < LIMIT["score"], f"score took {elapsed:.2f} s: {request}"
    # The wilds read as themselves are one reading: if that wins, so does the hand, with at
    # least that total (none of these fans looks at how the wilds were used).
    plain = score(hand, ctx._replace(wilds=()), EXPLICIT)
    if plain.winning:
        assert result.winning, request
        assert result.fan_total >= plain.fan_total, request
    # With every standing tile wild, any hand of the right size wins.
    if all(t in ctx.wilds for t in hand.concealed):
        assert result.winning, request


@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=SUPPRESS)
@given(request=tianjin_requests(waiting=False))
def test_tianjin_explained_with_many_wilds(app: Flask, spec: dict[str, Any],
                                           request: tuple[dict[str, Any], int]) -> None:
    """With up to seven wilds, an explanation answers in time, matches the schema and leaves
    the score as it is; each reading listed shows what every wild stood for."""
    body, n_wilds = request
    with app.test_client() as client:
        started = time.perf_counter()
        response = client.post("/v1/rulesets/tianjin/score?explain=true", json=body)
        elapsed = time.perf_counter() - started
        plain = client.post("/v1/rulesets/tianjin/score", json=body).get_json()
    assert elapsed < 3 * LIMIT["score"], f"explained score took {elapsed:.2f} s: {body}"
    assert response.status_code in (200, 422), (body, response.get_data(as_text=True))
    validate_live(spec, "/v1/rulesets/{ruleset}/score", "post", response)
    payload = response.get_json()
    event(f"wilds: {n_wilds}")
    if response.status_code == 422:
        assert payload == {**plain, "request_id": payload["request_id"]}
        return
    why = payload.pop("explanation")
    assert payload == plain
    for reading in why["readings"]:
        assert len(reading["wilds"]) == n_wilds
