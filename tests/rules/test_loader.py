"""Rule-set loading: strict validation whose errors name file, fan and field; `extends`;
exclusion ordering; the real rule sets; `bind_check`.

Small rule sets are written to tmp_path as YAML and loaded with `load_rulesets`, exactly as the
service loads `rulesets/` at start-up.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.domain.notation import parse_tiles
from app.domain.shapes import decompose
from app.rules.checks import CHECKS, TileGroup, bound_params
from app.rules.choices import Chosen
from app.rules.errors import RuleSetError
from app.rules.load_files import load_yaml
from app.rules.load_params import bind_check
from app.rules.loader import load_rulesets
from app.rules.model import RuleSet
from app.rules.policies import POLICIES
from app.rules.tile_loader import build_ruleset
from app.rules.view import HandFacts, View
from app.scoring.evaluate import score
from app.scoring.waits import waits
from app.service.families import ruleset_document
from app.service.tiles.requests import build, build_waiting
from tests.loaded import repo_rulesets
from tests.mcr_reference.generator import generate

ROOT = Path(__file__).resolve().parents[2]


def fan(fid: str, check: str = "self_drawn", **extra: Any) -> dict[str, Any]:
    return {"id": fid, "name": "番" + fid, "name_en": fid.upper(), "value": 1, "check": check,
            "description": f"fan {fid}", **extra}


def mini(rid: str = "mini", **top: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": rid, "name": "迷你", "name_en": "Mini", "description": "A tiny rule set.",
        "players": 4, "tiles": "standard", "min_fan": 2,
        "shapes": {"regular": {}, "seven_pairs": {"priority": 1}},
        "payment": {"scheme": "base_plus_fan", "params": {"base": 8}},
        "options": [{"name": "cap", "type": "int", "default": 3, "description": "a cap"}],
        "fans": [
            fan("a", "kongs", params={"total": 1}),
            fan("b", "self_drawn"),
            fan("c", "tiles_within", params={"tiles": "19m19p19s"}),
        ],
    }
    data.update(top)
    return data


def write(directory: Path, *rulesets: dict[str, Any], names: list[str] | None = None) -> Path:
    for i, data in enumerate(rulesets):
        name = names[i] if names else data["id"]
        (directory / f"{name}.yaml").write_text(
            yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return directory


def load_error(tmp_path: Path, *rulesets: dict[str, Any]) -> str:
    write(tmp_path, *rulesets)
    with pytest.raises(RuleSetError) as info:
        load_rulesets(tmp_path)
    return str(info.value)


def assert_names(msg: str, file: str, field: str, fan_id: str | None = None) -> None:
    assert msg.startswith(f"{file}: "), msg
    assert f"field {field!r}" in msg, msg
    if fan_id is None:
        assert "fan '" not in msg.split("field")[0], msg
    else:
        assert f"fan {fan_id!r}" in msg, msg


def test_the_minimal_rule_set_loads(tmp_path: Path) -> None:
    rs = load_rulesets(write(tmp_path, mini()))["mini"]
    assert [f.id for f in rs.fans] == ["a", "b", "c"]
    assert rs.source == "mini.yaml"
    assert rs.fan_by_id["c"].params == {"tiles": "19m19p19s"}
    assert rs.option_by_name["cap"].default == 3


# ---------------------------------------------------------------------------------------------
# Rejections: each names the file, the fan (when there is one) and the field


def _with_fan_change(index: int, change: dict[str, Any], drop: str | None = None
                     ) -> dict[str, Any]:
    data = mini()
    data["fans"][index].update(change)
    if drop:
        del data["fans"][index][drop]
    return data


FAN_REJECTIONS = [
    # (label, rule set, fan, field, words the message must contain)
    ("unknown fan key", _with_fan_change(0, {"valeu": 3}), "a", "valeu", ["unknown key"]),
    ("missing fan field", _with_fan_change(1, {}, drop="name_en"), "b", "name_en", ["missing"]),
    ("missing description", _with_fan_change(1, {}, drop="description"), "b", "description",
     ["missing"]),
    ("empty name", _with_fan_change(1, {"name": " "}), "b", "name", ["non-empty"]),
    ("value not an int", _with_fan_change(1, {"value": "8"}), "b", "value", ["integer"]),
    ("value a bool", _with_fan_change(1, {"value": True}), "b", "value", ["integer"]),
    ("negative value", _with_fan_change(1, {"value": -1}), "b", "value", ["at least 0"]),
    ("unknown check", _with_fan_change(1, {"check": "no_such_check"}), "b", "check",
     ["unknown check", "no_such_check"]),
    ("param not taken by the check", _with_fan_change(0, {"params": {"total": 1, "colour": 2}}),
     "a", "params.colour", ["not a parameter", "total"]),
    ("param of a check without params", _with_fan_change(1, {"params": {"x": 1}}), "b",
     "params.x", ["takes: none"]),
    ("required param missing", _with_fan_change(0, {"params": {}}), "a", "params.total",
     ["missing required"]),
    ("params not a mapping", _with_fan_change(0, {"params": [1]}), "a", "params", ["mapping"]),
    ("wrong param type int", _with_fan_change(0, {"params": {"total": "two"}}), "a",
     "params.total", ["integer", "'two'"]),
    ("wrong param type optional int", _with_fan_change(0, {"params": {"total": 2,
                                                                      "concealed": "one"}}),
     "a", "params.concealed", ["integer"]),
    ("wrong param type bool", _with_fan_change(1, {"check": "one_suit", "params": {"honors": 1}}),
     "b", "params.honors", ["true or false"]),
    ("bad Literal value", _with_fan_change(1, {"check": "wait", "params": {"position": "middle"}}),
     "b", "params.position", ["edge", "closed", "single", "'middle'"]),
    ("bad Literal type", _with_fan_change(1, {"check": "wind_pung", "params": {"wind": 1}}),
     "b", "params.wind", ["seat", "round"]),
    ("bad tile notation", _with_fan_change(2, {"params": {"tiles": "12x"}}), "c", "params.tiles",
     ["bad tile notation"]),
    ("tile group not a string", _with_fan_change(2, {"params": {"tiles": 19}}), "c",
     "params.tiles", ["tile notation"]),
    ("unknown id in excludes", _with_fan_change(1, {"excludes": ["a", "zzz"]}), "b", "excludes",
     ["unknown fan id", "zzz"]),
    ("excludes not a list", _with_fan_change(1, {"excludes": "a"}), "b", "excludes", ["list"]),
    ("self-exclusion", _with_fan_change(1, {"excludes": ["b"]}), "b", "excludes", ["itself"]),
    ("unknown shape of a fan", _with_fan_change(1, {"shapes": ["nine_gates"]}), "b", "shapes",
     ["regular", "seven_pairs"]),
    ("counts_toward_minimum not a bool", _with_fan_change(1, {"counts_toward_minimum": "no"}),
     "b", "counts_toward_minimum", ["true or false"]),
    ("final not a bool", _with_fan_change(1, {"final": "yes"}), "b", "final", ["true or false"]),
    ("final fan decided last", _with_fan_change(1, {"check": "nothing_else", "final": True}),
     "b", "final", ["nothing else counts", "cannot be final"]),
]


@pytest.mark.parametrize(("label", "data", "fan_id", "field", "words"), FAN_REJECTIONS,
                         ids=[r[0] for r in FAN_REJECTIONS])
def test_fan_rejections_name_file_fan_and_field(
        tmp_path: Path, label: str, data: dict[str, Any], fan_id: str, field: str,
        words: list[str]) -> None:
    msg = load_error(tmp_path, data)
    assert_names(msg, "mini.yaml", field, fan_id)
    for w in words:
        assert w in msg, f"{label}: {msg}"


def test_duplicate_fan_id(tmp_path: Path) -> None:
    data = mini()
    data["fans"].append(fan("b", "no_honors"))
    msg = load_error(tmp_path, data)
    assert_names(msg, "mini.yaml", "id", "b")
    assert "duplicate" in msg


def test_fan_without_an_id(tmp_path: Path) -> None:
    data = mini()
    data["fans"].append({"name": "无名"})
    msg = load_error(tmp_path, data)
    assert_names(msg, "mini.yaml", "fans[3]")


def _cycle_in(msg: str) -> list[str]:
    found = re.search(r"exclusion cycle ([\w ->]+)", msg)
    assert found, msg
    return [x.strip() for x in found.group(1).split("->")]


def test_exclusion_cycle_is_shown(tmp_path: Path) -> None:
    data = mini()
    data["fans"][0]["excludes"] = ["b"]
    data["fans"][1]["excludes"] = ["c"]
    data["fans"][2]["excludes"] = ["a"]
    data["fans"].append(fan("d", "no_honors", excludes=["a"]))  # leads into the cycle only
    msg = load_error(tmp_path, data)
    cycle = _cycle_in(msg)
    assert cycle[0] == cycle[-1], msg
    assert set(cycle) == {"a", "b", "c"}, msg
    excludes = {f["id"]: f.get("excludes", []) for f in data["fans"]}
    for x, y in itertools.pairwise(cycle):
        assert y in excludes[x], f"{x} -> {y} is no exclusion: {msg}"
    assert_names(msg, "mini.yaml", "excludes", cycle[0])


def test_two_fan_exclusion_cycle(tmp_path: Path) -> None:
    data = mini()
    data["fans"][1]["excludes"] = ["c"]
    data["fans"][2]["excludes"] = ["b"]
    cycle = _cycle_in(load_error(tmp_path, data))
    assert cycle in (["b", "c", "b"], ["c", "b", "c"])


TOP_REJECTIONS = [
    ("unknown top key", mini(colour="red"), "colour", ["unknown key"]),
    ("missing payment", {k: v for k, v in mini().items() if k != "payment"}, "payment",
     ["missing"]),
    ("missing fans", {k: v for k, v in mini().items() if k != "fans"}, "fans", ["missing"]),
    ("fans not a list", mini(fans={"a": 1}), "fans", ["must be a list"]),
    ("players", mini(players=5), "players", ["2 to 4"]),
    ("players bool", mini(players=True), "players", ["must be an integer", "True"]),
    ("unknown tile set", mini(tiles="wordcards"), "tiles", ["unknown tile set"]),
    ("min_fan text", mini(min_fan="8"), "min_fan", ["integer"]),
    ("max_fan text", mini(max_fan="13"), "max_fan", ["integer"]),
    ("max_fan zero", mini(max_fan=0), "max_fan", ["at least 1"]),
    ("max_fan under min_fan", mini(max_fan=1), "max_fan", ["at least min_fan (2)"]),
    ("first_turn_claims not a bool", mini(first_turn_claims="yes"), "first_turn_claims",
     ["true or false"]),
    ("unknown shape", mini(shapes={"regular": {}, "eight_pairs": {}}), "shapes",
     ["unknown shape", "eight_pairs"]),
    ("no shapes", mini(shapes={}), "shapes", []),
    ("unknown shape key", mini(shapes={"regular": {"finall": True}}), "shapes.regular.finall",
     ["unknown key"]),
    ("shape final not bool", mini(shapes={"regular": {"final": "yes"}}), "shapes.regular.final",
     []),
    ("shape switched by an unknown option",
     mini(shapes={"regular": {}, "seven_pairs": {"enabled_by": "pairs"}}),
     "shapes.seven_pairs.enabled_by", ["bool option", "'pairs'"]),
    ("shape switched by an int option",
     mini(shapes={"regular": {}, "seven_pairs": {"enabled_by": "cap"}}),
     "shapes.seven_pairs.enabled_by", ["bool option", "'cap'"]),
    ("every shape switched by an option",
     mini(shapes={"regular": {"enabled_by": "pairs"}},
          options=[{"name": "pairs", "type": "bool", "default": True, "description": "d"}]),
     "shapes", ["at least one"]),
    ("shape only_fans unknown", mini(shapes={"regular": {"only_fans": ["a", "zz"]}}),
     "shapes.regular.only_fans", ["zz"]),
    ("shape extras unknown fan", mini(shapes={"regular": {"extras_by_win_rank": {1: ["zz"]}}}),
     "shapes.regular.extras_by_win_rank", []),
    ("unknown flower fan", mini(flower_fan="zz"), "flower_fan", ["zz"]),
    ("unknown combination policy", mini(combination_policy="zz"), "combination_policy",
     ["unknown policy", "mcr_account_once"]),
    ("unknown tie-break fan", mini(tie_break_fans=["a", "zz"]), "tie_break_fans", []),
    ("unknown payment scheme", mini(payment={"scheme": "winner_takes_all"}), "payment.scheme",
     ["unknown scheme", "base_plus_fan"]),
    ("payment not a mapping", mini(payment="base_plus_fan"), "payment", []),
    ("unknown payment key", mini(payment={"scheme": "base_plus_fan", "params": {"base": 8},
                                          "bonus": 1}), "payment.bonus", ["unknown key"]),
    ("unknown payment param", mini(payment={"scheme": "base_plus_fan",
                                            "params": {"base": 8, "dealer_bonus": 2}}),
     "payment.params.dealer_bonus", ["not a parameter"]),
    ("payment param type", mini(payment={"scheme": "base_plus_fan", "params": {"base": "8"}}),
     "payment.params.base", ["integer"]),
    ("payment param missing", mini(payment={"scheme": "base_plus_fan"}), "payment.params.base",
     ["missing"]),
    ("options not a list", mini(options={"cap": 3}), "options", ["list"]),
    ("option not a mapping", mini(options=["cap"]), "options[0]", ["mapping"]),
    ("option unknown key", mini(options=[{"name": "x", "type": "bool", "default": True,
                                          "description": "d", "colour": 1}]),
     "options[0].colour", ["unknown key"]),
    ("option bad type", mini(options=[{"name": "x", "type": "float", "default": 1.5,
                                       "description": "d"}]), "options[0].type", []),
    ("option missing description", mini(options=[{"name": "x", "type": "bool",
                                                  "default": True}]),
     "options[0].description", []),
    ("option bool default", mini(options=[{"name": "x", "type": "bool", "default": 1,
                                           "description": "d"}]), "options[0].default", []),
    ("option int default", mini(options=[{"name": "x", "type": "int", "default": True,
                                          "description": "d"}]), "options[0].default", []),
    ("option enum without choices", mini(options=[{"name": "x", "type": "enum", "default": "a",
                                                   "description": "d"}]),
     "options[0].choices", []),
    ("option enum default", mini(options=[{"name": "x", "type": "enum", "default": "c",
                                           "choices": ["a", "b"], "description": "d"}]),
     "options[0].default", ["choices"]),
    ("wild not a mapping", mini(wild="next"), "wild", ["mapping"]),
    ("wild unknown key", mini(shapes={"regular": {}}, wild={"indicator": "next", "jokers": 4}),
     "wild.jokers", ["unknown key"]),
    ("wild unknown indicator rule", mini(shapes={"regular": {}}, wild={"indicator": "prev"}),
     "wild.indicator", ["self_and_next"]),
    ("wild given no way", mini(shapes={"regular": {}}, wild={"indicator": None}), "wild",
     ["indicator or explicit"]),
    ("wild flag not a bool", mini(shapes={"regular": {}},
                                  wild={"indicator": "next", "explicit": "yes"}),
     "wild.explicit", ["true or false"]),
    ("wild with a shape it cannot read", mini(shapes={"regular": {}, "thirteen_orphans": {}},
                                              wild={"indicator": "next"}),
     "shapes", ["thirteen_orphans"]),
    ("wild read neither way", mini(shapes={"regular": {}},
                                   wild={"indicator": "next", "read": "quick"}),
     "wild.read", ["reduced or full"]),
    ("wild read reduced with a check that declares nothing",
     mini(shapes={"regular": {}}, wild={"indicator": "next"},
          fans=[fan("a", "tile_hog"), fan("b", "self_drawn")]),
     "wild.read", ["fan a (tile_hog)", "wild.read: full"]),
]


@pytest.mark.parametrize(("label", "data", "field", "words"), TOP_REJECTIONS,
                         ids=[r[0] for r in TOP_REJECTIONS])
def test_top_level_rejections_name_file_and_field(
        tmp_path: Path, label: str, data: dict[str, Any], field: str, words: list[str]) -> None:
    msg = load_error(tmp_path, data)
    assert_names(msg, "mini.yaml", field)
    for w in words:
        assert w in msg, f"{label}: {msg}"


def _scored(rs: RuleSet, text: str, **context: Any) -> Any:
    hand, ctx = build(text, {"win_type": "self_draw", **context}, rs)
    return score(hand, ctx, rs)


def test_a_rule_set_may_count_no_fan(tmp_path: Path) -> None:
    """`fans: []`: a rule set that decides legality and money only. Every win counts no fan
    and pays the scheme's value of 0 fan; its document lists no fan; waits still list every
    completing tile."""
    data = mini(fans=[], min_fan=0, shapes={"regular": {}})
    rs = load_rulesets(write(tmp_path, data))["mini"]
    assert rs.fans == () and rs.plan.fans == ()
    r = _scored(rs, "123m456p789s234s55m")
    assert (r.winning, r.fans, r.fan_total, r.value) == (True, (), 0, 8)
    assert r.payments is not None and list(r.payments.net) == [24, -8, -8, -8]
    assert _scored(rs, "123m456p789s234s56m").reason.code == "no_winning_shape"
    assert ruleset_document(rs, {})["fans"] == []
    standing, melds, ctx = build_waiting("123m456p789s234s5m", {"win_type": "self_draw"}, rs)
    found = waits(standing, melds, ctx, rs)
    assert [(w.tile, w.winning, w.fan_total, w.fans) for w in found.waits] == [
        ("5m", True, 0, ())]


def test_max_fan_caps_the_total_and_keeps_the_fans(tmp_path: Path) -> None:
    """封顶 (`max_fan`): the total stops at the cap, the fans counted stay listed, and the
    money is the capped total's."""
    three = [fan("a", "self_drawn", value=2), fan("b", "tiles_within",
                                                   params={"tiles": "123456789m123456789p"
                                                                    "123456789s"}, value=2)]
    rs = load_rulesets(write(tmp_path, mini(fans=three, min_fan=0, max_fan=3)))["mini"]
    r = _scored(rs, "123m456p789s234s55m")
    assert [f.id for f in r.fans] == ["a", "b"] and r.fan_total == 3 and r.value == 11
    assert ruleset_document(rs, {})["max_fan"] == 3
    uncapped = load_rulesets(write(tmp_path, mini(fans=three, min_fan=0)))["mini"]
    assert _scored(uncapped, "123m456p789s234s55m").fan_total == 4
    assert ruleset_document(uncapped, {})["max_fan"] is None


