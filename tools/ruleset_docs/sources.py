"""What a rule set's page is made from (`Source`): the loaded rule set, the document the
service answers for it, its YAML and header comment, its parent, and its case files
(`tests/cases/<id>/`), which both kinds of page render as tables of worked examples
(`case_tables`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.rules.load_files import load_yaml
from app.rules.loader import load_rulesets
from app.rules.model import AnyRuleSet
from app.service.families import ruleset_document
from tools.ruleset_docs.common import TO_ROOT, DocsError, code, flow_items, link, md, table

__all__ = ["CaseFile", "Source", "case_tables", "header_comment", "load_sources"]


@dataclass(frozen=True)
class CaseFile:
    """One file of cases: its path in the repository, kind (score or waits), header comment
    and cases."""

    path: str
    kind: str
    header: tuple[str, ...]
    cases: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True)
class Source:
    """What one rule set's page is made from."""

    ruleset: AnyRuleSet
    document: Mapping[str, Any]
    raw: Mapping[str, Any]
    header: tuple[str, ...]
    parent: AnyRuleSet | None
    cases: tuple[CaseFile, ...]


def header_comment(text: str) -> tuple[str, ...]:
    """The paragraphs of a YAML file's leading comment."""
    paragraphs: list[str] = []
    current: list[str] = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        body = line[1:].strip()
        if body:
            current.append(body)
        elif current:
            paragraphs.append(" ".join(current))
            current = []
    if current:
        paragraphs.append(" ".join(current))
    return tuple(paragraphs)


def _case_files(cases_dir: Path, rid: str) -> tuple[CaseFile, ...]:
    found: list[CaseFile] = []
    for kind, pattern in (("score", "*.yaml"), ("waits", "waits/*.yaml")):
        for path in sorted((cases_dir / rid).glob(pattern)):
            text = path.read_text(encoding="utf-8")
            data = load_yaml(text)
            if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
                raise DocsError(f"{path}: a case file holds `cases:`, a list")
            rel = "tests/cases/" + path.relative_to(cases_dir).as_posix()
            found.append(CaseFile(rel, kind, header_comment(text), tuple(data["cases"])))
    return tuple(found)


def load_sources(rulesets_dir: Path, cases_dir: Path) -> dict[str, Source]:
    """Every rule set of `rulesets_dir` with what its page is made from, by id (sorted)."""
    loaded = load_rulesets(rulesets_dir)
    out: dict[str, Source] = {}
    for rid in sorted(loaded):
        rs = loaded[rid]
        text = (rulesets_dir / f"{rid}.yaml").read_text(encoding="utf-8")
        raw = load_yaml(text)
        parent = raw.get("extends")
        out[rid] = Source(
            ruleset=rs, document=ruleset_document(rs, {}), raw=raw,
            header=header_comment(text),
            parent=loaded[parent] if isinstance(parent, str) else None,
            cases=_case_files(cases_dir, rid))
    return out


def case_tables(files: Sequence[CaseFile], hand_text: Callable[[Any], str],
                score_expect: Callable[[Mapping[str, Any], str], str],
                waits_expect: Callable[[Mapping[str, Any], str], str]) -> list[str]:
    """One table of cases per case file (its header comment quoted above it): name, hand
    (written by `hand_text`), context and the expected result in words (by the file's
    kind, score or waits)."""
    lines: list[str] = []
    for cf in files:
        lines += [f"### {link(code(cf.path), TO_ROOT + cf.path)}", ""]
        for i, p in enumerate(cf.header):
            lines.append(("> " if i == 0 else ">\n> ") + md(p))
        if cf.header:
            lines.append("")
        rows = []
        for i, case in enumerate(cf.cases):
            where = f"{cf.path} case {i}"
            if not isinstance(case, Mapping) or "expect" not in case:
                raise DocsError(f"{where}: a case has name, hand, context and expect")
            ctx = case.get("context") or {}
            expect = (score_expect if cf.kind == "score" else waits_expect)(case["expect"],
                                                                             where)
            rows.append([md(case.get("name", "")), hand_text(case.get("hand")),
                         code(flow_items(ctx)) if ctx else "none", expect])
        lines += table(["Case", "Hand", "Context", "Expected"], rows)
    return lines
