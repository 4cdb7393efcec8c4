"""Fixtures for the page's browser tests: the built site served on localhost, headless Chromium.

The session runs the site build (``tools/build_site.py``; quick when nothing changed), serves
``public/`` on 127.0.0.1 and a free port with ``tools/serve.py``'s handler (compressed as a
host compresses), and starts Chromium through Playwright: Debian's headless shell
(``/usr/bin/chromium-headless-shell``, the browser Playwright itself runs headless) or its
``/usr/bin/chromium``, whichever is there first, else Playwright's own browser.
The server can hold or fail chosen paths, or answer them with other bytes, so tests can see
the page while it loads, when a download fails or when a new version is published, without
waiting on the clock; it records the paths it is asked for.

Contexts block service workers unless a test asks for them (``service_workers="allow"``):
a page served from a worker's cache would not see what the server does, and which tests
ran before would decide it.
"""

import fcntl
import functools
import http.server
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect, sync_playwright
from yacht.api import Tables, advise_query

from .site_server import LOAD_TIMEOUT_MS, PUBLIC, ROOT, SNAPSHOT_PATH, SOURCES_PATH, SiteServer

sys.path.insert(0, str(ROOT / "tools"))
from site_build.runtime import read_runtime

__all__ = ["PUBLIC", "SNAPSHOT_PATH", "SOURCES_PATH", "SiteServer"]
ARTIFACTS = ROOT / "artifacts"
DEBIAN_CHROMIUMS = (Path("/usr/bin/chromium-headless-shell"), Path("/usr/bin/chromium"))
"""Debian's Chromium for the tests, the one preferred first. The headless shell (package
chromium-headless-shell; Blink and V8 as in chromium, no browser window) costs about 1.7 s less
CPU per new context: the full browser, headless, opens a window per context, and each window
preloads its address bar's popup (chrome://omnibox-popup.top-chrome/) in renderers of its own
(docs/benchmarks.md)."""
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # V8 runs WebAssembly in its baseline compiler (Liftoff) only: a page's start no longer spends
    # about 1 s of CPU compiling Python's hot functions again in the optimizing tier, which a short
    # test never gains back on 2 cores. Both tiers implement the same WebAssembly semantics; the
    # benchmarks (bench/) run Chromium's defaults, as a phone does.
    "--js-flags=--liftoff-only",
]
expect.set_options(timeout=LOAD_TIMEOUT_MS)


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``public/`` built from the current sources (the build rewrites only what changed). With
    pytest-xdist each worker asks for it: a lock in the run's shared temporary folder lets one
    build at a time, so the others find it built."""
    with open(tmp_path_factory.getbasetemp().parent / "site-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        build = subprocess.run(
            [sys.executable, str(ROOT / "tools" / "build_site.py")], cwd=ROOT, capture_output=True, text=True
        )
    if build.returncode != 0:
        pytest.fail(f"tools/build_site.py failed:\n{build.stdout}{build.stderr}", pytrace=False)
    return PUBLIC


@pytest.fixture(scope="session")
def runtime(site: Path) -> dict:
    """``public/runtime.js``'s values: the trimmed runtime's URLs (relative to the site) and sha256."""
    return read_runtime()


def serving(httpd: http.server.HTTPServer) -> Iterator:
    """Serve ``httpd`` on a thread for as long as the (generator) fixture lasts; yields it."""
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()
    thread.join()


@pytest.fixture(scope="session")
def server(site: Path) -> Iterator[SiteServer]:
    yield from serving(SiteServer())


@pytest.fixture(scope="module")
def own_server(site: Path) -> Iterator[dict]:
    """``{"server", "stop", "start"}``: the site on a port of the module's own, which a test stops
    (``stop()``: "offline" is the browser offline and the server stopped) and starts again on the
    same port (``start()`` returns the new server), so the pages' origin stays the same."""
    holder: dict = {}

    def start(port: int = 0) -> SiteServer:
        holder["server"] = server = SiteServer(holder.get("port", port))
        holder["port"] = server.server_port
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server

    def stop() -> None:
        holder["server"].shutdown()
        holder["server"].server_close()
        holder["server"] = None

    start()
    holder.update(stop=stop, start=start)
    yield holder
    if holder["server"] is not None:
        stop()


def chromium_executable() -> str | None:
    """``$YACHT_CHROMIUM``, else the first of ``DEBIAN_CHROMIUMS`` installed, else None
    (Playwright's own browser)."""
    found = [str(path) for path in DEBIAN_CHROMIUMS if path.exists()]
    return os.environ.get("YACHT_CHROMIUM") or (found[0] if found else None)


