"""The pictures and the calculator page in a real headless browser (Debian's `chromium`,
driven over the DevTools protocol: tests/browser.py), one browser for the module.

- Every rule set's hand (tests/api/picture_hands.py) drawn as the browser draws it: one
  tile/card element per tile, melds and winning tile included, the fans' names present, and no
  element's box outside the picture's box (the text measured in the browser's own fonts).
- `/calculator` driven end to end as a person does: tiles clicked (a declared kong and a
  concealed one among them), a context field and an option set, scored: the same fans and
  payments as the JSON API, and the picture; a hand typed and sent with Enter that is not a
  hand shows the service's problem next to the hand field. Screenshots at a desktop and a phone
  width (paths printed and recorded as test properties; docs/ keeps a copy of two).
- The discard analysis: its pictures drawn within their box; on `/calculator` (tile games
  only) the same shanten and first discard row as the JSON API, the picture, and at a phone's
  width nothing wider than the screen.
- The match mode of `/calculator`: hands entered one at a time (wins built by the form, a
  drawn hand, 截和 and a round to settle sent as JSON), each posted with the state the last
  answer gave; the scoresheet grows a row a hand, ends as the whole match posted at once does,
  and fits a phone's screen. Screenshots at a desktop and a phone width.

Without a browser these tests are skipped, saying so; `.ci/run` installs one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.api.routes import RULESETS_KEY
from tests.api.match_samples import sample_match
from tests.api.picture_hands import drawn_tiles, sample_hands
from tests.api.test_settle import RULE_PAGE_REQUEST
from tests.browser import BROWSER, NO_BROWSER, Browser, Page, serving

pytestmark = pytest.mark.skipif(BROWSER is None, reason=NO_BROWSER)


@pytest.fixture(scope="module")
def served(app: Flask) -> Iterator[str]:
    with serving(app) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert BROWSER is not None
    started = Browser(BROWSER)
    try:
        yield started
    finally:
        started.close()


# Draws one picture in the page, at its own size, and measures it: the elements' boxes
# against the picture's, the tiles' codes, the text.
MEASURE = """(async (path, body) => {
  const r = await fetch(path, {method: "POST", body: JSON.stringify(body),
    headers: {"Content-Type": "application/json", "Accept": "image/svg+xml"}});
  const text = await r.text();
  const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
  if (svg.nodeName !== "svg") return {error: text.slice(0, 300)};
  const holder = document.createElement("div");
  holder.style.cssText = "position:absolute;left:0;top:0;margin:0;padding:0";
  holder.append(document.importNode(svg, true));
  document.body.replaceChildren(holder);
  const root = holder.firstElementChild;
  const box = root.getBoundingClientRect();
  const outside = [];
  for (const e of root.querySelectorAll("*")) {
    if (["title", "desc"].includes(e.nodeName)) continue;
    const b = e.getBoundingClientRect();
    if (b.width === 0 && b.height === 0) continue;
    if (b.left < box.left - 0.5 || b.top < box.top - 0.5 || b.right > box.right + 0.5
        || b.bottom > box.bottom + 0.5) {
      outside.push(`${e.nodeName} ${e.textContent.slice(0, 40)} `
                   + `${b.left},${b.top},${b.right},${b.bottom}`);
    }
  }
  return {status: r.status, type: r.headers.get("Content-Type"),
          width: box.width, height: box.height, outside,
          tiles: [...root.querySelectorAll(".tile, .card")].map((e) => e.dataset.tile),
          small: root.querySelectorAll(".tile-small").length,
          text: root.textContent};
})"""


def _measure(page: Page, path: str, body: dict[str, Any]) -> dict[str, Any]:
    got: dict[str, Any] = page.eval(f"{MEASURE}({json.dumps(path)}, {json.dumps(body)})")
    assert "error" not in got, got
    return got


def test_every_rule_set_s_picture_is_drawn_within_its_box(
        browser: Browser, served: str, app: Flask, client: FlaskClient) -> None:
    page = browser.page(1600, 1000)
    page.goto(f"{served}/healthz")  # same origin, an empty page to draw in
    samples = sample_hands()
    assert set(samples) == set(app.extensions[RULESETS_KEY])
    for ruleset, body in samples.items():
        got = _measure(page, f"/v1/rulesets/{ruleset}/score", body)
        assert got["status"] == 200 and got["type"].startswith("image/svg+xml"), ruleset
        assert got["outside"] == [], ruleset
        expected = drawn_tiles(body, app.extensions[RULESETS_KEY][ruleset])
        assert sorted(got["tiles"]) == sorted(expected.elements()), ruleset
        answer = client.post(f"/v1/rulesets/{ruleset}/score", json=body).get_json()
        for fan in answer["fans"]:
            assert fan["name"] in got["text"], (ruleset, fan["name"])
    # waits, and a hand that does not win (its reason is the longest line)
    for ruleset, kind, body in [
            ("mcr", "waits", {"hand": "[CCC][123m][789m]45m99m",
                              "context": {"win_type": "discard", "discarder": 1}}),
            ("hengyang", "waits", {"hand": "[9999x]{555d}123x456x8d",
                                   "context": {"win_type": "discard", "discarder": 1}}),
            ("mcr", "score", {"hand": "123456m234p678s5s5s",
                              "context": {"win_type": "discard", "discarder": 1}})]:
        got = _measure(page, f"/v1/rulesets/{ruleset}/{kind}", body)
        assert got["status"] == 200 and got["outside"] == [], (ruleset, kind)
        assert got["tiles"], (ruleset, kind)



def test_an_analysis_picture_is_drawn_within_its_box(browser: Browser, served: str,
                                                     client: FlaskClient) -> None:
    """The analysis pictures of a 14-tile hand (its longest rows of useful tiles wrap) and
    of a ready 13-tile hand, as the browser draws them."""
    page = browser.page(1600, 1000)
    page.goto(f"{served}/healthz")
    for ruleset, body, tiles in [
            ("sichuan", {"hand": "111m234m567m999s5s4p", "context": {"win_type": "self_draw"}},
             14),
            ("mcr", {"hand": "123m456m789m123p5s",
                     "context": {"win_type": "discard", "discarder": 2}}, 13)]:
        got = _measure(page, f"/v1/rulesets/{ruleset}/analysis", body)
        assert got["status"] == 200 and got["type"].startswith("image/svg+xml"), ruleset
        assert got["outside"] == [], ruleset
        assert len(got["tiles"]) == tiles and got["small"] > 0, ruleset


def _ready(page: Page) -> None:
    page.wait("document.body.dataset.state === 'ready'")


def _set(page: Page, selector: str, value: str) -> None:
    """Choose a value of a select (or a number field) by keyboard: focus it, clear, type."""
    page.eval(f"document.querySelector({json.dumps(selector)}).focus()")
    page.eval(f"""(() => {{ const e = document.querySelector({json.dumps(selector)});
        e.value = {json.dumps(value)}; e.dispatchEvent(new Event('input', {{bubbles: true}}));
        e.dispatchEvent(new Event('change', {{bubbles: true}})); }})()""")


def _rows(page: Page, selector: str) -> list[list[str]]:
    rows: list[list[str]] = page.eval(
        f"[...document.querySelectorAll({json.dumps(selector + ' tbody tr')})]"
        ".map((tr) => [...tr.cells].map((td) => td.textContent))")
    return rows


def test_the_calculator_scores_a_hand_entered_by_clicking(
        browser: Browser, served: str, client: FlaskClient, tmp_path: Path,
        record_property: Any) -> None:
    page = browser.page(1280, 900)
    page.goto(f"{served}/calculator?ruleset=sichuan")
    _ready(page)
    # a declared kong of 1m (closed at its fourth tile), a concealed kong of 3m, then the
    # standing tiles, the winning 9m last
    _set(page, "#target", "[")
    for _ in range(4):
        page.click('#palette button[data-code="1m"]')
    _set(page, "#target", "{")
    for _ in range(4):
        page.click('#palette button[data-code="3m"]')
    for code in ["5m", "5m", "5m", "7m", "7m", "9m", "9m", "8m"]:
        page.click(f'#palette button[data-code="{code}"]')
    page.click("#undo")  # the 8m clicked by mistake
    page.click('#palette button[data-code="9m"]')
    hand = page.eval("document.getElementById('hand').value")
    assert hand == "[1m1m1m1m]{3m3m3m3m}5m5m5m7m7m9m9m9m"
    _set(page, "#ctx-win_type", "discard")
    _set(page, "#ctx-discarder", "2")
    _set(page, "#opt-base", "5")
    page.click("#ask-score")
    page.wait("['done', 'problem'].includes(document.body.dataset.state)")
    assert page.eval("document.body.dataset.state") == "done"
    answer = client.post("/v1/rulesets/sichuan/score", json={"hand": hand, "context": {
        "win_type": "discard", "discarder": 2, "options": {"base": 5}}}).get_json()
    assert answer["winning"] and answer["payments"]
    fans = _rows(page, "#result-body table.fans")
    assert fans == [[f["name"], f["name_en"], str(f["value"]), str(f["count"])]
                    for f in answer["fans"]]
    transfers = _rows(page, "#result-body table.transfers")
    assert transfers == [[f"seat {t['from']}", f"seat {t['to']}", str(t["amount"]), t["reason"]]
                         for t in answer["payments"]["transfers"]]
    assert _rows(page, "#result-body table.net") == [
        [f"seat {i}", str(n)] for i, n in enumerate(answer["payments"]["net"])]
    assert page.eval("document.querySelectorAll('#picture svg .tile').length") == 16
    # the picture beside the form is drawn at its own size: its text as legible as on a phone
    assert page.eval(SMALLEST_TEXT)["picture"] >= 11 - 0.01
    desktop = page.screenshot(tmp_path / "calculator-desktop.png")
    record_property("screenshot_desktop", str(desktop))
    print(f"screenshot of /calculator at 1280 px: {desktop}")

    # a phone: one column, nothing wider than the screen
    phone = browser.page(390, 844, mobile=True)
    phone.goto(f"{served}/calculator?ruleset=hengyang")
    _ready(phone)
    for code in ["2x", "7x", "10x"]:
        phone.click(f'#palette button[data-code="{code}"]')
    assert phone.eval("document.getElementById('hand').value") == "2x7x10x"
    phone.eval("document.getElementById('hand').value = '{10101010d}[2710x]78x123d55x9x'")
    phone.click("#ask-score")
    phone.wait("document.body.dataset.state === 'done'")
    assert phone.eval("document.documentElement.scrollWidth <= window.innerWidth")
    # 4 + 3 on the table, 8 in hand with the winning card
    assert phone.eval("document.querySelectorAll('#picture svg .card').length") == 15
    shot = phone.screenshot(tmp_path / "calculator-phone.png")
    record_property("screenshot_phone", str(shot))
    print(f"screenshot of /calculator at 390 px: {shot}")


def test_the_calculator_shows_a_problem_next_to_its_field(
        browser: Browser, served: str, client: FlaskClient) -> None:
    page = browser.page(1280, 900)
    page.goto(f"{served}/calculator?ruleset=mcr")
    _ready(page)
    page.eval("document.getElementById('hand').focus()")
    page.type("123m456p")
    page.press("Enter", 13)  # the form is sent by keyboard
    page.wait("document.body.dataset.state === 'problem'")
    problem = client.post("/v1/rulesets/mcr/score", json={
        "hand": "123m456p", "context": {"win_type": "self_draw", "winner": 0, "dealer": 0,
                                        "seat_wind": "E", "round_wind": "E"}}).get_json()
    message = next(e["message"] for e in problem["errors"] if e["pointer"] == "/hand")
    assert page.eval("document.getElementById('hand-problem').textContent") == message
    assert page.eval("document.getElementById('hand').getAttribute('aria-invalid')") == "true"
    # a context field's problem goes next to that field
    page.eval("document.getElementById('hand').value = '1112345678999m5m'")
    _set(page, "#ctx-win_type", "discard")
    _set(page, "#ctx-discarder", "0")  # the winner's own seat
    page.click("#ask-score")
    page.wait("document.body.dataset.state === 'problem'")
    shown = page.eval("document.getElementById('ctx-discarder-problem').textContent")
    assert "discarder" in shown


def test_the_calculator_lists_the_waits_of_a_hand_one_short(
        browser: Browser, served: str, client: FlaskClient) -> None:
    page = browser.page(1280, 900)
    page.goto(f"{served}/calculator?ruleset=mcr")
    _ready(page)
    hand = "[CCC][123m][789m]45m99m"
    page.eval(f"document.getElementById('hand').value = {json.dumps(hand)}")
    page.click("#ask-waits")
    page.wait("['done', 'problem'].includes(document.body.dataset.state)")
    answer = client.post("/v1/rulesets/mcr/waits", json={
        "hand": hand, "context": {"win_type": "self_draw"}}).get_json()
    rows = _rows(page, "#result-body table.waits")
    assert [r[0] for r in rows] == [w["tile"] for w in answer["waits"]] == ["3m", "6m"]
    assert [r[3] for r in rows] == [str(w["value"]) for w in answer["waits"]]
    # the hand's 13 tiles, and each wait drawn small
    assert page.eval("document.querySelectorAll('#picture svg .tile').length") == 13
    assert page.eval("[...document.querySelectorAll('#picture svg .tile-small')]"
                     ".map((e) => e.dataset.tile)") == ["3m", "6m"]


def test_the_calculator_shows_the_discard_analysis(
        browser: Browser, served: str, client: FlaskClient, tmp_path: Path) -> None:
    page = browser.page(1280, 900)
    page.goto(f"{served}/calculator?ruleset=mcr")
    _ready(page)
    assert page.eval("document.getElementById('ask-analysis') !== null")
    assert page.eval("document.getElementById('visible-field').hidden") is False
    hand = "123m456m789m12p5s9sE"
    page.eval(f"document.getElementById('hand').value = {json.dumps(hand)}")
    page.eval("document.getElementById('visible').focus()")
    page.type("3p3p")
    page.click("#ask-analysis")
    page.wait("['done', 'problem'].includes(document.body.dataset.state)")
    assert page.eval("document.body.dataset.state") == "done"
    answer = client.post("/v1/rulesets/mcr/analysis", json={
        "hand": hand, "visible": "3p3p", "context": {
            "win_type": "self_draw", "winner": 0, "dealer": 0, "seat_wind": "E",
            "round_wind": "E"}}).get_json()
    shanten = answer["shanten"]
    assert page.eval("document.getElementById('verdict').textContent") == (
        f"14 tiles: {shanten} from ready (向听 {shanten})")
    rows = _rows(page, "#result-body table.discards")
    first = answer["discards"][0]
    assert rows[0] == [first["tile"], str(first["shanten"]),
                       " ".join(f"{u['tile']}×{u['left']}" for u in first["useful"]),
                       str(first["useful_left"]), "—"]
    assert len(rows) == len(answer["discards"])
    # the picture: the hand's 14 tiles, and the analysis's tiles drawn small
    assert page.eval("document.querySelectorAll('#picture svg .tile').length") == 14
    assert page.eval("document.querySelectorAll('#picture svg .tile-small').length") > 0
    # at a phone's width the discard rows fit the screen
    phone = browser.page(390, 844, mobile=True)
    phone.goto(f"{served}/calculator?ruleset=mcr")
    _ready(phone)
    phone.eval(f"document.getElementById('hand').value = {json.dumps(hand)}")
    phone.click("#ask-analysis")
    phone.wait("document.body.dataset.state === 'done'")
    assert phone.eval("document.documentElement.scrollWidth <= window.innerWidth")
    print(f"screenshot of the analysis at 390 px: "
          f"{phone.screenshot(tmp_path / 'calculator-analysis-phone.png')}")
    # a word-card game has no analysis: neither the button nor the field
    page.goto(f"{served}/calculator?ruleset=hengyang")
    _ready(page)
    assert page.eval("document.getElementById('ask-analysis') === null")
    assert page.eval("document.getElementById('visible-field').hidden") is True


def test_the_calculator_opens_on_mcr_with_its_buttons_in_view(browser: Browser,
                                                              served: str) -> None:
    """At 1280×900, unscrolled, the rule set is mcr and the Score button is on the screen
    (not covered), below the palette's top; scrolled to the palette, it still is."""
    page = browser.page(1280, 900)
    page.goto(f"{served}/calculator")
    _ready(page)
    assert page.eval("document.getElementById('ruleset').value") == "mcr"
    assert page.eval("location.search") == ""
    in_view = """(() => {
      const b = document.getElementById('ask-score').getBoundingClientRect();
      const hit = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
      return b.top >= 0 && b.bottom <= window.innerHeight && b.left >= 0
        && b.right <= window.innerWidth && hit === document.getElementById('ask-score');
    })()"""
    assert page.eval("window.scrollY") == 0
    assert page.eval("document.getElementById('palette').getBoundingClientRect().top"
                     " < window.innerHeight")
    assert page.eval(in_view)
    # the form is taller than the screen: the button stays in view wherever it is scrolled
    assert page.eval("document.getElementById('calc').getBoundingClientRect().bottom"
                     " > window.innerHeight")
    page.eval("document.getElementById('palette').scrollIntoView({block: 'center'})")
    assert page.eval("window.scrollY") > 0
    assert page.eval(in_view)
    page.eval("document.getElementById('options-section').scrollIntoView({block: 'start'})")
    assert page.eval(in_view)


