"""The advisor page in headless Chromium, checked against the CPython advisor.

Each test waits on something the page shows (``data-state``, the query the shown advice
belongs to, a message), never on the clock. Controls are found by role and name, as a
screen reader would find them.
"""

import random
import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect
from yacht.core.categories import N_CATEGORIES, NAMES_JA
from yacht.core.dice import roll_index
from yacht.core.position import PositionError, parse_query
from yacht.core.rules import VARIANTS, possible_scores, score_table

from .page_helpers import (
    assert_same_advice,
    cell,
    chip,
    control,
    expect_cell,
    open_cell,
    open_page,
    page_options,
    score_on_sheet,
    set_cell,
    url_query,
    wait_for_advice,
)

pytestmark = pytest.mark.browser

# Helpers -------------------------------------------------------------------------------------


def enter_position(page: Page, query: str) -> None:
    """Enter the position of ``query`` through the controls (dice only for rolls 1–3)."""
    position = parse_query(query)
    variant = position.variant.name
    control(page, "radio", variant.capitalize()).check()
    for c, value in enumerate(position.sheet):
        text = "" if value is None else str(value)
        if cell(page, c).get_attribute("data-value") != text:
            set_cell(page, c, value)
    slots = page.locator("#slots button")
    if position.roll == 0 or position.dice is None:
        if slots.count():
            control(page, "button", "Clear dice").click()
    else:
        entered = [int(x) for x in slots.evaluate_all("s => s.map(b => b.querySelector('.die').dataset.face)")]
        if entered != list(position.dice):
            if entered:
                control(page, "button", "Clear dice").click()
            for die in position.dice:
                control(page, "button", f"Add {die}").click()
        control(page, "radio", f"Roll {position.roll}").check()


def random_position(rng: random.Random, roll: int, variant: str, filled: int) -> str:
    """A valid query with ``filled`` categories filled at random."""
    allowed = possible_scores(VARIANTS[variant])
    sheet: list[int | None] = [None] * N_CATEGORIES
    for c in rng.sample(range(N_CATEGORIES), filled):
        sheet[c] = rng.choice(allowed[c])
    parts = ["s=" + ",".join("" if v is None else str(v) for v in sheet)]
    if roll:
        parts.append("d=" + "".join(str(rng.randint(1, 6)) for _ in range(5)))
    parts.append(f"r={roll}")
    if variant == "strict":
        parts.append("v=strict")
    return "&".join(parts)


def positions() -> list[str]:
    """24 positions: rolls 0–3 × both variants × sheets from empty to one category left."""
    rng = random.Random(20240607)
    out = []
    for roll in range(4):
        for variant in ("official", "strict"):
            for filled in (0, rng.randint(1, 10), 11):
                out.append(random_position(rng, roll, variant, filled))
    return out


# Loading --------------------------------------------------------------------------------------


def test_loading_ends_ready_and_the_page_is_usable_meanwhile(fresh_page: Page, server, cpython) -> None:
    page = fresh_page  # a cold cache: the runtime is fetched, so holding it holds the page
    with server.hold("/pyodide/pyodide.asm.wasm") as runtime:
        page.goto(server.url("index.html"))
        html = page.locator("html")
        expect(html).to_have_attribute("data-state", "loading")
        expect(page.get_by_role("status").filter(has_text="Loading the advisor")).to_be_visible()
        expect(page.locator("#steps")).to_contain_text("Python runtime (Pyodide): loading")
        # Entry works before the runtime is there: dice, roll and sheet, and the URL follows.
        for die in (2, 2, 5, 5, 5):
            control(page, "button", f"Add {die}").click()
        control(page, "radio", "Roll 2").check()
        set_cell(page, 5, 24)
        assert url_query(page) == "s=,,,,,24,,,,,,&d=22555&r=2"
        expect(control(page, "button", "Remove die 1 (2)")).to_be_visible()
        # The loading list fills the verdict's room; the summary under it is not drawn cut in half.
        expect(page.locator("#summary")).to_be_hidden()
        runtime.set()
    expect(html).to_have_attribute("data-state", "ready")
    expect(page.locator("#loading")).to_be_hidden()
    wait_for_advice(page, "s=,,,,,24,,,,,,&d=22555&r=2")
    assert_same_advice(page, cpython("s=,,,,,24,,,,,,&d=22555&r=2"))


