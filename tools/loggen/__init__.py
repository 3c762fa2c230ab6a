"""A seeded generator of realistic game logs: JSON Lines of score (or waits) requests, for the
tests and benchmarks of bulk scoring.

What it generates. Each line is one request body as a game server would send it to
``POST /v1/rulesets/{id}/score`` (or ``.../waits``), with an extra top-level ``"ruleset"``
key naming its rule set (the command-line scorer strips it and scores the line with that
rule set). Several rule sets can be interleaved in one log. The hands are winning shapes
(four sets and a pair with declared melds, seven pairs, and the other shapes a rule set
declares), written in the mixed ways clients write them: a whole-hand notation string, or a
hand object whose standing tiles are a string or a list of codes (now and then Chinese or
riichi-style names), with or without ``win_tile``, with contexts that give every field or
only what differs from the defaults. ``waits`` gives the same hands one tile short. A share
of malformed lines can be mixed in: lines that are not JSON, JSON that is not an object, and
requests the service refuses in different ways (`MALFORMED_KINDS`).

How it stays legal. Nothing here knows a rule set by name: everything comes from the
`RuleSet` data, its tile set (suits, honours, flowers, copies of each kind), the kinds of
meld players may declare, its shapes, players, flowers, wild tiles and options. Hands are
built by the builder registered under each shape's name (`tools.loggen.hands`: a shape
without one, or one its tiles cannot build, is left out with the reason), within the tile
supply (at most the copies of a kind, one fewer of a wild indicator that is out of play; wild
tiles only ever in a concealed kong among declared melds), and the context is physically
consistent (a discarder other than the winner, the seat wind from the winner and the dealer,
kong flags only when they can happen, last of its kind only when no other copy is held).
Every request is then read and scored through the service's own path
(`read_score_request`, `score`; `read_waits_request` for waits): a request it refuses is
dropped and drawn again (`RequestGenerator.refused` counts them; expected: none), and the
engine's answer decides whether a hand wins, so that the share of hands that do not win (a
minimum not reached, a rule set's requirement) is the one asked for (``non_winning``, 0.1 by
default); where every hand built wins (no minimum, no requirement), a hand meant not to win
has one standing tile swapped, so that it has no winning shape. Themes favour hands with a
value (one or two suits, pungs, honours, runs), so a minimum such as 8 fan is reached often;
a win type the engine never lets win (a self-draw-only game) is learned from its answers and
no longer drawn for hands meant to win. Options keep their defaults mostly; now and then one
or two get a valid value of their declaration.

The determinism promise. The output depends only on the arguments and the rule-set files:
all randomness comes from `random.Random` objects seeded from the seed (and the rule set's
id), never from the global generator, the clock, hash order or set iteration order, so the
same call gives the same lines in every run and in every process. A rule set's valid lines
are the same whatever other rule sets a log mixes in: `requests(ruleset, n, seed)`.

Mahjong only. A card game scored by groups (a `CardRuleSet`, a rule set of `family: cards`) is
not generated: `log_lines` refuses its id, and the command line leaves such rule sets out of
``all`` (saying so on standard error) and refuses one named by ``--ruleset``. `tile_rulesets`
picks the rule sets it makes logs for.

The modules: `tiles` (what a rule set's tiles allow, a hand being drawn), `hands` (the hand
builders, by shape), `context` (the context of the win), `forms` (the hand as clients write
it), `generator` (`RequestGenerator`), `malformed` (malformed lines), `log` (`requests`,
`log_lines`) and `cli`. The command line: ``./run log`` or ``python -m tools.loggen`` (`main`).
"""

from tools.loggen.cli import main
from tools.loggen.generator import RequestGenerator
from tools.loggen.hands import BUILDERS, Builder, builder, shapes_left_out
from tools.loggen.log import log_lines, requests, tile_rulesets
from tools.loggen.malformed import (
    MALFORMED_KINDS,
    NOT_AN_OBJECT_KINDS,
    NOT_JSON_KINDS,
    REFUSED_KINDS,
    malformed_line,
)
from tools.loggen.tiles import dumps

__all__ = [
    "BUILDERS",
    "MALFORMED_KINDS",
    "NOT_AN_OBJECT_KINDS",
    "NOT_JSON_KINDS",
    "REFUSED_KINDS",
    "Builder",
    "RequestGenerator",
    "builder",
    "dumps",
    "log_lines",
    "main",
    "malformed_line",
    "requests",
    "shapes_left_out",
    "tile_rulesets",
]
