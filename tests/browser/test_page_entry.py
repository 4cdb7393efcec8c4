"""Entering and editing a position on the advisor page in headless Chromium: edits update the
advice and the URL, the sheet offers only possible scores and scores in one tap, the keyboard,
a variant change, playing the game along and a new game (``test_page.py``: loading, links, the
advice against the CPython advisor).

Each test waits on something the page shows (``data-state``, the query the shown advice
belongs to, a message), never on the clock. Controls are found by role and name, as a
screen reader would find them.
"""

import re

import pytest
from playwright.sync_api import Page, expect
from yacht.core.categories import N_CATEGORIES
from yacht.core.dice import roll_index
from yacht.core.rules import VARIANTS, possible_scores, score_table

from .page_helpers import (
    assert_same_advice,
    cell,
    chip,
    control,
    expect_cell,
    open_cell,
    open_page,
    score_on_sheet,
    set_cell,
    url_query,
    wait_for_advice,
)

pytestmark = pytest.mark.browser

# Editing --------------------------------------------------------------------------------------


def test_edits_update_the_advice_and_the_url(page: Page, server, cpython) -> None:
    open_page(page, server, "s=3,,9,,,18,,,,,30,&d=14466&r=2")

    def check(query: str) -> None:
        wait_for_advice(page, query)
        assert url_query(page) == query
        assert_same_advice(page, cpython(query))

    check("s=3,,9,,,18,,,,,30,&d=14466&r=2")
    control(page, "button", "Remove die 1 (1)").click()  # four dice: no position to advise yet
    check("s=3,,9,,,18,,,,,30,&r=0")
    expect(page.locator("#summary")).to_contain_text("Enter 1 more die for advice (expected ")
    control(page, "button", "Add 5").click()  # the order as entered is kept
    check("s=3,,9,,,18,,,,,30,&d=44665&r=2")
    control(page, "radio", "Roll 3").check()
    check("s=3,,9,,,18,,,,,30,&d=44665&r=3")
    set_cell(page, 6, 25)
    check("s=3,,9,,,18,25,,,,30,&d=44665&r=3")
    control(page, "radio", "Strict").check()
    check("s=3,,9,,,18,25,,,,30,&d=44665&r=3&v=strict")
    control(page, "radio", "Roll 1").check()
    check("s=3,,9,,,18,25,,,,30,&d=44665&r=1&v=strict")
    set_cell(page, 0, None)
    check("s=,,9,,,18,25,,,,30,&d=44665&r=1&v=strict")


def test_the_sheet_offers_only_possible_scores_and_previews_the_dice(page: Page, server) -> None:
    open_page(page, server, "s=,,,,,,,,,,,&d=33355&r=1")
    for variant in ("official", "strict"):
        control(page, "radio", variant.capitalize()).check()
        allowed = possible_scores(VARIANTS[variant])
        points = score_table(VARIANTS[variant])[roll_index((3, 3, 3, 5, 5))]
        for c in range(N_CATEGORIES):
            open_cell(page, c)
            values = page.locator("#picker-values button").evaluate_all("b => b.map(x => x.dataset.value)")
            assert sorted(values) == sorted(map(str, allowed[c]))  # no Clear: the cell is empty
            assert values[0] == str(points[c])  # these dice's points first
            open_cell(page, c)  # closes the picker
            expect(page.locator("#picker")).to_be_hidden()
    control(page, "radio", "Official").check()
    expect(cell(page, 8).locator(".preview")).to_have_text("→ 19")  # Full House: 3 3 3 5 5 = 19
    expect(cell(page, 2).locator(".preview")).to_have_text("→ 9")
    set_cell(page, 3, 16)
    set_cell(page, 5, 30)
    set_cell(page, 4, 20)
    expect(page.locator("#subtotal")).to_have_text("66 / 63")
    expect(page.locator("#bonus")).to_have_text("+35")
    expect(page.locator("#total")).to_have_text("101")
    set_cell(page, 5, None)
    expect(page.locator("#bonus")).to_have_text("27 more for +35")