def test_a_tap_before_the_rules_have_loaded_changes_nothing_and_entry_works_once_they_have(
    warm_page: Page, server
) -> None:
    """The entry acts on the rules (rules.json): on a slow network a tap or a key before they
    arrive must neither throw nor half-change the position (it once added a die, failed to write
    the URL, and the URL read after the rules then dropped it)."""
    page = warm_page  # the page's own script errors fail the test at teardown
    with server.hold("/rules.json") as rules:
        page.goto(server.url("index.html?s=,,,,,24,,,,,,"))
        add_two = page.locator("#keypad button[data-face='2']")
        expect(add_two).to_be_visible()
        for part in (add_two, page.locator("#new-game"), page.locator("input[name=roll][value='2']")):
            part.click(force=True)  # a tap where the control is drawn, ready or not
        page.keyboard.press("5")
        expect(page.locator("#start-menu")).to_be_hidden()
        expect(page.locator("#slots button")).to_have_count(0)
        assert url_query(page) == "s=,,,,,24,,,,,,"
        rules.set()
    for die in (2, 2, 5, 5, 5):
        control(page, "button", f"Add {die}").click()
    control(page, "radio", "Roll 2").check()
    expect(control(page, "button", "Remove die 5 (5)")).to_be_visible()
    assert url_query(page) == "s=,,,,,24,,,,,,&d=22555&r=2"
    expect(cell(page, 5)).to_have_attribute("data-value", "24")


@pytest.mark.parametrize(
    ("path", "step", "said"),
    [
        ("/tables/yacht-official.table", "Table", ["yacht-official.table", "HTTP 503", "Table (Official): failed"]),
        ("/rules.json", "Page data", ["rules.json: HTTP 503"]),  # Retry reloads the page
    ],
)
def test_a_failed_download_shows_what_failed_and_retry_recovers(
    warm_page: Page, server, cpython, path: str, step: str, said: list[str]
) -> None:
    page = warm_page
    query = "s=,,,,,,,,,,,&d=11223&r=1"
    with server.fail(path, 503):
        page.goto(server.url(f"index.html?{query}"))
        expect(page.locator("html")).to_have_attribute("data-state", "error")
        expect(page.get_by_test_id("error")).to_contain_text(f"Could not load the advisor ({step})")
        for text in said:
            expect(page.locator(".verdict-area")).to_contain_text(text)  # the error and the steps
    control(page, "button", "Retry").click()
    expect(page.locator("html")).to_have_attribute("data-state", "ready")
    wait_for_advice(page, query)
    expect(page.get_by_test_id("error")).to_be_hidden()
    assert_same_advice(page, cpython(query))


# Advice against CPython -------------------------------------------------------------------------


@pytest.mark.parametrize("part", ["quarter", pytest.param("rest", marks=pytest.mark.slow)])  # rest: make test-slow
def test_positions_entered_on_the_page_get_the_cpython_advice(page: Page, server, cpython, part: str) -> None:
    """Every fourth of the 24 positions (each roll, both variants) in make test, the other 18 in
    make test-slow: each entered through the controls, its advice equal to CPython's."""
    cases = [q for i, q in enumerate(positions()) if (i % 4 == 0) == (part == "quarter")]
    assert len(cases) == (6 if part == "quarter" else 18)
    assert {parse_query(q).roll for q in cases} == {0, 1, 2, 3}
    assert {parse_query(q).variant.name for q in cases} == {"official", "strict"}
    open_page(page, server, "d=66666&r=1")  # unlike every case, so each is a change
    for query in cases:
        expected = cpython(query)
        enter_position(page, query)
        wait_for_advice(page, expected["query"])
        assert url_query(page) == expected["query"]
        assert_same_advice(page, expected)


