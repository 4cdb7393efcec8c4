"""What the page says in words about a goal's chance. An estimate's verdict says so beside the
number ("≈ 59.4 % — estimate, no network", 「(推定値・オフライン)」), where an ordinary
approximation keeps its "≈" alone; the chart of the final score says whose play it draws and,
where that is not the play the options are ranked by, why (the core's "goal_chart"), and states
no chance of its own beside the verdict's; a rival's sheet being entered that does not fit my
turn is said to be left out, in the verdict, and the card says what to enter.

Screenshots at 390 × 844 (English) and 320 × 640 (Japanese): ``artifacts/goal-words-*.png``."""

import re

import pytest
from playwright.sync_api import Page, expect
from yacht.api import advise_query, distribution_query

from .page_helpers import control, open_page, set_opponent_cell, visit, wait_for_advice
from .test_accessibility import violations
from .test_layout import faults

pytestmark = pytest.mark.browser

RIVAL = "s=3,,9,,,18,,,,,30,&d=14466&r=2&o=,4,,12,,,22,,,,30,"
"""Eight free categories each: the chance reads the law's and the reach's chunks."""
GAME_START = "h=&oh="
"""A game against a rival at its start: twelve free categories each."""
MID_GAME = "s=3,,9,,,18,22,,,,30,&d=22556&r=2"
"""Five categories of mine filled."""

SIZES = {"en": ({"width": 390, "height": 844}, "en-US"), "ja": ({"width": 320, "height": 640}, "ja-JP")}
WORDS = {
    "en": {"estimate": "— estimate, no network", "chance": "Win chance ≈ {} %", "draw": " (draw {} %)"},
    "ja": {"estimate": "(推定値・オフライン)", "chance": "勝率 ≈ {} %", "draw": " (引き分け {} %)"},
}


def chance_words(language: str, win: float, draw: float) -> str:
    """The verdict's chance as the page words it (views/goal.js's chanceText), marked ≈."""
    words = WORDS[language]
    shown = words["chance"].format(f"{100 * (win + draw / 2):.1f}")
    return shown + (words["draw"].format(f"{100 * draw:.1f}") if draw >= 0.0005 else "")


def language_page(make_context, language: str) -> tuple:
    """A page of a context of the test's own in ``language`` at its size (SIZES)."""
    viewport, locale = SIZES[language]
    context = make_context(viewport=viewport, locale=locale)
    return context, context.new_page()


def inside_the_verdicts_room(page: Page, locator) -> bool:
    """``locator`` is drawn whole inside the verdict's room (not cut off by its fixed height)."""
    room = page.locator(".verdict-area").bounding_box()
    box = locator.bounding_box()
    return room["y"] <= box["y"] and box["y"] + box["height"] <= room["y"] + room["height"] + 0.5


@pytest.mark.parametrize("language", ["en", "ja"])
def test_an_estimates_verdict_says_estimate_beside_its_chance_and_an_approximation_keeps_its_sign(
    make_context, server, tables, artifacts, language
) -> None:
    context, page = language_page(make_context, language)
    words = WORDS[language]
    open_page(page, server, "s=,,,,,,,,,,,&d=14466&r=1")
    page.workers[0].evaluate("globalThis.goalFilesFetched")  # the spread tables, after the first advice
    context.set_offline(True)  # the chunks cannot be fetched: the chance is the spread table's estimate
    visit(page, server, RIVAL)
    wait_for_advice(page, RIVAL)
    verdict = page.get_by_test_id("verdict")
    expect(verdict).to_have_attribute("data-estimate", "law reach")
    word = verdict.get_by_test_id("verdict-estimate")
    expect(word).to_have_text(words["estimate"])
    shown = chance_words(language, float(verdict.get_attribute("data-win")), float(verdict.get_attribute("data-draw")))
    expect(verdict.locator(".verdict-chance")).to_have_text(f"{shown} {words['estimate']}")
    assert inside_the_verdicts_room(page, word)
    page.screenshot(path=artifacts / f"goal-words-estimate-{language}.png")
    assert violations(page) == []
    assert faults(page) == []  # nothing clipped or elided with a number: the margin keeps its two lines

    context.set_offline(False)  # the page's "online": the chunks come, the chance is no estimate
    expect(page.locator("[data-testid=verdict]:not([data-estimate])")).to_have_count(1)
    expect(verdict.get_by_test_id("verdict-estimate")).to_have_count(0)
    expected = advise_query(RIVAL, tables)
    assert expected["exact"] is False  # beyond the exact range: approximate, marked ≈ alone
    win, draw = (float(verdict.get_attribute(f"data-{name}")) for name in ("win", "draw"))
    assert win + draw / 2 == pytest.approx(expected["win"] + expected["draw"] / 2, abs=1e-9)
    expect(verdict.locator(".verdict-chance")).to_have_text(chance_words(language, win, draw))


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_rival_games_chart_says_it_is_the_best_averages_and_why(make_context, server, tables, artifacts, language):
    """At a game's start the options are ranked by the chance of winning, but the chart is of the
    best average's play (the core's: twelve free categories, beyond the goal's chart): its heading
    says so, a line under it why, and it states no chance beside the verdict's."""
    _, page = language_page(make_context, language)
    open_page(page, server, GAME_START)
    wait_for_advice(page, GAME_START)
    histogram = page.get_by_test_id("histogram")
    start = "s=,,,,,,,,,,,&r=0&o=,,,,,,,,,,,"
    expect(histogram).to_have_attribute("data-query", start)
    chart = distribution_query(start, tables)["distribution"]
    assert chart["play"] == "average" and chart["goal_chart"]["reason"] == "free"
    expect(histogram).to_have_attribute("data-play", "average")
    expect(histogram).to_have_attribute("data-goal-chart", "free")
    heading, why = {
        "en": (
            "Final score if you play for the best average",
            "The options are ranked by the chance of winning; the chart of that play is drawn once you "
            "have at most 4 free categories and the rival at most 4.",
        ),
        "ja": (
            "平均最大で打った場合の最終得点",
            "手は勝率の順です。勝ちにいく手の分布は、空き枠があなた4以下・相手4以下になると表示します。",
        ),
    }[language]
    expect(histogram.locator("h3")).to_have_text(heading)
    expect(histogram.get_by_test_id("histogram-why")).to_have_text(why)
    facts = {
        "en": r"^mean [0-9.]+ · upper bonus [0-9.]+ % · simulated: ",
        "ja": r"^平均 [0-9.]+ · ボーナス [0-9.]+ % · シミュレーション ",
    }
    expect(histogram.locator(".histogram-facts")).to_have_text(re.compile(facts[language]))  # no chance of winning
    histogram.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / f"goal-words-rival-chart-{language}.png")
    assert violations(page) == []
    control(page, "radio", {"en": "Average", "ja": "平均"}[language]).check()
    expect(histogram.get_by_test_id("histogram-why")).to_have_count(0)  # ranked by the average: its own chart


