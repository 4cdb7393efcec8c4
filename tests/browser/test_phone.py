"""The page as a phone tool: a real mid-game position entered by taps on one screen, the verdict
in words, ties, Share's fallback, and narrow screens (320 × 640) without overflow or labels
broken inside a word; screenshots at 320 × 640, 390 × 844 and a desktop width, in English and
Japanese, are kept in artifacts/.
"""

import re

import pytest
from playwright.sync_api import Page, expect
from yacht.core.categories import NAMES_EN, NAMES_JA
from yacht.core.position import parse_query

from .page_helpers import (
    TIE,
    assert_same_advice,
    cell,
    chip,
    control,
    open_cell,
    open_page,
    page_options,
    url_query,
    visit,
    wait_for_advice,
)
from .test_play import RECORD

pytestmark = pytest.mark.browser

MINUS = "\u2212"

TASK = "s=3,,9,,,18,22,,,,30,&d=22556&r=2"
"""Aces 3, Treys 9, Sixes 18, Choice 22, B.Straight 30; dice 2 2 5 5 6 after the second roll."""

ADD_DIE = {"en": "Add {}", "ja": "{}を追加"}


def signed(x: float) -> str:
    """As the page writes a change of the expected score."""
    return "0.00" if abs(x) < 0.005 else f"+{x:.2f}" if x > 0 else f"{MINUS}{-x:.2f}"


def best_of(options: list[dict]) -> dict:
    """The option the verdict names: among those tied with the first, the simplest (stop and
    score first, then the fewest dice rerolled), else the first."""
    tied = [o for o in options if options[0]["expected"] - o["expected"] <= TIE]

    def simpler(o: dict) -> int:
        return 0 if "category" in o else 1 + 5 - len(o["keep"])

    return min(enumerate(tied), key=lambda pair: (simpler(pair[1]), pair[0]))[1]


IN_VIEW = """e => {
    const r = e.getBoundingClientRect();
    return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth && r.height > 0;
}"""
"""Whether an element is wholly inside the viewport (for Locator.evaluate)."""


def in_view(locator) -> bool:
    return locator.evaluate(IN_VIEW)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_mid_game_position_is_entered_and_read_on_one_screen(make_context, server, cpython, artifacts, language):
    page = make_context(locale="ja-JP" if language == "ja" else "en-US").new_page()
    open_page(page, server)
    taps = 0

    def tap(locator) -> None:
        nonlocal taps
        locator.click()
        taps += 1

    position = parse_query(TASK)
    for die in position.dice:
        tap(control(page, "button", ADD_DIE[language].format(die)))
    tap(page.locator("fieldset.roll label").nth(position.roll - 1))
    for c, value in enumerate(position.sheet):
        if value is None:
            continue
        if chip(page, c, value).count():  # one tap on the sheet's chip
            tap(chip(page, c, value))
        else:  # Choice: its name, then the score in the picker
            tap(cell(page, c).locator(".open"))
            tap(page.locator(f"#picker-values button[data-value='{value}']"))
    wait_for_advice(page, TASK)
    assert url_query(page) == TASK
    # Five dice, the roll, three upper scores and B.Straight by their chips, Choice by its picker.
    assert taps == 12, taps

    expected = cpython(TASK)
    assert_same_advice(page, expected, NAMES_JA if language == "ja" else NAMES_EN)
    verdict = page.get_by_test_id("verdict")
    best = best_of(expected["options"])
    assert float(verdict.get_attribute("data-expected")) == pytest.approx(best["expected"], abs=1e-4)
    assert verdict.get_attribute("data-keep") == "".join(map(str, best["keep"]))
    # Everything the player needs is on the first screen: the verdict, the dice, every cell.
    assert page.evaluate("scrollY") == 0
    things = [verdict, *page.get_by_test_id("die").all(), *page.get_by_test_id("cell").all()]
    assert len(things) == 1 + 5 + 12
    assert all(in_view(e) for e in things)
    assert in_view(page.locator("#verdict-apply")) and in_view(page.locator("#share"))
    page.screenshot(path=artifacts / f"task-390x844-{language}.png")