@pytest.mark.parametrize(
    "query",
    [
        "s=3,,9,,,18,,,,,30,&d=14466&r=2",
        "s=,,,,,,,,,,,&d=66666&r=1&v=strict",
        "s=4,8,12,16,20,,,,,,,&d=66611&r=3",  # Sixes 18 lifts the upper total to the bonus
        "s=,,,,,,,,,,,&r=0",
        "s=1,,,,,,,,,,,&d=12345&r=0&v=strict",  # r=0 with dice: shown, not used
        "d=35142&r=1",  # no s: an empty sheet
    ],
)
def test_a_link_opens_its_position_and_advice(page: Page, server, cpython, query: str) -> None:
    expected = cpython(query)
    open_page(page, server, query)
    wait_for_advice(page, expected["query"])
    assert url_query(page) == expected["query"]  # rewritten in the canonical form
    assert_same_advice(page, expected)
    position = parse_query(query)
    for c, value in enumerate(position.sheet):
        expect_cell(page, c, value)
    for i, die in enumerate(position.dice or ()):
        expect(control(page, "button", f"Remove die {i + 1} ({die})")).to_be_visible()
    for roll in (1, 2, 3):
        expect(control(page, "radio", f"Roll {roll}")).to_be_checked(checked=roll == position.roll)
    expect(control(page, "radio", position.variant.name.capitalize())).to_be_checked()
    if position.roll == 0:
        expect(page.locator("#summary")).to_contain_text(f"expected final score {expected['expected']:.2f}")


def test_a_full_sheet_shows_the_final_score(page: Page, server, cpython) -> None:
    query = "s=3,6,9,12,15,18,22,0,25,15,30,50"
    expected = cpython(query)
    assert expected["over"]
    open_page(page, server, query)
    wait_for_advice(page, expected["query"])
    expect(page.get_by_test_id("result").locator(".verdict-words")).to_have_text(f"Final score {expected['score']}")
    expect(page.locator("#summary")).to_have_text("Game over.")
    expect(page.locator("#total")).to_have_text(str(expected["score"]))
    expect(page.get_by_test_id("option")).to_have_count(0)


# Editing --------------------------------------------------------------------------------------


def test_edits_update_the_advice_and_the_url(page: Page, server, cpython) -> None:
    open_page(page, server, "s=3,,9,,,18,,,,,30,&d=14466&r=2")

    def check(query: str) -> None:
        wait_for_advice(page, query)
        assert url_query(page) == query
        assert_same_advice(page, cpython(query))

    check("s=3,,9,,,18,,,,,30,&d=14466&r=2")
    control(page, "button", "Remove die 1 (1)").click()  # four dice: no position to advise yet
    check("s=3,,9,,,18,,,,,30,&r=0")
    expect(page.locator("#summary")).to_contain_text("Enter 1 more die for advice (expected ")
    control(page, "button", "Add 5").click()  # the order as entered is kept
    check("s=3,,9,,,18,,,,,30,&d=44665&r=2")
    control(page, "radio", "Roll 3").check()
    check("s=3,,9,,,18,,,,,30,&d=44665&r=3")
    set_cell(page, 6, 25)
    check("s=3,,9,,,18,25,,,,30,&d=44665&r=3")
    control(page, "radio", "Strict").check()
    check("s=3,,9,,,18,25,,,,30,&d=44665&r=3&v=strict")
    control(page, "radio", "Roll 1").check()
    check("s=3,,9,,,18,25,,,,30,&d=44665&r=1&v=strict")
    set_cell(page, 0, None)
    check("s=,,9,,,18,25,,,,30,&d=44665&r=1&v=strict")


