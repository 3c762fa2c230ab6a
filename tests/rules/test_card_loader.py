"""Loading a card game scored by groups (`app.rules.cards.loader`): the real rule set, a mistake
in each part of the YAML stops loading with the field at fault (in the format of every
family), `extends:` and `family:`."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.rules.cards.model import CardRuleSet
from app.rules.choices import Chosen, resolve
from app.rules.errors import RuleSetError
from app.rules.load_files import load_yaml
from app.rules.loader import load_rulesets
from tests.loaded import repo_rulesets

ROOT = Path(__file__).resolve().parents[2]
SOURCES = {p.stem: load_yaml(p.read_text(encoding="utf-8"))
           for p in (ROOT / "rulesets").glob("*.yaml")}
CARD_IDS = [rid for rid, data in SOURCES.items() if data.get("family") == "cards"]


def load(tmp_path: Path, data: dict[str, Any]) -> CardRuleSet:
    (tmp_path / f"{data['id']}.yaml").write_text(yaml.safe_dump(data, allow_unicode=True),
                                                  encoding="utf-8")
    rs = load_rulesets(tmp_path)[data["id"]]
    assert isinstance(rs, CardRuleSet)
    return rs


@pytest.fixture
def base() -> dict[str, Any]:
    assert CARD_IDS, "no card rule set in rulesets/"
    data = copy.deepcopy(SOURCES[CARD_IDS[0]])
    data["id"] = "cards"
    return data


def test_the_card_rule_sets_load() -> None:
    loaded = repo_rulesets()
    for rid in CARD_IDS:
        rs = loaded[rid]
        assert isinstance(rs, CardRuleSet)
        assert len(rs.deck.cards) == rs.deck.size == len(rs.deck.ranks) * len(rs.deck.suits)
        letters = {s.letter for s in rs.deck.suits}
        assert all(set(k.points.by_suit) <= letters for k in rs.groups.values() if k.points)
        for option in rs.options:  # every option's every value resolves the steps
            values = option.choices or ((True, False) if option.type == "bool" else ())
            for v in values:
                opts = {**rs.option_defaults, option.name: v}
                steps = resolve(rs.steps, opts)
                assert steps[-1].name == "score"
                for s in steps:
                    for p in s.params.values():
                        resolve(p, opts)


def test_a_copy_loads(tmp_path: Path, base: dict[str, Any]) -> None:
    rs = load(tmp_path, base)
    assert rs.id == "cards"
    assert isinstance(rs.steps, Chosen | tuple)


def _edit(data: dict[str, Any], path: str, value: Any) -> None:
    *head, last = path.split(".")
    node: Any = data
    for key in head:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value


@pytest.mark.parametrize(("path", "value", "words"), [
    ("colour", 1, "field 'colour': unknown key"),
    ("deck.copies", "four", "field 'deck.copies': must be an integer"),
    ("deck.suits.0.cards", "一二三", "deck.suits[0].cards"),
    ("deck.suits.1.letter", "x", "distinct letters"),
    ("deck.attributes", {"red": [11]}, "deck.attributes"),
    ("deck.aliases", {"貳": "11d"}, "deck.aliases"),
    ("groups.kan.cards", {"twin": 3}, "groups.kan.cards"),
    ("groups.shun.cards.2.when", "no_such_option", "groups.shun.cards.when"),
    ("groups.chi.made_of", ["ti", "nothing"], "groups.chi.made_of"),
    ("groups.ti.points", {"q": 1}, "groups.ti.points"),
    ("hand.groups", ["kan", "dragon"], "hand.groups"),
    ("hand.locked", {"kind": "ti", "held": 3}, "hand.locked.kind"),
    ("win_card.0.self_draw", ["pao"], "win_card[0].self_draw"),
    ("win_card.1.tsumo", ["ti"], "field 'win_card[1].tsumo': is not a win type"),
    ("win_types.discard.pays", "everyone", "win_types.discard.pays"),
    ("rank_by", ["luck"], "rank_by"),
    ("scoring.values.three_per_tun.0.step", "nap", "step': must name a step"),
    ("scoring.values.three_per_tun.1.every", None, "missing required parameter"),
    ("scoring.values.hzy.0.at_most", 3, "not a parameter of minimum"),
    ("scoring.option", "no_such_option", "scoring.option"),
    ("scoring.values.hzy.2.card", "next_card", "neither win_card nor a context card"),
    ("patterns.0.check", "lucky", "patterns[0].check"),
    ("patterns.0.params", {"colour": "red"}, "patterns[0].params.colour"),
    ("patterns.4.value", {"option": "tun_mode", "values": {"hzy": 2}}, "no default"),
    ("patterns.4.value", {"option": "tun_mode", "values": {"fast": 2}, "default": 1},
     "'fast' is not a value"),
])
def test_a_mistake_names_its_field(tmp_path: Path, base: dict[str, Any], path: str,
                                   value: Any, words: str) -> None:
    if value is None:
        *head, last = path.split(".")
        node: Any = base
        for key in head:
            node = node[int(key)] if isinstance(node, list) else node[key]
        del node[last]
    else:
        _edit(base, path, value)
    with pytest.raises(RuleSetError) as info:
        load(tmp_path, base)
    # The format of every family's errors (app.rules.errors): file, field, what is wrong.
    assert str(info.value).startswith("cards.yaml: field '"), info.value
    assert words in str(info.value), info.value


def _write(directory: Path, *files: dict[str, Any]) -> None:
    for data in files:
        (directory / f"{data['id']}.yaml").write_text(
            yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


def test_a_card_rule_set_extends_another(tmp_path: Path, base: dict[str, Any]) -> None:
    # As a tile rule set does: options merge by name, other keys replace the parent's, and
    # the family comes with the parent's file.
    deal = next(o for o in base["options"] if o["name"] == "deal")
    child = {"id": "kid", "extends": "cards", "name": "孩子",
             "options": [{**deal, "default": 21}]}
    _write(tmp_path, base, child)
    loaded = load_rulesets(tmp_path)
    kid, parent = loaded["kid"], loaded["cards"]
    assert isinstance(kid, CardRuleSet) and isinstance(parent, CardRuleSet)
    assert kid.name == "孩子" and kid.description == parent.description
    assert kid.option_defaults["deal"] == 21 and parent.option_defaults["deal"] == 15
    assert [o.name for o in kid.options] == [o.name for o in parent.options]
    assert [p.id for p in kid.patterns] == [p.id for p in parent.patterns]
    assert kid.source == "kid.yaml"


def test_a_rule_set_extends_only_its_own_family(tmp_path: Path,
                                                base: dict[str, Any]) -> None:
    _write(tmp_path, base, {"id": "kid", "extends": "cards", "family": "tiles"})
    with pytest.raises(RuleSetError) as info:
        load_rulesets(tmp_path)
    assert str(info.value).startswith("kid.yaml: field 'family': 'tiles', but 'cards'"), \
        info.value


def test_an_unknown_family_is_refused(tmp_path: Path, base: dict[str, Any]) -> None:
    _write(tmp_path, {**base, "family": "dominoes"})
    with pytest.raises(RuleSetError) as info:
        load_rulesets(tmp_path)
    assert str(info.value).startswith(
        "cards.yaml: field 'family': unknown family 'dominoes' (known: tiles, cards"), info.value


def test_a_deck_without_family_is_a_tile_rule_set(tmp_path: Path,
                                                  base: dict[str, Any]) -> None:
    # `family:` alone says what a rule set is: without it, a file is read as a tile game.
    del base["family"]
    _write(tmp_path, base)
    with pytest.raises(RuleSetError, match=r"cards.yaml: field '\w+': unknown key"):
        load_rulesets(tmp_path)
