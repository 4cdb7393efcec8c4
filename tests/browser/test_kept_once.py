"""A game is kept once (web/page/model/saved.js, requests/device.js): a reload, Back / Forward, a link opened again, a
restored tab or a second tab on the same link continue the one record of the game, and playing
on updates it; copies of one game kept before are merged on load into the longest, and two games
that share a start and then differ both stay.
"""

import json
import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import seed_snapshot
from .page_helpers import control, open_page, score_on_sheet, url_query, wait_for_advice
from .test_saved import KEPT_RECORDS, START, relaunch

pytestmark = pytest.mark.browser

# The link of the issue: two turns each against a rival, my third turn's dice to enter.
GAME = "h=14466-4466-24466g.12356-6-16663-666-66634f&oh=a3b6"
OTHER = "s=3,,9,,,18,22,,,,30,&d=22556&r=2"


def kept_queries(page: Page) -> list[str]:
    return sorted(r["query"] for r in page.evaluate(KEPT_RECORDS))


def reload(page: Page, query: str) -> None:
    """Reload, and wait until the page has kept what it shows (after the link's answer)."""
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-state", "ready")
    wait_for_advice(page, query)


def test_a_game_link_reloaded_and_gone_back_and_forward_through_is_kept_once(make_context, server) -> None:
    page = make_context().new_page()
    open_page(page, server, GAME)
    wait_for_advice(page, GAME)
    for _ in range(5):
        reload(page, GAME)
    assert kept_queries(page) == [GAME]
    expect(page.get_by_test_id("kept-game")).to_have_count(1)
    # Back and Forward within the page (a new game pushed after it) and across documents.
    page.locator("#new-game").click()
    page.locator("[data-start=alone]").click()
    page.go_back()
    expect(page).to_have_url(re.compile(re.escape(GAME) + "$"))
    wait_for_advice(page, GAME)
    page.go_forward()
    page.go_back()
    wait_for_advice(page, GAME)
    page.goto(server.url(f"index.html?{OTHER}"))
    wait_for_advice(page, OTHER)
    page.go_back()
    wait_for_advice(page, GAME)
    page.go_forward()
    wait_for_advice(page, OTHER)
    page.go_back()
    wait_for_advice(page, GAME)
    reload(page, GAME)
    assert kept_queries(page) == sorted([GAME, OTHER])
    expect(page.get_by_test_id("kept-game")).to_have_count(2)


def test_a_second_tab_and_a_restored_tab_on_the_same_link_keep_one_game(make_context, server) -> None:
    context = make_context()
    first = context.new_page()
    open_page(first, server, GAME)
    wait_for_advice(first, GAME)
    second = context.new_page()  # the same link in a second tab
    open_page(second, server, GAME)
    wait_for_advice(second, GAME)
    reload(second, GAME)
    second.close()
    restored = context.new_page()  # the tab closed and opened again
    open_page(restored, server, GAME)
    wait_for_advice(restored, GAME)
    assert kept_queries(restored) == [GAME]
    expect(first.get_by_test_id("kept-game")).to_have_count(1)  # the first tab's list follows
    expect(restored.get_by_test_id("kept-game")).to_have_count(1)


def test_a_game_reloaded_and_relaunched_mid_turn_then_played_on_is_one_game_that_moves(
    playwright, server, runtime, warm_snapshot, tmp_path
) -> None:
    context = relaunch(playwright, tmp_path)
    seed_snapshot(context, server, runtime)
    page = context.pages[0] if context.pages else context.new_page()
    open_page(page, server, START)
    wait_for_advice(page, START)
    control(page, "button", "Keep (the best)").click()  # keep 6 6 6: the game h=56366
    page.keyboard.press("1")  # one die of the reroll entered
    expect(page.get_by_test_id("die")).to_have_count(4)
    game = page.get_by_test_id("kept-game")
    expect(game).to_have_count(1)
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-state", "ready")
    expect(page.get_by_test_id("die")).to_have_count(4)  # the die entered is back
    context.close()

    context = relaunch(playwright, tmp_path)  # the browser closed and the link opened again
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(server.url("index.html?h=56366"))
    expect(page.locator("html")).to_have_attribute("data-state", "ready")
    expect(page.get_by_test_id("die")).to_have_count(4)  # the kept record's entry, taken back
    reload(page, "h=56366")
    game = page.get_by_test_id("kept-game")
    expect(game).to_have_count(1)
    expect(game.locator(".game-open")).to_have_text(re.compile(r"^Turn 1, 0 points"))
    page.keyboard.press("2")  # the roll completes: 66612
    expect(page).to_have_url(re.compile(r"h=56366-666-66612$"))
    score_on_sheet(page, 5, "Sixes", 18)
    expect(page).to_have_url(re.compile(r"h=56366-666-66612f$"))
    expect(game).to_have_count(1)
    expect(game.locator(".game-open")).to_have_text(re.compile(r"^Turn 2, 18 points"))
    reload(page, url_query(page))
    expect(game).to_have_count(1)
    assert kept_queries(page) == ["h=56366-666-66612f"]
    context.close()


