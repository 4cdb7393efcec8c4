"""The worker's one data path for table files (web/worker/table-source.js: fetched ahead, the
offline pack, the network): a file that cannot be had degrades only the answers that read it; a
file Python refuses as damaged is evicted from every cache and fetched again past them; a pack
that becomes ready, or a part of it damaged in storage and downloaded again, leaves no estimate
on screen, without a reload; a page served before its tables are all built (``make serve``:
tools/serve_first.py) answers at once and picks each file up once it is there.

This module serves the site on a port of its own (``own_server``)."""

import json
import re
import time
from contextlib import ExitStack

import pytest
from playwright.sync_api import expect
from site_build import data  # (tools/: conftest puts it on the path)
from site_build.common import json_bytes
from yacht.chances.goal import chunks_needed
from yacht.core import table_kinds
from yacht.core.position import parse_query
from yacht.core.table_kinds import chunk_name

from .conftest import PUBLIC, new_context
from .page_helpers import open_page, visit, wait_for_advice
from .site_server import LOAD_TIMEOUT_MS

pytestmark = pytest.mark.browser

RIVAL = "s=,,,,,,,,,,,&d=12256&r=3&o=,,,,,,,,,,,"
"""Both sheets empty: the rival's law is the law chunk of mask 0, mine reads the chunks of one
category filled."""
RIVAL_ACES = "s=,,,,,,,,,,,&d=12256&r=3&o=1,,,,,,,,,,,"
"""The rival has scored Aces (I play second): their law is the chunk of mask 1."""


def build() -> dict:
    return json.loads((PUBLIC / "build.json").read_text())


def chunk_paths(query: str) -> list[str]:
    """The server paths of the chunks a goal answer of ``query`` reads (the rival's law included)."""
    position = parse_query(query)
    b = build()
    paths = []
    for kind, masks in chunks_needed(position).items():
        folder = "/" + b[b["kinds"][kind]["field"]][position.variant.name]["url"]
        paths += [folder + chunk_name(mask) for mask in masks]
    return paths


def verdict(page):
    return page.get_by_test_id("verdict")


def exact_win(page) -> float:
    """The verdict's chance of winning once it is no estimate (waits for it)."""
    shown = page.locator("[data-testid=verdict][data-win]:not([data-estimate])")
    expect(shown).to_have_count(1)
    return float(shown.get_attribute("data-win"))


def test_a_missing_chunk_degrades_only_the_answers_that_read_it(browser, own_server, cpython) -> None:
    server = own_server["server"]
    rivals_law = chunk_paths(RIVAL)[0]
    assert rivals_law.endswith("/000.chunk") and ".law/" in rivals_law
    context = new_context(browser)
    page = context.new_page()
    try:
        with server.fail(rivals_law, 404):
            open_page(page, server, RIVAL)
            wait_for_advice(page, cpython(RIVAL)["query"])
            expect(verdict(page)).to_have_attribute("data-estimate", "law")  # only the rival's law was refused
            # The next position, in the same page, reads the chunk of mask 1 instead: exact.
            visit(page, server, RIVAL_ACES)
            wait_for_advice(page, cpython(RIVAL_ACES)["query"])
            assert exact_win(page) == pytest.approx(cpython(RIVAL_ACES)["win"], abs=1e-9)
    finally:
        context.close()


