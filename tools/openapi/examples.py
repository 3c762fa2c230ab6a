"""The contract's examples: the requests (as data) whose answers `build.py` computes by sending
them through the app, and the few answers no request makes at generation time.

Each example is posted to the operation's rule set (mcr for the tile games' scoring, sichuan
for a round) unless it names another; an example named `explained_...` is posted with
`?explain=true`. The answers' summaries say what the answer shows: they are checked by reading,
the answers themselves by the app.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Example:
    """An example request and the answer the app gives it (computed when the document is
    written). `summary` None: only the answer is shown (the request is not a valid body, or
    not of this operation's examples). `data`: a body sent as it is (not JSON), with
    `headers`."""

    name: str
    summary: str | None
    body: Any
    answer: str
    ruleset: str | None = None  # the rule set posted to; None: the operation's own
    explain: bool = False  # posted with ?explain=true
    data: bytes | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    path: str | None = None  # another path than the operation's (an unknown rule set)
    trim: Callable[[Any], Any] | None = None  # shortens the answer shown (its summary says how)


@dataclass(frozen=True)
class Fixed:
    """An example answer no request makes at generation time (a timeout, a failure): as data."""

    name: str
    summary: str
    value: Any


def svg_head(answer: Any) -> Any:
    """A picture shortened to its head: the SVG element, its title and its description (what
    it shows in words), its drawing left out. A problem document stays whole."""
    if not isinstance(answer, str):
        return answer
    end = answer.index("</desc>") + len("</desc>")
    return answer[:end] + " …</svg>\n"


def three_fans(document: dict[str, Any]) -> dict[str, Any]:
    """A rule set's document with three of its fans."""
    keep = ("big_four_winds", "nine_gates", "pung_of_terminals_or_honors")
    return {**document, "fans": [f for f in document["fans"] if f["id"] in keep]}

# scoreHand
SCORE = (
    Example(
        'explained_big_three_dragons',
        ("Posted with ?explain=true: 大三元 won on a discard, and why its three 箭刻 are not "
         "counted"),
        {'hand': '[CCC][FFF]PPP123m5p5p', 'context': {'win_type': 'discard', 'discarder': 1}},
        answer=("大三元 88 + 缺一门 1 + 单钓 1 = 90; explained: its three 箭刻 are left out by "
                "大三元 (不计)"),
        explain=True,
    ),
    Example(
        'nine_gates',
        '九莲宝灯 won on a discard from seat 2',
        {'hand': {'concealed': '1112345678999m5m', 'melds': [], 'win_tile': '5m'},
         'context': {'win_type': 'discard',
                     'kong': None,
                     'last_tile': False,
                     'last_of_kind': False,
                     'seat_wind': 'E',
                     'round_wind': 'E',
                     'flowers': 0,
                     'wild_indicator': None,
                     'winner': 0,
                     'discarder': 2,
                     'dealer': 0,
                     'options': {}}},
        answer='九莲宝灯 88 + 双暗刻 2 + 幺九刻 1 = 91',
    ),
    Example(
        'with_melds',
        '清龙 and 混一色 with a chow and a pung of East declared',
        {'hand': {'concealed': '456789m55m',
                  'melds': [{'kind': 'chow', 'tiles': '123m', 'concealed': False},
                            {'kind': 'pung', 'tiles': 'EEE', 'concealed': False}],
                  'win_tile': '5m'},
         'context': {'win_type': 'discard', 'discarder': 3}},
        answer='清龙 16 + 混一色 6 + 圈风刻 2 + 门风刻 2 + 独听・嵌张 1 = 27',
    ),
    Example(
        'notation',
        'The same hand in whole-hand notation',
        {'hand': '[123m][EEE,3]4567895m5m', 'context': {'win_type': 'discard', 'discarder': 3}},
        answer='清龙 16 + 混一色 6 + 圈风刻 2 + 门风刻 2 + 独听・嵌张 1 = 27',
    ),
    Example(
        'not_winning',
        'A complete hand under the 8-fan minimum',
        {'hand': '123456m234p678s5s5s', 'context': {'win_type': 'discard', 'discarder': 1}},
        answer='门前清 2 + 平和 2 + 连六 1 = 5, under the minimum of 8',
    ),
    Example(
        'five_copies',
        'Five 1m (answered 422 too_many_copies)',
        {'hand': '11111m234567899m', 'context': {'win_type': 'self_draw'}},
        answer='Five copies of a tile',
    ),
    Example(
        'unknown_tile',
        'A tile that does not exist (answered 422 unknown_tile, with its position)',
        {'hand': '1112345678999m0m', 'context': {'win_type': 'self_draw'}},
        answer='An unknown tile in a notation string, with its position',
    ),
    Example(
        'tianjin_dealer',
        ("天津 (posted to tianjin): 双混儿捉五本混儿龙 under the tjmj table, seat 1 wins, the "
         "dealer sits and seat 1 pulls once"),
        {'hand': '123m44m789m777pEE5m',
         'context': {'win_type': 'self_draw',
                     'wild_indicator': '3m',
                     'winner': 1,
                     'dealer': 0,
                     'options': {'table': 'tjmj', 'dealer_sits': True, 'pulls': [0, 1, 0, 0]}}},
        answer=("tjmj: (捉五 3 + 龙 4) × 混儿吊 2 × 本混 2 = 28 points (fan_total stays the 番: "
                "5); the dealer pays 28 × 2 (坐庄) × 2 (one pull) = 112, the others 28"),
        ruleset='tianjin',
    ),
    Example(
        'kawuxing_baohu',
        "卡五星 (posted to kawuxing): seat 0 has revealed (亮倒) and wins on seat 2's C: 包胡",
        {'hand': '[999p]222s777p33pCCC',
         'context': {'win_type': 'discard', 'discarder': 2, 'options': {'revealed': [1, 0, 0]}}},
        answer=("碰碰胡 + 亮倒 = 2 番, one share ×4; 包胡: the discarder pays both others' shares "
                "(8), the third player nothing; three seats"),
        ruleset='kawuxing',
    ),
    Example(
        'tianjin_dealer_pulls',
        ("天津 (posted to tianjin): the dealer's own 拉庄 entry is not 0 (answered 422 "
         "invalid_option, pointing at the entry)"),
        {'hand': '123m44m789m777pEE5m',
         'context': {'win_type': 'self_draw',
                     'wild_indicator': '3m',
                     'winner': 1,
                     'dealer': 0,
                     'options': {'pulls': [1, 0, 0, 0]}}},
        answer="A per-seat option's entry that the dealer may not have",
        ruleset='tianjin',
    ),
)

# listWaits
WAITS = (
    Example(
        'nine_gates',
        '1112345678999m standing (九莲宝灯), won on a discard from seat 2',
        {'hand': '1112345678999m', 'context': {'win_type': 'discard', 'discarder': 2}},
        answer=("Nine waits, 1m to 9m, each 九莲宝灯; the best is 1m (or 9m): 九莲宝灯 88 + 清龙 "
                "16 + 四归一 2 = 106"),
    ),
    Example(
        'one_wait',
        'A chow and a pung of East declared, 4567895m standing',
        {'hand': {'concealed': '4567895m',
                  'melds': [{'kind': 'chow', 'tiles': '123m', 'concealed': False},
                            {'kind': 'pung', 'tiles': 'EEE', 'concealed': False}]},
         'context': {'win_type': 'discard', 'discarder': 3}},
        answer='One wait, 5m: 清龙 16 + 混一色 6 + 圈风刻 2 + 门风刻 2 + 独听・嵌张 1 = 27',
    ),
    Example(
        'notation',
        'The same hand in whole-hand notation (every tile outside brackets is standing)',
        {'hand': '[123m][EEE,3]4567895m', 'context': {'win_type': 'discard', 'discarder': 3}},
        answer='One wait, 5m: 清龙 16 + 混一色 6 + 圈风刻 2 + 门风刻 2 + 独听・嵌张 1 = 27',
    ),
    Example(
        'below_minimum',
        'Ready, but no completing tile reaches the 8-fan minimum',
        {'hand': '123456m234p678s5s', 'context': {'win_type': 'discard', 'discarder': 1}},
        answer=("Ready on 5s and 8s, neither a legal win (门前清 2 + 平和 2 + 连六 1 = 5 < 8): "
                "best is null"),
    ),
    Example(
        'not_ready',
        'No tile completes this hand',
        {'hand': '1112345678m9pEE', 'context': {'win_type': 'self_draw'}},
        answer='Not ready',
    ),
    Example(
        'five_copies',
        'Five 1m (answered 422 too_many_copies)',
        {'hand': '11111m23456789m', 'context': {'win_type': 'self_draw'}},
        answer='Five copies of a tile',
    ),
    Example(
        'wrong_tile_count',
        'A complete 14-tile hand (answered 422 wrong_tile_count)',
        {'hand': '1112345678999m5m', 'context': {'win_type': 'self_draw'}},
        answer='14 standing tiles',
    ),
)

# scoreHands
SCORE_BATCH = (
    Example(
        'three_hands',
        'A win, a hand under the minimum and a request with an unknown tile',
        {'requests': [{'hand': '[123m][EEE,3]4567895m5m',
                       'context': {'win_type': 'discard', 'discarder': 3}},
                      {'hand': '123456m234p678s5s5s',
                       'context': {'win_type': 'discard', 'discarder': 1}},
                      {'hand': '1112345678999m0m', 'context': {'win_type': 'self_draw'}}]},
        answer=("清龙 16 + 混一色 6 + 圈风刻 2 + 门风刻 2 + 嵌张 1 = 27; 5 fan, under the "
                "minimum; 0m refused"),
    ),
)

# listWaitsOfHands
WAITS_BATCH = (
    Example(
        'two_hands',
        'A hand waiting on 5s alone, and a hand two tiles short',
        {'requests': [{'hand': '123m456m789m123p5s',
                       'context': {'win_type': 'discard', 'discarder': 2}},
                      {'hand': '123m456m789m12p5s', 'context': {'win_type': 'self_draw'}}]},
        answer='5s wins 清龙 16 + 门前清 2 + 平和 2 + 喜相逢 1 + 单钓 1 = 22; 12 tiles refused',
    ),
)

# analyseHand
ANALYSIS = (
    Example(
        'one_short',
        'A hand one tile short, two tiles of it seen elsewhere',
        {'hand': '123m456m789m12p5s9s', 'context': {'win_type': 'self_draw'},
         'visible': '3p3p'},
        answer=('Shanten 1 (regular); useful 3p (2 left), 5s and 9s (3 left each): 8 in all'),
    ),
    Example(
        'discards',
        'Fourteen tiles: which tile to discard',
        {'hand': '123m456m789m12p5s9sE', 'context': {'win_type': 'self_draw'}},
        answer=('Shanten 1: discarding 5s, 9s or E leaves shanten 1 with 10 useful copies '
                'left; discarding any other tile leaves shanten 2'),
    ),
    Example(
        'ready',
        'Ready: the waits, each scored',
        {'hand': '123m456m789m123p5s', 'context': {'win_type': 'discard', 'discarder': 2}},
        answer='Shanten 0: 5s (3 left) wins 清龙 16 + 门前清 2 + 平和 2 + 喜相逢 1 + 单钓 1 = 22',
    ),
    Example(
        'void_suit',
        'sichuan (定缺): a hand holding three suits is not ready; its 筒 go first',
        {'hand': '111m234m567m999s5s4p', 'context': {'win_type': 'self_draw'}},
        answer='Shanten 0: discarding 4p, of the suit given up (void: true), leaves the hand '
               'ready on 5s (first row); any other discard leaves three suits, not ready',
        ruleset='sichuan',
    ),
    Example(
        'declared_void_suit',
        'chengdu (定缺 declared): seat 0 declared 筒 void, so its 4p is the void tile',
        {'hand': '1223335566778m4p',
         'context': {'win_type': 'self_draw', 'options': {'void_suit': ['p', None, None, None]}}},
        answer='Shanten 1 either way: 4p (void: true) comes first; undeclared, a hand of two '
               'suits has no void tile and 1m (39 useful copies left) ranks above 4p (23)',
        ruleset='chengdu',
    ),
    Example(
        'wild_tiles',
        'tianjin: a hand holding a wild tile (the indicator 3s makes 3s and 4s wild)',
        {'hand': '123m456m789s5p5p3s9s', 'context': {'win_type': 'self_draw',
                                                      'wild_indicator': '3s'}},
        answer='Shanten 0: the wild 3s fills the chow beside 9s; a drawn wild is useful',
        ruleset='tianjin',
    ),
)
ANALYSIS_PROBLEMS = (
    Example("too_many_seen", None,
            {'hand': '123m456m789m123p5s', 'context': {'win_type': 'self_draw'},
             'visible': '5s5s5s5s'},
            "More copies of 5s seen than the deck holds, counting the hand: too_many_copies "
            "at /visible"),
    Example("wrong_size", None,
            {'hand': '123m456m789m12p', 'context': {'win_type': 'self_draw'}},
            "Twelve standing tiles: wrong_tile_count"),
)
ANALYSIS_BATCH = (
    Example(
        'two_hands',
        'A ready hand and a hand of twelve tiles',
        {'requests': [{'hand': '123m456m789m123p5s', 'context': {'win_type': 'self_draw'}},
                      {'hand': '123m456m789m12p', 'context': {'win_type': 'self_draw'}}]},
        answer='Shanten 0 (5s); the twelve tiles refused with wrong_tile_count',
    ),
)

# settleRound
SETTLE = (
    Example(
        'rule_page',
        'A sichuan round with a concealed kong, then a win on a discard',
        {'options': {'base': 1},
         'events': [{'type': 'kong', 'seat': 1, 'kind': 'concealed', 'tile': '5m'},
                    {'type': 'win',
                     'seat': 2,
                     'hand': '222m333m777p888p44p',
                     'context': {'win_type': 'discard', 'discarder': 3}},
                    {'type': 'win',
                     'seat': 0,
                     'hand': '123456789s23499s',
                     'context': {'win_type': 'self_draw'}},
                    {'type': 'draw',
                     'hands': [{'seat': 1, 'hand': '{5555m}111m234m67m99m'},
                               {'seat': 3, 'hand': '13579s2468p1357p', 'passive_pig': False}]}]},
        answer=("Seat 1's 暗杠 2 × 3; 大对子 2 from seat 3; 清一色 自摸 (4 + 1) from seats 1 and "
                "3 only; 查大叫: seat 3 pays seat 1 its best wait, 8m (杠 + 清一色 = 8)"),
    ),
    Example(
        'pigs',
        'A drawn game with a pig (that made a kong), a passive pig, a ready and a not-ready player',
        {'options': {},
         'events': [{'type': 'kong', 'seat': 0, 'kind': 'concealed', 'tile': '9p'},
                    {'type': 'draw',
                     'hands': [{'seat': 0, 'hand': '{9999p}1245m268s137p'},
                               {'seat': 1, 'hand': '3789m13579s2468p', 'passive_pig': True},
                               {'seat': 2, 'hand': '11223344556s77p'},
                               {'seat': 3, 'hand': '147m369m258s147s9s'}]}]},
        answer=("查花猪 16 from the pig to each non-pig (the passive pig too); 查大叫 4 (七对) "
                "from the passive pig and seat 3, not from the pig; 退税: the pig returns its "
                "kong money"),
    ),
    Example(
        'winner_acts_again',
        'A seat that has won declares a kong (answered 422 seat_already_won)',
        {'options': {},
         'events': [{'type': 'win',
                     'seat': 2,
                     'hand': '222m333m777p888p44p',
                     'context': {'win_type': 'discard', 'discarder': 3}},
                    {'type': 'kong', 'seat': 2, 'kind': 'concealed', 'tile': '9s'}]},
        answer='A seat that has won acts again',
    ),
    Example(
        'tianjin_chan',
        ("天津 (posted to tianjin): the dealer sits, seats 2 and 3 pull once and twice; 铲, a "
         "点杠, a 金杠 worth 4, and seat 1's 素 自摸"),
        {'dealer': 0,
         'wild_indicator': '3p',
         'options': {'dealer_sits': True, 'pulls': [0, 0, 1, 2], 'golden_kong': 4},
         'events': [{'type': 'follow_dealer'},
                    {'type': 'kong', 'seat': 1, 'kind': 'direct', 'tile': '9s', 'discarder': 3},
                    {'type': 'kong', 'seat': 2, 'kind': 'concealed', 'tile': '4p'},
                    {'type': 'win',
                     'seat': 1,
                     'hand': '[9999s]234m678m22s35s4s',
                     'context': {'win_type': 'self_draw'}}]},
        answer=("Between the dealer and seat 1, 2, 3 the stakes are 2, 4, 8: the 点杠 1 (dealer "
                "2), the 金杠 4 (dealer 16), the 素 自摸 2 (dealer 4); the 铲 last: 2, 4, 8 from "
                "the dealer"),
        ruleset='tianjin',
    ),
    Example(
        'kawuxing_chain',
        ("卡五星 (posted to kawuxing): a chain of three kongs (杠上杠 ×1, ×2, ×4), then seat 0 "
         "reveals (亮倒) and wins seat 1's discard (包胡)"),
        {'events': [{'type': 'kong', 'seat': 1, 'kind': 'direct', 'tile': '9s', 'discarder': 0},
                    {'type': 'kong',
                     'seat': 2,
                     'kind': 'direct',
                     'tile': '4s',
                     'discarder': 1,
                     'follows': 'kong_discard'},
                    {'type': 'kong',
                     'seat': 2,
                     'kind': 'added',
                     'tile': 'C',
                     'fresh': True,
                     'follows': 'kong_replacement'},
                    {'type': 'reveal', 'seat': 0},
                    {'type': 'win',
                     'seat': 0,
                     'hand': '123p456p789p11s23s1s',
                     'context': {'win_type': 'discard', 'discarder': 1}}]},
        answer=("Kong money 2, then 2 × 2 from seat 1, then 1 × 4 from each other (never doubled "
                "for 亮倒); 亮倒 makes the hand ×2, and 包胡 makes seat 1 pay both shares"),
        ruleset='kawuxing',
    ),
    Example(
        'changchun_special_kong',
        ("长春 (posted to changchun): seat 3 lays out a 喜杠 (中 发, 1条 for 白), seat 1 a "
         "concealed kong of 白, and the dealer wins seat 2's discard with 门清 + 夹"),
        {'events': [{'type': 'kong', 'seat': 3, 'kind': 'special', 'tiles': 'CF1s'},
                    {'type': 'kong', 'seat': 1, 'kind': 'concealed', 'tile': 'P'},
                    {'type': 'win',
                     'seat': 0,
                     'hand': '123m456p789s111s99m',
                     'context': {'win_type': 'discard', 'discarder': 2}}]},
        answer=("The 喜杠 1 from each other (special_kong_amount); the 暗杠 of 白 2 doubled; the "
                "win: 2^(2+庄+点炮) = 16 from the discarder, 2^2 = 4 from the other 闲 "
                "(dealer_bonus seed)"),
        ruleset='changchun',
    ),
)



# The word-card games' examples, by rule set and operation (score, waits, and their batches).
_HENGYANG_SCORE = (
    Example(
        'ti_self_draw',
        '提 拾 and 吃 二七十 on the table, seat 0 self-draws 九',
        {'hand': {'cards': '78x 123d 55x 9x',
                  'groups': [{'kind': 'ti', 'cards': '10101010d'},
                             {'kind': 'chi', 'cards': '2710x'}],
                  'win_card': '9x'},
         'context': {'win_type': 'self_draw',
                     'winner': 0,
                     'dealer': 0,
                     'discarder': None,
                     'flipper': None,
                     'first_turn': False,
                     'last_card': False,
                     'xing_card': None,
                     'options': {}}},
        answer=("21 胡息 (提 12 + 二七十 3 + 壹贰叁 6), 囤 1 + 5 = 6; 9 red cards 小红 ×2 and "
                "自摸 ×2: 番 4, 24 from each other seat"),
    ),
    Example(
        'explained_best_arrangement',
        ("Posted with ?explain=true: seat 3 wins on seat 1's discarded 二; two arrangements of "
         "the cards are compared"),
        {'hand': {'cards': '13567x 112233678d 2x', 'groups': [], 'win_card': '2x'},
         'context': {'win_type': 'discard', 'winner': 3, 'dealer': 0, 'discarder': 1}},
        answer=("15 胡息 (一二三 3 + 壹贰叁 6 twice) beats the reading with three 绞 (0 胡息, "
                "under 起胡); 囤 1 + 3 = 4, 5 red cards (no 名堂): the discarder pays 3 shares of "
                "4"),
        explain=True,
    ),
    Example(
        'short_hand',
        '14 cards where 15 are needed (answered 422 wrong_card_count)',
        {'hand': '{10101010d}[2710x]78x123d55x', 'context': {'win_type': 'self_draw'}},
        answer='A hand of word cards one card short of the count',
    ),
)
_HENGYANG_WAITS = (
    Example(
        "ti_chi_on_table",
        "提 拾 and 吃 二七十 on the table, 78x 123d 55x in hand",
        {"hand": {"cards": "78x 123d 55x", "groups": [{"kind": "ti", "cards": "10101010d"},
                                                      {"kind": "chi", "cards": "2710x"}]},
         "context": {"win_type": "self_draw"}},
        answer=("Two cards finish it by self-draw, 六 and 九, each worth 24; the best is the "
                "first, 六"),
    ),
)
CARD_EXAMPLES: dict[str, dict[str, tuple[Example, ...]]] = {
    "hengyang": {
        "score": _HENGYANG_SCORE,
        "waits": _HENGYANG_WAITS,
        "waits_problems": (Example(
            "with_win_card", None,
            {"hand": {"cards": "78x 123d 55x", "win_card": "8x"},
             "context": {"win_type": "self_draw"}},
            answer="A winning card given: the schema refuses hand.win_card"),),
        "score_batch": (Example(
            "two_hands", "A win and a hand one card short of the count",
            {"requests": [_HENGYANG_SCORE[0].body, _HENGYANG_SCORE[2].body]},
            answer="The win, and the short hand's error item (wrong_card_count)"),),
        "waits_batch": (Example(
            "one_hand", "One waiting hand", {"requests": [_HENGYANG_WAITS[0].body]},
            answer="Its waits, as listWaitsHengyang answers them"),),
        "match": (Example(
            "two_hands", "A self-drawn win, then a drawn hand (臭庄)",
            {"hands": [{"win": _HENGYANG_SCORE[0].body}, {"drawn": {}}]},
            answer=("The winner deals the next hand; after 臭庄 the deal passes to the next "
                    "seat")),),
        "match_problems": (Example(
            "player_out_of_range", None,
            {"hands": [{"drawn": {"last_drawer": 7}}]},
            "A player past the table's: players are 0 to 3"),),
    },
}

# Answer-only examples: a request whose answer is shown, not the request itself.
BAD_TYPE = Example(
    "bad_type", None,
    {"hand": "1112345678999m5m", "context": {"win_type": "tsumo", "winner": "0", "extra": 1}},
    "Schema violations, one entry per field")
WITH_WIN_TILE = Example(
    "with_win_tile", None,
    {"hand": {"concealed": "1112345678999m", "win_tile": "5m"},
     "context": {"win_type": "self_draw"}},
    "A winning tile given: the schema refuses hand.win_tile")
SETTLE_PROBLEMS = (
    Example("bad_kong", None,
            {"events": [{"type": "kong", "seat": 1, "kind": "direct", "tile": "5m",
                         "fresh": True}]},
            "Schema violations of a kong event"),
    Example("settle_not_supported", None, SETTLE[0].body,
            "The rule set (mcr) settles single hands only", ruleset="mcr"),
    Example("forbidden_event", None,
            {"events": [{"type": "kong", "seat": 1, "kind": "added", "tile": "5s",
                         "fresh": False}]},
            "An event the rule set forbids: a 卡五星 加杠 of a tile held earlier",
            ruleset="kawuxing"),
)

N9 = "[123m][456p]789s23sNN4s"  # 花龙: 8 fan on a discard, 9 self-drawn
MATCH = (
    Example(
        "worked_mcr",
        "The first hands of a 国标 match: a win, a self-draw, a 错和 beside a self-draw",
        {"hands": [
            {"win": {"hand": "123m123p123s789s5p5p",
                     "context": {"win_type": "discard", "winner": 1, "discarder": 2}}},
            {"win": {"hand": N9, "context": {"win_type": "self_draw", "winner": 3}}},
            {"win": {"hand": N9, "context": {"win_type": "self_draw", "winner": 2}},
             "false_wins": [{"player": 0, "win": {
                 "hand": "[234m][567s]345p888s9m9m",
                 "context": {"win_type": "discard", "winner": 0, "discarder": 1}}}]}]},
        answer=("Player 1 wins 14 on player 2's discard; player 3 self-draws 9; player 0's "
                "complete hand of 2 fan on player 1's discard is 错和 (10 to each), and "
                "player 2 self-draws 9. The deal passes every hand; the standings count "
                "the 500 base points and give 标准分 4/2/1/0."),
    ),
    Example(
        "continued",
        "The next hand, posted with the state the answer before gave",
        {"state": {"hands": 3, "dealer": 3, "circle": 0, "dealerships": 4, "repeat": 0,
                   "totals": [-72, 14, 22, 36], "deducted": [0, 0, 0, 0], "ended": False},
         "hands": [{"drawn": {}}]},
        answer="A drawn hand (荒庄): nothing moves, the deal passes, a new 圈 begins.",
    ),
)

MATCH_PROBLEMS = (
    Example("match_over", None,
            {"state": {"hands": 16, "dealer": 0, "circle": 4, "dealerships": 17, "repeat": 0,
                       "totals": [0, 0, 0, 0], "deducted": [0, 0, 0, 0], "ended": True},
             "hands": [{"drawn": {}}]},
            "A 17th hand of a 国标 match"),
    Example("inconsistent_dealer", None,
            {"hands": [{"drawn": {}, "dealer": 2}]},
            "A hand whose expected dealer is not the derived one"),
)

REQUEST_TIMEOUT = {'type': 'tag:mahjong-scoring,2025:problem:request_timeout',
                   'title': 'Request timeout',
                   'status': 408,
                   'detail': "The request body did not arrive within the service's limit of 10 s "
                             "after the request's headers, so the request was not read any further "
                             'and the connection is closed. Send the whole body right after the '
                             'headers, at once; if your requests need longer to send, ask the '
                             'operator to raise the limit.',
                   'code': 'request_timeout'}
TIME_LIMIT_EXCEEDED = {'type': 'tag:mahjong-scoring,2025:problem:time_limit_exceeded',
                       'title': 'Time limit exceeded',
                       'status': 503,
                       'detail': "Scoring this request took longer than the service's limit of 10 "
                                 's, so it was stopped. Requests of this kind (waits or rounds on '
                                 'hands holding many wild tiles) are the slowest; send fewer at '
                                 'once or ask the operator to raise the limit.',
                       'code': 'time_limit_exceeded'}
INTERNAL_ERROR = {'type': 'tag:mahjong-scoring,2025:problem:internal_error',
                  'title': 'Internal server error',
                  'status': 500,
                  'detail': 'The server failed to handle this request.',
                  'code': 'internal_error'}
NOT_READY = {'type': 'tag:mahjong-scoring,2025:problem:not_ready',
             'title': 'Not ready',
             'status': 503,
             'detail': 'The service has not loaded its rule sets yet.',
             'code': 'not_ready',
             'request_id': '5f0c3a7e9b2d4e61a8c0f1d2e3b4a596'}
METRICS = "".join(line + "\n" for line in (
    "# HELP mahjong_http_requests_total HTTP requests answered, by route template, rule set, "
    "method and status.",
    "# TYPE mahjong_http_requests_total counter",
    'mahjong_http_requests_total{method="POST",route="/v1/rulesets/<ruleset>/score",'
    'ruleset="mcr",status="200"} 1.0',
    "# HELP mahjong_hands_scored_total Hands scored, by rule set and endpoint (a batch counts "
    "the items answered with a result).",
    "# TYPE mahjong_hands_scored_total counter",
    'mahjong_hands_scored_total{endpoint="score",ruleset="mcr"} 1.0',
    "# HELP mahjong_http_requests_in_flight Requests being answered now.",
    "# TYPE mahjong_http_requests_in_flight gauge",
    "mahjong_http_requests_in_flight 0.0",
))

# The examples of a word-card game's picture operations, by the JSON operation's examples'
# names: a picture, and a request the game refuses.
CARD_PICTURE_EXAMPLES: dict[str, dict[str, tuple[str, ...]]] = {
    "hengyang": {"score": ("ti_self_draw", "short_hand"), "waits": ("ti_chi_on_table",)},
}
