"""The coach on decisions made and on goals, on the page: a practice game's last choice (Why? beside
Roll, data-testid="practice-why") and each review decision that was not the best (a Why? under it,
data-testid="review-why") show what CPython's ``explain_decision_query`` (the numbers of
``review --json --explain``) gives that decision, in English and Japanese, in their data and in
their words; with a rival (o=) or a score to reach (t=) the panel under the verdict shows the aims
under the goal's play (``goal_aims``). The coach's files are fetched only when a Why? is first
opened; opening one moves nothing above it; axe finds nothing. One page for the module (Pyodide
starts once): the first test sees its first fetches."""

import pytest
from playwright.sync_api import Page, expect
from strategies import advisor_practice
from yacht.api import explain_decision_query, explain_query, review_query
from yacht.cli.coach_text import aims_words, option_words, why_words
from yacht.core.options import advise
from yacht.core.position import parse_query
from yacht.core.rules import VARIANTS
from yacht.play.practice import Practice

from .page_helpers import advisor_worker, open_page, url_query, visit, wait_for_advice
from .test_accessibility import violations
from .test_coach import EXACT, READ, assert_entries, canonical, open_why

pytestmark = pytest.mark.browser

COACH_FILES = ("yacht-official.bonus", "yacht-official.points")
SEED = 12345
"""The practice seed of the records below (the advisor's choices but the last)."""
PREFIXES = {
    "en": {"best": "Best ({}): ", "chosen": "Yours ({}): ", "average": "Best on average ({}): "},
    "ja": {"best": "最善（{}）: ", "chosen": "あなたの手（{}）: ", "average": "平均で最善（{}）: "},
}
"""The words before a decision's aims line: whose option it is."""
RIVAL_SEED = 7
"""A practice game against the simulated opponent whose review has, among the decisions not the
best for winning, some where the best average is another option than the goal's best and some
where the choice is the best average's too."""
GOAL_POSITIONS = {
    "o": "s=3,,9,,,18,22,,,,30,&d=22556&r=2&o=5,,12,,,24,,,,15,30,",
    "t": "s=3,,9,,,18,22,,,,30,&d=22556&r=2&t=200",
}


def practice_record(tables, decisions: int, *, mistake: bool = True, opponent: bool = False) -> str:
    """A practice record (seed ``SEED``) of ``decisions`` choices, the advisor's but, when
    ``mistake``, the last: its second-best option."""
    tilde = tables["official"].tilde
    game = Practice(tilde, VARIANTS["official"], SEED, opponent)
    for n in range(decisions):
        options = advise(game.position, tilde).options
        option = options[1] if mistake and n == decisions - 1 else options[0]
        if option.keep is not None and len(option.keep) < 5:
            game.keep(option.keep)
        else:
            game.score(option.category)
    return game.query


def advisor_game(tables, *, opponent: bool = False, seed: int = SEED) -> str:
    """A whole practice game played by the advisor, the second best every fifth choice."""
    return advisor_practice(tables["official"].tilde, VARIANTS["official"], seed, opponent).query


def worker_fetches(page: Page) -> list[str]:
    """The files the advisor's worker has fetched (its resource timing: from the network or a cache)."""
    return advisor_worker(page).evaluate("performance.getEntriesByType('resource').map(e => new URL(e.name).pathname)")


def coach_fetched(page: Page) -> list[str]:
    return sorted({p.rsplit("/", 1)[-1] for p in worker_fetches(page) if p.endswith(COACH_FILES)})


def on_page(locator) -> list[float]:
    """Where an element is on the page (not in the viewport: the page may scroll): x, y, width, height."""
    return locator.evaluate(
        "e => { const r = e.getBoundingClientRect(); return [r.x + scrollX, r.y + scrollY, r.width, r.height]; }"
    )


def open_review(page: Page) -> None:
    """The review panel open on the game shown (the page keeps it open from one link to the next,
    showing the game before until the new review arrives: a Why? opened in it would be drawn anew)."""
    if page.locator("#review-open").get_attribute("aria-expanded") != "true":
        page.locator("#review-open").click()
    expect(page.get_by_test_id("review")).to_be_visible()
    expect(page.get_by_test_id("review")).to_have_attribute("data-query", url_query(page))