# The smallest text of the answer, as rendered: the picture's text at its font size times the
# picture's scale on the screen, and the result's own text.
SMALLEST_TEXT = """(() => {
  const svg = document.querySelector('#picture svg');
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const sizes = [...svg.querySelectorAll('text')]
    .filter((t) => t.getBoundingClientRect().width > 0)
    .map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
  const html = [...document.querySelectorAll('#result-body *')]
    .filter((e) => e.childNodes.length && [...e.childNodes].some((n) => n.nodeType === 3))
    .map((e) => parseFloat(getComputedStyle(e).fontSize));
  return {picture: Math.min(...sizes), texts: sizes.length, result: Math.min(...html)};
})()"""


def test_the_answer_is_readable_on_a_phone(browser: Browser, served: str, tmp_path: Path,
                                           record_property: Any) -> None:
    """At 390 px the picture fits its frame (asked for at the frame's width, its rows and
    lines wrapped by the service) with its text drawn at 11 px at least, and so is the
    result's; nothing scrolls sideways."""
    phone = browser.page(390, 844, mobile=True)
    phone.goto(f"{served}/calculator")
    _ready(phone)
    phone.eval("document.getElementById('hand').value = '[5555s]{EEEE}[123p]789m1m1m'")
    phone.click("#ask-score")
    phone.wait("document.body.dataset.state === 'done'")
    got = phone.eval(SMALLEST_TEXT)
    assert got["texts"] > 10
    # (the picture's size is written to a tenth of a pixel: its scale is 1 within that)
    assert got["picture"] >= 11 - 0.01 and got["result"] >= 11, got
    assert phone.eval("document.documentElement.scrollWidth <= window.innerWidth")
    # the result is brought into view, its verdict on the screen
    assert phone.eval("(() => { const r = document.getElementById('verdict')"
                      ".getBoundingClientRect(); return r.top >= 0 && r.bottom <= "
                      "window.innerHeight; })()")
    # the picture fits its frame: drawn for it, not shrunk (its text size is checked above)
    assert phone.eval("(() => { const f = document.getElementById('picture');"
                      " const svg = f.querySelector('svg');"
                      " return f.scrollWidth <= f.clientWidth + 1 && !f.hasAttribute('data-wide')"
                      " && svg.getBoundingClientRect().width <= f.clientWidth + 1; })()")
    shot = phone.screenshot(tmp_path / "calculator-mcr-phone.png")
    record_property("screenshot_mcr_phone", str(shot))
    print(f"screenshot of an mcr score at 390 px: {shot}")