def _switched(tmp_path: Path, default: bool) -> RuleSet:
    data = mini(fans=[fan("b", "self_drawn")], min_fan=0,
                shapes={"regular": {}, "seven_pairs": {"enabled_by": "pairs", "priority": 1}},
                options=[{"name": "pairs", "type": "bool", "default": default,
                          "description": "seven pairs wins"}])
    rs = load_rulesets(write(tmp_path, data))["mini"]
    assert rs.shapes["seven_pairs"].enabled_by == "pairs"
    return rs


@pytest.mark.parametrize("default", [False, True])
def test_an_option_switches_a_shape_on(tmp_path: Path, default: bool) -> None:
    """`enabled_by` on a shape: while the bool option is false, a hand read only in that
    shape has no winning shape and waits leave out the tiles it alone completes; a hand
    that also reads in another shape still wins in that one. The option's default holds
    when a request leaves it out."""
    rs = _switched(tmp_path, default)
    pairs = "11m22m33p44p55s66sCC"
    for chosen in (False, True, None):
        options = {} if chosen is None else {"pairs": chosen}
        on = default if chosen is None else chosen
        r = _scored(rs, pairs, options=options)
        assert r.winning is on, options
        if on:
            assert r.decomposition is not None and r.decomposition.shape == "seven_pairs"
        else:
            assert r.reason is not None and r.reason.code == "no_winning_shape"
        both = _scored(rs, "112233m445566p77s", options=options)
        assert both.winning and both.decomposition is not None
        assert both.decomposition.shape == "regular"
        standing, melds, ctx = build_waiting("11m22m33p44p55s66sC",
                                             {"win_type": "self_draw", "options": options}, rs)
        assert [w.tile for w in waits(standing, melds, ctx, rs).waits] == (["C"] if on else [])
    # Scored with no options at all (not through a request), the default holds too.
    hand, ctx = build(pairs, {"win_type": "self_draw"}, rs)
    assert score(hand, ctx._replace(options={}), rs).winning is default