def open_details(details) -> None:
    """A Why? disclosure open (it stays open while the same review is shown)."""
    if not details.evaluate("d => d.open"):
        details.locator("summary").click()
    expect(details).to_have_attribute("open", "")


def set_language(page: Page, language: str) -> None:
    page.locator(f"[data-lang={language}]").click()
    expect(page.locator("html")).to_have_attribute("lang", language)


@pytest.fixture
def english(page: Page):
    """The module's page, left in English (the language is kept on the device for later modules)."""
    yield page
    set_language(page, "en")


def open_practice(page: Page, server, record: str, decisions: int) -> None:
    """The practice record shown, graded after each choice, its last choice's grade shown."""
    open_page(page, server, record)
    if page.locator("input[name=feedback][value=each]").is_checked() is False:
        page.locator("#practice-open").click()
        page.locator("input[name=feedback][value=each]").check()
        page.locator("#practice-cancel").click()
    expect(page.get_by_test_id("practice-feedback")).to_have_attribute("data-count", str(decisions))


def explained(box) -> dict:
    """A decision's explanation once drawn: its lines (best, chosen) and why (READ)."""
    expect(box).not_to_have_attribute("aria-busy", "true")
    expect(box.locator("[data-option=chosen][data-play=average]")).to_be_visible()
    return box.evaluate(READ)


def assert_line(line: dict, option: dict, language: str, prefix: str = "") -> None:
    """An aims line is the CLI's words for the option (after ``prefix``), its entries and bonus
    chance explain_decision_query's numbers."""
    # beside a line under the goal's play, the average's says so ("on average, plays for")
    assert line["text"] == prefix + aims_words(option, "official", language, beside="goal_aims" in option)
    if option["plan"] is None or option["plan"]["kind"] == "draw":
        assert_entries(line, option["aims"])
    assert line["bonus"] == pytest.approx(option["bonus"], abs=EXACT)


def assert_goal_line(line: dict, aims: list[dict], words: str) -> None:
    """A line under the goal's play: the CLI's lead words, and the aims' chances (of ending in each
    category, of scratching it) as CPython's. The keeps that tie on the goal's chance to float
    noise (a decided game) may differ between CPython and wasm, and with them the points scored
    in a category (as the histogram's law, test_goal): the means are held to 0.5 points and the
    words up to the first mean."""
    lead = words.split(" (avg", 1)[0].split("(平均", 1)[0]
    assert line["text"].startswith(lead), (line["text"], words)
    by = {a["category"]: a for a in aims}
    for aim in line["aims"]:
        want = by[aim["category"]]
        assert aim["p"] == pytest.approx(want["p"], abs=EXACT)
        assert aim["scratch"] == pytest.approx(want["scratch"], abs=EXACT)
        assert aim["mean_points"] == pytest.approx(want["mean_points"], abs=0.5)


def assert_decision(shown: dict, want: dict, language: str, best_label: str = "best") -> None:
    """The explanation drawn is the decision's of explain_decision_query: the best's line (named
    as `best_label`), the choice's, and why the best beats it, in the CLI's words (review
    --explain) and with its numbers."""
    lines = {(line["option"], line["play"]): line for line in shown["lines"]}
    prefixes = PREFIXES[language]
    graded = "goal_aims" in want["best"]  # by a goal: each option's line under the goal's play too
    plays = ("goal", "average") if graded else ("average",)
    order = [(line["option"], line["play"]) for line in shown["lines"]]
    assert order == [(o, p) for o in ("best", "chosen") for p in plays]
    for which, label in (("best", best_label), ("chosen", "chosen")):
        prefix = prefixes[label].format(option_words(want[which], language))
        assert_line(lines[which, "average"], want[which], language, prefix)
        if graded:
            goal = want["grade"]["measure"]
            target = parse_query(want["query"]).target
            words = aims_words(want[which], "official", language, "goal_aims", target=target, goal=goal)
            assert_goal_line(lines[which, "goal"], want[which]["goal_aims"], prefix + words)
    why = want["why"]
    assert shown["whyText"] == why_words(want["best"], want["chosen"], why, language)
    wanted = [why["terms"][i] for i in why["shown"]]
    assert [t["category"] for t in shown["why"]] == [str(t["category"]) for t in wanted]
    assert [t["points"] for t in shown["why"]] == pytest.approx([t["points"] for t in wanted], abs=EXACT)


