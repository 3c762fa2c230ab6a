"""Answers as pictures (`Accept: image/svg+xml`): a standalone, well-formed, deterministic SVG
drawing every tile of the hand, the fans by the rule set's names and the payments; JSON as
before without the header, in batches and for errors. Their drawing in a real browser is
tests/api/test_browser_pages.py."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.api.routes import RULESETS_KEY
from app.service.families import service_family
from tests.api.picture_hands import SVG_NS, drawn_tiles, sample_hands, svg_text, svg_tiles
from tests.cases import collect

SVG = {"Accept": "image/svg+xml"}
SAMPLES = sample_hands()


def test_every_rule_set_has_a_hand_to_draw(app: Flask) -> None:
    assert set(SAMPLES) == set(app.extensions[RULESETS_KEY])


@pytest.mark.parametrize("ruleset", sorted(SAMPLES))
def test_a_scored_hand_is_drawn_as_scored(client: FlaskClient, app: Flask,
                                          ruleset: str) -> None:
    body = SAMPLES[ruleset]
    answer = client.post(f"/v1/rulesets/{ruleset}/score", json=body).get_json()
    got = client.post(f"/v1/rulesets/{ruleset}/score", json=body, headers=SVG)
    assert got.status_code == 200 and got.mimetype == "image/svg+xml"
    assert "Accept" in got.headers["Vary"]
    svg = got.get_data()
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG_NS}svg"
    width, height = float(root.attrib["width"]), float(root.attrib["height"])
    assert root.attrib["viewBox"] == f"0 0 {root.attrib['width']} {root.attrib['height']}"
    assert 200 < width < 1200 and 100 < height < 1200
    assert root.find(f"{SVG_NS}title") is not None and root.find(f"{SVG_NS}desc") is not None
    assert svg_tiles(svg) == drawn_tiles(body, app.extensions[RULESETS_KEY][ruleset])
    text = svg_text(svg)
    for fan in answer["fans"]:
        assert fan["name"] in text and fan["name_en"] in text
    for transfer in answer["payments"]["transfers"]:
        assert f"seat {transfer['from']} → seat {transfer['to']}: {transfer['amount']}" in text
    # the same answer, the same bytes
    assert client.post(f"/v1/rulesets/{ruleset}/score", json=body, headers=SVG).get_data() == svg


def test_wild_tiles_are_marked_with_what_they_stood_for(client: FlaskClient) -> None:
    body = {"hand": "1234567mS9m333pE2p", "context": {
        "win_type": "self_draw", "wild_indicator": "E"}}
    svg = client.post("/v1/rulesets/tianjin/score", json=body, headers=SVG).get_data()
    wilds = Counter((g.attrib["data-tile"], g.attrib["data-as"])
                    for g in ET.fromstring(svg).iter(f"{SVG_NS}g") if "data-as" in g.attrib)
    assert wilds == Counter({("E", "8m"): 1, ("S", "2p"): 1})
    assert "=8m" in svg_text(svg)


def test_a_concealed_kong_lies_with_its_ends_face_down(client: FlaskClient) -> None:
    body = {"hand": "[5555s]{EEEE}[123p]789m1m1m", "context": {"win_type": "self_draw"}}
    svg = client.post("/v1/rulesets/mcr/score", json=body, headers=SVG).get_data()
    labels = [g.attrib["aria-label"] for g in ET.fromstring(svg).iter(f"{SVG_NS}g")
              if g.attrib.get("data-tile") == "E"]
    assert labels == ["东 (face down)", "东", "东", "东 (face down)"]


def test_a_hand_that_does_not_win_is_drawn_with_its_reason(client: FlaskClient) -> None:
    body = {"hand": "123456m234p678s5s5s", "context": {"win_type": "discard", "discarder": 1}}
    svg = client.post("/v1/rulesets/mcr/score", json=body, headers=SVG).get_data()
    assert sum(svg_tiles(svg).values()) == 14
    assert "not a win" in svg_text(svg) and "门前清" in svg_text(svg)


@pytest.mark.parametrize(("ruleset", "body", "waits"), [
    ("mcr", {"hand": "[CCC][123m][789m]45m99m",
             "context": {"win_type": "discard", "discarder": 1}}, ["3m", "6m"]),
    ("hengyang", {"hand": "[9999x]{555d}123x456x8d",
                  "context": {"win_type": "discard", "winner": 0, "discarder": 1}}, None),
])
def test_waits_are_drawn_each_with_its_score(client: FlaskClient, ruleset: str,
                                             body: dict[str, Any],
                                             waits: list[str] | None) -> None:
    answer = client.post(f"/v1/rulesets/{ruleset}/waits", json=body).get_json()
    assert answer["waits"]
    svg = client.post(f"/v1/rulesets/{ruleset}/waits", json=body, headers=SVG).get_data()
    key = "tile" if "tile" in answer["waits"][0] else "card"
    if waits is not None:
        assert [w[key] for w in answer["waits"]] == waits
    drawn = svg_tiles(svg) + _small_tiles(svg)  # a tile game's waits are drawn small
    for wait in answer["waits"]:
        assert drawn[wait[key]] >= 1
    assert "★ best" in svg_text(svg)

def _small_tiles(svg: bytes) -> Counter[str]:
    return Counter(g.attrib["data-tile"] for g in ET.fromstring(svg).iter(f"{SVG_NS}g")
                   if g.attrib.get("class") == "tile-small")


def _cells(svg: bytes) -> list[tuple[float, float]]:
    """Where each wait of a waits picture is drawn: its small tile's place, (x, y)."""
    out = []
    for g in ET.fromstring(svg).iter(f"{SVG_NS}g"):
        if g.attrib.get("class") == "tile-small" and "data-as" not in g.attrib:
            x, y = g.attrib["transform"].removeprefix("translate(").rstrip(")").split()
            out.append((float(x), float(y)))
    return out


