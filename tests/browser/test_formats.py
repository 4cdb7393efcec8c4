"""The page's copies of the formats (web/page/model/formats.js) and its reading of the package's error
messages (web/app/view-error.js) against golden cases generated from the Python package
(tests/golden/format_cases.json, written by tests/golden/format_cases.py); the page's rule of
when two records are one game (a kept game's identity) against yacht.play.same_game."""

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page

from .page_helpers import open_page

pytestmark = pytest.mark.browser

CASES = json.loads((Path(__file__).parents[1] / "golden" / "format_cases.json").read_text())

RUN_CASES = """async cases => {
    // The source modules (the page runs them bundled in app.js): their rules are set as main.js sets them.
    (await import("/web/page/model/rules.js")).setRules(await (await fetch("rules.json")).json());
    const formats = await import("/web/page/model/formats.js");
    const errors = await import("/web/page/views/error.js");
    const dice = await import("/web/page/model/practice-dice.js");
    const fixOf = c => {
        const about = errors.describeLinkError({ field: c.field, message: c.message }, c.query);
        return [about.fix.kind, about.fix.category ?? null];
    };
    return {
        positions: cases.positions.map(c => formats.formatQuery(formats.readQuery(c.query))),
        games: cases.games.map(c => {
            const game = formats.parseGame(c.query);
            return game && formats.formatGame(game);
        }),
        badGames: cases.bad_games.map(c => formats.parseGame(c.query)),
        fixes: [...cases.bad_positions, ...cases.bad_games].map(fixOf),
        practiceDice: cases.practice_dice.map(c => dice.faces(dice.parseSeed(c.seed), c.player, c.turn, c.roll)),
        seeds: cases.practice_dice.map(c => dice.formatSeed(dice.parseSeed(c.seed))),
        steps: cases.same_games.map(c => formats.isStepOf(c.a, c.b)),
        sameGames: cases.same_games.map(c => formats.sameGame(c.a, c.b)),
    };
}"""

FIX_OF_FIELD = {
    "v": "variant",
    "d": "dice",
    "r": "dice",
    "h": "game",
    "oh": "game",
    "o": "goal",
    "t": "goal",
    "query": "query",
}


def expected_fix(case: dict) -> list:
    """The fix the page offers for a bad link, from the field and message Python gives."""
    if case["field"] == "s":
        cell = re.match(r"s: field (\d+) ", case["message"])
        return ["cell", int(cell.group(1)) - 1] if cell else ["sheet", None]
    if case["message"].startswith("query: unknown parameter "):
        return ["param", None]
    return [FIX_OF_FIELD.get(case["field"], "param"), None]


@pytest.fixture(scope="module")
def results(one_page, server) -> dict:
    page: Page = one_page[0]
    open_page(page, server)
    return page.evaluate(RUN_CASES, CASES)


def test_the_page_writes_a_position_as_python_does(results) -> None:
    assert len(CASES["positions"]) >= 40
    assert results["positions"] == [c["canonical"] for c in CASES["positions"]]


def test_the_page_reads_and_writes_a_game_record_as_python_does(results) -> None:
    assert len(CASES["games"]) >= 40
    assert sum("-" in c["query"] for c in CASES["games"]) >= 10  # keeps, not only first rolls
    assert sum("oh=" in c["query"] for c in CASES["games"]) >= 20  # with the opponent's record
    assert results["games"] == [c["canonical"] for c in CASES["games"]]


def test_the_page_rolls_a_practice_seeds_dice_as_python_does(results) -> None:
    assert len(CASES["practice_dice"]) >= 40
    assert sum("p=" in c["query"] for c in CASES["games"]) >= 10  # practice records read and written
    assert results["practiceDice"] == [c["faces"] for c in CASES["practice_dice"]]
    assert results["seeds"] == [c["seed"] for c in CASES["practice_dice"]]


def test_the_page_rejects_every_record_python_rejects(results) -> None:
    assert results["badGames"] == [None] * len(CASES["bad_games"])


def test_the_page_names_the_part_at_fault_from_pythons_messages(results) -> None:
    bad = [*CASES["bad_positions"], *CASES["bad_games"]]
    assert {c["field"] for c in bad} >= {"s", "d", "r", "v", "h", "o", "oh", "query"}
    assert results["fixes"] == [expected_fix(c) for c in bad]


def test_the_page_tells_one_game_from_two_as_python_does(results) -> None:
    cases = CASES["same_games"]
    step = {(c["a"], c["b"]): c["step"] for c in cases}
    assert sum(c["step"] and c["a"] != c["b"] for c in cases) >= 40  # steps cut short, in both orders
    assert sum(not step[c["a"], c["b"]] and not step[c["b"], c["a"]] for c in cases) >= 40  # two games
    assert sum("oh=" in c["a"] for c in cases) >= 40 and sum("p=" in c["a"] for c in cases) >= 20
    assert results["steps"] == [c["step"] for c in cases]
    assert results["sameGames"] == [c["step"] or step[c["b"], c["a"]] for c in cases]
