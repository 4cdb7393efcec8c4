"""Taps act only on what was under the finger, a double tap does one thing (on a score chip: it
enters the score once; clearing is its own control), acting on an option far down the list brings
the dice and the verdict back into view, Back and Forward never fork a kept game nor change its
date, and a control that cannot act says why beside it."""

import json
import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import own_watched_page
from .page_helpers import chip, expect_cell, open_cell, open_page, opponent_cell, url_query, wait_for_advice

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def one_page(browser, server, runtime, warm_snapshot):
    """The module's page (``page``), in a context of its own: its tests start games, which stay
    kept in this context and not in the one other modules share. The test of kept games' records
    has a context of its own."""
    yield from own_watched_page(browser, server, runtime)


GAME = "h=14466-4466-24466g.12356"
"""A game at turn 2, roll 1 (Choice 22 scored)."""


def kept_games(page: Page) -> list[dict]:
    return page.evaluate(
        """() => Object.keys(localStorage).filter(k => k.startsWith('yacht.game.'))
            .map(k => JSON.parse(localStorage.getItem(k)))"""
    )


def test_a_double_tap_on_a_rival_score_enters_it_once_and_no_die(page: Page, server) -> None:
    open_page(page, server, "s=,,,,,,,,,,,&r=0&o=,,,,,,,,,,,")
    # The advice first: its arrival draws the sheet again, the open picker with it.
    wait_for_advice(page, "s=,,,,,,,,,,,&r=0&o=,,,,,,,,,,,")
    opponent_cell(page, 6).click()  # their Choice
    value = page.locator("#picker-values button[data-value='22']")
    expect(value).to_be_visible()  # the picker is drawn after the tap: its box only then
    box = value.evaluate(
        "e => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; }"
    )
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.dblclick(x, y)  # its second tap lands where the picker was
    expect(opponent_cell(page, 6)).to_have_attribute("data-value", "22")
    expect(page.get_by_test_id("die")).to_have_count(0)  # no stray die entered
    assert url_query(page).startswith("s=,,,,,,,,,,,&r=0&o=,,,,,,22,,,,,")  # nothing else either


def test_a_double_tap_on_keep_keeps_once(page: Page, server) -> None:
    open_page(page, server, "s=,,,,,,,,,,,&d=56366&r=1")
    wait_for_advice(page, "s=,,,,,,,,,,,&d=56366&r=1")
    page.locator("#verdict-apply").dblclick()
    expect(page).to_have_url(re.compile(r"\?h=56366$"))
    page.keyboard.press("1")
    page.keyboard.press("2")
    expect(page).to_have_url(re.compile(r"\?h=56366-666-66612$"))  # one keep, then its dice


def test_keep_on_an_option_far_down_every_option_brings_the_dice_and_the_verdict_into_view(page: Page, server) -> None:
    open_page(page, server, GAME)
    wait_for_advice(page, GAME)
    option = page.get_by_test_id("option").nth(2)
    option.scroll_into_view_if_needed()
    assert not in_viewport(page, ".dice-entry")  # scrolled down to the list, the dice above
    option.locator("button.apply").click()
    expect(page.locator("#summary")).to_contain_text("Kept 6: enter the 4 dice")  # the dice to enter next
    # The next step in view: the dice to enter (the slots and the keypad) and the verdict's place.
    page.wait_for_function(f"() => ({IN_VIEW})('.dice-entry') && ({IN_VIEW})('.verdict-area')")
    page.wait_for_timeout(300)  # and they stay there
    assert in_viewport(page, ".dice-entry") and in_viewport(page, ".verdict-area")

    # Preferring reduced motion: there at once, not scrolled smoothly.
    page.emulate_media(reduced_motion="reduce")
    for key in "1234":
        page.keyboard.press(key)
    page.wait_for_function("() => document.querySelector('#options').dataset.query === location.search.slice(1)")
    expect(page.locator("#options")).not_to_have_attribute("aria-busy", "true")
    option = page.get_by_test_id("option").nth(1)
    option.scroll_into_view_if_needed()
    assert not in_viewport(page, ".dice-entry")
    option.locator("button.apply").click()
    assert in_viewport(page, ".dice-entry") and in_viewport(page, ".verdict-area")
    page.emulate_media(reduced_motion="no-preference")


IN_VIEW = """s => { const r = document.querySelector(s).getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight && r.height > 0; }"""


def in_viewport(page: Page, selector: str) -> bool:
    """Whether the whole box of ``selector`` is on the screen."""
    return page.evaluate(f"({IN_VIEW})", selector)


CLICK_DETAILS = "() => { window.clickDetails = []; addEventListener('click', e => clickDetails.push(e.detail), true); }"
"""Records each click's ``detail`` (the browser's count of taps in a row) as the page sees it."""


