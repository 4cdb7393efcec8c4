"""One screen for a turn, on many generated positions: at 390 × 844 the roll, the dice, the
verdict (with its chance line when there is a goal), Keep and Share and every cell of both
columns are in view without scrolling, in English and Japanese, with and without an opponent,
in a game waiting for dice or for the opponent's turn, and on a first visit; the layout does
not move with what the texts say (Keep's box and the last row stand at the same place in every
case). At 320 × 640 nothing scrolls sideways and no word is broken across lines.
"""

import random

import pytest
from playwright.sync_api import Page, expect
from yacht.core.categories import N_CATEGORIES
from yacht.core.position import Position, format_query
from yacht.core.rules import OFFICIAL, STRICT, possible_scores

from .page_helpers import open_page, visit
from .test_phone import no_clashes

pytestmark = pytest.mark.browser

SEED = 20261124
N_POSITIONS = 14


def random_sheet(rng: random.Random, variant, filled: int) -> tuple[int | None, ...]:
    """A sheet with `filled` categories, mostly their highest scores (the longest totals)."""
    scores = possible_scores(variant)
    chosen = set(rng.sample(range(N_CATEGORIES), filled))
    return tuple(
        (max(scores[c]) if rng.random() < 0.6 else rng.choice(scores[c])) if c in chosen else None
        for c in range(N_CATEGORIES)
    )


def generated_positions() -> list[str]:
    """Positions of every stage, a third with an opponent, a third with a score to reach."""
    rng = random.Random(SEED)
    out = []
    for i in range(N_POSITIONS):
        variant = STRICT if i % 5 == 4 else OFFICIAL
        mine = rng.randint(0, N_CATEGORIES - 1)
        sheet = random_sheet(rng, variant, mine)
        dice = tuple(rng.randint(1, 6) for _ in range(5))
        roll = rng.randint(1, 3)
        opponent = random_sheet(rng, variant, min(mine + rng.randint(0, 1), N_CATEGORIES)) if i % 3 == 1 else None
        target = rng.choice((150, 230, 999)) if i % 3 == 2 else None
        out.append(format_query(Position(sheet, dice, roll, variant, opponent=opponent, target=target)))
    return out


# Games: waiting for the opponent's turn, for my dice, at roll 3 with a target, over.
GAMES = [
    "o=,,,,,,,,,,,&h=66612-666-66643f&oh=",  # the opponent's turn
    "o=,,,,,,,,,,,&h=66612-666-66643f&oh=e20",  # my next turn's dice to enter
    "t=230&h=66612-666-66643f.12345-1-14444-144-14455",  # roll 3 with a target
    "s=1,2,3,4,5,6,7,8,9,15,30,&h=11111l",  # the game over
]
CASES = generated_positions() + GAMES

IN_VIEW = """e => {
    const r = e.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
}"""


def screen_faults(page: Page) -> list[str]:
    """What a turn needs and is not wholly on the first screen (or scrolled away)."""
    return page.evaluate(
        """inView => {
        const isIn = eval(inView);
        const out = [];
        if (scrollY !== 0) out.push(`scrolled ${scrollY}`);
        const root = document.documentElement;
        if (root.scrollWidth > root.clientWidth) out.push('scrolls sideways');
        const needed = [
            ['roll', document.querySelector('fieldset.roll')],
            ['verdict', document.querySelector('.verdict-area')],
            ['keep', document.querySelector('#verdict-apply')],
            ['share', document.querySelector('#share')],
            ...[...document.querySelectorAll('#slots > *')].map((e, i) => [`die ${i}`, e]),
            ...[...document.querySelectorAll('[data-testid=cell]')].map(e => [`cell ${e.dataset.category}`, e]),
        ];
        const verdict = document.querySelector('[data-testid=verdict]');
        if (verdict) needed.push(['verdict text', verdict]);
        for (const e of document.querySelectorAll('[data-testid=opponent-cell]'))
            if (!e.hidden) needed.push([`their ${e.dataset.category}`, e]);
        for (const [name, e] of needed) if (!e || !isIn(e)) out.push(`${name} not in view`);
        return out;
    }""",
        IN_VIEW,
    )