def no_clashes(page: Page) -> list[str]:
    """What is wrong on the screen: a horizontal scroll, a control whose label overflows it or
    breaks inside a word (a run of text without spaces split over two lines: in Japanese a
    whole phrase), and overlapping parts of an option or of the verdict."""
    return page.evaluate(
        """() => {
        const out = [];
        const root = document.documentElement;
        if (root.scrollWidth > root.clientWidth) out.push(`page scrolls: ${root.scrollWidth} > ${root.clientWidth}`);
        const visible = e => e.offsetParent !== null && e.getClientRects().length > 0
            && !e.closest('.visually-hidden');
        const labels = document.querySelectorAll(
            'button, .segmented label span, summary, legend, .cell .name, .verdict-words, .sums, h1, h2');
        for (const e of [...labels].filter(visible)) {
            // A segment's label, or the title, spills over its neighbour without clipping: an overflow too.
            const clipped = getComputedStyle(e).overflow !== 'visible'
                || e.matches('.segmented label span, #opponent-toggle, .topbar h1');
            if (e.scrollWidth > e.clientWidth + 1 && clipped)
                out.push(`overflows: ${e.textContent.trim()}`);
            const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
            for (let node; (node = walker.nextNode()); ) {
                for (const m of node.textContent.matchAll(/\\S+/g)) {
                    const range = document.createRange();
                    range.setStart(node, m.index);
                    range.setEnd(node, m.index + m[0].length);
                    const rects = [...range.getClientRects()].filter(r => r.width > 0);
                    const tops = new Set(rects.map(r => Math.round(r.top)));
                    if (tops.size > 1) out.push(`broken: ${m[0]}`);
                }
            }
            const box = e.getBoundingClientRect();
            if (box.right > root.clientWidth + 0.5 || box.left < -0.5) out.push(`off screen: ${e.textContent.trim()}`);
        }
        const apart = (a, b) => a.right <= b.left + 0.5 || b.right <= a.left + 0.5
            || a.bottom <= b.top + 0.5 || b.bottom <= a.top + 0.5;
        for (const item of document.querySelectorAll('[data-testid=option]')) {
            const parts = ['.what', '.figures', '.apply'].map(s => item.querySelector(s).getBoundingClientRect());
            if (!apart(parts[0], parts[1]) || !apart(parts[1], parts[2]) || !apart(parts[0], parts[2]))
                out.push(`option ${item.dataset.rank} overlaps`);
            // The dice drawn for a keep stay inside their part (five did not at 320 px: over the chance).
            const kept = item.querySelector('.what .kept');
            if (kept && kept.getBoundingClientRect().right > parts[0].right + 0.5)
                out.push(`option ${item.dataset.rank}: its dice run out of their part`);
        }
        return out;
    }"""
    )


SCREENS = [(320, 640), (390, 844), (1280, 800)]
SCREEN_LANGUAGES = [(*SCREENS[0], "ja"), (*SCREENS[1], "en"), (*SCREENS[2], "ja")]
"""Every size and both languages in make test; the other three pairs in make test-slow."""


@pytest.mark.parametrize(
    ("width", "height", "language"),
    [
        *SCREEN_LANGUAGES,
        *(
            pytest.param(w, h, lang, marks=pytest.mark.slow)
            for w, h in SCREENS
            for lang in ("en", "ja")
            if (w, h, lang) not in SCREEN_LANGUAGES
        ),
    ],
)
def test_every_screen_size_without_overflow_or_broken_labels(
    make_context, server, artifacts, language, width, height
) -> None:
    context = make_context(locale="ja-JP" if language == "ja" else "en-US", viewport={"width": width, "height": height})
    page = context.new_page()
    name = f"{width}x{height}-{language}"
    open_page(page, server, TASK)
    wait_for_advice(page, TASK)
    assert no_clashes(page) == []
    page.screenshot(path=artifacts / f"page-{name}.png")
    page.screenshot(path=artifacts / f"page-{name}-full.png", full_page=True)
    # Four- and five-dice keeps beside their figures.
    visit(page, server, "s=,,,,,,,,,,,&d=66665&r=1")
    wait_for_advice(page, "s=,,,,,,,,,,,&d=66665&r=1")
    assert no_clashes(page) == []
    # A cell's picker open, and a bad link's message with its fix.
    open_cell(page, 6)
    expect(page.locator("#picker")).to_be_visible()
    assert no_clashes(page) == []
    page.screenshot(path=artifacts / f"picker-{name}.png")
    visit(page, server, "s=6,,,,,,,,,,,&d=12345&r=1")
    expect(page.locator("#error-fix")).to_be_visible()
    assert no_clashes(page) == []
    page.screenshot(path=artifacts / f"error-{name}.png")
    # A finished game and its review.
    visit(page, server, RECORD)
    wait_for_advice(page, RECORD)
    page.locator("#verdict-apply").click()  # "Review this game"
    expect(page.get_by_test_id("review")).to_have_attribute("data-query", RECORD)
    assert no_clashes(page) == []
    page.get_by_test_id("review").screenshot(path=artifacts / f"review-{name}.png")
    # Playing to win: the opponent's sheet, the chances, the switch and the histogram.
    goal = f"{TASK}&o=5,,12,,,24,,,,15,30,"
    visit(page, server, goal)
    wait_for_advice(page, goal)
    expect(page.get_by_test_id("histogram")).to_have_attribute("data-query", goal)
    assert no_clashes(page) == []
    page.screenshot(path=artifacts / f"goal-{name}-full.png", full_page=True)