def centre(locator) -> tuple[float, float]:
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_double_tap_on_a_score_chip_enters_the_score_and_clear_is_its_own_control(page: Page, server) -> None:
    query = "s=,,,,,,,,,,,&r=0"
    open_page(page, server, query)
    wait_for_advice(page, query)
    page.evaluate(CLICK_DETAILS)
    x, y = centre(chip(page, 0, 3))
    page.mouse.click(x, y)  # two taps on Aces 3, sent one right after the other
    page.mouse.click(x, y)
    assert page.evaluate("clickDetails") == [1, 1]  # two taps, not a double tap (that is below)
    page.wait_for_timeout(300)
    expect_cell(page, 0, 3)
    assert url_query(page) == "s=3,,,,,,,,,,,&r=0"
    expect(chip(page, 0, 3)).to_have_attribute("aria-pressed", "true")
    x, y = centre(chip(page, 0, 4))
    page.mouse.dblclick(x, y)  # a double tap (clicks of detail 1 and 2, then dblclick) on Aces 4
    page.wait_for_timeout(300)
    expect_cell(page, 0, 4)
    assert url_query(page) == "s=4,,,,,,,,,,,&r=0"
    chip(page, 0, 4).dblclick()  # on the pressed chip too: it stays
    page.wait_for_timeout(300)
    expect_cell(page, 0, 4)
    assert url_query(page) == "s=4,,,,,,,,,,,&r=0"

    # Clearing is the picker's own labelled control, offered only when the cell has a score.
    open_cell(page, 0)
    clear = page.locator("#picker-values button[data-value='']")
    expect(clear).to_have_text("Clear")
    expect(clear).to_have_attribute("aria-label", "Clear Aces")
    clear.click()
    expect(page.locator("#picker")).to_be_hidden()
    expect_cell(page, 0, None)
    assert url_query(page) == query
    open_cell(page, 0)
    expect(page.locator("#picker-values button").first).to_be_visible()
    expect(clear).to_have_count(0)
    open_cell(page, 0)  # closes the picker
    expect(page.locator("#picker")).to_be_hidden()


def test_back_and_forward_never_fork_a_kept_game_and_opening_it_keeps_its_date(make_context, server) -> None:
    context = make_context()
    page = context.new_page()
    open_page(page, server, GAME)
    wait_for_advice(page, GAME)
    page.locator("#new-game").click()
    page.locator("[data-start=alone]").click()  # the game is kept; a new one starts
    wait_for_advice(page, "s=,,,,,,,,,,,&r=0")
    [kept] = [g for g in kept_games(page) if g["query"] == GAME]
    page.evaluate(
        "id => { const k = 'yacht.game.' + id; const r = JSON.parse(localStorage.getItem(k));"
        " r.updated = 1e12; localStorage.setItem(k, JSON.stringify(r)); }",
        kept["id"],
    )
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-state", "ready")
    page.locator("[data-testid=kept-game] .game-open").first.click()  # open it again
    wait_for_advice(page, GAME)
    [again] = [g for g in kept_games(page) if g["id"] == kept["id"]]
    assert again["updated"] == 1e12  # opened, not changed: its date stays
    expect(page.locator("#advice-heading")).to_be_focused()  # the focus follows to the game

    # Play on (a decision and its dice), then Back to where it was opened: still one record, whole.
    page.locator("#verdict-apply").click()
    page.locator("#roll-for-me").click()
    page.wait_for_function("() => document.querySelector('#options').dataset.query === location.search.slice(1)")
    longer = url_query(page)
    assert longer.startswith(GAME) and longer != GAME
    for _ in range(4):
        now = url_query(page)
        if now == GAME:
            break
        page.go_back()
        page.wait_for_function("q => location.search.slice(1) !== q", arg=now)  # one entry at a time
    wait_for_advice(page, GAME)
    page.wait_for_timeout(300)
    records = [g for g in kept_games(page) if g["query"].startswith("h=14466")]
    assert [g["query"] for g in records] == [longer], json.dumps(records)


def test_a_score_to_reach_out_of_range_stays_and_says_the_range(page: Page, server) -> None:
    open_page(page, server, "s=,,,,,,,,,,,&d=56366&r=1&t=200")
    box = page.locator("#target")
    box.fill("1234")
    box.press("Enter")
    expect(box).to_have_value("1234")
    expect(page.locator("#target-error")).to_have_text("1234 is not a score to reach: a whole number from 0 to 999.")
    expect(box).to_have_attribute("aria-invalid", "true")
    assert url_query(page).endswith("t=200")
    box.fill("150")
    box.press("Enter")
    expect(page.locator("#target-error")).to_be_hidden()
    expect(page).to_have_url(re.compile(r"t=150$"))


def test_the_rules_say_beside_them_why_they_cannot_change_in_a_game(page: Page, server) -> None:
    open_page(page, server, GAME)
    wait_for_advice(page, GAME)
    expect(page.locator("input[name=variant][value=strict]")).to_be_disabled()
    expect(page.locator("#variant-hint")).to_have_text("The rules follow the game: start a new game to change them.")
    # Skips for keyboards: from the dice to the verdict's action, from there to the sheet.
    page.locator("[data-skip=verdict]").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#verdict-apply")).to_be_focused()
    page.locator("[data-skip=sheet]").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#card-rows button:not(:disabled)").first).to_be_focused()