def test_the_sheet_offers_only_possible_scores_and_previews_the_dice(page: Page, server) -> None:
    open_page(page, server, "s=,,,,,,,,,,,&d=33355&r=1")
    for variant in ("official", "strict"):
        control(page, "radio", variant.capitalize()).check()
        allowed = possible_scores(VARIANTS[variant])
        points = score_table(VARIANTS[variant])[roll_index((3, 3, 3, 5, 5))]
        for c in range(N_CATEGORIES):
            open_cell(page, c)
            values = page.locator("#picker-values button").evaluate_all("b => b.map(x => x.dataset.value)")
            assert sorted(values) == sorted(map(str, allowed[c]))  # no Clear: the cell is empty
            assert values[0] == str(points[c])  # these dice's points first
            open_cell(page, c)  # closes the picker
            expect(page.locator("#picker")).to_be_hidden()
    control(page, "radio", "Official").check()
    expect(cell(page, 8).locator(".preview")).to_have_text("→ 19")  # Full House: 3 3 3 5 5 = 19
    expect(cell(page, 2).locator(".preview")).to_have_text("→ 9")
    set_cell(page, 3, 16)
    set_cell(page, 5, 30)
    set_cell(page, 4, 20)
    expect(page.locator("#subtotal")).to_have_text("66 / 63")
    expect(page.locator("#bonus")).to_have_text("+35")
    expect(page.locator("#total")).to_have_text("101")
    set_cell(page, 5, None)
    expect(page.locator("#bonus")).to_have_text("27 more for +35")


def test_the_sheet_chips_write_a_score_in_one_tap_and_never_score_the_dice(page: Page, server) -> None:
    open_page(page, server, "s=,,,,,,,,,,,&d=33355&r=2")
    wait_for_advice(page, "s=,,,,,,,,,,,&d=33355&r=2")
    for variant in ("official", "strict"):
        control(page, "radio", variant.capitalize()).check()
        allowed = possible_scores(VARIANTS[variant])
        for c in range(N_CATEGORIES):
            chips = cell(page, c).locator(".quick-values button")
            values = chips.evaluate_all("b => b.map(x => Number(x.dataset.value))")
            # Every category with at most six scores has them all on the sheet, in order.
            assert values == (sorted(allowed[c]) if len(allowed[c]) <= 6 else []), c
    control(page, "radio", "Official").check()
    # The dice's points are marked: 3 3 3 5 5 scores 9 in Treys, 0 in Fours, 0 in B.Straight.
    for c, points in ((2, 9), (3, 0), (10, 0)):
        expect(chip(page, c, points)).to_have_class(re.compile(r"\bdice-points\b"))
    expect(chip(page, 2, 6)).not_to_have_class(re.compile(r"\bdice-points\b"))
    chip(page, 2, 6).click()  # a tap writes the score, at roll 2: no turn is played
    wait_for_advice(page, "s=,,6,,,,,,,,,&d=33355&r=2")
    expect(chip(page, 2, 6)).to_have_attribute("aria-pressed", "true")
    chip(page, 10, 30).click()
    wait_for_advice(page, "s=,,6,,,,,,,,30,&d=33355&r=2")
    chip(page, 2, 6).click()  # the pressed chip leaves the score: clearing is the picker's Clear
    page.wait_for_timeout(300)
    assert url_query(page) == "s=,,6,,,,,,,,30,&d=33355&r=2"
    expect(chip(page, 2, 6)).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#picker")).to_be_hidden()
    set_cell(page, 2, None)
    wait_for_advice(page, "s=,,,,,,,,,,30,&d=33355&r=2")
    expect(chip(page, 2, 6)).to_have_attribute("aria-pressed", "false")
    # Playing along, the sheet follows the game: its chips are disabled.
    open_cell(page, 5)
    control(page, "button", "Score 0 in Sixes").click()
    wait_for_advice(page, "s=,,,,,,,,,,30,&r=2&h=33355f")
    expect(chip(page, 5, 0)).to_have_attribute("aria-pressed", "true")
    for c in (0, 9, 11):
        expect(chip(page, c, 0)).to_be_disabled()


