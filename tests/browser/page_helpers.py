"""What the browser tests share: opening the page, finding controls, reading and checking advice."""

import itertools
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect
from yacht.core.categories import NAMES_EN

TOLERANCE = 1e-4
TIE = 1e-9
"""Options whose expected scores differ by at most this are tied (the page's verdict.js)."""


SNAPSHOTS = """async (name) => {
  const cache = await caches.open(name);
  const found = {};
  for (const request of await cache.keys()) {
    const response = await cache.match(request);
    if (response) found[request.url] = (await response.arrayBuffer()).byteLength;
  }
  return found;
}"""
"""A page's function: the Cache Storage cache ``name``'s entries, URL → size in bytes (the snapshot's).
An entry deleted between the listing and its read (a snapshot being saved deletes the other
builds' meanwhile) is not held, and not listed."""


def open_page(page: Page, server, query: str = "", *, load: bool = False) -> None:
    """Open the page at ``query`` (a URL query without ``?``) and wait until the advisor is ready.

    A page that already runs the advisor is moved to the link as Back or Forward would (``visit``):
    Pyodide does not load again. ``load``: load the page afresh (to test what loading does)."""
    if load or not page.url.startswith(server.url()) or page.locator("html").get_attribute("data-state") != "ready":
        page.goto(server.url("index.html" + (f"?{query}" if query else "")))
    else:
        visit(page, server, query)
    expect(page.locator("html")).to_have_attribute("data-state", "ready")


def visit(page: Page, server, query: str) -> None:
    """Open the link of ``query``: loaded the first time; after that as Back or Forward opens a
    history entry (the page reads its URL as at a load, and Pyodide need not load again)."""
    if not page.url.startswith(server.url()):
        open_page(page, server, query)
        return
    page.evaluate("q => { history.pushState(null, '', '?' + q); dispatchEvent(new PopStateEvent('popstate')); }", query)


def shown_query(page: Page) -> str:
    return page.locator("#options").get_attribute("data-query") or ""


def wait_for_advice(page: Page, query: str) -> None:
    """Wait until the advice shown is that of ``query`` (a canonical query), drawn anew: a visit of
    the query already shown marks the list busy at once (markStale) and draws it again later."""
    options = page.locator("#options")
    expect(options).to_have_attribute("data-query", query)
    expect(options).not_to_have_attribute("aria-busy", "true")


def url_query(page: Page) -> str:
    return urlsplit(page.url).query


def page_options(page: Page) -> list[dict]:
    return page.locator("[data-testid=option]").evaluate_all(
        """items => items.map(e => ({
            rank: Number(e.dataset.rank),
            expected: Number(e.dataset.expected),
            keep: e.dataset.keep ?? null,
            category: e.dataset.category === undefined ? null : Number(e.dataset.category),
            text: e.textContent,
        }))"""
    )


def option_key(option: dict) -> tuple:
    """An option's identity: its keep (as digits) at rolls 1–2, its category at roll 3."""
    if option.get("keep") is not None:
        keep = option["keep"]
        return ("keep", keep if isinstance(keep, str) else "".join(map(str, keep)))
    return ("category", option["category"])


def assert_same_advice(page: Page, expected: dict, names: tuple[str, ...] = NAMES_EN) -> None:
    """The page shows the options of ``expected`` (CPython's answer), values within TOLERANCE.

    Options are compared as a set keyed by keep or category (ties may be ranked either
    way); the page's ranks must run 1, 2, … with expected values not increasing.
    """
    shown = page_options(page)
    assert {option_key(o) for o in shown} == {option_key(o) for o in expected["options"]}
    by_key = {option_key(o): o for o in expected["options"]}
    for option in shown:
        want = by_key[option_key(option)]
        assert option["expected"] == pytest.approx(want["expected"], abs=TOLERANCE), option
        if "category" in want and option["keep"] is not None:  # keeping all five: stop and score
            assert names[want["category"]] in option["text"]
    # Ranks as in sports: tied options (within TIE) share one, the next is counted past them.
    values = [o["expected"] for o in shown]
    assert all(a >= b - TOLERANCE for a, b in itertools.pairwise(values))
    assert [o["rank"] for o in shown] == [1 + sum(v - w > TIE for v in values) for w in values]
    summary = float(page.locator("#summary").get_attribute("data-expected"))
    assert summary == pytest.approx(expected["expected"], abs=TOLERANCE)


def control(page: Page, role: str, name: str):
    return page.get_by_role(role, name=name, exact=True)


# The scoresheet: one cell per category (data-testid="cell"): its name opens the picker; a category
# with at most six scores has them as chips on the sheet too ------------------------------------


def cell(page: Page, category: int):
    return page.locator(f"[data-testid=cell][data-category='{category}']")


def open_cell(page: Page, category: int) -> None:
    """Tap a cell's name: opens its picker (or closes it when open)."""
    cell(page, category).locator(".open").click()


def chip(page: Page, category: int, value: int):
    """The chip on the sheet that writes ``value`` in a category (Aces–Sixes, straights, Yacht)."""
    return cell(page, category).locator(f".quick-values button[data-value='{value}']")


def set_cell(page: Page, category: int, value: int | None) -> None:
    """Write ``value`` in a category (None: empty it, by the picker's Clear): tap its name, then the value."""
    open_cell(page, category)
    page.locator(f"#picker-values button[data-value='{'' if value is None else value}']").click()
    expect(page.locator("#picker")).to_be_hidden()


def expect_cell(page: Page, category: int, value: int | None) -> None:
    expect(cell(page, category)).to_have_attribute("data-value", "" if value is None else str(value))


def score_on_sheet(page: Page, category: int, name: str, points: int) -> None:
    """Score the dice shown in a category from the sheet: its name, then "Score N in Name"."""
    open_cell(page, category)
    control(page, "button", f"Score {points} in {name}").click()


def opponent_cell(page: Page, category: int):
    """The opponent's cell of a category: their column on the score card."""
    return page.locator(f"[data-testid=opponent-cell][data-category='{category}']")


def set_opponent_cell(page: Page, category: int, value: int | None) -> None:
    """Write ``value`` (None: empty) in the opponent's column: tap their cell, then the score."""
    opponent_cell(page, category).click()
    page.locator(f"#picker-values button[data-value='{'' if value is None else value}']").click()
    expect(page.locator("#picker")).to_be_hidden()


def refused_then_usable(page: Page, query: str) -> None:
    """A bad link ``query`` is refused (no option, no image from it, the URL as it was), and the
    page stays usable: the dice shown cleared and 1 1 2 5 6 entered instead (the caller waits for
    the advice of the position they make)."""
    assert page.locator("main img").count() == 0
    assert url_query(page) == query  # the link stays as it was until something is changed
    expect(page.get_by_test_id("option")).to_have_count(0)
    if page.locator("#slots button").count():
        control(page, "button", "Clear dice").click()
    for die in (1, 1, 2, 5, 6):
        control(page, "button", f"Add {die}").click()


def advisor_worker(page: Page):
    """The page's advisor worker: the newest (a worker of the page before a navigation may still be
    listed while it closes)."""
    return [w for w in page.workers if w.url.endswith("/worker.js")][-1]
