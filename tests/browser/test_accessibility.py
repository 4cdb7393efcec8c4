"""Accessibility, tested: axe-core (npm, pinned in package.json) finds no violation in the page's
states — a position, with an opponent, with a score to reach, the picker open, the review open,
an error — in English and Japanese, light and dark; the keyboard paths: a field takes its own
keys, the picker takes the focus and gives it back, and after a completed roll the focus lands on
the verdict's action.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .conftest import warm_context
from .page_helpers import control, open_cell, open_page, visit, wait_for_advice

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"

POSITION = "s=3,,9,,,18,22,,,,30,&d=22556&r=2"
OPPONENT = "s=3,,9,,,18,22,,,,30,&d=22556&r=2&o=2,,12,,,24,20,,,15,,"
TARGET = "s=3,,9,,,18,22,,,,30,&d=22556&r=2&t=200"
GAME = "h=56366-666-66612f.11111-1-12345a"
BAD = "s=3,,9,,,18,22,,,,30,&d=2255&r=2"


@pytest.fixture(scope="module")
def page(browser, server, runtime, warm_snapshot) -> Iterator[Page]:
    """A page of this module's own context: what it loads (the chunks for t=) stays out of
    the shared context's cache, whose tests count what the server is asked for."""
    context = warm_context(browser, server, runtime)
    yield context.new_page()
    context.close()


def violations(page: Page) -> list[str]:
    """axe-core's violations of the page as it is (WCAG 2.x A and AA, and best practices)."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """() => axe.run(document, { resultTypes: ['violations'] }).then(r => r.violations.map(v =>
            `${v.id} (${v.impact}): ${v.nodes.slice(0, 4).map(n => n.target.join(' ')).join(', ')}`
            + (v.nodes.length > 4 ? ` and ${v.nodes.length - 4} more` : '')))"""
    )
    return found


def states(page: Page, server) -> dict[str, list[str]]:
    """Every state the issue lists, each with its violations."""
    found = {}
    for name, query in (("position", POSITION), ("opponent", OPPONENT), ("target", TARGET)):
        visit(page, server, query)
        wait_for_advice(page, query)
        found[name] = violations(page)
    visit(page, server, POSITION)
    wait_for_advice(page, POSITION)
    open_cell(page, 6)
    expect(page.locator("#picker")).to_be_visible()
    found["picker"] = violations(page)
    page.keyboard.press("Escape")
    visit(page, server, GAME)
    page.locator("#review-open").click()
    expect(page.get_by_test_id("review-summary")).to_be_visible()
    found["review"] = violations(page)
    page.locator("#review-close").click()
    visit(page, server, BAD)
    expect(page.get_by_test_id("error")).to_be_visible()
    found["error"] = violations(page)
    return found


@pytest.mark.parametrize(
    ("language", "scheme"),
    # Each language and each scheme in make test; the other two pairs in make test-slow.
    [
        ("en", "light"),
        ("ja", "dark"),
        pytest.param("en", "dark", marks=pytest.mark.slow),
        pytest.param("ja", "light", marks=pytest.mark.slow),
    ],
)
def test_axe_finds_no_violation_in_any_state(make_context, server, language, scheme) -> None:
    context = make_context(locale="ja-JP" if language == "ja" else "en-US", color_scheme=scheme)
    page = context.new_page()
    open_page(page, server, POSITION)
    found = states(page, server)
    print(f"axe, {language} {scheme}: " + ", ".join(f"{k} {len(v)}" for k, v in found.items()))
    assert {k: v for k, v in found.items() if v} == {}


def test_a_field_takes_its_own_keys(page: Page, server) -> None:
    """Typing 200 in the score to reach changes the target, not the dice."""
    open_page(page, server, TARGET)
    wait_for_advice(page, TARGET)
    field = page.locator("#target")
    field.fill("")
    field.press_sequentially("230")
    field.press("Backspace")
    field.press("Backspace")
    field.press_sequentially("50")
    field.press("Enter")
    wait_for_advice(page, TARGET.replace("t=200", "t=250"))
    assert page.get_by_test_id("die").count() == 5  # the dice were not touched


def test_the_picker_takes_the_focus_and_gives_it_back(page: Page, server) -> None:
    open_page(page, server, POSITION)
    wait_for_advice(page, POSITION)
    opener = page.get_by_test_id("cell").nth(6).locator(".open")
    opener.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#picker")).to_be_visible()
    assert page.evaluate("document.getElementById('picker').contains(document.activeElement)")
    page.keyboard.press("Escape")
    expect(page.locator("#picker")).to_be_hidden()
    expect(opener).to_be_focused()
    # Their column too: the picker of their score, and back to their cell.
    visit(page, server, OPPONENT)
    wait_for_advice(page, OPPONENT)
    theirs = page.locator("[data-testid=opponent-cell][data-category='1']")
    theirs.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("document.getElementById('picker').contains(document.activeElement)")
    page.locator("#picker-values button[data-value='4']").press("Enter")
    expect(page.locator("#picker")).to_be_hidden()
    expect(theirs).to_be_focused()
    expect(theirs).to_have_attribute("data-value", "4")


def test_after_a_completed_roll_the_focus_is_on_the_verdicts_action(page: Page, server) -> None:
    start = "s=,,,,,,,,,,,&d=56366&r=1"
    open_page(page, server, start)
    wait_for_advice(page, start)
    control(page, "button", "Keep (the best)").click()  # keep 6 6 6: two dice to enter
    page.keyboard.press("1")
    page.keyboard.press("2")  # the roll is complete
    expect(page.locator("#verdict-apply")).to_be_enabled()
    expect(page.locator("#verdict-apply")).to_be_focused()
