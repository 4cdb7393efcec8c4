"""Playing to win with no network or a bad one: the advice never blanks. A goal's chance that
needs files the device does not hold (a spread table, chunks) is estimated from what it holds and
labelled so (``data-testid="estimate"``, the verdict's ``data-estimate``), equal to CPython's
answer without those files (``Tables.set_unavailable``); once the files can be fetched, the exact
chance follows by itself, equal to the CLI's.

"Offline" is the browser offline and the server stopped: this module serves the site on a port of
its own, which it stops and starts again.
"""

import time

import pytest
from playwright.sync_api import expect
from yacht.api import advise_query
from yacht.loader import DEFAULT_TABLES, Tables, every_file

from .conftest import new_context
from .page_helpers import open_page, visit, wait_for_advice

pytestmark = pytest.mark.browser

# Positions with a rival (o=) or a target (t=) at every stage of the game, both rules.
POSITIONS = [
    "s=,,,,,,,,,,,&d=14466&r=1&o=,,,,,,,,,,,",  # turn 1: chunks needed
    "s=3,,9,,,18,,,,,30,&d=14466&r=2&o=,4,,12,,,22,,,,30,",  # 8 free each
    "s=3,6,9,12,,18,22,,,,30,&d=12256&r=1&o=2,4,6,8,10,,22,,,15,,&v=strict",  # 5 free each
    "s=1,2,3,4,5,6,20,0,0,,30,&d=12346&r=1&o=2,4,6,8,10,12,22,0,0,15,,0",  # exact: no file needed
    "s=,,,,,,,,,,,&d=23456&r=1&t=220",
    "s=3,6,9,12,,18,22,,,,30,&d=55561&r=2&t=150&v=strict",
]

SPREAD_KEPT = """() => caches.keys().then(async keys => {
  for (const key of keys.filter(k => k.startsWith('yacht-advisor-'))) {
    const urls = (await (await caches.open(key)).keys()).map(r => r.url);
    const kept = name => urls.some(u => u.includes(name));
    if (kept('yacht-strict.spread.table') && kept('yacht-strict.quantiles')) return true;
  }
  return false;
})"""


@pytest.fixture(scope="module")
def without_chunks() -> Tables:
    """CPython's tables as a device that holds the spread tables and the quantiles files but no chunk."""
    tables = Tables(DEFAULT_TABLES)
    for variant in ("official", "strict"):
        tables.set_unavailable(variant, every_file("reach", "law"))
    return tables


def shown_chances(page) -> dict:
    verdict = page.get_by_test_id("verdict")
    return {name: verdict.get_attribute(f"data-{name}") for name in ("win", "draw", "reach", "exact", "estimate")}


def exact_chance(page, name: str) -> str:
    """The verdict's chance ``name`` once it is no estimate (waits for it)."""
    verdict = page.locator(f"[data-testid=verdict][data-{name}]:not([data-estimate])")
    expect(verdict).to_have_count(1)
    return verdict.get_attribute(f"data-{name}")


def test_offline_after_one_plain_visit_every_goal_position_gets_advice_and_an_estimate(
    browser, own_server, cpython, without_chunks
) -> None:
    server = own_server["server"]
    context = new_context(browser, service_workers="allow")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_page(page, server, "s=,,,,,,,,,,,&d=14466&r=1")  # one plain visit: no goal
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    deadline = time.monotonic() + 60
    while not page.evaluate(SPREAD_KEPT):  # fetched in the background after the first advice
        assert time.monotonic() < deadline, (
            "the spread table and the quantiles file were not kept after the first visit"
        )
        page.wait_for_timeout(250)
    page.close()

    own_server["stop"]()
    context.set_offline(True)
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        for i, query in enumerate(POSITIONS):
            if i == 0:
                page.goto(server.url(f"index.html?{query}"))
            else:
                visit(page, server, query)
            full = cpython(query)
            wait_for_advice(page, full["query"])
            expect(page.locator("html")).to_have_attribute("data-state", "ready")
            estimate = advise_query(query, without_chunks)
            shown = shown_chances(page)
            note = page.get_by_test_id("estimate")
            if "estimate" in estimate:  # the device lacks what the exact chance needs
                lacking = ["reach"] if "t=" in query else ["law", "reach"]
                assert estimate["estimate"] == {"lacking": lacking, "chance": True}
                expect(note).to_be_visible()
                expect(note).to_contain_text("No network")
                assert note.get_attribute("data-chance") == "true"
                assert shown["estimate"] == " ".join(lacking) and shown["exact"] == "false"
            else:
                expect(note).to_be_hidden()
                assert shown["estimate"] is None
            for name in ("win", "draw", "reach"):
                if name in estimate:
                    assert float(shown[name]) == pytest.approx(estimate[name], abs=1e-6), (query, name)
            # The options are the CLI's, whatever the chance.
            assert page.get_by_test_id("option").count() == len(full["options"])
    finally:
        context.close()
        own_server["start"]()
    assert errors == []


def test_the_exact_chance_follows_by_itself_when_the_network_is_back(browser, own_server, cpython) -> None:
    query = "s=3,,9,,,18,,,,,30,&d=14466&r=2&o=,4,,12,,,22,,,,30,"
    server = own_server["server"]
    context = new_context(browser)  # no service worker: nothing fetched on demand is on the device
    page = context.new_page()
    open_page(page, server, "s=,,,,,,,,,,,&d=14466&r=1")
    own_server["stop"]()
    context.set_offline(True)
    try:
        visit(page, server, query)
        wait_for_advice(page, query)
        note = page.get_by_test_id("estimate")
        expect(note).to_be_visible()
        # Not even the quantiles file or the spread table: the options by expected score, and no
        # chance. What the loader refused: the rival's law chunk, the quantiles file that would
        # stand in for it, then the spread table in its place.
        assert note.get_attribute("data-chance") == "false"
        assert note.get_attribute("data-lacking") == "law quantiles spread"
        assert page.get_by_test_id("verdict").get_attribute("data-win") is None
        assert page.get_by_test_id("option").count() == len(cpython(query)["options"])

        server = own_server["start"]()
        context.set_offline(False)  # the page's "online": the worker fetches again at once
        expect(note).to_be_hidden()
        assert float(exact_chance(page, "win")) == pytest.approx(cpython(query)["win"], abs=1e-9)
        expect(page.locator("html")).to_have_attribute("data-state", "ready")
    finally:
        context.close()


def test_a_network_where_every_third_table_request_fails_never_blanks_the_advice(browser, own_server, cpython) -> None:
    server = own_server["server"]
    server.flaky, server.goal_requests = 3, 0
    context = new_context(browser)
    page = context.new_page()
    states: list[str] = []
    page.expose_function("noteState", lambda state: states.append(state))
    page.add_init_script(
        """new MutationObserver(() => window.noteState?.(document.documentElement.dataset.state ?? ""))
        .observe(document.documentElement, { attributes: true, attributeFilter: ["data-state"] });"""
    )
    try:
        open_page(page, server, "s=,,,,,,,,,,,&d=14466&r=1")
        for query in POSITIONS:
            visit(page, server, query)
            full = cpython(query)
            wait_for_advice(page, full["query"])
            name = "win" if "win" in full else "reach"
            # An estimate may come first; the exact chance arrives without a tap.
            assert float(exact_chance(page, name)) == pytest.approx(full[name], abs=1e-9), query
            expect(page.get_by_test_id("estimate")).to_be_hidden()
        assert server.goal_requests >= 3  # some requests did fail
        assert "error" not in states
    finally:
        server.flaky = 0
        context.close()