def test_id_must_match_the_file_name(tmp_path: Path) -> None:
    write(tmp_path, mini("other"), names=["mini"])
    with pytest.raises(RuleSetError, match=r"^mini\.yaml: field 'id' must be 'mini' "
                                           r"\(got 'other'\)"):
        load_rulesets(tmp_path)


def test_not_yaml_and_not_a_mapping(tmp_path: Path) -> None:
    (tmp_path / "broken.yaml").write_text("id: [unclosed\n", encoding="utf-8")
    with pytest.raises(RuleSetError, match=r"^broken\.yaml: not valid YAML"):
        load_rulesets(tmp_path)
    (tmp_path / "broken.yaml").write_text("- a\n- b\n", encoding="utf-8")
    with pytest.raises(RuleSetError, match=r"^broken\.yaml: the top level must be a mapping"):
        load_rulesets(tmp_path)


def test_an_empty_directory_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(RuleSetError, match="no rule sets"):
        load_rulesets(tmp_path)


def test_a_bad_rule_set_stops_every_load(tmp_path: Path) -> None:
    """One broken file among good ones: the whole load fails (the service does not start)."""
    bad = _with_fan_change(0, {"check": "nope"})
    bad["id"] = "zbad"
    msg = load_error(tmp_path, mini(), bad)
    assert_names(msg, "zbad.yaml", "check", "a")


