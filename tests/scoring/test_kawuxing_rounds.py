"""卡五星 rounds at random: thousands of valid hands as events (kongs, chains of kongs, reveals,
a win, two wins on one discard, a drawn game), settled through the API's reading of a request.

Every round settles; the nets sum to zero over three seats; every seat in the answer is 0-2;
the kong money is what the rules say, worked out here apart from the engine (直杠 2 from the
discarder, 明杠 1 from each other, 暗杠 2 from each other, the n-th kong of a chain 2^(n-1)
times), and it is the same whoever has revealed (喜钱不翻番); a 明杠 is made only with the tile
just drawn, and the same round with a tile held earlier added is refused;
at a drawn game each revealed player (or the first) pays each other player 1.
"""

from __future__ import annotations

import copy
import os
import random
from pathlib import Path
from typing import Any

import pytest

from app.domain.errors import HandError
from app.scoring.evaluate import score
from app.scoring.rounds import settle
from app.service.tiles.requests import build
from app.service.tiles.settle_requests import build_round
from tests.loaded import repo_rulesets

ROOT = Path(__file__).resolve().parents[2]
KAWUXING = repo_rulesets()["kawuxing"]
ROUNDS = int(os.environ.get("KAWUXING_ROUNDS", "3000"))
SEED = int(os.environ.get("KAWUXING_SEED", "11"))

# The 84-tile set's kinds: 1p-9p, 1s-9s, then 中 发 白.
KINDS = [f"{n}{s}" for s in "ps" for n in range(1, 10)] + ["C", "F", "P"]
SUITED = 18
KONG_AMOUNT = {"direct": 2, "added": 1, "concealed": 2}


class _Table:
    """The tiles still unseen (four of each kind) and each seat's kongs."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.pool = [4] * len(KINDS)
        self.kongs: list[list[tuple[int, bool]]] = [[], [], []]  # (kind, concealed) by seat

    def take(self, kind: int, n: int) -> bool:
        if self.pool[kind] < n:
            return False
        self.pool[kind] -= n
        return True

    def a_set(self) -> list[int] | None:
        """A pung or a chow out of the pool, or None when none is left to take."""
        for _ in range(30):
            kind = self.rng.randrange(len(KINDS))
            if self.rng.random() < 0.6 and kind < SUITED and kind % 9 <= 6:
                run = [kind, kind + 1, kind + 2]
                if all(self.pool[k] for k in run):
                    for k in run:
                        self.pool[k] -= 1
                    return run
            elif self.take(kind, 3):
                return [kind] * 3
        return None

    def melds(self, seat: int) -> str:
        return "".join(("{%s}" if concealed else "[%s]") % (KINDS[k] * 4 if k >= SUITED else
                                                            KINDS[k][0] * 4 + KINDS[k][1])
                       for k, concealed in self.kongs[seat])

    def winning_hand(self, seat: int, pair_of: int | None = None) -> tuple[str, int] | None:
        """A regular winning hand for the seat (its kongs declared) and its winning tile: the
        pair's second tile, `pair_of` when given (a tile another winner also won)."""
        sets = []
        for _ in range(4 - len(self.kongs[seat])):
            got = self.a_set()
            if got is None:
                return None
            sets.append(got)
        if pair_of is None:
            pair_of = next((k for k in self.rng.sample(range(len(KINDS)), len(KINDS))
                            if self.take(k, 2)), None)
            if pair_of is None:
                return None
        elif not self.take(pair_of, 1):  # the other copy is the one already won
            return None
        standing = [k for s in sets for k in s] + [pair_of]
        return self.melds(seat) + "".join(_code(k) for k in standing) + _code(pair_of), pair_of

    def ready_hand(self, seat: int) -> str | None:
        """A hand one tile short of a win for the seat (a revealed one): its sets and a single
        tile of a kind none of them holds, waiting on its pair (单吊)."""
        sets = []
        for _ in range(4 - len(self.kongs[seat])):
            got = self.a_set()
            if got is None:
                return None
            sets.append(got)
        held = {k for s in sets for k in s} | {k for k, _ in self.kongs[seat]}
        single = next((k for k in self.rng.sample(range(len(KINDS)), len(KINDS))
                       if k not in held and self.pool[k] >= 2 and self.take(k, 1)), None)
        if single is None:
            return None
        tiles = sorted([k for s in sets for k in s] + [single])
        return self.melds(seat) + "".join(_code(k) for k in tiles)

    def waiting_hand(self, seat: int) -> str | None:
        tiles: list[int] = []
        while len(tiles) < 13 - 3 * len(self.kongs[seat]):
            kind = self.rng.randrange(len(KINDS))
            if self.take(kind, 1):
                tiles.append(kind)
        return self.melds(seat) + "".join(_code(k) for k in sorted(tiles))


