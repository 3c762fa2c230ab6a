"""Cases as data, one directory per rule set: hand cases (`<ruleset>/*.yaml`), waits cases
(`<ruleset>/waits/*.yaml`) and round cases (`<ruleset>/rounds/*.yaml`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

CASES = Path(__file__).resolve().parent


def collect(kind: str | None = None) -> list[Any]:
    """One pytest param (rule set id, case) per case of every file of `kind` (`waits`,
    `rounds`; None: the hand cases), in file order, each named `<ruleset>/[kind/]file/i`."""
    pattern = f"*/{kind}/*.yaml" if kind else "*/*.yaml"
    params = []
    for path in sorted(CASES.glob(pattern)):
        ruleset = (path.parent.parent if kind else path.parent).name
        where = f"{ruleset}/{kind}" if kind else ruleset
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for i, case in enumerate(data["cases"]):
            params.append(pytest.param(ruleset, case, id=f"{where}/{path.stem}/{i}"))
    return params
