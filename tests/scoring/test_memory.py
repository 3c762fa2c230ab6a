"""Every memo of the engine is bounded and reported (`app.scoring.memory_bounds`)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import app.scoring
from app.domain import notation, standing
from app.domain.errors import HandError
from app.scoring.evaluate import score
from app.scoring.memory import forget_everything, memory_bounds, widen
from app.service.tiles.requests import build
from tests.loaded import repo_rulesets
from tests.mcr_reference.generator import generate

ROOT = Path(__file__).resolve().parents[2]
RULESETS = repo_rulesets()


def test_no_unbounded_memo_in_the_engine() -> None:
    for layer in ("domain", "rules", "scoring"):
        for path in (ROOT / "app" / layer).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"@(functools\.)?cache\b", text), path
            assert "lru_cache(maxsize=None)" not in text, path
            assert not re.search(r"@(functools\.)?lru_cache\s*$", text, re.M), path


def test_memos_stay_within_their_bounds() -> None:
    forget_everything()
    for case in generate(400, 5).cases:
        score(case.hand, case.ctx, RULESETS["mcr"])
    rng = random.Random(9)
    rs = RULESETS["tianjin"]
    codes = [rs.tileset.code(t) for t in rs.tileset.playing]
    scored = 0
    while scored < 40:
        tiles: list[str] = []
        while len(tiles) < 14:
            t = rng.choice(codes)
            if tiles.count(t) < 3:
                tiles.append(t)
        try:
            hand, ctx = build("".join(tiles), {"win_type": "self_draw",
                                                "wild_indicator": rng.choice(codes)}, rs)
        except HandError:
            continue
        score(hand, ctx, rs)
        scored += 1
    bounds = app.scoring.memory_bounds()
    for name, (bound, size) in bounds.items():
        assert 0 <= size <= bound, (name, size, bound)
    assert bounds["standing.parts"].size > 0
    assert bounds["plan.shared_answers"].size > 0
    assert bounds["plan.wild_search_states"].size > 0


def test_widened_memos_hold_more_and_keep_to_their_bound() -> None:
    widen(1)  # the served bounds (a command-line scorer run in this process widens them)
    served = memory_bounds()
    assert served["standing.parts"].bound == 2 * standing.PARTS_LIMIT
    try:
        widen(3)
        bounds = memory_bounds()
        assert bounds["standing.parts"].bound == 3 * served["standing.parts"].bound
        assert bounds["notation.tokens"].bound == 3 * served["notation.tokens"].bound
        # What is widened is still a bound: a narrow one holds as well.
        forget_everything()
        standing.set_parts_limit(5)
        for case in generate(60, 11).cases:
            score(case.hand, case.ctx, RULESETS["mcr"])
            assert standing.parts_held() <= 10
        assert standing.parts_held() > 5  # the old generation kept what the young let go
    finally:
        widen(1)
        forget_everything()
    assert memory_bounds()["standing.parts"].bound == served["standing.parts"].bound
    assert memory_bounds()["notation.tokens"].bound == served["notation.tokens"].bound
    for bad in (0, -2):
        with pytest.raises(ValueError):
            widen(bad)
        with pytest.raises(ValueError):
            standing.set_parts_limit(bad)
        with pytest.raises(ValueError):
            notation.set_tokens_limit(bad)