def record(id_: str, query: str, updated: int, turn: int, score: int, opponent: int | None = None) -> dict:
    return {
        "v": 1,
        "id": id_,
        "updated": updated,
        "query": query,
        "keep": None,
        "entry": [],
        "turn": turn,
        "score": score,
        "over": False,
        "opponent": opponent,
        "practice": None,
        "outcome": None,
    }


# Three copies of the game at different lengths (the shortest the newest, as a reload of an
# old link leaves), and a game from the same start that took other dice at the second turn.
COPIES = [
    record("copya", "h=14466-4466-24466g&oh=a3", 1_700_000_300_000, 2, 22, 3),
    record("copyb", "h=14466-4466-24466g.12356-6-16663&oh=a3", 1_700_000_200_000, 2, 22, 3),
    record("copyc", GAME, 1_700_000_100_000, 3, 40, 9),
]
DIVERGED = record("other", "h=14466-4466-24466g.12356-6-16665&oh=a3", 1_700_000_000_000, 2, 22, 3)

SEED = """records => {
    if (sessionStorage.getItem('seeded')) return;
    sessionStorage.setItem('seeded', '1');
    for (const r of records) localStorage.setItem('yacht.game.' + r.id, JSON.stringify(r));
}"""


def test_copies_kept_before_are_merged_on_load_into_the_longest(make_context, server) -> None:
    context = make_context()
    context.add_init_script(f"({SEED})({json.dumps([*COPIES, DIVERGED])})")
    page = context.new_page()
    page.goto(server.url(""))
    expect(page.locator("html")).to_have_attribute("data-state", "ready")
    kept = page.get_by_test_id("kept-game")
    expect(kept).to_have_count(2)
    records = {r["id"]: r for r in page.evaluate(KEPT_RECORDS)}
    assert records == {"copyc": COPIES[2], "other": DIVERGED}  # the longest copy and the other game, untouched
    expect(kept.nth(0)).to_have_attribute("data-query", GAME)


MERGE_CASES = """async cases => {
    const saved = await import("/web/page/model/saved.js");
    return cases.map(games => saved.copiesOf(games).map(r => r.id));
}"""


def kept(id_: str, query: str, updated: int = 0) -> dict:
    return record(id_, query, updated, 1, 0)


@pytest.mark.parametrize(
    ("games", "copies"),
    [
        pytest.param([*COPIES, DIVERGED], ["copya", "copyb"], id="three copies and a game that differs"),
        pytest.param(
            [kept("a", "h=12345-1-12346a&oh=a1"), kept("b", "h=12345-1-12346b&oh=b0"), kept("c", "h=12345&oh=")],
            ["c"],
            id="two games with the same start that diverge are both kept, their common step goes",
        ),
        pytest.param(
            [kept("new", "h=12345", 2), kept("old", "h=12345", 1)], ["old"], id="the same query: the newest stays"
        ),
        pytest.param(
            [kept("a", "h=12345"), kept("b", "s=,,,,,,,,,,,&d=12345&r=1")],
            [],
            id="a game and the position it started from are two",
        ),
        pytest.param(
            [kept("a", "s=,,,,,,,,,,,&d=12345&r=1"), kept("b", "s=,,,,,,,,,,,&d=12346&r=1")], [], id="two positions"
        ),
        pytest.param(
            [kept("a", "h=12345"), kept("b", "v=strict&h=12345-1-12346"), kept("c", "t=200&h=12345-1-12346")],
            [],
            id="other rules or another goal: other games",
        ),
        pytest.param([kept("a", "p=k3x9q&h="), kept("b", "p=k3x9r&h=21453")], [], id="practice games of two seeds"),
        pytest.param(
            [kept("again", "p=k3x9q&h=21453", 2), kept("first", "p=k3x9q&h=21453-5-21455c", 1)],
            [],
            id="a practice seed played again after a game of it stays (the same dice, not yet apart)",
        ),
        pytest.param(
            [kept("longer", "p=k3x9q&h=21453-5-21455c", 2), kept("stale", "p=k3x9q&h=21453", 1)],
            ["stale"],
            id="a practice game's step written before the longer record is a copy",
        ),
        pytest.param(
            [kept("a", "h=14466g&oh=c9"), kept("b", "h=14466g.12345g&oh=c9e20")],
            ["a"],
            id="a record cut after an opponent's turn is a step",
        ),
        pytest.param(
            [kept("a", "h=14466g&oh=f1"), kept("b", "h=14466g.12345&oh=f12")],
            [],
            id="a record cut inside an opponent's points is none",  # f1 is no legal score: the rule holds anyway
        ),
    ],
)
def test_the_merge_drops_only_copies_of_a_longer_record_of_the_same_game(page, server, games, copies) -> None:
    if not page.url.startswith(server.url()):
        open_page(page, server)
    assert page.evaluate(MERGE_CASES, [games]) == [copies]