# Bugs: values of the wrong YAML type crash the loader with a Python error instead of a
# RuleSetError naming file and field.

# Values of the wrong YAML type (these once crashed the loader with AttributeError/TypeError).
WRONG_TYPES = [
    ("extras_by_win_rank a list", mini(shapes={"regular": {"extras_by_win_rank": [1, 2]}}),
     "shapes.regular.extras_by_win_rank"),
    ("extras_by_win_rank rank out of range",
     mini(shapes={"regular": {"extras_by_win_rank": {12: ["a"]}}}),
     "shapes.regular.extras_by_win_rank"),
    ("flower_fan a list", mini(flower_fan=["a"]), "flower_fan"),
    ("combination_policy a list", mini(combination_policy=["x"]), "combination_policy"),
    ("tie_break_fans holding a mapping", mini(tie_break_fans=[{"a": 1}]), "tie_break_fans"),
    ("payment scheme a list", mini(payment={"scheme": ["base_plus_fan"]}), "payment.scheme"),
    ("options with choices a string",
     mini(options=[{"name": "o", "type": "enum", "default": "a", "choices": "abc",
                    "description": "d"}]), "options[0].choices"),
    ("options with a string bound",
     mini(options=[{"name": "o", "type": "int", "default": 1, "minimum": "a",
                    "description": "d"}]), "options[0].minimum"),
    ("options default out of bounds",
     mini(options=[{"name": "o", "type": "int", "default": 9, "maximum": 3,
                    "description": "d"}]), "options[0].default"),
    ("options declared twice",
     mini(options=[{"name": "o", "type": "bool", "default": True, "description": "d"},
                   {"name": "o", "type": "bool", "default": False, "description": "d"}]),
     "options[1].name"),
]


