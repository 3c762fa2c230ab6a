"""The generated pages (`./run docs`: docs/rulesets/<id>.md and docs/checks.md) are fresh.

Every page is regenerated in memory and compared with the committed file: a page that differs
fails, naming itself and `./run docs`; so does a page left from a rule set that no longer
exists. A rule set without a page yet is skipped, not failed: adding a rule set as one YAML
file and one case file passes the whole suite with no other file changed, and its page follows
with the next `./run docs`. docs/checks.md depends on the registries only, never on which rule
sets exist (each rule set's page lists the checks it uses), so a new rule set leaves it fresh.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from app.domain.events import KONG_KINDS
from app.rules.definitions import ShapeDef
from app.rules.settlement import (
    GOLDEN,
    PAYERS,
    DrawnGameDef,
    FollowDealer,
    KongMoney,
    SettlementDef,
)
from tools.ruleset_docs.common import (
    CHECKS_MARKER,
    CHECKS_PAGE,
    GENERATED,
    PAGES_DIR,
    DocsError,
    anchors,
    ruleset_marker,
)
from tools.ruleset_docs.pages import diff, render_all, render_ruleset_page
from tools.ruleset_docs.settlement import SettlementSection
from tools.ruleset_docs.sources import Source, load_sources
from tools.ruleset_docs.tile_labels import SHAPE_DEF_FIELDS

ROOT = Path(__file__).resolve().parents[3]
RULESET_IDS = sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))
LINK = re.compile(r"\]\(([^)\s]*)\)")
# Ids of rule sets the scratch copies add: none the project has.
NEW_ID, OTHER_ID = itertools.islice(
    (f"new{i}" for i in itertools.count()
     if f"new{i}" not in RULESET_IDS and not (ROOT / "tests" / "cases" / f"new{i}").exists()),
    2)


@pytest.fixture(scope="module")
def generated() -> dict[str, str]:
    """Every page as `./run docs` would write it now, by its path in the repository."""
    return render_all(ROOT)


def assert_fresh(root: Path, rel: str, text: str) -> None:
    """The committed page `rel` under `root` is `text`; a page not written yet is skipped."""
    path = root / rel
    if not path.exists():
        pytest.skip(f"{rel} is not written yet: run ./run docs to write it")
    committed = path.read_text(encoding="utf-8")
    assert committed == text, (
        f"{rel} is stale (its rule set, cases or the check registry changed): run ./run docs "
        f"and commit the page\n{diff(committed, text, rel)}")


def left_over(root: Path, generated: dict[str, str]) -> list[str]:
    """Committed rule-set pages that no rule set generates any more."""
    return [f"{PAGES_DIR}/{p.name}" for p in sorted((root / PAGES_DIR).glob("*.md"))
            if f"{PAGES_DIR}/{p.name}" not in generated]


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_ruleset_page_is_fresh(generated: dict[str, str], ruleset: str) -> None:
    rel = f"{PAGES_DIR}/{ruleset}.md"
    assert_fresh(ROOT, rel, generated[rel])


def test_no_page_outlives_its_rule_set(generated: dict[str, str]) -> None:
    left = left_over(ROOT, generated)
    assert not left, (f"{', '.join(left)}: no such rule set in rulesets/ any more; run "
                      "./run docs (it removes the page) and commit the removal")


def test_checks_page_is_fresh(generated: dict[str, str]) -> None:
    assert (ROOT / CHECKS_PAGE).exists(), f"{CHECKS_PAGE} is missing: run ./run docs"
    assert_fresh(ROOT, CHECKS_PAGE, generated[CHECKS_PAGE])


def _committed_pages() -> list[Path]:
    return [*sorted((ROOT / PAGES_DIR).glob("*.md")), ROOT / CHECKS_PAGE]


@pytest.mark.parametrize("page", _committed_pages(), ids=lambda p: p.name)
def test_a_page_links_only_to_files_that_exist(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    targets = LINK.findall(text)
    assert targets, f"{page.name}: no links found"
    for target in targets:
        rel, _, anchor = target.partition("#")
        assert "://" not in rel and not rel.startswith("/"), (
            f"{page.name}: links outside the repository: {target}")
        path = (page.parent / rel).resolve() if rel else page
        assert path.is_relative_to(ROOT), f"{page.name}: {target} leaves the repository"
        assert path.exists(), f"{page.name}: {target} does not exist"
        if anchor:
            assert path.suffix == ".md", f"{page.name}: {target}: an anchor into a non-page"
            assert anchor in anchors(path.read_text(encoding="utf-8")), (
                f"{page.name}: {target}: no such heading in {path.name}")


def test_pages_are_marked_generated_and_hold_no_fenced_blocks(
        generated: dict[str, str]) -> None:
    assert set(generated) == {*(f"{PAGES_DIR}/{rid}.md" for rid in RULESET_IDS), CHECKS_PAGE}
    for rel, text in generated.items():
        first = text.splitlines()[0]
        expected = (CHECKS_MARKER if rel == CHECKS_PAGE
                    else ruleset_marker(Path(rel).stem))
        assert first == expected and first.startswith(GENERATED), rel
        assert "```" not in text and "~~~" not in text, f"{rel}: a fenced block"
        assert "\t" not in text and text.endswith("\n") and not text.endswith("\n\n"), rel


# --- what a new rule set, a stale page and a left-over page do -----------------------------

NEW_CASES = """\
cases:
  - name: 平胡 on a discard is worth one base
    hand: 123m456m789m11s22s2s
    context: {win_type: discard, discarder: 1}
    expect: {winning: true, fans: {}, fan_total: 0, net: [1, -1, 0, 0]}
