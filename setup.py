"""The build: the engine's hot modules compiled with mypyc when a C compiler is at hand.

The modules are listed in pyproject.toml (`[tool.mahjong-scoring] compiled`). Compiled, a
hand is scored faster (`bench/mcr.py` prints which build it times); the compiled modules are
the same source, type-checked by mypy on the way, and give the same results
(tests/test_build.py compares both builds). Without a working C compiler and Python's
headers, or with MAHJONG_PURE_PYTHON=1 set, the install still succeeds and the engine runs as
plain Python; so it does when the C compiler fails on the generated code. A module mypy
refuses stops the build. Either way `pip install -e .` leaves the package importable from the
source tree: compiled modules sit beside their sources (`*.so`), and a build without them
removes any left from an earlier one, so a stale compiled module never shadows its source.
"""

from __future__ import annotations

import os
import sys
import sysconfig
import tempfile
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
COMPILED: list[str] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
    "tool"]["mahjong-scoring"]["compiled"]
GROUP = "mahjong_engine"  # the compiled modules' shared library: mahjong_engine__mypyc.*.so
PURE_ENV = "MAHJONG_PURE_PYTHON"


def _say(message: str) -> None:
    print(f"mahjong-scoring build: {message}", file=sys.stderr)


# What the last build made, for tests/test_build.py: `compiled`, or `python: <why>`.
RECORD = ROOT / "build" / "engine-build"


def _record(outcome: str) -> None:
    RECORD.parent.mkdir(exist_ok=True)
    RECORD.write_text(outcome + "\n", encoding="utf-8")


def _remove_compiled() -> None:
    """Remove compiled modules left beside their sources by an earlier build."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    for source in COMPILED:
        Path(ROOT, source).with_suffix(suffix).unlink(missing_ok=True)
    for lib in ROOT.glob(f"{GROUP}__mypyc*{suffix}"):
        lib.unlink()


def _can_compile() -> bool:
    """Whether a C compiler builds an extension against this Python's headers."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler

    compiler: Any = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp, "probe.c")
        probe.write_text("#include <Python.h>\nint probe(void) { return 0; }\n")
        try:
            compiler.compile([str(probe)], output_dir=tmp,
                             include_dirs=[sysconfig.get_paths()["include"]])
        except Exception as exc:  # any failure means: no usable compiler
            _say(f"no working C compiler with Python's headers ({exc})")
            return False
    return True


def _ext_modules() -> list[Any]:
    _remove_compiled()
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        _say(f"{PURE_ENV} is set: the engine runs as plain Python")
        _record(f"python: {PURE_ENV} set")
        return []
    if not _can_compile():
        _say("the engine runs as plain Python (same results, slower)")
        _record("python: no C compiler")
        return []
    _record("compiled")
    from mypyc.build import mypycify

    _say(f"compiling {len(COMPILED)} engine modules with mypyc")
    # mypy checks the compiled modules (strict, from pyproject.toml); the modules they import
    # are read for their types only, and the web framework need not be installed to build.
    # A module mypy refuses stops the build: that is a fault in the source, not the machine.
    # One C file per module (multi_file), so that the C compiler can work on them side by side
    # (_BuildExt); the modules still share one library (group_name).
    return mypycify(["--follow-imports=silent", "--ignore-missing-imports", *COMPILED],
                    opt_level="3", group_name=GROUP, multi_file=True)


class _BuildExt(build_ext):
    """Building the compiled modules falls back to plain Python rather than failing."""

    def build_extensions(self) -> None:
        # distutils compiles the sources of one extension one after another; each C file
        # is compiled on its own, so they go to the compiler side by side, one per core.
        compile_one = self.compiler.compile

        def compile_all(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
            if len(sources) < 2:
                return list(compile_one(sources, *args, **kwargs))
            with ThreadPoolExecutor(max(os.cpu_count() or 1, 1)) as pool:
                parts = list(pool.map(lambda s: compile_one([s], *args, **kwargs), sources))
            return [obj for part in parts for obj in part]

        self.compiler.compile = compile_all
        super().build_extensions()

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            _say(f"compiling failed ({exc}); the engine runs as plain Python")
            _record(f"python: compiling failed ({exc})")
            for out in self.get_outputs():
                Path(out).unlink(missing_ok=True)
            _remove_compiled()
            self.extensions = []


setup(ext_modules=_ext_modules(), cmdclass={"build_ext": _BuildExt})
