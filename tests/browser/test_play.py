"""Playing along on the page, its review against the CLI's, and game links (working offline:
``test_offline.py``).

As in test_page.py, each test waits on what the page shows (the query its advice belongs to,
``data-state``, a message), never on the clock, and finds controls by role and name.
"""

import json
import re
import subprocess
import sys

import pytest
from playwright.sync_api import Page, expect
from yacht.core.categories import N_CATEGORIES, NAMES_EN
from yacht.core.dice import roll_index
from yacht.core.rules import VARIANTS, score_table
from yacht.play.game import CATEGORY_LETTERS, parse_game, replay

from .page_helpers import (
    assert_same_advice,
    cell,
    control,
    expect_cell,
    open_page,
    score_on_sheet,
    url_query,
    wait_for_advice,
)

pytestmark = pytest.mark.browser

MINUS = "\u2212"
LOSS_TOLERANCE = 1e-9
"""The page's losses and the CLI's: the same computation in Pyodide and in CPython."""

# A game of twelve turns, as typed on the page. Each step is (the new dice, what to do with
# them): ("keep", dice kept) or ("score", category, "option" | "sheet"). The kept dice stay
# in the entry, so a step only types the dice rolled again. Some choices are poor on purpose
# (keep a single 1 from 1 1 2 3 4, Four Dice 0 at roll 1); several turns stop early.
SCRIPT = [
    [("14466", ("keep", "66")), ("235", ("keep", "66")), ("661", ("score", 5, "option"))],  # Sixes 24
    [("12345", ("score", 10, "sheet"))],  # B.Straight 30 at roll 1
    [("11234", ("keep", "1")), ("1256", ("keep", "11")), ("116", ("score", 0, "option"))],  # Aces 4
    [("22333", ("keep", "333")), ("45", ("keep", "333")), ("33", ("score", 11, "option"))],  # Yacht 50
    [("44456", ("score", 7, "sheet"))],  # Four Dice 0 at roll 1
    [("55512", ("keep", "555")), ("55", ("score", 4, "sheet"))],  # Fives 25 at roll 2
    [("23456", ("score", 9, "sheet"))],  # S.Straight 15 at roll 1
    [("22255", ("score", 8, "sheet"))],  # Full House 16 at roll 1
    [("12346", ("keep", "")), ("22236", ("keep", "222")), ("22", ("score", 1, "option"))],  # Deuces 10
    [("13366", ("keep", "33")), ("335", ("keep", "3333")), ("3", ("score", 2, "option"))],  # Treys 15
    [("44466", ("keep", "444")), ("44", ("score", 3, "sheet"))],  # Fours 20 at roll 2
    [("65432", ("keep", "")), ("66654", ("keep", "666")), ("66", ("score", 6, "option"))],  # Choice 30
]
FINAL_SCORE = 98 + 35 + 141  # the upper section with its bonus, then the lower


def kept_in_order(dice: str, keep: str) -> str:
    """The kept dice in the order they were shown (as the page puts them first)."""
    left = list(keep)
    out = []
    for d in dice:
        if d in left:
            left.remove(d)
            out.append(d)
    return "".join(out)


def script_record(script: list) -> list[str]:
    """The record after each roll and each category, as game.py writes it."""
    done: list[str] = []
    records = []
    for steps in script:
        pieces: list[str] = []
        kept = ""
        for new, action in steps:
            dice = kept + new
            pieces.append(dice)
            records.append(".".join([*done, "-".join(pieces)]))
            if action[0] == "keep":
                pieces.append(action[1])
                kept = kept_in_order(dice, action[1])
            else:
                done.append("-".join(pieces) + CATEGORY_LETTERS[action[1]])
                records.append(".".join(done))
    return [f"h={r}" for r in records]


RECORD = script_record(SCRIPT)[-1]


