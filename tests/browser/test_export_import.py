"""Kept games that survive (web/page/model/exported.js, requests/device.js): Export writes every kept game, the
practice games' mean losses (the practice history) included, into one versioned file
(yacht-games-YYYY-MM-DD.json); Import merges such a file by game identity — each game once, the
longer record of a game winning, a second import changing nothing — and refuses a damaged or
foreign file whole, saying what is wrong. The first game kept in a visit asks the browser to keep
the storage for good (navigator.storage.persist) and the list says whether it does, else how to
keep the games.
"""

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .conftest import ARTIFACTS
from .page_helpers import control, open_page, wait_for_advice
from .test_accessibility import AXE
from .test_kept_once import GAME, SEED, record
from .test_saved import KEPT_RECORDS, START

pytestmark = pytest.mark.browser


def practice(id_: str, query: str, updated: int, score: int, mean_loss: float) -> dict:
    """A finished, reviewed practice game's record: its seed and mean loss per decision."""
    seed = re.search(r"p=([0-9a-z]+)", query).group(1)
    return {**record(id_, query, updated, 12, score), "over": True, "practice": {"seed": seed, "meanLoss": mean_loss}}


PRACTICE = [
    practice("prac1", "p=k3x9q&h=21453-5-21455c", 1_700_000_400_000, 182, 0.42),
    practice("prac2", "p=k3x9r&h=21453", 1_700_000_500_000, 201, 1.37),
]


def kept_by_id(page: Page) -> dict[str, dict]:
    return {r["id"]: r for r in page.evaluate(KEPT_RECORDS)}


def progress(page: Page) -> str | None:
    return page.get_by_test_id("practice-progress").get_attribute("data-values")


def import_file(page: Page, path: Path) -> None:
    with page.expect_file_chooser() as chooser:
        page.get_by_test_id("import-games").click()
    chooser.value.set_files(str(path))


def export_file(games: list[dict], **fields: object) -> str:
    return json.dumps(
        {"format": "yacht-games", "version": 1, "exported": "2026-11-27T00:00:00Z", "games": games} | fields
    )


def test_games_exported_from_one_profile_are_imported_into_a_fresh_one_each_once(
    make_context, server, tmp_path
) -> None:
    source = make_context()
    source.add_init_script(f"({SEED})({json.dumps(PRACTICE)})")
    page = source.new_page()
    open_page(page, server, GAME)  # a game against a rival, kept as it opens
    wait_for_advice(page, GAME)
    open_page(page, server, START)
    wait_for_advice(page, START)
    control(page, "button", "Keep (the best)").click()  # a plain game: h=56366
    expect(page).to_have_url(re.compile(r"\?h=56366$"))
    expect(page.get_by_test_id("kept-game")).to_have_count(4)
    games = kept_by_id(page)
    assert sorted(r["query"] for r in games.values()) == sorted([GAME, "h=56366", *(p["query"] for p in PRACTICE)])
    history = progress(page)
    assert history == "0.42,1.37"  # the practice history: the reviewed games' mean losses, oldest first

    with page.expect_download() as download:
        page.get_by_test_id("export-games").click()
    today = page.evaluate("() => new Date().toLocaleDateString('sv')")  # YYYY-MM-DD, the device's day
    assert download.value.suggested_filename == f"yacht-games-{today}.json"
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    exported = json.loads(path.read_text())
    assert (exported["format"], exported["version"]) == ("yacht-games", 1)
    assert {r["id"]: r for r in exported["games"]} == games

    target = make_context().new_page()
    open_page(target, server)
    expect(target.get_by_test_id("kept-game")).to_have_count(0)
    expect(target.get_by_test_id("export-games")).to_be_disabled()  # nothing to export yet
    import_file(target, path)
    expect(target.get_by_test_id("import-message")).to_have_text("Imported: 4 games added, 0 updated.")
    expect(target.get_by_test_id("kept-game")).to_have_count(4)
    assert kept_by_id(target) == games  # the same games, each once, whole
    assert progress(target) == history
    expect(target.locator("[data-testid=kept-game][data-mean-loss='1.37']")).to_contain_text(
        "Practice (mean loss 1.37)"
    )

    import_file(target, path)  # the same file again: nothing changes
    expect(target.get_by_test_id("import-message")).to_have_text("Imported: every game of the file is already here.")
    assert kept_by_id(target) == games
    expect(target.get_by_test_id("kept-game")).to_have_count(4)


