"""A match over HTTP (`POST /v1/rulesets/{ruleset}/match`) on random matches of every rule set
that has match rules.

The hands are drawn from the hands of the match cases (`tests/cases/<ruleset>/matches`), in
any order and number, stripped of what ties them to their place in the case's match (the
dealer, the winds and the first go-round a hand names); the 血战 rule sets draw random rounds
too (`tests.scoring.round_gen`). The options and the match options are those some case of the
rule set sends, or none. A hand may then be refused where it lands (a 17th 国标 hand, a round
nobody won where the last drawer deals, a false win the chosen options price at nothing):
refusals are part of what is compared.

1. Posting the whole match answers what posting it one hand at a time does, each request
   with the `state` the one before answered: every hand's answer is the same, and the last
   answer's standings, next table, state and end are the whole match's; a match refused at
   a hand is refused at that hand, with the same code and pointer, one hand at a time.
2. Each player's running total is what `score` or `settle` pay for the same hands at the
   tables the answer reports (its seats mapped to players by the hand's `seating`), plus the
   false wins (priced by the rule set's `match:` section) and the penalties, less what was
   deducted.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from app.rules.matches import MatchRules
from tests.cases import case_rulesets, collect
from tests.loaded import repo_app
from tests.scoring.round_gen import rounds

Json = dict[str, Any]
RULESETS: dict[str, MatchRules] = {
    rid: match for rid, rs in case_rulesets().items()
    if (match := getattr(rs, "match", None)) is not None}
PLAYERS = {rid: rs.players for rid, rs in case_rulesets().items()}
# Rule sets whose rounds the 血战 round generator draws.
GENERATED_ROUNDS = ("sichuan", "chengdu")
# What ties a win to its place in the match it was written for.
PLACED = ("dealer", "seat_wind", "round_wind", "first_turn")
MAX_HANDS = 18  # past a 国标 match's 16, so that its end is drawn too
EXAMPLES = 25


def _loose_context(win: Json | None) -> None:
    if isinstance(win, dict) and isinstance(win.get("context"), dict):
        for key in PLACED:
            win["context"].pop(key, None)


def _loose(hand: Json) -> Json:
    """A case's hand free of its place: no dealer, winds or first go-round given."""
    hand = copy.deepcopy(hand)
    hand.pop("dealer", None)
    _loose_context(hand.get("win"))
    for claim in (hand.get("claims") or {}).get("claims", ()):
        _loose_context(claim.get("win"))
    for false_win in hand.get("false_wins") or ():
        _loose_context(false_win.get("win"))
    body = hand.get("round")
    if isinstance(body, dict):
        body.pop("dealer", None)
        # A pull is refused when the dealer is its seat: which seat deals is the match's.
        (body.get("options") or {}).pop("pulls", None)
        for event in body.get("events", ()):
            if event.get("type") == "win":
                _loose_context(event)
    return hand


def _pools() -> tuple[dict[str, list[Json]], dict[str, list[Json]], dict[str, list[Json]]]:
    """Per rule set: the hands of its match cases, and the options and match options its
    cases send (besides none). A case that changes the number of players gives nothing."""
    hands: dict[str, list[Json]] = {rid: [] for rid in RULESETS}
    options: dict[str, list[Json]] = {rid: [{}] for rid in RULESETS}
    match_options: dict[str, list[Json]] = {rid: [{}] for rid in RULESETS}
    for param in collect("matches"):
        rid, case = param.values
        if rid not in RULESETS or "players" in (case.get("options") or {}):
            continue
        hands[rid].extend(_loose(h) for h in case["hands"] if "error" not in case["expect"])
        for pool, key in ((options, "options"), (match_options, "match_options")):
            if case.get(key) and case[key] not in pool[rid]:
                pool[rid].append(case[key])
    return hands, options, match_options


HANDS, OPTIONS, MATCH_OPTIONS = _pools()


