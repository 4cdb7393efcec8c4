"""One truth on the page: the review's summary and its yardstick are in the unit of its grades
(percentage points of the chance with a rival or a score to reach, points of expected final score
otherwise), as ``python -m yacht review`` sums them (yacht.play.review's total_grade, mean_grade,
strong_play); the chart's turn axis names all twelve turns; the kept games list names the rival's
half of a turn by that turn; the practice prompt is punctuated; the verdict's margin never leaves
its number alone on a line (320 px, Japanese)."""

import itertools
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from yacht.api import review_query

from .page_helpers import open_page

pytestmark = pytest.mark.browser

CHECK = (Path(__file__).parent / "layout_check.js").read_text()

# One game of twelve turns with some mistakes (a practice game's dice, replayed): against the
# rival's recorded turns, with a score to reach, and alone.
TURNS = (
    "h=31516--32361-123-32145k.44316-14-41326-1234-41324j.54125-55-55514-555-55546e.36616-666-66662-6666-66665f."
    "33264-334-33424-44-44133c.34335-333-33352-333-33314l.52553-555-55553h.52653-2556-52652-22-22145b."
    "33365-6-63344-44-44612g.26261-2266-26263--34533i.23412-4-44525-445-44536a.51352-5-55653-5556-55654d"
)
RIVAL = f"{TURNS}&oh=e20j15i22a4l50d16g23f12c12h22b4k0"
TARGET = f"t=200&{TURNS}"
HALF = f"{TURNS.split('l.')[0]}l&oh=e20j15i22a4l50"
"""My six turns and the rival's five: their half of turn 6 to come."""

UNITS = {"en": {"score": " pts", "chance": " pp"}, "ja": {"score": "点", "chance": "ポイント"}}
MINUS = "\u2212"


def language_page(make_context, language: str, viewport=(390, 844)) -> Page:
    width, height = viewport
    context = make_context(locale="ja-JP" if language == "ja" else "en-US", viewport={"width": width, "height": height})
    return context.new_page()


def open_review(page: Page, server, query: str) -> None:
    open_page(page, server, query)
    page.locator("#review-open").click()
    expect(page.get_by_test_id("review")).to_have_attribute("data-query", query)


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("record", [RIVAL, TARGET, TURNS], ids=["rival", "target", "plain"])
def test_the_review_summary_and_its_yardstick_are_in_the_unit_of_the_grades(
    make_context, server, tables, artifacts, language, record
) -> None:
    expected = review_query(record, tables)
    page = language_page(make_context, language)
    open_review(page, server, record)
    goal = expected["measure"] != "score"
    unit = UNITS[language]["chance" if goal else "score"]
    other = UNITS[language]["score" if goal else "chance"]
    summary = page.get_by_test_id("review-summary")
    expect(summary).to_have_attribute("data-measure", expected["measure"])
    assert float(summary.get_attribute("data-total-grade")) == pytest.approx(expected["total_grade"], abs=1e-9)
    assert float(summary.get_attribute("data-mean-grade")) == pytest.approx(expected["mean_grade"], abs=1e-9)
    # The figures as the grades sum them (not the expected score given up), in the grades' unit.
    total = f"{expected['total_grade']:.1f}" if goal else f"{expected['total_grade']:.2f}"
    dd = summary.locator("dd")
    expect(dd.nth(1)).to_have_text(f"{MINUS}{total}{unit}")
    expect(dd.nth(2)).to_have_text(f"{MINUS}{expected['mean_grade']:.2f}{unit}")
    assert expected["total_grade"] != pytest.approx(expected["total_loss"]) or not goal
    yardstick = page.get_by_test_id("loss-yardstick")
    strong = {
        "en": f"below {expected['strong_play']}{unit} is strong play",
        "ja": f"{expected['strong_play']}{unit}未満",
    }
    expect(yardstick).to_contain_text(strong[language])
    assert not re.search(rf"\d\.\d+{re.escape(other)}", yardstick.inner_text())  # no loss in the other unit
    # The split of the expected score (points whatever the grades) says its unit.
    expect(page.locator("#review-body .split")).to_contain_text(
        f"{MINUS}{expected['total_loss']:.2f}{UNITS[language]['score']}"
    )
    if record == RIVAL:
        summary.screenshot(path=artifacts / f"review-summary-rival-{language}-390x844.png")