# 天津: E flipped, so E and S are wild; one tile short, any tile completes it (34 waits).
TIANJIN_WILD_WAITS = {"hand": "EES345m789p678s3m", "context": {
    "win_type": "self_draw", "wild_indicator": "E"}}


def _wilds(svg: bytes) -> Counter[tuple[str, str]]:
    return Counter((g.attrib["data-tile"], g.attrib["data-as"])
                   for g in ET.fromstring(svg).iter(f"{SVG_NS}g") if "data-as" in g.attrib)


def test_many_waits_are_drawn_in_a_grid_each_with_its_wild_tiles(client: FlaskClient) -> None:
    """34 waits: a grid of a few rows, not a row each; every wait's reading shows what each
    wild tile of the hand stood for in it, as the answer says."""
    path = "/v1/rulesets/tianjin/waits"
    answer = client.post(path, json=TIANJIN_WILD_WAITS).get_json()
    assert len(answer["waits"]) >= 30
    svg = client.post(path, json=TIANJIN_WILD_WAITS, headers=SVG).get_data()
    cells = _cells(svg)
    assert len(cells) == len(answer["waits"])
    rows = sorted({y for _, y in cells})
    assert len(rows) <= len(cells) // 4  # at least four waits side by side
    root = ET.fromstring(svg)
    assert float(root.attrib["height"]) < 900
    # the small tiles in order: each wait, then the wild tiles of its reading, as the answer
    marked = [(g.attrib["data-tile"], g.attrib.get("data-as")) for g in root.iter(f"{SVG_NS}g")
              if g.attrib.get("class") == "tile-small"]
    expected: list[tuple[str, str | None]] = []
    for wait in answer["waits"]:
        expected.append((wait["tile"], None))
        expected += [(w["tile"], w["as"]) for w in wait["decomposition"]["wilds"]]
    assert marked == expected
    text = svg_text(svg)
    assert "=1m" in text and "=4m" in text


def test_an_analysis_marks_the_wild_tiles_of_its_waits(client: FlaskClient) -> None:
    path = "/v1/rulesets/tianjin/analysis"
    # 13 tiles: every wait with its wilds
    answer = client.post(path, json=TIANJIN_WILD_WAITS).get_json()
    svg = client.post(path, json=TIANJIN_WILD_WAITS, headers=SVG).get_data()
    assert _wilds(svg) == Counter((w["tile"], w["as"]) for wait in answer["waits"]
                                  for w in wait["decomposition"]["wilds"])
    # 14 tiles: each ready row's best wait with its wilds
    body = {"hand": "[555m]456m789m12p5s9sE",
            "context": {"win_type": "self_draw", "wild_indicator": "E"}}
    answer = client.post(path, json=body).get_json()
    svg = client.post(path, json=body, headers=SVG).get_data()
    expected = Counter((w["tile"], w["as"]) for row in answer["discards"] if row["best"]
                       for w in row["best"]["decomposition"]["wilds"])
    assert expected and _wilds(svg) == expected