SAVING_DATA = "Object.defineProperty(navigator, 'connection', { value: { saveData: true }, configurable: true })"
"""An init script: the browser says the connection saves data, so the page downloads no offline
pack by itself (web/page/requests/requests.js: sparingData)."""


def test_the_coach_files_are_fetched_only_when_a_decisions_why_is_first_opened(make_context, server, tables) -> None:
    # A page of its own: a game with the simulated rival downloads the offline pack by itself, and
    # the worker then reads the coach's files from it, not the network; here the connection saves
    # data, so no pack is downloaded.
    page = make_context().new_page()
    page.add_init_script(SAVING_DATA)
    record = practice_record(tables, 5)
    open_practice(page, server, record, 5)
    # The chunks fetched ahead for the simulated rival and those the review's grades read would
    # fill the worker's resource timing buffer (250 entries): no more fetched ahead, the buffer
    # emptied and made large enough for every fetch that follows.
    worker = advisor_worker(page)
    worker.evaluate(
        "setLookAhead(false); performance.clearResourceTimings(); performance.setResourceTimingBufferSize(100000)"
    )
    assert worker.evaluate("caches.keys().then((keys) => keys.filter((k) => k.startsWith('yacht-pack-')))") == []
    open_review(page)
    expect(page.get_by_test_id("review")).to_have_attribute("data-query", record)
    expect(page.get_by_test_id("review-why").first).to_be_visible()
    page.wait_for_timeout(300)
    assert coach_fetched(page) == []
    page.locator("#review-close").click()
    why = page.locator("#why")
    expect(why).to_be_enabled()
    expect(why).to_have_attribute("aria-controls", "practice-why")
    why.click()
    explained(page.get_by_test_id("practice-why"))
    assert coach_fetched(page) == list(COACH_FILES)


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("decisions", [1, 5])
def test_a_practice_mistake_is_explained_as_the_cli_explains_it(
    english: Page, server, tables, artifacts, language, decisions
) -> None:
    """Decision 1: a keep at roll 1 (Keep 3 4 5, not 2 3 4 5); decision 5: Fours scored at roll 2
    (stopping early, not keeping 4 4 4 4). Nothing above the panel moves when it opens."""
    page = english
    record = practice_record(tables, decisions)
    open_practice(page, server, record, decisions)
    set_language(page, language)
    want = explain_decision_query(record, tables)["decision"]
    assert want == review_query(record, tables, explain=True)["decisions"][-1]  # the CLI's numbers
    controls = ("#slots", "#verdict-apply", "[data-testid=practice-feedback]", "#why")
    before = [on_page(page.locator(s)) for s in controls]
    why = page.locator("#why")
    expect(why).to_have_attribute("aria-expanded", "false")
    panel = page.get_by_test_id("practice-why")
    expect(panel).to_be_hidden()
    why.click()
    expect(why).to_have_attribute("aria-expanded", "true")
    expect(panel).to_have_attribute("data-query", want["query"])
    assert_decision(explained(panel), want, language)
    assert [on_page(page.locator(s)) for s in controls] == before
    if decisions == 5:
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(artifacts / f"coach-practice-{language}-390x844.png"))
    why.click()  # closes
    expect(panel).to_be_hidden()
    expect(why).to_have_attribute("aria-expanded", "false")