@st.composite
def matches(draw: Any, rid: str) -> Json:
    """A match request of rule set `rid`."""
    definition = RULESETS[rid]
    hand = st.sampled_from(HANDS[rid])
    if rid in GENERATED_ROUNDS:
        hand = st.one_of(hand, rounds().map(lambda body: {"round": body}))
    body: Json = {"hands": draw(st.lists(hand, min_size=1, max_size=MAX_HANDS))}
    for key, pool in (("options", OPTIONS), ("match_options", MATCH_OPTIONS)):
        chosen = draw(st.sampled_from(pool[rid]))
        if chosen:
            body[key] = chosen
    rules = definition.rules({**definition.option_defaults, **body.get("match_options", {})})
    if rules.seating is None and draw(st.booleans()):
        body["first_dealer"] = draw(st.integers(0, PLAYERS[rid] - 1))
    return body


@pytest.fixture(scope="module")
def client() -> Iterator[FlaskClient]:
    with repo_app().test_client() as c:
        yield c


def _post(client: FlaskClient, rid: str, body: Json) -> tuple[int, Json]:
    response = client.post(f"/v1/rulesets/{rid}/match", json=body)
    return response.status_code, response.get_json()


def _one_at_a_time(client: FlaskClient, rid: str, body: Json) -> list[tuple[int, Json]]:
    """The answers to the match posted hand by hand, up to the first refusal."""
    answers: list[tuple[int, Json]] = []
    state = None
    for i, hand in enumerate(body["hands"]):
        part = {k: v for k, v in body.items() if k not in ("hands", "first_dealer")}
        part["hands"] = [hand]
        if i == 0 and "first_dealer" in body:
            part["first_dealer"] = body["first_dealer"]
        if state is not None:
            part["state"] = state
        status, answer = _post(client, rid, part)
        answers.append((status, answer))
        if status != 200:
            break
        state = answer["state"]
    return answers


SETTINGS = settings(max_examples=EXAMPLES, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))


def test_every_rule_set_with_match_rules_has_hands() -> None:
    assert RULESETS
    for rid, pool in HANDS.items():
        assert pool, f"{rid}: no match case hands"


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_the_whole_match_is_the_match_hand_by_hand(client: FlaskClient, rid: str) -> None:
    @SETTINGS
    @given(matches(rid))
    def check(body: Json) -> None:
        status, whole = _post(client, rid, body)
        parts = _one_at_a_time(client, rid, body)
        if status != 200:
            assert status == 422, whole
            pointer = whole["errors"][0]["pointer"]
            at = int(pointer.split("/")[2]) if pointer.startswith("/hands/") else 0
            assert len(parts) == at + 1, (pointer, [s for s, _ in parts])
            last_status, last = parts[-1]
            assert (last_status, last["code"]) == (422, whole["code"]), (whole, last)
            here = last["errors"][0]["pointer"]
            if pointer.startswith("/hands/"):
                assert here == "/hands/0" + pointer[len(f"/hands/{at}"):], (pointer, here)
            else:
                assert here == pointer
            return
        assert [s for s, _ in parts] == [200] * len(body["hands"]), parts[-1]
        for (_, part), hand in zip(parts, whole["hands"], strict=True):
            assert part["hands"] == [hand]
        last = parts[-1][1]
        for key in ("standings", "next", "state", "ended", "match_options"):
            assert last[key] == whole[key], key

    check()


# --- the running totals from score and settle ----------------------------------------------


def _seats(seating: list[int]) -> list[int]:
    return [seating.index(p) for p in range(len(seating))]


def _score_net(client: FlaskClient, rid: str, win: Json, at: Json, options: Json) -> list[int]:
    """What `score` pays for `win` at the table `at` (a hand of the match answer), by
    player."""
    seats = _seats(at["seating"])
    context = dict(win.get("context") or {})
    winner = context.get("winner", 0)
    context["winner"] = seats[winner]
    for field in ("discarder", "flipper"):
        if context.get(field) is not None:
            context[field] = seats[context[field]]
    context["dealer"] = seats[at["dealer"]]
    if at["seat_winds"] is not None:
        context["seat_wind"] = at["seat_winds"][winner]
        context["round_wind"] = at["round_wind"]
    context["options"] = {**options, **(context.get("options") or {})}
    response = client.post(f"/v1/rulesets/{rid}/score", json={**win, "context": context})
    assert response.status_code == 200, response.get_json()
    net = response.get_json()["payments"]["net"]
    return [net[s] for s in seats]