def test_the_calculator_marks_the_wild_tiles_of_waits_and_analysis(
        browser: Browser, served: str, client: FlaskClient, tmp_path: Path,
        record_property: Any) -> None:
    """tianjin, E flipped (E and S wild), a hand one short with 34 waits: the waits picture
    and the analysis picture mark each wild tile of each wait's reading with what it stood
    for, as the JSON answer says."""
    page = browser.page(1280, 900)
    page.goto(f"{served}/calculator?ruleset=tianjin")
    _ready(page)
    hand = "EES345m789p678s3m"
    page.eval(f"document.getElementById('hand').value = {json.dumps(hand)}")
    _set(page, "#ctx-wild_indicator", "E")
    body = {"hand": hand, "context": {"win_type": "self_draw", "winner": 0, "dealer": 0,
                                      "seat_wind": "E", "round_wind": "E",
                                      "wild_indicator": "E"}}
    marked = ("[...document.querySelectorAll('#picture svg [data-as]')]"
              ".map((e) => [e.dataset.tile, e.dataset.as])")
    for kind in ("waits", "analysis"):
        page.click(f"#ask-{kind}")
        page.wait("['done', 'problem'].includes(document.body.dataset.state)")
        assert page.eval("document.body.dataset.state") == "done", kind
        answer = client.post(f"/v1/rulesets/tianjin/{kind}", json=body).get_json()
        assert len(answer["waits"]) >= 30
        expected = [[w["tile"], w["as"]] for wait in answer["waits"]
                    for w in wait["decomposition"]["wilds"]]
        assert page.eval(marked) == expected, kind
        shot = page.screenshot(tmp_path / f"calculator-tianjin-{kind}.png")
        record_property(f"screenshot_tianjin_{kind}", str(shot))
        print(f"screenshot of tianjin {kind} at 1280 px: {shot}")
        # each mark is drawn: its frame and the tile it stood for, within the picture
        assert page.eval("""(() => {
          const svg = document.querySelector('#picture svg').getBoundingClientRect();
          return [...document.querySelectorAll('#picture svg [data-as]')].every((e) => {
            const b = e.getBoundingClientRect();
            return b.width > 0 && b.left >= svg.left && b.right <= svg.right + 0.5
              && b.bottom <= svg.bottom + 0.5 && e.textContent.endsWith('=' + e.dataset.as); });
        })()""")
        page.eval("document.body.dataset.state = 'ready'")