def boxes(page: Page) -> dict:
    """Where Keep and the last row of the card stand (px)."""
    return page.evaluate(
        """() => Object.fromEntries(['#verdict-apply', '[data-row="11"]', '.verdict-area'].map(s => {
            const r = document.querySelector(s).getBoundingClientRect();
            return [s, [r.x, r.y, r.width, r.height].map(Math.round)];
        }))"""
    )


def wait_until_answered(page: Page) -> None:
    """The page shows the answer of its query: advice, or what the game waits for."""
    page.wait_for_function(
        "() => document.querySelector('#options').dataset.query !== undefined"
        " && !document.querySelector('#options').hasAttribute('aria-busy')"
    )


@pytest.mark.parametrize("language", [pytest.param("en", marks=pytest.mark.slow), "ja"])  # en: make test-slow
def test_every_turn_fits_one_phone_screen_and_the_layout_never_moves(make_context, server, artifacts, language) -> None:
    context = make_context(locale="ja-JP" if language == "ja" else "en-US")
    page = context.new_page()
    open_page(page, server, CASES[0])
    faults: dict[str, list[str]] = {}
    places: dict[str, dict] = {}
    for i, query in enumerate(CASES):
        visit(page, server, query)
        wait_until_answered(page)
        if problems := screen_faults(page):
            faults[query] = problems
        places[query] = boxes(page)
        if i in (1, len(CASES) - 2):
            page.screenshot(path=artifacts / f"one-screen-{i}-390x844-{language}.png")
    assert faults == {}
    first = places[CASES[0]]
    moved = {
        q: p for q, p in places.items() if any(abs(a - b) > 1 for k in p for a, b in zip(p[k], first[k], strict=True))
    }
    assert moved == {}, f"the layout moved: {first} vs {moved}"


@pytest.mark.parametrize("language", ["en", pytest.param("ja", marks=pytest.mark.slow)])  # ja: make test-slow
def test_at_320_px_nothing_scrolls_sideways_and_no_word_breaks(make_context, server, artifacts, language) -> None:
    context = make_context(locale="ja-JP" if language == "ja" else "en-US", viewport={"width": 320, "height": 640})
    page = context.new_page()
    open_page(page, server, CASES[1])
    found = {}
    for i, query in enumerate(CASES):
        visit(page, server, query)
        wait_until_answered(page)
        if problems := no_clashes(page):
            found[query] = problems
        if i == 1:
            page.screenshot(path=artifacts / f"one-screen-opponent-320x640-{language}.png", full_page=True)
    assert found == {}


CLS_OBSERVER = """
window.yachtShifts = [];
new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
        if (!entry.hadRecentInput) window.yachtShifts.push({
            value: entry.value,
            at: Math.round(entry.startTime),
            sources: (entry.sources || []).map(s => s.node ? (s.node.id || s.node.className || s.node.nodeName) : '?'),
        });
    }
}).observe({ type: 'layout-shift', buffered: true });
"""

KEEP_BOX = """() => {
    const r = document.querySelector('#verdict-apply').getBoundingClientRect();
    return [r.x, r.y, r.width, r.height];
}"""


@pytest.mark.parametrize("query", ["", CASES[1]], ids=["start", "opponent"])
def test_a_first_visit_does_not_shift_the_layout_and_keep_stays_put(make_context, server, query) -> None:
    """From navigation to the first advice (and the "ready to work offline" note after it), the
    cumulative layout shift is at most 0.02, and Keep's box is the same before the advice, after
    it and after the note."""
    context = make_context(service_workers="allow")
    page = context.new_page()
    page.add_init_script(CLS_OBSERVER)
    page.goto(server.url("index.html" + (f"?{query}" if query else "")))
    page.wait_for_selector("#verdict-apply")
    before = page.evaluate(KEEP_BOX)
    expect(page.locator("html")).to_have_attribute("data-state", "ready")
    wait_until_answered(page)
    after = page.evaluate(KEEP_BOX)
    expect(page.locator("#app-note")).to_be_visible()
    noted = page.evaluate(KEEP_BOX)
    shifts = page.evaluate("window.yachtShifts")
    cls = sum(s["value"] for s in shifts)
    print(f"CLS {query or '/'}: {cls:.4f}")
    assert cls <= 0.02, shifts
    for box in (after, noted):
        assert all(abs(a - b) <= 1 for a, b in zip(before, box, strict=True)), (before, after, noted)