def test_scoring_from_the_sheet_is_a_labelled_action(page: Page, server) -> None:
    open_page(page, server, "s=,,,,,,,,,,,&d=66662&r=2")
    wait_for_advice(page, "s=,,,,,,,,,,,&d=66662&r=2")
    open_cell(page, 5)  # opening a cell scores nothing
    expect(page.locator("#picker")).to_be_visible()
    page.keyboard.press("Escape")  # closes it, the focus back on its cell
    expect(page.locator("#picker")).to_be_hidden()
    expect(cell(page, 5).locator(".open")).to_be_focused()
    open_cell(page, 5)
    assert url_query(page) == "s=,,,,,,,,,,,&d=66662&r=2"
    expect(page.locator("#picker-hint")).to_contain_text("This ends the turn now.")
    expect(page.locator("#picker-hint")).to_contain_text("Scoring starts playing along")
    control(page, "button", "Score 24 in Sixes").click()
    wait_for_advice(page, "r=2&h=66662f")


def test_a_variant_change_clears_scores_the_new_rules_cannot_give(page: Page, server) -> None:
    open_page(page, server, "s=,,,,,,,,5,,,&r=0")  # Full House 5: five aces, official rules only
    wait_for_advice(page, "s=,,,,,,,,5,,,&r=0")
    control(page, "radio", "Strict").check()
    wait_for_advice(page, "s=,,,,,,,,,,,&r=0&v=strict")
    expect_cell(page, 8, None)
    expect(page.locator("#note")).to_have_text("Cleared Full House: not a possible score under these rules.")


def test_the_keyboard_enters_dice_and_the_roll(page: Page, server) -> None:
    open_page(page, server)
    page.evaluate("document.activeElement?.blur()")  # keys go to the page, not a control left focused
    for key in "31366":
        page.keyboard.press(key)
    # The URL is written as the store changes; wait for it rather than read it at once (a busy machine).
    query_is = "q => location.search.slice(1) === q"
    page.wait_for_function(query_is, arg="s=,,,,,,,,,,,&d=31366&r=1")
    page.keyboard.press("r")
    page.wait_for_function(query_is, arg="s=,,,,,,,,,,,&d=31366&r=2")
    page.keyboard.press("Backspace")
    page.wait_for_function(query_is, arg="s=,,,,,,,,,,,&r=0")
    assert url_query(page) == "s=,,,,,,,,,,,&r=0"
    page.keyboard.press("4")
    wait_for_advice(page, "s=,,,,,,,,,,,&d=31364&r=2")


def test_following_the_advice_plays_the_game_along(page: Page, server, cpython) -> None:
    query = "s=,,,,,,,,,,,&d=56366&r=1"
    open_page(page, server, query)
    wait_for_advice(page, query)
    best = cpython(query)["options"][0]
    assert best["keep"] == [6, 6, 6]
    control(page, "button", "Keep 6 6 6 and roll again").click()
    # The position became a game record; the kept dice stay, two are to be entered.
    assert url_query(page) == "h=56366"
    expect(page.get_by_role("img", name="6, kept", exact=True)).to_have_count(3)
    expect(page.locator("#summary")).to_contain_text("Kept 6 6 6: enter the 2 dice you rolled again")
    expect(control(page, "radio", "Roll 2")).to_be_checked()
    expect(control(page, "radio", "Roll 2")).to_be_disabled()
    for die in (6, 2):
        control(page, "button", f"Add {die}").click()
    wait_for_advice(page, "h=56366-666-66662")
    assert page.locator("#options").get_attribute("data-position") == "s=,,,,,,,,,,,&d=66662&r=2"
    assert_same_advice(page, cpython("s=,,,,,,,,,,,&d=66662&r=2"))
    # Scoring on the sheet stops the turn early: Sixes 24 is written, turn 2 waits for dice.
    score_on_sheet(page, 5, "Sixes", 24)
    wait_for_advice(page, "h=56366-666-66662f")
    expect_cell(page, 5, 24)
    expect(page.locator("#sheet-locked")).to_be_visible()
    open_cell(page, 5)  # while playing along the sheet follows the game: no values to pick
    expect(page.locator("#picker-values")).to_be_hidden()
    open_cell(page, 5)
    expect(page.locator("#slots button")).to_have_count(0)
    expect(page.locator("#summary")).to_contain_text("Turn 2: enter the five dice you rolled")
    expect(page.locator("#total")).to_have_text("24")
    # Virtual dice: five random faces, roll 1 of turn 2.
    control(page, "button", "Roll for me").click()
    expect(page).to_have_url(re.compile(r"\?h=56366-666-66662f\.[1-6]{5}$"))
    record = url_query(page)
    wait_for_advice(page, record)
    position = page.locator("#options").get_attribute("data-position")
    assert position == f"s=,,,,,24,,,,,,&d={record[-5:]}&r=1"
    assert_same_advice(page, cpython(position))


