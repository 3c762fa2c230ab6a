"""Loading the money data of a rule set: per-seat options, requirements on the counted fans
(`requires_fans`) and the points scheme's parameters (tables of fans, the dealer's stakes).
Every refusal names the file and the field, as the loader's other errors do."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from app.rules.definitions import FanRequirement
from app.rules.loader import load_rulesets
from app.rules.payments import PointsTable
from tests.loaded import repo_rulesets
from tests.rules.test_loader import assert_names, load_error, mini, write

PULLS = {"name": "pulls", "type": "per_seat", "minimum": 0, "maximum": 2, "dealer_entry": 0,
         "default": [0, 0, 0, 0], "description": "拉庄 by seat"}
VOID = {"name": "void_suit", "type": "per_seat", "choices": ["m", "p", "s"],
        "default": [None, None, None, None], "description": "定缺 by seat"}
OPTIONS: list[dict[str, Any]] = [
    {"name": "base", "type": "int", "default": 1, "minimum": 1, "description": "底"},
    {"name": "table", "type": "enum", "choices": ["plain", "weighted"], "default": "plain",
     "description": "which table"},
    {"name": "sits", "type": "bool", "default": False, "description": "坐庄"},
    PULLS,
    {"name": "min_hand", "type": "enum", "choices": ["any", "some"], "default": "any",
     "description": "the smallest win"},
]
POINTS: dict[str, Any] = {
    "scheme": "points",
    "params": {
        "base": {"option": "base"}, "table": {"option": "table"},
        "tables": {"plain": "doubling", "weighted": {"add": {"a": 3}, "times": {"b": 2}}},
        "dealer_sits": {"option": "sits"}, "pulls": {"option": "pulls"},
    },
}


def money(**changes: Any) -> dict[str, Any]:
    """`mini` with the money options and the points scheme; `changes` replace top keys."""
    data = mini(options=copy.deepcopy(OPTIONS), payment=copy.deepcopy(POINTS))
    data.update(changes)
    return data


def test_the_money_data_loads(tmp_path: Path) -> None:
    data = money(requires_fans=[{"some_fan_besides": ["c"], "reason": "below_minimum",
                                 "message": "more than c",
                                 "when": {"option": "min_hand", "in": ["some"]}}])
    rs = load_rulesets(write(tmp_path, data))["mini"]
    pulls = rs.option_by_name["pulls"]
    assert (pulls.type, pulls.default, pulls.minimum, pulls.maximum, pulls.dealer_entry) == (
        "per_seat", (0, 0, 0, 0), 0, 2, 0)
    tables = rs.payment.params["tables"]
    assert tables["plain"] == PointsTable(doubling=True)
    assert (dict(tables["weighted"].add), dict(tables["weighted"].times)) == ({"a": 3}, {"b": 2})
    assert rs.fan_requirements == (FanRequirement(frozenset({"c"}), "below_minimum",
                                                  "more than c", "min_hand", ("some",)),)


def test_the_real_tianjin_money_data() -> None:
    rs = repo_rulesets()["tianjin"]
    assert {o.name: o.type for o in rs.options} == {
        "base": "int", "table": "enum", "dealer_sits": "bool", "pulls": "per_seat",
        "min_hand": "enum", "golden_kong": "enum", "drawn_kongs_stand": "bool"}
    assert rs.option_by_name["pulls"].default == (0, 0, 0, 0)
    assert rs.payment.scheme == "points"
    assert set(rs.payment.params["tables"]) == set(rs.option_by_name["table"].choices)
    assert [sorted(r.besides) for r in rs.fan_requirements] == [["ti_liu"],
                                                                ["hun_diao", "ti_liu"]]
    assert rs.settlement is not None and rs.settlement.win_ends_round


@pytest.mark.parametrize(("option", "field", "words"), [
    ({**PULLS, "default": [0, 0, 0]}, "options[0].default", "must list 4 integers"),
    ({**PULLS, "default": [0, 3, 0, 0]}, "options[0].default", "within minimum and maximum"),
    ({**PULLS, "default": [1, 1, 1, 1]}, "options[0].default", "equal to dealer_entry"),
    ({**PULLS, "default": [0, True, 0, 0]}, "options[0].default", "must list 4 integers"),
    ({**PULLS, "default": 0}, "options[0].default", "must list 4 integers"),
    ({**PULLS, "dealer_entry": "no"}, "options[0].dealer_entry", "an integer"),
    ({"name": "x", "type": "int", "default": 0, "dealer_entry": 0, "description": "x"},
     "options[0].dealer_entry", "only a per_seat option"),
    ({"name": "x", "type": "list", "default": [], "description": "x"}, "options[0].type",
     "per_seat"),
    # With choices (定缺: a suit or null per seat): entries among them, no bounds.
    ({**VOID, "default": ["z", None, None, None]}, "options[0].default",
     "each one of the choices or null"),
    ({**VOID, "default": [None, None, None]}, "options[0].default", "4 entries"),
    ({**VOID, "minimum": 0}, "options[0].minimum", "without choices"),
    ({**VOID, "choices": ["m", None]}, "options[0].choices", "null is not a choice"),
    ({**VOID, "choices": []}, "options[0].choices", "must list the values"),
    ({"name": "x", "type": "bool", "default": False, "choices": [True],
      "description": "x"}, "options[0].choices", "only an enum or per_seat option"),
])
def test_a_bad_per_seat_option_is_refused(tmp_path: Path, option: dict[str, Any], field: str,
                                          words: str) -> None:
    msg = load_error(tmp_path, mini(options=[option]))
    assert_names(msg, "mini.yaml", field)
    assert words in msg


@pytest.mark.parametrize(("requirement", "field", "words"), [
    ({"some_fan_besides": ["zz"], "reason": "r", "message": "m"},
     "requires_fans[0].some_fan_besides", "fan ids of this rule set"),
    ({"some_fan_besides": "a", "reason": "r", "message": "m"},
     "requires_fans[0].some_fan_besides", "must be a list of strings"),
    ({"some_fan_besides": [], "reason": "r", "message": "m", "win_type": "ron"},
     "requires_fans[0].win_type", "self_draw or discard"),
    ({"some_fan_besides": ["a"], "reason": "", "message": "m"}, "requires_fans[0].reason",
     "non-empty string"),
    ({"some_fan_besides": ["a"], "reason": "r", "message": "m", "if": 1},
     "requires_fans[0].if", "unknown key"),
    ({"some_fan_besides": ["a"], "reason": "r", "message": "m",
      "when": {"option": "base", "in": [1]}}, "requires_fans[0].when.option",
     "a bool or enum option"),
    ({"some_fan_besides": ["a"], "reason": "r", "message": "m",
      "when": {"option": "min_hand", "in": ["most"]}}, "requires_fans[0].when.in",
     "values of option 'min_hand'"),
    ({"some_fan_besides": ["a"], "reason": "r", "message": "m",
      "when": {"option": "min_hand"}}, "requires_fans[0].when", "{option:"),
])
def test_a_bad_fan_requirement_is_refused(tmp_path: Path, requirement: dict[str, Any],
                                          field: str, words: str) -> None:
    msg = load_error(tmp_path, money(requires_fans=[requirement]))
    assert_names(msg, "mini.yaml", field)
    assert words in msg


def _params(**changes: Any) -> dict[str, Any]:
    payment = copy.deepcopy(POINTS)
    for key, value in changes.items():
        if value is None:
            payment["params"].pop(key)
        else:
            payment["params"][key] = value
    return payment


@pytest.mark.parametrize(("payment", "field", "words"), [
    (_params(tables=None), "payment.params.tables", "missing required parameter"),
    (_params(tables={}), "payment.params.tables", "must map table names"),
    (_params(tables={"plain": "halving", "weighted": "doubling"}),
     "payment.params.tables.plain", "must be `doubling`"),
    (_params(tables={"plain": "doubling", "weighted": {"add": {"zz": 1}}}),
     "payment.params.tables.weighted.add.zz", "names no fan"),
    (_params(tables={"plain": "doubling", "weighted": {"times": {"a": 0}}}),
     "payment.params.tables.weighted.times.a", "at least 1"),
    (_params(tables={"plain": "doubling", "weighted": {"add": {"a": -1}}}),
     "payment.params.tables.weighted.add.a", "at least 0"),
    (_params(tables={"plain": "doubling", "weighted": {"plus": {"a": 1}}}),
     "payment.params.tables.weighted", "add and/or times"),
    (_params(tables={"plain": "doubling"}), "payment.params.table",
     "choices are tables (plain)"),
    (_params(table="other"), "payment.params.table", "must name a table"),
    (_params(table={"option": "base"}), "payment.params.table", "an enum"),
    (_params(dealer_sits={"option": "table"}), "payment.params.dealer_sits",
     "must be a bool option"),
    (_params(pulls={"option": "sits"}), "payment.params.pulls", "per_seat option"),
    (_params(pulls=[0, "x"]), "payment.params.pulls", "must be"),
    (_params(fans=[]), "payment.params.fans", "not a parameter of scheme 'points'"),
])
def test_bad_points_parameters_are_refused(tmp_path: Path, payment: dict[str, Any],
                                           field: str, words: str) -> None:
    msg = load_error(tmp_path, money(payment=payment))
    assert_names(msg, "mini.yaml", field)
    assert words in msg


def test_fixed_points_parameters_load(tmp_path: Path) -> None:
    """The table, the stakes and the pulls may be fixed in the rule set, not chosen."""
    payment = _params(table="weighted", dealer_sits=True, pulls=[0, 1, 1, 1], base=2)
    rs = load_rulesets(write(tmp_path, money(payment=payment)))["mini"]
    assert (rs.payment.params["table"], rs.payment.params["dealer_sits"],
            rs.payment.params["pulls"]) == ("weighted", True, [0, 1, 1, 1])


def test_the_real_sichuan_void_suit_option() -> None:
    for rid in ("sichuan", "chengdu"):
        rs = repo_rulesets()[rid]
        od = rs.option_by_name["void_suit"]
        assert (od.type, od.choices, od.default) == ("per_seat", ("m", "p", "s"),
                                                     (None, None, None, None))
        assert rs.settlement is not None
        assert rs.settlement.drawn_game.declared_void == "void_suit"
        assert [r.params for r in rs.requirements if r.check == "lacks_declared_suit"] == [
            {"option": "void_suit"}]


def test_a_null_default_of_a_per_seat_choice_is_null_at_every_seat(tmp_path: Path) -> None:
    rs = load_rulesets(write(tmp_path, mini(options=[{**VOID, "default": None}])))["mini"]
    assert rs.option_by_name["void_suit"].default == (None,) * rs.players
    three = {"id": "three", "extends": "mini", "name": "三", "name_en": "Three", "players": 3}
    child = load_rulesets(write(tmp_path, mini(options=[{**VOID, "default": None}]), three))
    assert child["three"].option_by_name["void_suit"].default == (None, None, None)