def test_the_sheet_chips_write_a_score_in_one_tap_and_never_score_the_dice(page: Page, server) -> None:
    open_page(page, server, "s=,,,,,,,,,,,&d=33355&r=2")
    wait_for_advice(page, "s=,,,,,,,,,,,&d=33355&r=2")
    for variant in ("official", "strict"):
        control(page, "radio", variant.capitalize()).check()
        allowed = possible_scores(VARIANTS[variant])
        for c in range(N_CATEGORIES):
            chips = cell(page, c).locator(".quick-values button")
            values = chips.evaluate_all("b => b.map(x => Number(x.dataset.value))")
            # Every category with at most six scores has them all on the sheet, in order.
            assert values == (sorted(allowed[c]) if len(allowed[c]) <= 6 else []), c
    control(page, "radio", "Official").check()
    # The dice's points are marked: 3 3 3 5 5 scores 9 in Treys, 0 in Fours, 0 in B.Straight.
    for c, points in ((2, 9), (3, 0), (10, 0)):
        expect(chip(page, c, points)).to_have_class(re.compile(r"\bdice-points\b"))
    expect(chip(page, 2, 6)).not_to_have_class(re.compile(r"\bdice-points\b"))
    chip(page, 2, 6).click()  # a tap writes the score, at roll 2: no turn is played
    wait_for_advice(page, "s=,,6,,,,,,,,,&d=33355&r=2")
    expect(chip(page, 2, 6)).to_have_attribute("aria-pressed", "true")
    chip(page, 10, 30).click()
    wait_for_advice(page, "s=,,6,,,,,,,,30,&d=33355&r=2")
    chip(page, 2, 6).click()  # the pressed chip leaves the score: clearing is the picker's Clear
    page.wait_for_timeout(300)
    assert url_query(page) == "s=,,6,,,,,,,,30,&d=33355&r=2"
    expect(chip(page, 2, 6)).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#picker")).to_be_hidden()
    set_cell(page, 2, None)
    wait_for_advice(page, "s=,,,,,,,,,,30,&d=33355&r=2")
    expect(chip(page, 2, 6)).to_have_attribute("aria-pressed", "false")
    # Playing along, the sheet follows the game: its chips are disabled.
    open_cell(page, 5)
    control(page, "button", "Score 0 in Sixes").click()
    wait_for_advice(page, "s=,,,,,,,,,,30,&r=2&h=33355f")
    expect(chip(page, 5, 0)).to_have_attribute("aria-pressed", "true")
    for c in (0, 9, 11):
        expect(chip(page, c, 0)).to_be_disabled()


def test_scoring_from_the_sheet_is_a_labelled_action(page: Page, server) -> None:
    open_page(page, server, "s=,,,,,,,,,,,&d=66662&r=2")
    wait_for_advice(page, "s=,,,,,,,,,,,&d=66662&r=2")
    open_cell(page, 5)  # opening a cell scores nothing
    expect(page.locator("#picker")).to_be_visible()
    page.keyboard.press("Escape")  # closes it, the focus back on its cell
    expect(page.locator("#picker")).to_be_hidden()
    expect(cell(page, 5).locator(".open")).to_be_focused()
    open_cell(page, 5)
    assert url_query(page) == "s=,,,,,,,,,,,&d=66662&r=2"
    expect(page.locator("#picker-hint")).to_contain_text("This ends the turn now.")
    expect(page.locator("#picker-hint")).to_contain_text("Scoring starts playing along")
    control(page, "button", "Score 24 in Sixes").click()
    wait_for_advice(page, "r=2&h=66662f")


def test_a_variant_change_clears_scores_the_new_rules_cannot_give(page: Page, server) -> None:
    open_page(page, server, "s=,,,,,,,,5,,,&r=0")  # Full House 5: five aces, official rules only
    wait_for_advice(page, "s=,,,,,,,,5,,,&r=0")
    control(page, "radio", "Strict").check()
    wait_for_advice(page, "s=,,,,,,,,,,,&r=0&v=strict")
    expect_cell(page, 8, None)
    expect(page.locator("#note")).to_have_text("Cleared Full House: not a possible score under these rules.")