def test_the_calculator_declares_a_void_suit_per_seat(browser: Browser, served: str) -> None:
    # 定缺: sichuan's void_suit is a per-seat option with choices, one select per seat; the
    # winner (seat 0) declaring 筒 makes a hand of 万 and 筒 no win.
    page = browser.page(1280, 900)
    page.goto(f"{served}/calculator?ruleset=sichuan")
    _ready(page)
    assert page.eval("document.querySelectorAll('#opt-void_suit select').length") == 4
    page.eval("document.getElementById('hand').value = '123m456m789m123p55p'")
    page.click("#ask-score")
    page.wait("['done', 'problem'].includes(document.body.dataset.state)")
    assert "A win" in page.eval("document.getElementById('result-body').textContent")
    _set(page, "#opt-void_suit-0", '"p"')
    page.click("#ask-score")
    page.wait("document.body.dataset.state === 'done' && document.getElementById("
              "'result-body').textContent.includes('Not a win')")
    assert "declared a suit void" in page.eval(
        "document.getElementById('result-body').textContent")


# --- a match, hand by hand ------------------------------------------------------------------

N9 = "[123m][456p]789s23sNN4s"
CLAIMS = {"claims": {"discarder": 2, "claims": [
    {"win": {"hand": N9, "context": {"win_type": "discard", "winner": 3, "discarder": 2}}},
    {"win": {"hand": N9, "context": {"win_type": "discard", "winner": 1, "discarder": 2}}}]}}