def test_the_next_choice_closes_the_panel_and_a_best_choice_has_no_why(english: Page, server, tables) -> None:
    page = english
    open_practice(page, server, practice_record(tables, 5), 5)
    why, panel = page.locator("#why"), page.get_by_test_id("practice-why")
    open_why(page)  # (open still if an earlier test left this record's open)
    explained(panel)
    page.locator("#verdict-apply").click()  # Roll, all five: the sixth choice
    expect(page.get_by_test_id("practice-feedback")).to_have_attribute("data-count", "6")
    expect(panel).to_be_hidden()
    expect(why).to_have_attribute("aria-expanded", "false")
    open_practice(page, server, practice_record(tables, 4, mistake=False), 4)
    expect(page.get_by_test_id("practice-feedback")).to_have_attribute("data-best", "true")
    expect(why).to_be_disabled()
    expect(panel).to_be_hidden()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_each_review_decision_not_the_best_is_explained_as_the_cli_explains_it(
    english: Page, server, tables, artifacts, language
) -> None:
    page = english
    record = advisor_game(tables)
    review = review_query(record, tables, explain=True)
    open_page(page, server, record)
    set_language(page, language)
    open_review(page)
    panel = page.get_by_test_id("review")
    expect(panel).to_have_attribute("data-query", record)
    items = page.locator("[data-testid=decision]")
    expect(items).to_have_count(len(review["decisions"]))
    lost = [i for i, d in enumerate(review["decisions"]) if not d["grade"]["best"]]
    assert len(lost) >= 2
    whys = page.locator("[data-testid=decision] [data-testid=review-why]")
    assert [int(i) for i in whys.evaluate_all("d => d.map(e => e.dataset.index)")] == lost
    for n, i in enumerate(lost[:3]):
        want = review["decisions"][i]
        details = items.nth(i).get_by_test_id("review-why")
        expect(details).to_have_attribute("data-query", want["query"])
        card = items.nth(i).locator(".decision-button")
        where = on_page(card)
        open_details(details)
        assert_decision(explained(details.locator(".why-body")), want, language)
        assert on_page(card) == where
        if n == 0:
            details.scroll_into_view_if_needed()
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            page.screenshot(path=str(artifacts / f"coach-review-{language}-390x844.png"))


