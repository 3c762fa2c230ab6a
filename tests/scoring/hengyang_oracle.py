"""An independent brute-force arranger for 衡阳六胡抢 (the `hengyang` word-card rule set).

Written from the rules alone; it imports nothing from `app/` and shares no code with the
engine, so the engine's arrangement search can be checked against it.

Rules it applies (stated here so that the oracle can be read on its own):

- Cards are `1x`..`10x` (small 一..十) and `1d`..`10d` (big 壹..拾).
- Every card of the finished hand, table groups included, is in exactly one group. Table groups
  are fixed; the hand (the cards held plus the winning card W) is arranged.
- Hand groups: 坎 (3 identical held cards), 句 (three consecutive ranks of one case, or 2-7-10
  of one case, or 1-5-10 of one case with `yi_wu_shi`), 绞 (two of a rank in one case and one of
  that rank in the other case), a pair (2 identical), and the groups W makes with held copies:
  偎/碰 (2 held + W) and 提/跑 (3 held + W).
- Where W may go, by win type (the placement table):
  - W the 3rd of a held pair: self-draw -> must 偎 (unless `forced_wei` is off, then also
    free); flip or discard -> 碰 in the hand, or free.
  - W the 4th of a held 坎: self-draw -> must 提; flip or discard -> 跑, or keep the 坎 and use
    W freely.
  - W the 4th of a table 偎: self-draw -> the 偎 becomes 提; otherwise it becomes 跑, or W free.
  - W the 4th of a table 碰: self-draw -> 跑; flip -> 跑 or W free; discard -> W free only.
  - otherwise W is free: an ordinary hand card (it may sit in a 句, a 绞 or the pair, never in
    a 3- or 4-of-a-kind, which are the placements above).
- A held count of 3 is locked: those three cards form one 坎.
- Pair rule: exactly one pair when the finished hand holds a 4-card group (提 or 跑, table or
  made by W); no pair otherwise. All other hand groups have three cards.
- 胡息: 提 12/9, 跑 9/6, 偎 and 坎 6/3, 碰 3/1, the 句 1-2-3, 2-7-10 (and 1-5-10) 6/3, for big /
  small; every other 句, 绞 and the pair 0. A table 吃 counts like the same 句.

The hand search is an exhaustive partition enumeration: take the first remaining card, try
every group of 2, 3 or 4 cards containing it from the remaining cards (identical choices
counted once), recurse; each group is checked against the shapes and the locked 坎 as it is
formed, and the pair rule when the hand is used up.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from itertools import combinations

CODES: list[str] = [f"{r}{c}" for c in "xd" for r in range(1, 11)]
RED_RANKS = frozenset({2, 7, 10})
TABLE_KINDS = frozenset({"ti", "pao", "wei", "peng", "chi"})
WIN_TYPES = ("self_draw", "flip", "discard")

Group = tuple[str, tuple[str, ...]]


def rank(code: str) -> int:
    return int(code[:-1])


def case(code: str) -> str:
    return code[-1]


def card_key(code: str) -> tuple[int, int]:
    """Rank order, small before big at the same rank."""
    return rank(code), 0 if case(code) == "x" else 1


def sort_cards(cards: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=card_key))


def compact(cards: list[str] | tuple[str, ...]) -> str:
    """Compact notation: one case -> digits then letter; mixed cases -> card by card."""
    ordered = sort_cards(cards)
    cases = {case(c) for c in ordered}
    if len(cases) == 1:
        return "".join(str(rank(c)) for c in ordered) + ordered[0][-1]
    return "".join(ordered)


def group_text(group: Group) -> str:
    return f"{group[0]} {compact(group[1])}"


def parse_compact(text: str) -> list[str]:
    """Codes of a compact string such as `123d 2710x 9x9d`; raises ValueError when malformed."""
    out: list[str] = []
    for token in text.split():
        ranks: list[int] = []
        i = 0
        while i < len(token):
            ch = token[i]
            if ch in "xd":
                if not ranks:
                    raise ValueError(f"a case letter with no rank in {token!r}")
                out.extend(f"{r}{ch}" for r in ranks)
                ranks = []
                i += 1
            elif ch == "1" and token[i + 1:i + 2] == "0":
                ranks.append(10)
                i += 2
            elif ch in "123456789":
                ranks.append(int(ch))
                i += 1
            else:
                raise ValueError(f"bad character {ch!r} in {token!r}")
        if ranks:
            raise ValueError(f"ranks with no case letter in {token!r}")
    return out


def parse_whole_hand(text: str) -> tuple[list[str], list[tuple[str, list[str]]], str]:
    """A whole-hand string -> (hand cards incl. W, table groups, W). `{}` four = ti, three = wei;
    `[]` four = pao, three identical = peng, otherwise chi."""
    table: list[tuple[str, list[str]]] = []
    loose: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "[{":
            close = "]" if ch == "[" else "}"
            j = text.index(close, i)
            cards = parse_compact(text[i + 1:j])
            same = len(set(cards)) == 1
            if ch == "{":
                kind = "ti" if len(cards) == 4 else "wei"
            elif same and len(cards) == 4:
                kind = "pao"
            elif same and len(cards) == 3:
                kind = "peng"
            else:
                kind = "chi"
            table.append((kind, cards))
            i = j + 1
        else:
            j = i
            while j < len(text) and text[j] not in "[{":
                j += 1
            loose.append(text[i:j])
            i = j
    hand = parse_compact(" ".join(loose))
    return hand, table, hand[-1]


# --- group shapes and 胡息 ------------------------------------------------------------------

def is_shun(cards: tuple[str, ...], yi_wu_shi: bool) -> bool:
    if len(cards) != 3 or len({case(c) for c in cards}) != 1:
        return False
    ranks = sorted(rank(c) for c in cards)
    if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1:
        return True
    if ranks == [2, 7, 10]:
        return True
    return yi_wu_shi and ranks == [1, 5, 10]


def is_jiao(cards: tuple[str, ...]) -> bool:
    if len(cards) != 3 or len({rank(c) for c in cards}) != 1:
        return False
    return sorted(Counter(case(c) for c in cards).values()) == [1, 2]


def shun_huxi(cards: tuple[str, ...]) -> int:
    ranks = sorted(rank(c) for c in cards)
    big = case(cards[0]) == "d"
    if ranks in ([1, 2, 3], [2, 7, 10], [1, 5, 10]):
        return 6 if big else 3
    return 0


IDENTICAL_HUXI = {"ti": (12, 9), "pao": (9, 6), "wei": (6, 3), "kan": (6, 3), "peng": (3, 1)}


def group_huxi(group: Group) -> int:
    kind, cards = group
    if kind in IDENTICAL_HUXI:
        big, small = IDENTICAL_HUXI[kind]
        return big if case(cards[0]) == "d" else small
    if kind in ("shun", "chi"):
        return shun_huxi(cards) if len({case(c) for c in cards}) == 1 else 0
    return 0  # jiao, pair


def valid_table_group(kind: str, cards: list[str], yi_wu_shi: bool = False) -> bool:
    t = tuple(cards)
    if kind in ("ti", "pao"):
        return len(t) == 4 and len(set(t)) == 1
    if kind in ("wei", "peng"):
        return len(t) == 3 and len(set(t)) == 1
    if kind == "chi":
        return is_shun(t, yi_wu_shi) or is_jiao(t)
    return False


# --- the hand search ------------------------------------------------------------------------

# A hand card in the search: (code, is_w). W is kept apart from held copies of its code so that
# a 3-of-a-kind can be told from a 坎 of held cards.
Token = tuple[str, bool]


def _free_group_kind(tokens: tuple[Token, ...], held: Counter[str], yi_wu_shi: bool) -> str | None:
    """The kind of a group formed in the free part of the hand, or None when it is not one."""
    codes = tuple(c for c, _ in tokens)
    size = len(codes)
    if size == 4:
        return None  # four identical only as the 提/跑 placement of W
    if size == 2:
        return "pair" if codes[0] == codes[1] else None
    if len(set(codes)) == 1:
        # three identical: a 坎 only of held cards; with W it is the 偎/碰 placement instead
        return "kan" if not any(w for _, w in tokens) else None
    if is_shun(codes, yi_wu_shi):
        return "shun"
    if is_jiao(codes):
        return "jiao"
    return None


def _locked_ok(tokens: tuple[Token, ...], kind: str, held: Counter[str]) -> bool:
    """A held card whose code is held three times may only sit in that code's 坎."""
    for code, is_w in tokens:
        if not is_w and held[code] == 3 and kind != "kan":
            return False
    return True