def launch_chromium(playwright: Playwright) -> Browser:
    """Headless Chromium (``chromium_executable``)."""
    executable = chromium_executable()
    try:
        return playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
    except Exception as e:
        raise RuntimeError(
            "no Chromium to run the browser tests: install Debian's chromium-headless-shell package (or run "
            "`playwright install chromium` where it can download), or deselect them with -m 'not browser'"
            f"\n{e}"
        ) from e


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    browser = launch_chromium(playwright)
    yield browser
    browser.close()


def new_context(browser: Browser, **options: object) -> BrowserContext:
    """A phone-sized context (390 × 844, touch) in English, service workers blocked, unless told otherwise."""
    settings: dict = {
        "viewport": {"width": 390, "height": 844},
        "locale": "en-US",
        "has_touch": True,
        "service_workers": "block",
    }
    settings.update(options)
    context = browser.new_context(**settings)
    context.set_default_timeout(LOAD_TIMEOUT_MS)
    return context


SNAPSHOT_CACHE = "yacht-runtime-snapshot"
"""web/worker/snapshot.js's CACHE: where the page keeps the warm start's snapshot."""

SAVED_SNAPSHOT = """async ([name, url, to]) => {
  const response = await (await caches.open(name)).match(url);
  if (!response) return false;
  await fetch(to, { method: "POST", body: await response.arrayBuffer() });
  return true;
}"""

SEED_SNAPSHOT = """async ([name, url, from]) => {
  const bytes = await (await fetch(from)).arrayBuffer();
  const headers = { "Content-Type": "application/octet-stream" };
  await (await caches.open(name)).put(url, new Response(bytes, { headers }));
}"""


def snapshot_url(server: SiteServer, runtime: dict, key: str | None = None) -> str:
    """The URL the page keeps this build's snapshot under (web/worker/snapshot.js's SNAPSHOT_KEY)."""
    return server.url(f"runtime/snapshot?build={key or runtime['snapshotKey']}")


def seed_snapshot(context: BrowserContext, server: SiteServer, runtime: dict) -> None:
    """Put the server's snapshot (``warm_snapshot``) in the context's cache, as a first visit would
    have saved it: the context's pages start Python from it, and none takes one of its own."""
    page = context.new_page()
    page.goto(server.url("build.json"))
    page.evaluate(SEED_SNAPSHOT, [SNAPSHOT_CACHE, snapshot_url(server, runtime), server.url(SNAPSHOT_PATH[1:])])
    page.close()


def warm_context(browser: Browser, server: SiteServer, runtime: dict, **options: object) -> BrowserContext:
    """``new_context`` whose cache holds the snapshot (``seed_snapshot``; ask for ``warm_snapshot``)."""
    context = new_context(browser, **options)
    seed_snapshot(context, server, runtime)
    return context


@pytest.fixture(scope="session")
def warm_snapshot(browser: Browser, server: SiteServer, runtime: dict, tmp_path_factory) -> bytes:
    """This build's warm-start snapshot, taken once per run by a first visit (the workers share it
    in the run's temporary folder) and kept by the server for ``seed_snapshot``.

    Most tests see a page that is not the first visit of its context: seeding their contexts spares
    each one the snapshot worker's own Pyodide start (about 2 s of CPU) and Python's start. A test of
    a first visit uses ``fresh_page`` or ``make_context(snapshot=False)``."""
    path = tmp_path_factory.getbasetemp().parent / f"snapshot-{runtime['snapshotKey']}.bin"
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            context = new_context(browser)
            page = context.new_page()
            page.goto(server.url("index.html?s=,,,,,,,,,,,&d=12345&r=1"))
            expect(page.locator("html")).to_have_attribute("data-state", "ready")
            posted = [SNAPSHOT_CACHE, snapshot_url(server, runtime), server.url(SNAPSHOT_PATH[1:])]
            deadline = time.monotonic() + LOAD_TIMEOUT_MS / 1000
            while not page.evaluate(SAVED_SNAPSHOT, posted):  # saved after the first answer
                assert time.monotonic() < deadline, "the first visit saved no snapshot"
                page.wait_for_timeout(200)
            context.close()
            path.with_suffix(".part").write_bytes(server.snapshot)
            path.with_suffix(".part").replace(path)  # whole or not there, even if a run is stopped
    server.snapshot = path.read_bytes()
    return server.snapshot


@pytest.fixture(scope="session")
def shared_context(
    browser: Browser, server: SiteServer, runtime: dict, warm_snapshot: bytes
) -> Iterator[BrowserContext]:
    """One context for most tests: its HTTP cache makes every page load after the first faster, and
    its first page starts from the snapshot too."""
    context = warm_context(browser, server, runtime)
    yield context
    context.close()