SHEET = """(() => {
  const svg = document.querySelector('#picture svg');
  if (!svg) return null;
  const frame = svg.getBoundingClientRect();
  const rows = [...svg.querySelectorAll('g.hand')].map((g) => [...g.querySelectorAll('.net')]
    .map((t) => t.textContent));
  const outside = [...svg.querySelectorAll('text')].filter((t) => {
    const b = t.getBoundingClientRect();
    return b.right > frame.right + 0.5 || b.bottom > frame.bottom + 0.5; }).length;
  return {rows, outside};
})()"""


def test_every_rule_set_s_scoresheet_is_drawn_within_its_box(
        browser: Browser, served: str, client: FlaskClient) -> None:
    """Each rule set's sample match (tests/api/match_samples.py) drawn as the browser draws
    it, at its own size and at a phone's width: a row per hand, no text outside the box."""
    page = browser.page(1600, 1000)
    page.goto(f"{served}/healthz")
    drawn = 0
    for ruleset in sorted(sample_hands()):
        body = sample_match(client, ruleset)
        if body is None:
            continue
        for path in (f"/v1/rulesets/{ruleset}/match", f"/v1/rulesets/{ruleset}/match/picture"
                                                      "?width=358"):
            got = _measure(page, path, body)
            assert got["status"] == 200 and got["type"].startswith("image/svg+xml"), ruleset
            assert got["outside"] == [], (ruleset, path)
            assert got["text"].count("#") >= len(body["hands"]), ruleset
            assert "width" not in path or got["width"] <= 358, (ruleset, got["width"])
        drawn += 1
    assert drawn >= 10


