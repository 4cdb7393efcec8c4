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


def rewrite(change: str) -> str:
    """A page's function ``([name, url]) => ...``: the saved snapshot at ``url`` of cache ``name``
    taken apart as web/worker/snapshot.js saves it (Pyodide's snapshot ``pyodide``, a Uint8Array;
    the record ``record``), changed by the JS statements ``change`` (which may return a value: the
    function's), and saved again with a SHA-256 of its new bytes, so that only what ``change``
    did is wrong with it."""
    return f"""async ([name, url]) => {{
  const cache = await caches.open(name);
  const bytes = new Uint8Array(await (await cache.match(url)).arrayBuffer());
  const view = new DataView(bytes.buffer);
  const length = view.getUint32(bytes.length - 8, true);
  const end = bytes.length - 8 - 32 - length;
  const pyodide = bytes.slice(0, end);
  const record = JSON.parse(new TextDecoder().decode(bytes.subarray(end, end + length)));
  const result = (() => {{ {change} }})();
  const json = new TextEncoder().encode(JSON.stringify(record));
  const digest = await crypto.subtle.digest("SHA-256", await new Blob([pyodide, json]).arrayBuffer());
  const tail = new DataView(new ArrayBuffer(8));
  tail.setUint32(0, json.length, true);
  tail.setUint32(4, view.getUint32(bytes.length - 4, true), true);
  await cache.put(url, new Response(new Blob([pyodide, json, digest, tail])));
  return result ?? null;
}}"""


ALTER = rewrite("pyodide.fill(0, 16, 48);")
"""A page's function: the saved snapshot's Pyodide build id zeroed (its checksum made again)."""


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


ALTER_RECORD = rewrite("record.slots += 1; return record.libraries.length;")
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
    assert runtime_start(page) == "fresh: the saved snapshot is not one (4096 bytes)"
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


DAMAGE = """async ([name, url, how]) => {
  const cache = await caches.open(name);
  const bytes = new Uint8Array(await (await cache.match(url)).arrayBuffer());
  let damaged = bytes.slice();
  if (how === "flipped") {
    const at = Math.floor(bytes.length * 0.6); // inside Python's memory; its first and last bytes kept
    for (let i = at; i < at + 65536; i++) damaged[i] ^= 0xff;
  } else if (how === "truncated") {
    damaged = bytes.slice(0, Math.floor(bytes.length * 0.7));
  } else {
    damaged.fill(0);
  }
  await cache.put(url, new Response(damaged));
}"""
"""A page's function: the saved snapshot damaged as storage can damage it: 64 KB flipped 60 % in,
cut to 70 % of its length, or zeros of its length."""


@pytest.mark.parametrize(
    ("how", "why"),
    [
        ("flipped", "its SHA-256 is not the one saved"),
        ("truncated", "no record at its end: cut short, or not one"),
        ("zeros", "no record at its end: cut short, or not one"),
    ],
)
def test_a_snapshot_damaged_in_storage_is_never_restored(make_context, server, cpython, runtime, how, why) -> None:
    """A snapshot whose bytes are not the ones saved (web/worker/snapshot.js: checked by their
    SHA-256 before Python's memory is written) is deleted unused: the visit starts afresh, says
    why, gives the CLI's advice, and a good snapshot takes its place."""
    context = make_context()
    first = context.new_page()
    first.goto(server.url("build.json"))
    first.evaluate(DAMAGE, [CACHE, snapshot_url(server, runtime), how])
    page = visit(context, server, cpython)
    assert runtime_start(page) == f"fresh: the saved snapshot is damaged ({why})"
    wait_for_saved_snapshot(page, server, runtime)
    assert runtime_start(visit(context, server, cpython)) == "snapshot"


STATE = "yacht-runtime-snapshot-state"
"""web/worker/snapshot-state.js's STATE: the warm start's marks."""
MARKS = """async ([name, kind]) => (await (await caches.open(name)).keys()).map((r) => r.url)
  .filter((url) => new URL(url).pathname.endsWith(`/snapshot-state/${kind}`))"""
"""A page's function: the URLs of the warm start's entries of ``kind`` ("begun", "crashed", "no-space")."""


def snapshot_outcome(page: Page) -> dict:
    """What the page's worker did about taking a snapshot (web/worker/snapshot.js: takeSnapshot),
    once it has done it."""
    (worker,) = [w for w in page.workers if w.url.endswith("/worker.js")]
    deadline = time.monotonic() + 60
    while (outcome := worker.evaluate("globalThis.snapshotOutcome ?? null")) is None:
        assert time.monotonic() < deadline, "the page's worker never took a snapshot nor said why not"
        page.wait_for_timeout(200)
    return outcome


