"""The command-line scorer and the library call: one item per line, in order, the batch
endpoint's items, never a line lost."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest
from flask import Flask

from app.api import create_app
from app.domain import notation, standing
from app.scoring.memory import BULK_WIDTH, memory_bounds
from app.service import batch, collector
from mahjong_scoring import analyse, cli, score_lines
from mahjong_scoring.lines import LineScorer, served_rulesets
from tests.service.batch_faults import FAILS_ON_DISCARD_WINS
from tools import loggen

SCRIPT = Path(sys.executable).parent / "mahjong-score"
HAND = '{"hand":"123m456m789m123p55s","context":{"win_type":"self_draw"}}'


@pytest.fixture(scope="module")
def app() -> Flask:
    return create_app({"REQUEST_TIME_LIMIT": 600, "ACCESS_LOG": False})


@pytest.fixture(scope="module")
def mixed_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A log of every rule set, lines naming their rule sets, some malformed."""
    rulesets = served_rulesets()
    path = tmp_path_factory.mktemp("logs") / "mixed.jsonl"
    lines = loggen.log_lines(rulesets, sorted(loggen.tile_rulesets(rulesets)), 1500, seed=3,
                             malformed=0.04)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def run(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = cli.main(list(args))
    return code, capsys.readouterr().err


def test_one_item_per_line_whatever_the_line(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    # A blank line, a line that is not JSON, CRLF endings, a last line without a newline.
    log = tmp_path / "log.jsonl"
    log.write_bytes(f"{HAND}\n\n{{oops\r\n[1, 2]\n{HAND}\r\n{HAND}".encode())
    out = tmp_path / "out.jsonl"
    code, err = run(str(log), "-o", str(out), "-r", "mcr", "--jobs", "1", capsys=capsys)
    assert code == 0
    items = [json.loads(line) for line in out.read_bytes().splitlines()]
    assert out.read_bytes().endswith(b"\n")
    assert len(items) == 6
    assert [("result" in i, i.get("error", {}).get("line")) for i in items] == [
        (True, None), (False, 2), (False, 3), (False, 4), (True, None), (True, None)]
    assert items[1]["error"]["code"] == items[2]["error"]["code"] == "malformed_json"
    assert "Line 2 is empty" in items[1]["error"]["detail"]
    assert "Line 3 is not valid JSON" in items[2]["error"]["detail"]
    assert "column 2" in items[2]["error"]["detail"]
    assert items[0] == items[4] == items[5]
    assert "6 hands, 3 winning, 3 errors" in err


def test_every_job_count_writes_the_same_bytes(mixed_log: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for jobs in ("1", "2", "3"):
        out = tmp_path / f"out-{jobs}.jsonl"
        assert run(str(mixed_log), "-o", str(out), "--jobs", jobs, capsys=capsys)[0] == 0
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1] == outputs[2]
    assert outputs[0].count(b"\n") == mixed_log.read_bytes().count(b"\n")


def test_full_collections_run_between_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    # The scorer tunes its collector (no full collection starts on its own; paused inside a
    # chunk, so no middle collection either) and offers one between chunks of lines
    # (app/service/collector.py).
    calls: list[str] = []
    monkeypatch.setattr(collector, "tune", lambda *, paused_in_units=False: calls.append(
        "tune, paused in units" if paused_in_units else "tune"))
    monkeypatch.setattr(collector, "between", lambda: calls.append("between") is None)
    log = tmp_path / "log.jsonl"
    log.write_text(f"{HAND}\n" * (2 * cli.CHUNK_LINES + 1), encoding="utf-8")
    assert run(str(log), "-o", str(tmp_path / "out.jsonl"), "-r", "mcr", "--jobs", "1",
               capsys=capsys)[0] == 0
    assert calls == ["tune, paused in units", "between", "between", "between"]


def test_the_scorer_widens_the_memos_new_hands_fill(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text(f"{HAND}\n", encoding="utf-8")
    assert run(str(log), "-o", str(tmp_path / "out.jsonl"), "-r", "mcr", "--jobs", "1",
               capsys=capsys)[0] == 0
    assert standing.parts_limit() == BULK_WIDTH * standing.PARTS_LIMIT
    assert notation.tokens_limit() == BULK_WIDTH * notation.TOKENS_LIMIT
    bounds = memory_bounds()
    assert bounds["standing.parts"].bound == 2 * BULK_WIDTH * standing.PARTS_LIMIT


def test_items_are_the_batch_endpoints(app: Flask, mixed_log: Path, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.jsonl"
    assert run(str(mixed_log), "-o", str(out), capsys=capsys)[0] == 0
    client = app.test_client()
    compared = 0
    for number, (line, answer) in enumerate(
            zip(mixed_log.read_bytes().splitlines(), out.read_bytes().splitlines(),
                strict=True), 1):
        item = json.loads(answer)
        if "error" in item:
            assert item["error"].pop("line") == number
        try:
            request = json.loads(line)
        except ValueError:
            continue
        if type(request) is not dict or request.get("ruleset") not in served_rulesets():
            continue
        ruleset = request.pop("ruleset")
        response = client.post(f"/v1/rulesets/{ruleset}/score/batch",
                               json={"requests": [request]})
        assert response.get_json()["results"] == [item], line
        compared += 1
    assert compared > 1300


def test_explain_gives_the_explained_batch_items(app: Flask, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    lines = [{"ruleset": "mcr", "hand": "[CCC][FFF]PPP123m5p5p",
              "context": {"win_type": "discard", "discarder": 1}},
             {"ruleset": "tianjin", "hand": "123m456m789m11p55p5p",
              "context": {"win_type": "self_draw", "wild_indicator": "4p"}}]
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = tmp_path / "out.jsonl"
    assert run(str(log), "-o", str(out), "--explain", "-j", "1", capsys=capsys)[0] == 0
    client = app.test_client()
    for line, answer in zip(lines, out.read_bytes().splitlines(), strict=True):
        request = dict(line)
        ruleset = request.pop("ruleset")
        response = client.post(f"/v1/rulesets/{ruleset}/score/batch?explain=true",
                               json={"requests": [request]})
        assert response.get_json()["results"] == [json.loads(answer)]
        assert "explanation" in json.loads(answer)["result"]


def test_lines_scored_together_are_the_lines_scored_one_by_one(mixed_log: Path) -> None:
    # Runs of one rule set (longer than a batch's steps take at once), broken by lines of
    # other rule sets and by malformed lines, in chunks that start anywhere.
    mixed = mixed_log.read_bytes().splitlines(keepends=True)
    raws = mixed + sorted(mixed, key=_named_ruleset)  # then long runs of each rule set
    scorer = LineScorer(served_rulesets(), "mcr")
    one_by_one = [scorer.line(raw, n) for n, raw in enumerate(raws, 1)]
    together = []
    for start in range(0, len(raws), 97):
        together += scorer.lines(raws[start:start + 97], start + 1)
    assert together == one_by_one
    assert any(error for _, _, error in one_by_one)  # error items among them


def test_waits_lines_scored_together_are_the_lines_scored_one_by_one() -> None:
    rulesets = served_rulesets()
    raws = [line.encode() for line in loggen.log_lines(
        rulesets, sorted(loggen.tile_rulesets(rulesets)), 300, seed=5, waits=True,
        malformed=0.04)]
    scorer = LineScorer(rulesets, "mcr", "waits")
    one_by_one = [scorer.line(raw, n) for n, raw in enumerate(raws, 1)]
    assert scorer.lines(raws, 1) == one_by_one
    assert any(ready for _, ready, _ in one_by_one)


def test_a_line_the_engine_fails_on_is_its_own_error_and_the_log_names_it() -> None:
    scorer = LineScorer(served_rulesets(), "mcr")
    drawn = HAND.encode()
    discarded = b'{"hand":"123m456m789m123p55s","context":{"win_type":"discard","discarder":2}}'

    scorer._item = FAILS_ON_DISCARD_WINS
    # The batch's own logger: an app made by another test stops its records going further.
    logged = _Messages()
    logger = logging.getLogger(batch.__name__)
    logger.addHandler(logged)
    try:
        out = scorer.lines([drawn, b"", drawn, discarded, drawn], 40)
    finally:
        logger.removeHandler(logged)
    items = [json.loads(encoded) for encoded, _, _ in out]
    assert items[0] == items[2] == items[4] == json.loads(scorer.line(drawn, 1)[0])
    assert items[3]["error"]["code"] == "internal_error" and items[3]["error"]["line"] == 43
    assert logged.messages == ["unhandled error on line 43 for mcr"]


def test_an_item_made_to_be_encoded_that_orjson_refuses_is_made_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A batch of lines writes each answer for orjson alone (`batch.encoded_item`); one it
    # cannot encode is made again as a line alone makes it, for the fallback encoder.
    def steps(family: batch.AnyFamily) -> tuple[batch.Step, batch.Step, batch.Step]:
        return family.read_score, family.score, lambda result, rs: {"winning": 1 << 70}

    monkeypatch.setattr(batch, "encoded_score_item", batch.StepwiseItem(steps))
    scorer = LineScorer(served_rulesets(), "mcr")
    raws = [HAND.encode(), b"", HAND.encode()]
    assert scorer.lines(raws, 7) == [scorer.line(raw, n) for n, raw in enumerate(raws, 7)]


class _Messages(logging.Handler):
    """The messages of the records at ERROR or above."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def _named_ruleset(raw: bytes) -> str:
    try:
        return str(json.loads(raw).get("ruleset", ""))
    except (ValueError, AttributeError):
        return ""


def test_the_library_call_gives_the_same_bytes(mixed_log: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.jsonl"
    assert run(str(mixed_log), "-o", str(out), "-r", "mcr", capsys=capsys)[0] == 0
    with mixed_log.open("rb") as log:
        from_bytes = "".join(item + "\n" for item in score_lines(log, ruleset="mcr"))
    from_text = "".join(item + "\n" for item in score_lines(
        mixed_log.read_text(encoding="utf-8").splitlines(), ruleset="mcr"))
    assert from_bytes.encode() == from_text.encode() == out.read_bytes()
    # Numbering from another line, as for the second part of a split log.
    (item,) = score_lines(["{"], first_line=101)
    assert json.loads(item)["error"]["line"] == 101
    with pytest.raises(ValueError, match="no rule set 'riichi'"):
        score_lines([], ruleset="riichi")


def test_lines_name_their_rule_set_or_take_the_default(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join([
        HAND,
        HAND[:-1] + ',"ruleset":"tianjin"}',
        HAND[:-1] + ',"ruleset":"riichi"}',
        HAND[:-1] + ',"ruleset":7}',
        HAND[:-1] + ',"ruleset":null}',
    ]) + "\n")
    out = tmp_path / "out.jsonl"
    assert run(str(log), "-o", str(out), "--jobs", "1", capsys=capsys)[0] == 0
    items = [json.loads(line) for line in out.read_text().splitlines()]
    assert [i["error"]["code"] for i in (items[0], items[2], items[3], items[4])] == [
        "invalid_request", "unknown_ruleset", "invalid_request", "invalid_request"]
    assert items[0]["error"]["errors"][0]["pointer"] == "/ruleset"
    assert items[1]["result"]["ruleset"] == "tianjin"
    assert run(str(log), "-o", str(out), "-r", "sichuan", capsys=capsys)[0] == 0
    items = [json.loads(line) for line in out.read_text().splitlines()]
    assert [i["result"]["ruleset"] if "result" in i else i["error"]["code"] for i in items] == [
        "sichuan", "tianjin", "unknown_ruleset", "invalid_request", "sichuan"]


def test_a_card_rule_set_is_scored_like_the_others(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rulesets = served_rulesets()
    cards = sorted(set(rulesets) - set(loggen.tile_rulesets(rulesets)))
    assert cards, "no card rule set is served: this test has nothing to check"
    # A word-card hand (four players; seat 1 wins on seat 2's discard) beside a mahjong one.
    card_hand = json.dumps({"ruleset": cards[0], "hand": "123d2710x45x888x99x9d6x",
                            "context": {"win_type": "discard", "winner": 1, "discarder": 2}})
    log = tmp_path / "log.jsonl"
    log.write_text(card_hand + "\n" + HAND + "\n")
    out = tmp_path / "out.jsonl"
    assert run(str(log), "-o", str(out), "-r", "mcr", "--jobs", "1", capsys=capsys)[0] == 0
    first, second = (json.loads(line) for line in out.read_text().splitlines())
    assert first["result"]["ruleset"] == cards[0] and first["result"]["winning"] is True
    assert sum(first["result"]["payments"]["net"]) == 0
    assert second["result"]["ruleset"] == "mcr"
    # The card rule set as the default of lines that name none.
    log.write_text(json.dumps({k: v for k, v in json.loads(card_hand).items()
                               if k != "ruleset"}) + "\n")
    assert run(str(log), "-o", str(out), "-r", cards[0], "--jobs", "1", capsys=capsys)[0] == 0
    assert json.loads(out.read_text())["result"]["score"] > 0


def test_waits_and_the_time_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "waits.jsonl"
    log.write_text('{"hand":"1112345678999m","context":{"win_type":"self_draw"}}\n')
    out = tmp_path / "out.jsonl"
    code, err = run(str(log), "-o", str(out), "--waits", "-r", "mcr", capsys=capsys)
    assert code == 0 and "1 hands, 1 ready, 0 errors" in err
    assert len(json.loads(out.read_text())["result"]["waits"]) == 9
    assert run(str(log), "-o", str(out), "--waits", "-r", "mcr", "--time-limit", "1e-9",
               capsys=capsys)[0] == 0
    assert json.loads(out.read_text())["error"]["code"] == "time_limit_exceeded"


def test_analysis_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--analysis: each line as POST .../analysis answers it; shanten 0 (or -1) is ready."""
    lines = ['{"hand":"123m456m789m12p5s9sE","context":{"win_type":"self_draw"}}',
             '{"hand":"123m456m789m123p5s","context":{"win_type":"self_draw"},'
             '"visible":"5s"}',
             '{"hand":"123m456m789m12p","context":{"win_type":"self_draw"}}']
    log = tmp_path / "hands.jsonl"
    log.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.jsonl"
    code, err = run(str(log), "-o", str(out), "--analysis", "-r", "mcr", "--jobs", "1",
                    capsys=capsys)
    assert code == 0 and "3 hands, 1 ready, 1 errors" in err
    items = [json.loads(line) for line in out.read_text().splitlines()]
    client = create_app({"ACCESS_LOG": False}).test_client()
    for line, item in zip(lines[:2], items, strict=False):
        answer = client.post("/v1/rulesets/mcr/analysis", data=line,
                             content_type="application/json").get_json()
        assert item == {"result": answer}
    assert items[1]["result"]["useful"] == [{"tile": "5s", "left": 2}]
    assert items[2]["error"]["code"] == "wrong_tile_count" and items[2]["error"]["line"] == 3
    assert list(score_lines(lines[:1], "mcr", analysis=True)) == [out.read_text().split()[0]]
    assert analyse(json.loads(lines[0]), "mcr") == items[0]
    with pytest.raises(ValueError, match="not both"):
        score_lines(lines, "mcr", waits=True, analysis=True)
    with pytest.raises(SystemExit):
        cli.main(["--waits", "--analysis", str(log)])
    assert "not allowed with argument" in capsys.readouterr().err
    assert "--analysis" in cli.parser().format_help()


def test_usage_and_input_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--ruleset", "riichi", str(tmp_path / "x")])
    assert exit_.value.code == 2 and "no rule set 'riichi'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--jobs", "-1"])
    assert exit_.value.code == 2 and "--jobs takes 0" in capsys.readouterr().err
    assert run(str(tmp_path / "missing.jsonl"), capsys=capsys) == (
        1, f"mahjong-score: cannot read {tmp_path / 'missing.jsonl'}: No such file or "
           "directory\n")
    log = tmp_path / "log.jsonl"
    log.write_text(HAND + "\n")
    code, err = run(str(log), "-r", "mcr", "-o", str(tmp_path / "no" / "out"), capsys=capsys)
    assert code == 1 and "cannot write" in err


def test_the_installed_script_reads_stdin_and_explains_itself() -> None:
    shown = subprocess.run([str(SCRIPT), "--help"], capture_output=True, text=True, check=True)
    for option in ("--ruleset", "--jobs", "--waits", "--time-limit", "--progress",
                   "--no-progress", "--quiet", "--output", "--rulesets-dir", '"ruleset"',
                   '"line"', "Exit status"):
        assert option in shown.stdout, option
    done = subprocess.run([str(SCRIPT), "-r", "mcr", "--progress"], input=HAND + "\n" + HAND,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0
    assert len(done.stdout.splitlines()) == 2
    assert "hands/s" in done.stderr  # the bar's rate, then the summary
    assert done.stderr.rstrip().endswith(" jobs)")
    quiet = subprocess.run([str(SCRIPT), "-r", "mcr", "-q", "-j", "1"], input=HAND,
                           capture_output=True, text=True, timeout=120)
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout.count("\n") == 1


def test_progress_is_off_when_stderr_is_not_a_terminal(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text(HAND + "\n")
    code, err = run(str(log), "-r", "mcr", "-o", str(tmp_path / "o"), capsys=capsys)
    assert code == 0 and err.count("\n") == 1 and err.startswith("mahjong-score: 1 hands")



def test_rule_sets_that_cannot_be_loaded(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run("--rulesets-dir", str(tmp_path), str(tmp_path / "x"), capsys=capsys)
    assert code == 1
    assert err.startswith("mahjong-score: the rule sets cannot be loaded: no rule sets")


def test_a_reader_that_stops_early_is_no_failure() -> None:
    # `mahjong-score ... | head -1`: the rest of the output has nowhere to go.
    lines = "".join(HAND + "\n" for _ in range(3000))
    done = subprocess.run(["bash", "-c", f"set -o pipefail; '{SCRIPT}' -r mcr -j 2 | head -1"],
                          input=lines, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.count("\n") == 1
    assert "Traceback" not in done.stderr and "Broken pipe" not in done.stderr