def _partitions(tokens: list[Token], held: Counter[str], yi_wu_shi: bool,
                pairs_left: int) -> Iterator[list[Group]]:
    """Every partition of `tokens` into valid groups with exactly `pairs_left` pairs."""
    if not tokens:
        if pairs_left == 0:
            yield []
        return
    first, rest = tokens[0], tokens[1:]
    for size in (2, 3, 4):
        seen: set[tuple[Token, ...]] = set()
        for idx in combinations(range(len(rest)), size - 1):
            chosen = tuple(sorted((first, *(rest[i] for i in idx))))
            if chosen in seen:
                continue
            seen.add(chosen)
            kind = _free_group_kind(chosen, held, yi_wu_shi)
            if kind is None or not _locked_ok(chosen, kind, held):
                continue
            if kind == "pair" and pairs_left == 0:
                continue
            remaining = [t for i, t in enumerate(rest) if i not in idx]
            group: Group = (kind, sort_cards([c for c, _ in chosen]))
            for tail in _partitions(remaining, held, yi_wu_shi,
                                    pairs_left - (kind == "pair")):
                yield [group, *tail]


def _placements(held: Counter[str], table: list[tuple[str, list[str]]], w: str, win_type: str,
                forced_wei: bool) -> Iterator[tuple[list[Group], Group | None, bool]]:
    """Where W may go: (table groups after the placement, the hand group W made or None,
    whether W stays a free hand card)."""
    base: list[Group] = [(k, sort_cards(cs)) for k, cs in table]
    h = held[w]
    own_table = [i for i, (k, cs) in enumerate(table) if k in ("wei", "peng") and cs[0] == w]
    if h == 2:
        if win_type == "self_draw":
            yield base, ("wei", (w, w, w)), False
            if not forced_wei:
                yield base, None, True
        else:
            yield base, ("peng", (w, w, w)), False
            yield base, None, True
        return
    if h == 3:
        if win_type == "self_draw":
            yield base, ("ti", (w, w, w, w)), False
        else:
            yield base, ("pao", (w, w, w, w)), False
            yield base, None, True
        return
    if own_table:
        i = own_table[0]
        kind = table[i][0]
        upgraded = list(base)
        if kind == "wei":
            upgraded[i] = ("ti" if win_type == "self_draw" else "pao", (w, w, w, w))
            yield upgraded, None, False
            if win_type != "self_draw":
                yield base, None, True
        else:  # peng
            if win_type in ("self_draw", "flip"):
                upgraded[i] = ("pao", (w, w, w, w))
                yield upgraded, None, False
            if win_type != "self_draw":
                yield base, None, True
        return
    yield base, None, True