@pytest.mark.parametrize(("label", "data", "field"), WRONG_TYPES,
                         ids=[c[0] for c in WRONG_TYPES])
def test_wrong_yaml_types_are_rule_set_errors(
        tmp_path: Path, label: str, data: dict[str, Any], field: str) -> None:
    msg = load_error(tmp_path, data)
    assert_names(msg, "mini.yaml", field)


def test_fan_shapes_holding_a_mapping_is_a_rule_set_error(tmp_path: Path) -> None:
    msg = load_error(tmp_path, _with_fan_change(1, {"shapes": [{"regular": 1}]}))
    assert_names(msg, "mini.yaml", "shapes", "b")


def test_remove_fans_without_extends_is_rejected(tmp_path: Path) -> None:
    msg = load_error(tmp_path, mini(remove_fans=["zzz"]))
    assert_names(msg, "mini.yaml", "remove_fans")


# ---------------------------------------------------------------------------------------------
# extends


def test_extends_overrides_adds_and_removes_fans(tmp_path: Path) -> None:
    child = {
        "id": "kid", "extends": "mini", "name": "孩子", "min_fan": 5,
        "remove_fans": ["c"],
        "fans": [fan("a", "kongs", params={"total": 2}, value=7), fan("d", "no_honors")],
    }
    out = load_rulesets(write(tmp_path, mini(), child))
    parent, kid = out["mini"], out["kid"]
    # The fan given by id replaces the parent's in place; new fans come after; removed ones go.
    assert [f.id for f in kid.fans] == ["a", "b", "d"]
    assert kid.fan_by_id["a"].value == 7
    assert kid.fan_by_id["a"].params == {"total": 2}
    # Top-level keys given replace the parent's; the others are inherited.
    assert (kid.name, kid.min_fan, kid.name_en, kid.players) == ("孩子", 5, "Mini", 4)
    assert kid.source == "kid.yaml"
    # The parent is untouched.
    assert [f.id for f in parent.fans] == ["a", "b", "c"]
    assert parent.fan_by_id["a"].value == 1
    assert (parent.name, parent.min_fan) == ("迷你", 2)


def test_extends_lays_a_fan_over_the_parents_key_by_key(tmp_path: Path) -> None:
    parent = mini()
    parent["fans"][1].update(excludes=["c"], shapes=["regular"])
    # Only the keys that differ: a new name, no exclusions, the `shapes` key dropped (null).
    child = {"id": "kid", "extends": "mini",
             "fans": [{"id": "b", "name": "新名", "excludes": [], "shapes": None}]}
    out = load_rulesets(write(tmp_path, parent, child))
    kid, was = out["kid"].fan_by_id["b"], out["mini"].fan_by_id["b"]
    assert (kid.name, kid.excludes, kid.shapes) == ("新名", (), None)
    assert (kid.check, kid.value, kid.name_en, kid.description) == (
        was.check, was.value, was.name_en, was.description)
    assert (was.name, was.excludes, was.shapes) == ("番b", ("c",), frozenset({"regular"}))


