"""The interface the engine smoke tests (``engine_smoke.py``) drive a browser through.

Chromium runs the page's full suite through Playwright; WebKit and Firefox cannot be driven by
Playwright here (its own builds of them cannot be downloaded), so each has a small driver of its
own that implements this protocol: ``engine_webkit.start_webkit`` (WebKitWebDriver and MiniBrowser)
and ``engine_firefox.start_firefox`` (firefox-esr through WebDriver BiDi with puppeteer-core). The
scenarios are written once, against this protocol only.

Each module also has a constructor ``start_<name>(profile_dir: Path) -> EngineDriver``: a new
``profile_dir`` is a fresh profile (an empty cache, no storage); the same ``profile_dir`` again is
a relaunch of the browser with its storage kept, where the engine allows it.
"""

from pathlib import Path
from typing import Any, Protocol


class EngineDriver(Protocol):
    """One browser window with one page, driven by a test."""

    name: str
    """The engine: ``"webkit"`` or ``"firefox"`` (names screenshots and messages)."""

    def goto(self, url: str) -> None:
        """Navigate the page to ``url`` and wait for its load event."""
        ...

    def reload(self) -> None:
        """Reload the page and wait for its load event."""
        ...

    def evaluate(self, function: str, *args: Any) -> Any:
        """Call ``function`` in the page and return its result.

        ``function`` is the JS source of a function, e.g. ``"(a, b) => a + b"`` or
        ``"async () => {...}"``; it is called with ``args`` (JSON values) and its result (awaited if
        a promise) is returned as JSON. An exception thrown in the page raises here."""
        ...

    def wait_for(self, function: str, *args: Any, timeout: float = 120.0) -> Any:
        """``evaluate`` every 100 ms until the result is truthy, and return it.

        On timeout raise AssertionError naming ``function`` and the last value it returned."""
        ...

    def click(self, selector: str) -> None:
        """A real user click on the first element matching the CSS ``selector`` (WebDriver's
        Element Click, puppeteer's click): scrolled into view, refused if covered."""
        ...

    def type_keys(self, text: str) -> None:
        """Send ``text`` as key presses to the focused element, or the page (digits for dice entry)."""
        ...

    def screenshot(self, path: Path) -> None:
        """Write a PNG of the viewport to ``path``."""
        ...

    def set_viewport(self, width: int, height: int) -> None:
        """Make the page's viewport ``width`` × ``height`` CSS pixels, as well as the engine allows
        (the window's size where there is no emulation)."""
        ...

    def page_errors(self) -> list[str]:
        """The uncaught errors and unhandled promise rejections seen in the page so far (and in
        its workers, where the engine can tell), one text each, oldest first."""
        ...

    def close(self) -> None:
        """End the browser (and its driver process); the profile directory stays."""
        ...
