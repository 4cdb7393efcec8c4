"""The engine smoke scenarios: what the page must do in WebKit and Firefox as it does in Chromium.

Written once against ``EngineDriver`` (engine_driver.py); ``test_engines.py`` runs each for each
engine. Each scenario stands alone on a driver that may have run the others before it (in any
order): it loads what it needs and leaves the page in English. Each waits on what the page shows
(``data-state``, the query its advice belongs to), never on the clock, and saves a screenshot to
``artifacts/engine-<engine>-<scenario>.png`` for a person to look at.

The engines keep storage within one browser session (WebKit's automation sessions are ephemeral:
nothing is kept when the browser is started again), so "a second visit" and "after a reload" are
a second load in the same session, as a second tab of the same profile is in the Chromium tests.
"""

import json
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from yacht.api import advise_query
from yacht.loader import Tables, every_file

from .conftest import PUBLIC, SNAPSHOT_CACHE, SiteServer, snapshot_url
from .engine_driver import EngineDriver
from .page_helpers import SNAPSHOTS, TOLERANCE, option_key
from .test_play import FINAL_SCORE, SCRIPT, script_record
from .test_warm_start import ALTER, DAMAGE_KEPT, PUT

QUERY = "s=,,,,,,,,,,,&d=14466&r=1"
LINKS = {
    "plain": "s=3,,9,,,18,22,,,,30,&d=22556&r=2",
    "opponent": "s=3,,9,,,18,22,,,,30,&d=22556&r=2&o=5,,12,,,24,,,,15,30,",
    "target": "s=3,6,9,12,,18,,,,,30,&d=22556&r=1&t=170",
}
"""A link of each kind, each in its canonical form (the page shows it as it is)."""
CHOICE = 6
"""Choice's category index (yacht.core.categories)."""
LAYOUT_CHECK = (Path(__file__).parent / "layout_check.js").read_text()

ADVICE_SHOWN = """(query, some = true) => {
  const options = document.querySelector("#options");
  return document.documentElement.dataset.state === "ready" && options?.dataset.query === query
    && options.getAttribute("aria-busy") !== "true"
    && (!some || document.querySelectorAll("[data-testid=option]").length > 0);
}"""
"""The page shows the advice of ``query``, drawn (with options, unless ``some`` is false: a game
waiting for its next dice has none)."""
OPTIONS = """() => [...document.querySelectorAll("[data-testid=option]")].map((e) => ({
  rank: Number(e.dataset.rank),
  expected: Number(e.dataset.expected),
  keep: e.dataset.keep ?? null,
  category: e.dataset.category === undefined ? null : Number(e.dataset.category),
}))"""
VERDICT = """() => {
  const v = document.querySelector("[data-testid=verdict]");
  return { keep: v.dataset.keep ?? null, category: v.dataset.category === undefined ? null : Number(v.dataset.category),
           expected: Number(v.dataset.expected) };
}"""
RUNTIME_START = """() => performance.getEntriesByName("yacht:runtime-start")[0]?.detail ?? null"""
SETTLED = """() => document.documentElement.dataset.state === "ready"
  && !document.querySelector('[aria-busy="true"]')
  && new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"""


def shoot(driver: EngineDriver, artifacts: Path, scenario: str) -> None:
    driver.screenshot(artifacts / f"engine-{driver.name}-{scenario}.png")


def open_link(driver: EngineDriver, server: SiteServer, query: str, some: bool = True) -> None:
    """Load the page at ``query`` (canonical) and wait until its advice is shown (ADVICE_SHOWN)."""
    driver.goto(server.url(f"index.html?{query}"))
    driver.wait_for(ADVICE_SHOWN, query, some)


def in_language(driver: EngineDriver, language: str) -> None:
    """Switch the page to ``language`` ("en", "ja") with its own button, unless it is in it."""
    if driver.evaluate("() => document.documentElement.lang") != language:
        driver.click(f"[data-lang={language}]")
        driver.wait_for("(language) => document.documentElement.lang === language", language)


def tap_dice(driver: EngineDriver, dice: str) -> None:
    for face in dice:
        driver.click(f"#keypad button[data-face='{face}']")


