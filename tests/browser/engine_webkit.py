"""The WebKit driver of the engine smoke tests: WebKitGTK's MiniBrowser driven by WebKitWebDriver.

Debian's ``webkit2gtk-driver`` package has ``/usr/bin/WebKitWebDriver``; the browser it drives is
``MiniBrowser`` from ``libwebkit2gtk-4.1-0`` (a dependency), started with ``--automation``. It
needs an X display (it has no headless mode): ``start_webkit`` starts an ``Xvfb`` of its own
(package ``xvfb``). This module talks W3C WebDriver (classic, HTTP and JSON) to the driver with
urllib: no dependency of its own.

WebDriver classic cannot run a script before a page's own, nor report the page's errors. The page
is therefore served with ``ERROR_WATCH`` as the first script of its head (``with_error_watch``,
for ``SiteServer.replace``): it keeps the page's uncaught errors and unhandled rejections in a
list, which ``page_errors`` reads (before each navigation too, so none is lost by leaving a page).
A page without the watch makes ``page_errors`` fail rather than say "no errors".

Storage: MiniBrowser's automation sessions are ephemeral (``--automation`` gives the browser an
ephemeral website data manager): localStorage, Cache Storage and service workers last as long as
the session, across navigations and reloads, and nothing is kept when ``start_webkit`` is called
again on the same ``profile_dir`` (which holds only HOME, the XDG folders and the driver's log).
Service workers work over http://127.0.0.1 (a secure context).

The window has no device emulation: ``set_viewport`` sizes the window (its toolbar made small
enough by a GTK stylesheet for a phone's width), the page sees a desktop browser (no touch,
device pixel ratio 1), and the page's workers' errors are not seen (only what reaches the page).
"""

import base64
import json
import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