def test_extends_merges_shapes_and_options_by_name(tmp_path: Path) -> None:
    child = {
        "id": "kid", "extends": "mini",
        # seven_pairs is no longer admitted; regular gets a setting.
        "shapes": {"seven_pairs": None, "regular": {"only_fans": ["a", "b"]}},
        "options": [{"name": "cap", "type": "int", "default": 5, "description": "new cap"},
                    {"name": "extra", "type": "bool", "default": False, "description": "x"}],
    }
    out = load_rulesets(write(tmp_path, mini(), child))
    kid, parent = out["kid"], out["mini"]
    assert set(kid.shapes) == {"regular"}
    assert kid.shapes["regular"].only_fans == frozenset({"a", "b"})
    assert set(parent.shapes) == {"regular", "seven_pairs"}
    assert [(o.name, o.default) for o in kid.options] == [("cap", 5), ("extra", False)]
    assert [(o.name, o.default) for o in parent.options] == [("cap", 3)]


def test_extends_chain_of_three(tmp_path: Path) -> None:
    mid = {"id": "mid", "extends": "mini", "fans": [fan("d", "no_honors")]}
    top = {"id": "top", "extends": "mid", "remove_fans": ["a"], "players": 3}
    out = load_rulesets(write(tmp_path, mini(), mid, top))
    assert [f.id for f in out["top"].fans] == ["b", "c", "d"]
    assert out["top"].players == 3
    assert out["mid"].players == 4


def test_extends_unknown_parent(tmp_path: Path) -> None:
    msg = load_error(tmp_path, mini(), {"id": "kid", "extends": "nope"})
    assert_names(msg, "kid.yaml", "extends")
    assert "'nope'" in msg


@pytest.mark.parametrize(
    "files",
    [
        [{"id": "a", "extends": "b"}, {"id": "b", "extends": "a"}],
        [{"id": "a", "extends": "a"}],
        [{"id": "a", "extends": "b"}, {"id": "b", "extends": "c"}, {"id": "c", "extends": "a"}],
    ],
    ids=["two", "self", "three"],
)
def test_extends_cycle(tmp_path: Path, files: list[dict[str, Any]]) -> None:
    msg = load_error(tmp_path, *files)
    assert "cycle" in msg
    assert "field 'extends'" in msg
    found = re.search(r"cycle (.*)$", msg)
    assert found
    assert {x.strip() for x in found.group(1).split("->")} == {f["id"] for f in files}


def test_remove_fans_unknown_and_malformed(tmp_path: Path) -> None:
    msg = load_error(tmp_path, mini(), {"id": "kid", "extends": "mini", "remove_fans": ["zz"]})
    assert_names(msg, "kid.yaml", "remove_fans")
    assert "'zz'" in msg
    msg = load_error(tmp_path, mini(), {"id": "kid", "extends": "mini", "remove_fans": "a"})
    assert_names(msg, "kid.yaml", "remove_fans")


def test_removing_an_excluded_fan_leaves_a_dangling_exclusion(tmp_path: Path) -> None:
    parent = mini()
    parent["fans"][1]["excludes"] = ["c"]
    msg = load_error(tmp_path, parent, {"id": "kid", "extends": "mini", "remove_fans": ["c"]})
    assert_names(msg, "kid.yaml", "excludes", "b")


def test_a_child_error_names_the_childs_file(tmp_path: Path) -> None:
    child = {"id": "kid", "extends": "mini", "fans": [fan("d", "kongs")]}
    msg = load_error(tmp_path, mini(), child)
    assert_names(msg, "kid.yaml", "params.total", "d")


def test_an_error_in_the_parent_names_the_parents_file(tmp_path: Path) -> None:
    parent = _with_fan_change(0, {"params": {"total": "x"}})
    parent["id"] = "zeta"
    msg = load_error(tmp_path, parent, {"id": "alpha", "extends": "zeta"})
    assert_names(msg, "zeta.yaml", "params.total", "a")


def test_an_inherited_fan_names_both_files(tmp_path: Path) -> None:
    parent = mini()
    parent["fans"][1]["excludes"] = ["c"]
    msg = load_error(tmp_path, parent, {"id": "kid", "extends": "mini", "remove_fans": ["c"]})
    assert "fan 'b' (from mini.yaml)" in msg, msg


def test_a_key_given_twice_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, mini()) / "mini.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "min_fan: 1\nmin_fan: 2\n",
                    encoding="utf-8")
    with pytest.raises(RuleSetError, match="given twice"):
        load_rulesets(path.parent)


@pytest.mark.parametrize("tiles", ["", "1f2f"])
def test_tile_groups_name_hand_tiles(tmp_path: Path, tiles: str) -> None:
    data = mini()
    data["fans"][0] = fan("a", "tiles_within", params={"tiles": tiles})
    msg = load_error(tmp_path, data)
    assert_names(msg, "mini.yaml", "params.tiles", "a")


def test_only_one_fan_decided_when_nothing_else_counts(tmp_path: Path) -> None:
    data = mini()
    data["fans"] += [fan("n1", "nothing_else"), fan("n2", "nothing_else")]
    msg = load_error(tmp_path, data)
    assert_names(msg, "mini.yaml", "check", "n2")


# ---------------------------------------------------------------------------------------------
# Exclusion ordering


def test_excluders_are_moved_before_what_they_exclude(tmp_path: Path) -> None:
    data = mini()
    data["fans"] = [fan("p", "no_honors"), fan("q", "voided_suit"),
                    fan("r", "self_drawn", excludes=["p"]), fan("s", "all_types"),
                    fan("t", "tile_hog", excludes=["r", "q"])]
    rs = load_rulesets(write(tmp_path, data))["mini"]
    assert sorted(f.id for f in rs.fans) == list("pqrst")
    assert _respects(rs)