def test_a_review_against_a_rival_explains_by_the_best_average(english: Page, server, tables) -> None:
    """With a rival the review grades by the chance of winning; the coach explains the best average
    against the choice (review --json --explain) in points, with the chance of winning each gave
    first, named "Best on average" where the goal's best is another option, and where the choice
    is the average's best too it says so."""
    page = english
    record = advisor_game(tables, opponent=True, seed=RIVAL_SEED)
    review = review_query(record, tables, explain=True)
    open_page(page, server, record)
    open_review(page)
    expect(page.get_by_test_id("review")).to_have_attribute("data-query", record)
    items = page.locator("[data-testid=decision]")
    expect(items).to_have_count(len(review["decisions"]))
    lost = [i for i, d in enumerate(review["decisions"]) if not d["grade"]["best"]]
    seen = {"best": 0, "average": 0, "same": 0}
    for i in lost:
        want = review["decisions"][i]
        details = items.nth(i).get_by_test_id("review-why")
        open_details(details)
        shown = explained(details.locator(".why-body"))
        if not want["why"]["shown"]:
            assert [(line["option"], line["play"]) for line in shown["lines"]] == [
                ("chosen", "goal"),
                ("chosen", "average"),
            ]
            assert "best on average too" in shown["text"]
            seen["same"] += 1
            continue
        goal_best = want["winning"]["best"]
        same = {k: goal_best.get(k) for k in ("keep", "category")} == {
            k: want["best"].get(k) for k in ("keep", "category")
        }
        assert_decision(shown, want, "en", "best" if same else "average")
        assert shown["whyText"].split(": ", 1)[1].startswith("to win ")
        seen["best" if same else "average"] += 1
    assert all(seen.values()), seen  # each case drawn at least once


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("goal", ["o", "t"])
def test_with_a_goal_the_panel_shows_the_aims_under_the_goals_play(
    english: Page, server, tables, artifacts, goal, language
) -> None:
    page = english
    query = canonical(GOAL_POSITIONS[goal])
    visit(page, server, query)
    wait_for_advice(page, query)
    set_language(page, language)
    open_why(page)
    options = explain_query(query, tables)["options"]
    panel = page.get_by_test_id("explanation")
    expect(panel.locator("[data-play=goal]")).to_be_visible()
    expect(panel).not_to_have_attribute("aria-busy", "true")
    shown = panel.evaluate(READ)
    plays = {line["play"]: line for line in shown["lines"]}
    assert list(plays) == ["goal", "average"]
    goal_line, average = plays["goal"], plays["average"]
    want = options[0]
    measure, target = ("win", None) if goal == "o" else ("reach", 200)
    assert goal_line["text"] == aims_words(want, "official", language, "goal_aims", target=target, goal=measure)
    assert_entries(goal_line, want["goal_aims"])
    assert goal_line["bonus"] is None  # the bonus chance is the average play's
    assert_line(average, want, language)
    assert goal_line["text"].startswith(
        {"en": "to win" if goal == "o" else "to reach 200", "ja": "勝つ" if goal == "o" else "200 点"}[language]
    )
    if goal == "o":
        page.screenshot(path=str(artifacts / f"coach-goal-{language}-390x844.png"))
    # An option's Why?: its own goal aims.
    other = next(o for o in options[1:] if o["goal_aims"] != o["aims"])
    key = f"k{''.join(map(str, other['keep']))}:{other.get('category', '')}"
    item = page.locator(f"[data-testid=option-why][data-key='{key}']")
    item.locator("summary").click()
    body = item.locator(".why-body")
    expect(body).to_have_attribute("data-key", key)
    expect(body.locator("[data-play=goal]")).to_be_visible()  # drawn once the goal's explanation is in
    lines = {line["play"]: line for line in body.evaluate(READ)["lines"]}
    assert lines["goal"]["text"] == aims_words(other, "official", language, "goal_aims", target=target, goal=measure)
    assert_entries(lines["goal"], other["goal_aims"])
    item.locator("summary").click()
    # Ranked by the average, the page plays for the average: its aims alone.
    page.locator("input[name=aim][value=average]").check(force=True)
    expect(panel.locator("[data-play=goal]")).to_have_count(0)
    page.locator("input[name=aim][value=win]").check(force=True)
    expect(panel.locator("[data-play=goal]")).to_be_visible()


def test_a_why_tapped_just_before_the_list_is_drawn_again_stays_as_tapped(english: Page, server) -> None:
    """The toggle event of a tap on an option's Why? comes a task after the tap: a list drawn again
    in between (here the ranking changed in the same task) keeps the tap, opened or closed."""
    page = english
    query = canonical(GOAL_POSITIONS["o"])
    visit(page, server, query)
    wait_for_advice(page, query)
    tap_and_redraw = """([key, aim]) => {
        document.querySelector(`[data-testid=option-why][data-key='${key}'] summary`).click();
        document.querySelector(`input[name=aim][value=${aim}]`).click();
    }"""
    key = page.locator("[data-testid=option-why]").nth(1).get_attribute("data-key")
    item = page.locator(f"[data-testid=option-why][data-key='{key}']")
    for aim, is_open in (("average", True), ("win", False), ("average", True), ("win", False)):
        page.evaluate(tap_and_redraw, [key, aim])
        expect(page.locator(f"input[name=aim][value={aim}]")).to_be_checked()
        page.wait_for_timeout(100)  # the stale toggle events delivered
        assert item.evaluate("d => d.open") is is_open
        if is_open:
            expect(item.locator(".why-body [data-testid=aim]").first).to_be_visible()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_axe_finds_nothing_with_the_decisions_why_open(english: Page, server, tables, language) -> None:
    page = english
    record = practice_record(tables, 5)
    open_practice(page, server, record, 5)
    set_language(page, language)
    open_why(page)  # the last choice's
    explained(page.get_by_test_id("practice-why"))
    open_review(page)
    details = page.locator("[data-testid=decision] [data-testid=review-why]").first
    open_details(details)
    explained(details.locator(".why-body"))
    found = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        found[scheme] = violations(page)
    page.emulate_media(color_scheme="light")
    assert found == {"light": [], "dark": []}
