"""The declared sections of both families' YAML (`app.rules.sections`): the table is
consistent, unknown and missing keys are named, and every key declared with a type is refused,
naming the file, the field and the type, when a file gives it a value of another type (in both
families, at each section the loaders check whole against its declaration)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from app.rules.families import CARDS, TILES
from app.rules.load_files import load_yaml
from app.rules.sections import SECTIONS, TYPES, missing_key, section, unknown_key
from tests.rules.test_loader import assert_names, load_error, mini, write

ROOT = Path(__file__).resolve().parents[2]

# A value of another type than each declared type.
WRONG: dict[str, Any] = {"text": 7, "int": "8", "bool": "yes", "list": {"a": 1},
                         "texts": [1], "map": [1]}
# Read (and refused with their own messages) when the files are read, before a rule set is
# built: the id (its file's name), `extends`, `remove_fans`.
BEFORE_BUILD = {"id", "extends", "remove_fans"}


def _typed(family: str, path: str) -> list[tuple[str, str]]:
    return [(k, t) for k, t in SECTIONS[family][path].types.items() if k not in BEFORE_BUILD]


def test_every_required_key_is_allowed() -> None:
    for family, sections in SECTIONS.items():
        for path, declared in sections.items():
            assert set(declared.required) <= declared.allowed, (family, path)


def test_both_families_declare_their_top_level_and_options_alike() -> None:
    assert {TILES, CARDS} <= set(SECTIONS)
    for family in (TILES, CARDS):
        assert "" in SECTIONS[family]
    assert section(TILES, "options[]") == section(CARDS, "options[]")


def test_unknown_and_missing_keys_are_named() -> None:
    payment = section(TILES, "payment")
    assert unknown_key({"scheme": 1, "zeta": 2, "alpha": 3}, payment) == "alpha"
    assert unknown_key({"scheme": 1}, payment) is None
    assert missing_key({"params": {}}, payment) == "scheme"
    assert missing_key({"scheme": "x"}, payment) is None


def test_every_wrong_value_is_of_another_type() -> None:
    assert set(WRONG) == set(TYPES)
    for type_, value in WRONG.items():
        assert not TYPES[type_][0](value), type_


@pytest.mark.parametrize(("key", "type_"), _typed(TILES, ""))
def test_a_tile_rule_set_top_key_of_the_wrong_type(tmp_path: Path, key: str, type_: str
                                                  ) -> None:
    msg = load_error(tmp_path, mini(**{key: WRONG[type_]}))
    assert_names(msg, "mini.yaml", key)
    assert TYPES[type_][1] in msg, msg


@pytest.mark.parametrize(("key", "type_"), _typed(TILES, "fans[]"))
def test_a_fan_key_of_the_wrong_type(tmp_path: Path, key: str, type_: str) -> None:
    data = mini()
    data["fans"][1][key] = WRONG[type_]
    msg = load_error(tmp_path, data)
    assert_names(msg, "mini.yaml", key, "b")
    assert TYPES[type_][1] in msg, msg


@pytest.mark.parametrize(("key", "type_"), _typed(TILES, "options[]"))
def test_an_option_key_of_the_wrong_type(tmp_path: Path, key: str, type_: str) -> None:
    data = mini()
    data["options"][0][key] = WRONG[type_]
    msg = load_error(tmp_path, data)
    assert_names(msg, "mini.yaml", f"options[0].{key}")
    assert TYPES[type_][1] in msg, msg


@pytest.mark.parametrize(("key", "type_"), _typed(TILES, "shapes.*"))
def test_a_shape_key_of_the_wrong_type(tmp_path: Path, key: str, type_: str) -> None:
    data = mini()
    data["shapes"]["seven_pairs"][key] = WRONG[type_]
    msg = load_error(tmp_path, data)
    assert_names(msg, "mini.yaml", f"shapes.seven_pairs.{key}")
    assert TYPES[type_][1] in msg, msg


@pytest.mark.parametrize(("key", "type_"), _typed(CARDS, ""))
def test_a_card_rule_set_top_key_of_the_wrong_type(tmp_path: Path, key: str, type_: str
                                                  ) -> None:
    data = load_yaml((ROOT / "rulesets" / "hengyang.yaml").read_text(encoding="utf-8"))
    data = copy.deepcopy(data)
    data[key] = WRONG[type_]
    write(tmp_path, data)
    msg = load_error(tmp_path)
    assert_names(msg, "hengyang.yaml", key)
    assert TYPES[type_][1] in msg, msg