def arrangements(hand: list[str], table: list[tuple[str, list[str]]], win_card: str,
                 win_type: str, yi_wu_shi: bool = False,
                 forced_wei: bool = True) -> Iterator[tuple[int, list[Group]]]:
    """Every legal arrangement of the finished hand with its total 胡息."""
    if win_type not in WIN_TYPES:
        raise ValueError(f"unknown win type {win_type!r}")
    if win_card not in hand:
        return
    held_list = list(hand)
    held_list.remove(win_card)
    held = Counter(held_list)
    if any(n >= 4 for n in held.values()):
        return  # an undeclared 提 in hand: not a real hand
    for table_groups, w_group, w_free in _placements(held, table, win_card, win_type,
                                                     forced_wei):
        tokens: list[Token] = [(c, False) for c in held_list]
        if w_group is not None:
            for _ in range(len(w_group[1]) - 1):
                tokens.remove((win_card, False))
        if w_free:
            tokens.append((win_card, True))
        tokens.sort()
        fours = sum(1 for k, _ in table_groups if k in ("ti", "pao"))
        fours += 1 if w_group is not None and w_group[0] in ("ti", "pao") else 0
        pairs = 1 if fours >= 1 else 0
        fixed = table_groups + ([w_group] if w_group is not None else [])
        for part in _partitions(tokens, held, yi_wu_shi, pairs):
            groups = fixed + part
            yield sum(group_huxi(g) for g in groups), groups


def canonical(groups: list[Group]) -> list[str]:
    return sorted(group_text(g) for g in groups)


def best_arrangement(hand: list[str], table: list[tuple[str, list[str]]], win_card: str,
                     win_type: str, yi_wu_shi: bool = False,
                     forced_wei: bool = True) -> tuple[int, list[Group]] | None:
    """The highest total 胡息 and one arrangement reaching it (the canonically first), or None
    when the hand cannot be arranged."""
    best: tuple[int, list[str], list[Group]] | None = None
    for huxi, groups in arrangements(hand, table, win_card, win_type, yi_wu_shi, forced_wei):
        key = canonical(groups)
        if best is None or huxi > best[0] or (huxi == best[0] and key < best[1]):
            best = (huxi, key, groups)
    if best is None:
        return None
    return best[0], best[2]


def best_arrangements(hand: list[str], table: list[tuple[str, list[str]]], win_card: str,
                      win_type: str, yi_wu_shi: bool = False,
                      forced_wei: bool = True) -> tuple[int, list[list[str]]] | None:
    """The highest 胡息 and every distinct arrangement (as canonical group texts) reaching it."""
    found: dict[int, set[tuple[str, ...]]] = {}
    for huxi, groups in arrangements(hand, table, win_card, win_type, yi_wu_shi, forced_wei):
        found.setdefault(huxi, set()).add(tuple(canonical(groups)))
    if not found:
        return None
    top = max(found)
    return top, [list(g) for g in sorted(found[top])]


# --- random requests ------------------------------------------------------------------------

