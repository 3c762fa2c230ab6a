"""Request bodies for the HTTP benchmarks (bench/http.py, bench/memory.py), built as a game
server would send them. Everything is deterministic for a seed.

- `mcr_bodies`: the differential test's random legal 国标 hands
  (tests/mcr_reference/generator.py), written with the service's own notation helpers, with
  every context field a game server knows (win type, discarder, winner, dealer, winds,
  flowers, kong, last tile, last of its kind); `waits` gives the same hands one tile short
  (the winning tile taken out).
- `tianjin_bodies`: 天津 hands holding wild tiles (bench/wilds.py's random hands, given by
  `context.wild_indicator`), score or waits.
- `suit_hand_bodies`: `sichuan` / `chengdu` hands (two suits at most, maybe declared pungs and
  kongs), score or waits.
- `settle_bodies`: valid 血战到底 rounds from the settlement tests' generator
  (tests/scoring/round_gen.py), drawn with a fixed hypothesis seed.
- `hengyang_bodies`: 衡阳六胡抢 (word-card) requests from the brute-force test's generator
  (tests/scoring/hengyang_oracle.py), the three win types in turn, score or waits.
- `log_bodies`: any tile rule set's requests from the log generator
  (`tools.loggen`), score or waits.

They need the test extras (the reference calculator the MCR generator imports, hypothesis):
`./run test` installs them.
"""

from __future__ import annotations

import importlib.util
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any, cast

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.domain.hand import WINDS  # noqa: E402
from app.domain.notation import format_meld, format_tiles  # noqa: E402
from app.rules.families import TILES, family_of  # noqa: E402
from app.rules.loader import load_rulesets  # noqa: E402
from app.rules.model import RuleSet  # noqa: E402

Body = dict[str, Any]
_TILE = re.compile(r"\d[mps]|[ESWNCFP]")


def _load_by_path(name: str, path: Path) -> ModuleType:
    """Import a module of tests/ by path (tests/ is not an installed package)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def mcr_generator() -> ModuleType:
    """tests/mcr_reference/generator.py: random legal MCR hands and the reference calculator."""
    loaded = sys.modules.get("mcr_reference_generator")
    if loaded is not None:
        return loaded
    return _load_by_path("mcr_reference_generator",
                         ROOT / "tests" / "mcr_reference" / "generator.py")


_RULESETS: dict[str, RuleSet] = {}


def rulesets() -> dict[str, RuleSet]:
    if not _RULESETS:
        _RULESETS.update(load_rulesets(ROOT / "rulesets"))
    return _RULESETS


def encode(body: Body) -> bytes:
    return json.dumps(body, separators=(",", ":")).encode()


def unique(bodies: list[Body]) -> list[Body]:
    """The bodies without repeats (same JSON), in order."""
    seen: set[bytes] = set()
    out: list[Body] = []
    for b in bodies:
        key = encode(b)
        if key not in seen:
            seen.add(key)
            out.append(b)
    return out


# --- mcr ---------------------------------------------------------------------------------------


def mcr_bodies(n: int, seed: int) -> tuple[list[Body], list[Body]]:
    """(score bodies, waits bodies) for `n` random legal MCR hands: the waits body is the
    score body's hand without its winning tile, with the same context."""
    pairs = [mcr_case_bodies(case) for case in mcr_generator().generate(n, seed).cases]
    return [score for score, _ in pairs], [waits for _, waits in pairs]


def mcr_case_bodies(case: Any) -> tuple[Body, Body]:
    """(score body, waits body) of one case of the differential generator (its `hand` and
    `ctx`), so that a benchmark can give the reference calculator the same hand (the case's
    `oracle_args`)."""
    tileset = rulesets()["mcr"].tileset
    hand, ctx = case.hand, case.ctx
    melds = [{"kind": m.kind, "tiles": format_meld(m.tiles, tileset),
              "concealed": m.concealed} for m in hand.melds]
    context: Body = {
        "win_type": ctx.win_type,
        "winner": ctx.winner,
        "dealer": ctx.dealer,
        "seat_wind": WINDS[ctx.seat_wind],
        "round_wind": WINDS[ctx.round_wind],
        "flowers": ctx.flowers,
        "kong": ctx.kong,
        "last_tile": ctx.last_tile,
        "last_of_kind": ctx.last_of_kind,
    }
    if ctx.discarder is not None:
        context["discarder"] = ctx.discarder
    score = {"hand": {"concealed": format_tiles(hand.concealed, tileset), "melds": melds,
                      "win_tile": format_tiles([hand.win_tile], tileset)},
             "context": context}
    short = list(hand.concealed)
    short.remove(hand.win_tile)
    waits = {"hand": {"concealed": format_tiles(short, tileset), "melds": melds},
             "context": context}
    return score, waits


# --- tianjin -----------------------------------------------------------------------------------


