"""The advisor page in headless Chromium, checked against the CPython advisor: loading, links,
the advice of positions entered (entering and editing on the sheet: ``test_page_entry.py``).

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
from yacht.core.position import PositionError, parse_query
from yacht.core.rules import VARIANTS, possible_scores

from .conftest import forget_saved
from .page_helpers import (
    assert_same_advice,
    cell,
    control,
    expect_cell,
    open_cell,
    open_page,
    page_options,
    refused_then_usable,
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
    the URL, and the URL read after the rules then dropped it), nor may the runtime's start (a warm
    start, ready before the rules arrive) ask for advice before the position can be read."""
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
        expect(page.locator("html")).to_have_attribute("data-state", "ready")  # the runtime, before the rules
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
    for roll in (1, 2, 3):  # before rolling (r=0), Roll 1: the roll of the dice to enter
        expect(control(page, "radio", f"Roll {roll}")).to_be_checked(checked=roll == max(position.roll, 1))
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
    # Still usable: new dice give a valid position (what could be read of the link is kept:
    # here an empty sheet), its advice, and the message goes.
    refused_then_usable(page, query)
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


def test_a_language_kept_on_the_shared_context_is_forgotten_before_the_next_module(shared_context, server) -> None:
    """The tests' shared context keeps what a page saves (the language chosen, in localStorage) from
    one module to the next; ``one_page`` forgets it at each module's start (``forget_saved``), so a
    module never starts in the language an earlier one chose (test_phone did, in Japanese)."""
    page = shared_context.new_page()
    try:
        open_page(page, server, "s=,,,,,,,,,,,&d=12345&r=3")
        control(page, "button", "日本語").click()
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", "ja")  # kept on the device
        forget_saved(page, server)
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", "en")  # the context's locale
    finally:
        forget_saved(page, server)
        page.close()


def test_the_page_loads_nothing_from_other_hosts(fresh_page: Page, server) -> None:
    hosts = set()
    fresh_page.context.on("request", lambda request: hosts.add(urlsplit(request.url).netloc))
    open_page(fresh_page, server, "s=,,,,,,,,,,,&d=12345&r=1")
    wait_for_advice(fresh_page, "s=,,,,,,,,,,,&d=12345&r=1")
    assert hosts == {f"127.0.0.1:{server.server_port}"}