def _settle_net(client: FlaskClient, rid: str, body: Json, at: Json,
                options: Json) -> list[int]:
    """What `settle` pays for the round `body` dealt by the hand's dealer, by player (a game
    that settles rounds seats its players in their places)."""
    seats = _seats(at["seating"])
    assert seats == sorted(seats)
    request = {**body, "dealer": seats[at["dealer"]],
               "options": {**options, **(body.get("options") or {})}}
    response = client.post(f"/v1/rulesets/{rid}/settle", json=request)
    assert response.status_code == 200, response.get_json()
    return list(response.get_json()["net"])


def _false_win(rid: str, match_options: Json, player: int, kind: str,
               players: int) -> tuple[list[int], list[int]]:
    """(net, deducted) of a false win, as the rule set's match rules price it."""
    prices = RULESETS[rid].rules(match_options).false_win
    assert prices is not None
    how, points = prices[kind]
    net, deducted = [0] * players, [0] * players
    if how == "each":
        net = [points] * players
        net[player] = -points * (players - 1)
    else:
        deducted[player] = points
    return net, deducted


def _expected_hand(client: FlaskClient, rid: str, hand: Json, at: Json,
                   answer: Json, options: Json) -> tuple[list[int], list[int]]:
    """A hand's net and deductions by player, from score, settle, the false wins' prices and
    the penalties."""
    players = len(at["seating"])
    net, deducted = [0] * players, [0] * players
    parts: list[list[int]] = []
    if hand.get("win") is not None:
        parts.append(_score_net(client, rid, hand["win"], at, options))
    elif hand.get("claims") is not None:
        won = [c["player"] for c in at["claims"] if c["outcome"] == "won"]
        claim = next(c for c in hand["claims"]["claims"]
                     if c["win"]["context"].get("winner", 0) == won[0])
        parts.append(_score_net(client, rid, claim["win"], at, options))
    elif hand.get("round") is not None:
        parts.append(_settle_net(client, rid, hand["round"], at, options))
    # The false claims come first, then the false wins the hand lists; a false win sent
    # without its kind has the kind the answer tells from its hand.
    offenders = [c["player"] for c in at["claims"] if c["outcome"] == "false"]
    offenders += [f["player"] for f in hand.get("false_wins") or ()]
    assert [f["player"] for f in at["false_wins"]] == offenders
    for false_win in at["false_wins"]:
        paid, taken = _false_win(rid, answer["match_options"], false_win["player"],
                                 false_win["kind"], players)
        parts.append(paid)
        deducted = [a + b for a, b in zip(deducted, taken, strict=True)]
    for penalty in hand.get("penalties") or ():
        if penalty.get("to") is None:
            deducted[penalty["player"]] += penalty["points"]
        else:
            paid = [0] * players
            paid[penalty["player"]] -= penalty["points"]
            paid[penalty["to"]] += penalty["points"]
            parts.append(paid)
    for part in parts:
        net = [a + b for a, b in zip(net, part, strict=True)]
    return net, deducted


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_the_totals_are_the_nets_of_score_and_settle(client: FlaskClient, rid: str) -> None:
    @SETTINGS
    @given(matches(rid))
    def check(body: Json) -> None:
        status, answer = _post(client, rid, body)
        assume(status == 200)
        options = body.get("options") or {}
        players = len(answer["standings"]["totals"])
        totals = [0] * players
        for hand, at in zip(body["hands"], answer["hands"], strict=True):
            net, deducted = _expected_hand(client, rid, hand, at, answer, options)
            assert (at["net"], at["deducted"]) == (net, deducted), (hand, at)
            totals = [t + n - d for t, n, d in zip(totals, net, deducted, strict=True)]
            assert at["totals"] == totals
        assert answer["standings"]["totals"] == totals

    check()
