"""Practice (web/page/actions/practice.js, views/practice.js): a whole game played by tapping, as a player
plays it: Roll, tap the dice to keep, Roll, score a category from the sheet. The advice stays
hidden; each choice's grade (shown after each choice, or only at the end) is the one
``python -m yacht review`` gives the same record; the summary counts the decisions by loss; the
seed's link gives a friend the same dice; the games list keeps each practice game's mean loss and
draws the last ones as a chart.
"""

import json
import re
from collections import Counter
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import Page, expect
from strategies import advisor_practice
from yacht.api import review_query
from yacht.core.categories import NAMES_EN
from yacht.core.dice import roll_index
from yacht.core.rules import VARIANTS, score_table
from yacht.play.game import parse_game
from yacht.play.practice_dice import ME, practice_roll

from .conftest import ARTIFACTS, warm_context
from .page_helpers import open_page, url_query
from .test_accessibility import violations
from .test_phone import no_clashes

pytestmark = pytest.mark.browser

TOLERANCE = 1e-6


@pytest.fixture(scope="module")
def context(browser, server, runtime, warm_snapshot):
    """One phone-sized context for the module: its device storage carries the games across tests."""
    context = warm_context(browser, server, runtime, viewport={"width": 390, "height": 844})
    yield context
    context.close()


@pytest.fixture(scope="module")
def phone(context) -> Page:
    return context.new_page()


def dice_shown(page: Page) -> list[int]:
    return page.get_by_test_id("die").evaluate_all("d => d.map(e => Number(e.querySelector('.die').dataset.face))")


def decisions_in(query: str) -> int:
    """The decisions a record holds (keeps and categories), as the page counts them."""
    game = parse_game(query)
    return sum(len(turn.keeps) + (turn.category is not None) for turn in game.turns)


def start_practice(page: Page, *, opponent: bool, feedback: str) -> None:
    page.locator("#practice-open").click()
    page.locator("#practice-opponent").set_checked(opponent)
    page.locator(f"input[name=feedback][value={feedback}]").check()
    page.locator("#practice-start").click()
    expect(page.locator("#verdict-apply")).to_have_text("Roll")
    expect(page.locator("#verdict-apply")).to_be_focused()


class Taps:
    """Counts the taps a test makes, per turn."""

    def __init__(self) -> None:
        self.turns: list[int] = []

    def tap(self, locator) -> None:
        locator.click()
        self.turns[-1] += 1


def keep_choice(dice: list[int]) -> list[int]:
    """The positions of the dice a simple player keeps: the most common face (the higher on a tie)."""
    face = max(set(dice), key=lambda f: (dice.count(f), f))
    return [i for i, d in enumerate(dice) if d == face]


def score_choice(dice: list[int], free: list[int]) -> int:
    """The free category a simple player scores: the most points now, the first on a tie."""
    row = score_table(VARIANTS["official"])[roll_index(tuple(sorted(dice)))]
    return max(free, key=lambda c: (row[c], -c))


def play_game(page: Page, *, feedback: str, opponent: bool, taps: Taps) -> tuple[str, dict[int, float]]:
    """Play the practice game shown to its end by tapping; returns the record and, with the grading
    after each choice, the loss shown after each decision (by decision number)."""
    apply = page.locator("#verdict-apply")
    shown: dict[int, float] = {}
    seed = parse_qs(url_query(page))["p"][0]
    for turn in range(1, 13):
        taps.turns.append(0)
        taps.tap(apply)  # Roll
        expect(page.get_by_test_id("die")).to_have_count(5)
        record = url_query(page)
        dice = dice_shown(page)
        assert sorted(dice) == sorted(practice_roll(int(seed, 36), ME, turn, 1)), "the seed's dice"
        for _roll in (1, 2):
            keep = keep_choice(dice)
            if len(keep) == 5:
                break
            held = page.get_by_test_id("die").evaluate_all("d => d.map(e => e.ariaPressed === 'true')")
            for i, was in enumerate(held):  # the dice kept before stay marked: tap only what changes
                if was != (i in keep):
                    taps.tap(page.get_by_test_id("die").nth(i))
            expect(page.locator("[data-testid=die][aria-pressed=true]")).to_have_count(len(keep))
            thrown = 5 - len(keep)
            expect(apply).to_have_text("Roll" if not keep else "Roll 1 die" if thrown == 1 else f"Roll {thrown} dice")
            taps.tap(apply)
            expect(page).not_to_have_url(re.compile(re.escape(record) + "$"))
            record = url_query(page)
            check_feedback(page, feedback, record, shown)
            dice = dice_shown(page)
        values = page.get_by_test_id("cell").evaluate_all("d => d.map(e => e.dataset.value)")
        free = [c for c in range(12) if values[c] == ""]
        c = score_choice(dice, free)
        taps.tap(page.locator(f"[data-testid=cell][data-category='{c}'] .open"))
        taps.tap(page.get_by_role("button", name=re.compile(rf"^Score \d+ in {re.escape(NAMES_EN[c])}$")))
        expect(page.locator(f"[data-testid=cell][data-category='{c}']")).not_to_have_attribute("data-value", "")
        if opponent:
            expect(page.locator("[data-testid=opponent-cell]:not([data-value=''])")).to_have_count(turn)
        record = url_query(page)
        check_feedback(page, feedback, record, shown)
    expect(apply).to_have_text("Summary")
    return url_query(page), shown


