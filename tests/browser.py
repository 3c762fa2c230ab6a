"""A headless Chromium driven over the DevTools protocol, for the tests of the pages and
pictures in a real browser (tests/api/test_browser_pages.py).

The protocol runs over a pipe (`--remote-debugging-pipe`: JSON messages ended by a NUL byte,
the browser reading file descriptor 3 and writing 4), so no WebSocket client and no network
port are needed. One browser per test module; each `Page` is a tab of it with its own
viewport. `serving` serves an app on a loopback port for the browser to load (the pages'
tests and the /docs test share it).
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.serving import make_server

BROWSER = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome")
                if shutil.which(b)), None)
NO_BROWSER = ("no headless browser here (Debian: apt-get install chromium; .ci/run installs "
              "it): the pages and pictures are checked in a browser where one is")


@contextmanager
def serving(app: Flask) -> Iterator[str]:
    """The app served on a free loopback port in a thread, for as long as the block runs; its
    base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()


class BrowserError(RuntimeError):
    pass


def _high(fd: int) -> int:
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return moved


class Browser:
    """A headless Chromium and its protocol connection (`call`)."""

    def __init__(self, executable: str, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self.profile = tempfile.TemporaryDirectory(prefix="chromium-")
        to_browser_r, self._write = os.pipe()
        self._read, from_browser_w = os.pipe()
        # The browser's ends moved above 9, so that neither is 3 or 4 itself when the shell
        # sets those (under pytest's capture the pipes may get the lowest numbers).
        to_browser_r, from_browser_w = (_high(to_browser_r), _high(from_browser_w))
        # The browser's fds 3 and 4, set by the shell (bash: dash reads one-digit descriptors
        # only; no preexec_fn: threads may be running).
        args = " ".join([
            f"exec '{executable}'", "--headless", "--no-sandbox", "--disable-gpu",
            "--disable-dev-shm-usage", "--no-first-run", "--hide-scrollbars",
            "--remote-debugging-pipe", f"--user-data-dir='{self.profile.name}'",
            f"3<&{to_browser_r}", f"4>&{from_browser_w}"])
        self.process = subprocess.Popen(["bash", "-c", args],
                                        pass_fds=(to_browser_r, from_browser_w),
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0

    def call(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        """Send a command and wait for its result (events meanwhile are dropped)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        os.write(self._write, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            while b"\0" in self._buffer:
                raw, _, self._buffer = self._buffer.partition(b"\0")
                got = json.loads(raw)
                if got.get("id") == self._next_id:
                    if "error" in got:
                        raise BrowserError(f"{method}: {got['error']}")
                    result: dict[str, Any] = got["result"]
                    return result
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._read], [], [], left)[0]:
                raise BrowserError(f"{method}: no answer within {self.timeout} s")
            chunk = os.read(self._read, 1 << 20)
            if not chunk:
                raise BrowserError(f"{method}: the browser closed the connection")
            self._buffer += chunk

    def page(self, width: int, height: int, *, mobile: bool = False) -> Page:
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        page = Page(self, session, width, height, mobile)
        self.call("Page.enable", session)
        self.call("Runtime.enable", session)
        page.resize(width, height)
        return page

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except BrowserError:
            pass
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._write)
        os.close(self._read)
        self.profile.cleanup()


class Page:
    """One tab: navigate, evaluate scripts, click and type as a person does, screenshots."""

    def __init__(self, browser: Browser, session: str, width: int, height: int,
                 mobile: bool) -> None:
        self.browser, self.session = browser, session
        self.width, self.height, self.mobile = width, height, mobile

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        return self.browser.call(method, self.session, **params)

    def resize(self, width: int, height: int) -> None:
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=1, mobile=self.mobile)

    def goto(self, url: str) -> None:
        self.call("Page.navigate", url=url)
        self.wait("document.readyState === 'complete' && location.href !== 'about:blank'")

    def eval(self, expression: str) -> Any:
        """The value of a script (awaited when it is a promise); its exception raised."""
        got = self.call("Runtime.evaluate", expression=expression, returnByValue=True,
                        awaitPromise=True)
        if "exceptionDetails" in got:
            raise BrowserError(f"{expression[:80]}: {got['exceptionDetails']}")
        return got["result"].get("value")

    def wait(self, expression: str, timeout: float = 20.0) -> Any:
        """Wait until the script's value is truthy; return it."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.eval(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise BrowserError(f"waited {timeout} s for {expression}")
            time.sleep(0.05)

    def click(self, selector: str) -> None:
        """A mouse click at the middle of the element (scrolled into view first)."""
        box = self.eval(f"""(() => {{ const e = document.querySelector({json.dumps(selector)});
            if (!e) return null; e.scrollIntoView({{block: 'center'}});
            const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2];
            }})()""")
        if box is None:
            raise BrowserError(f"nothing matches {selector}")
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=box[0], y=box[1],
                      button="left", clickCount=1)

    def type(self, text: str) -> None:
        """Text typed into the focused element."""
        for ch in text:
            self.call("Input.dispatchKeyEvent", type="keyDown", text=ch, key=ch)
            self.call("Input.dispatchKeyEvent", type="keyUp", key=ch)

    def press(self, key: str, code: int) -> None:
        """A key pressed and released (`Enter`, 13; `Tab`, 9)."""
        self.call("Input.dispatchKeyEvent", type="rawKeyDown", key=key,
                  windowsVirtualKeyCode=code, nativeVirtualKeyCode=code)
        if key == "Enter":
            self.call("Input.dispatchKeyEvent", type="char", text="\r", key=key)
        self.call("Input.dispatchKeyEvent", type="keyUp", key=key, windowsVirtualKeyCode=code,
                  nativeVirtualKeyCode=code)

    def screenshot(self, path: Path) -> Path:
        """The whole page, as tall as its content, at the page's width."""
        height = int(self.eval("document.documentElement.scrollHeight"))
        self.resize(self.width, max(height, 100))
        shot = self.call("Page.captureScreenshot", format="png")
        self.resize(self.width, self.height)
        path.write_bytes(base64.b64decode(shot["data"]))
        return path
