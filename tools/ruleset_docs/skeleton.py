"""The skeleton every family's page shares: the marker and the sections in order (`render`),
the heading (names, description, the rule-set file's header), how a case's expectation opens,
the options table and the Matches section (`tools.ruleset_docs.matches`). A family's page
(`tools.ruleset_docs.pages.PAGES`) names its sections and writes those of its own."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tools.ruleset_docs.common import (
    OPTION_KEYS,
    code,
    flow,
    known,
    md,
    option_range,
    para,
    ruleset_marker,
    table,
)
from tools.ruleset_docs.matches import match_section
from tools.ruleset_docs.sources import Source

__all__ = ["PageSkeleton"]


class PageSkeleton:
    """A rule set's page: `sections` in order, each a list of lines."""

    src: Source
    doc: Mapping[str, Any]

    def sections(self) -> Sequence[Callable[[], list[str]]]:
        raise NotImplementedError

    def render(self) -> str:
        lines = [ruleset_marker(self.src.ruleset.id), ""]
        for section in self.sections():
            lines += section()
        while lines and not lines[-1]:
            lines.pop()
        return "\n".join(lines) + "\n"

    def heading(self) -> list[str]:
        """The names and the description, then the rule-set file's header comment, quoted."""
        d = self.doc
        lines = [f"# {md(d['name'])} · {md(d['name_en'])} · {code(d['id'])}", "",
                 para(d["description"]), ""]
        if self.src.header:
            lines += [f"From the header of {code('rulesets/' + self.src.ruleset.id + '.yaml')}:",
                      ""]
            for i, p in enumerate(self.src.header):
                lines += [("> " if i == 0 else ">\n> ") + md(p)]
            lines.append("")
        return lines

    @staticmethod
    def outcome(exp: Mapping[str, Any]) -> list[str]:
        """How a case's expectation opens, in every family: whether the hand wins, and why
        not."""
        parts = []
        if "winning" in exp:
            parts.append("a win" if exp["winning"] else "no win")
        if "reason" in exp:
            parts.append(f"reason {code(exp['reason'])}")
        return parts

    def matches(self) -> list[str]:
        return match_section(self.src.ruleset.id, self.doc["match"])

    def option_table(self) -> list[str]:
        lines = ["## Options", ""]
        if not self.doc["options"]:
            return [*lines, f"This rule set declares no options: a request sets none in "
                    f"{code('context.options')}.", ""]
        lines += [f"House rules a request may set in {code('context.options')}; an option "
                  "left out has its default.", ""]
        rows = []
        for o in self.doc["options"]:
            known(o, OPTION_KEYS, "options")
            rows.append([code(o["name"]), code(o["type"]), code(flow(o["default"])),
                         option_range(o), md(o["description"])])
        lines += table(["Option", "Type", "Default", "Choices or range", "Description"], rows)
        return lines
