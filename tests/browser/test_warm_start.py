"""The warm start (``web/worker/snapshot.js``): a later visit starts Python from the snapshot the first
visit saved, and any snapshot that is not this build's, or does not start, is a normal start."""

import time

import pytest
from playwright.sync_api import BrowserContext, Page

from .conftest import SNAPSHOT_CACHE as CACHE
from .conftest import snapshot_url
from .page_helpers import SNAPSHOTS, assert_same_advice, open_page, wait_for_advice

pytestmark = pytest.mark.browser

QUERY = "s=,,,,,,,,,,,&d=14466&r=1"


PUT = """async ([name, url, size]) => {
  await (await caches.open(name)).put(url, new Response(new Uint8Array(size).fill(7)));
}"""


def runtime_start(page: Page) -> str:
    """How the page's worker started Python: "snapshot", "fresh", or "fresh: <why not the snapshot>"."""
    (worker,) = [w for w in page.workers if w.url.endswith("/worker.js")]
    return worker.evaluate("globalThis.runtimeStart")


def visit(context: BrowserContext, server, cpython) -> Page:
    page = context.new_page()
    open_page(page, server, QUERY)
    wait_for_advice(page, QUERY)
    assert_same_advice(page, cpython(QUERY))
    return page


def wait_for_saved_snapshot(page: Page, server, runtime: dict) -> dict:
    """Wait until the snapshot of this build is saved; returns {url: bytes} of every saved one."""
    url = snapshot_url(server, runtime)
    deadline = time.monotonic() + 60
    while True:
        saved = page.evaluate(SNAPSHOTS, CACHE)
        if url in saved or time.monotonic() > deadline:
            return saved
        page.wait_for_timeout(200)


def test_a_second_visit_starts_from_the_snapshot_with_the_same_advice(make_context, server, cpython, runtime) -> None:
    context = make_context(snapshot=False)
    first = visit(context, server, cpython)
    assert runtime_start(first) == "fresh"
    saved = wait_for_saved_snapshot(first, server, runtime)
    assert list(saved) == [snapshot_url(server, runtime)]
    assert saved[snapshot_url(server, runtime)] > 10_000_000  # the runtime's memory, not a stub
    second = visit(context, server, cpython)
    assert runtime_start(second) == "snapshot"


ALTER = """async ([name, url]) => {
  const cache = await caches.open(name);
  const bytes = new Uint8Array(await (await cache.match(url)).arrayBuffer());
  bytes.fill(0, 16, 48); // the Pyodide build id the snapshot was taken by
  await cache.put(url, new Response(bytes));
}"""


def test_a_snapshot_that_does_not_start_is_discarded_and_the_page_starts_afresh(
    make_context, server, cpython, runtime
) -> None:
    context = make_context()  # holds this build's snapshot (a first visit's elsewhere: the last test)
    first = context.new_page()
    first.goto(server.url("build.json"))
    first.evaluate(ALTER, [CACHE, snapshot_url(server, runtime)])
    page = visit(context, server, cpython)
    assert runtime_start(page).startswith("fresh: the snapshot did not start (Snapshot build id mismatch")
    saved = wait_for_saved_snapshot(page, server, runtime)  # a good one in its place
    assert runtime_start(visit(context, server, cpython)) == "snapshot", saved


ALTER_RECORD = """async ([name, url]) => {
  const cache = await caches.open(name);
  const bytes = new Uint8Array(await (await cache.match(url)).arrayBuffer());
  const view = new DataView(bytes.buffer);
  const length = view.getUint32(bytes.length - 8, true);
  const end = bytes.length - 8 - length;
  const record = JSON.parse(new TextDecoder().decode(bytes.subarray(end, end + length)));
  record.slots += 1;
  const json = new TextEncoder().encode(JSON.stringify(record));
  const tail = new DataView(new ArrayBuffer(8));
  tail.setUint32(0, json.length, true);
  tail.setUint32(4, view.getUint32(bytes.length - 4, true), true);
  await cache.put(url, new Response(new Blob([bytes.subarray(0, end), json, tail])));
  return record.libraries.length;
}"""
"""A page's function: the saved snapshot's record of NumPy's modules (web/worker/snapshot.js) made
to disagree with its memory (the function table one slot longer); returns how many it lists."""