def tianjin_bodies(n: int, seed: int, wilds: tuple[int, int], waits: bool = False
                   ) -> list[Body]:
    """`n` tianjin bodies, each hand holding between wilds[0] and wilds[1] standing wild tiles
    (bench/wilds.py's hands: two thirds complete hands with tiles replaced by wilds, the rest
    random tiles around the wilds). Waits bodies drop one standing tile."""
    from wilds import random_hand  # bench/wilds.py (this folder is on the path)

    rng = random.Random(seed)
    out: dict[bytes, Body] = {}
    while len(out) < n:
        notation, ctx = random_hand(rng, rng.randint(*wilds), explicit=False)
        tiles = _TILE.findall(notation)
        if waits:
            tiles.pop(rng.randrange(len(tiles)))
        context = {**ctx, "winner": rng.randrange(4), "dealer": rng.randrange(4)}
        body = {"hand": "".join(tiles), "context": context}
        out.setdefault(encode(body), body)
    return list(out.values())


# --- sichuan / chengdu -------------------------------------------------------------------------


def _suit_hand(rng: random.Random, waits: bool) -> Body:
    """A hand of one or two suits: declared pungs or kongs (none, one or two), concealed sets
    and a pair, now and then one tile swapped for any tile (often no win, maybe 定缺)."""
    suits = rng.choice(["m", "p", "s", "mp", "ms", "ps"])
    kinds = [f"{r}{s}" for s in suits for r in range(1, 10)]
    used: Counter[str] = Counter()
    melds: list[Body] = []
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        tile = rng.choice([t for t in kinds if used[t] == 0])
        size = rng.choice([3, 4])
        used[tile] += size
        melds.append({"kind": "pung" if size == 3 else "kong", "tiles": tile[0] * size + tile[1],
                      "concealed": size == 4 and rng.random() < 0.5})
    standing: list[str] = []
    while len(standing) < 3 * (4 - len(melds)):
        if rng.random() < 0.4:
            tile = rng.choice(kinds)
            group = [tile] * 3
        else:
            start = rng.randint(1, 7)
            suit = rng.choice(suits)
            group = [f"{start + k}{suit}" for k in range(3)]
        if all(used[t] + group.count(t) <= 4 for t in group):
            used.update(group)
            standing += group
    pair = rng.choice([t for t in kinds if used[t] <= 2])
    used.update([pair, pair])
    standing += [pair, pair]
    if rng.random() < 0.2:
        swap = rng.choice([f"{r}{s}" for s in "mps" for r in range(1, 10)])
        if used[swap] < 4:
            standing[rng.randrange(len(standing))] = swap
    rng.shuffle(standing)
    winner = rng.randrange(4)
    context: Body = {"win_type": "self_draw", "winner": winner, "dealer": rng.randrange(4)}
    if rng.random() < 0.5:
        context = {**context, "win_type": "discard",
                   "discarder": rng.choice([s for s in range(4) if s != winner])}
    hand: Body = {"concealed": standing, "melds": melds}
    if waits:
        standing.pop()
    else:
        hand["win_tile"] = standing[-1]
    return {"hand": hand, "context": context}


def suit_hand_bodies(n: int, seed: int, waits: bool = False) -> list[Body]:
    """`n` different sichuan/chengdu score (or waits) bodies."""
    rng = random.Random(seed)
    out: dict[bytes, Body] = {}
    while len(out) < n:
        body = _suit_hand(rng, waits)
        out.setdefault(encode(body), body)
    return list(out.values())


def settle_bodies(n: int, seed: int) -> list[Body]:
    """`n` different valid sichuan rounds holding at least one win (the settlement tests'
    generator, drawn with hypothesis under a fixed seed: the same rounds every run)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed

    from tests.scoring.round_gen import rounds

    found: list[Body] = []

    @hypothesis_seed(seed)
    @settings(max_examples=4 * n, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(rounds())
    def collect(body: Body) -> None:
        if any(e["type"] == "win" for e in body["events"]):
            found.append(body)

    collect()
    return unique(found)[:n]


# --- hengyang (word cards) ---------------------------------------------------------------------


def hengyang_bodies(n: int, seed: int, waits: bool = False) -> list[Body]:
    """`n` different hengyang score (or waits) bodies, about half of the score hands winning.
    A waits body is the score body without its winning card."""
    from tests.scoring.hengyang_oracle import WIN_TYPES, random_request

    rng = random.Random(seed)
    out: dict[bytes, Body] = {}
    while len(out) < n:
        body: Body = random_request(rng, WIN_TYPES[len(out) % len(WIN_TYPES)])
        if waits:
            hand = body["hand"]
            del hand["win_card"]
            hand["cards"] = hand["cards"][:-1]
        out.setdefault(encode(body), body)
    return list(out.values())


# --- any tile rule set -------------------------------------------------------------------------


def log_bodies(ruleset_id: str, n: int, seed: int, waits: bool = False) -> list[Body]:
    """`n` score (or waits) bodies of a tile rule set from the log generator: its own tiles,
    melds, shapes, wild tiles and options, a consistent context, about 10% not winning."""
    from tools.loggen import requests

    ruleset = rulesets()[ruleset_id]
    assert family_of(ruleset) == TILES, f"{ruleset_id} is not a tile rule set"
    return requests(cast(RuleSet, ruleset), n, seed, waits=waits)