SHORT = "h=14466-4466-24466g&oh=a3"  # the first two turns of GAME


def test_an_import_keeps_the_longer_record_of_a_game(make_context, server, tmp_path) -> None:
    here = [
        record("mine", SHORT, 1_700_000_900_000, 2, 22, 3),  # a shorter copy of the file's game, newer
        record("same", "h=12345-1-12346a", 1_700_000_100_000, 2, 1),  # the file has it shorter
        record("apart", "h=12345-1-12346b", 1_700_000_100_000, 2, 0),  # one id, another game in the file
    ]
    context = make_context()
    context.add_init_script(f"({SEED})({json.dumps(here)})")
    page = context.new_page()
    open_page(page, server)
    expect(page.get_by_test_id("kept-game")).to_have_count(3)
    theirs = [
        record("theirs", GAME, 1_700_000_000_000, 3, 40, 9),
        record("same", "h=12345", 1_700_000_200_000, 1, 0),
        record("apart", "h=12345-1-12346c", 1_700_000_300_000, 2, 0),
    ]
    path = tmp_path / "games.json"
    path.write_text(export_file(theirs))
    import_file(page, path)
    expect(page.get_by_test_id("import-message")).to_have_text("Imported: 1 game added, 1 updated.")
    kept = kept_by_id(page)
    assert kept.pop("theirs") == theirs[0]  # the longer record of the game: mine was its step, and goes
    assert kept.pop("same") == here[1]  # the longer record kept here stays
    assert kept.pop("apart") == here[2]
    [(new_id, added)] = kept.items()  # the file's game of the same id that went apart: kept too
    assert added == {**theirs[2], "id": new_id}
    expect(page.get_by_test_id("kept-game")).to_have_count(4)
    import_file(page, path)  # again: nothing changes
    expect(page.get_by_test_id("import-message")).to_have_text("Imported: every game of the file is already here.")
    assert kept_by_id(page) == {"theirs": theirs[0], "same": here[1], "apart": here[2], new_id: added}