"""


def _scratch(tmp_path: Path) -> Path:
    """A copy of what the pages are made from and the committed pages."""
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "rulesets", root / "rulesets")
    shutil.copytree(ROOT / "tests" / "cases", root / "tests" / "cases",
                    ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    shutil.copytree(ROOT / PAGES_DIR, root / PAGES_DIR)
    shutil.copy(ROOT / CHECKS_PAGE, root / CHECKS_PAGE)
    return root


def _add_ruleset(root: Path) -> None:
    """One new rule set (a copy of sichuan under another id) and one case file."""
    text = (ROOT / "rulesets" / "sichuan.yaml").read_text(encoding="utf-8")
    assert "\nid: sichuan\n" in text
    (root / "rulesets" / f"{NEW_ID}.yaml").write_text(
        text.replace("\nid: sichuan\n", f"\nid: {NEW_ID}\n"), encoding="utf-8")
    (root / "tests" / "cases" / NEW_ID).mkdir()
    (root / "tests" / "cases" / NEW_ID / "hands.yaml").write_text(NEW_CASES, encoding="utf-8")


def test_a_new_rule_set_changes_no_committed_page(tmp_path: Path,
                                                  generated: dict[str, str]) -> None:
    root = _scratch(tmp_path)
    _add_ruleset(root)
    pages = render_all(root)
    assert set(pages) == {*generated, f"{PAGES_DIR}/{NEW_ID}.md"}
    for rel, text in generated.items():
        assert pages[rel] == text, f"adding a rule set changed {rel}"
    # Its page is skipped until it is written, then fresh.
    rel = f"{PAGES_DIR}/{NEW_ID}.md"
    with pytest.raises(pytest.skip.Exception, match=rf"{NEW_ID}\.md.*\./run docs"):
        assert_fresh(root, rel, pages[rel])
    (root / rel).write_text(pages[rel], encoding="utf-8")
    assert_fresh(root, rel, pages[rel])
    assert "| 平胡 on a discard is worth one base | `123m456m789m11s22s2s` |" in pages[rel]
    cases = f"tests/cases/{NEW_ID}/hands.yaml"
    assert f"[`{cases}`](../../{cases})" in pages[rel]


def test_a_stale_page_fails_naming_itself_and_run_docs(tmp_path: Path,
                                                      generated: dict[str, str]) -> None:
    root = _scratch(tmp_path)
    yaml_path = root / "rulesets" / "sichuan.yaml"
    yaml_path.write_text(yaml_path.read_text(encoding="utf-8").replace(
        "name_en: Kong\n", "name_en: Kong (renamed)\n"), encoding="utf-8")
    pages = render_all(root)
    rel = f"{PAGES_DIR}/sichuan.md"
    assert pages[rel] != generated[rel]
    with pytest.raises(AssertionError, match=r"docs/rulesets/sichuan\.md is stale.*\./run docs"):
        assert_fresh(root, rel, pages[rel])
    # The child rule set's page shows the parent's fans: it is stale too.
    with pytest.raises(AssertionError, match=r"chengdu\.md is stale"):
        assert_fresh(root, f"{PAGES_DIR}/chengdu.md", pages[f"{PAGES_DIR}/chengdu.md"])


def test_a_page_without_its_rule_set_is_left_over(tmp_path: Path) -> None:
    root = _scratch(tmp_path)
    (root / "rulesets" / "tianjin.yaml").unlink()
    shutil.rmtree(root / "tests" / "cases" / "tianjin")
    assert left_over(root, render_all(root)) == [f"{PAGES_DIR}/tianjin.md"]


def test_run_docs_writes_checks_and_removes(tmp_path: Path) -> None:
    # `./run docs` in a scratch copy of the project, with this virtualenv (no install).
    root = _scratch(tmp_path)
    for package in ("app", "mahjong_scoring", "tools"):
        shutil.copytree(ROOT / package, root / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copy(ROOT / "run", root / "run")
    (root / ".venv").symlink_to(sys.prefix)
    env = {**os.environ, "RUN_NO_INSTALL": "1", "PYTHONPATH": str(root)}

    def run_docs(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(root / "run"), "docs", *args], cwd=root, env=env,
                              capture_output=True, text=True, timeout=300, check=False)

    _add_ruleset(root)
    page = root / PAGES_DIR / f"{NEW_ID}.md"
    proc = run_docs("--check")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"missing: docs/rulesets/{NEW_ID}.md" in proc.stdout
    assert "./run docs" in proc.stderr
    assert not page.exists(), "--check wrote a page"

    proc = run_docs()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"wrote docs/rulesets/{NEW_ID}.md" in proc.stdout
    assert page.read_text(encoding="utf-8").startswith(ruleset_marker(NEW_ID))

    edited = page.read_text(encoding="utf-8").replace("平胡", "平和")
    page.write_text(edited, encoding="utf-8")
    # The rule set renamed: its old page is left over, the new one missing.
    other = root / "rulesets" / f"{OTHER_ID}.yaml"
    (root / "rulesets" / f"{NEW_ID}.yaml").rename(other)
    other.write_text(other.read_text(encoding="utf-8").replace(
        f"\nid: {NEW_ID}\n", f"\nid: {OTHER_ID}\n"), encoding="utf-8")
    (root / "tests" / "cases" / NEW_ID).rename(root / "tests" / "cases" / OTHER_ID)
    proc = run_docs("--check")
    assert proc.returncode == 1
    assert f"missing: docs/rulesets/{OTHER_ID}.md" in proc.stdout
    assert f"no such rule set: docs/rulesets/{NEW_ID}.md" in proc.stdout
    assert page.read_text(encoding="utf-8") == edited, "--check changed a page"

    proc = run_docs()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"removed docs/rulesets/{NEW_ID}.md" in proc.stdout
    assert not page.exists() and (root / PAGES_DIR / f"{OTHER_ID}.md").exists()
    assert run_docs("--check").returncode == 0


# --- a field the generator has no words for stops it ---------------------------------------


def test_every_settlement_field_has_words() -> None:
    page = SettlementSection
    fields = {f.name for f in dataclasses.fields(SettlementDef)}
    assert fields == {*page.ROUND_SENTENCES, *page.SETTLEMENT_SECTIONS}
    assert {f.name for f in dataclasses.fields(DrawnGameDef)} == set(page.DRAWN_SENTENCES)
    assert {f.name for f in dataclasses.fields(KongMoney)} == page.KONG_FIELDS
    assert {f.name for f in dataclasses.fields(FollowDealer)} == page.FOLLOW_DEALER_FIELDS
    assert set(page.KONG_NAMES) == {*KONG_KINDS, GOLDEN}
    assert set(page.PAYERS) == set(PAYERS)


def _with(source: Source, **document: object) -> Source:
    return dataclasses.replace(source, document={**source.document, **document})


@pytest.mark.parametrize(("where", "change"), [
    ("settlement", lambda s: {**s, "new_rule": True}),
    ("settlement.drawn_game", lambda s: {**s, "drawn_game": {**s["drawn_game"],
                                                             "new_check": 1}}),
    ("settlement.kongs.direct", lambda s: {**s, "kongs": {
        **s["kongs"], "direct": {**s["kongs"]["direct"], "new_condition": True}}}),
])
def test_an_unknown_settlement_field_stops_the_generator(where: str, change: object) -> None:
    source = load_sources(ROOT / "rulesets", ROOT / "tests" / "cases")["sichuan"]
    assert callable(change)
    changed = _with(source, settlement=change(source.document["settlement"]))
    with pytest.raises(DocsError, match=rf"{re.escape(where)}: field 'new_\w+' has no words"):
        render_ruleset_page(changed)


def test_an_unknown_document_key_stops_the_generator() -> None:
    source = load_sources(ROOT / "rulesets", ROOT / "tests" / "cases")["mcr"]
    with pytest.raises(DocsError, match=r"the rule-set document: field 'dealer_bonus'"):
        render_ruleset_page(_with(source, dealer_bonus=True))


def test_a_card_game_that_settles_rounds_stops_the_generator() -> None:
    """A card page says the game settles no rounds: true only while its document's
    `settlement` is null."""
    source = load_sources(ROOT / "rulesets", ROOT / "tests" / "cases")["hengyang"]
    assert source.document["settlement"] is None
    assert "It settles no rounds." in render_ruleset_page(source)
    with pytest.raises(DocsError, match=r"hengyang: settlement: no words"):
        render_ruleset_page(_with(source, settlement={"kongs": {}}))


def test_every_shape_field_has_words() -> None:
    assert {f.name for f in dataclasses.fields(ShapeDef)} == SHAPE_DEF_FIELDS


def test_a_rule_set_without_fans_and_with_a_switched_shape(tmp_path: Path) -> None:
    """A rule set that counts no fan gets a page that says so (no empty fan table, no empty
    list of checks), and a shape an option switches on is named with its option."""
    rulesets, cases = tmp_path / "rulesets", tmp_path / "cases"
    rulesets.mkdir()
    cases.mkdir()
    (rulesets / f"{NEW_ID}.yaml").write_text(yaml.safe_dump({
        "id": NEW_ID, "name": "无番", "name_en": "No fans", "description": "Legality only.",
        "players": 4, "tiles": "no_flowers", "fans": [],
        "shapes": {"regular": {}, "seven_pairs": {"enabled_by": "pairs"}},
        "options": [{"name": "pairs", "type": "bool", "default": False,
                     "description": "seven pairs wins"}],
        "payment": {"scheme": "base_plus_fan", "params": {"base": 1}},
    }, allow_unicode=True), encoding="utf-8")
    page = render_ruleset_page(load_sources(rulesets, cases)[NEW_ID])
    assert "This rule set counts no fan" in page
    assert "| 番种 |" not in page
    assert "None: this rule set has no fan and no requirement" in page
    assert "`seven_pairs`](../checks.md#shape-seven_pairs) (while `pairs` is true)" in page
    assert ("`seven_pairs` is a winning shape only while the option `pairs` (default "
            "`false`) is true") in page
    assert "`no_flowers`: 34 kinds, 136 tiles |" in page


def test_a_card_rule_set_page(tmp_path: Path) -> None:
    """A card game's page: its deck, the points of each group per suit, the steps of each
    value of the option that chooses them, its patterns and its cases; an expected field it
    has no words for stops the generator."""
    rulesets, cases = tmp_path / "rulesets", tmp_path / "cases"
    rulesets.mkdir()
    (cases / "hengyang").mkdir(parents=True)
    shutil.copy(ROOT / "rulesets" / "hengyang.yaml", rulesets / "hengyang.yaml")
    case = {"name": "E3 self-drawn", "hand": "55x123x2710d456d99d9x5x",
            "context": {"win_type": "self_draw", "winner": 2},
            "expect": {"winning": True, "huxi": 12, "fans": {"zi_mo": 1}, "score": 6,
                       "net": [-6, -6, 18, -6]}}
    (cases / "hengyang" / "hands.yaml").write_text(
        yaml.safe_dump({"cases": [case]}, allow_unicode=True), encoding="utf-8")
    page = render_ruleset_page(load_sources(rulesets, cases)["hengyang"])
    assert page.startswith(ruleset_marker("hengyang"))
    assert "| Deck | 字牌 (word cards): 80 cards, 20 kinds × 4 copies |" in page
    assert "| 提 | `ti` | four concealed | 4 | 4 identical cards | 9 | 12 | any |" in page
    assert "| 碰 | `peng` | three exposed | 3 | 3 identical cards | 1 | 3 | any |" in page
    assert "| 1-2-3; 2-7-10; 1-5-10 |" in page
    for mode in ("three_per_tun` (the default)", "one_per_huxi`", "hzy`"):
        assert f"### `tun_mode`: `{mode}" in page
    assert "[`units_from_points`](../checks.md#step-units_from_points)" in page
    assert "[`cards_with`](../checks.md#card-check-cards_with)" in page
    assert ("| E3 self-drawn | `55x123x2710d456d99d9x5x` | `win_type: self_draw, winner: 2` | "
            "a win; 12 胡息; 自摸 `zi_mo` ×1; score 6; net `[-6, -6, 18, -6]` |") in page
    assert "```" not in page
    checks = render_all(ROOT)[CHECKS_PAGE]
    assert {"step-units_from_points", "card-check-cards_with",
            "card-games-scoring-steps"} <= anchors(checks)
    case["expect"]["new_figure"] = 1
    (cases / "hengyang" / "hands.yaml").write_text(
        yaml.safe_dump({"cases": [case]}, allow_unicode=True), encoding="utf-8")
    with pytest.raises(DocsError, match=r"expect: field 'new_figure' has no words"):
        render_ruleset_page(load_sources(rulesets, cases)["hengyang"])


def test_the_pages_are_made_from_the_rule_sets_the_service_reads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`./run docs` honours MAHJONG_RULESETS_DIR as the service does: that directory's rule
    sets, with its own `cases/` when it has one; without the variable, the project's."""
    from tools.ruleset_docs.pages import source_dirs

    monkeypatch.delenv("MAHJONG_RULESETS_DIR", raising=False)
    assert source_dirs(ROOT) == (ROOT / "rulesets", ROOT / "tests" / "cases", False)
    monkeypatch.setenv("MAHJONG_RULESETS_DIR", str(tmp_path))
    assert source_dirs(ROOT) == (tmp_path, ROOT / "tests" / "cases", True)
    (tmp_path / "cases").mkdir()
    assert source_dirs(ROOT) == (tmp_path, tmp_path / "cases", True)
