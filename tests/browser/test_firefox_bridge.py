"""The Firefox bridge's watch of the page's errors (firefox_bridge.mjs): a worker's load that leaving
the page cut short is kept apart, and an error the page throws during a navigation still counts.

Firefox reports a worker's script that was still loading through the site's service worker when
its page was left as errors of the page ("Failed to load ‘…/pyodide.asm.js’. A ServiceWorker
intercepted the request and encountered an unexpected error.", then "NS_BINDING_ABORTED: "). A
fresh start's snapshot worker loads pyodide.asm.js that way two seconds after the first advice, so
a scenario that leaves the page then failed one CI run in many on an error that was no fault of
the page's. These tests make that happen on purpose, in a page of their own beside the site."""

from collections.abc import Iterator

import pytest

from .conftest import SiteServer
from .engine_firefox import FirefoxDriver, missing, start_firefox

pytestmark = pytest.mark.browser

PROBE = "/probe.html"
PROBE_PAGE = b'<!doctype html><html lang="en"><title>probe</title><p>A page of the tests.</p></html>'
LOADER = "/probe-loader.js"
LOADER_SCRIPT = b"importScripts('pyodide/pyodide.asm.js'); postMessage('loaded');"
"""A worker that loads the runtime's script (1.3 MB, precached) through the service worker."""
THROWS = "/probe-throws.html"
THROWS_PAGE = b'<!doctype html><html lang="en"><title>probe</title><script>throw new Error("thrown at load")</script>'
TRIES = 10
"""Pages left with the loader just started, at most: three runs saw the load through the service
worker cut short at the 2nd, 2nd and 3rd try (the load takes some ms from its cache)."""
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
REGISTER = """async () => {
  await navigator.serviceWorker.register("sw.js", { scope: "./", updateViaCache: "none" });
  await navigator.serviceWorker.ready;
  return true;
}"""


@pytest.fixture
def firefox(server: SiteServer, tmp_path) -> Iterator[FirefoxDriver]:
    """Firefox on a fresh profile, on a test page of the site's origin that the site's service
    worker controls (its install precached pyodide.asm.js)."""
    problem = missing()
    if problem:
        pytest.fail(problem, pytrace=False)
    driver = start_firefox(tmp_path / "profile")
    with server.replace(PROBE, PROBE_PAGE), server.replace(LOADER, LOADER_SCRIPT):
        try:
            driver.goto(server.url(PROBE.lstrip("/")))
            driver.evaluate(REGISTER)
            driver.wait_for(CONTROLLED, timeout=30)
            yield driver
        finally:
            driver.close()


def test_leaving_a_page_while_its_worker_loads_through_the_service_worker_is_no_page_error(
    firefox: FirefoxDriver, server: SiteServer
) -> None:
    def intercepted(messages: list[str]) -> bool:
        return any("pyodide/pyodide.asm.js" in message and "ServiceWorker" in message for message in messages)

    for _ in range(TRIES):
        firefox.goto(server.url(PROBE.lstrip("/")))
        assert firefox.evaluate(CONTROLLED), "the test page is not controlled by the service worker"
        firefox.evaluate(f"() => {{ new Worker({LOADER.lstrip('/')!r}); }}")
        firefox.goto(server.url(PROBE.lstrip("/")))  # the page left at once, its worker loading
        if intercepted(firefox.loads_cut_short()):
            break
    cut = firefox.loads_cut_short()
    assert intercepted(cut), f"no load through the service worker was cut short in {TRIES} tries: {cut}"
    assert firefox.page_errors() == []


def test_an_error_the_page_throws_during_a_navigation_still_counts(firefox: FirefoxDriver, server: SiteServer) -> None:
    with server.replace(THROWS, THROWS_PAGE):
        firefox.goto(server.url(THROWS.lstrip("/")))
    assert [message for message in firefox.page_errors() if "thrown at load" in message], firefox.page_errors()
    assert firefox.loads_cut_short() == []
