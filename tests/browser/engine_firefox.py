"""The Firefox driver of the engine smoke tests: Debian's firefox-esr, headless, through WebDriver BiDi.

No geckodriver exists here and Playwright's own Firefox cannot be downloaded, so a small Node
process (``firefox_bridge.mjs``) drives the browser with npm ``puppeteer-core`` (pinned in
package.json; it downloads no browser) and answers JSON lines on its stdin/stdout; this module is
the Python side of that conversation, an ``EngineDriver`` (``engine_driver.py``).

Page errors are puppeteer's ``pageerror`` events, which Firefox sends for the uncaught errors and
unhandled rejections of the page and of its dedicated workers, and dialogs (console messages are
not counted, as in the Chromium tests). Firefox's reports of a worker's load that leaving the page
cut short are not the page's errors: the bridge keeps those apart (``loads_cut_short``).
"""

import json
import queue
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
BRIDGE = Path(__file__).with_name("firefox_bridge.mjs")
FIREFOX = Path("/usr/bin/firefox-esr")
PUPPETEER = ROOT / "node_modules" / "puppeteer-core"
START_TIMEOUT = 60.0
"""Seconds the browser may take to start (about 3 s here)."""
SLACK = 30.0
"""Seconds the bridge may take beyond a command's own timeout before it counts as hung."""
COMMAND_TIMEOUT = 120.0
"""A command's own timeout (navigation, a click waiting for its element) unless given."""


class FirefoxDriver:
    """One Firefox window with one page, driven through ``firefox_bridge.mjs``."""

    name = "firefox"

    def __init__(self, profile_dir: Path) -> None:
        profile_dir.mkdir(parents=True, exist_ok=True)
        node = shutil.which("node")
        self._stderr: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._next_id = 0
        self._process = subprocess.Popen(
            [node, str(BRIDGE), str(profile_dir), str(FIREFOX)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self._readers = [
            threading.Thread(target=self._read, args=(self._process.stdout, self._lines), daemon=True),
            threading.Thread(target=self._read, args=(self._process.stderr, None), daemon=True),
        ]
        for reader in self._readers:
            reader.start()
        hello = self._receive(START_TIMEOUT, "the browser's start")
        if not hello.get("ready"):
            self._stop()
            raise RuntimeError(f"firefox-esr did not start through puppeteer-core: {hello.get('error')}")
        self.version: str = hello["version"]

    def _read(self, stream, into: "queue.Queue[str | None] | None") -> None:
        try:
            for line in stream:
                if into is None:
                    self._stderr.append(line.rstrip("\n"))
                    del self._stderr[:-50]  # the last lines are enough to tell why it died
                else:
                    into.put(line)
        except (OSError, ValueError):  # closed by _stop: the bridge is gone
            pass
        if into is not None:
            into.put(None)  # the bridge ended

    def _receive(self, timeout: float, what: str) -> dict:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            self._stop()
            raise RuntimeError(f"the Firefox bridge gave no answer to {what} in {timeout:.0f} s") from None
        if line is None:
            self._process.wait(timeout=10)
            stderr = "\n".join(self._stderr[-20:])
            raise RuntimeError(f"the Firefox bridge ended (exit {self._process.returncode}) during {what}:\n{stderr}")
        return json.loads(line)

    def _call(self, cmd: str, timeout: float = COMMAND_TIMEOUT, **args: Any) -> Any:
        """Send ``cmd`` (its own ``timeout`` in seconds goes along) and return the bridge's answer."""
        args["timeout"] = timeout
        if self._process.poll() is not None:
            raise RuntimeError(f"the Firefox bridge is not running (exit {self._process.returncode}); {cmd} not sent")
        self._next_id += 1
        self._process.stdin.write(json.dumps({"id": self._next_id, "cmd": cmd, "args": args}) + "\n")
        self._process.stdin.flush()
        answer = self._receive(timeout + SLACK, f"{cmd} {json.dumps(args)[:200]}")
        if answer.get("id") != self._next_id:
            raise RuntimeError(f"the Firefox bridge answered {answer!r} to {cmd} #{self._next_id}")
        if not answer["ok"]:
            shown = {k: v for k, v in args.items() if k != "timeout"}
            raise FirefoxError(f"firefox {cmd} {json.dumps(shown)[:300]} failed: {answer['error']}")
        return answer["value"]

    def goto(self, url: str) -> None:
        self._call("goto", url=url)

    def reload(self) -> None:
        self._call("reload")

    def evaluate(self, function: str, *args: Any) -> Any:
        return self._call("evaluate", function=function, args=list(args))

    def wait_for(self, function: str, *args: Any, timeout: float = 120.0) -> Any:
        try:
            return self._call("wait_for", function=function, args=list(args), timeout=timeout)
        except FirefoxError as e:
            if "failed: timed out after" in str(e):
                raise AssertionError(str(e).split(" failed: ", 1)[1]) from None
            raise

    def click(self, selector: str) -> None:
        self._call("click", selector=selector)

    def type_keys(self, text: str) -> None:
        self._call("type_keys", text=text)

    def screenshot(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._call("screenshot", path=str(path.resolve()))

    def set_viewport(self, width: int, height: int) -> None:
        self._call("set_viewport", width=width, height=height)

    def page_errors(self) -> list[str]:
        return self._call("page_errors")

    def loads_cut_short(self) -> list[str]:
        """Firefox's reports, during a navigation of the driver's, of a worker's load that leaving
        the page ended (``firefox_bridge.mjs``: CUT_SHORT), kept out of ``page_errors``."""
        return self._call("loads_cut_short")

    def close(self) -> None:
        if self._process.poll() is None:
            try:
                self._call("close", timeout=20)
            except RuntimeError:
                pass
        self._stop()

    def _stop(self) -> None:
        """End the bridge (and with it the browser it launched): asked by closing stdin, then killed."""
        if self._process.poll() is None:
            self._process.stdin.close()
            try:
                self._process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self._process.terminate()  # puppeteer ends the browser on SIGTERM
                try:
                    self._process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self._process.kill()
                    self._process.wait()
        for reader in self._readers:  # at the end of the bridge's output now
            reader.join(timeout=5)
        for stream in (self._process.stdin, self._process.stdout, self._process.stderr):
            stream.close()


class FirefoxError(RuntimeError):
    """A command the page or the browser refused (an exception thrown in the page, a missing element…)."""


def missing() -> str | None:
    """What is not installed for this driver, as a message saying how to install it, or None."""
    absent = []
    if not FIREFOX.exists():
        absent.append(f"{FIREFOX} (apt-get install -y firefox-esr)")
    if shutil.which("node") is None:
        absent.append("node (apt-get install -y nodejs npm)")
    if not PUPPETEER.exists():
        absent.append("node_modules/puppeteer-core (npm ci)")
    return f"Firefox's smoke tests need {', '.join(absent)}" if absent else None


def start_firefox(profile_dir: Path) -> FirefoxDriver:
    """Firefox with ``profile_dir`` as its profile: a new folder is a first visit's empty profile, the
    same folder again a relaunch that keeps its storage (localStorage, Cache Storage, service workers)."""
    problem = missing()
    if problem:
        raise RuntimeError(problem)
    return FirefoxDriver(profile_dir)
