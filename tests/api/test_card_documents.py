"""The document of a card rule set (`GET /v1/rulesets/hengyang`): the deck, the 胡息 table,
the hand rule, the placements of the winning card, the scoring steps per 囤 mode, the 名堂
and the options, each as the YAML declares it, and valid against `CardRuleSetDocument`."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from app.rules.cards.model import CardRuleSet
from app.rules.choices import Chosen
from app.rules.load_files import load_yaml
from app.service.cards.documents import card_ruleset_document, choice_value
from app.service.families import ruleset_document
from tests.api.helpers import REPO_ROOT, validator_for
from tests.loaded import repo_rulesets

RULESET = "hengyang"
RAW: dict[str, Any] = load_yaml(
    (REPO_ROOT / "rulesets" / f"{RULESET}.yaml").read_text(encoding="utf-8"))
LIMITS = {"request_bytes": 1, "batch_bytes": 2, "match_bytes": 5, "batch_items": 3,
          "time_limit_seconds": 4.0}


@pytest.fixture(scope="module")
def rs() -> CardRuleSet:
    loaded = repo_rulesets()[RULESET]
    assert isinstance(loaded, CardRuleSet)
    return loaded


@pytest.fixture(scope="module")
def doc(rs: CardRuleSet) -> dict[str, Any]:
    return card_ruleset_document(rs, LIMITS)


def test_the_document_conforms_to_its_schema(doc: dict[str, Any], spec: dict[str, Any]) -> None:
    errors = [e.message for e in
              validator_for(spec, "/components/schemas/CardRuleSetDocument").iter_errors(doc)]
    assert not errors, errors
    # ... and not to the tile games' document: the two are told apart.
    assert list(validator_for(spec, "/components/schemas/RulesetDetail").iter_errors(doc))


def test_the_service_serves_it(client: FlaskClient, rs: CardRuleSet) -> None:
    body = client.get(f"/v1/rulesets/{RULESET}").get_json()
    served_limits = body.pop("limits")
    assert set(served_limits) == set(LIMITS)
    expected = card_ruleset_document(rs, {})
    expected.pop("limits")
    assert body == expected
    assert ruleset_document(rs, LIMITS) == card_ruleset_document(rs, LIMITS)


def test_the_keys_are_the_schemas_in_its_order(doc: dict[str, Any],
                                               spec: dict[str, Any]) -> None:
    """Every key `CardRuleSetDocument` lists, in its order; `settlement` is null, as the
    tile games' document says of a rule set that does not settle rounds."""
    schema = spec["components"]["schemas"]["CardRuleSetDocument"]
    assert list(doc) == list(schema["properties"]) == schema["required"]
    assert "settlement" in doc and doc["settlement"] is None


def test_the_summary_and_the_limits(doc: dict[str, Any]) -> None:
    assert (doc["id"], doc["name"], doc["players"], doc["players_option"]) == (
        RULESET, "衡阳六胡抢", 4, "players")
    assert doc["kind"] == "cards"
    assert doc["source"] == f"{RULESET}.yaml"
    assert doc["limits"] == LIMITS


def test_the_deck_is_80_cards_of_20_kinds(doc: dict[str, Any]) -> None:
    deck = doc["deck"]
    assert (deck["kinds"], deck["copies"], deck["cards"]) == (20, 4, 80)
    assert [s["letter"] for s in deck["suits"]] == ["x", "d"]
    cards = [c for s in deck["suits"] for c in s["cards"]]
    assert len(cards) == 20 and len({c["code"] for c in cards}) == 20
    by_code = {c["code"]: c for c in cards}
    assert by_code["10x"] == {"code": "10x", "name": "十", "rank": 10, "attributes": ["red"]}
    assert by_code["1d"] == {"code": "1d", "name": "壹", "rank": 1, "attributes": []}
    assert "".join(c["name"] for c in deck["suits"][0]["cards"]) == "一二三四五六七八九十"
    assert "".join(c["name"] for c in deck["suits"][1]["cards"]) == "壹贰叁肆伍陆柒捌玖拾"
    red = sorted(c["code"] for c in cards if "red" in c["attributes"])
    assert red == ["10d", "10x", "2d", "2x", "7d", "7x"]
    assert len(red) * deck["copies"] == 24
    assert deck["attributes"] == {"red": [2, 7, 10]}
    assert deck["aliases"] == {"貳": "2d", "參": "3d", "叄": "3d", "陸": "6d"}


