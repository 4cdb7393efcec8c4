"""The coach on the page: the "Why?" panel under the verdict and in every option shows what
yacht.api.explain_query (CPython) says, in English and Japanese; its files (.bonus, .points) are
fetched only once an explanation is asked for, and a failure says so with Retry; the controls work
from the keyboard; axe finds nothing with the panels open."""

import pytest
from playwright.sync_api import Page, expect
from yacht.api import explain_query
from yacht.cli.coach_text import aims_words, why_words
from yacht.core.categories import NAMES_EN, NAMES_JA
from yacht.core.position import format_query, parse_query

from .conftest import warm_context
from .page_helpers import open_page, visit, wait_for_advice
from .test_accessibility import violations

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def language_page(browser, server, runtime, warm_snapshot):
    """``language_page(language)``: the module's page in that language (the browser's locale, in a
    context of its own), shared by the tests that read the panels wherever they stand. The tests
    that count the coach files' fetches, fail them, or need the panels as a first visit leaves
    them have pages of their own."""
    pages: dict[str, Page] = {}

    def get(language: str) -> Page:
        if language not in pages:
            context = warm_context(browser, server, runtime, locale="ja-JP" if language == "ja" else "en-US")
            pages[language] = context.new_page()
        return pages[language]

    yield get
    for page in pages.values():
        page.context.close()


ROLL_1 = "s=,,,,,,,,,,,&d=14466&r=1"
POSITIONS = (
    ROLL_1,
    "s=3,,9,,,18,,,,,30,&d=14466&r=2",
    "s=3,,9,,,18,22,,,,30,&d=22556&r=1",
    "s=,,,,,,,,,,,&d=22255&r=1&v=strict",
    "s=3,,9,,,18,22,,,,30,&d=22556&r=2&v=strict",
    "s=3,,9,,,18,22,,,,30,&d=22556&r=2&o=5,,12,,,24,,,,15,30,",
    "s=3,,9,,,18,22,,,,30,&d=22556&r=2&t=200",
)
"""Roll 1 and 2, official and strict, one against an opponent (o=) and one with a score to reach (t=)."""
NAMES = {"en": NAMES_EN, "ja": NAMES_JA}
EXACT = 1e-9
COACH_SUFFIXES = (".bonus", ".points")

READ = """box => {
    const aim = e => ({ kind: e.dataset.kind, category: Number(e.dataset.category), p: Number(e.dataset.p),
        mean_points: Number(e.dataset.meanPoints), scratch: Number(e.dataset.scratch), text: e.textContent });
    const line = l => l && ({ play: l.dataset.play, option: l.dataset.option ?? null, text: l.textContent,
        aims: [...l.querySelectorAll('[data-testid=aim]')].map(aim),
        bonus: l.querySelector('[data-testid=bonus-chance]')
            ? Number(l.querySelector('[data-testid=bonus-chance]').dataset.p) : null });
    const why = box.querySelector('[data-testid=why]');
    return {
        average: line(box.querySelector('.aims[data-play=average]')),
        lines: [...box.querySelectorAll('.aims')].map(line),
        why: [...box.querySelectorAll('[data-testid=why-term]')].map(e => ({
            category: e.dataset.category, points: Number(e.dataset.points) })),
        whyText: why?.textContent ?? null,
        whyTotal: why?.dataset.total === undefined ? null : Number(why.dataset.total),
        text: box.textContent,
    };
}"""
"""What a coach's box shows (the panel, an option's Why?, a decision's): its line under the
average's play (``average``), every aims line (``play``: "average" or "goal"; ``option``: "best"
or "chosen" in a decision's; its words and entries), the terms of why shown, its words and total."""


def beside_goal(shown: dict) -> bool:
    """Whether a box shows a line under the goal's play: the average's line then leads with "on
    average, plays for" (coach_text.aims_lead's ``beside``)."""
    return any(line["play"] == "goal" for line in shown["lines"])


def canonical(query: str) -> str:
    return format_query(parse_query(query))


def key(option: dict) -> str:
    """As views/coach-lines.js's optionKey."""
    if "keep" in option:
        return f"k{''.join(map(str, option['keep']))}:{option.get('category', '')}"
    return f"c{option['category']}"


def assert_entries(line: dict, aims: list[dict]) -> None:
    """Every entry of an aims line is one of explain_query's ``aims``, with its numbers."""
    by = {a["category"]: a for a in aims}
    assert line["aims"], "the line names what the option plays for"
    for aim in line["aims"]:
        want = by[aim["category"]]
        assert aim["p"] == pytest.approx(want["p"], abs=EXACT)
        assert aim["mean_points"] == pytest.approx(want["mean_points"], abs=EXACT)
        assert aim["scratch"] == pytest.approx(want["scratch"], abs=EXACT)
        assert aim["kind"] == "score" or want["scratch"] > 0


