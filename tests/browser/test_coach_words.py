"""The coach's words on the page are the command line's, letter for letter, in English and
Japanese: the panel under the verdict (what the best plays for, why it beats the next best) and an
option's Why? (that option against the best) say what ``python -m yacht advise --explain`` says
for the same position (yacht.cli.coach_text on yacht.api.explain_query). The page draws them from
its own copy of the templates (web/page/texts/texts-coach.js): this holds the copy to the Python.

Positions come from ``goal_positions`` (both sheets played by the advisor, every stage, both
variants); every other one keeps its goal (o= or t=, the why then saying the chances) and the
others are the same sheets without it. ``make test`` checks every third of the 30; the rest are
slow."""

import pytest
from goal_positions import goal_positions
from playwright.sync_api import Page, expect
from yacht.api import advise_query, explain_query
from yacht.cli.coach_text import aims_words, why_words
from yacht.core.position import Position, format_query, parse_query

from .page_helpers import open_page, wait_for_advice
from .test_coach import READ, beside_goal, explanation_of, key, open_why, set_open

pytestmark = pytest.mark.browser

COUNT = 30
SEED = 38


@pytest.fixture(scope="module")
def positions(tables) -> list[str]:
    """30 positions with dice at roll 1–3 and three options or more (an option's Why? other than
    the next best's): the even ones with their goal, the odd ones without."""
    out = []
    for query in goal_positions({v: tables[v].tilde for v in ("official", "strict")}, 3 * COUNT, SEED):
        p = parse_query(query)
        if len(out) % 2:
            query = format_query(Position(p.sheet, p.dice, p.roll, p.variant))
        if len(advise_query(query, tables)["options"]) >= 3:
            out.append(query)
    assert len(out) >= COUNT
    return out[:COUNT]


@pytest.fixture(scope="module")
def words_page(browser, server, runtime, warm_snapshot):
    from .conftest import warm_context

    context = warm_context(browser, server, runtime, locale="en-US")
    yield context.new_page()
    context.close()


def language(page: Page, lang: str) -> None:
    page.locator(f"[data-lang={lang}]").click()
    expect(page.locator("html")).to_have_attribute("lang", lang)


def check(page: Page, server, tables, query: str) -> None:
    answer = explain_query(query, tables)
    options, variant = answer["options"], answer["variant"]
    open_page(page, server, query)
    wait_for_advice(page, query)
    open_why(page)
    page.wait_for_function(
        "k => document.querySelector('#explanation').dataset.key === k", arg=key(options[0]), timeout=60_000
    )
    other = next((o for o in options[2:] if o["why"]["shown"]), options[1])
    item = page.locator(f"[data-testid=option-why][data-key='{key(other)}']")
    set_open(item, True)
    body = item.locator(".why-body")
    expect(body).to_have_attribute("data-key", key(other))
    expect(body).not_to_have_attribute("aria-busy", "true", timeout=60_000)
    for lang in ("en", "ja"):
        language(page, lang)
        panel = explanation_of(page, query)
        assert panel["whyText"] == why_words(options[0], options[1], options[1]["why"], lang)
        assert panel["average"]["text"] == aims_words(options[0], variant, lang, beside=beside_goal(panel))
        shown = body.evaluate(READ)
        assert shown["whyText"] == why_words(options[0], other, other["why"], lang)
        assert shown["average"]["text"] == aims_words(other, variant, lang, beside=beside_goal(shown))
        if "goal_aims" in other:
            goal = "win" if parse_query(query).opponent is not None else "reach"
            target = parse_query(query).target
            lines = {line["play"]: line["text"] for line in shown["lines"]}
            assert lines["goal"] == aims_words(other, variant, lang, "goal_aims", target=target, goal=goal)
    language(page, "en")
    set_open(item, False)


@pytest.mark.parametrize("index", range(0, COUNT, 3))
def test_the_pages_coach_words_are_the_clis(words_page, server, tables, positions, index) -> None:
    check(words_page, server, tables, positions[index])


@pytest.mark.slow
@pytest.mark.parametrize("index", [i for i in range(COUNT) if i % 3])
def test_the_pages_coach_words_are_the_clis_on_the_other_positions(words_page, server, tables, positions, index):
    check(words_page, server, tables, positions[index])
