"""A game in progress is never lost: it is kept on the device after every change (web/page/model/saved.js)
and offered back when the site opens without a link, the keep and the dice entered mid-turn
included, after the browser is closed and relaunched; another link keeps it resumable; a kept
game can be deleted (and the deletion undone); blocked storage and a damaged record are said, never a crash.
"""

import re

import pytest
from playwright.sync_api import expect

from .conftest import CHROMIUM_ARGS, LOAD_TIMEOUT_MS, chromium_executable, seed_snapshot
from .page_helpers import control, open_page, url_query, wait_for_advice

pytestmark = pytest.mark.browser

START = "s=,,,,,,,,,,,&d=56366&r=1"
OTHER = "s=3,,9,,,18,22,,,,30,&d=22556&r=2"


def relaunch(playwright, folder):
    """A browser with a profile of its own on disk, as a phone's: what it keeps survives a close."""
    context = playwright.chromium.launch_persistent_context(
        str(folder),
        executable_path=chromium_executable(),
        headless=True,
        args=CHROMIUM_ARGS,
        viewport={"width": 390, "height": 844},
        service_workers="block",
    )
    context.set_default_timeout(LOAD_TIMEOUT_MS)
    return context


def test_a_game_mid_turn_is_resumed_after_the_browser_is_closed(
    playwright, server, runtime, warm_snapshot, tmp_path
) -> None:
    context = relaunch(playwright, tmp_path)
    seed_snapshot(context, server, runtime)  # not a first visit: no snapshot to take meanwhile
    page = context.pages[0] if context.pages else context.new_page()
    open_page(page, server, START)
    wait_for_advice(page, START)
    control(page, "button", "Keep (the best)").click()  # keep 6 6 6: the game starts
    page.keyboard.press("1")  # one of the two new dice entered
    expect(page.get_by_test_id("die")).to_have_count(4)
    game = url_query(page)
    assert game == "h=56366"
    context.close()

    context = relaunch(playwright, tmp_path)
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(server.url(""))  # the site at /: the home-screen icon, a new tab
    expect(page.locator("html")).to_have_attribute("data-state", "ready")
    resume = page.get_by_test_id("resume")
    expect(resume).to_contain_text("Resume: turn 1, 0 points")
    resume.get_by_role("button", name="Resume").click()
    expect(resume).to_be_hidden()
    assert url_query(page) == game
    expect(page.get_by_role("img", name=re.compile(r"^6, kept$"))).to_have_count(3)
    dice = page.get_by_test_id("die").evaluate_all("d => d.map(e => e.querySelector('.die').dataset.face)")
    assert dice == ["6", "6", "6", "1"]
    page.keyboard.press("2")  # the roll completes where it stopped
    expect(page).to_have_url(re.compile(r"h=56366-666-66612$"))

    # Another link: a record of its own; the game before stays in the list, newest first.
    page.goto(server.url(f"index.html?{OTHER}"))
    wait_for_advice(page, OTHER)
    kept = page.get_by_test_id("kept-game")
    expect(kept).to_have_count(2)
    expect(kept.nth(0)).to_have_attribute("data-query", OTHER)
    expect(kept.nth(1)).to_have_attribute("data-query", "h=56366-666-66612")
    # One can be deleted, and the deletion undone from the note that says it.
    kept.nth(1).get_by_role("button", name=re.compile(r"^Delete")).click()
    expect(kept).to_have_count(1)
    expect(page.locator("#note")).to_have_text("Game deleted.")
    page.get_by_test_id("undo").click()
    expect(kept).to_have_count(2)
    expect(kept.nth(1)).to_have_attribute("data-query", "h=56366-666-66612")
    expect(page.locator("#note")).to_have_text("Game restored.")
    expect(page.get_by_test_id("undo")).to_be_hidden()
    kept.nth(1).get_by_role("button", name=re.compile(r"^Delete")).click()  # without Undo: gone
    expect(kept).to_have_count(1)
    page.reload()
    expect(page.get_by_test_id("kept-game")).to_have_count(1)
    context.close()


BLOCKED = """
Object.defineProperty(window, 'localStorage', {
    get() { throw new DOMException('The storage is blocked.', 'SecurityError'); },
});
"""

DAMAGED = """
if (!sessionStorage.getItem('damaged')) {
    sessionStorage.setItem('damaged', '1');
    localStorage.setItem('yacht.game.zzz', '{"v": 1, "id": "zzz", "query": 7');
    localStorage.setItem('yacht.game.old', JSON.stringify({v: 0, id: 'old'}));
}
"""


