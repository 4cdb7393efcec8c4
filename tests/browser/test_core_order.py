"""The page shows the core's order: every option in the order and with the rank that yacht.api
gives it (yacht.core.ranking: with a goal the chance, then the expected score, then the simpler
option), and its verdict is the core's first option — never ranked again on the page. A decided
game (every chance certain and the same) is advised for the best expected score and says so.

Positions come from ``goal_positions`` (both sheets played by the advisor, every stage, both
variants, o= and t=); the differential check runs every fourth of them in ``make test`` and the
rest in ``make test-slow``."""

import itertools

import pytest
from goal_positions import goal_positions
from playwright.sync_api import Page, expect

from .page_helpers import TOLERANCE, control, open_page, option_key, page_options, visit, wait_for_advice

pytestmark = pytest.mark.browser

DECIDED = "s=2,6,9,12,,18,22,0,26,15,30,0&d=62464&r=1&o=3,6,9,12,15,18,23,20,24,15,30,"
"""The last turn of a lost game: every option's chance of winning is 0; the best expected score
is rerolling all five (148.79), stopping in Fives scores 0 (140)."""
DIFFERENTIAL = 200
"""Generated positions compared option by option (``make test``: every fourth)."""
SEED = 36


@pytest.fixture(scope="module")
def generated(tables) -> list[str]:
    """``DIFFERENTIAL`` positions (the first 164 hold the 20 the test of ties takes)."""
    return goal_positions({v: tables[v].tilde for v in ("official", "strict")}, DIFFERENTIAL, SEED)


def page_order(page: Page) -> list[tuple]:
    """The page's options in the order shown: (identity, rank)."""
    return [(option_key(o), o["rank"]) for o in page_options(page)]


def core_order(answer: dict, *, average: bool = False) -> list[tuple]:
    """CPython's options in the core's order: (identity, rank); ``average``: the order by the
    expected score alone (``average_order``, ``average_rank``)."""
    if average:
        return [
            (option_key(answer["options"][i]), answer["options"][i]["average_rank"]) for i in answer["average_order"]
        ]
    return [(option_key(o), o["rank"]) for o in answer["options"]]


def chance(option: dict) -> float:
    return option["win"] + option["draw"] / 2 if "win" in option else option["reach"]


def has_chance_ties(answer: dict) -> bool:
    """Some options tie on the chance and differ in the expected score (the order between
    them is the core's tie rule)."""
    options = answer["options"]
    return any(
        abs(chance(a) - chance(b)) <= 1e-9 and abs(a["expected"] - b["expected"]) > 1e-6
        for a, b in itertools.pairwise(options)
    )


def kind_of(query: str) -> tuple[str, str]:
    """(variant, goal): ("official" | "strict", "o" | "t")."""
    return ("strict" if "v=strict" in query else "official", "o" if "&o=" in query else "t")


def assert_core_order(page: Page, server, query: str, answer: dict) -> None:
    """The page shows ``query``'s options in the core's order with its ranks, the verdict is the
    core's first, and the verdict's and options' values are CPython's."""
    visit(page, server, query)
    wait_for_advice(page, query)
    assert page_order(page) == core_order(answer), query
    verdict = page.get_by_test_id("verdict")
    best = answer["options"][0]
    keep = verdict.get_attribute("data-keep")
    shown = ("keep", keep) if keep is not None else ("category", int(verdict.get_attribute("data-category")))
    assert shown == option_key(best), query
    assert float(verdict.get_attribute("data-expected")) == pytest.approx(best["expected"], abs=TOLERANCE)


def test_a_decided_game_is_advised_for_the_best_score_and_says_so(page: Page, server, cpython) -> None:
    answer = cpython(DECIDED)
    assert answer["decided"] is True and answer["win"] == 0.0
    assert answer["options"][0]["keep"] == [] and answer["options"][0]["expected"] == pytest.approx(148.7915, abs=1e-4)
    open_page(page, server, DECIDED)
    assert_core_order(page, server, DECIDED, answer)
    verdict = page.get_by_test_id("verdict")
    expect(verdict.locator(".verdict-words")).to_have_text("Reroll all dice")
    expect(verdict.locator(".verdict-chance")).to_have_text("Decided: playing for the best score")
    # Its margin is in points (the order is the expected score's), not "0.0 pp".
    expect(verdict.locator(".verdict-margin")).to_have_text("Next best: Keep 6 — reroll 2 4 6 4,\u00a0−1.08")
    second = page.locator("[data-testid=option]").nth(1)
    expect(second.locator(".loss")).to_have_text("−1.08")
    expect(second.locator(".other-loss")).to_have_count(0)


def test_options_tied_on_the_chance_are_shown_in_the_cores_order(page: Page, server, cpython, generated) -> None:
    """20 generated positions (both variants, o= and t=) where options tie on the chance: the
    order between them is the expected score's, then the simpler option, as the CLI's."""
    open_page(page, server, generated[0])
    chosen: list[str] = []
    kinds: set[tuple[str, str]] = set()
    for query in generated:
        answer = cpython(query)
        if not has_chance_ties(answer):
            continue
        kind = kind_of(query)
        if sum(kind_of(q) == kind for q in chosen) >= 5:
            continue
        chosen.append(query)
        kinds.add(kind)
        assert_core_order(page, server, query, answer)
        if len(chosen) == 20:
            break
    assert len(chosen) == 20 and len(kinds) == 4, (len(chosen), kinds)


def test_the_average_view_shows_the_cores_order_by_the_expected_score(page: Page, server, cpython, generated) -> None:
    """The switch "Average" shows the core's order by the expected score alone (average_order,
    average_rank) and the verdict is its first; "Chance" the goal's again; the losses are in the
    measure each order is ranked by, the other beside them, labelled."""
    queries = [q for q in generated[:48] if len(cpython(q)["options"]) > 2 and not cpython(q)["decided"]][:6]
    open_page(page, server, queries[0])
    for query in queries:
        answer = cpython(query)
        assert_core_order(page, server, query, answer)
        second = page.locator("[data-testid=option]").nth(1)
        if answer["options"][1]["rank"] > 1:
            expect(second.locator(".loss")).to_contain_text(" pp")
            expect(second.locator(".other-loss")).to_have_text(f"avg\u00a0−{answer['options'][1]['loss']:.2f}")
        control(page, "radio", "Average").check()
        assert page_order(page) == core_order(answer, average=True), query
        first = answer["options"][answer["average_order"][0]]
        verdict = page.get_by_test_id("verdict")
        assert float(verdict.get_attribute("data-expected")) == pytest.approx(first["expected"], abs=TOLERANCE)
        expect(page.locator("[data-testid=option] .loss >> nth=1")).not_to_contain_text("pp")
        control(page, "radio", "Chance").check()
        assert page_order(page) == core_order(answer), query


@pytest.mark.parametrize(
    "part",
    [pytest.param(0, id="every-fourth")] + [pytest.param(k, id=f"part{k}", marks=pytest.mark.slow) for k in (1, 2, 3)],
)
def test_the_pages_options_are_the_clis_in_its_order_option_by_option(
    page: Page, server, cpython, generated, part
) -> None:
    """A differential check over 200 generated positions with o= or t= from every stage: the
    page's options in the CLI's order with its ranks, option by option."""
    queries = generated[part::4]
    open_page(page, server, queries[0])
    for query in queries:
        assert_core_order(page, server, query, cpython(query))