def test_a_snapshot_whose_numpy_does_not_restore_is_discarded_and_the_page_starts_afresh(
    make_context, server, cpython, runtime
) -> None:
    """NumPy's modules are loaded again where the snapshot's record says (web/worker/
    snapshot-packages.js); a record that does not match the restored memory is never run: the
    page starts afresh with the CLI's advice, and a good snapshot takes its place."""
    context = make_context()
    first = context.new_page()
    first.goto(server.url("build.json"))
    assert first.evaluate(ALTER_RECORD, [CACHE, snapshot_url(server, runtime)]) == 2  # NumPy's two modules
    page = visit(context, server, cpython)
    assert runtime_start(page).startswith("fresh: the snapshot did not start (the function table has"), runtime_start(
        page
    )
    wait_for_saved_snapshot(page, server, runtime)
    second = visit(context, server, cpython)
    assert runtime_start(second) == "snapshot"
    assert second.evaluate(NUMPY_RESTORED)


def test_bytes_that_are_no_snapshot_are_deleted_unused(make_context, server, cpython, runtime) -> None:
    context = make_context(snapshot=False)
    page = context.new_page()
    page.goto(server.url("build.json"))
    page.evaluate(PUT, [CACHE, snapshot_url(server, runtime), 4096])
    page = visit(context, server, cpython)
    assert runtime_start(page) == "fresh"
    assert wait_for_saved_snapshot(page, server, runtime)[snapshot_url(server, runtime)] > 10_000_000


def test_a_snapshot_of_another_build_is_never_used_and_is_deleted(make_context, server, cpython, runtime) -> None:
    context = make_context(snapshot=False)
    page = context.new_page()
    page.goto(server.url("build.json"))
    old = snapshot_url(server, runtime, key="0123456789abcdef")
    page.evaluate(PUT, [CACHE, old, 4096])
    page = visit(context, server, cpython)
    assert runtime_start(page) == "fresh"
    assert list(wait_for_saved_snapshot(page, server, runtime)) == [snapshot_url(server, runtime)]


def test_a_snapshot_taken_in_another_browser_profile_starts_the_page(make_context, server, cpython) -> None:
    """The snapshot is the runtime's memory alone: the one a first visit took elsewhere (the tests'
    ``warm_snapshot``, which every seeded context starts from) starts a page with the same advice."""
    page = visit(make_context(), server, cpython)
    assert runtime_start(page) == "snapshot"


NUMPY_RESTORED = "() => performance.getEntriesByName('yacht:numpy-install:snapshot').length > 0"
"""The page's mark that its worker found NumPy in the snapshot (web/worker/snapshot-packages.js)."""
DAMAGE_KEPT = """async (url) => {
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    const kept = name.startsWith("yacht-advisor-") && (await cache.match(url));
    if (!kept) continue;
    const bytes = new Uint8Array(await kept.arrayBuffer());
    bytes.fill(0, 1000, 3000);
    await cache.put(url, new Response(bytes));
    return true;
  }
  return false;
}"""
"""A page's function: damage the service worker's copy of ``url`` (true if it kept one)."""


def test_a_damaged_numpy_wheel_kept_by_the_service_worker_is_fetched_again(
    make_context, server, cpython, runtime
) -> None:
    """The worker checks the wheel's sha256 before it unpacks it: a copy the service worker kept that
    is not the build's is fetched once more from the server, and the second visit starts as usual,
    NumPy's files written from it and its modules restored from the snapshot."""
    context = make_context(snapshot=False, service_workers="allow")
    first = visit(context, server, cpython)
    first.wait_for_function("navigator.serviceWorker.controller !== null")
    wait_for_saved_snapshot(first, server, runtime)
    assert first.evaluate(DAMAGE_KEPT, server.url(runtime["numpyURL"]))
    before = len(server.requested)
    second = visit(context, server, cpython)
    assert runtime_start(second) == "snapshot"
    assert second.evaluate(NUMPY_RESTORED)
    (worker,) = [w for w in second.workers if w.url.endswith("/worker.js")]
    assert worker.evaluate("globalThis.numpyInstall") == "restored from the snapshot"
    assert server.requested[before:].count("/" + runtime["numpyURL"]) == 1  # fetched again, once