def test_a_wild_hand_is_drawn_in_the_groups_it_was_scored_in(client: FlaskClient) -> None:
    """EES345m789p678s3m3m, E and S wild: scored as 123m (E E and the winning 3m: 双混儿吊),
    33m (S and a 3m), 345m, 789p, 678s. The picture draws those groups, the wilds where they
    stood, each group captioned with what it reads as, the winning tile's group marked."""
    body = {"hand": "EES345m789p678s3m3m",
            "context": {"win_type": "self_draw", "wild_indicator": "E"}}
    answer = client.post("/v1/rulesets/tianjin/score", json=body).get_json()
    assert [f["id"] for f in answer["fans"]] == ["hun_diao"]
    assert answer["decomposition"]["melds"] == ["123m", "33m", "345m", "789p", "678s"]
    svg = client.post("/v1/rulesets/tianjin/score", json=body, headers=SVG).get_data()
    tiles = [(g.attrib["data-tile"], g.attrib.get("data-as"),
              float(g.attrib["transform"].removeprefix("translate(").split()[0]))
             for g in ET.fromstring(svg).iter(f"{SVG_NS}g") if g.attrib.get("class") == "tile"]
    # the groups: faces of one group lie a face's width and a small gap apart
    groups: list[list[tuple[str, str | None]]] = []
    last: float | None = None
    for code, read, x in tiles:
        if last is None or x - last > 45:
            groups.append([])
        groups[-1].append((code, read))
        last = x
    assert groups == [[("E", "1m"), ("E", "2m")], [("S", "3m"), ("3m", None)],
                      [("3m", None), ("4m", None), ("5m", None)],
                      [("7p", None), ("8p", None), ("9p", None)],
                      [("6s", None), ("7s", None), ("8s", None)], [("3m", None)]]
    text = svg_text(svg)
    assert "123m ← 和 3m" in text and "混儿吊" in text


@pytest.mark.parametrize("accept", [None, "application/json", "*/*",
                                    "application/json, image/svg+xml",
                                    "image/svg+xml, application/json",
                                    "image/svg+xml;q=0.5, application/json"])
def test_json_unless_svg_is_preferred(client: FlaskClient, accept: str | None) -> None:
    body = SAMPLES["mcr"]
    plain = client.post("/v1/rulesets/mcr/score", json=body)
    got = client.post("/v1/rulesets/mcr/score", json=body,
                      headers={"Accept": accept} if accept else {})
    assert got.mimetype == "application/json" and got.get_data() == plain.get_data()


def test_svg_preferred_to_json_is_a_picture(client: FlaskClient) -> None:
    got = client.post("/v1/rulesets/mcr/score", json=SAMPLES["mcr"],
                      headers={"Accept": "image/svg+xml, application/json;q=0.9"})
    assert got.mimetype == "image/svg+xml"


def test_errors_and_batches_stay_json(client: FlaskClient) -> None:
    bad = client.post("/v1/rulesets/mcr/score", headers=SVG,
                      json={"hand": "123m", "context": {"win_type": "self_draw"}})
    assert bad.status_code == 422 and bad.mimetype == "application/problem+json"
    assert bad.get_json()["code"] == "wrong_tile_count"
    batch = client.post("/v1/rulesets/mcr/score/batch", headers=SVG,
                        json={"requests": [SAMPLES["mcr"]]})
    assert batch.status_code == 200 and batch.mimetype == "application/json"
    assert batch.get_json()["results"][0]["result"]["winning"] is True


_WAITING = {"mcr": {"hand": "[CCC][123m][789m]45m99m",
                    "context": {"win_type": "discard", "discarder": 1}},
            "hengyang": {"hand": "[9999x]{555d}123x456x8d",
                         "context": {"win_type": "discard", "winner": 0, "discarder": 1}}}
_ANALYSED = {"hand": "123m456m789m12p5s9sE", "context": {"win_type": "self_draw"}}