def _code(kind: int) -> str:
    return KINDS[kind]


def random_round(rng: random.Random) -> dict[str, Any]:
    table = _Table(rng)
    events: list[dict[str, Any]] = []
    revealed: list[int] = []
    last_kong: dict[str, Any] | None = None
    for _ in range(rng.randrange(0, 5)):
        if rng.random() < 0.25 and len(revealed) < 3:
            seat = rng.choice([s for s in range(3) if s not in revealed])
            revealed.append(seat)
            events.append({"type": "reveal", "seat": seat})  # between kongs it separates none
            continue
        follows: str | None = None
        if last_kong is not None and rng.random() < 0.5:
            follows = rng.choice(["kong_discard", "kong_replacement"])
        if follows == "kong_discard":
            seat = rng.choice([s for s in range(3) if s != last_kong["seat"]])  # type: ignore[index]
            kind, discarder = "direct", last_kong["seat"]  # type: ignore[index]
        else:
            seat = last_kong["seat"] if follows else rng.randrange(3)  # type: ignore[index]
            kind = rng.choice(["added", "concealed"] if follows else list(KONG_AMOUNT))
            discarder = rng.choice([s for s in range(3) if s != seat])
        if len(table.kongs[seat]) >= 3:
            break
        tile = next((k for k in rng.sample(range(len(KINDS)), len(KINDS)) if table.take(k, 4)),
                    None)
        if tile is None:
            break
        table.kongs[seat].append((tile, kind == "concealed"))
        event: dict[str, Any] = {"type": "kong", "seat": seat, "kind": kind,
                                 "tile": _code(tile)}
        if kind == "direct":
            event["discarder"] = discarder
        if kind == "added":
            # A tile held earlier cannot be added (tested below): only the one just drawn.
            event["fresh"] = True
        if follows:
            event["follows"] = follows
        events.append(event)
        last_kong = event
    end = rng.random()
    previous = next((e for e in reversed(events) if e["type"] != "reveal"), None)
    if end < 0.45:
        winner = rng.randrange(3)
        won = table.winning_hand(winner)
        if won is not None:
            hand, tile = won
            context: dict[str, Any]
            if rng.random() < 0.4:
                context = {"win_type": "self_draw"}
                if previous is not None and previous["type"] == "kong" \
                        and previous["seat"] == winner:
                    context["kong"] = "replacement"
            else:
                discarder = rng.choice([s for s in range(3) if s != winner])
                context = {"win_type": "discard", "discarder": discarder}
                if previous is not None and previous["type"] == "kong" \
                        and previous["seat"] == discarder:
                    context["kong"] = "after_kong_discard"
            events.append({"type": "win", "seat": winner, "hand": hand, "context": context})
            if context["win_type"] == "discard" and rng.random() < 0.3:
                # 一炮双响: the third player wins the same tile.
                other = 3 - winner - context["discarder"]
                again = table.winning_hand(other, pair_of=tile)
                if again is not None:
                    events.append({"type": "win", "seat": other, "hand": again[0],
                                   "context": dict(context)})
    elif end < 0.9:
        # A revealed hand is ready (亮倒); the others are any 13 tiles.
        hands = [{"seat": s, "hand": table.ready_hand(s) if s in revealed
                  else table.waiting_hand(s)} for s in range(3)]
        if all(h["hand"] is not None for h in hands):
            events.append({"type": "draw", "hands": hands})
    options = {"base": rng.choice([1, 1, 2, 5]), "drawn_payers": rng.choice(
        ["all_revealed", "first_revealed"]), "cap": rng.choice([8, 16, "none"])}
    return {"options": options, "events": events}