def apply_option(driver: EngineDriver, *, keep: str | None = None, category: int | None = None) -> None:
    """Tap the button of the option that keeps ``keep`` (digits; "" rerolls all) or scores ``category``."""
    chosen = f"[data-keep='{keep}']" if keep is not None else f"[data-category='{category}']"
    driver.click(f"[data-testid=option]{chosen} .apply")


def assert_cores_advice(driver: EngineDriver, query: str, answer: dict) -> None:
    """The page shows ``answer``'s options (CPython's) in its order with its ranks and expected
    scores, and its verdict is the first."""
    shown = driver.evaluate(OPTIONS)
    assert [(option_key(o), o["rank"]) for o in shown] == [(option_key(o), o["rank"]) for o in answer["options"]], query
    for option, want in zip(shown, answer["options"], strict=True):
        assert option["expected"] == pytest.approx(want["expected"], abs=TOLERANCE), (query, option)
    verdict = driver.evaluate(VERDICT)
    assert option_key(verdict) == option_key(answer["options"][0]), query
    assert verdict["expected"] == pytest.approx(answer["options"][0]["expected"], abs=TOLERANCE), query


@contextmanager
def server_down(server: SiteServer) -> Iterator[None]:
    """Every path the site has (and ``/``) answered 503 until the block ends; paths served with
    other bytes (``SiteServer.replace``) fail too."""
    paths = {"/", *("/" + p.relative_to(PUBLIC).as_posix() for p in PUBLIC.rglob("*") if p.is_file())}
    replaced = dict(server.replaced)
    server.replaced.clear()
    try:
        with ExitStack() as stack:
            for path in paths:
                stack.enter_context(server.fail(path))
            yield
    finally:
        server.replaced.update(replaced)


# The scenarios ---------------------------------------------------------------------------------


def first_advice_of_links(driver: EngineDriver, server: SiteServer, cpython, artifacts: Path) -> None:
    """1. The first advice of a plain link, an o= link and a t= link, each loaded, is the CLI's:
    every option's identity, order, rank and expected score."""
    for kind, query in LINKS.items():
        open_link(driver, server, query)
        shoot(driver, artifacts, f"link-{kind}")
        assert_cores_advice(driver, query, cpython(query))


def warm_start(driver: EngineDriver, server: SiteServer, cpython, runtime: dict, artifacts: Path) -> None:
    """2. A visit that finds no snapshot starts Python afresh and saves one; the next visit in the
    same profile starts from it, NumPy and our package restored with it, with the same advice."""
    driver.goto(server.url("build.json"))
    driver.evaluate("(name) => caches.delete(name)", SNAPSHOT_CACHE)
    open_link(driver, server, QUERY)
    assert driver.evaluate(RUNTIME_START) == "fresh"
    key = snapshot_url(server, runtime)
    saved = saved_snapshots(driver, server, runtime)
    assert list(saved) == [key] and saved[key] > 10_000_000  # the runtime's memory, not a stub
    open_link(driver, server, QUERY)
    assert driver.evaluate(RUNTIME_START) == "snapshot"
    assert driver.evaluate(NUMPY_INSTALLED, "snapshot")  # NumPy and our package came in the snapshot
    assert_cores_advice(driver, QUERY, cpython(QUERY))
    shoot(driver, artifacts, "warm-start")


SNAPSHOT_MARKS = """() => performance.getEntriesByType("mark").map((m) => m.name)
  .filter((name) => name.startsWith("yacht:snapshot:"))"""
"""A page's function: the page's marks of its worker's try to take the snapshot
(``yacht:snapshot:taking`` at its start, ``at <step>`` as each step of the snapshot worker begins;
``saved``, ``failed`` or ``refused`` at its end: web/worker/snapshot.js)."""
SNAPSHOT_TRIED = f"""() => ({SNAPSHOT_MARKS})().find((name) => /:(saved|failed|refused)$/.test(name)) ?? null"""
"""A page's function: the page's mark of what the try came to, or null."""
PAGE_MARKS = """() => performance.getEntriesByType("mark").map((m) => `${m.name} ${Math.round(m.startTime)}`)
  .filter((name) => name.startsWith("yacht:"))"""