def test_new_game_at_the_top_offers_its_choices_and_clears_the_sheet(page: Page, server) -> None:
    open_page(page, server, "s=3,,9,,,18,,,,,30,&d=14466&r=2&v=strict")
    start = control(page, "button", "New game")
    assert start.bounding_box()["y"] < 44  # in the header
    start.click()
    expect(page.locator("#start-note")).to_contain_text("The game shown stays on this device")
    control(page, "button", "Cancel").click()
    assert url_query(page) == "s=3,,9,,,18,,,,,30,&d=14466&r=2&v=strict"
    start.click()
    control(page, "button", "Alone").click()
    wait_for_advice(page, "s=,,,,,,,,,,,&r=0&v=strict")
    # Against a rival who starts: their column, empty, and what to do first.
    start.click()
    control(page, "button", "Against a rival: they start").click()
    wait_for_advice(page, "s=,,,,,,,,,,,&r=0&v=strict&o=,,,,,,,,,,,")
    expect(page.locator("#summary")).to_have_text("The rival starts: tap their column to enter their first score.")
    start.click()
    control(page, "button", "Against a rival: I start").click()
    expect(page.locator("#summary")).to_contain_text("Before rolling")


# Sharing and links ------------------------------------------------------------------------------


def test_a_shared_link_round_trips(make_context, server, cpython) -> None:
    context = make_context(permissions=["clipboard-read", "clipboard-write"])
    context.add_init_script("delete Navigator.prototype.share")  # no share sheet: the link is copied
    page = context.new_page()
    open_page(page, server)
    query = "s=,2,,12,,,,,,15,,&d=25322&r=2&v=strict"
    enter_position(page, query)
    wait_for_advice(page, query)
    first = page_options(page)
    control(page, "button", "Share").click()
    expect(page.get_by_role("status").filter(has_text="Link copied.")).to_be_visible()
    link = page.evaluate("navigator.clipboard.readText()")
    assert link == server.url(f"index.html?{query}")

    other = context.new_page()
    other.goto(link)
    expect(other.locator("html")).to_have_attribute("data-state", "ready")
    wait_for_advice(other, query)
    assert [(o["rank"], o["keep"], o["expected"]) for o in page_options(other)] == [
        (o["rank"], o["keep"], o["expected"]) for o in first
    ]
    assert_same_advice(other, cpython(query))


BAD_LINKS = [
    "s=,,,,,,,,,,,&x=1",  # unknown parameter
    "s=6,,,,,,,,,,,&d=12345&r=1",  # Aces cannot score 6
    "s=,,,,,,,,,,,&d=1234&r=1",  # four dice
    "s=,,,,,,,,,,,&d=12345&r=7",  # no roll 7
    "s=,,,,,,,,,,,&d=12345&r=1&v=house",  # unknown rule variant
    "s=,,,,,,,,,,,&r=2",  # dice missing
    "s=,,,,&r=1",  # too few fields
    "%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E=1",  # markup in the message is shown as text
]


