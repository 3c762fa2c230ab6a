"""Reading a score or waits request of a word-card rule set (hengyang): every 422 code with
its pointer (and position inside a string), the notation forms that read the same, and the
request schema agreeing with openapi.yaml's HengyangScoreRequest / HengyangWaitsRequest (a
word-card game's request schemas are its own, named after it)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from marshmallow import ValidationError

from app.service.cards.requests import card_schemas
from tests.api.helpers import problem, validator_for
from tests.loaded import repo_rulesets
from tests.schema_strategies import from_schema

URL = "/v1/rulesets/hengyang/score"
WAITS_URL = "/v1/rulesets/hengyang/waits"
HENGYANG = repo_rulesets()["hengyang"]

# E1 of the rules: seat 1 wins on seat 2's discarded 六 (12 胡息, 3 囤, seat 2 pays 9).
E1_CARDS = "123d 2710x 45x 888x 99x 9d 6x"
E1: dict[str, Any] = {"hand": {"cards": E1_CARDS, "win_card": "6x"},
                      "context": {"win_type": "discard", "winner": 1, "discarder": 2}}
E1_CODES = ["1d", "2d", "3d", "2x", "7x", "10x", "4x", "5x", "8x", "8x", "8x", "9x", "9x", "9d",
            "6x"]


def _with(hand: Any = None, **context: Any) -> dict[str, Any]:
    body = copy.deepcopy(E1)
    if hand is not None:
        body["hand"] = hand
    body["context"].update(context)
    return body


def _ctx_only(**context: Any) -> dict[str, Any]:
    body = copy.deepcopy(E1)
    body["context"] = context
    return body


PAO_8 = {"cards": "123d 2710x 45x 8x 9x 6x", "groups": [{"kind": "pao", "cards": "8888x"}],
         "win_card": "6x"}

# (code, body, pointer, position)
CARD_ERRORS: list[tuple[str, dict[str, Any], str, int | None]] = [
    ("unknown_card", _with({"cards": "123d 2710X 45x 888x 99x 9d 6x", "win_card": "6x"}),
     "/hand/cards", 9),
    ("unknown_card", _with({"cards": [*E1_CODES[:3], "Q", *E1_CODES[4:]], "win_card": "6x"}),
     "/hand/cards/3", 0),
    ("unknown_card", _with("123d2710x45x888x99x9d6X"), "/hand", 22),
    ("invalid_notation", _with({"cards": "100x 123d", "win_card": "1x"}), "/hand/cards", 2),
    ("invalid_notation", _with({"cards": E1_CARDS, "win_card": "67x"}), "/hand/win_card", None),
    ("invalid_notation", _with("[123x"), "/hand", 0),
    ("illegal_group", _with({"cards": "567x 789d 33d 4d",
                             "groups": [{"kind": "peng", "cards": "445d"},
                                        {"kind": "chi", "cards": "123x"}], "win_card": "4d"},
                            win_type="flip", winner=3, flipper=1, discarder=None),
     "/hand/groups/0/cards", None),
    ("illegal_group", _with({"cards": "567x 789d 33d 4d",
                             "groups": [{"kind": "peng", "cards": "444d"},
                                        {"kind": "chi", "cards": "1510x"}], "win_card": "4d"},
                            win_type="flip", winner=3, flipper=1, discarder=None),
     "/hand/groups/1/cards", None),
    ("illegal_group", _with("[444d]{123x}567x789d33d4d", win_type="flip", winner=3, flipper=1,
                            discarder=None), "/hand", 6),
    ("illegal_group", _with("[444x8x]567x789d33d4d"), "/hand", 0),
    ("invalid_field", _with({"cards": "567x 789d 33d 4d",
                             "groups": [{"kind": "peng", "cards": "444d", "chou": True},
                                        {"kind": "chi", "cards": "123x"}], "win_card": "4d"},
                            win_type="flip", winner=3, flipper=1, discarder=None),
     "/hand/groups/0/chou", None),
    ("wrong_card_count", _with({"cards": "123d 2710x 45x 888x 99x 6x", "win_card": "6x"}),
     "/hand/cards", None),
    ("wrong_card_count", _with("{10101010d}[2710x]78x123d55x"), "/hand", None),
    ("wrong_card_count", _with({"cards": E1_CARDS, "win_card": "6x"}, options={"deal": 21}),
     "/hand/cards", None),
    ("too_many_copies", _with(PAO_8), "/hand/groups/0/cards", None),
    ("too_many_copies", _with("[8888x]123d2710x45x8x9x6x"), "/hand", None),
    ("win_card_missing", _with({"cards": E1_CARDS, "win_card": "7d"}), "/hand/win_card", None),
    ("win_card_missing", _with("{10101010d}"), "/hand", 11),
    ("undeclared_four", _with({"cards": "123d 2710x 45x 8888x 99x 6x", "win_card": "6x"}),
     "/hand/cards", None),
    ("unknown_option", _with(options={"pao_bonus": 1}), "/context/options/pao_bonus", None),
    ("invalid_option", _with(options={"players": 5}), "/context/options/players", None),
    ("invalid_option", _with(options={"xing": "always"}), "/context/options/xing", None),
    ("seat_out_of_range", _with(winner=4), "/context/winner", None),
    ("seat_out_of_range", _with(discarder=3, options={"players": 3}), "/context/discarder",
     None),
    ("seat_out_of_range", _with(dealer=7), "/context/dealer", None),
    ("inconsistent_context", _ctx_only(win_type="discard", winner=1), "/context/discarder",
     None),
    ("inconsistent_context", _with(discarder=1), "/context/discarder", None),
    ("inconsistent_context", _with(flipper=3), "/context/flipper", None),
    ("inconsistent_context", _ctx_only(win_type="flip", winner=1, flipper=1),
     "/context/flipper", None),
    ("inconsistent_context", _ctx_only(win_type="self_draw", winner=1, discarder=2),
     "/context/discarder", None),
    ("inconsistent_context", _with(options={"xing": "flip"}), "/context/xing_card", None),
    ("invalid_notation", _with(xing_card="6x7x", options={"xing": "flip"}),
     "/context/xing_card", None),
    ("unknown_card", _with(xing_card="6q", options={"xing": "flip"}), "/context/xing_card", 1),
]
CARD_CODES = frozenset(code for code, *_ in CARD_ERRORS)


@pytest.mark.parametrize("code,body,pointer,position",
                         [pytest.param(*case, id=f"{case[0]}-{i}")
                          for i, case in enumerate(CARD_ERRORS)])
def test_card_errors(client: FlaskClient, code: str, body: dict[str, Any], pointer: str,
                     position: int | None) -> None:
    result = problem(client.post(URL, json=body), 422, code)
    assert len(result["errors"]) == 1
    error = result["errors"][0]
    assert (error["code"], error["pointer"]) == (code, pointer), error
    assert error.get("position") == position
    assert error["message"] == result["detail"]


def _first(code: str) -> dict[str, Any]:
    return next(body for c, body, *_ in CARD_ERRORS if c == code)


def test_messages_say_what_was_expected(client: FlaskClient) -> None:
    count = problem(client.post(URL, json=_with({"cards": "123d 2710x 45x 888x 99x 6x",
                                                 "win_card": "6x"})), 422, "wrong_card_count")
    assert "14 cards" in count["detail"] and "15 are needed" in count["detail"]
    deal = problem(client.post(URL, json=_with(options={"deal": 21})), 422, "wrong_card_count")
    assert "21 are needed" in deal["detail"] and "options.deal 21" in deal["detail"]
    group = problem(client.post(URL, json=_first("illegal_group")), 422, "illegal_group")
    assert "445d" in group["detail"] and "peng" in group["detail"]
    four = problem(client.post(URL, json=_first("undeclared_four")), 422, "undeclared_four")
    assert "8x (八)" in four["detail"] and "hand.groups" in four["detail"]
    xing = problem(client.post(URL, json=_with(options={"xing": "flip"})), 422,
                   "inconsistent_context")
    assert "options.xing 'flip'" in xing["detail"]


@pytest.mark.parametrize("body,pointer,code", [
    (_with({"cards": E1_CARDS, "win_card": "6x", "melds": []}), "/hand/melds", "unknown_field"),
    (_with(kong="robbed"), "/context/kong", "unknown_field"),
    (_with(winner="1"), "/context/winner", "invalid_type"),
    (_with(win_type="tsumo"), "/context/win_type", "invalid_value"),
    (_with(12), "/hand", "invalid_type"),
    (_with({"cards": [1, 2], "win_card": "6x"}), "/hand/cards/0", "invalid_type"),
    (_with({"cards": E1_CARDS, "groups": ["444d"]}), "/hand/groups/0", "invalid_type"),
    (_with({"cards": E1_CARDS, "groups": [{"kind": "kan", "cards": "444d"}]}),
     "/hand/groups/0/kind", "invalid_value"),
    (_with({"cards": E1_CARDS, "groups": [{"kind": "peng"}]}), "/hand/groups/0/cards",
     "required"),
    (_with({"win_card": "6x"}), "/hand/cards", "required"),
    ({"hand": E1_CARDS}, "/context", "required"),
    (_with(first_turn="yes"), "/context/first_turn", "invalid_type"),
    (_with(xing_card=6), "/context/xing_card", "invalid_type"),
])
def test_schema_violations(client: FlaskClient, body: dict[str, Any], pointer: str,
                           code: str) -> None:
    result = problem(client.post(URL, json=body), 422, "invalid_request")
    assert (result["errors"][0]["pointer"], result["errors"][0]["code"]) == (pointer, code)


def _score(client: FlaskClient, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(URL, json=body)
    assert response.status_code == 200, response.get_json()
    result: dict[str, Any] = response.get_json()
    return result


@pytest.mark.parametrize("hand", [
    {"cards": E1_CODES, "win_card": "6x"},
    {"cards": "壹贰叁二七十四五八八八九九玖六", "win_card": "六"},
    {"cards": "壹貳叁二七十四五八八八九九玖六"},  # a traditional form; W the last card
    {"cards": "1d2d3d 2x7x10x 4x5x 888x 9x9x 9d 6x", "win_card": "6x", "groups": None},
    "123d2710x45x888x99x9d6x",
    "123d 2710x 45x 888x 99x 9d 6x",
])
def test_notation_forms_read_the_same(client: FlaskClient, hand: Any) -> None:
    assert _score(client, _with(hand)) == _score(client, E1)


def test_table_groups_read_the_same_in_every_form(client: FlaskClient) -> None:
    context = {"win_type": "self_draw"}
    forms = [
        "{10101010d}[2710x]78x123d55x9x",
        {"cards": "78x 123d 55x 9x", "groups": [{"kind": "ti", "cards": "10101010d"},
                                                 {"kind": "chi", "cards": "2710x"}],
         "win_card": "9x"},
        {"cards": ["7x", "8x", "1d", "2d", "3d", "5x", "5x", "9x"],
         "groups": [{"kind": "ti", "cards": ["10d", "10d", "10d", "10d"]},
                    {"kind": "chi", "cards": "二七十"}]},
    ]
    answers = [_score(client, {"hand": h, "context": context}) for h in forms]
    assert answers[0]["score"] == 24
    assert answers[1] == answers[0] == answers[2]


def test_the_fourth_of_three_held_may_be_the_winning_card(client: FlaskClient) -> None:
    body = {"hand": {"cards": "333x 456x 77x 123d 2710d 3x", "win_card": "3x"},
            "context": {"win_type": "discard", "winner": 1, "discarder": 0}}
    assert _score(client, body)["huxi"] == 18  # E11: 跑 三 6 + 壹贰叁 6 + 贰柒拾 6


def test_wei_flags_are_accepted_and_change_nothing(client: FlaskClient) -> None:
    hand = {"cards": "2710d 789x 10x 10d 10x", "win_card": "10x",
            "groups": [{"kind": "wei", "cards": "777d"}, {"kind": "peng", "cards": "222x"}]}
    context = {"win_type": "discard", "winner": 2, "discarder": 0}
    plain = _score(client, {"hand": hand, "context": context})
    flagged = copy.deepcopy(hand)
    flagged["groups"][0].update({"chou": True, "open": True})
    assert _score(client, {"hand": flagged, "context": context}) == plain
    assert plain["score"] == 12  # E6


def test_an_option_switches_a_table_group_on(client: FlaskClient) -> None:
    """一五十 is a 吃 only with yi_wu_shi: E4 with 吃 一五十 (3 息) for 一二三."""
    body = copy.deepcopy(next(b for c, b, p, _ in CARD_ERRORS if p == "/hand/groups/1/cards"))
    body["context"]["options"] = {"yi_wu_shi": True}
    answer = _score(client, body)
    assert (answer["winning"], answer["huxi"]) == (True, 12)
    assert {"kind": "chi", "cards": "1510x", "huxi": 3, "on_table": True,
            "has_win_card": False} in answer["decomposition"]["groups"]


def test_xing_flip_counts_the_given_card(client: FlaskClient) -> None:
    body = _with(xing_card="9x", options={"xing": "flip"})
    answer = _score(client, body)
    assert answer["tun_parts"]["xing"] == 2  # two 九 in the hand
    assert answer["tun"] == 5


# --- waits requests ------------------------------------------------------------------------

WAITING = {"cards": "123d 2710x 45x 888x 99x 9d"}

WAITS_ERRORS: list[tuple[str, dict[str, Any], str]] = [
    ("wrong_card_count", {"hand": {"cards": E1_CARDS}, "context": {}}, "/hand/cards"),
    ("wrong_card_count", {"hand": "{10101010d}[2710x]", "context": {}}, "/hand"),
    ("undeclared_four", {"hand": {"cards": "123d 2710x 45x 8888x 99x"}, "context": {}},
     "/hand/cards"),
    ("inconsistent_context", {"hand": WAITING, "context": {"discarder": 2}},
     "/context/discarder"),
    ("inconsistent_context", {"hand": WAITING, "context": {"win_type": "flip"}},
     "/context/flipper"),
    ("illegal_group", {"hand": {"cards": "567x 789d 33d",
                                "groups": [{"kind": "pao", "cards": "444d"},
                                           {"kind": "chi", "cards": "123x"}]},
                       "context": {}}, "/hand/groups/0/cards"),
    ("too_many_copies", {"hand": {"cards": "123d 2710x 45x 8x 9x",
                                  "groups": [{"kind": "pao", "cards": "8888x"}]},
                         "context": {}}, "/hand/groups/0/cards"),
    ("seat_out_of_range", {"hand": WAITING, "context": {"winner": 2, "options": {"players": 2}}},
     "/context/winner"),
]
WAITS_CODES = frozenset(code for code, *_ in WAITS_ERRORS)


@pytest.mark.parametrize("code,body,pointer", WAITS_ERRORS)
def test_waits_errors(client: FlaskClient, code: str, body: dict[str, Any],
                      pointer: str) -> None:
    result = problem(client.post(WAITS_URL, json=body), 422, code)
    assert result["errors"][0]["pointer"] == pointer


def test_a_waiting_hand_has_no_winning_card(client: FlaskClient) -> None:
    body = {"hand": {**WAITING, "win_card": "6x"}, "context": {}}
    result = problem(client.post(WAITS_URL, json=body), 422, "invalid_request")
    assert (result["errors"][0]["pointer"], result["errors"][0]["code"]) == (
        "/hand/win_card", "unknown_field")


def test_waits_of_e1(client: FlaskClient) -> None:
    """E1 without its 六: 三 or 六 (三四五, 四五六) finish it, by every win type when none is
    given; on a discard from seat 2 it is E1 itself."""
    answer = client.post(WAITS_URL, json={"hand": WAITING, "context": {"winner": 1}}).get_json()
    assert answer["ready"] is True and answer["can_win"] is True
    assert {(w["card"], w["win_type"]) for w in answer["waits"]} == {
        (c, t) for c in ("3x", "6x") for t in ("self_draw", "flip", "discard")}
    given = client.post(WAITS_URL, json={"hand": "123d2710x45x888x99x9d", "context": {
        "win_type": "discard", "winner": 1, "discarder": 2}}).get_json()
    six = next(w for w in given["waits"] if w["card"] == "6x")
    e1 = _score(client, E1)
    del e1["ruleset"]
    assert {k: v for k, v in six.items() if k not in ("card", "win_type")} == e1
    assert six["win_type"] == "discard"


# --- the request schemas agree with openapi.yaml ------------------------------------------


@pytest.mark.parametrize("name,schema", [("HengyangScoreRequest", "score"),
                                         ("HengyangWaitsRequest", "waits")])
def test_every_body_the_document_allows_passes_the_schema(spec: dict[str, Any], name: str,
                                                          schema: str) -> None:
    marshmallow_schema = getattr(card_schemas(HENGYANG), schema)

    @settings(max_examples=100, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(from_schema({"$ref": f"#/components/schemas/{name}",
                        "components": spec["components"]}))
    def check(body: dict[str, Any]) -> None:
        wire = json.loads(json.dumps(body))
        try:
            marshmallow_schema.load(wire)
        except ValidationError as exc:  # pragma: no cover - the failure report
            raise AssertionError(
                f"document allows {wire!r}, schema refuses: {exc.messages}") from exc

    check()


@pytest.mark.parametrize("body", [
    body for body, *_ in [
        (_with({"cards": E1_CARDS, "win_card": "6x", "melds": []}),),
        (_with(kong="robbed"),), (_with(winner="1"),), (_with(win_type="tsumo"),), (_with(12),),
        (_with({"cards": [1, 2]}),), (_with({"cards": E1_CARDS, "groups": ["444d"]}),),
        (_with({"cards": "x" * 201}),), (_with({"cards": ["1x"] * 33}),),
        (_with({"cards": E1_CARDS, "groups": [{"kind": "chi", "cards": "123x"}] * 9}),),
    ]])
def test_refused_bodies_are_refused_by_the_document(spec: dict[str, Any],
                                                    body: dict[str, Any]) -> None:
    assert not validator_for(spec, "/components/schemas/HengyangScoreRequest").is_valid(body)
    with pytest.raises(ValidationError):
        card_schemas(HENGYANG).score.load(body)


def test_accepted_bodies_are_accepted_by_the_document(spec: dict[str, Any]) -> None:
    for body in (E1, _with("123d2710x45x888x99x9d6x", xing_card=None, first_turn=None),
                 CARD_ERRORS[10][1]):
        assert validator_for(spec, "/components/schemas/HengyangScoreRequest").is_valid(body)
        card_schemas(HENGYANG).score.load(body)