"""A page's function: every mark of the page's (its loading steps, its first advice, the snapshot's
try), each with its time in ms since the page's start."""
OUTCOME = """async ([state, key]) => {
  const url = new URL("snapshot-state/outcome", key);
  url.searchParams.set("build", new URL(key).searchParams.get("build"));
  const found = await (await caches.open(state)).match(url.href);
  return found ? found.json() : null;
}"""
"""A page's function: why the last try to take the snapshot of ``key`` came to what it did
(web/worker/snapshot-state.js's outcome entry: {saved, error}), or null."""
SNAPSHOT_STATE = "yacht-runtime-snapshot-state"
SNAPSHOT_TRY_LIMIT = 120
"""Seconds a try to take the snapshot may last before the worker ends it (snapshot.js:
SNAPSHOT_TIMEOUT_MS; ``test_the_snapshot_try_limit_is_the_workers`` holds the two equal)."""


def saved_snapshots(driver: EngineDriver, server: SiteServer, runtime: dict) -> dict:
    """Once this page's worker has tried to take the snapshot (SNAPSHOT_TRIED), the snapshots
    kept: URL → bytes. A try that did not save fails the test with its reason (OUTCOME)."""
    try:
        # The worker ends every try within its own limit (snapshot.js: SNAPSHOT_TIMEOUT_MS, 120 s,
        # "timed out while <step>"); waiting past it lets a try that hangs fail with that step.
        tried = driver.wait_for(SNAPSHOT_TRIED, timeout=SNAPSHOT_TRY_LIMIT + 30)
    except AssertionError:
        waited, marks = SNAPSHOT_TRY_LIMIT + 30, driver.evaluate(PAGE_MARKS)
        raise AssertionError(f"no end of the snapshot's try in {waited} s; the page's marks: {marks}") from None
    if tried != "yacht:snapshot:saved":
        outcome = driver.evaluate(OUTCOME, [SNAPSHOT_STATE, snapshot_url(server, runtime)])
        raise AssertionError(f"{driver.name} took no snapshot ({tried}): {outcome}")
    return driver.evaluate(SNAPSHOTS, SNAPSHOT_CACHE)


NUMPY_INSTALLED = "(how) => performance.getEntriesByName(`yacht:numpy-install:${how}`).length > 0"
"""The page's mark of how its worker installed NumPy: "javascript" (unpacked it itself, web/worker/
worker-numpy.js) or "snapshot" (restored with the snapshot, web/worker/snapshot-packages.js)."""
DROP = "async ([name, url]) => (await caches.open(name)).delete(url)"


def damaged_keeps_fall_back(driver: EngineDriver, server: SiteServer, cpython, runtime: dict, artifacts: Path) -> None:
    """2b. Whatever a visit finds kept, the page starts and advises as the CLI does, NumPy unpacked
    by its worker (or restored with a good snapshot): a snapshot that does not start (its build id
    altered), bytes that are no
    snapshot and another build's snapshot each give a fresh start that saves a good snapshot in
    their place (the other build's deleted); a damaged copy of NumPy's wheel in the service
    worker's cache is fetched again from the server."""
    key, other = snapshot_url(server, runtime), snapshot_url(server, runtime, key="0123456789abcdef")

    def visit_then_saved(started: str) -> None:
        open_link(driver, server, QUERY)
        assert driver.evaluate(RUNTIME_START).startswith(started), driver.evaluate(RUNTIME_START)
        assert driver.evaluate(NUMPY_INSTALLED, "snapshot" if started == "snapshot" else "javascript")
        assert_cores_advice(driver, QUERY, cpython(QUERY))
        restored = started == "snapshot"  # then none is taken
        saved = driver.evaluate(SNAPSHOTS, SNAPSHOT_CACHE) if restored else saved_snapshots(driver, server, runtime)
        assert list(saved) == [key] and saved[key] > 10_000_000, saved

    driver.goto(server.url("build.json"))
    driver.evaluate("(name) => caches.delete(name)", SNAPSHOT_CACHE)
    visit_then_saved("fresh")
    driver.evaluate(ALTER, [SNAPSHOT_CACHE, key])
    visit_then_saved("fresh: the snapshot did not start (Snapshot build id mismatch")
    driver.evaluate(PUT, [SNAPSHOT_CACHE, key, 4096])
    visit_then_saved("fresh")
    driver.evaluate(DROP, [SNAPSHOT_CACHE, key])
    driver.evaluate(PUT, [SNAPSHOT_CACHE, other, 4096])
    visit_then_saved("fresh")
    driver.wait_for("() => navigator.serviceWorker?.controller?.state === 'activated'")
    assert driver.evaluate(DAMAGE_KEPT, server.url(runtime["numpyURL"])), "the service worker kept no wheel"
    before = len(server.requested)
    visit_then_saved("snapshot")
    asked = server.requested[before:]
    assert asked.count("/" + runtime["numpyURL"]) == 1, asked  # fetched again, once
    shoot(driver, artifacts, "damaged-keeps")