@pytest.mark.parametrize(("kind", "ruleset", "body"), [
    ("score", "mcr", SAMPLES["mcr"]), ("score", "tianjin", SAMPLES["tianjin"]),
    ("score", "hengyang", SAMPLES["hengyang"]), ("waits", "mcr", _WAITING["mcr"]),
    ("waits", "hengyang", _WAITING["hengyang"]), ("analysis", "mcr", _ANALYSED),
    ("analysis", "tianjin", _ANALYSED)])
def test_a_picture_operation_draws_what_accept_draws(client: FlaskClient, kind: str,
                                                      ruleset: str, body: dict[str, Any]
                                                      ) -> None:
    """`.../<kind>/picture` answers the picture whatever the `Accept` (the contract's JSON
    operations then answer JSON alone): the same bytes as the JSON path asked for SVG."""
    negotiated = client.post(f"/v1/rulesets/{ruleset}/{kind}", json=body, headers=SVG)
    assert negotiated.status_code == 200 and negotiated.mimetype == "image/svg+xml"
    assert "Accept" in negotiated.headers.get("Vary", "")
    for accept in (None, "application/json", "*/*"):
        got = client.post(f"/v1/rulesets/{ruleset}/{kind}/picture", json=body,
                          headers={"Accept": accept} if accept else {})
        assert got.status_code == 200 and got.mimetype == "image/svg+xml", got.get_data()[:200]
        assert got.get_data() == negotiated.get_data()
        assert "Accept" not in got.headers.get("Vary", "")


def test_a_picture_operation_refuses_as_its_json_operation(client: FlaskClient) -> None:
    bad = client.post("/v1/rulesets/mcr/score/picture",
                      json={"hand": "123m", "context": {"win_type": "self_draw"}})
    assert bad.status_code == 422 and bad.mimetype == "application/problem+json"
    assert bad.get_json()["code"] == "wrong_tile_count"
    cards = client.post("/v1/rulesets/hengyang/analysis/picture",
                        json={"hand": "123x", "context": {}})
    assert cards.status_code == 422 and cards.get_json()["code"] == "analysis_not_supported"
    unknown = client.post("/v1/rulesets/riichi/waits/picture", json=SAMPLES["mcr"])
    assert unknown.status_code == 404 and unknown.get_json()["code"] == "unknown_ruleset"
    twice = client.post("/v1/rulesets/mcr/score/picture", content_type="application/json",
                        data=b'{"hand": "1m", "hand": "2m", "context": {}}')
    assert twice.status_code == 400 and twice.get_json()["code"] == "duplicate_key"


def test_every_case_and_every_waits_case_is_drawn(client: FlaskClient, app: Flask) -> None:
    """Every hand of the case files that the service answers (winning or not, wild tiles,
    word cards, every shape) is drawn: no request the JSON path answers fails as a picture,
    and each picture holds every tile of its hand."""
    loaded = app.extensions[RULESETS_KEY]
    drawn = 0
    for kind, params in (("score", collect()), ("waits", collect("waits"))):
        for param in params:
            ruleset, case = param.values
            body = {"hand": case["hand"], "context": case.get("context") or {}}
            path = f"/v1/rulesets/{ruleset}/{kind}"
            plain = client.post(path, json=body)
            got = client.post(path, json=body, headers=SVG)
            if plain.status_code != 200:
                assert got.status_code == plain.status_code, (ruleset, case)
                assert got.mimetype == "application/problem+json", (ruleset, case)
                continue
            assert got.status_code == 200 and got.mimetype == "image/svg+xml", (ruleset, case)
            svg = got.get_data()
            if kind == "score":
                assert svg_tiles(svg) == drawn_tiles(body, loaded[ruleset]), (ruleset, case)
            else:
                assert ET.fromstring(svg) is not None
            drawn += 1
    assert drawn > 300


# Hands to analyse, of 13 and 14 tiles, under tile rule sets of different decks and shapes
# (declared melds, a wild indicator, 定缺, a deck without honours).
ANALYSED: list[tuple[str, dict[str, Any]]] = [
    ("mcr", {"hand": "123m456m789m123p5s",
             "context": {"win_type": "discard", "discarder": 2}}),
    ("mcr", {"hand": "123m456m789m12p5s9sE", "context": {"win_type": "self_draw"},
             "visible": "3p3p"}),
    ("sichuan", {"hand": "111m234m567m999s5s4p", "context": {"win_type": "self_draw"}}),
    ("sichuan", {"hand": "[111m]234m567m99s5s6s", "context": {"win_type": "self_draw"}}),
    ("tianjin", {"hand": "[555m]456m789m12p5s9sE",
                 "context": {"win_type": "self_draw", "wild_indicator": "E"}}),
    ("tianjin", {"hand": "123m456m789m1p2pSS",
                 "context": {"win_type": "self_draw", "wild_indicator": "E"}}),
]


