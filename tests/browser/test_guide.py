"""The player's guide (docs/guide.md, docs/guide.ja.md, built into public/guide.html and
guide.ja.html by tools/site_build/guide.py): the page's footer links to the guide in the language
shown, the guide opens, its in-page links and its link to the other language land, it has no axe
violation, and it is precached for offline use."""

import re
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .page_helpers import open_page
from .test_accessibility import violations

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from site_build.guide import JOINED_LINE, anchor  # noqa: E402  (tools/site_build/guide.py)

pytestmark = pytest.mark.browser

TITLES = {"en": "Player's guide", "ja": "遊び方ガイド"}
PAGES = {"en": "guide.html", "ja": "guide.ja.html"}


@pytest.mark.parametrize(
    ("heading", "expected"),
    [("The coach (Why?)", "the-coach-why"), ("コーチ (なぜ？)", "コーチ-なぜ"), ("Play along", "play-along")],
)
def test_a_headings_anchor_is_githubs(heading: str, expected: str) -> None:
    assert anchor(heading) == expected


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("手を\n教えます", "手を教えます"),
        ("キーパッド (**サイコロを\n追加**)", "キーパッド (**サイコロを追加**)"),
        ("ときは\n**代わりに振る**", "ときは**代わりに振る**"),
        ("play\nalong", "play\nalong"),
        ("選びます。\n- **サイコロ**", "選びます。\n- **サイコロ**"),
    ],
)
def test_a_line_break_inside_a_japanese_sentence_is_joined_without_a_space(source: str, expected: str) -> None:
    assert JOINED_LINE.sub("", source) == expected


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_footer_links_to_the_guide_in_the_language_shown(page: Page, server, language: str) -> None:
    open_page(page, server)
    if language == "ja":
        page.locator("[data-lang=ja]").click()
    link = page.get_by_test_id("guide-link")
    expect(link).to_have_text(TITLES[language])
    assert link.get_attribute("href") == PAGES[language]
    link.click()
    expect(page.locator("h1")).to_have_text(TITLES[language])
    assert page.evaluate("document.documentElement.lang") == language
    assert page.url.endswith(PAGES[language])
    page.go_back()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_link_of_the_guide_lands_and_axe_finds_nothing(page: Page, server, language: str) -> None:
    page.goto(server.url(PAGES[language]))
    anchors = page.evaluate("[...document.querySelectorAll('a[href^=\"#\"]')].map(a => a.getAttribute('href'))")
    assert anchors, "the guide links to its own sections"
    for href in anchors:
        assert page.locator(f"[id='{href[1:]}']").count() == 1, href
    sections = page.locator("h2").count()
    assert sections >= 10  # entering, advice, play along, rival, target, practice, review, coach, …
    assert violations(page) == []
    other = "ja" if language == "en" else "en"
    page.locator(f"a[href='{PAGES[other]}']").click()
    expect(page.locator("h1")).to_have_text(TITLES[other])
    page.locator("nav a").click()  # back to the advisor
    expect(page.locator("#guide-link")).to_be_visible()


def test_the_guides_are_precached_for_offline_use(site) -> None:
    precache = (site / "precache.js").read_text()
    listed = set(re.findall(r'"([^"]+)"', precache))
    assert {"guide.html", "guide.ja.html"} <= listed