def test_a_chunk_refused_as_damaged_is_fetched_again_past_the_caches(browser, own_server, cpython) -> None:
    """Damaged bytes of a chunk are kept by no cache (the service worker's included): once the
    server's file is right, the worker's fetch again reaches it and the exact chance follows."""
    server = own_server["server"]
    rivals_law = chunk_paths(RIVAL)[0]
    good = (PUBLIC / rivals_law.lstrip("/")).read_bytes()
    damaged = good[: len(good) // 2] + bytes(b ^ 0xFF for b in good[len(good) // 2 :])
    context = new_context(browser, service_workers="allow")
    page = context.new_page()
    try:
        open_page(page, server, "s=,,,,,,,,,,,&d=14466&r=1")  # the service worker controls the page
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        with server.replace(rivals_law, damaged):
            visit(page, server, RIVAL)
            wait_for_advice(page, cpython(RIVAL)["query"])
            expect(verdict(page)).to_have_attribute("data-estimate", "law")
            server.requested.clear()
        assert exact_win(page) == pytest.approx(cpython(RIVAL)["win"], abs=1e-9)  # by itself, no reload
        assert rivals_law in server.requested  # fetched again from the server, past every cache
    finally:
        context.close()


def test_a_pack_that_becomes_ready_clears_an_estimate_on_screen(browser, own_server, cpython) -> None:
    server = own_server["server"]
    context = new_context(browser, service_workers="allow")
    page = context.new_page()
    try:
        with ExitStack() as failing:
            for path in chunk_paths(RIVAL):
                failing.enter_context(server.fail(path))
            open_page(page, server, RIVAL)
            wait_for_advice(page, cpython(RIVAL)["query"])
            expect(verdict(page)).to_have_attribute("data-estimate", "law reach")
            box = page.get_by_test_id("pack")
            box.get_by_role("button", name="Download").click()
            expect(box).to_have_attribute("data-state", "ready")
            # The chunks still fail on the network: the exact chance comes from the pack.
            assert exact_win(page) == pytest.approx(cpython(RIVAL)["win"], abs=1e-9)
    finally:
        context.close()


def part_holding(pack: dict, kind: str, name) -> int:
    """The part of ``pack`` (build.json's entry) that holds file ``name`` of ``kind`` (its index.json)."""
    index = json.loads((PUBLIC / pack["url"] / "index.json").read_text())
    part, offset = 0, 0
    for each, names, lengths in index["kinds"]:
        for found, length in zip(names, lengths, strict=True):
            if offset >= index["parts"][part]:
                part, offset = part + 1, 0
            if (each, found) == (kind, name):
                return part
            offset += length
    raise LookupError(f"no {kind} {name} in the pack")


PART_OF = """([cacheName, url]) => caches.open(cacheName).then(async cache => {
  const response = await cache.match(url);
  return response ? (await response.arrayBuffer()).byteLength : null;
})"""


def test_a_pack_part_damaged_in_storage_is_evicted_and_downloaded_again(browser, own_server, cpython) -> None:
    server = own_server["server"]
    pack = build()["packs"]["official"]
    cache_name = f"yacht-pack-official-{pack['hash']}"
    part = part_holding(pack, "law", 0)  # the rival's law, read first
    part_url = server.url(f"{pack['url']}{part}.part?h={pack['hash']}")
    context = new_context(browser, service_workers="allow")
    page = context.new_page()
    try:
        open_page(page, server, "s=,,,,,,,,,,,&d=14466&r=1&o=,,,,,,,,,,,")
        box = page.get_by_test_id("pack")
        box.get_by_role("button", name="Download").click()
        expect(box).to_have_attribute("data-state", "ready")
        size = page.evaluate(PART_OF, [cache_name, part_url])
        page.evaluate(
            """async ([cacheName, url]) => {
              const cache = await caches.open(cacheName);
              const bytes = new Uint8Array(await (await cache.match(url)).arrayBuffer());
              for (let i = bytes.length >> 1; i < (bytes.length >> 1) + 65536; i++) bytes[i] ^= 0xff;
              await cache.put(url, new Response(bytes));
            }""",
            [cache_name, part_url],
        )
        page.close()
        server.requested.clear()
        page = context.new_page()  # a relaunch: the part is checked when first read
        said: list[str] = []
        page.on("console", lambda message: said.append(message.text))
        with ExitStack() as failing:
            for path in chunk_paths(RIVAL):
                failing.enter_context(server.fail(path))  # only the pack can answer exactly
            open_page(page, server, RIVAL)
            wait_for_advice(page, cpython(RIVAL)["query"])
            # The damaged part is found when first read, evicted and downloaded again by itself.
            deadline = time.monotonic() + LOAD_TIMEOUT_MS / 1000
            while f"/{pack['url']}{part}.part" not in server.requested:
                assert time.monotonic() < deadline, "the damaged part was not downloaded again"
                page.wait_for_timeout(100)
            assert any(f"{part}.part: damaged in storage" in line for line in said), said
            expect(page.get_by_test_id("pack")).to_have_attribute("data-state", "ready")
            assert page.evaluate(PART_OF, [cache_name, part_url]) == size
            assert exact_win(page) == pytest.approx(cpython(RIVAL)["win"], abs=1e-9)
    finally:
        context.close()


def test_a_page_served_before_its_tables_are_built_picks_them_up(browser, own_server, cpython) -> None:
    """The site as ``make serve`` serves it while the official rules' later kinds are being built
    (build.json from ``tools/build_site.py --pending``: those files listed under the hash of their
    sources, no pack; the files themselves absent): the first answer comes from the table alone, an
    estimate; once the files are there, the exact chance follows in the same page, no reload."""
    server = own_server["server"]
    built = build()
    later = [kind for kind, k in table_kinds.KINDS.items() if k.fetch != "start"]
    wheel_name = built["wheel"]["url"].split("?")[0].removeprefix("py/")
    partial = data.build_json(built["pyodide"]["version"], wheel_name, {"official": later})
    partial["packs"] = {variant: pack for variant, pack in built["packs"].items() if variant != "official"}
    assert partial["pending"] == {"official": later} and partial["reach"]["official"]["bytes"] is None
    files = [(kind, part) for kind in later for part in table_kinds.KINDS[kind].files]
    absent = ["/tables/" + table_kinds.file_name(kind, "official", part) for kind, part in files]
    context = new_context(browser)
    page = context.new_page()
    try:
        with server.replace("/build.json", json_bytes(partial)):
            with server.missing(absent):
                open_page(page, server, RIVAL)
                wait_for_advice(page, cpython(RIVAL)["query"])
                expect(verdict(page)).to_have_attribute("data-estimate", re.compile(r"\blaw\b"))
                assert any(path.startswith(tuple(absent)) for path in server.requested)  # asked for, not there
            # The files are built: the worker fetches them again by itself.
            assert exact_win(page) == pytest.approx(cpython(RIVAL)["win"], abs=1e-9)
            h = data.pending_hash("official", "law")
            assert partial["law"]["official"]["hash"] == h
    finally:
        context.close()
