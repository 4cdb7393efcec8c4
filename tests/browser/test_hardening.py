"""Hostile links and a hostile browser: the page ends in a clear message with its fix, or in
working advice, never in a script error, a hang or a request it should not make.

Each case here once failed on the page (issue 10): rule-variant names that are JavaScript
object properties, site data blocked, outside text shown raw, errors in English on a Japanese
page, the review's decision cards at 320 px.
"""

import re

import pytest
from playwright.sync_api import Page, expect
from yacht.core.position import PositionError, parse_query
from yacht.play.game import GameError, parse_game

from .conftest import own_watched_page
from .page_helpers import cell, control, open_page, url_query, visit, wait_for_advice
from .test_play import RECORD

pytestmark = pytest.mark.browser

CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def python_message(query: str) -> str:
    """The CLI's message for a bad query (a game record when it has h=)."""
    parse = parse_game if "h=" in query else parse_query
    with pytest.raises((PositionError, GameError)) as raised:
        parse(query)
    return str(raised.value)


# (link, the position the page goes on from once the rules are fixed)
PROPERTY_VARIANTS = [
    ("v=toString", "s=,,,,,,,,,,,&r=0"),
    ("v=__proto__&s=1,,,,,,,,,,,", "s=1,,,,,,,,,,,&r=0"),
    ("v=constructor&h=12345a", "s=,,,,,,,,,,,&r=0"),
    ("v=hasOwnProperty&d=12345&r=1", "s=,,,,,,,,,,,&d=12345&r=1"),
]


@pytest.mark.parametrize(("query", "fixed"), PROPERTY_VARIANTS)
def test_a_variant_named_like_a_javascript_property_is_an_unknown_variant(page: Page, server, query, fixed) -> None:
    message = python_message(query)
    assert message.startswith("v: unknown rule variant")
    server.requested.clear()
    open_page(page, server, query, load=True)  # loads: no "Loading…" forever
    expect(page.locator("#error-message")).to_have_text(message)
    name = query.split("&")[0].removeprefix("v=")
    expect(page.locator("#error-text")).to_have_text(f"This link asks for unknown rules '{name}'.")
    expect(page.locator("fieldset.variant")).to_have_attribute("data-invalid", "")
    for c in range(12):  # a sheet with its names
        expect(cell(page, c).locator(".name")).not_to_be_empty()
    assert not [path for path in server.requested if "undefined" in path or name in path]
    # The fix: the official rules, from what could be read of the link.
    control(page, "button", "Use the official rules").click()
    wait_for_advice(page, fixed)
    assert url_query(page) == fixed
    expect(page.get_by_test_id("error")).to_be_hidden()
    # Choosing the rules works too, both ways.
    control(page, "radio", "Strict").check()
    wait_for_advice(page, f"{fixed}&v=strict")
    control(page, "radio", "Official").check()
    wait_for_advice(page, fixed)


def test_a_variant_named_like_a_property_then_retry_after_a_failed_load(warm_page: Page, server) -> None:
    page = warm_page
    with server.fail("/tables/yacht-official.table", 503):
        page.goto(server.url("index.html?v=hasOwnProperty&d=12345&r=1"))
        expect(page.locator("html")).to_have_attribute("data-state", "error")
        expect(page.get_by_test_id("error")).to_contain_text("Could not load the advisor (Table)")
    control(page, "button", "Retry").click()
    expect(page.locator("html")).to_have_attribute("data-state", "ready")
    expect(page.locator("#error-message")).to_have_text(python_message("v=hasOwnProperty&d=12345&r=1"))


BLOCKED_STORAGE = """
Object.defineProperty(window, "localStorage", {
  configurable: true,
  get() { throw new DOMException("The operation is insecure.", "SecurityError"); },
});
"""