def test_a_target_beyond_the_goals_chart_says_why_and_the_chance_is_the_verdicts_alone(
    page: Page, server, tables
) -> None:
    query = "s=3,,9,,,18,22,,,,30,&d=22556&r=2&t=150"  # seven free categories
    open_page(page, server, query)
    wait_for_advice(page, query)
    histogram = page.get_by_test_id("histogram")
    expect(histogram).to_have_attribute("data-query", query)
    assert distribution_query(query, tables)["distribution"]["goal_chart"] == {"reason": "free", "free": 6}
    expect(histogram.get_by_test_id("histogram-why")).to_have_text(
        "The options are ranked by the chance of reaching 150; the chart of that play is drawn from 6 free "
        "categories on."
    )
    expect(histogram.locator(".histogram-facts")).not_to_contain_text("reaching")
    expect(page.locator("text=/reaching 150/")).to_have_count(2)  # the verdict's chance and the why line


def test_a_rival_sheet_that_does_not_fit_my_turn_is_left_out_and_the_verdict_says_why(
    page: Page, server, artifacts
) -> None:
    open_page(page, server, MID_GAME)
    wait_for_advice(page, MID_GAME)
    control(page, "radio", "Opponent").check()
    left_out = page.get_by_test_id("verdict").get_by_test_id("rival-left-out")
    expect(left_out).to_have_text("Rival left out: their 0 scores do not fit your turn (5 or 6)")
    expect(left_out).to_have_attribute("data-fit", "5 6")
    assert inside_the_verdicts_room(page, left_out)
    assert violations(page) == []
    assert faults(page) == []
    page.evaluate("scrollTo(0, 0)")  # the verdict, with their column beside mine
    page.screenshot(path=artifacts / "goal-words-rival-left-out-en.png")
    expect(page.locator("#opponent-sums")).to_have_text(
        "Now enter the rival's scores: at your turn they have 5 (you play first) or 6 (they do); 0 so far. "
        "Until then the advice leaves them out."
    )
    for c, value in ((0, 5), (2, 12), (5, 24), (9, 15)):
        set_opponent_cell(page, c, value)
    expect(left_out).to_have_text("Rival left out: their 4 scores do not fit your turn (5 or 6)")
    set_opponent_cell(page, 10, 30)
    against = f"{MID_GAME}&o=5,,12,,,24,,,,15,30,"
    wait_for_advice(page, against)
    expect(page.get_by_test_id("rival-left-out")).to_have_count(0)
    expect(page.locator("#opponent-sums")).to_be_hidden()
    expect(page.get_by_test_id("verdict").locator(".verdict-chance")).to_have_text(re.compile(r"^Win chance "))
    # Too many of theirs: enter mine, or clear theirs; without dice (no verdict) the line under it says it.
    control(page, "button", "Clear dice").click()
    set_opponent_cell(page, 1, 4)
    set_opponent_cell(page, 3, 8)
    expect(page.locator("#summary")).to_contain_text("Rival left out: their 7 scores do not fit your turn (5 or 6)")
    expect(page.locator("#opponent-sums")).to_contain_text("enter yours (5 so far) or clear some of theirs")
