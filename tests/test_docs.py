"""Every command and example in README.md and docs/ is executed, and answers what the page says.

Each fenced block of a page (generated pages aside: their first line is `<!-- generated ...`,
and tests/test_generated_docs.py keeps them fresh) is one of:

- ```sh: run with bash (`-euo pipefail`) at the root of a scratch copy of the repository (one
  per page, so what a command writes is thrown away), `.venv/bin` first on PATH, `localhost:8000`
  pointing at a live `./run serve` of that copy, started for the page. When the next block
  is ```json, the command's stdout must be that JSON; when it is ```text, exactly that text
  (trailing spaces aside). Otherwise it must exit 0.
- ```python: run as a script by the project's Python, the same way.
- after `<!-- covered: PATH -->` or `<!-- covered: PATH::test_name -->`: a command that cannot
  run inside the suite (`./run test` itself, a container build, `kubectl`); PATH must exist,
  define `test_name` if it is named, and mention each command's first two words.
- after `<!-- file: PATH -->`: written to PATH in the page's copy, for the blocks after it (a
  recipe may add a rule set: the server starts at the first block that calls it).
- after `<!-- schema: Name -->` (json or yaml): valid against `openapi.yaml`'s schema `Name`.

Any other block fails the test: an example nobody runs is an example nobody checks.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from app.rules.load_files import load_yaml
from tests.api.helpers import validator_for
from tests.api.test_serve import _running

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = Path(sys.executable).parent
RUNNABLE = {"sh", "python"}
OUTPUTS = {"json", "text"}
COMMAND_TIMEOUT = 180
# What may surround a command's words in the file that runs it (quotes, an argv list).
QUOTING = re.compile(r"""[`"',\[\]()]""")
FENCE = re.compile(r"^(\s*)```(\S*)\s*$")
DIRECTIVE = re.compile(r"^\s*<!--\s*(covered|file|schema):\s*(.+?)\s*-->\s*$")


@dataclass
class Block:
    page: Path
    line: int  # 1-based line of the opening fence
    lang: str
    text: str
    directive: tuple[str, str] | None
    output: Block | None = None
    is_output: bool = False

    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


@dataclass
class Page:
    path: Path
    blocks: list[Block] = field(default_factory=list)


def pages() -> list[Path]:
    found = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return [p for p in found if not p.read_text(encoding="utf-8").startswith("<!-- generated")]


def parse(path: Path) -> Page:
    """The fenced blocks of a page, each with the directive on the line before it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    page = Page(path)
    i = 0
    while i < len(lines):
        opened = FENCE.match(lines[i])
        if not opened:
            i += 1
            continue
        indent, lang = opened.group(1), opened.group(2)
        body: list[str] = []
        j = i + 1
        while j < len(lines) and lines[j].strip() != "```":
            body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j])
            j += 1
        assert j < len(lines), f"{path.relative_to(ROOT)}:{i + 1}: the block is never closed"
        before = DIRECTIVE.match(lines[i - 1]) if i else None
        directive = (before.group(1), before.group(2)) if before else None
        page.blocks.append(Block(path, i + 1, lang, "\n".join(body) + "\n", directive))
        i = j + 1
    # A json/text block right after a runnable one (prose between them allowed) is its output.
    for prev, block in zip(page.blocks, page.blocks[1:], strict=False):
        if (prev.lang in RUNNABLE and prev.directive is None and block.lang in OUTPUTS
                and block.directive is None):
            prev.output, block.is_output = block, True
    return page


PAGES = [parse(p) for p in pages()]


@contextlib.contextmanager
def serving(root: Path, tmp: Path) -> Iterator[int]:
    """`./run serve` of the scratch copy at `root`, as the page's reader would start it: no
    rule-set directory, time limit or metrics directory of this process's environment."""
    with _running(tmp, root, drop=("MAHJONG_", "PROMETHEUS"),
                  MAHJONG_ACCESS_LOG="off") as (port, _log):
        yield port


def _tracked() -> list[str]:
    """The repository's files (those git tracks; all of them where there is no git)."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                                check=True).stdout.decode()
        return [name for name in listed.split("\0") if name]
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", ".venv", "build"}
        return [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                if p.is_file() and not skip & set(p.relative_to(ROOT).parts)]


class Runner:
    """Runs one page's blocks in order, in a scratch copy of the repository (its `.venv` the
    real one): the code as committed, pure Python, and nothing written back."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.root: Path | None = None
        self.stack = contextlib.ExitStack()
        self.port: int | None = None

    def scratch(self) -> Path:
        if self.root is None:
            copy = self.tmp / "repo"
            for name in _tracked():
                source = ROOT / name
                if source.is_file():
                    (copy / name).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(source, copy / name)
            (copy / ".venv").symlink_to(ROOT / ".venv")
            self.root = copy
        return self.root

    def server(self) -> int:
        if self.port is None:
            self.port = self.stack.enter_context(serving(self.scratch(), self.tmp))
        return self.port

    def run(self, block: Block) -> str:
        code = block.text
        if "localhost:8000" in code:
            code = code.replace("localhost:8000", f"127.0.0.1:{self.server()}")
        root = self.scratch()
        env = dict(os.environ, PATH=f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}",
                   RUN_NO_INSTALL="1", PYTHONPATH=str(root))
        argv = (["bash", "-euo", "pipefail", "-c", code] if block.lang == "sh"
                else [sys.executable, "-c", code])
        # A session of its own, killed whole afterwards: nothing a command starts outlives it.
        proc = subprocess.Popen(argv, cwd=root, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            stdout, stderr = proc.communicate(timeout=COMMAND_TIMEOUT)
        except subprocess.TimeoutExpired:
            stdout, stderr = "", f"timed out after {COMMAND_TIMEOUT} s"
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        done = subprocess.CompletedProcess(argv, proc.returncode, stdout, stderr)
        assert done.returncode == 0, (
            f"{block.where()}: exit {done.returncode}\n--- command\n{code}\n--- stdout\n"
            f"{done.stdout[-4000:]}\n--- stderr\n{done.stderr[-4000:]}")
        return done.stdout

    def close(self) -> None:
        self.stack.close()


def _openapi_validator(name: str) -> Draft202012Validator:
    spec = load_yaml((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    assert name in spec["components"]["schemas"], f"openapi.yaml has no schema {name!r}"
    return validator_for(spec, f"/components/schemas/{name}")


def check_covered(block: Block, targets: str) -> None:
    """Each of the named files exists (and defines the named test), and each command of the
    block appears in one of them, as words or as an argv list."""
    mentioned = ""
    for target in targets.split():
        path, _, test = target.partition("::")
        source = ROOT / path
        assert source.is_file(), f"{block.where()}: covered by {path}, which does not exist"
        text = source.read_text(encoding="utf-8")
        if test:
            assert re.search(rf"^\s*def {re.escape(test)}\(", text, re.M), (
                f"{block.where()}: {path} defines no {test}")
        mentioned += f" {' '.join(QUOTING.sub(' ', text).split())} "
    if block.lang != "sh":
        return
    for line in block.text.splitlines():
        command = line.split("#", 1)[0].split()
        if command:
            assert f" {' '.join(command[:2])} " in mentioned, (
                f"{block.where()}: {targets} never runs `{' '.join(command[:2])}`")


def run_page(page: Page, tmp: Path) -> None:
    runner = Runner(tmp)
    try:
        for block in page.blocks:
            if block.is_output:
                continue
            kind, target = block.directive or ("", "")
            if kind == "covered":
                check_covered(block, target)
            elif kind == "file":
                dest = runner.scratch() / target
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_text(block.text, encoding="utf-8")
            elif kind == "schema":
                assert block.lang in {"json", "yaml"}, f"{block.where()}: schema of a {block.lang}"
                value = json.loads(block.text) if block.lang == "json" else load_yaml(
                    block.text)
                errors = [e.message for e in _openapi_validator(target).iter_errors(value)]
                assert not errors, f"{block.where()}: not a valid {target}: {errors[:3]}"
            elif block.lang in RUNNABLE:
                out = runner.run(block)
                if block.output is None:
                    continue
                if block.output.lang == "json":
                    assert json.loads(out) == json.loads(block.output.text), (
                        f"{block.where()}: the answer is not the JSON shown at line "
                        f"{block.output.line}:\n{out[:4000]}")
                else:
                    got = [s.rstrip() for s in out.rstrip("\n").splitlines()]
                    shown = [s.rstrip() for s in block.output.text.rstrip("\n").splitlines()]
                    assert got == shown, (f"{block.where()}: the output is not the text shown "
                                          f"at line {block.output.line}:\n{out[:4000]}")
            else:
                pytest.fail(f"{block.where()}: a ```{block.lang} block that nothing runs or "
                            "checks: make it sh, python, an output, or mark it covered/file/schema")
    finally:
        runner.close()


@pytest.mark.parametrize("page", PAGES, ids=[str(p.path.relative_to(ROOT)) for p in PAGES])
def test_every_block_of_the_page_runs_as_shown(page: Page, tmp_path: Path) -> None:
    run_page(page, tmp_path)


def test_the_pages_are_found() -> None:
    names = {str(p.path.relative_to(ROOT)) for p in PAGES}
    assert {"README.md", "docs/api.md", "docs/bulk.md"} <= names
    assert sum(len(p.blocks) for p in PAGES) > 20


def test_readme_starts_with_the_two_commands_and_stays_short() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) < 200
    first = PAGES[0].blocks[0]
    assert first.lang == "sh"
    commands = [line.split("#")[0].strip() for line in first.text.splitlines()]
    assert commands == ["./run serve", "./run test"]


def test_a_wrong_answer_fails(tmp_path: Path) -> None:
    """The runner is not a rubber stamp: a shown output the command does not print fails, an
    unmarked block fails, a command that fails fails, a `covered` naming nothing fails."""
    page = tmp_path / "p.md"
    cases = {
        "```sh\necho '{\"a\": 1}'\n```\n\n```json\n{\"a\": 2}\n```\n": "not the JSON shown",
        "```sh\necho hi\n```\n\n```text\nho\n```\n": "not the text shown",
        "```\nplain\n```\n": "nothing runs or checks",
        "```sh\nfalse\n```\n": "exit 1",
        "<!-- covered: tests/test_docs.py::no_such_test -->\n```sh\n./run test\n```\n":
            "defines no no_such_test",
        "<!-- covered: run -->\n```sh\nkubectl apply -k deploy/\n```\n": "never runs",
        "<!-- schema: ScoreRequest -->\n```json\n{\"hand\": 5}\n```\n": "not a valid",
    }
    for n, (text, message) in enumerate(cases.items()):
        page.write_text(text, encoding="utf-8")
        parsed = parse(page)
        parsed.path = ROOT / "p.md"
        for b in parsed.blocks:
            b.page = ROOT / "p.md"
        (tmp_path / str(n)).mkdir()
        with pytest.raises((AssertionError, pytest.fail.Exception)) as failed:
            run_page(parsed, tmp_path / str(n))
        assert message in str(failed.value), (text, str(failed.value)[:300])
    page.write_text("```sh\necho '{\"a\": [1]}'\n```\n\n```json\n{\"a\": [1]}\n```\n",
                    encoding="utf-8")
    ok = parse(page)
    for b in ok.blocks:
        b.page = ROOT / "p.md"
    (tmp_path / "ok").mkdir()
    run_page(ok, tmp_path / "ok")


LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", PAGES, ids=[str(p.path.relative_to(ROOT)) for p in PAGES])
def test_every_link_of_the_page_resolves(page: Page) -> None:
    """Relative links point at files of the repository (anchors at headings of the page)."""
    text = page.path.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        dest = (page.path.parent / path).resolve() if path else page.path
        assert dest.exists(), f"{page.path.relative_to(ROOT)}: {target} does not exist"
        assert ROOT in dest.parents or dest == ROOT, f"{target} leaves the repository"
        if anchor and dest.suffix == ".md":
            headings = {_anchor(h) for h in re.findall(r"^#+\s+(.*)$",
                                                        dest.read_text(encoding="utf-8"), re.M)}
            assert anchor in headings, f"{page.path.relative_to(ROOT)}: no heading #{anchor}"


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    kept = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return kept.replace(" ", "-")