def _match_mode(page: Page) -> None:
    page.click('input[name="mode"][value="match"]')
    page.wait("document.body.dataset.mode === 'match'"
              " && document.getElementById('match-win') !== null")


def _add(page: Page, button: str, hands: int) -> None:
    page.click(button)
    page.wait("['done', 'problem'].includes(document.body.dataset.state)")
    assert page.eval("document.body.dataset.state") == "done", page.eval(
        "document.getElementById('form-problem').textContent")
    assert page.eval("document.querySelectorAll('#picture svg g.hand').length") == hands
    page.eval("document.body.dataset.state = 'ready'")


def _win(page: Page, hand: str, win_type: str, winner: int, discarder: int | None) -> None:
    page.eval(f"document.getElementById('hand').value = {json.dumps(hand)}")
    _set(page, "#ctx-win_type", win_type)
    _set(page, "#ctx-winner", str(winner))
    if discarder is not None:
        _set(page, "#ctx-discarder", str(discarder))


def test_the_calculator_scores_a_match_hand_by_hand(
        browser: Browser, served: str, client: FlaskClient, tmp_path: Path,
        record_property: Any) -> None:
    """mcr in match mode: two wins built by the form (players as winner and discarder, the
    table's own fields hidden), a drawn hand, 截和 sent as JSON, each posted with the state the
    last answer gave; the scoresheet grows a row a hand and ends where the whole match posted
    at once does. A hand that is no win is refused next to the form and adds nothing."""
    page = browser.page(1280, 900)
    page.goto(f"{served}/calculator?ruleset=mcr")
    _ready(page)
    _match_mode(page)
    assert page.eval("document.getElementById('ask-score') === null")
    assert page.eval("document.getElementById('ctx-dealer').closest('.field').hidden") is True
    assert page.eval("document.getElementById('ctx-winner').options[1].textContent") == "player 1"
    _win(page, "123m123p123s789s5p5p", "discard", 1, 2)
    _add(page, "#match-win", 1)
    _win(page, N9, "self_draw", 3, None)
    _add(page, "#match-win", 2)
    _add(page, "#match-drawn", 3)
    page.eval(f"document.getElementById('match-json').value = {json.dumps(json.dumps(CLAIMS))}")
    _add(page, "#match-add-json", 4)
    hands = [
        {"win": {"hand": "123m123p123s789s5p5p",
                 "context": {"win_type": "discard", "winner": 1, "discarder": 2}}},
        {"win": {"hand": N9, "context": {"win_type": "self_draw", "winner": 3}}},
        {"drawn": {}}, CLAIMS]
    whole = client.post("/v1/rulesets/mcr/match", json={"hands": hands}).get_json()
    sheet = page.eval(SHEET)
    assert sheet["outside"] == 0
    assert [[cell.split(" ")[0] for cell in row] for row in sheet["rows"]] == [
        [f"+{n}" if n > 0 else str(n) for n in h["net"]] for h in whole["hands"]]
    standings = whole["standings"]
    assert _rows(page, "#result-body table.standings")[:3] == [
        ["total", *map(str, standings["totals"])], ["points", *map(str, standings["points"])],
        ["rank", *map(str, standings["ranks"])]]
    status = page.eval("document.getElementById('match-status').textContent")
    assert f"Next: hand 5, player {whole['next']['dealer']} deals" in status
    assert page.eval(SMALLEST_TEXT)["picture"] >= 11 - 0.01
    # a hand that is no win: the service's problem, and the match as it was
    _win(page, "123456m234p678s5s5s", "discard", 0, 1)
    page.click("#match-win")
    page.wait("document.body.dataset.state === 'problem'")
    assert "does not win" in page.eval("document.getElementById('hand-problem').textContent")
    assert page.eval("document.querySelectorAll('#picture svg g.hand').length") == 4
    shot = page.screenshot(tmp_path / "calculator-match-desktop.png")
    record_property("screenshot_match_desktop", str(shot))
    print(f"screenshot of a match at 1280 px: {shot}")


