"""The declared keys of every section of both families' YAML (`app.rules.sections`)."""

from __future__ import annotations

from app.rules.families import CARDS, TILES
from app.rules.sections import SECTIONS, missing_key, section, unknown_key


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
