"""Game links that are not legal games: what the page says and offers, the page still usable, and
a damaged record keeping its legal turns (``yacht.play.game.LegalStart``), as the CLI says it."""

import json
import subprocess
import sys

import pytest
from playwright.sync_api import expect
from yacht.api import game_query
from yacht.core.categories import N_CATEGORIES
from yacht.play.game import GameError, parse_game

from .page_helpers import (
    assert_same_advice,
    expect_cell,
    refused_then_usable,
    url_query,
    visit,
    wait_for_advice,
)

pytestmark = pytest.mark.browser


# Game links that are not games -------------------------------------------------------------------

BAD_GAMES = [
    "h=14466-55-55123",  # a keep that is not in the dice
    "h=14466g.12345g",  # a category used twice
    "s=1,2,3,4,5,6,7,8,9,15,30,&h=11111l.12345",  # dice after the twelfth turn
    "h=14466-66-66123-66-66456-66-66111",  # a fourth roll
    "h=hello",  # not a record
    "d=12345&h=12345",  # dice beside the record
    "h=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E",  # markup in the message is shown as text
    "h=14466g&oh=x9",  # the opponent's turn in no category
    "h=14466g.12345&oh=",  # the opponent's turn missing before my second
    "t=1000&h=12345",  # a score to reach out of range
]


GAME_LINK_HEADLINES = {
    "h": "This link's game record is not a legal game.",
    "d": "This link's dice are not valid.",
    "oh": "This link's record of the opponent's turns does not fit the game.",
    "t": "This link's score to reach is not valid.",
}
"""What the page says of a bad game link, by the field at fault."""


def game_link_headline(error: GameError) -> str:
    """What the page says of a bad game link: by the field at fault, or the turn dropped when
    the turns before it are a legal game (``GameError.legal``)."""
    if error.legal is None:
        return GAME_LINK_HEADLINES[error.field]
    if error.legal.who == "me":
        return f"Turn {error.legal.turn} of this link's game record is not legal; the turns before it are."
    return f"Their turn {error.legal.turn} in this link does not fit the game; the turns before it do."


@pytest.mark.parametrize("query", BAD_GAMES)
def test_a_bad_game_link_shows_what_is_wrong_and_the_page_stays_usable(one_page, server, cpython, query) -> None:
    page, events = one_page
    with pytest.raises(GameError) as raised:
        parse_game(query)
    visit(page, server, query)
    error = page.get_by_test_id("error")
    expect(page.locator("#error-message")).to_have_text(str(raised.value))  # the CLI's message, under Details
    expect(page.locator("#error-text")).to_have_text(game_link_headline(raised.value))
    # Still usable: dice entered make a position of the link's sheet, with its advice.
    refused_then_usable(page, query)
    sheet = parse_game(query.split("&h=")[0] + "&h=").sheet if query.startswith("s=") else (None,) * N_CATEGORIES
    position = f"s={','.join('' if v is None else str(v) for v in sheet)}&d=11256&r=1"
    wait_for_advice(page, position)
    expect(error).to_be_hidden()
    assert_same_advice(page, cpython(position))
    assert events == []


# A damaged game link keeps its legal turns (the issue's link: turn 2's dice lost a digit).
DAMAGED = "h=42154-44-44433-444-44425d.25223-2225-2522l-222-22226b&oh=d12"
DAMAGED_LEGAL = "h=42154-44-44433-444-44425d&oh=d12"

DAMAGED_WORDS = {
    "en": (
        "Turn 2 of this link's game record is not legal; the turns before it are.",
        "Keep the game through turn 1, drop the rest",
    ),
    "ja": (
        "このリンクのゲーム記録は2ターン目がルールに合いません。それより前は有効です。",
        "1ターン目までを残し、以降を外す",
    ),
}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_damaged_game_link_keeps_its_legal_turns_and_the_rivals(one_page, server, tables, language) -> None:
    page, events = one_page
    with pytest.raises(GameError) as raised:
        parse_game(DAMAGED)
    assert raised.value.legal is not None and raised.value.legal.to_json()["query"] == DAMAGED_LEGAL
    visit(page, server, DAMAGED)
    page.locator(f"[data-lang={language}]").click()
    headline, fix = DAMAGED_WORDS[language]
    expect(page.locator("#error-text")).to_have_text(headline)
    expect(page.locator("#error-message")).to_have_text(str(raised.value))  # the CLI's message, under Details
    expect(page.locator("#error-fix")).to_have_text(fix)
    page.locator("#error-fix").click()
    # The legal game goes on: my Fours 12 at turn 1, the rival's Fours 12, my turn 2 to roll.
    assert game_query(DAMAGED_LEGAL, tables)["query"] == DAMAGED_LEGAL
    wait_for_advice(page, DAMAGED_LEGAL)
    assert url_query(page) == DAMAGED_LEGAL
    expect(page.get_by_test_id("error")).to_be_hidden()
    expect_cell(page, 3, 12)
    expect(page.locator("[data-testid=opponent-cell][data-category='3']")).to_contain_text("12")
    page.locator("[data-lang=en]").click()
    assert events == []


def test_the_cli_review_says_what_of_a_damaged_record_is_legal() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "yacht", "review", "--json", DAMAGED], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert f"the legal game before your turn 2 (1 of your turns, 1 of theirs): '{DAMAGED_LEGAL}'" in done.stderr
    error = json.loads(done.stdout)["error"]
    assert error["field"] == "h"
    assert error["legal"] == {
        "query": DAMAGED_LEGAL,
        "turns": 1,
        "opponent_turns": 1,
        "through_turn": 1,
        "dropped": {"who": "me", "turn": 2},
    }