def test_blocked_storage_is_said_and_the_page_still_advises(make_context, server) -> None:
    context = make_context()
    context.add_init_script(BLOCKED)
    page = context.new_page()
    open_page(page, server, START)
    wait_for_advice(page, START)
    control(page, "button", "Keep (the best)").click()  # the game starts, and is not kept
    expect(page.locator("#games-note")).to_have_text(
        "This game will not be kept on this device: its storage is blocked or full."
    )
    expect(page).to_have_url(re.compile(r"h=56366$"))  # the page plays along as ever


def test_damaged_records_are_skipped_with_a_note(make_context, server) -> None:
    context = make_context()
    context.add_init_script(DAMAGED)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url(""))
    expect(page.locator("html")).to_have_attribute("data-state", "ready")
    expect(page.locator("#games-note")).to_have_text("2 kept games were damaged and skipped.")
    expect(page.get_by_test_id("resume")).to_be_hidden()
    expect(page.get_by_test_id("kept-game")).to_have_count(0)
    control(page, "button", "Add 5").click()
    assert errors == []


KEPT_RECORDS = """() => Object.keys(localStorage).filter(k => k.startsWith('yacht.game.'))
    .map(k => JSON.parse(localStorage.getItem(k)))"""


def test_two_tabs_on_one_game_the_later_change_wins_whole(make_context, server) -> None:
    context = make_context()
    first = context.new_page()
    open_page(first, server, START)
    control(first, "button", "Keep (the best)").click()  # the game h=56366, kept
    expect(first).to_have_url(re.compile(r"\?h=56366$"))
    second = context.new_page()
    open_page(second, server, "h=56366")  # the same game's link in another tab: the same record
    expect(second.get_by_test_id("kept-game")).to_have_count(1)
    first.keyboard.press("1")
    first.keyboard.press("1")  # tab 1: the roll 66611
    expect(first).to_have_url(re.compile(r"h=56366-666-66611$"))
    second.keyboard.press("2")
    second.keyboard.press("2")  # tab 2, later: the roll 66622
    expect(second).to_have_url(re.compile(r"h=56366-666-66622$"))
    records = first.evaluate(KEPT_RECORDS)
    assert [r["query"] for r in records] == ["h=56366-666-66622"]  # one record, the later, whole
    # The other tab's list follows (the storage event).
    expect(first.get_by_test_id("kept-game")).to_have_attribute("data-query", "h=56366-666-66622")
    # A language switch says the kept games in the new language too: their words and dates.
    game = first.get_by_test_id("kept-game")
    expect(game.locator(".game-open")).to_have_text(re.compile(r"^Turn 1, 0 points"))
    first.locator("[data-lang=ja]").click()
    expect(game.locator(".game-open")).to_have_text(re.compile(r"^1ターン目 0点"))
    expect(game.locator(".game-when")).to_have_text(re.compile(r"^\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{2}$"))
    expect(game.get_by_role("button", name="共有", exact=False)).to_be_visible()


def test_back_to_the_game_before_a_new_one_keeps_both_and_a_reviewed_position_is_no_game(make_context, server) -> None:
    context = make_context()
    page = context.new_page()
    open_page(page, server, START)
    control(page, "button", "Keep (the best)").click()  # game A: h=56366
    expect(page).to_have_url(re.compile(r"\?h=56366$"))
    page.locator("#new-game").click()
    page.locator("[data-start=alone]").click()  # a new game, in a new history entry
    for key in "12345":
        page.keyboard.press(key)
    expect(page.get_by_test_id("die")).to_have_count(5)
    other = url_query(page)
    page.go_back()  # game A again: changing it changes its own record, never the new game's
    expect(page).to_have_url(re.compile(r"\?h=56366$"))
    page.keyboard.press("1")
    page.keyboard.press("1")
    expect(page).to_have_url(re.compile(r"h=56366-666-66611$"))
    queries = sorted(r["query"] for r in page.evaluate(KEPT_RECORDS))
    assert queries == sorted(["h=56366-666-66611", other])
    # A decision opened from the review is a position to look at: the game's record stays.
    page.locator("#review-open").click()
    page.get_by_test_id("decision").first.get_by_role("button").click()
    expect(page.locator("#back-to-game")).to_be_visible()
    assert sorted(r["query"] for r in page.evaluate(KEPT_RECORDS)) == queries
    context.close()