def test_the_calculator_scores_a_match_on_a_phone(
        browser: Browser, served: str, client: FlaskClient, tmp_path: Path,
        record_property: Any) -> None:
    """A word-card game's match at 390 px (a win, a drawn hand), and a round settled in a
    match of sichuan sent as JSON: the scoresheet fits the screen, its text 11 px at least."""
    phone = browser.page(390, 844, mobile=True)
    phone.goto(f"{served}/calculator?ruleset=hengyang")
    _ready(phone)
    _match_mode(phone)
    phone.eval("document.getElementById('hand').value = '{10101010d}[2710x]78x123d55x9x'")
    _add(phone, "#match-win", 1)
    _add(phone, "#match-drawn", 2)
    assert phone.eval("document.documentElement.scrollWidth <= window.innerWidth")
    assert phone.eval("!document.getElementById('picture').hasAttribute('data-wide')")
    assert phone.eval(SHEET)["outside"] == 0
    assert phone.eval(SMALLEST_TEXT)["picture"] >= 11 - 0.01
    shot = phone.screenshot(tmp_path / "calculator-match-phone.png")
    record_property("screenshot_match_phone", str(shot))
    print(f"screenshot of a match at 390 px: {shot}")
    # a round, as settle takes it, in a sichuan match (the JSON box wraps it)
    phone.goto(f"{served}/calculator?ruleset=sichuan")
    _ready(phone)
    _match_mode(phone)
    phone.eval("document.getElementById('match-json').value = "
               f"{json.dumps(json.dumps(RULE_PAGE_REQUEST))}")
    _add(phone, "#match-add-json", 1)
    settled = client.post("/v1/rulesets/sichuan/settle", json=RULE_PAGE_REQUEST).get_json()
    rows = phone.eval(SHEET)["rows"]
    assert [cell.split(" ")[0] for cell in rows[0]] == [
        f"+{n}" if n > 0 else str(n) for n in settled["net"]]
    assert phone.eval("document.documentElement.scrollWidth <= window.innerWidth")