def _table_group(rng: random.Random, pool: Counter[str]) -> tuple[str, list[str]] | None:
    kind = rng.choice(["ti", "pao", "wei", "peng", "chi", "chi"])
    if kind in ("ti", "pao", "wei", "peng"):
        size = 4 if kind in ("ti", "pao") else 3
        options = [c for c in CODES if pool[c] >= size]
        if not options:
            return None
        c = rng.choice(options)
        return kind, [c] * size
    cards = _random_three(rng, pool, allow_kan=False)
    return ("chi", cards) if cards else None


def _random_three(rng: random.Random, pool: Counter[str], allow_kan: bool) -> list[str] | None:
    """A random 句, 绞 or (if allowed) 3-of-a-kind that the pool can still supply."""
    for _ in range(20):
        shape = rng.random()
        cs = rng.choice("xd")
        if shape < 0.45:
            r = rng.randint(1, 8)
            cards = [f"{r}{cs}", f"{r + 1}{cs}", f"{r + 2}{cs}"]
        elif shape < 0.6:
            cards = [f"2{cs}", f"7{cs}", f"10{cs}"]
        elif shape < 0.75:
            r = rng.randint(1, 10)
            other = "d" if cs == "x" else "x"
            cards = [f"{r}{cs}", f"{r}{cs}", f"{r}{other}"]
        elif allow_kan:
            r = rng.randint(1, 10)
            cards = [f"{r}{cs}"] * 3
        else:
            continue
        need = Counter(cards)
        if all(pool[c] >= n for c, n in need.items()):
            return cards
    return None


def random_request(rng: random.Random, win_type: str, deal: int = 15) -> dict[str, object]:
    """A random request that the rules accept as a real hand (about half of them winning);
    `deal`: the cards of a hand without 4-card table groups (15, or 21)."""
    while True:
        req = _try_request(rng, win_type, deal)
        if req is not None:
            return req


def _try_request(rng: random.Random, win_type: str, deal: int = 15
                 ) -> dict[str, object] | None:
    pool: Counter[str] = Counter({c: 4 for c in CODES})
    table: list[tuple[str, list[str]]] = []
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        g = _table_group(rng, pool)
        if g is None:
            continue
        if sum(len(cs) == 4 for _, cs in table) + (len(g[1]) == 4) > 2:
            continue
        table.append(g)
        pool.subtract(g[1])
    t = sum(1 for _, cs in table if len(cs) == 4)
    total = deal + max(0, t - 1)
    need = total - sum(len(cs) for _, cs in table)
    if need < 2:
        return None
    hand: list[str] = []
    if rng.random() < 0.7:
        # built from groups: a pair when a 4-card group is on the table, then 3-card groups
        if need % 3 == 2:
            options = [c for c in CODES if pool[c] >= 2]
            c = rng.choice(options)
            hand += [c, c]
            pool[c] -= 2
        while len(hand) < need:
            cards = _random_three(rng, pool, allow_kan=True)
            if cards is None:
                return None
            hand += cards
            pool.subtract(cards)
        if len(hand) != need:
            return None
        if rng.random() < 0.2:
            i = rng.randrange(len(hand))
            options = [c for c in CODES if pool[c] > 0 and c != hand[i]]
            new = rng.choice(options)
            pool[hand[i]] += 1
            pool[new] -= 1
            hand[i] = new
    else:
        for _ in range(need):
            options = [c for c in CODES if pool[c] > 0]
            c = rng.choice(options)
            hand.append(c)
            pool[c] -= 1
    rng.shuffle(hand)
    counts = Counter(hand)
    fours = [c for c, n in counts.items() if n == 4]
    if len(fours) > 1:
        return None
    win = fours[0] if fours else rng.choice(hand)
    # W goes last, as the winning card is written last
    hand.remove(win)
    hand.append(win)
    winner = rng.randrange(4)
    others = [s for s in range(4) if s != winner]
    context: dict[str, object] = {"win_type": win_type, "winner": winner,
                                  "dealer": rng.randrange(4), "discarder": None,
                                  "flipper": None}
    if win_type == "discard":
        context["discarder"] = rng.choice(others)
    elif win_type == "flip":
        context["flipper"] = rng.choice(others)
    return {
        "hand": {"cards": hand,
                 "groups": [{"kind": k, "cards": compact(cs)} for k, cs in table],
                 "win_card": win},
        "context": context,
    }


def request_args(req: dict[str, object]) -> tuple[list[str], list[tuple[str, list[str]]], str,
                                                   str]:
    """(hand, table, win_card, win_type) of a request in the object form made above."""
    hand_obj = req["hand"]
    ctx = req["context"]
    assert isinstance(hand_obj, dict) and isinstance(ctx, dict)
    cards = hand_obj["cards"]
    hand = parse_compact(cards) if isinstance(cards, str) else list(cards)
    table = [(g["kind"], parse_compact(g["cards"])) for g in hand_obj.get("groups", [])]
    return hand, table, hand_obj["win_card"], ctx["win_type"]