def test_a_restore_that_took_its_tab_down_is_never_tried_again(make_context, server, cpython, runtime) -> None:
    """A visit whose worker ends while it restores the snapshot (its tab crashed or closed: it
    leaves its begun mark, web/worker/snapshot-state.js) makes the next visit delete the snapshot
    and start afresh, saying why; no snapshot of this build is taken again. A restore that gives
    its first answer leaves no mark."""
    context = make_context()
    watcher = context.new_page()
    watcher.goto(server.url("build.json"))
    restoring = context.new_page()
    restoring.goto(server.url(f"index.html?{QUERY}"), wait_until="commit")
    deadline = time.monotonic() + 60
    while not watcher.evaluate(MARKS, [STATE, "begun"]):
        assert time.monotonic() < deadline, "the restore wrote no begun mark"
        watcher.wait_for_timeout(20)
    restoring.close()  # its worker ends mid-restore, as in a crash
    page = visit(context, server, cpython)
    assert runtime_start(page) == "fresh: an earlier start from the snapshot did not finish"
    assert watcher.evaluate(SNAPSHOTS, CACHE) == {}
    assert snapshot_outcome(page) == {"saved": False, "error": "a start from this build's snapshot did not finish once"}
    assert watcher.evaluate(MARKS, [STATE, "begun"]) == []
    assert runtime_start(visit(context, server, cpython)) == "fresh"


def test_two_visits_restoring_at_once_both_start_from_the_snapshot(make_context, server, cpython) -> None:
    """Each restore holds a Web Lock while its begun mark stands: a second tab opened meanwhile
    sees the first one's mark as a live restore, not a crash, and restores too; both marks are
    gone once they have answered."""
    context = make_context()
    first, second = context.new_page(), context.new_page()
    for page in (first, second):
        page.goto(server.url(f"index.html?{QUERY}"), wait_until="commit")
    for page in (first, second):
        wait_for_advice(page, QUERY)
        assert_same_advice(page, cpython(QUERY))
        assert runtime_start(page) == "snapshot"
    deadline = time.monotonic() + 30
    while first.evaluate(MARKS, [STATE, "begun"]):
        assert time.monotonic() < deadline, "a begun mark stayed after the first answer"
        first.wait_for_timeout(200)


NO_SPACE = """async ([name, days]) => {
  const cache = await caches.open(name);
  const urls = (await cache.keys()).map((r) => r.url);
  const url = urls.find((u) => new URL(u).pathname.endsWith("/snapshot-state/no-space"));
  if (!url) return null;
  const entry = await (await cache.match(url)).json();
  if (days) await cache.put(url, new Response(JSON.stringify({ ...entry, at: entry.at - days * 86400e3 })));
  return entry;
}"""
"""A page's function: the warm start's no-space entry (its JSON), or null; made ``days`` older."""


def test_a_snapshot_that_did_not_fit_is_not_tried_again_on_every_visit(make_context, server, cpython, runtime) -> None:
    """With the origin's quota (Chromium's Storage.overrideQuotaForOrigin) too small for the
    snapshot, the first visit's save fails and the size it needed is remembered
    (web/worker/snapshot-state.js); the next visit does not try (the browser's estimate shows no
    more free than then), and a day later a visit tries again, and saves it where it now fits."""
    context = make_context(snapshot=False)
    watcher = context.new_page()
    watcher.goto(server.url("build.json"))
    cdp = context.new_cdp_session(watcher)
    origin = server.url("").rstrip("/")
    cdp.send("Storage.overrideQuotaForOrigin", {"origin": origin, "quotaSize": 8_000_000})
    outcome = snapshot_outcome(visit(context, server, cpython))
    assert outcome == {"saved": False, "error": "the Cache API did not keep it (QuotaExceededError)"}
    needed = watcher.evaluate(NO_SPACE, [STATE, 0])["needed"]
    assert needed > 10_000_000  # the whole snapshot's size
    outcome = snapshot_outcome(visit(context, server, cpython))
    assert outcome == {
        "saved": False,
        "error": f"it needs {needed / 1e6:.1f} MB, more than the storage had free when it was last tried",
    }
    cdp.send("Storage.overrideQuotaForOrigin", {"origin": origin, "quotaSize": 1_000_000_000})
    watcher.evaluate(NO_SPACE, [STATE, 2])
    assert snapshot_outcome(visit(context, server, cpython)) == {"saved": True, "packages": True}
    assert watcher.evaluate(NO_SPACE, [STATE, 0]) is None
    assert list(watcher.evaluate(SNAPSHOTS, CACHE)) == [snapshot_url(server, runtime)]


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ("record.libraries[0].handle = 2 ** 31;", "its handle 2147483648 is outside the snapshot's memory"),
        ('record.libraries[0].path = "/etc/passwd";', "/etc/passwd: not a module of site-packages"),
    ],
)
def test_a_record_pointing_outside_the_memory_is_refused_before_it_is_written(
    make_context, server, cpython, runtime, change, why
) -> None:
    """The record's handles and paths (web/worker/snapshot-packages.js) are checked before any byte
    is written: one that points outside the restored memory, or a path that is not a module of
    site-packages, makes the visit start afresh (rewrite saves it with a matching SHA-256)."""
    context = make_context()
    first = context.new_page()
    first.goto(server.url("build.json"))
    first.evaluate(rewrite(change), [CACHE, snapshot_url(server, runtime)])
    page = visit(context, server, cpython)
    assert runtime_start(page).startswith("fresh: the snapshot did not start ("), runtime_start(page)
    assert why in runtime_start(page)