def cli_review(query: str) -> dict:
    """``python -m yacht review --json`` on a game query."""
    done = subprocess.run(
        [sys.executable, "-m", "yacht", "review", "--json", query], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def points(dice: str, category: int) -> int:
    return int(score_table(VARIANTS["official"])[roll_index(tuple(map(int, dice))), category])


def keep_button(page: Page, keep: str):
    if keep == "":
        return control(page, "button", "Reroll all dice")
    return control(page, "button", f"Keep {' '.join(keep)} and roll again")


def type_dice(page: Page, dice: str, keyboard: bool) -> None:
    for die in dice:
        if keyboard:
            page.keyboard.press(die)
        else:
            control(page, "button", f"Add {die}").click()


def kept_dice(page: Page):
    return page.get_by_role("img", name=re.compile(r"^[1-6], kept$"))


def review_decisions(page: Page, testid: str = "decision") -> list[dict]:
    return page.get_by_test_id(testid).evaluate_all(
        """items => items.map(e => ({
            index: Number(e.dataset.index), turn: Number(e.dataset.turn), roll: Number(e.dataset.roll),
            loss: Number(e.dataset.loss), query: e.dataset.query, best: e.dataset.best === "true",
            measure: e.dataset.measure,
        }))"""
    )


def open_review(page: Page, query: str) -> dict:
    """Open the review of the game shown (``query``) and return its summary's figures."""
    control(page, "button", "Review").click()
    review = page.get_by_test_id("review")
    expect(review).to_have_attribute("data-query", query)
    return page.get_by_test_id("review-summary").evaluate("e => ({...e.dataset})")


def check_review_against_cli(page: Page, query: str) -> dict:
    """The page's review of ``query`` equals the CLI's: each decision's loss, the totals, the three costliest."""
    expected = cli_review(query)
    summary = open_review(page, query)
    decisions = review_decisions(page)
    assert len(decisions) == len(expected["decisions"])
    for shown, want in zip(decisions, expected["decisions"], strict=True):
        assert (shown["turn"], shown["roll"], shown["query"]) == (want["turn"], want["roll"], want["query"])
        # Graded as the CLI grades it: in the measure the advice ranked by.
        assert shown["loss"] == pytest.approx(want["grade"]["loss"], abs=LOSS_TOLERANCE), shown
        assert (shown["best"], shown["measure"]) == (want["grade"]["best"], want["grade"]["measure"]), shown
    assert float(summary["totalLoss"]) == pytest.approx(expected["total_loss"], abs=LOSS_TOLERANCE)
    assert float(summary["meanLoss"]) == pytest.approx(expected["mean_loss"], abs=LOSS_TOLERANCE)
    assert float(summary["luck"]) == pytest.approx(expected["luck"], abs=LOSS_TOLERANCE)
    assert [d["index"] for d in review_decisions(page, "costly")] == expected["costliest"]
    if expected["final"] is None:
        assert "final" not in summary
    else:
        assert summary["final"] == str(expected["final"])
    return expected


# Playing along ---------------------------------------------------------------------------------


def test_a_scripted_game_of_twelve_turns_and_its_review_match_the_cli(page: Page, server) -> None:
    assert script_record(SCRIPT[:1])[-1] == "h=14466-66-66235-66-66661f"
    records = iter(script_record(SCRIPT))
    open_page(page, server)
    for number, steps in enumerate(SCRIPT, start=1):
        keyboard = number % 2 == 0  # every other turn typed on the keyboard
        for new, action in steps:
            type_dice(page, new, keyboard)
            record = next(records)
            # The first dice are a position; the game record starts with the first decision.
            shown = f"s={',' * (N_CATEGORIES - 1)}&d={new}&r=1" if record == f"h={new}" else record
            wait_for_advice(page, shown)
            assert url_query(page) == shown
            if action[0] == "keep":
                keep_button(page, action[1]).click()
                expect(kept_dice(page)).to_have_count(len(action[1]))
                assert url_query(page) == record  # the keep waits for its dice
                continue
            _, category, where = action
            if where == "option":
                control(page, "button", f"Score {NAMES_EN[category]}").click()
            else:
                dice = record[-5:]  # the record ends with the dice just rolled
                score_on_sheet(page, category, NAMES_EN[category], points(dice, category))
            record = next(records)
            wait_for_advice(page, record)
            expect(cell(page, category)).not_to_have_attribute("data-value", "")

    # The game is over: the sheet is the record's, the score its final score.
    query = url_query(page)
    assert query == RECORD
    assert len(query) <= 400
    expect(page.get_by_test_id("result").locator(".verdict-words")).to_have_text(f"Final score {FINAL_SCORE}")
    expect(page.get_by_test_id("result")).to_have_attribute("data-final", str(FINAL_SCORE))
    expect(page.locator("#summary")).to_have_text("")  # the result says it
    expect(page.locator("#verdict-new")).to_be_visible()
    expect(page.locator("#total")).to_have_text(str(FINAL_SCORE))
    _, end = replay(parse_game(query))
    for c in range(N_CATEGORIES):
        expect_cell(page, c, end.sheet[c])
    expect(control(page, "button", "Roll for me")).to_be_disabled()
    expect(control(page, "button", "Review")).to_have_class(re.compile(r"\bprimary\b"))

    expected = check_review_against_cli(page, query)
    assert expected["final"] == FINAL_SCORE
    assert expected["total_loss"] > 1  # the poor choices cost something
    assert sum(d["loss"] > 0 for d in expected["decisions"]) >= 3
    assert expected["last"] == pytest.approx(expected["start"] + expected["luck"] - expected["total_loss"], abs=1e-6)


def test_undo_redo_and_a_reload_in_the_middle_of_a_game(page: Page, server, cpython) -> None:
    game = "h=14466-4466-24466g.12356"
    open_page(page, server, game)
    wait_for_advice(page, game)
    undo, redo = control(page, "button", "Undo"), control(page, "button", "Redo")
    expect(undo).to_be_enabled()
    expect(redo).to_be_disabled()
    expect_cell(page, 6, 22)

    # A keep, one die of the reroll entered: then a reload loses nothing.
    control(page, "button", "Keep 6 and roll again").click()
    page.keyboard.press("1")
    expect(control(page, "button", "Remove die 2 (1)")).to_be_visible()
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-state", "ready")
    wait_for_advice(page, game)
    assert url_query(page) == game
    expect(kept_dice(page)).to_have_count(1)
    expect(control(page, "button", "Remove die 2 (1)")).to_be_visible()
    expect(page.locator("#summary")).to_contain_text("Kept 6: enter the 4 dice you rolled again")

    # Undo takes back the keep (and the die entered), redo brings both back.
    undo.click()
    expect(kept_dice(page)).to_have_count(0)
    expect(page.get_by_test_id("option").first).to_be_visible()
    redo.click()
    expect(kept_dice(page)).to_have_count(1)
    expect(control(page, "button", "Remove die 2 (1)")).to_be_visible()
    expect(redo).to_be_disabled()
    type_dice(page, "666", keyboard=False)
    wait_for_advice(page, f"{game}-6-61666")
    assert page.locator("#options").get_attribute("data-position") == "s=,,,,,,22,,,,,&d=61666&r=2"
    assert_same_advice(page, cpython("s=,,,,,,22,,,,,&d=61666&r=2"))

    # Back step by step (button, Ctrl+Z), each step in the URL and on the sheet.
    steps = [
        (lambda: undo.click(), game, 1),  # the roll: the keep waits for dice again
        (lambda: page.keyboard.press("Control+z"), game, 0),  # the keep
        (lambda: undo.click(), "h=14466-4466-24466g", 0),  # turn 2's dice
        (lambda: page.keyboard.press("Control+z"), "h=14466-4466-24466", 4),  # Choice 22 (4 4 6 6 were kept)
    ]
    for act, query, kept in steps:
        act()
        expect(page).to_have_url(re.compile(re.escape(f"?{query}") + "$"))
        expect(kept_dice(page)).to_have_count(kept)
    wait_for_advice(page, "h=14466-4466-24466")
    expect_cell(page, 6, None)
    expect(page.locator("#total")).to_have_text("0")
    assert_same_advice(page, cpython("s=,,,,,,,,,,,&d=24466&r=2"))
    undo.click()  # the keep 4 4 6 6
    expect(kept_dice(page)).to_have_count(4)
    undo.click()  # the first keep: no game any more, the position it started from
    wait_for_advice(page, "s=,,,,,,,,,,,&d=14466&r=1")
    assert url_query(page) == "s=,,,,,,,,,,,&d=14466&r=1"
    expect(undo).to_be_disabled()
    expect(page.locator("#sheet-locked")).to_be_hidden()

    # Forward again (Ctrl+Shift+Z, Ctrl+Y, the button) to where the game was.
    for key in ("Control+Shift+z", "Control+y", "Control+Shift+z"):
        page.keyboard.press(key)
    expect(page).to_have_url(re.compile(re.escape("?h=14466-4466-24466g") + "$"))
    for _ in range(3):
        redo.click()
    wait_for_advice(page, f"{game}-6-61666")
    expect(redo).to_be_disabled()
    expect_cell(page, 6, 22)
    # A new step forgets what was undone.
    undo.click()
    expect(redo).to_be_enabled()
    control(page, "button", "Roll for me").click()
    expect(redo).to_be_disabled()
    expect(page).to_have_url(re.compile(re.escape(f"?{game}-6-6") + "[1-6]{4}$"))


def test_a_finished_game_reviews_on_a_phone_and_opens_each_decision(page: Page, server, cpython, artifacts) -> None:
    open_page(page, server, RECORD)
    wait_for_advice(page, RECORD)
    expected = check_review_against_cli(page, RECORD)
    review = page.get_by_test_id("review")
    expect(review).to_contain_text(f"Final score{FINAL_SCORE}")
    expect(review).to_contain_text(f"Total loss{MINUS}{expected['total_loss']:.2f} pts")
    expect(review).to_contain_text(f"decisions {MINUS}{expected['total_loss']:.2f} pts")
    expect(review.get_by_role("img", name="Expected final score, step by step")).to_be_visible()

    # Nothing overflows at 390 × 844; every control of the review fits a thumb and has a name.
    widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1], widths
    small = review.evaluate(
        """r => [...r.querySelectorAll('button')]
            .map(e => [e.getAttribute('aria-label') || e.textContent.trim(), e.getBoundingClientRect().height])
            .filter(([name, h]) => !name || h < 44)"""
    )
    assert small == []
    tree = page.locator("body").aria_snapshot()
    unnamed = [line for line in tree.splitlines() if re.match(r"\s*- (button|img|combobox|radio)\s*(\[|:|$)", line)]
    assert unnamed == [], tree
    review.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "review-390x844.png")
    review.screenshot(path=artifacts / "review-panel-390.png")

    # Tapping a decision opens its position with the full advice; Back returns to the game.
    costliest = expected["decisions"][expected["costliest"][0]]
    page.get_by_test_id("costly").first.get_by_role("button").click()
    wait_for_advice(page, costliest["query"])
    assert url_query(page) == costliest["query"]
    assert_same_advice(page, cpython(costliest["query"]))
    expect(review).to_be_hidden()
    control(page, "button", "Back to game").click()
    wait_for_advice(page, RECORD)
    expect(review).to_be_visible()
    expect(review).to_have_attribute("data-query", RECORD)
    page.go_forward()
    wait_for_advice(page, costliest["query"])
    page.go_back()
    wait_for_advice(page, RECORD)

    # A new game starts from an empty sheet; the finished one stays in the history.
    control(page, "button", "New game").click()
    control(page, "button", "Alone").click()
    wait_for_advice(page, "s=,,,,,,,,,,,&r=0")
    expect(control(page, "button", "Review")).to_be_disabled()
    page.go_back()
    wait_for_advice(page, RECORD)
    expect(page.locator("#total")).to_have_text(str(FINAL_SCORE))
