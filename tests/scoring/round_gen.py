"""Random valid 血战到底 rounds (settle request bodies) for the property tests.

A round is drawn step by step with hypothesis: kongs (direct, added, concealed), wins
(self-draw or discard, 杠上开花 / 杠上炮 when they follow a kong, now and then a 抢杠 of the
added kong just made, and on request more winners of a discard just won, 一炮多响) and, at
the end, maybe a draw that shows every hand not yet won (ready, not ready, or a pig with
three suits, passive or not). Every tile comes out of one pool of four copies per kind, so
the round never holds a fifth copy (a discard won by several seats is one tile); each seat
keeps to its own two suits (its kongs included) so that its wins are legal; a hand declares
exactly its seat's kongs, and a seat whose added kong was robbed shows that pung.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from app.rules.settlement import KONG_DISCARD_MODES

SUITS = "mps"
N = 27  # the suits tile set: 1m..9m, 1p..9p, 1s..9s here (indices only used inside)


def code(t: int) -> str:
    return f"{t % 9 + 1}{SUITS[t // 9]}"


def suit_tiles(suits: str) -> list[int]:
    return [t for t in range(N) if SUITS[t // 9] in suits]


class _Seat:
    def __init__(self, suits: str) -> None:
        self.suits = suits
        self.kongs: list[tuple[int, bool]] = []  # (tile, concealed)
        self.pungs: list[int] = []  # a robbed added kong stays a pung

    def melds(self) -> list[dict[str, Any]]:
        out = [{"kind": "kong", "tiles": f"{(t % 9 + 1) * 1111}{SUITS[t // 9]}",
                "concealed": c} for t, c in self.kongs]
        out += [{"kind": "pung", "tiles": f"{(t % 9 + 1) * 111}{SUITS[t // 9]}"}
                for t in self.pungs]
        return out

    def n_melds(self) -> int:
        return len(self.kongs) + len(self.pungs)


def _sets(draw: Any, pool: list[int], tiles: list[int], n: int,
          must: int | None = None) -> list[list[int]] | None:
    """`n` sets (pungs or chows) and nothing else, taken out of `pool`; with `must`, the
    first set is a chow holding that tile."""
    out: list[list[int]] = []
    for k in range(n):
        options: list[list[int]] = []
        for t in tiles:
            if k == 0 and must is not None:
                if t % 9 <= 6 and t <= must <= t + 2 and all(pool[t + j] for j in range(3)):
                    options.append([t, t + 1, t + 2])
                continue
            if pool[t] >= 3:
                options.append([t, t, t])
            if t % 9 <= 6 and all(pool[t + j] for j in range(3)):
                options.append([t, t + 1, t + 2])
        if not options:
            return None
        chosen = draw(st.sampled_from(options))
        for t in chosen:
            pool[t] -= 1
        out.append(chosen)
    return out


def _complete(draw: Any, pool: list[int], seat: _Seat,
              must: int | None = None) -> tuple[list[int], list[int]] | None:
    """A complete hand for the seat: (standing tiles, declared pungs among them are left to
    the caller) out of a copy of the pool; None when the pool cannot make one."""
    trial = list(pool)
    tiles = suit_tiles(seat.suits)
    sets = _sets(draw, trial, tiles, 4 - seat.n_melds(), must)
    if sets is None:
        return None
    pairs = [t for t in tiles if trial[t] >= 2]
    if not pairs:
        return None
    pair = draw(st.sampled_from(pairs))
    trial[pair] -= 2
    standing = [t for s in sets for t in s] + [pair, pair]
    return standing, trial


def _hand(seat: _Seat, standing: list[int], win_tile: int | None) -> dict[str, Any]:
    hand: dict[str, Any] = {"concealed": [code(t) for t in standing], "melds": seat.melds()}
    if win_tile is not None:
        hand["win_tile"] = code(win_tile)
    return hand


@st.composite
def rounds(draw: Any, players: int = 4, shared_discards: bool = False) -> dict[str, Any]:
    """A settle request body for `sichuan` or `chengdu` (the caller picks the rule set; the
    options here are valid for both unless `chengdu` ones are added by the caller). With
    `shared_discards`, a discard win right after a kong is as often as not on the kong maker's
    discard (杠上炮), a discard just won is as often as not won by another seat too (一炮多响),
    and the options may choose `gang_shang_pao_kong_money`; without, the rounds are those the
    benchmarks measured."""
    pool = [4] * N
    seats = [_Seat(draw(st.sampled_from(["mp", "ms", "ps", "m", "p", "s"])))
             for _ in range(players)]
    won: list[int] = []
    events: list[dict[str, Any]] = []
    prev: dict[str, Any] | None = None
    for _ in range(draw(st.integers(0, 9))):
        active = [s for s in range(players) if s not in won]
        # After a discard win, as often as not another seat wins that discard too.
        won_discard = (prev is not None and prev["type"] == "win"
                       and prev["context"]["win_type"] == "discard")
        if shared_discards and won_discard and draw(st.booleans()):
            action = "also"
        else:
            action = draw(st.sampled_from(["kong", "kong", "win", "rob"]))
        if action == "kong":
            seat = draw(st.sampled_from(active))
            free = [t for t in suit_tiles(seats[seat].suits) if pool[t] == 4]
            if seats[seat].n_melds() >= 4 or not free:
                continue
            tile = draw(st.sampled_from(free))
            kind = draw(st.sampled_from(["direct", "added", "concealed"]))
            event: dict[str, Any] = {"type": "kong", "seat": seat, "kind": kind,
                                     "tile": code(tile)}
            if kind == "direct":
                others = [s for s in active if s != seat]
                event["discarder"] = draw(st.sampled_from(others))
            if kind == "added":
                event["fresh"] = draw(st.booleans())
            pool[tile] = 0
            seats[seat].kongs.append((tile, kind == "concealed"))
            events.append(event)
            prev = event
            continue
        if action == "also":
            # 一炮多响: another seat wins the tile of the discard just won (杠上炮 and 抢杠
            # flags and all); the discarded tile is one tile, shared by the winners.
            assert prev is not None
            discarder = prev["context"]["discarder"]
            tile = next(t for t in range(N) if code(t) == prev["hand"]["win_tile"])
            others = [s for s in active if s != discarder
                      and SUITS[tile // 9] in seats[s].suits and seats[s].n_melds() < 4]
            if not others:
                continue
            seat = draw(st.sampled_from(others))
            pool[tile] += 1  # the shared discard, for this hand only
            made = _complete(draw, pool, seats[seat], must=tile)
            pool[tile] -= 1
            if made is None:
                continue
            standing, rest = made
            pool[:] = rest
            event = {"type": "win", "seat": seat, "hand": _hand(seats[seat], standing, tile),
                     "context": dict(prev["context"])}
            events.append(event)
            prev = event
            won.append(seat)
            if len(won) == players - 1:
                break
            continue
        if action == "rob":
            # 抢杠: right after an added kong, another seat wins on the added tile.
            if prev is None or prev["type"] != "kong" or prev["kind"] != "added":
                continue
            maker = prev["seat"]
            tile = next(t for t in range(N) if code(t) == prev["tile"])
            robbers = [s for s in active if s != maker
                       and SUITS[tile // 9] in seats[s].suits and seats[s].n_melds() < 4]
            if not robbers:
                continue
            seat = draw(st.sampled_from(robbers))
            pool[tile] += 1  # the robbed tile, for the robber's hand only
            made = _complete(draw, pool, seats[seat], must=tile)
            pool[tile] -= 1
            if made is None:
                continue
            standing, rest = made
            rest[tile] = 0
            pool[:] = rest
            seats[maker].kongs.remove((tile, False))
            seats[maker].pungs.append(tile)
            event = {"type": "win", "seat": seat, "hand": _hand(seats[seat], standing, tile),
                     "context": {"win_type": "discard", "discarder": maker, "kong": "robbed"}}
            events.append(event)
            prev = event
            won.append(seat)
        else:
            seat = draw(st.sampled_from(active))
            made = _complete(draw, pool, seats[seat])
            if made is None:
                continue
            standing, rest = made
            pool[:] = rest
            win_tile = draw(st.sampled_from(standing))
            others = [s for s in active if s != seat]
            context: dict[str, Any]
            if draw(st.booleans()):
                context = {"win_type": "self_draw"}
                if prev is not None and prev["type"] == "kong" and prev["seat"] == seat:
                    context["kong"] = "replacement"
            else:
                # Right after a kong, as often as not on its maker's discard (杠上炮).
                maker = prev["seat"] if prev is not None and prev["type"] == "kong" else None
                if shared_discards and maker in others and draw(st.booleans()):
                    discarder = maker
                else:
                    discarder = draw(st.sampled_from(others))
                context = {"win_type": "discard", "discarder": discarder}
                if prev is not None and prev["type"] == "kong" and prev["seat"] == discarder:
                    context["kong"] = "after_kong_discard"
            if draw(st.integers(0, 9)) == 0:
                context["last_tile"] = True
            event = {"type": "win", "seat": seat,
                     "hand": _hand(seats[seat], standing, win_tile), "context": context}
            events.append(event)
            prev = event
            won.append(seat)
        if len(won) == players - 1:
            break
    if len(won) < players - 1 and draw(st.booleans()):
        hands = []
        for seat in (s for s in range(players) if s not in won):
            entry = _draw_hand(draw, pool, seats[seat])
            entry["seat"] = seat
            hands.append(entry)
        events.append({"type": "draw", "hands": draw(st.permutations(hands))})
    options: dict[str, Any] = {}
    if draw(st.booleans()):
        options["base"] = draw(st.integers(1, 5))
    if draw(st.booleans()):
        options["self_draw"] = draw(st.sampled_from(["add_base", "add_fan"]))
    if draw(st.booleans()):
        options["cap"] = draw(st.sampled_from([3, 4, 5, "none"]))
    if shared_discards and draw(st.booleans()):
        options["gang_shang_pao_kong_money"] = draw(st.sampled_from(KONG_DISCARD_MODES))
    return {"options": options, "events": events}


def _draw_hand(draw: Any, pool: list[int], seat: _Seat) -> dict[str, Any]:
    """A hand one tile short at the draw: a complete hand less a tile (usually ready),
    random tiles of the seat's suits (usually not), or a pig holding all three suits."""
    need = 13 - 3 * seat.n_melds()
    style = draw(st.sampled_from(["ready", "random", "pig"]))
    if style == "ready":
        made = _complete(draw, pool, seat)
        if made is not None:
            standing, rest = made
            standing.remove(draw(st.sampled_from(standing)))
            pool[:] = rest
            return {"hand": _hand(seat, standing, None)}
    suits = SUITS if style == "pig" else seat.suits
    tiles = suit_tiles(suits)
    standing = []
    if style == "pig":
        # One tile of each suit first, so that the hand surely holds all three.
        for s in SUITS:
            avail = [t for t in suit_tiles(s) if pool[t]]
            if avail and len(standing) < need:
                t = draw(st.sampled_from(avail))
                pool[t] -= 1
                standing.append(t)
    while len(standing) < need:
        avail = [t for t in tiles if pool[t]] or [t for t in range(N) if pool[t]]
        t = draw(st.sampled_from(avail))
        pool[t] -= 1
        standing.append(t)
    entry: dict[str, Any] = {"hand": _hand(seat, standing, None)}
    three = len({t // 9 for t in standing} | {t // 9 for t, _ in seat.kongs}
                | {t // 9 for t in seat.pungs}) == 3
    if three and draw(st.booleans()):
        entry["passive_pig"] = True
    return entry