DRIVER = Path("/usr/bin/WebKitWebDriver")
BROWSER = Path("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
XVFB = "Xvfb"
PACKAGES = "webkit2gtk-driver xvfb"
"""What ``apt-get install`` needs for this driver (Debian bookworm)."""

TOOLBAR_CSS = "* { font-size: 1px; min-width: 0; min-height: 0; padding: 0; margin: 0; border-width: 0; }\n"
"""GTK 3's user stylesheet (``$XDG_CONFIG_HOME/gtk-3.0/gtk.css``) for MiniBrowser's own widgets."""

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
"""The key of a web element reference in WebDriver's JSON."""

ERROR_WATCH = """<script>
  // Engine smoke tests (tests/browser/engine_webkit.py): the page's uncaught errors and unhandled
  // rejections, kept for WebDriver to read (it has no event for them).
  (() => {
    const seen = (self.__engineErrors = []);
    const stack = (error) => (error?.stack ? `\n${error.stack}` : "");
    addEventListener("error", (event) => {
      const where = event.filename ? ` (${event.filename}:${event.lineno})` : "";
      seen.push(`error: ${event.message}${where}${stack(event.error)}`);
    });
    addEventListener("unhandledrejection", (event) => {
      const reason = event.reason instanceof Error ? `${event.reason.name}: ${event.reason.message}` : event.reason;
      seen.push(`unhandled rejection: ${reason}${stack(event.reason)}`);
    });
  })();
</script>"""


def with_error_watch(html: bytes) -> bytes:
    """``html`` with ``ERROR_WATCH`` as the first thing in its head (before the page's own scripts)."""
    head = html.index(b"<head>") + len(b"<head>")
    return html[:head] + ERROR_WATCH.encode() + html[head:]


def missing() -> str | None:
    """What is not installed for this driver, as a message naming the Debian packages, or None."""
    absent = [str(p) for p in (DRIVER, BROWSER) if not p.exists()]
    if shutil.which(XVFB) is None:
        absent.append(XVFB)
    if not absent:
        return None
    return f"WebKit's smoke tests need {', '.join(absent)}: apt-get install -y {PACKAGES}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebKitDriver:
    """An EngineDriver (engine_driver.py) for MiniBrowser through WebKitWebDriver."""

    name = "webkit"

    def __init__(self, profile_dir: Path, timeout: float = 120.0) -> None:
        self.timeout = timeout
        self.errors: list[str] = []
        self.processes: list[subprocess.Popen] = []
        self.session: str | None = None
        profile_dir.mkdir(parents=True, exist_ok=True)
        self.log = open(profile_dir / "webdriver.log", "ab")  # the driver's and the browser's output
        # GTK draws MiniBrowser's toolbar from this stylesheet: as small as it goes, so that the
        # window can be as narrow as a phone (its least width is otherwise 447 px). The page's
        # own sizes and fonts are WebKit's, untouched.
        gtk = profile_dir / "config" / "gtk-3.0" / "gtk.css"
        gtk.parent.mkdir(parents=True, exist_ok=True)
        gtk.write_text(TOOLBAR_CSS)
        env = dict(os.environ)
        env.update(
            HOME=str(profile_dir),
            XDG_DATA_HOME=str(profile_dir / "data"),
            XDG_CACHE_HOME=str(profile_dir / "cache"),
            XDG_CONFIG_HOME=str(profile_dir / "config"),
            # No GPU here: WebKit's compositing runs in software.
            LIBGL_ALWAYS_SOFTWARE="1",
        )
        try:
            env["DISPLAY"] = self._start_xvfb()
            self.port = free_port()
            self.processes.append(
                subprocess.Popen(
                    [str(DRIVER), f"--port={self.port}"],
                    env=env,
                    stdout=self.log,
                    stderr=subprocess.STDOUT,
                )
            )
            self._wait_for_driver()
            capabilities = {"webkitgtk:browserOptions": {"binary": str(BROWSER), "args": ["--automation"]}}
            self.session = self._call("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})["sessionId"]
            ms = int(timeout * 1000)
            self._command("POST", "/timeouts", {"script": ms + 10_000, "pageLoad": ms, "implicit": 0})
        except BaseException:
            self.close()
            raise

    # Processes and the protocol ------------------------------------------------------------

    def _start_xvfb(self) -> str:
        """An Xvfb on a free display (it picks the number and writes it to a pipe); returns DISPLAY."""
        read, write = os.pipe()
        xvfb = subprocess.Popen(
            [XVFB, "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            pass_fds=(write,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.processes.append(xvfb)
        os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number:
            raise RuntimeError("Xvfb did not start")
        return f":{number}"

    def _wait_for_driver(self) -> None:
        deadline = time.monotonic() + 20
        while True:
            try:
                self._call("GET", "/status")
                return
            except OSError:
                if time.monotonic() > deadline or self.processes[-1].poll() is not None:
                    raise RuntimeError("WebKitWebDriver did not start") from None
                time.sleep(0.05)

    def _call(self, method: str, path: str, body: dict | None = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            data=data,
            method=method,
            headers={"Content-Type": "application/json; charset=utf-8"},
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout + 30) as response:
                return json.load(response)["value"]
        except urllib.error.HTTPError as e:
            value = json.load(e).get("value", {})
            raise WebDriverError(f"{method} {path}: {value.get('error')}: {value.get('message')}") from None

    def _command(self, method: str, path: str, body: dict | None = None) -> Any:
        return self._call(method, f"/session/{self.session}{path}", body)

    # EngineDriver -------------------------------------------------------------------------

    def goto(self, url: str) -> None:
        self._keep_errors()
        self._command("POST", "/url", {"url": url})

    def reload(self) -> None:
        self._keep_errors()
        self._command("POST", "/refresh", {})

    def evaluate(self, function: str, *args: Any) -> Any:
        script = f"""const done = arguments[arguments.length - 1];
            Promise.resolve()
              .then(() => ({function})(...arguments[0]))
              .then((value) => done({{ value: value === undefined ? null : value }}),
                    (error) => done({{ error: String(error?.stack ?? error) }}));"""
        answer = self._command("POST", "/execute/async", {"script": script, "args": [list(args)]})
        if "error" in answer:
            raise WebDriverError(f"the page threw: {answer['error']}\nin: {function}")
        return answer["value"]

    def wait_for(self, function: str, *args: Any, timeout: float = 120.0) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(function, *args)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: not true within {timeout} s: {function} (last: {value!r})")
            time.sleep(0.1)

    def click(self, selector: str) -> None:
        element = self._command("POST", "/element", {"using": "css selector", "value": selector})[ELEMENT]
        self._command("POST", f"/element/{element}/click", {})

    def type_keys(self, text: str) -> None:
        keys = [{"type": kind, "value": key} for key in text for kind in ("keyDown", "keyUp")]
        self._command("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": keys}]})
        self._command("DELETE", "/actions")

    def screenshot(self, path: Path) -> None:
        path.write_bytes(base64.b64decode(self._command("GET", "/screenshot")))

    def set_viewport(self, width: int, height: int) -> None:
        """The window's size, corrected by the browser's frame (MiniBrowser's toolbar): there is no
        emulation, so the page sees a desktop browser of that size (no touch, device pixel ratio 1)."""
        for _ in range(3):
            inner = self.evaluate("() => [innerWidth, innerHeight]")
            if inner == [width, height]:
                return
            rect = self._command("GET", "/window/rect")
            size = {"width": rect["width"] + width - inner[0], "height": rect["height"] + height - inner[1]}
            if min(inner) <= 0 or min(size.values()) <= 0:  # no page drawn yet (about:blank): size it first
                size = {"width": width, "height": height}
            self._command("POST", "/window/rect", size)

    def page_errors(self) -> list[str]:
        self._keep_errors()
        return list(self.errors)

    def _keep_errors(self) -> None:
        """Move the page's kept errors (ERROR_WATCH) into ``self.errors``. A page that is not the
        site's page (about:blank, build.json: no ``html[data-state]``) has none to keep; the
        site's page without the watch is an error of the test."""
        try:
            found = self.evaluate(
                """() => {
                  if (!document.documentElement.dataset.state) return []; // not the site's page
                  if (!self.__engineErrors) return null;
                  return self.__engineErrors.splice(0);
                }"""
            )
        except WebDriverError:
            return  # no page to read (e.g. the session is gone)
        if found is None:
            raise AssertionError("the page was served without engine_webkit.ERROR_WATCH: its errors cannot be seen")
        self.errors.extend(found)

    def close(self) -> None:
        if self.session is not None:
            try:
                self._command("DELETE", "")
            except (OSError, WebDriverError):
                pass
            self.session = None
        for process in reversed(self.processes):
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.processes.clear()
        self.log.close()


class WebDriverError(RuntimeError):
    """WebDriver refused a command, or the page threw in ``evaluate``."""


def start_webkit(profile_dir: Path) -> WebKitDriver:
    """MiniBrowser on a profile in ``profile_dir``; fails naming the packages if any is missing."""
    problem = missing()
    if problem:
        raise RuntimeError(problem)
    return WebKitDriver(profile_dir)