def test_the_review_summary_of_a_rival_game_at_320_in_japanese(make_context, server, tables, artifacts) -> None:
    page = language_page(make_context, "ja", (320, 640))
    open_review(page, server, RIVAL)
    summary = page.get_by_test_id("review-summary")
    expect(summary.locator("dd").nth(2)).to_contain_text("ポイント")
    page.evaluate(CHECK)
    faults = [f for f in page.evaluate("window.yachtLayoutFaults()") if "review" in f or "figures" in f]
    assert faults == []
    summary.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "review-summary-rival-ja-320x640.png")


def test_the_review_chart_names_all_twelve_turns(make_context, server) -> None:
    page = language_page(make_context, "en", (320, 640))
    open_review(page, server, TURNS)
    ticks = page.get_by_test_id("chart").locator("text.turn-tick")
    expect(ticks).to_have_count(12)
    assert ticks.all_text_contents() == [str(n) for n in range(1, 13)]
    # Drawn apart, left to right, inside the chart.
    boxes = [ticks.nth(i).bounding_box() for i in range(12)]
    chart = page.get_by_test_id("chart").locator("svg").bounding_box()
    assert all(a["x"] + a["width"] <= b["x"] for a, b in itertools.pairwise(boxes)), boxes
    assert boxes[-1]["x"] + boxes[-1]["width"] <= chart["x"] + chart["width"]


@pytest.mark.parametrize(("language", "words"), [("en", "Turn 6, "), ("ja", "6ターン目")])
def test_during_the_rivals_half_of_turn_6_the_kept_game_says_turn_6(make_context, server, language, words) -> None:
    page = language_page(make_context, language)
    open_page(page, server, HALF)
    expect(page.locator("#summary")).to_contain_text("相手" if language == "ja" else "opponent")
    kept = page.locator(f"[data-testid=kept-game][data-query='{HALF}']")
    expect(kept.locator(".game-open")).to_contain_text(words)


@pytest.mark.parametrize(
    ("language", "prompt"),
    [("en", "Practice · turn 1, roll 1: Roll the dice."), ("ja", "練習・1ターン目 1投目：サイコロを振ってください。")],
)
def test_the_practice_prompt_says_where_then_what_to_do(make_context, server, language, prompt) -> None:
    page = language_page(make_context, language)
    open_page(page, server)
    page.locator("#practice-open").click()
    page.locator("#practice-start").click()
    expect(page.locator("#summary")).to_have_text(prompt)


# Roll-1 positions whose next best option is a keep, its words long in Japanese.
MARGINS = ["d=11234&r=1", "d=12456&r=1", "d=13356&r=1", "d=22456&r=1", "d=12346&r=1", "d=11256&r=1", "d=23356&r=1"]


def test_the_verdicts_margin_keeps_its_number_with_its_words_at_320_in_japanese(
    make_context, server, artifacts
) -> None:
    page = language_page(make_context, "ja", (320, 640))
    wrapped = 0
    for query in MARGINS:
        open_page(page, server, query)
        options = page.locator("#options")
        expect(options).to_have_attribute("data-query", re.compile(re.escape(query)))
        expect(options).not_to_have_attribute("aria-busy", "true")
        margin = page.locator(".verdict-margin")
        expect(margin).to_contain_text("次善")
        lines = margin.evaluate(
            "e => Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight))"
        )
        wrapped += lines > 1
        page.evaluate(CHECK)
        faults = [f for f in page.evaluate("window.yachtLayoutFaults()") if "verdict-margin" in f]
        assert faults == [], (query, faults)
        if lines > 1:
            page.get_by_test_id("verdict").screenshot(path=artifacts / f"verdict-margin-{query[2:7]}-ja-320x640.png")
    assert wrapped > 0  # the margin took two lines somewhere: the case was met
