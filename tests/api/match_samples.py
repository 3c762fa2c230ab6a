"""A short match per rule set that defines match rules, to draw as a scoresheet: shared by the
tests of the scoresheet (tests/api/test_match_pictures.py) and of its drawing in a browser
(tests/api/test_browser_pages.py).

Each match is made of the rule set's sample hand (tests/api/picture_hands.py) won twice, a
drawn hand between, a penalty paid to another player and one deducted, and a false win where
the rule set prices one; so a new rule set with match rules and cases is drawn without a
change here."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.api.picture_hands import sample_hands

# The table the match fills in: a hand's own must agree with it, so the sample leaves it out.
TABLE_FIELDS = ("dealer", "seat_wind", "round_wind")


def _win(body: dict[str, Any]) -> dict[str, Any]:
    context = {k: v for k, v in (body.get("context") or {}).items() if k not in TABLE_FIELDS}
    return {**body, "context": context}


def match_body(win: dict[str, Any], false_win: bool) -> dict[str, Any]:
    """A match of four hands around `win` (a score request body)."""
    winner = (win.get("context") or {}).get("winner", 0)
    other = 1 if winner == 0 else 0
    first: dict[str, Any] = {"win": win, "penalties": [
        {"player": other, "points": 5, "to": winner, "reason": "slow play"}]}
    if false_win:
        first["false_wins"] = [{"player": other, "kind": "not_ready"}]
    return {"hands": [first,
                      {"drawn": {"last_drawer": 1}},
                      {"win": win, "penalties": [{"player": winner, "points": 3}]},
                      {"drawn": {"last_drawer": 0}}]}


def sample_match(client: FlaskClient, ruleset: str) -> dict[str, Any] | None:
    """A match request body the rule set answers (a false win sent where it prices one), or
    None when it answers none (a rule set without match rules)."""
    body = SAMPLES[ruleset]
    for false_win in (True, False):
        match = match_body(_win(body), false_win)
        if client.post(f"/v1/rulesets/{ruleset}/match", json=match).status_code == 200:
            return match
    return None


SAMPLES = sample_hands()