def test_the_keyboard_enters_dice_and_the_roll(page: Page, server) -> None:
    open_page(page, server)
    page.evaluate("document.activeElement?.blur()")  # keys go to the page, not a control left focused
    for key in "31366":
        page.keyboard.press(key)
    # The URL is written as the store changes; wait for it rather than read it at once (a busy machine).
    query_is = "q => location.search.slice(1) === q"
    page.wait_for_function(query_is, arg="s=,,,,,,,,,,,&d=31366&r=1")
    page.keyboard.press("r")
    page.wait_for_function(query_is, arg="s=,,,,,,,,,,,&d=31366&r=2")
    page.keyboard.press("Backspace")
    page.wait_for_function(query_is, arg="s=,,,,,,,,,,,&r=0")
    assert url_query(page) == "s=,,,,,,,,,,,&r=0"
    page.keyboard.press("4")
    wait_for_advice(page, "s=,,,,,,,,,,,&d=31364&r=2")


def test_following_the_advice_plays_the_game_along(page: Page, server, cpython) -> None:
    query = "s=,,,,,,,,,,,&d=56366&r=1"
    open_page(page, server, query)
    wait_for_advice(page, query)
    best = cpython(query)["options"][0]
    assert best["keep"] == [6, 6, 6]
    control(page, "button", "Keep 6 6 6 and roll again").click()
    # The position became a game record; the kept dice stay, two are to be entered.
    assert url_query(page) == "h=56366"
    expect(page.get_by_role("img", name="6, kept", exact=True)).to_have_count(3)
    expect(page.locator("#summary")).to_contain_text("Kept 6 6 6: enter the 2 dice you rolled again")
    expect(control(page, "radio", "Roll 2")).to_be_checked()
    expect(control(page, "radio", "Roll 2")).to_be_disabled()
    for die in (6, 2):
        control(page, "button", f"Add {die}").click()
    wait_for_advice(page, "h=56366-666-66662")
    assert page.locator("#options").get_attribute("data-position") == "s=,,,,,,,,,,,&d=66662&r=2"
    assert_same_advice(page, cpython("s=,,,,,,,,,,,&d=66662&r=2"))
    # Scoring on the sheet stops the turn early: Sixes 24 is written, turn 2 waits for dice.
    score_on_sheet(page, 5, "Sixes", 24)
    wait_for_advice(page, "h=56366-666-66662f")
    expect_cell(page, 5, 24)
    expect(page.locator("#sheet-locked")).to_be_visible()
    open_cell(page, 5)  # while playing along the sheet follows the game: no values to pick
    expect(page.locator("#picker-values")).to_be_hidden()
    open_cell(page, 5)
    expect(page.locator("#slots button")).to_have_count(0)
    expect(page.locator("#summary")).to_contain_text("Turn 2: enter the five dice you rolled")
    expect(page.locator("#total")).to_have_text("24")
    # Virtual dice: five random faces, roll 1 of turn 2.
    control(page, "button", "Roll for me").click()
    expect(page).to_have_url(re.compile(r"\?h=56366-666-66662f\.[1-6]{5}$"))
    record = url_query(page)
    wait_for_advice(page, record)
    position = page.locator("#options").get_attribute("data-position")
    assert position == f"s=,,,,,24,,,,,,&d={record[-5:]}&r=1"
    assert_same_advice(page, cpython(position))


def test_new_game_at_the_top_offers_its_choices_and_clears_the_sheet(page: Page, server) -> None:
    open_page(page, server, "s=3,,9,,,18,,,,,30,&d=14466&r=2&v=strict")
    start = control(page, "button", "New game")
    assert start.bounding_box()["y"] < 44  # in the header
    start.click()
    expect(page.locator("#start-note")).to_contain_text("The game shown stays on this device")
    control(page, "button", "Cancel").click()
    assert url_query(page) == "s=3,,9,,,18,,,,,30,&d=14466&r=2&v=strict"
    start.click()
    control(page, "button", "Alone").click()
    wait_for_advice(page, "s=,,,,,,,,,,,&r=0&v=strict")
    # Against a rival who starts: their column, empty, and what to do first.
    start.click()
    control(page, "button", "Against a rival: they start").click()
    wait_for_advice(page, "s=,,,,,,,,,,,&r=0&v=strict&o=,,,,,,,,,,,")
    expect(page.locator("#summary")).to_have_text("The rival starts: tap their column to enter their first score.")
    start.click()
    control(page, "button", "Against a rival: I start").click()
    expect(page.locator("#summary")).to_contain_text("Before rolling")
