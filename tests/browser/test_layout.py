"""What is drawn agrees with what is meant, checked on the rendered page (layout_check.js): no text
clipped, cut by an ellipsis with a number or overlapping other text, no control covered, every
chart bar as high as its value, over many generated states (layout_states.py) at 320 × 640 and
390 × 844, in English and Japanese. The check itself is checked on a page made to fail it."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from yacht.loader import DEFAULT_TABLES, Tables

from .layout_states import State, states
from .page_helpers import open_page

CHECK = (Path(__file__).parent / "layout_check.js").read_text()

VIEWPORTS = {"320x640": {"width": 320, "height": 640}, "390x844": {"width": 390, "height": 844}}

SETTLED = """() => !document.querySelector('[aria-busy="true"], [data-testid=practice-feedback][data-state=grading]')
    && document.documentElement.dataset.state === 'ready'
    && (!new URLSearchParams(location.search).has('t') || document.querySelector('#histogram:not([hidden]) > *'))"""


@pytest.fixture(scope="module")
def generated() -> list[State]:
    return [State("first visit", ""), *states(Tables(DEFAULT_TABLES))]


def faults(page: Page) -> list[str]:
    page.evaluate(CHECK)
    return page.evaluate("window.yachtLayoutFaults()")


def show(page: Page, state: State) -> None:
    """Open ``state`` as Back or Forward opens a history entry (its review open or not), and wait
    until every answer it asks for is drawn."""
    page.evaluate(
        """([query, review]) => {
            history.pushState({ review }, '', query ? '?' + query : location.pathname);
            dispatchEvent(new PopStateEvent('popstate'));
        }""",
        [state.query, state.review],
    )
    page.wait_for_function(SETTLED)
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def kind(state: State) -> str:
    """What a state shows, whichever run it is of: "game at decision N, reviewed" and so on."""
    return re.sub(r"\d+", "N", state.what.split(" ", 1)[-1])


PARTS = {"all": lambda i: True, "quarter": lambda i: i % 4 == 0, "rest": lambda i: i % 4 != 0}
"""Which of the generated states a run draws: make test draws every fourth at the narrowest
screen in Japanese; make test-slow the rest there and every one in the three other pairs. Each
run of ``layout_states`` adds 11 states (its kinds), after one: every fourth meets each kind once."""


@pytest.mark.parametrize(
    ("viewport", "language", "part"),
    [
        ("320x640", "ja", "quarter"),
        pytest.param("320x640", "ja", "rest", marks=pytest.mark.slow),
        pytest.param("390x844", "en", "all", marks=pytest.mark.slow),
        pytest.param("320x640", "en", "all", marks=pytest.mark.slow),
        pytest.param("390x844", "ja", "all", marks=pytest.mark.slow),
    ],
    ids=lambda value: value,
)
def test_every_generated_state_is_drawn_without_a_layout_fault(
    make_context, server, artifacts, generated, viewport, language, part
):
    drawn = [state for i, state in enumerate(generated) if PARTS[part](i)]
    if part == "quarter":  # make test's share still meets every kind of state
        assert {kind(state) for state in drawn} == {kind(state) for state in generated}
    generated = drawn
    context = make_context(viewport=VIEWPORTS[viewport], locale="ja-JP" if language == "ja" else "en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_page(page, server)
    found: dict[str, list[str]] = {}
    for i, state in enumerate(generated):
        show(page, state)
        seen = faults(page)
        if seen:
            found[f"{state.what} ({state.query or '/'})"] = seen
            page.screenshot(path=artifacts / f"layout-{viewport}-{language}-{part}-{i}.png", full_page=True)
    # The site opened again without a link: the offer to resume the last game (kept above).
    page.goto(server.url("index.html"))
    page.wait_for_function(SETTLED)
    expect(page.get_by_test_id("resume")).to_be_visible()
    seen = faults(page)
    if seen:
        found["the offer to resume"] = seen
    print(f"layout check: {len(generated) + 1} states at {viewport} in {language}, {len(found)} with faults")
    assert errors == []
    assert not found, "\n".join(f"{what}:\n  " + "\n  ".join(f) for what, f in found.items())


BAD_PAGE = """
<!doctype html><html><head><style>
  body { margin: 0; font: 16px sans-serif; }
  .cut { width: 60px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .clip { width: 60px; height: 20px; overflow: hidden; }
  .stack { display: grid; } .stack span { grid-area: 1 / 1; }
  .toast { position: fixed; top: 200px; left: 0; width: 200px; height: 60px; background: white; }
  .bar { height: 44px; }
  .framed { border: 2px solid black; height: 20px; width: 200px; }
  .narrow { width: 44px; overflow-wrap: anywhere; }
  .lines { white-space: pre-line; }
</style></head><body>
  <p class="narrow">−25.93点</p>
  <p class="narrow">−1.00 点</p>
  <div class="framed">a line<br>spilt out</div>
  <p class="cut">Final score 184 against 148</p>
  <p class="cut">Words only, far too long</p>
  <div class="clip">one<br>two<br>three</div>
  <p class="stack"><span>best: Choice 19</span><span>Chance of winning 47 %</span></p>
  <button style="position: absolute; top: 210px; left: 10px">Keep</button>
  <div class="toast">A note</div>
  <svg width="100" height="100"><rect class="bar" x="0" y="10" width="10" height="90" data-value="0.9" />
    <rect class="bar" x="20" y="90" width="10" height="10" data-value="0.1" /></svg>
  <p class="lines">Next best: keep three,
−0.84</p>
  <p class="lines">Total loss
−2.5 pp</p>
  <p class="lines">Keep three,
−0.46 pts or so</p>
</body></html>
"""


def test_the_check_finds_each_kind_of_fault_on_a_page_made_to_have_them(page: Page) -> None:
    page.set_content(BAD_PAGE)
    found = faults(page)
    assert any(f.startswith('a number cut by an ellipsis: "Final score 184') for f in found), found
    assert not any("Words only" in f for f in found), found  # words elided with "…" are allowed
    assert any(f.startswith('clipped text: "two"') for f in found), found
    assert any(f.startswith('clipped text: "three"') for f in found), found
    assert any(f.startswith('overlapping text: "best: Choice 19"') for f in found), found
    assert any(f.startswith('a covered control: button "Keep" under div.toast') for f in found), found
    assert any(f.startswith("a chart mark not sized by its data: rect.bar of 0.1") for f in found), found
    assert any(f.startswith('text out of its frame: "spilt out"') for f in found), found
    assert not any('"a line"' in f for f in found), found
    assert any(f.startswith('a number broken across lines: "−25.93"') for f in found), found
    assert not any('"−1.00"' in f for f in found), found  # the unit on the next line: allowed
    # A number drawn on a line of its own, its unit apart; with other words on its line: allowed.
    assert any(f.startswith('a number alone on a line: "−0.84"') for f in found), found
    assert any(f.startswith('a number alone on a line: "−2.5"') for f in found), found
    assert not any('"−0.46"' in f for f in found), found
    assert len(found) == 10, found


NOTED = "s=,,,,,,,,,,,&d=25322&r=2&o=,,,,,,,,,,,"
"""A position with both columns of the score card (the rows a note at the bottom would cover)."""


@pytest.mark.parametrize(("viewport", "language"), [("390x844", "en"), ("320x640", "ja")], ids=lambda value: value)
def test_link_copied_covers_no_control_and_the_page_keeps_its_layout(
    make_context, server, artifacts, viewport, language
):
    context = make_context(
        viewport=VIEWPORTS[viewport],
        locale="ja-JP" if language == "ja" else "en-US",
        permissions=["clipboard-read", "clipboard-write"],
    )
    context.add_init_script("delete Navigator.prototype.share")  # no share sheet: the link is copied
    page = context.new_page()
    open_page(page, server, NOTED)
    page.wait_for_function(SETTLED)
    page.locator("#share").click()
    note = page.locator("#note")
    expect(note).to_have_text("Link copied." if language == "en" else "リンクをコピーしました。")
    expect(note).to_be_visible()
    page.screenshot(path=artifacts / f"link-copied-{viewport}-{language}.png")
    # Its box meets no control of the page: the score card's cells and buttons, the verdict's, the header's.
    overlaps = page.evaluate(
        """() => {
            const note = document.getElementById('note-box').getBoundingClientRect();
            const meets = (r) => r.width > 0 && r.height > 0 && r.left < note.right && note.left < r.right
                && r.top < note.bottom && note.top < r.bottom;
            const controls = document.querySelectorAll(
                '#score-card [data-testid=cell], #score-card button, main button, header button');
            return [...controls].filter(c => !c.closest('#note-box') && meets(c.getBoundingClientRect()))
                .map(c => c.id || c.dataset.testid || c.className || c.textContent);
        }"""
    )
    assert overlaps == []
    assert faults(page) == []  # the layout check, the note shown
    expect(note).to_be_visible()  # (still shown while checked)