def expected_kong_money(body: dict[str, Any]) -> list[tuple[int, int, int]]:
    """(payer, payee, amount) of every kong, by the rules, chains doubling."""
    base = body["options"]["base"]
    out = []
    chain = 0
    for event in body["events"]:
        if event["type"] != "kong":
            continue
        chain = chain + 1 if event.get("follows") else 1
        amount = KONG_AMOUNT[event["kind"]] * base * 2 ** (chain - 1)
        payers = ([event["discarder"]] if event["kind"] == "direct"
                  else [s for s in range(3) if s != event["seat"]])
        out += [(p, event["seat"], amount) for p in payers]
    return out


def test_random_kawuxing_rounds() -> None:
    rng = random.Random(SEED)
    seen = {"win": 0, "two_winners": 0, "draw": 0, "chain": 0, "reveal": 0, "revealed_pay": 0,
            "stale": 0}
    for _ in range(ROUNDS):
        body = random_round(rng)
        result = settle(build_round(body, KAWUXING), KAWUXING)
        where = repr(body)
        assert len(result.net) == 3 and sum(result.net) == 0, where
        assert all(0 <= s <= 2 for t in result.transfers for s in (t.payer, t.payee)), where
        assert all(0 <= w.seat <= 2 for w in result.wins), where
        kong_money = [(t.payer, t.payee, t.amount) for t in result.transfers
                      if t.reason.endswith("_kong")]
        assert kong_money == expected_kong_money(body), where
        # The same round with an added kong of a tile held earlier is refused there.
        added = [i for i, e in enumerate(body["events"]) if e.get("kind") == "added"]
        if added:
            stale = copy.deepcopy(body)
            stale["events"][added[-1]]["fresh"] = False
            with pytest.raises(HandError) as refused:
                build_round(stale, KAWUXING)
            assert (refused.value.code, refused.value.pointer) == (
                "forbidden_event", f"/events/{added[-1]}/fresh"), where
            seen["stale"] += 1
        # 喜钱不翻番: the same round with nobody revealed pays the same kong money.
        plain = {**body, "events": [e for e in body["events"] if e["type"] != "reveal"]}
        again = settle(build_round(plain, KAWUXING), KAWUXING)
        assert [(t.payer, t.payee, t.amount) for t in again.transfers
                if t.reason.endswith("_kong")] == kong_money, where
        revealed = [e["seat"] for e in body["events"] if e["type"] == "reveal"]
        # Each win is paid what /score answers for its hand with the seats revealed before it
        # (亮倒, 包胡), the round's other options alike.
        for i, event in enumerate(body["events"]):
            if event["type"] != "win":
                continue
            before = {e["seat"] for e in body["events"][:i] if e["type"] == "reveal"}
            options = {**body["options"], "revealed": [int(s in before) for s in range(3)]}
            hand, ctx = build(event["hand"], {**event["context"], "winner": event["seat"],
                                              "options": options}, KAWUXING)
            alone = score(hand, ctx, KAWUXING)
            assert alone.payments is not None, where
            assert sorted((t.payer, t.payee, t.amount) for t in alone.payments.transfers) == \
                sorted((t.payer, t.payee, t.amount) for t in result.transfers
                       if t.event == i and t.reason.startswith("win_")), where
        paid = [(t.payer, t.payee, t.amount) for t in result.transfers
                if t.reason == "revealed_draw"]
        if result.draw is not None:
            payers = revealed[:1] if body["options"]["drawn_payers"] == "first_revealed" \
                else revealed
            assert sorted(paid) == sorted(
                (p, s, body["options"]["base"]) for p in payers for s in range(3)
                if s not in revealed), where
        else:
            assert not paid, where
        seen["win"] += bool(result.wins)
        seen["two_winners"] += len(result.wins) == 2
        seen["draw"] += result.draw is not None
        seen["chain"] += any(e.get("follows") for e in body["events"])
        seen["reveal"] += bool(revealed)
        seen["revealed_pay"] += bool(paid)
    # The rounds reach every part of the settlement, often.
    assert min(seen.values()) > ROUNDS // 40, seen
