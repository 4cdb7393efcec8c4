"""Working offline and installable: after one visit the page, Pyodide, NumPy, our package and
the table come from the service worker's cache, the manifest and its icons load, and a new
version is offered as an update that takes over on Reload.

As in test_page.py, each test waits on what the page shows (``data-state``, a message), never
on the clock, and finds controls by role and name.
"""

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from .page_helpers import assert_same_advice, control, open_page, wait_for_advice

pytestmark = pytest.mark.browser

REGISTRATION = """navigator.serviceWorker.getRegistration().then((r) => ({
  active: r?.active?.state ?? null, waiting: r?.waiting?.state ?? null,
  installing: r?.installing?.state ?? null, controller: navigator.serviceWorker.controller?.state ?? null,
}))"""
"""The service worker registration's states, as a failure's message gives them."""


def test_after_one_visit_the_page_works_offline_and_offers_updates(make_context, server, cpython, site) -> None:
    context = make_context(service_workers="allow")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_page(page, server, "d=14466&r=1")
    note = page.locator("#app-note")
    expect(note).to_contain_text("Offline ready.")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    # Once controlled, the page compiles the runtime's WebAssembly through the service worker
    # (offline.js: primeRuntimeCode), so that the next visit finds its code cached.
    expect(page.locator("html")).to_have_attribute("data-runtime-code", "primed")
    precache = (site / "precache.js").read_text()
    version = re.search(r'"version": "([0-9a-f]+)"', precache).group(1)
    service_worker_caches = "caches.keys().then(keys => keys.filter(k => k.startsWith('yacht-advisor-')))"
    assert page.evaluate(service_worker_caches) == [f"yacht-advisor-{version}"]  # (and the warm start's own)

    # Installable: the manifest, and icons that load at their sizes.
    manifest = page.evaluate("fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())")
    assert (manifest["name"], manifest["start_url"], manifest["display"]) == ("Yacht advisor", "./", "standalone")
    sizes = {icon["src"]: icon["sizes"] for icon in manifest["icons"]}
    assert sizes["icon.svg"] == "any" and {"192x192", "512x512"} <= set(sizes.values())
    assert any(icon["purpose"] == "maskable" for icon in manifest["icons"])
    for src, size in sizes.items():
        loaded = page.evaluate(
            """src => new Promise((ok, fail) => {
                const image = new Image();
                image.onload = () => ok(image.naturalWidth);
                image.onerror = () => fail(new Error(src));
                image.src = src;
            })""",
            src,
        )
        assert size == "any" or f"{loaded}x{loaded}" == size

    # The first visit's worker fetches the goal files after its first answer; once they are in,
    # nothing of that visit can still reach the server's log after it is cleared below.
    worker = [w for w in page.workers if w.url.endswith("/worker.js")][-1]
    worker.evaluate("globalThis.goalFilesFetched")

    # Offline: the page, Pyodide, NumPy, our package and the table come from the cache.
    context.set_offline(True)
    server.requested.clear()
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-state", "ready")
    control(page, "button", "Clear dice").click()
    for die in (2, 2, 5, 5, 6):
        control(page, "button", f"Add {die}").click()
    wait_for_advice(page, "s=,,,,,,,,,,,&d=22556&r=1")
    assert_same_advice(page, cpython("s=,,,,,,,,,,,&d=22556&r=1"))
    expect(note).to_be_hidden()  # "ready to work offline" is said once
    assert [path for path in server.requested if path not in ("/sw.js", "/precache.js")] == []

    # A new version: "update available"; Reload lets it take over and drops the old cache.
    # The old service worker has to stop for that; a fetch reaching it as it stops starts it again,
    # after which Chromium waits for it to go idle (5 minutes under DevTools). The page's worker
    # fetches at moments of its own (a goal's files, the snapshot's worker): here it fetches
    # all the time, so that the takeover is tested as if one came at the worst moment.
    context.set_offline(False)
    new = precache.replace(f'"version": "{version}"', '"version": "next"')
    with server.replace("/precache.js", new.encode()):
        page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
        expect(note).to_contain_text("Update available.")
        worker = [w for w in page.workers if w.url.endswith("/worker.js")][-1]
        worker.evaluate("setInterval(() => fetch('build.json').catch(() => {}), 5)")
        try:
            with page.expect_navigation():
                control(page, "button", "Reload").click()
        except PlaywrightTimeoutError as error:  # say where the takeover stopped
            raise AssertionError(f"Reload did not reload the page: {page.evaluate(REGISTRATION)}") from error
        expect(page.locator("html")).to_have_attribute("data-state", "ready")
        wait_for_advice(page, "s=,,,,,,,,,,,&d=22556&r=1")
        page.wait_for_function(f"{service_worker_caches}.then(keys => keys.join() === 'yacht-advisor-next')")
    assert urlsplit(page.url).query == "s=,,,,,,,,,,,&d=22556&r=1"
    assert errors == []