def test_the_page_works_when_site_data_is_blocked(make_context, server, cpython) -> None:
    context = make_context(locale="ja-JP")
    context.add_init_script(BLOCKED_STORAGE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    query = "s=,,,,,,,,,,,&d=12345&r=1"
    open_page(page, server, query)
    assert page.evaluate("(() => { try { localStorage; return false; } catch { return true; } })()")
    wait_for_advice(page, query)
    expect(page.locator("html")).to_have_attribute("lang", "ja")  # the browser's language
    expect(page.locator("#keypad button")).to_have_count(6)
    control(page, "button", "English").click()  # works, only it is not remembered
    expect(page.locator("html")).to_have_attribute("lang", "en")
    control(page, "button", "Add 6").click()  # five dice were there: a new entry starts
    wait_for_advice(page, "s=,,,,,,,,,,,&r=0")
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-state", "ready")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    assert errors == []


# (link, the parameter's name as the page must quote it)
OUTSIDE_NAMES = [
    ("%0A=1", r"'\n'"),
    ("%1B[2J%1B[31mRED=1", r"'\x1b[2J\x1b[31mRED'"),
    ("s=,,,,,,,,,,,&%E2%80%AEevil=1", r"'\u202eevil'"),
]


@pytest.mark.parametrize(("query", "quoted"), OUTSIDE_NAMES)
def test_outside_text_in_a_message_is_quoted(one_page, server, query, quoted) -> None:
    page, events = one_page
    visit(page, server, query)
    headline = page.locator("#error-text")
    expect(headline).to_have_text(f"This link has a parameter the advisor does not know: {quoted}.")
    assert not CONTROL_CHARACTERS.search(headline.text_content())
    control(page, "button", f"Ignore {quoted}").click()
    wait_for_advice(page, "s=,,,,,,,,,,,&r=0")
    assert events == []


# (link, the Japanese headline, what it highlights, the fix's label, the position after the fix)
JAPANESE_ERRORS = [
    (
        "s=6,,,,,,,,,,,&d=12345&r=1",
        "このリンクの「エース」の得点は、ありえない値です。",
        "[data-testid=cell][data-category='0']",
        "「エース」を消す",
        "s=,,,,,,,,,,,&d=12345&r=1",
    ),
    (
        "s=,,,,,,,,,,,&d=1234&r=1",
        "このリンクのサイコロの目が正しくありません。",
        "#slots",
        "リンクのサイコロを外す",
        "s=,,,,,,,,,,,&r=0",
    ),
    ("v=house", "このリンクのルール 'house' は不明です。", "fieldset.variant", "公式ルールにする", "s=,,,,,,,,,,,&r=0"),
    (
        "h=14466g.12345g",
        "このリンクのゲーム記録は2ターン目がルールに合いません。それより前は有効です。",
        None,
        "1ターン目までを残し、以降を外す",
        "h=14466g",
    ),
    ("h=hello", "このリンクのゲーム記録は、ルールどおりのゲームではありません。", None, None, None),
]


@pytest.fixture(scope="module")
def japanese_page(browser, server, runtime, warm_snapshot):
    """A page whose browser speaks Japanese (a context of its own), for the Japanese messages: the
    first link loads it, the others open as a shared link opened in it would (``visit``)."""
    yield from own_watched_page(browser, server, runtime, locale="ja-JP")


@pytest.mark.parametrize(("query", "headline", "target", "fix", "fixed"), JAPANESE_ERRORS)
def test_a_bad_link_is_explained_in_japanese_with_its_fix(
    japanese_page, server, query, headline, target, fix, fixed
) -> None:
    page, events = japanese_page
    seen = len(events)
    open_page(page, server, query)
    expect(page.locator("#error-text")).to_have_text(headline)
    expect(page.locator("#error-message")).to_have_text(python_message(query))  # the CLI's, under 詳細
    expect(page.locator("#error-details summary")).to_have_text("詳細")
    if target:
        expect(page.locator(target)).to_have_attribute("data-invalid", "")
    if fix:
        control(page, "button", fix).click()
        wait_for_advice(page, fixed)
        expect(page.get_by_test_id("error")).to_be_hidden()
        expect(page.locator("[data-invalid]")).to_have_count(0)
    assert events[seen:] == [], f"script errors or dialogs on the page: {events[seen:]}"


def test_review_cards_at_320_px_keep_the_dice_and_the_loss_apart(make_context, server) -> None:
    page = make_context(viewport={"width": 320, "height": 640}).new_page()
    open_page(page, server, RECORD)
    wait_for_advice(page, RECORD)
    control(page, "button", "Review").click()
    expect(page.get_by_test_id("review")).to_have_attribute("data-query", RECORD)
    clashes = page.get_by_test_id("decision").evaluate_all(
        """items => items.flatMap(item => {
            const box = item.querySelector('button').getBoundingClientRect();
            const parts = ['.where', '.kept', '.loss', '.chosen']
                .map(s => item.querySelector(s).getBoundingClientRect());
            const dice = [...item.querySelectorAll('.kept .die')].map(d => d.getBoundingClientRect());
            const inside = r => r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
            const apart = (a, b) => a.right <= b.left + 0.5 || b.right <= a.left + 0.5
                || a.bottom <= b.top + 0.5 || b.bottom <= a.top + 0.5;
            const out = [];
            const where = `decision ${item.dataset.index}`;
            [...parts, ...dice].forEach((r, i) => { if (!inside(r)) out.push(`${where}: part ${i} outside`); });
            for (let i = 0; i < parts.length; i++)
                for (let j = i + 1; j < parts.length; j++)
                    if (!apart(parts[i], parts[j])) out.push(`${where}: parts ${i} and ${j} overlap`);
            dice.forEach((d, i) => { if (!apart(d, parts[2])) out.push(`${where}: die ${i + 1} under the loss`); });
            return out;
        })"""
    )
    assert clashes == []
