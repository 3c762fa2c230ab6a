"""A hand's answer never depends on the hands scored before it.

The wild searches keep memos across requests (`app.domain.wildcards`: suit options and search
states); a state met first by one hand is reused by the next. Whatever a memo holds, each
request must get the same answer, the reading of its wilds included, as when it is scored
alone from scratch: two replicas of the service, or a batch and the single call, answer alike.
"""

from __future__ import annotations

import random

import pytest

from app.rules.model import RuleSet
from app.scoring.wild_readings import forget_wild_memos
from app.service.batch import score_item, waits_item
from mahjong_scoring.lines import served_rulesets
from tools import loggen


@pytest.fixture(scope="module")
def tianjin() -> RuleSet:
    return served_rulesets()["tianjin"]


@pytest.mark.parametrize("waits", [False, True])
def test_wild_answers_do_not_depend_on_the_order(tianjin: RuleSet, waits: bool) -> None:
    bodies = loggen.requests(tianjin, 100 if waits else 400, seed=77, waits=waits)
    item = waits_item if waits else score_item
    alone = []
    for body in bodies:
        forget_wild_memos(tianjin, keys=True)
        alone.append(item(body, tianjin))
    order = list(range(len(bodies)))
    random.Random(5).shuffle(order)
    for i in order:  # memos warm, filled by other hands in another order
        assert item(bodies[i], tianjin) == alone[i], bodies[i]