# (position, the verdict's words, the dice it marks to reroll)
VERDICTS = [
    ("s=3,,9,,,18,,,,,30,&d=14466&r=1", "Keep 4 4 — reroll 1 6 6", [0, 3, 4]),
    ("s=,,,,,,,,,,,&d=66661&r=2", "Keep 6 6 6 6 — reroll the 1", [4]),
    ("s=,,,,,,,,,,,&d=66666&r=1", "Stop here: Yacht 50", []),
    ("s=3,,9,,,18,,,,,30,&d=14466&r=3", None, []),
]


@pytest.mark.parametrize(("query", "words", "rerolled"), VERDICTS)
def test_the_verdict_says_what_to_do_in_words(one_page, server, cpython, query, words, rerolled) -> None:
    page, events = one_page
    visit(page, server, query)
    wait_for_advice(page, query)
    expected = cpython(query)
    options = expected["options"]
    verdict = page.get_by_test_id("verdict")
    best = best_of(options)
    if words is None:  # roll 3: a category, scored now
        assert "keep" not in best
        words = f"Score {NAMES_EN[best['category']]}: {best['points']}"
        expect(verdict).to_have_attribute("data-category", str(best["category"]))
    expect(verdict.locator(".verdict-words")).to_have_text(words)
    assert float(verdict.get_attribute("data-expected")) == pytest.approx(best["expected"], abs=1e-4)
    if "keep" in best:
        expect(verdict).to_have_attribute("data-keep", "".join(map(str, best["keep"])))
    following = [o for o in options if best["expected"] - o["expected"] > TIE]
    if following:
        expect(verdict.locator(".verdict-margin")).to_contain_text("Next best: ")
        expect(verdict.locator(".verdict-margin")).to_contain_text(signed(following[0]["expected"] - best["expected"]))
    marks = page.get_by_test_id("die").evaluate_all("d => d.map((e, i) => e.hasAttribute('data-reroll') ? i : -1)")
    assert [i for i in marks if i >= 0] == rerolled
    assert events == []


def test_the_verdict_plays_the_best_option(one_page, server) -> None:
    page, events = one_page
    visit(page, server, "s=,,,,,,,,,,,&d=56366&r=1")
    wait_for_advice(page, "s=,,,,,,,,,,,&d=56366&r=1")
    control(page, "button", "Keep (the best)").click()
    expect(page).to_have_url(re.compile(r"\?h=56366$"))
    expect(page.get_by_role("img", name="6, kept", exact=True)).to_have_count(3)
    assert events == []


def test_tied_options_share_a_rank_and_the_simplest_comes_first(one_page, server, cpython) -> None:
    page, events = one_page
    query = "s=1,2,3,4,5,6,7,8,9,15,30,&d=12345&r=1"  # only Yacht left: keeping one die = rerolling all
    visit(page, server, query)
    wait_for_advice(page, query)
    expected = cpython(query)
    assert_same_advice(page, expected)
    shown = page_options(page)
    first = [o for o in shown if o["rank"] == 1]
    assert len(first) == 6  # five single-die keeps and rerolling all five
    assert [len(o["keep"]) for o in first] == [1, 1, 1, 1, 1, 0]  # fewer dice rerolled first
    verdict = page.get_by_test_id("verdict")
    expect(verdict).to_have_attribute("data-keep", first[0]["keep"])
    expect(verdict.locator(".verdict-margin")).to_have_text("Tied with 5 other options (the simplest shown)")
    assert events == []


NO_SHARE_NO_CLIPBOARD = """
delete Navigator.prototype.share;
Object.defineProperty(Navigator.prototype, "clipboard", {
  configurable: true,
  get() { return { writeText: () => Promise.reject(new DOMException("denied", "NotAllowedError")) }; },
});
"""


def test_share_without_share_sheet_or_clipboard_shows_the_link_in_view_selected(make_context, server) -> None:
    context = make_context()
    context.add_init_script(NO_SHARE_NO_CLIPBOARD)
    page = context.new_page()
    open_page(page, server, TASK)
    wait_for_advice(page, TASK)
    share = control(page, "button", "Share")
    assert in_view(share)  # next to the verdict
    share.click()
    link = page.locator("#link")
    expect(link).to_be_visible()
    expect(link).to_have_value(server.url(f"index.html?{TASK}"))
    assert in_view(link)
    assert link.evaluate(
        "e => document.activeElement === e && e.selectionStart === 0 && e.selectionEnd === e.value.length"
    )
    expect(page.locator("#note")).to_have_text("Copy the link below.")
