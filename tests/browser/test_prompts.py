"""The prompts under the dice follow the entry at once: drawn from the store when the entry
changes, within the animation frame of the tap, not when the worker's answer comes."""

import pytest
from playwright.sync_api import Page, expect

from .conftest import own_watched_page
from .page_helpers import control, open_page

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def one_page(browser, server, runtime, warm_snapshot):
    """A page of its own, in English (the shared context keeps the language another module chose)."""
    yield from own_watched_page(browser, server, runtime)


AFTER_TAP = """(selector) => new Promise((done) => {
  document.querySelector(selector).click();
  requestAnimationFrame(() => done(document.querySelector("#summary").textContent));
})"""
"""Tap ``selector`` and read the summary in the next animation frame."""


def test_the_dice_prompt_follows_the_last_die_within_a_frame(page: Page, server) -> None:
    open_page(page, server, "s=,,,,,,,,,,,&d=14466&r=1")
    control(page, "button", "Clear dice").click()
    for face in (2, 3, 4):
        page.locator(f"#keypad button[data-face='{face}']").click()
    expect(page.locator("#summary")).to_contain_text("Enter 2 more dice for advice")
    said = page.evaluate(AFTER_TAP, "#keypad button[data-face='5']")
    assert said.startswith("Enter 1 more die for advice"), said
    said = page.evaluate(AFTER_TAP, "#keypad button[data-face='6']")
    assert "Enter" not in said, said  # five dice: no prompt left, the advice follows


def test_the_rival_prompt_goes_within_a_frame_of_their_first_score(page: Page, server) -> None:
    open_page(page, server, "s=,,,,,,,,,,,&d=14466&r=1")
    page.locator("#new-game").click()
    page.locator("[data-start=second]").click()
    expect(page.locator("#summary")).to_contain_text("The rival starts")
    page.locator("[data-testid=opponent-cell][data-category='5']").click()
    values = page.locator("#picker-values button[data-value='18']")
    expect(values).to_be_visible()
    said = page.evaluate(AFTER_TAP, "#picker-values button[data-value='18']")
    assert "The rival starts" not in said, said