def _respects(rs: RuleSet) -> bool:
    pos = {f.id: i for i, f in enumerate(rs.fans)}
    return all(pos[f.id] < pos[x] for f in rs.fans for x in f.excludes)


def test_order_is_the_yaml_order_when_that_already_respects_the_exclusions(
        tmp_path: Path) -> None:
    data = mini()
    data["fans"] = [fan("z", "no_honors", excludes=["w"]), fan("x", "self_drawn",
                                                              excludes=["w", "y"]),
                    fan("y", "voided_suit"), fan("w", "all_types"), fan("v", "tile_hog")]
    rs = load_rulesets(write(tmp_path, data))["mini"]
    assert [f.id for f in rs.fans] == list("zxywv")


# ---------------------------------------------------------------------------------------------
# The real rule sets


@pytest.fixture(scope="module")
def real() -> dict[str, RuleSet]:
    return repo_rulesets()


@pytest.fixture(scope="module")
def mcr(real: dict[str, RuleSet]) -> RuleSet:
    return real["mcr"]


def _is_cjk(ch: str) -> bool:
    return "CJK" in unicodedata.name(ch, "")


def test_the_real_rule_sets_load(real: dict[str, RuleSet]) -> None:
    assert "mcr" in real
    for rid, rs in real.items():
        assert rs.id == rid
        assert rs.source == f"{rid}.yaml"


def test_mcr_fans(mcr: RuleSet) -> None:
    # 81 fans of the 1998 table plus 明暗杠.
    assert len(mcr.fans) == 82
    assert (mcr.players, mcr.min_fan, mcr.flower_fan) == (4, 8, "flower_tiles")
    for f in mcr.fans:
        assert f.name and _is_cjk(f.name[0]), f.id
        assert f.name_en and f.name_en.isascii() and f.name_en[0].isupper(), f.id
        assert f.description.strip() == f.description and f.description, f.id
        assert "\n" not in f.description, f.id
        assert f.value > 0, f.id


def test_mcr_excluders_precede_what_they_exclude(mcr: RuleSet) -> None:
    assert _respects(mcr)
    ids = [f.id for f in mcr.fans]
    assert len(set(ids)) == len(ids)
    for f in mcr.fans:
        for x in f.excludes:
            assert x in mcr.fan_by_id, (f.id, x)


def test_mcr_is_the_same_through_build_ruleset(mcr: RuleSet) -> None:
    data = load_yaml((ROOT / "rulesets" / "mcr.yaml").read_text(encoding="utf-8"))
    again = build_ruleset(data, "mcr.yaml")
    assert [f.id for f in again.fans] == [f.id for f in mcr.fans]
    assert [f.params for f in again.fans] == [f.params for f in mcr.fans]


# ---------------------------------------------------------------------------------------------
# bind_check


def yaml_params(fan_params: Any, check: str, rs: RuleSet) -> dict[str, Any]:
    """A fan's YAML params converted as the check declares them (tile groups to sets)."""
    sig = CHECKS[check].signature
    out = {}
    for name, value in fan_params.items():
        ann = sig.parameters[name].annotation
        if isinstance(value, str) and (ann is TileGroup or TileGroup in getattr(ann, "__args__",
                                                                                ())):
            out[name] = frozenset(parse_tiles(value, rs.tileset))
        else:
            out[name] = value
    return out


def test_bind_check_equals_calling_the_check_with_the_params(mcr: RuleSet) -> None:
    shapes = frozenset(mcr.shapes)
    policy = POLICIES[mcr.combination_policy or ""]
    seen: dict[str, int] = {}
    bound = []
    for f in mcr.fans:
        params = yaml_params(f.params, f.check, mcr)
        bound.append((f, params, bind_check(CHECKS[f.check].func, params)))
    for case in generate(400, 4242).cases:
        facts = HandFacts(case.hand, case.ctx, mcr.tileset, shapes)
        for reading in decompose(case.hand, shapes, mcr.tileset):
            view = View(reading, facts, policy)
            for f, params, rebound in bound:
                direct = CHECKS[f.check].func(view, case.ctx, **params)
                assert f.bound(view, case.ctx) == direct, (f.id, case.notation)
                assert rebound(view, case.ctx) == direct
                seen[f.id] = seen.get(f.id, 0) + bool(direct)
    # The hands exercise most fans (a comparison of zeros only would prove little).
    assert sum(1 for n in seen.values() if n) >= 60, seen


def test_bind_check_leaves_the_check_itself_alone() -> None:
    func = CHECKS["kongs"].func
    before = dict(bound_params(func))
    one = bind_check(func, {"total": 1})
    two = bind_check(func, {"total": 2, "concealed": 0})
    assert dict(bound_params(func)) == before
    assert bound_params(one) == {"concealed": None, "total": 1}
    assert bound_params(two) == {"concealed": 0, "total": 2}
    if hasattr(func, "__code__"):  # a compiled check is bound by a partial (no copy)
        assert one.__doc__ == func.__doc__ and one.__name__ == func.__name__
    assert bind_check(func, {}) is func


# ---------------------------------------------------------------------------------------------
# A fan's value given by an int option (`value: {option: name}`)


def _valued(tmp_path: Path, **top: Any) -> RuleSet:
    data = mini(min_fan=0, fans=[fan("b", "self_drawn", value={"option": "worth"}),
                                 fan("c", "tiles_within", params={"tiles": "19m19p19s"}),
                                 fan("plain", "nothing_else")],
                options=[{"name": "worth", "type": "int", "default": 3, "minimum": 0,
                          "maximum": 9, "description": "b's value"}], **top)
    return load_rulesets(write(tmp_path, data))["mini"]


