"""What the browser tests share: opening the page, finding controls, reading and checking advice."""

import itertools
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect
from yacht.categories import NAMES_EN

TOLERANCE = 1e-4


def open_page(page: Page, server, query: str = "") -> None:
    """Open the page (``query``: a URL query without ``?``) and wait until the advisor is ready."""
    page.goto(server.url("index.html" + (f"?{query}" if query else "")))
    expect(page.locator("html")).to_have_attribute("data-state", "ready")


def shown_query(page: Page) -> str:
    return page.locator("#options").get_attribute("data-query") or ""


def wait_for_advice(page: Page, query: str) -> None:
    """Wait until the advice shown is that of ``query`` (a canonical query)."""
    expect(page.locator("#options")).to_have_attribute("data-query", query)


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


def assert_same_advice(page: Page, expected: dict) -> None:
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
            assert NAMES_EN[want["category"]] in option["text"]
    assert [o["rank"] for o in shown] == list(range(1, len(shown) + 1))
    values = [o["expected"] for o in shown]
    assert all(a >= b - TOLERANCE for a, b in itertools.pairwise(values))
    summary = float(page.locator("#summary").get_attribute("data-expected"))
    assert summary == pytest.approx(expected["expected"], abs=TOLERANCE)


def control(page: Page, role: str, name: str):
    return page.get_by_role(role, name=name, exact=True)
