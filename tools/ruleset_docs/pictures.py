"""The pictures docs/pictures.md shows: answers of the service drawn as SVG
(`Accept: image/svg+xml`), written by `./run docs` and checked by `./run docs --check` like
the generated pages. Each is the service's own picture of a fixed request, made by the same
functions the route calls (`app.service.picture_answers`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.rules.loader import load_rulesets
from app.service.picture_answers import picture_body

__all__ = ["PICTURES", "render_pictures"]

# path under the repository -> (rule set, kind of answer, request body)
PICTURES: dict[str, tuple[str, str, dict[str, Any]]] = {
    "docs/pictures/mcr-score.svg": ("mcr", "score", {
        "hand": "[5555s]{EEEE}[123p]789m1m1m",
        "context": {"win_type": "self_draw", "flowers": "春夏"}}),
    "docs/pictures/tianjin-score.svg": ("tianjin", "score", {
        "hand": "1234567mS9m333pE2p",
        "context": {"win_type": "self_draw", "winner": 1, "dealer": 0, "wild_indicator": "E",
                    "options": {"dealer_sits": True, "pulls": [0, 1, 0, 0]}}}),
    "docs/pictures/hengyang-score.svg": ("hengyang", "score", {
        "hand": "{10101010d}[2710x]78x123d55x9x",
        "context": {"win_type": "self_draw", "winner": 0, "dealer": 0}}),
    "docs/pictures/mcr-waits.svg": ("mcr", "waits", {
        "hand": "[CCC][123m][789m]45m99m", "context": {"win_type": "discard", "discarder": 1}}),
    "docs/pictures/tianjin-waits.svg": ("tianjin", "waits", {
        "hand": "EES345m789p678s3m", "context": {"win_type": "self_draw", "wild_indicator": "E"}}),
    "docs/pictures/sichuan-analysis.svg": ("sichuan", "analysis", {
        "hand": "111m234m567m999s5s4p", "context": {"win_type": "self_draw"},
        "visible": "5s"}),
    # The worked 国标 match: 截和, a false win, a drawn hand, the second 圈's new seats.
    "docs/pictures/mcr-match.svg": ("mcr", "match", {"hands": [
        {"win": {"hand": "123m123p123s789s5p5p",
                 "context": {"win_type": "discard", "winner": 1, "discarder": 2}}},
        {"win": {"hand": "[123m][456p]789s23sNN4s",
                 "context": {"win_type": "self_draw", "winner": 3}}},
        {"win": {"hand": "[123m][456p]789s23sNN4s",
                 "context": {"win_type": "self_draw", "winner": 2}},
         "false_wins": [{"player": 0, "win": {"hand": "[234m][567s]345p888s9m9m", "context": {
             "win_type": "discard", "winner": 0, "discarder": 1}}}]},
        {"drawn": {}},
        {"win": {"hand": "[SSS]123456789m5p5p",
                 "context": {"win_type": "discard", "winner": 0, "discarder": 3}}},
        {"claims": {"discarder": 2, "claims": [
            {"win": {"hand": "[123m][456p]789s23sNN4s",
                     "context": {"win_type": "discard", "winner": 3, "discarder": 2}}},
            {"win": {"hand": "[123m][456p]789s23sNN4s",
                     "context": {"win_type": "discard", "winner": 1, "discarder": 2}}}]}},
        {"win": {"hand": "123m456m789m123p5p5p",
                 "context": {"win_type": "discard", "winner": 2, "discarder": 0}},
         "penalties": [{"player": 1, "points": 10, "to": 3, "reason": "slow play"}]}]}),
}


def render_pictures(rulesets: Path) -> dict[str, str]:
    """Every picture by its path, drawn under the rule sets of `rulesets` (a picture of a rule
    set not there is left out)."""
    loaded = load_rulesets(rulesets)
    return {path: picture_body(kind, body, loaded[ruleset]).decode()
            for path, (ruleset, kind, body) in PICTURES.items() if ruleset in loaded}
