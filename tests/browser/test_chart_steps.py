"""The advice of a new position never waits for the final-score chart of the one before: the
worker computes a chart in steps (yacht.core.steps) and answers the advice between two of them,
and the chart of a position no longer shown is cancelled (the page's mark
``yacht:distribution:cancel``): the chart drawn stays the shown position's own."""

import time

import pytest
from playwright.sync_api import Page, expect

from .page_helpers import open_page, visit, wait_for_advice

pytestmark = pytest.mark.browser

SLOW = "s=,,,,,,,,,,,&d=46155&r=1&t=200"
"""Twelve free categories: the chart is ten thousand simulated games (several seconds, 40 steps)."""
OTHER = "s=,,,,,,,,,,,&d=34211&r=2&o=,,,,,,,,,,,"
"""Another position whose chart is as long."""

CANCELLED = "() => performance.getEntriesByName('yacht:distribution:cancel').map(e => e.detail)"


def chart_of(page: Page, query: str) -> None:
    expect(page.get_by_test_id("histogram")).to_have_attribute("data-query", query, timeout=60_000)


def test_the_advice_of_a_new_position_waits_for_a_step_of_the_chart_not_for_the_chart(page: Page, server) -> None:
    open_page(page, server, OTHER)
    chart_of(page, OTHER)
    # The chart alone, in this page: from its position's advice shown to the chart drawn.
    visit(page, server, SLOW)
    wait_for_advice(page, SLOW)
    start = time.monotonic()
    chart_of(page, SLOW)
    whole_chart = time.monotonic() - start
    assert page.evaluate(CANCELLED) == []
    # Now a new position, whose chart begins as soon as its advice is shown, and back at once.
    visit(page, server, OTHER)
    wait_for_advice(page, OTHER)
    visit(page, server, SLOW)
    start = time.monotonic()
    wait_for_advice(page, SLOW)
    advice_wait = time.monotonic() - start
    # Waiting for that chart, the advice would take the rest of it (nearly all: it had just begun).
    assert advice_wait < whole_chart / 3, (advice_wait, whole_chart)
    assert page.evaluate(CANCELLED) == [OTHER], "the chart of the position left is cancelled"
    # The chart drawn is the position's own, and stays so once the worker has gone past the
    # cancelled one (it ends at its next step, before the advice asked for after it).
    chart_of(page, SLOW)
    visit(page, server, SLOW)
    wait_for_advice(page, SLOW)
    histogram = page.get_by_test_id("histogram")
    expect(histogram).to_be_visible()
    assert histogram.get_attribute("data-query") == SLOW
    assert histogram.get_attribute("data-exact") == "false" and histogram.get_attribute("data-play") == "average"
