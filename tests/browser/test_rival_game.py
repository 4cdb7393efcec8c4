"""Whole games against a rival, played by tapping as a player at the table does: New game (I
start, or they start), each roll's dice tapped on the keypad, the verdict's button followed at
every decision, the rival's turns tapped into their column. At the end the verdict's place says
who won, in words, with the totals of yacht.play.review's result; the review marks every decision
best, graded as ``python -m yacht review --json`` grades the same record."""

import re

import numpy as np
import pytest
from playwright.sync_api import Page, expect
from yacht.api import review_query

from .page_helpers import open_page, opponent_cell, url_query

WORDS = {
    "en": {"win": "You won {mine}–{theirs}", "loss": "Rival won {theirs}–{mine}", "draw": "Draw {mine}–{theirs}"},
    "ja": {
        "win": "あなたの勝ち {mine}対{theirs}",
        "loss": "相手の勝ち {theirs}対{mine}",
        "draw": "引き分け {mine}対{theirs}",
    },
}

SHOWN = "() => document.querySelector('#options').dataset.query === location.search.slice(1)"
"""The advice shown is that of the game as it stands (the URL's)."""


def tap_dice(page: Page, rng: np.random.Generator, n: int) -> None:
    for face in rng.integers(1, 7, n):
        page.locator(f"#keypad button[data-face='{face}']").click()


def rival_turn(page: Page, rng: np.random.Generator) -> None:
    """Their turn: tap one of their free cells, then one of the scores it offers."""
    free = page.locator("[data-testid=opponent-cell][data-value='']")
    c = int(free.nth(int(rng.integers(free.count()))).get_attribute("data-category"))
    opponent_cell(page, c).click()
    values = page.locator("#picker-values button:not([data-value=''])")
    expect(values.first).to_be_visible()
    values.nth(int(rng.integers(values.count()))).click()
    expect(page.locator("#picker")).to_be_hidden()
    expect(opponent_cell(page, c)).not_to_have_attribute("data-value", "")


def my_turn(page: Page, rng: np.random.Generator, shot=None) -> None:
    """Tap the dice of each roll and follow the verdict until a category is scored; ``shot``: a
    path for a screenshot of the first roll's advice."""
    missing = 5
    while True:
        tap_dice(page, rng, missing)
        page.wait_for_function(SHOWN)
        if shot is not None:
            page.screenshot(path=shot)
            shot = None
        verdict = page.get_by_test_id("verdict")
        category = verdict.get_attribute("data-category")
        keep = verdict.get_attribute("data-keep")
        page.locator("#verdict-apply").click()
        if category is not None:
            return
        missing = 5 - len(keep)


@pytest.mark.parametrize(
    ("language", "seat", "seed"),
    [("en", "first", 7), pytest.param("ja", "second", 8, marks=pytest.mark.slow)],  # the second: make test-slow
)
def test_a_whole_game_against_a_rival_played_by_tapping_ends_with_its_result(
    make_context, server, tables, artifacts, language, seat, seed
) -> None:
    context = make_context(locale="ja-JP" if language == "ja" else "en-US")
    page = context.new_page()
    open_page(page, server)
    rng = np.random.default_rng(seed)
    page.locator("#new-game").click()
    page.locator(f"[data-start={seat}]").click()
    if seat == "second":
        rival_turn(page, rng)  # they start
    for turn in range(12):
        # The README's picture (docs/screenshot-rival.png is a copy): mid-game, both columns.
        my_turn(page, rng, artifacts / f"rival-game-turn-7-{seat}-{language}-390x844.png" if turn == 6 else None)
        if page.locator("[data-testid=opponent-cell][data-value='']").count():
            if turn == 11:  # my sheet full, their last turn to come: the chance as it goes
                expect(page.locator("#summary")).to_contain_text("%")
            rival_turn(page, rng)
        if turn < 11:
            expect(page.locator("#summary")).to_contain_text("%")  # the chance, between turns too

    record = url_query(page)
    expected = review_query(record, tables)
    result = expected["result"]
    assert result is not None and result["outcome"] in WORDS[language]
    box = page.get_by_test_id("result")
    expect(box.locator(".verdict-words")).to_have_text(WORDS[language][result["outcome"]].format(**result))
    expect(box).to_have_attribute("data-outcome", result["outcome"])
    expect(box).to_have_attribute("data-mine", str(result["mine"]))
    expect(box).to_have_attribute("data-theirs", str(result["theirs"]))
    page.screenshot(path=artifacts / f"rival-game-over-{seat}-{language}-390x844.png")

    # The review: every decision followed the advice, so every one is best, as the CLI grades it.
    # (Half a second after the last score: a second tap on the verdict's button sooner is taken
    # for a double tap, and dropped.)
    page.wait_for_timeout(600)
    page.locator("#verdict-apply").click()
    expect(page.get_by_test_id("review")).to_have_attribute("data-query", record)
    decisions = page.get_by_test_id("decision")
    expect(decisions).to_have_count(len(expected["decisions"]))
    shown = decisions.evaluate_all("items => items.map(e => [e.dataset.best, e.dataset.loss, e.dataset.measure])")
    assert all(d["grade"] == {"measure": "win", "loss": 0.0, "best": True} for d in expected["decisions"])
    assert shown == [["true", "0", "win"]] * len(expected["decisions"])
    graded = page.get_by_test_id("review-decision").evaluate_all("b => b.map(e => [e.dataset.best, e.dataset.loss])")
    assert len(graded) >= len(shown) and set(map(tuple, graded)) == {("true", "0")}
    expect(page.get_by_test_id("review-summary").locator(".final")).to_have_attribute("data-outcome", result["outcome"])
    page.get_by_test_id("review-summary").screenshot(path=artifacts / f"rival-review-{seat}-{language}.png")


def test_a_mistyped_rival_score_is_corrected_by_tapping_their_cell(page: Page, server) -> None:
    """Their last score stays tappable until my next roll: tapping it offers their scores again and
    the one chosen replaces it in the record (oh=); once I roll, it is part of the game."""
    game = "s=3,6,9,12,15,18,22,,,15,30,&r=3&o=4,8,12,16,,24,25,,,15,30,0&h=22556l&oh=e20"
    open_page(page, server, game)
    expect(page.locator("#options")).to_have_attribute("data-query", game)
    fives = opponent_cell(page, 4)
    expect(fives).to_be_enabled()
    expect(opponent_cell(page, 0)).to_be_disabled()  # their sheet at the start: not theirs to correct
    fives.click()
    page.locator("#picker-values button[data-value='25']").click()
    expect(page).to_have_url(re.compile(r"&oh=e25$"))
    expect(fives).to_have_attribute("data-value", "25")
    tap_dice(page, np.random.default_rng(1), 5)
    expect(fives).to_be_disabled()  # my turn has its roll: their score is the game's now