def test_the_huxi_table(doc: dict[str, Any]) -> None:
    groups = {g["id"]: g for g in doc["groups"]}
    points = {gid: g["points"]["by_suit"] if g["points"] else None for gid, g in groups.items()}
    # 大 (d) / 小 (x).
    assert points == {"ti": {"d": 12, "x": 9}, "pao": {"d": 9, "x": 6},
                      "wei": {"d": 6, "x": 3}, "kan": {"d": 6, "x": 3},
                      "peng": {"d": 3, "x": 1}, "shun": {"d": 6, "x": 3},
                      "jiao": {"d": 0, "x": 0}, "pair": {"d": 0, "x": 0}, "chi": None}
    # Only 一二三, 二七十 and 一五十 earn a 句's 胡息; 一五十 is a 句 only with yi_wu_shi.
    assert groups["shun"]["points"]["ranks"] == [[1, 2, 3], [2, 7, 10], [1, 5, 10]]
    assert groups["shun"]["forms"] == [
        {"form": "run", "size": 3, "ranks": [], "when": None},
        {"form": "ranks", "size": 3, "ranks": [2, 7, 10], "when": None},
        {"form": "ranks", "size": 3, "ranks": [1, 5, 10], "when": "yi_wu_shi"}]
    assert groups["jiao"]["forms"] == [{"form": "mixed", "size": 3, "ranks": [], "when": None}]
    assert {gid: g["size"] for gid, g in groups.items()} == {
        "ti": 4, "pao": 4, "wei": 3, "kan": 3, "peng": 3, "shun": 3, "jiao": 3, "pair": 2,
        "chi": 3}
    assert {gid: g["table"] for gid, g in groups.items() if g["table"]} == {
        "ti": "concealed", "wei": "concealed", "pao": "exposed", "peng": "exposed",
        "chi": "exposed"}
    assert groups["chi"]["made_of"] == ["shun", "jiao"]
    assert groups["wei"]["flags"] == ["chou", "open"]


def test_the_hand_rule(doc: dict[str, Any]) -> None:
    assert doc["hand"] == {
        "groups": ["kan", "shun", "jiao", "pair"],
        "locked": {"kind": "kan", "held": 3},
        "pair": {"kind": "pair", "when_size": 4},
        "cards": {"option": "deal", "values": {"15": 15, "21": 21}, "default": None},
        "per_extra": 1}


def test_where_the_winning_card_goes(doc: dict[str, Any]) -> None:
    placements = {(p["held"], p["table"]): p["by_win_type"] for p in doc["win_card"]}
    assert placements[(2, None)]["self_draw"] == {
        "option": "forced_wei", "values": {"true": ["wei"], "false": ["wei", "free"]},
        "default": None}
    assert placements[(2, None)]["discard"] == ["peng", "free"]
    assert placements[(3, None)] == {"self_draw": ["ti"], "flip": ["pao", "free"],
                                     "discard": ["pao", "free"]}
    assert placements[(None, "wei")]["self_draw"] == ["ti"]
    # A card played from hand cannot 跑 onto a 碰.
    assert placements[(None, "peng")] == {"self_draw": ["pao"], "flip": ["pao", "free"],
                                          "discard": ["free"]}


def test_win_types_and_who_pays(doc: dict[str, Any]) -> None:
    wins = {w["id"]: w for w in doc["win_types"]}
    assert list(wins) == ["self_draw", "flip", "discard"]
    assert (wins["self_draw"]["pays"], wins["self_draw"]["payer"]) == ("each_other", None)
    assert (wins["flip"]["pays"], wins["flip"]["payer"]) == ("each_other", "flipper")
    assert wins["discard"]["payer"] == "discarder" and wins["discard"]["pays"] == "payer"
    assert wins["discard"]["shares"] == {
        "option": "discard_pays", "values": {"all_shares": "others", "three": 3},
        "default": None}