GOOD = export_file([record("theirs", GAME, 1_700_000_000_000, 3, 40, 9)])
REFUSED = [
    (GOOD[: len(GOOD) // 2], "the file is damaged or cut short (it is not complete JSON)."),
    (
        GOOD.replace('"yacht-games"', '"chess-club.games"'),
        "the file's format is 'chess-club.games', not 'yacht-games': it comes from another site or program.",
    ),
    (GOOD.replace('"version": 1', '"version": 2'), "the file is of version 2; this page reads version 1."),
    (json.dumps({"games": []}), "it is not a file of games exported from this page (it names no format)."),
    (
        export_file([record("ok", "h=12345", 1, 1, 0), {**record("bad", "h=1", 1, 1, 0), "entry": [7]}]),
        "game 2 of the file is damaged.",
    ),
]


def test_a_damaged_or_foreign_file_is_refused_whole_with_what_is_wrong(make_context, server, tmp_path) -> None:
    context = make_context()
    context.add_init_script(f"({SEED})({json.dumps(PRACTICE)})")
    page = context.new_page()
    open_page(page, server)
    expect(page.get_by_test_id("kept-game")).to_have_count(2)
    before = kept_by_id(page)
    message = page.get_by_test_id("import-message")
    for i, (text, reason) in enumerate(REFUSED):
        path = tmp_path / f"file{i}.json"
        path.write_text(text)
        import_file(page, path)
        expect(message).to_have_text(f"Not imported, nothing changed: {reason}")
        expect(message).to_have_class(re.compile(r"\brefused\b"))
        assert kept_by_id(page) == before
        expect(page.get_by_test_id("kept-game")).to_have_count(2)
    page.locator("[data-lang=ja]").click()  # the refusal in the language shown
    expect(message).to_have_text("読み込みませんでした (何も変わっていません): ファイルの2件目のゲームが壊れています。")


PERSIST = """granted => {
    let persisted = false;
    window.persistAsked = 0;
    navigator.storage.persisted = async () => persisted;
    navigator.storage.persist = async () => { window.persistAsked++; persisted = granted; return granted; };
}"""

KEPT_FOR_GOOD = "The browser keeps these games for good: it will not delete them to make room."
MAY_GO = (
    "The browser may delete these games (after weeks without a visit, or when space runs short). "
    "To keep them, add this page to your home screen, or export them to a file."
)


@pytest.mark.parametrize(("granted", "words"), [(True, KEPT_FOR_GOOD), (False, MAY_GO)])
def test_persistent_storage_is_asked_for_once_when_the_first_game_is_kept_and_said(
    make_context, server, granted, words
) -> None:
    context = make_context()
    context.add_init_script(f"({PERSIST})({json.dumps(granted)})")
    page = context.new_page()
    open_page(page, server)  # the site without a link: nothing kept yet, nothing asked
    status = page.get_by_test_id("storage-status")
    expect(status).to_be_hidden()
    assert page.evaluate("window.persistAsked") == 0
    page.keyboard.press("5")  # a die entered: the first game kept
    expect(page.get_by_test_id("kept-game")).to_have_count(1)
    expect(status).to_have_text(words)
    expect(status).to_have_attribute("data-persisted", str(granted).lower())
    assert page.evaluate("window.persistAsked") == 1
    for key in "6366":
        page.keyboard.press(key)  # more changes kept: not asked again
    control(page, "button", "Keep (the best)").click()
    expect(page).to_have_url(re.compile(r"\?h=56366$"))
    assert page.evaluate("window.persistAsked") == 1
    expect(page.get_by_text(words)).to_have_count(1)  # said once, not per game
    page.reload()  # a later visit says it as the browser says it, before anything is kept
    expect(page.locator("html")).to_have_attribute("data-state", "ready")
    expect(status).to_have_text(MAY_GO)  # (the stub forgets a grant: a browser would not)
    assert page.evaluate("window.persistAsked") == 0


def axe_violations(page: Page, selector: str) -> list[str]:
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    return page.evaluate(
        """selector => axe.run(document.querySelector(selector), { resultTypes: ['violations'] }).then(r =>
            r.violations.map(v => `${v.id} (${v.impact}): ${v.nodes.map(n => n.target.join(' ')).join(', ')}`))""",
        selector,
    )


@pytest.mark.parametrize(("language", "scheme"), [("ja", "light"), ("en", "dark")])
def test_the_games_section_with_export_import_and_a_refusal_has_no_axe_violations(
    make_context, server, tmp_path, language, scheme
) -> None:
    context = make_context(viewport={"width": 320, "height": 640}, color_scheme=scheme)
    context.add_init_script(f"({PERSIST})(false)")
    context.add_init_script(f"({SEED})({json.dumps(PRACTICE)})")
    page = context.new_page()
    open_page(page, server, START)
    control(page, "button", "Keep (the best)").click()
    page.locator(f"[data-lang={language}]").click()
    expect(page.get_by_test_id("storage-status")).to_be_visible()
    path = tmp_path / "other.json"
    path.write_text(REFUSED[1][0])
    import_file(page, path)
    expect(page.get_by_test_id("import-message")).to_have_class(re.compile(r"\brefused\b"))
    section = page.locator("section.games")
    section.scroll_into_view_if_needed()
    ARTIFACTS.mkdir(exist_ok=True)
    section.screenshot(path=str(ARTIFACTS / f"export-import-{language}-{scheme}-320x640.png"))
    assert axe_violations(page, "section.games") == []