def assert_explains(shown: dict, option: dict, best: dict, other: dict | None, variant: str, language: str) -> None:
    """A panel shows, in the command line's words (yacht.cli.coach_text), what ``option`` plays for
    and why ``best`` beats ``other`` (None: no why), with explain_query's numbers in its data."""
    assert shown["average"]["text"] == aims_words(option, variant, language, beside=beside_goal(shown))
    if option.get("plan", {}) and option["plan"]["kind"] in ("score", "scratch"):
        assert shown["average"]["aims"] == []
    else:
        assert_entries(shown["average"], option["aims"])
    assert shown["average"]["bonus"] == pytest.approx(option["bonus"], abs=EXACT)
    if other is None:
        assert shown["whyText"] is None
        return
    why = other["why"]
    assert shown["whyText"] == why_words(best, other, why, language)
    assert shown["whyTotal"] == pytest.approx(why["total"], abs=EXACT)
    wanted = [why["terms"][i] for i in why["shown"]]
    assert [t["category"] for t in shown["why"]] == [str(t["category"]) for t in wanted]
    assert [t["points"] for t in shown["why"]] == pytest.approx([t["points"] for t in wanted], abs=EXACT)


def open_why(page: Page) -> None:
    button = page.locator("#why")
    expect(button).to_be_enabled()
    if button.get_attribute("aria-expanded") != "true":
        button.click()
    expect(button).to_have_attribute("aria-expanded", "true")


def set_open(item, open_: bool) -> None:
    """Open or close an option's Why? (a tap on its summary, when it is not so already)."""
    if (item.get_attribute("open") is not None) != open_:
        item.locator("summary").click()
    if open_:
        expect(item).to_have_attribute("open", "")
    else:
        expect(item).not_to_have_attribute("open", "")


def explanation_of(page: Page, query: str) -> dict:
    """The panel under the verdict once it shows the explanation of ``query``."""
    panel = page.locator("[data-testid=explanation]")
    expect(panel).to_be_visible()
    expect(panel).not_to_have_attribute("aria-busy", "true", timeout=60_000)
    expect(panel.locator("[data-testid=bonus-chance]")).to_be_visible()
    return panel.evaluate(READ)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_why_panels_show_explain_query_numbers_in_words(language_page, server, tables, artifacts, language) -> None:
    page = language_page(language)
    page.set_viewport_size({"width": 390, "height": 844})
    for number, query in enumerate(POSITIONS):
        canon = canonical(query)
        if number == 0:
            open_page(page, server, query)
        else:
            visit(page, server, query)
        wait_for_advice(page, canon)
        open_why(page)
        expected = explain_query(canon, tables)
        options = expected["options"]
        # The panel: the advice's best, against the next best.
        page.wait_for_function(
            "k => document.querySelector('#explanation').dataset.key === k", arg=key(options[0]), timeout=60_000
        )
        shown = explanation_of(page, canon)
        assert_explains(shown, options[0], options[0], options[1], expected["variant"], language)
        if number == 0:
            page.screenshot(path=str(artifacts / f"coach-roll1-{language}-390x844.png"))
        # An option's Why?: that option, against the best.
        other = next(o for o in options[1:] if o["why"]["shown"])
        item = page.locator(f"[data-testid=option-why][data-key='{key(other)}']")
        set_open(item, True)
        body = item.locator(".why-body")
        expect(body).to_have_attribute("data-key", key(other))
        assert_explains(body.evaluate(READ), other, options[0], other, expected["variant"], language)
        if number == 0:
            item.scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / f"coach-option-{language}-390x844.png"))
        set_open(item, False)


def test_the_coach_files_are_fetched_only_once_why_is_tapped(make_context, server) -> None:
    page = make_context().new_page()
    start = len(server.requested)
    open_page(page, server, ROLL_1)
    wait_for_advice(page, canonical(ROLL_1))
    page.wait_for_timeout(500)
    coach = lambda: [p for p in server.requested[start:] if p.endswith(COACH_SUFFIXES)]  # noqa: E731
    assert coach() == []
    open_why(page)
    explanation_of(page, canonical(ROLL_1))
    assert sorted(coach()) == ["/tables/yacht-official.bonus", "/tables/yacht-official.points"]