def check_feedback(page: Page, feedback: str, record: str, shown: dict[int, float]) -> None:
    """After a choice: its grade (after each choice), or the note that it comes at the end."""
    box = page.get_by_test_id("practice-feedback")
    if feedback == "end":
        expect(box).to_have_attribute("data-state", "hidden")
        expect(page.get_by_test_id("verdict")).to_have_count(0)
        return
    n = decisions_in(record)
    expect(box).to_have_attribute("data-count", str(n))
    expect(box).to_have_attribute("data-state", "graded")
    shown[n] = float(box.get_attribute("data-loss"))


def open_summary(page: Page, record: str) -> dict:
    page.locator("#verdict-apply").click()
    expect(page.get_by_test_id("review")).to_have_attribute("data-query", record)
    summary = page.get_by_test_id("review-summary")
    expect(summary).to_be_visible()
    return {
        "mean_loss": float(summary.get_attribute("data-mean-loss")),
        "counts": json.loads(page.get_by_test_id("loss-counts").get_attribute("data-counts")),
        "final": int(summary.get_attribute("data-final")),
    }


def test_a_practice_game_graded_after_each_choice_matches_the_review(phone, server, tables) -> None:
    page = phone
    open_page(page, server)
    start_practice(page, opponent=False, feedback="each")
    expect(page.get_by_test_id("option")).to_have_count(0)  # the advice stays hidden
    taps = Taps()
    record, shown = play_game(page, feedback="each", opponent=False, taps=taps)
    review = review_query(record, tables)
    assert len(shown) == len(review["decisions"]) == decisions_in(record)
    for n, loss in shown.items():
        assert abs(loss - review["decisions"][n - 1]["loss"]) < TOLERANCE, f"decision {n}"
    summary = open_summary(page, record)
    assert abs(summary["mean_loss"] - review["mean_loss"]) < TOLERANCE
    assert summary["counts"] == review["counts"]
    assert sum(summary["counts"].values()) == len(review["decisions"])
    assert summary["final"] == review["final"]
    page.screenshot(path=str(ARTIFACTS / "practice-summary-en-390x844.png"))
    print(f"taps per turn: {Counter(taps.turns)}")

    # The seed's link gives a friend the same dice.
    link = page.get_by_test_id("practice-link")
    href = link.get_attribute("href")
    assert parse_qs(href.split("?", 1)[1])["p"] == parse_qs(record)["p"]
    friend = page.context.new_page()
    friend.goto(server.url(href.lstrip("/")))
    expect(friend.locator("html")).to_have_attribute("data-state", "ready")
    friend.locator("#verdict-apply").click()
    expect(friend.get_by_test_id("die")).to_have_count(5)
    first = parse_game(record).turns[0].rolls[0]
    assert sorted(dice_shown(friend)) == sorted(first)
    friend.close()


def test_a_practice_game_graded_at_the_end_against_the_opponent(phone, server, tables) -> None:
    page = phone
    open_page(page, server)
    page.locator("[data-lang=ja]").click()
    start_practice_ja = page.locator("#practice-open")
    expect(start_practice_ja).to_have_text("練習")
    page.locator("[data-lang=en]").click()
    start_practice(page, opponent=True, feedback="end")
    taps = Taps()
    record, _ = play_game(page, feedback="end", opponent=True, taps=taps)
    assert "oh=" in record
    review = review_query(record, tables)  # raises if the opponent's turns are not the simulated player's
    summary = open_summary(page, record)
    assert summary["counts"] == review["counts"]
    assert abs(summary["mean_loss"] - review["mean_loss"]) < TOLERANCE
    items = page.get_by_test_id("decision")
    expect(items).to_have_count(len(review["decisions"]))
    chances = items.evaluate_all("d => d.map(e => Number(e.dataset.chance))")
    assert all(0 <= x <= 1 for x in chances), "graded by the chance of winning too"


def test_the_games_list_keeps_the_mean_loss_and_draws_the_progress(phone, server, tables) -> None:
    page = phone
    # A third practice game: a finished record played by the advisor (a second-best choice every
    # fifth decision), opened by its link and reviewed.
    record = finished_record(tables)
    open_page(page, server, record, load=True)
    open_summary(page, record)
    progress = page.get_by_test_id("practice-progress")
    expect(progress).to_be_visible()
    values = [float(v) for v in progress.get_attribute("data-values").split(",")]
    assert len(values) == 3
    assert abs(values[-1] - review_query(record, tables)["mean_loss"]) < TOLERANCE
    kept = page.locator("[data-testid=kept-game][data-mean-loss]")
    expect(kept).to_have_count(3)
    expect(kept.first).to_contain_text("Practice (mean loss")
    page.locator("section.games").screenshot(path=str(ARTIFACTS / "practice-progress-en-390x844.png"))