def watched_page(context: BrowserContext) -> Iterator[tuple[Page, list[str]]]:
    """A new page of ``context`` and the dialogs and script errors it shows (closed at the end)."""
    page = context.new_page()
    events: list[str] = []
    page.on("dialog", lambda dialog: (events.append(f"dialog: {dialog.message}"), dialog.dismiss()))
    page.on("pageerror", lambda error: events.append(f"error: {error}"))
    yield page, events
    page.close()


def own_watched_page(
    browser: Browser, server: SiteServer, runtime: dict, **options: object
) -> Iterator[tuple[Page, list[str]]]:
    """``watched_page`` in a seeded context of its own (``warm_context`` with ``options``, e.g. a
    locale), closed with it: a module fixture's page whose state other modules do not share."""
    context = warm_context(browser, server, runtime, **options)
    yield from watched_page(context)
    context.close()


@pytest.fixture(scope="module")
def one_page(shared_context: BrowserContext, server: SiteServer) -> Iterator[tuple[Page, list[str]]]:
    """One page for a whole test module, so Pyodide loads once per module: (the page, the dialogs
    and script errors it showed). Tests move it to their link with ``page_helpers.open_page`` or
    ``visit`` (as Back or Forward opens a history entry), not by loading it again. A module that
    counts what the server is asked for overrides it with a page of a context of its own.

    Each module starts on a device with nothing saved by the page (``forget_saved``): the context
    is shared, and what one module chose (the language, a kept game) would otherwise be another's
    start, whichever module its worker ran before it."""
    pages = watched_page(shared_context)
    page, events = next(pages)
    forget_saved(page, server)
    yield page, events
    next(pages, None)  # watched_page closes the page


def forget_saved(page: Page, server: SiteServer) -> None:
    """Clear what the page keeps on the device for the site's origin (localStorage: the language,
    the practice's grading, the kept games); the context's caches (the snapshot, the HTTP cache)
    stay. Through Chromium's DevTools protocol (Storage.clearDataForOrigin), before ``page``
    opens the site."""
    session = page.context.new_cdp_session(page)
    try:
        session.send(
            "Storage.clearDataForOrigin", {"origin": server.url().rstrip("/"), "storageTypes": "local_storage"}
        )
    finally:
        session.detach()


@pytest.fixture
def page(one_page: tuple[Page, list[str]]) -> Iterator[Page]:
    """The module's page (see ``one_page``); the test fails on any uncaught script error or dialog."""
    page, events = one_page
    seen = len(events)
    yield page
    assert events[seen:] == [], f"script errors or dialogs on the page: {events[seen:]}"


@pytest.fixture
def make_context(
    browser: Browser, server: SiteServer, runtime: dict, warm_snapshot: bytes
) -> Iterator[Callable[..., BrowserContext]]:
    """``make_context(**options)``: a context of the test's own (closed after it), e.g. another
    locale. Its cache holds the snapshot (``seed_snapshot``) unless ``snapshot=False`` or service
    workers are allowed (what a service worker caches on a first visit is then as it is for a player)."""
    contexts: list[BrowserContext] = []

    def make(snapshot: bool = True, **options: object) -> BrowserContext:
        warm = snapshot and options.get("service_workers", "block") == "block"
        contexts.append(warm_context(browser, server, runtime, **options) if warm else new_context(browser, **options))
        return contexts[-1]

    yield make
    for context in contexts:
        context.close()


def _own_page(context: BrowserContext) -> Iterator[Page]:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"script errors on the page: {errors}"


@pytest.fixture
def fresh_page(browser: Browser) -> Iterator[Page]:
    """A page in a context of its own: an empty HTTP cache and no snapshot, as on a first visit."""
    yield from _own_page(new_context(browser))


@pytest.fixture
def warm_page(browser: Browser, server: SiteServer, runtime: dict, warm_snapshot: bytes) -> Iterator[Page]:
    """A page in a context of its own with an empty HTTP cache but the snapshot an earlier visit
    saved (``seed_snapshot``): every file but the runtime's start is fetched as on a first visit."""
    yield from _own_page(warm_context(browser, server, runtime))


@pytest.fixture(scope="session")
def tables() -> Tables:
    """The tables, spread tables and chunks the page serves, read by CPython's loader."""
    return Tables(PUBLIC / "tables")


@pytest.fixture(scope="session")
def cpython(tables: Tables):
    """``cpython(query)``: the CPython advisor's answer, to compare the page's with."""
    return functools.partial(advise_query, tables=tables)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