@pytest.mark.parametrize("query", BAD_LINKS)
def test_a_bad_link_shows_the_cli_message_and_the_page_stays_usable(page: Page, server, query) -> None:
    with pytest.raises(PositionError) as raised:
        parse_query(query)
    open_page(page, server, query)
    error = page.get_by_test_id("error")
    expect(error).to_be_visible()
    expect(error).to_contain_text(str(raised.value))
    assert page.locator("main img").count() == 0
    assert url_query(page) == query  # the link stays as it was until something is changed
    expect(page.get_by_test_id("option")).to_have_count(0)
    # Still usable: new dice give a valid position (what could be read of the link is kept:
    # here an empty sheet), its advice, and the message goes.
    if page.locator("#slots button").count():
        control(page, "button", "Clear dice").click()
    for die in (1, 1, 2, 5, 6):
        control(page, "button", f"Add {die}").click()
    wait_for_advice(page, "s=,,,,,,,,,,,&d=11256&r=1")
    assert url_query(page) == "s=,,,,,,,,,,,&d=11256&r=1"
    expect(error).to_be_hidden()
    expect(page.get_by_test_id("option").first).to_be_visible()


# Layout, names, languages -----------------------------------------------------------------------


def test_nothing_overflows_at_390_by_844_and_controls_are_big_enough_to_tap(page: Page, server, artifacts) -> None:
    assert page.viewport_size == {"width": 390, "height": 844}
    open_page(page, server, "s=3,,9,,,18,,,,,30,&d=14466&r=1")
    wait_for_advice(page, "s=3,,9,,,18,,,,,30,&d=14466&r=1")
    widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1], widths
    page.screenshot(path=artifacts / "page-390x844.png", full_page=True)
    page.screenshot(path=artifacts / "page-390x844-viewport.png")
    small = page.evaluate(
        """() => [...document.querySelectorAll('button, select, .segmented label')]
            .filter(e => e.offsetParent !== null)
            .map(e => [e.getAttribute('aria-label') || e.textContent.trim(), e.getBoundingClientRect().height])
            .filter(([, h]) => h < 28)"""
    )
    assert small == []


def test_every_control_has_a_role_and_a_name(page: Page, server) -> None:
    open_page(page, server, "s=3,,9,,,18,,,,,30,&d=14466&r=3")
    wait_for_advice(page, "s=3,,9,,,18,,,,,30,&d=14466&r=3")
    tree = page.locator("body").aria_snapshot()
    unnamed = [line for line in tree.splitlines() if re.match(r"\s*- (button|combobox|radio|textbox)\s*(\[|:|$)", line)]
    assert unnamed == [], tree
    for name in ("Share", "New game", "Clear dice", "English", "日本語", "Score Choice", "Undo", "Redo", "Aces 3"):
        expect(control(page, "button", name)).to_be_visible()
    for name in ("Roll for me", "Review"):
        expect(control(page, "button", name)).to_be_visible()
    open_cell(page, 3)
    expect(control(page, "button", "Score 8 in Fours")).to_be_visible()
    for face in range(1, 7):
        expect(control(page, "button", f"Add {face}")).to_be_visible()


def test_japanese_comes_from_the_browser_and_the_switch_changes_it(make_context, server) -> None:
    context = make_context(locale="ja-JP")
    page = context.new_page()
    open_page(page, server, "s=,,,,,,,,,,,&d=12345&r=3")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    for c in range(N_CATEGORIES):
        expect(cell(page, c).locator(".name")).to_have_text(NAMES_JA[c])
    expect(control(page, "button", "日本語")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("option").first).to_contain_text("B.ストレート")
    control(page, "button", "English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(cell(page, 0).locator(".name")).to_have_text("Aces")
    expect(page.get_by_test_id("option").first).to_contain_text("B.Straight")
    page.reload()  # the choice is remembered
    expect(cell(page, 0).locator(".name")).to_have_text("Aces")


def test_the_page_loads_nothing_from_other_hosts(fresh_page: Page, server) -> None:
    hosts = set()
    fresh_page.context.on("request", lambda request: hosts.add(urlsplit(request.url).netloc))
    open_page(fresh_page, server, "s=,,,,,,,,,,,&d=12345&r=1")
    wait_for_advice(fresh_page, "s=,,,,,,,,,,,&d=12345&r=1")
    assert hosts == {f"127.0.0.1:{server.server_port}"}