def goal_file_paths() -> set[str]:
    """The paths of the whole files a goal's estimate reads (``build.json``'s kinds fetched for a
    goal, not chunked), which the worker fetches ahead after its first answer (prefetchGoalFiles)."""
    build = json.loads((PUBLIC / "build.json").read_text())
    kinds = [k for k in build["kinds"].values() if k["fetch"] == "goal" and not k["chunked"]]
    return {"/" + urlsplit(f["url"]).path for k in kinds for f in build[k["field"]].values()}


def offline_after_one_visit(driver: EngineDriver, server: SiteServer, cpython, artifacts: Path) -> None:
    """3. After one visit the service worker controls the page; with the server failing every
    path, a reload still advises, and nothing reaches the server but the service worker's update
    check and the goal's files fetched ahead, which are extra: the service worker keeps them only
    when the first visit's worker fetched them through it, which depends on when it took control.
    The page does not compile the runtime's WebAssembly ahead here: only Chromium keeps code for
    a second visit (offline.js: primeRuntimeCode)."""
    open_link(driver, server, QUERY)
    driver.wait_for("() => navigator.serviceWorker?.controller?.state === 'activated'")
    assert driver.evaluate("() => document.documentElement.dataset.runtimeCode ?? null") is None
    with server_down(server):
        server.requested.clear()
        driver.reload()
        driver.wait_for(ADVICE_SHOWN, QUERY)
        assert_cores_advice(driver, QUERY, cpython(QUERY))
        shoot(driver, artifacts, "offline")
        allowed = {"/sw.js", "/precache.js", *goal_file_paths()}
        assert [path for path in server.requested if path not in allowed] == []


SPREADS_KEPT = """async () => {
  for (const key of (await caches.keys()).filter((k) => k.startsWith("yacht-advisor-"))) {
    const urls = (await (await caches.open(key)).keys()).map((r) => r.url);
    if (urls.some((u) => u.includes("yacht-strict.spread.table"))) return true;
  }
  return false;
}"""
ESTIMATE = """() => {
  const note = document.querySelector("[data-testid=estimate]");
  const verdict = document.querySelector("[data-testid=verdict]");
  return { shown: !note.hidden, chance: note.dataset.chance ?? null, lacking: note.dataset.lacking ?? null,
           win: verdict?.dataset.win ?? null, estimate: verdict?.dataset.estimate ?? null };
}"""


def play_to_win_offline(driver: EngineDriver, server: SiteServer, cpython, artifacts: Path) -> None:
    """3b. After one visit (the service worker controls the page and holds the spread tables,
    fetched after the first advice), with the server failing every path, a rival link whose chance
    reads chunks still advises: every option as CPython's without the chunks, the chance
    labelled an estimate; once
    the server is back, the exact chance, the CLI's, follows without a tap."""
    query = QUERY + "&o=,,,,,,,,,,,"  # turn 1: no other scenario fetches its chunks, nor ahead
    open_link(driver, server, QUERY)
    driver.wait_for("() => navigator.serviceWorker?.controller?.state === 'activated'")
    driver.wait_for(SPREADS_KEPT)
    without = Tables(PUBLIC / "tables")  # as the device: the spread tables, no chunk
    without.set_unavailable("official", every_file("reach", "law"))
    estimate = advise_query(query, without)
    with server_down(server):
        open_link(driver, server, query)
        assert_cores_advice(driver, query, estimate)
        shown = driver.evaluate(ESTIMATE)
        assert shown["shown"] and shown["chance"] == "true" and shown["lacking"] == "law reach", shown
        assert shown["estimate"] == "law reach" and float(shown["win"]) == pytest.approx(estimate["win"], abs=1e-9)
        shoot(driver, artifacts, "play-to-win-offline")
    found = driver.wait_for(f"() => {{ const e = ({ESTIMATE})(); return !e.shown && e.estimate === null && e.win; }}")
    assert float(found) == pytest.approx(cpython(query)["win"], abs=1e-9)