def test_scoring_steps_per_tun_mode(doc: dict[str, Any]) -> None:
    scoring = doc["scoring"]
    assert scoring["option"] == "tun_mode" and scoring["default"] is None
    steps = {mode: [s["step"] for s in seq] for mode, seq in scoring["values"].items()}
    assert steps == {
        "three_per_tun": ["minimum", "units_from_points", "units_per_copy", "multiply",
                          "score"],
        "one_per_huxi": ["minimum", "units_equal_points", "units_per_copy", "multiply",
                         "score"],
        "hzy": ["minimum", "units_from_counted_points", "units_per_copy",
                "units_per_card_over", "multiply", "score"]}
    first = scoring["values"]["three_per_tun"]
    assert first[0]["params"]["at_least"] == {"option": "min_huxi", "values": {},
                                              "default": None}
    assert first[1]["params"] == {
        "base": {"option": "di_fen", "values": {}, "default": None}, "start": 6, "every": 3,
        "base_part": "di_fen", "part": "from_huxi"}
    assert first[2]["params"]["card"]["values"] == {"none": None, "follow": "win_card",
                                                     "flip": "xing_card"}
    assert scoring["values"]["hzy"][1]["params"]["counted_as"] == {"10": 15}
    assert doc["rank_by"] == {"option": "tun_mode", "values": {"hzy": ["score", "points"]},
                              "default": ["points", "score"]}


def test_patterns_as_written(doc: dict[str, Any]) -> None:
    assert [p["id"] for p in doc["patterns"]] == [p["id"] for p in RAW["patterns"]]
    by_id = {p["id"]: p for p in doc["patterns"]}
    assert by_id["xiao_hong"]["check"] == "cards_with"
    assert by_id["xiao_hong"]["params"] == {"attribute": "red", "at_least": 8, "at_most": 9}
    assert by_id["xiao_hong"]["value"] == {
        "option": "red_black",
        "values": {"xy": {"option": "tun_mode", "values": {"one_per_huxi": 0}, "default": 2},
                   "hzy": 3, "off": 0},
        "default": None}
    assert by_id["zi_mo"]["value"] == {"option": "self_draw_double",
                                       "values": {"true": 2, "false": 0}, "default": None}
    for raw in RAW["patterns"]:
        p = by_id[raw["id"]]
        assert (p["name"], p["check"], p["params"]) == (raw["name"], raw["check"],
                                                         raw["params"])


def test_every_option_is_listed_with_its_default(doc: dict[str, Any], rs: CardRuleSet) -> None:
    assert [o["name"] for o in doc["options"]] == [o["name"] for o in RAW["options"]]
    for raw, o in zip(RAW["options"], doc["options"], strict=True):
        assert (o["type"], o["default"]) == (raw["type"], raw["default"]), raw["name"]
        assert o.get("choices") == raw.get("choices"), raw["name"]
    assert {o["name"]: o["default"] for o in doc["options"]} == dict(rs.option_defaults)
    defaults = {o["name"]: o["default"] for o in doc["options"]}
    assert defaults == {
        "players": 4, "deal": 15, "min_huxi": 6, "tun_mode": "three_per_tun", "di_fen": 1,
        "red_black": "xy", "self_draw_double": True, "discard_pays": "all_shares",
        "xing": "none", "tian_di_hu": False, "hai_di": False, "yi_wu_shi": False,
        "forced_wei": True}


def test_a_choice_is_written_with_its_option_values_and_default() -> None:
    inner = Chosen("b", {1: "one"}, "other", True)
    written = choice_value(Chosen("a", {True: inner, False: [1, 2]}))
    assert written == {"option": "a", "default": None,
                       "values": {"true": {"option": "b", "values": {"1": "one"},
                                           "default": "other"},
                                  "false": [1, 2]}}
    assert choice_value(Chosen("a", {})) == {"option": "a", "values": {}, "default": None}
