"""Cases as data, one directory per rule set: hand cases (`<ruleset>/*.yaml`), waits cases
(`<ruleset>/waits/*.yaml`) and round cases (`<ruleset>/rounds/*.yaml`).

The rule sets are read where the service reads them (`app.rulesets_dir`): the project's
`rulesets/`, or the directory `MAHJONG_RULESETS_DIR` names. With that variable set, the case
files are those of the directory's own `cases/` (the same layout) when it has one, else
these; either way only the cases of the directory's rule sets are collected.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from app.rules.load_files import load_yaml
from app.rules.loader import load_rulesets
from app.rules.model import AnyRuleSet
from app.settings import DEFAULT_RULESETS_DIR, rulesets_dir

HERE = Path(__file__).resolve().parent
RULESETS_DIR = rulesets_dir({})
# The project's own rule sets (not another directory's): their cases are known to be many.
PROJECT_RULESETS = RULESETS_DIR.resolve() == DEFAULT_RULESETS_DIR.resolve()
# The case files: the rule-set directory's own, else the project's.
CASES = (RULESETS_DIR / "cases" if RULESETS_DIR.resolve() != DEFAULT_RULESETS_DIR.resolve()
         and (RULESETS_DIR / "cases").is_dir() else HERE)
# Whether every case directory must name a rule set of RULESETS_DIR (the project's cases
# beside another directory's rule sets cover rule sets it may not have).
CASES_MATCH_RULESETS = CASES != HERE or RULESETS_DIR.resolve() == DEFAULT_RULESETS_DIR.resolve()


@cache
def case_rulesets() -> dict[str, AnyRuleSet]:
    """The rule sets the cases are scored under, loaded once per test process."""
    return load_rulesets(RULESETS_DIR)


def collect(kind: str | None = None) -> list[Any]:
    """One pytest param (rule set id, case) per case of every file of `kind` (`waits`,
    `rounds`; None: the hand cases) of a rule set of RULESETS_DIR, in file order, each named
    `<ruleset>/[kind/]file/i`."""
    ids = {p.stem for p in RULESETS_DIR.glob("*.yaml")}
    pattern = f"*/{kind}/*.yaml" if kind else "*/*.yaml"
    params = []
    for path in sorted(CASES.glob(pattern)):
        ruleset = (path.parent.parent if kind else path.parent).name
        if ruleset not in ids:
            continue
        where = f"{ruleset}/{kind}" if kind else ruleset
        data = load_yaml(path.read_text(encoding="utf-8"))
        for i, case in enumerate(data["cases"]):
            params.append(pytest.param(ruleset, case, id=f"{where}/{path.stem}/{i}"))
    return params