def _analysed_tiles(body: dict[str, Any], app: Flask, ruleset: str) -> Counter[str]:
    """The codes of the hand's tiles: standing and declared."""
    rs = app.extensions[RULESETS_KEY][ruleset]
    analysis = service_family(rs).analysis
    assert analysis is not None
    standing, melds, *_ = analysis.read(body, rs)
    return Counter(rs.tileset.code(t) for t in [*standing, *(t for m in melds for t in m.tiles)])


def _wild_codes(wait: dict[str, Any]) -> list[str]:
    return [w["tile"] for w in wait["decomposition"]["wilds"]] if wait["decomposition"] else []


@pytest.mark.parametrize(("ruleset", "body"), ANALYSED)
def test_an_analysis_is_drawn_with_the_hand_and_its_rows(
        client: FlaskClient, app: Flask, ruleset: str, body: dict[str, Any]) -> None:
    path = f"/v1/rulesets/{ruleset}/analysis"
    answer = client.post(path, json=body).get_json()
    got = client.post(path, json=body, headers=SVG)
    assert got.status_code == 200 and got.mimetype == "image/svg+xml"
    assert "Accept" in got.headers["Vary"]
    svg = got.get_data()
    root = ET.fromstring(svg)
    assert root.attrib["viewBox"] == f"0 0 {root.attrib['width']} {root.attrib['height']}"
    assert root.find(f"{SVG_NS}title") is not None and root.find(f"{SVG_NS}desc") is not None
    # one tile element per tile of the hand; the tiles spoken of are drawn small
    assert svg_tiles(svg) == _analysed_tiles(body, app, ruleset)
    assert sum(svg_tiles(svg).values()) == answer["tiles"]  # no kong among these hands
    small = [g.attrib["data-tile"] for g in root.iter(f"{SVG_NS}g")
             if g.attrib.get("class") == "tile-small"]
    text = svg_text(svg)
    if answer["tiles"] == 13:
        expected = [u["tile"] for u in answer["useful"]]
        for wait in answer["waits"] or ():  # each wait, then the wild tiles of its reading
            expected += [wait["tile"], *_wild_codes(wait)]
        assert small == expected
    else:
        rows = answer["discards"]
        expected = []
        for row in rows:
            expected += [row["tile"], *(u["tile"] for u in row["useful"]),
                         *(w["tile"] for w in row["waits"] or ()),
                         *(_wild_codes(row["best"]) if row["best"] else ())]
            assert f"打 {row['tile']}" in text
            for u in row["useful"]:
                assert f"{u['tile']} ({u['left']} left)" in text  # the description
        assert small == expected
        first = rows[0]
        assert f"{first['useful_left']} left" in text
    # the same answer, the same bytes
    assert client.post(path, json=body, headers=SVG).get_data() == svg


def test_an_analysis_of_a_word_card_game_stays_a_problem(client: FlaskClient) -> None:
    got = client.post("/v1/rulesets/hengyang/analysis", headers=SVG,
                      json={"hand": "123x", "context": {}})
    assert got.status_code == 422 and got.mimetype == "application/problem+json"
    assert got.get_json()["code"] == "analysis_not_supported"


def test_every_case_hand_is_drawn_as_an_analysis(client: FlaskClient, app: Flask) -> None:
    """Every hand of the case files a tile rule set analyses (the score cases' 14 tiles, their
    waits not scored, to keep this quick; the waits cases' 13, scored) is drawn: the same
    status as the JSON answer, and the hand's tiles each one `tile` element."""
    drawn = 0
    for kind, params in (("score", collect()), ("waits", collect("waits"))):
        for param in params:
            ruleset, case = param.values
            body: dict[str, Any] = {"hand": case["hand"], "context": case.get("context") or {}}
            if kind == "score":
                body["score_waits"] = False
            path = f"/v1/rulesets/{ruleset}/analysis"
            plain = client.post(path, json=body)
            got = client.post(path, json=body, headers=SVG)
            assert got.status_code == plain.status_code, (ruleset, case)
            if plain.status_code != 200:
                assert got.mimetype == "application/problem+json", (ruleset, case)
                continue
            assert got.mimetype == "image/svg+xml", (ruleset, case)
            svg = got.get_data()
            assert svg_tiles(svg) == _analysed_tiles(body, app, ruleset), (ruleset, case)
            drawn += 1
    assert drawn > 300


