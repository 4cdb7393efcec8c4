"""The offline pack for playing to win (tools/site_build/pack.py, web/worker/worker-pack.js):
offered where play to win is set with its size, downloaded by itself once a game against a rival
starts, cancelled and resumed where it stopped, kept across a relaunch; with it and no network at
all (the browser offline, the server stopped), a whole game against a rival is played by taps to
its result with the exact chance at every decision, equal to the CLI's; a new build's pack never
mixes with an old one's.

This module serves the site on a port of its own (``own_server``), which it stops and starts."""

import json

import numpy as np
import pytest
from playwright.sync_api import expect
from yacht.api import review_query

from .conftest import PUBLIC, new_context
from .page_helpers import open_page, url_query, visit
from .test_rival_game import SHOWN, my_turn, rival_turn, tap_dice

pytestmark = pytest.mark.browser

PACK_CACHES = "() => caches.keys().then(keys => keys.filter(k => k.startsWith('yacht-pack-')))"


WATCH_VERDICTS = """window.verdictsSeen = { chances: 0, estimates: 0 };
new MutationObserver(() => {
  const verdict = document.querySelector("[data-testid=verdict]");
  if (!verdict || verdict === window.lastVerdict) return;
  window.lastVerdict = verdict;
  if (verdict.dataset.win !== undefined) window.verdictsSeen.chances++;
  if (verdict.dataset.estimate !== undefined) window.verdictsSeen.estimates++;
}).observe(document, { childList: true, subtree: true });"""
"""Counts the verdicts drawn with a chance, and those with an estimate."""


def build() -> dict:
    return json.loads((PUBLIC / "build.json").read_text())


def test_the_pack_downloads_by_itself_resumes_and_plays_a_whole_rival_game_offline(
    browser, own_server, tables, cpython
) -> None:
    server = own_server["server"]
    pack = build()["packs"]["official"]
    context = new_context(browser, service_workers="allow")
    page = context.new_page()
    open_page(page, server, "s=,,,,,,,,,,,&d=14466&r=1")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    box = page.get_by_test_id("pack")
    expect(box).to_be_hidden()  # no goal: nothing offered

    # A game against a rival starts (its first decision played along): the pack downloads by
    # itself; held at its fourth part, then cancelled.
    with server.hold("/packs/official/3.part") as gate:
        page.locator("#new-game").click()
        page.locator("[data-start=first]").click()
        expect(box).to_have_attribute("data-state", "none")  # offered before the game starts
        tap_dice(page, np.random.default_rng(1), 5)
        page.wait_for_function(SHOWN)
        expect(box).to_have_attribute("data-state", "none")  # a position: not yet a game
        page.locator("#verdict-apply").click()
        expect(box).to_have_attribute("data-state", "downloading")
        expect(box).to_have_attribute("data-total", str(pack["bytes"]))
        expect(box.locator("progress")).to_be_visible()
        page.wait_for_function(
            "() => Number(document.querySelector('#pack').dataset.received) >= 3 * 4194304", polling=100
        )
        box.get_by_role("button", name="Cancel").click()
        gate.set()
        expect(box).to_have_attribute("data-state", "partial")
    received = int(box.get_attribute("data-received"))
    assert 3 * 4194304 <= received < pack["bytes"]
    expect(box).to_contain_text(f"{received / 1e6:.1f} of {pack['bytes'] / 1e6:.1f} MB")
    server.requested.clear()
    box.get_by_role("button", name="Resume").click()
    expect(box).to_have_attribute("data-state", "ready")
    expect(box).to_contain_text("Playing to win works offline now.")
    resumed = sorted(p for p in server.requested if p.startswith("/packs/"))
    assert resumed == [f"/packs/official/{i}.part" for i in range(3, pack["parts"])]  # no part twice

    # A relaunch keeps it.
    page.close()
    page = context.new_page()
    open_page(page, server, "s=,,,,,,,,,,,&d=14466&r=1&o=,,,,,,,,,,,")
    expect(page.get_by_test_id("pack")).to_have_attribute("data-state", "ready")
    assert page.evaluate(PACK_CACHES) == [f"yacht-pack-official-{pack['hash']}"]

    # No network at all: a whole game against a rival, by taps, every chance exact and the CLI's.
    own_server["stop"]()
    context.set_offline(True)
    try:
        page.add_init_script(WATCH_VERDICTS)
        page.goto(server.url("index.html"))
        expect(page.locator("html")).to_have_attribute("data-state", "ready")
        rng = np.random.default_rng(11)
        page.locator("#new-game").click()
        page.locator("[data-start=first]").click()
        for _ in range(12):
            my_turn(page, rng)
            if page.locator("[data-testid=opponent-cell][data-value='']").count():
                rival_turn(page, rng)
        seen = page.evaluate("window.verdictsSeen")
        assert seen["chances"] >= 12 and seen["estimates"] == 0, seen  # every verdict's chance exact
        record = url_query(page)
        expected = review_query(record, tables)["result"]
        box = page.get_by_test_id("result")
        expect(box).to_have_attribute("data-outcome", expected["outcome"])
        expect(box).to_have_attribute("data-mine", str(expected["mine"]))
        # A decision of the game: its chance is the CLI's, from the pack.
        query = "s=3,,9,,,18,,,,,30,&d=14466&r=2&o=,4,,12,,,22,,,,30,"
        visit(page, server, query)
        verdict = page.locator("[data-testid=verdict][data-win]")
        expect(verdict).to_have_count(1)
        assert verdict.get_attribute("data-estimate") is None
        assert float(verdict.get_attribute("data-win")) == pytest.approx(cpython(query)["win"], abs=1e-9)
    finally:
        context.close()
        own_server["start"]()


def test_a_new_builds_pack_replaces_the_old_one_never_mixed(browser, own_server) -> None:
    server = own_server["server"]
    context = new_context(browser)
    page = context.new_page()
    open_page(page, server, "s=,,,,,,,,,,,&d=14466&r=1&t=200&v=strict")
    box = page.get_by_test_id("pack")
    expect(box).to_have_attribute("data-state", "none")
    box.get_by_role("button", name="Download").click()
    expect(box).to_have_attribute("data-state", "ready")
    old = build()["packs"]["strict"]["hash"]
    assert page.evaluate(PACK_CACHES) == [f"yacht-pack-strict-{old}"]

    # The next build: other pack files (here: another hash, the index refuses the old bytes).
    new = build()
    new["packs"]["strict"]["hash"] = "0123456789abcdef"
    with server.replace("/build.json", json.dumps(new).encode()):
        page.context.new_cdp_session(page).send("Network.clearBrowserCache")  # as a new build is fetched
        page.reload()
        expect(page.locator("html")).to_have_attribute("data-state", "ready")
        expect(box).to_have_attribute("data-state", "none")  # the old pack is not this build's
        assert page.evaluate(PACK_CACHES) == []  # and is gone
        box.get_by_role("button", name="Download").click()
        expect(box).to_have_attribute("data-state", "failed")  # the old index is not the new build's
        expect(box).to_contain_text("not a yacht-pack 2 index of this build")
        assert page.evaluate(PACK_CACHES) == []
    context.close()