def test_a_coach_file_that_fails_to_load_is_said_with_retry(make_context, server) -> None:
    page = make_context().new_page()
    open_page(page, server, ROLL_1)
    wait_for_advice(page, canonical(ROLL_1))
    server.failing["/tables/yacht-official.points"] = 404
    try:
        open_why(page)
        panel = page.locator("[data-testid=explanation]")
        expect(panel.locator(".why-error")).to_contain_text("yacht-official.points", timeout=60_000)
        expect(page.locator("[data-testid=verdict]")).to_be_visible()  # the advice stays
    finally:
        del server.failing["/tables/yacht-official.points"]
    panel.locator(".why-retry").click()
    explanation_of(page, canonical(ROLL_1))


def test_why_works_from_the_keyboard_and_keeps_the_focus(make_context, server) -> None:
    page = make_context().new_page()
    open_page(page, server, ROLL_1)
    wait_for_advice(page, canonical(ROLL_1))
    button = page.locator("#why")
    button.focus()
    page.keyboard.press("Enter")
    expect(button).to_have_attribute("aria-expanded", "true")
    explanation_of(page, canonical(ROLL_1))
    expect(button).to_be_focused()
    page.keyboard.press("Space")
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(page.locator("[data-testid=explanation]")).to_be_hidden()
    expect(button).to_be_focused()
    summary = page.locator("[data-testid=option-why] summary").nth(1)
    summary.focus()
    page.keyboard.press("Enter")
    expect(summary).to_be_focused()
    expect(page.locator("[data-testid=option-why]").nth(1).locator("[data-testid=why]")).to_be_visible()
    page.keyboard.press("Space")
    expect(page.locator("[data-testid=option-why]").nth(1)).not_to_have_attribute("open", "")


def test_the_why_panel_is_closed_by_default_and_does_not_move_the_dice_or_keep(make_context, server) -> None:
    page = make_context().new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    open_page(page, server, ROLL_1)
    wait_for_advice(page, canonical(ROLL_1))
    expect(page.locator("#why")).to_have_attribute("aria-expanded", "false")
    expect(page.locator("[data-testid=explanation]")).to_be_hidden()
    before = [page.locator(s).bounding_box() for s in ("#slots", "#verdict-apply", "[data-testid=verdict]")]
    open_why(page)
    explanation_of(page, canonical(ROLL_1))
    after = [page.locator(s).bounding_box() for s in ("#slots", "#verdict-apply", "[data-testid=verdict]")]
    assert after == before
    panel = page.locator("[data-testid=explanation]").bounding_box()
    assert panel["y"] >= before[1]["y"] + before[1]["height"]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_axe_finds_no_violation_with_the_why_panels_open(language_page, server, language) -> None:
    page = language_page(language)
    open_page(page, server, ROLL_1)
    wait_for_advice(page, canonical(ROLL_1))
    open_why(page)
    explanation_of(page, canonical(ROLL_1))
    item = page.locator("[data-testid=option-why]").nth(1)
    set_open(item, True)
    expect(item.locator("[data-testid=why]")).to_be_visible()
    found = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        found[scheme] = violations(page)
    set_open(item, False)  # the shared page as the next test expects it
    page.emulate_media(color_scheme="light")
    assert found == {"light": [], "dark": []}


def test_ranked_by_average_the_why_panel_explains_the_option_the_verdict_shows(language_page, server, tables) -> None:
    """With a score to reach, ranking by the average puts another option in the verdict than the
    chance's best (explain_query's first): the panel explains that option, and names no other best."""
    query = "s=3,,9,,,18,22,,,,30,&d=11346&r=2&t=220"
    options = explain_query(query, tables)["options"]
    average_best = max(options, key=lambda o: o["expected"])
    assert key(average_best) != key(options[0]), "the case needs a chance's best that is not the average's"
    page = language_page("en")
    open_page(page, server, query)
    wait_for_advice(page, canonical(query))
    page.locator("input[name=aim][value=average]").check(force=True)
    verdict = page.get_by_test_id("verdict")
    expect(verdict).to_have_attribute("data-keep", "".join(map(str, average_best["keep"])))
    open_why(page)
    page.wait_for_function(
        "k => document.querySelector('#explanation').dataset.key === k", arg=key(average_best), timeout=60_000
    )
    shown = explanation_of(page, query)
    assert shown["average"]["text"] == aims_words(average_best, "official", "en", beside=beside_goal(shown))
    assert_entries(shown["average"], average_best["aims"])
    expect(page.locator("#explanation [data-testid=why]")).to_have_count(0)