# --- a picture asked for at a width --------------------------------------------------------

NARROW = 320


def _svg_width(svg: bytes) -> float:
    return float(ET.fromstring(svg).attrib["width"])


def test_every_case_is_drawn_within_a_narrow_width(client: FlaskClient) -> None:
    """Every case hand the service answers (score and waits) and the analyses above, drawn
    at `?width=320`: no wider than that, every tile of the default picture still drawn, and
    its words all there (wrapped lines rejoined)."""
    drawn = 0
    asked = [(kind, *param.values) for kind, params in (("score", collect()),
                                                         ("waits", collect("waits")))
             for param in params]
    asked += [("analysis", ruleset, body) for ruleset, body in ANALYSED]
    for kind, ruleset, case in asked:
        body = {k: v for k, v in case.items() if k in ("hand", "visible")}
        body["context"] = case.get("context") or {}
        path = f"/v1/rulesets/{ruleset}/{kind}/picture"
        wide = client.post(path, json=body)
        if wide.status_code != 200:
            continue
        narrow = client.post(f"{path}?width={NARROW}", json=body)
        assert narrow.status_code == 200, (ruleset, case)
        svg = narrow.get_data()
        assert _svg_width(svg) <= NARROW, (kind, ruleset, case)
        assert svg_tiles(svg) == svg_tiles(wide.get_data()), (kind, ruleset, case)
        words = "".join(svg_text(wide.get_data()).split())
        assert "".join(svg_text(svg).split()) == words, (kind, ruleset, case)
        drawn += 1
    assert drawn > 300


def test_a_wide_picture_wraps_its_rows_and_lines_and_keeps_its_text_size(
        client: FlaskClient) -> None:
    """A hand of many groups and a long fan list, drawn at 240 px: the rows of tiles and the
    lines of text wrap (the picture grows taller, not wider); the text keeps its size."""
    body = {"hand": "[5555s]{EEEE}[123p]789m1m1m", "context": {"win_type": "self_draw"}}
    wide = client.post("/v1/rulesets/mcr/score/picture", json=body).get_data()
    narrow = client.post("/v1/rulesets/mcr/score/picture?width=240", json=body).get_data()
    assert _svg_width(wide) > 240 >= _svg_width(narrow)
    assert float(ET.fromstring(narrow).attrib["height"]) > float(
        ET.fromstring(wide).attrib["height"])

    def sizes(svg: bytes) -> set[str]:
        return {t.attrib["font-size"] for t in ET.fromstring(svg).iter(f"{SVG_NS}text")}

    assert sizes(narrow) == sizes(wide)


@pytest.mark.parametrize("query", ["width=199", "width=4001", "width=abc", "width=",
                                   "width=320&width=320", "width=3.5e2", "width=%EF%BC%93"])
def test_a_width_out_of_bounds_is_invalid_query(client: FlaskClient, query: str) -> None:
    got = client.post(f"/v1/rulesets/mcr/score/picture?{query}",
                      json={"hand": "1112345678999m5m", "context": {"win_type": "self_draw"}})
    assert got.status_code == 400 and got.mimetype == "application/problem+json"
    assert got.get_json()["code"] == "invalid_query"
    assert "width" in got.get_json()["detail"]


def test_the_calculator_asks_for_widths_the_service_draws() -> None:
    """The calculator's bounds of `width` are the service's."""
    from pathlib import Path

    from app.service.pictures.layout import MAX_WIDTH, MIN_WIDTH
    script = Path(__file__).resolve().parents[2] / "app" / "api" / "static" / "calculator.js"
    assert (f"const PICTURE_WIDTH = {{ min: {MIN_WIDTH}, max: {MAX_WIDTH} }};"
            in script.read_text(encoding="utf-8"))