def game_played_and_resumed(driver: EngineDriver, server: SiteServer, artifacts: Path) -> None:
    """4. The last turn of a game (test_play's SCRIPT) played along by taps to its result; a
    reload in the middle (a keep made, one of the dice rolled again entered) loses nothing."""
    records = script_record(SCRIPT)
    first, second, third, final = records[-4:]  # turn 12: roll 1, roll 2, roll 3, scored
    before = final[: final.rindex(".")]  # eleven turns done
    open_link(driver, server, before, some=False)
    in_language(driver, "en")
    (new, _), (again, (_, keep)), (last, _) = SCRIPT[-1]
    tap_dice(driver, new)
    driver.wait_for(ADVICE_SHOWN, first)
    apply_option(driver, keep="")
    tap_dice(driver, again)
    driver.wait_for(ADVICE_SHOWN, second)
    apply_option(driver, keep=keep)
    kept = """() => document.querySelectorAll('[role=img][aria-label$=", kept"]').length"""
    driver.wait_for(f"() => ({kept})() === {len(keep)}")
    driver.type_keys(last[0])  # one of the two dice rolled again, on the keyboard
    driver.wait_for("() => document.querySelectorAll('[aria-label^=\"Remove die 4 \"]').length === 1")

    driver.reload()  # the kept game: the keep and the die entered are still there
    driver.wait_for(ADVICE_SHOWN, second, False)  # no options: the page waits for the dice
    assert driver.evaluate("() => location.search") == f"?{second}"
    assert driver.evaluate(kept) == len(keep)
    assert driver.evaluate("() => document.querySelectorAll('[aria-label^=\"Remove die 4 \"]').length") == 1
    shoot(driver, artifacts, "resumed")

    tap_dice(driver, last[1:])
    driver.wait_for(ADVICE_SHOWN, third)
    apply_option(driver, category=CHOICE)
    driver.wait_for(
        "(final) => document.querySelector('[data-testid=result]')?.dataset.final === final", str(FINAL_SCORE)
    )
    assert driver.evaluate("() => location.search") == f"?{final}"
    assert driver.evaluate("() => document.querySelector('#total').textContent") == str(FINAL_SCORE)
    shoot(driver, artifacts, "game-result")


def japanese_phone_layout(driver: EngineDriver, server: SiteServer, artifacts: Path) -> None:
    """5. The Japanese page at 320 × 640 is drawn without a layout fault (layout_check.js)."""
    driver.set_viewport(320, 640)
    try:
        open_link(driver, server, QUERY)
        in_language(driver, "ja")
        driver.wait_for(SETTLED)
        size = driver.evaluate("() => [innerWidth, innerHeight]")
        driver.evaluate(f"() => {{\n{LAYOUT_CHECK}\n}}")
        faults = driver.evaluate("() => window.yachtLayoutFaults()")
        shoot(driver, artifacts, "ja-320x640")
        in_language(driver, "en")
    finally:
        driver.set_viewport(390, 844)
    assert size == [320, 640], f"{driver.name} could not make its viewport 320 × 640"
    assert faults == [], "\n".join(faults)


def no_page_errors(driver: EngineDriver, server: SiteServer) -> None:
    """6. No uncaught error or unhandled rejection in the page, over every scenario run so far
    (loading the page once if none was)."""
    if not driver.evaluate("() => document.documentElement.dataset.state ?? ''"):
        open_link(driver, server, QUERY)
    assert driver.page_errors() == []