def finished_record(tables) -> str:
    """A whole practice game played by the advisor, the second-best option every fifth decision."""
    return advisor_practice(tables["official"].tilde, VARIANTS["official"], 12345, opponent=False).query


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_practice_turn_on_one_phone_screen_without_axe_violations(make_context, server, language) -> None:
    context = make_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    open_page(page, server)
    page.locator(f"[data-lang={language}]").click()
    page.locator("#practice-open").click()
    page.locator("#practice-start").click()
    page.locator("#verdict-apply").click()
    expect(page.get_by_test_id("die")).to_have_count(5)
    page.get_by_test_id("die").nth(0).click()
    page.locator("#verdict-apply").click()
    expect(page.get_by_test_id("practice-feedback")).to_have_attribute("data-state", "graded")
    page.screenshot(path=str(ARTIFACTS / f"practice-turn-{language}-390x844.png"))
    for selector in ("#verdict-apply", "[data-testid=cell][data-category='11']", "[data-testid=practice-feedback]"):
        box = page.locator(selector).bounding_box()
        assert box and box["y"] + box["height"] <= 844, f"{selector} below the screen"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert violations(page) == []  # axe-core: the held dice, the grade, the Roll button
    page.set_viewport_size({"width": 320, "height": 640})
    assert no_clashes(page) == []
    page.screenshot(path=str(ARTIFACTS / f"practice-turn-{language}-320x640.png"))
    page.locator("#practice-open").click()
    assert violations(page) == []  # the setup panel
    context.close()


def test_the_keys_keep_dice_and_roll_in_a_practice_game(make_context, server) -> None:
    context = make_context()
    page = context.new_page()
    open_page(page, server)
    page.locator("#practice-open").click()
    page.locator("#practice-start").click()
    page.locator("body").press("r")
    expect(page.get_by_test_id("die")).to_have_count(5)
    first = url_query(page)
    page.locator("body").press("1")
    page.locator("body").press("3")
    expect(page.locator("[data-testid=die][aria-pressed=true]")).to_have_count(2)
    page.locator("body").press("3")  # released again
    expect(page.locator("[data-testid=die][aria-pressed=true]")).to_have_count(1)
    kept = dice_shown(page)[0]
    die = page.get_by_test_id("die").nth(2)  # a die reached by Tab and toggled keeps the focus
    die.focus()
    page.keyboard.press("Space")
    expect(die).to_have_attribute("aria-pressed", "true")
    expect(die).to_be_focused()
    page.keyboard.press("Space")
    expect(die).to_have_attribute("aria-pressed", "false")
    page.locator("body").press("r")
    expect(page).to_have_url(re.compile(rf"h={first.split('h=')[1]}-{kept}-{kept}\d{{4}}$"))
    expect(page.get_by_test_id("option")).to_have_count(0)
    context.close()


def test_holding_all_five_stops_the_turn_and_the_yacht_is_scored(make_context, server) -> None:
    """The seed of the report: four 1s kept, one die rolled, a fifth 1. Holding it too is a
    choice: the main button offers to stop and score (never a roll that throws the Yacht away),
    takes the player to the sheet, and Yacht scored at roll 2 is graded the best choice."""
    context = make_context()
    page = context.new_page()
    open_page(page, server, "p=1gszqy&h=&oh=")
    apply = page.locator("#verdict-apply")
    apply.click()  # Roll
    expect(page.get_by_test_id("die")).to_have_count(5)
    dice = dice_shown(page)
    assert sorted(dice).count(1) == 4, dice
    for i in (i for i, d in enumerate(dice) if d == 1):
        page.get_by_test_id("die").nth(i).click()
    expect(apply).to_have_text("Roll 1 die")
    apply.click()
    expect(page.locator("[data-testid=die][aria-pressed=true]")).to_have_count(4)
    assert dice_shown(page) == [1, 1, 1, 1, 1]
    page.locator("[data-testid=die][aria-pressed=false]").click()  # the fifth held too
    expect(page.locator("[data-testid=die][aria-pressed=true]")).to_have_count(5)
    expect(apply).to_have_text("Stop and score")
    apply.click()
    expect(page.locator("[data-testid=cell][data-value=''] button").first).to_be_focused()
    page.locator("[data-testid=cell][data-category='11'] .open").click()
    page.get_by_role("button", name=re.compile(r"^Score 50 in Yacht$")).click()
    feedback = page.get_by_test_id("practice-feedback")
    expect(feedback).to_have_attribute("data-best", "true")
    expect(page).to_have_url(re.compile(r"-11111l"))  # roll 2's dice, scored as Yacht
    context.close()


def test_new_game_practice_opens_the_practice_set_up(make_context, server) -> None:
    context = make_context()
    page = context.new_page()
    open_page(page, server)
    page.locator("#new-game").click()
    page.locator("[data-start=practice]").click()
    expect(page.locator("#practice-setup")).to_be_visible()
    expect(page.locator("#practice-start")).to_be_focused()
    page.locator("#practice-opponent").set_checked(True)
    page.locator("#practice-start").click()
    expect(page).to_have_url(re.compile(r"p=\w+.*&oh="))
    context.close()