def test_a_fan_value_from_an_int_option_is_chosen_per_request(tmp_path: Path) -> None:
    rs = _valued(tmp_path)
    b = rs.fan_by_id["b"]
    assert (b.value, b.value_by) == (3, Chosen("worth"))  # the default stands for it
    r = _scored(rs, "123m456p789s234s55m")
    assert [(f.id, f.value) for f in r.fans] == [("b", 3)] and r.fan_total == 3
    assert r.value == 11
    for worth in (0, 5, 9, 5):
        r = _scored(rs, "123m456p789s234s55m", options={"worth": worth})
        assert [(f.id, f.value) for f in r.fans] == [("b", worth)], worth
        assert (r.fan_total, r.value) == (worth, 8 + worth)
    # Not self-drawn: b is not counted, whatever its value; the last fan stays fixed.
    r = _scored(rs, "123m456p789s234s55m", options={"worth": 5}, win_type="discard",
                discarder=1)
    assert [(f.id, f.value) for f in r.fans] == [("plain", 1)]
    # The plan at the default is the rule set's own; another value's is remembered.
    assert rs.plan.valued({"worth": 3}) is rs.plan
    five = rs.plan.valued({"worth": 5})
    assert rs.plan.valued({"worth": 5}) is five and five.values != rs.plan.values
    assert rs.plan.fans[0].value == 3 and five.shapes is rs.plan.shapes
    assert ruleset_document(rs, {})["fans"][0]["value"] == 3


def test_a_fan_value_can_decide_the_best_reading(tmp_path: Path) -> None:
    """Readings are compared at the request's values: the option's value decides between
    the seven-pairs reading and the regular one."""
    data = mini(min_fan=0, fans=[
        fan("pairs", "shape_is", params={"shape": "seven_pairs"}, shapes=["seven_pairs"],
            value={"option": "worth"}),
        fan("chows", "all_chows", value=2)],
        options=[{"name": "worth", "type": "int", "default": 1, "minimum": 0,
                  "description": "seven pairs' value"}])
    rs = load_rulesets(write(tmp_path, data))["mini"]
    hand = "112233m445566p77s"
    assert _scored(rs, hand).decomposition.shape == "regular"
    assert _scored(rs, hand, options={"worth": 3}).decomposition.shape == "seven_pairs"


@pytest.mark.parametrize(("value", "options", "words"), [
    ({"option": "nope"}, None, ["int option", "nope"]),
    ({"option": "worth", "x": 1}, None, ["int option"]),
    ({"option": "flag"}, None, ["int option"]),
    ({"option": "worth"}, [{"name": "worth", "type": "int", "default": 1,
                            "description": "no minimum"}], ["minimum of at least 0"]),
    ({"option": "worth"}, [{"name": "worth", "type": "int", "default": 1, "minimum": -1,
                            "description": "negative"}], ["minimum of at least 0"]),
])
def test_a_fan_value_option_must_be_an_int_option_of_no_negative_value(
        tmp_path: Path, value: Any, options: list[dict[str, Any]] | None,
        words: list[str]) -> None:
    opts = options or [{"name": "worth", "type": "int", "default": 1, "minimum": 0,
                        "description": "a value"},
                       {"name": "flag", "type": "bool", "default": False,
                        "description": "a flag"}]
    msg = load_error(tmp_path, mini(options=opts, fans=[fan("b", value=value)]))
    assert_names(msg, "mini.yaml", "value", "b")
    for w in words:
        assert w in msg, msg


@pytest.mark.parametrize("where", ["last", "flower", "extras"])
def test_fans_counted_at_fixed_values_refuse_a_value_option(tmp_path: Path, where: str) -> None:
    worth = {"value": {"option": "worth"}}
    fans = [fan("b", "nothing_else" if where == "last" else "flowers" if where == "flower"
                else "self_drawn", **worth), fan("c")]
    top: dict[str, Any] = {"options": [{"name": "worth", "type": "int", "default": 1,
                                        "minimum": 0, "description": "a value"}]}
    if where == "flower":
        top["flower_fan"] = "b"
    if where == "extras":
        top["shapes"] = {"regular": {"extras_by_win_rank": {5: ["b"]}}}
    msg = load_error(tmp_path, mini(fans=fans, **top))
    assert_names(msg, "mini.yaml", "value", "b")
    assert "fixed value" in msg, msg


def test_a_fan_for_every_shape_joins_each_only_fans(tmp_path: Path) -> None:
    shapes = {"regular": {}, "seven_pairs": {"priority": 1, "only_fans": ["c"]}}
    data = mini(shapes=shapes)
    data["fans"][1]["every_shape"] = True
    write(tmp_path, data)
    rs = load_rulesets(tmp_path)["mini"]
    assert rs.shapes["seven_pairs"].only_fans == {"b", "c"}
    assert rs.shapes["regular"].only_fans is None
    # Self-drawn seven pairs: b counts beside c's absence, a is not looked for.
    assert [f.id for f in _scored(rs, "1122m3344p5566s7s7s", win_type="self_draw").fans] == ["b"]
    data["fans"][1]["every_shape"] = "yes"
    assert_names(load_error(tmp_path, data), "mini.yaml", "every_shape", "b")
    data["fans"][1].update(every_shape=True, shapes=["regular"])
    assert_names(load_error(tmp_path, data), "mini.yaml", "every_shape", "b")
