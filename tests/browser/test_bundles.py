"""The page's scripts are bundled (tools/site_build/bundle.py, ``BUNDLES``): a cold load asks for one script
of the page's own and the worker's bundle, whatever the number of modules under ``web/``, and each
bundle holds every module its entry imports, so none is fetched on its own."""

import re
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Page

from .page_helpers import wait_for_advice

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tests"))
from site_build import bundle  # noqa: E402  (tools/site_build/bundle.py)
from test_web_imports import imports_of  # noqa: E402  (the import graph of web/'s modules)

pytestmark = pytest.mark.browser

QUERY = "s=3,,9,,,18,,,,,30,&d=14466&r=2"
LATER = {"/sw.js", "/precache.js", "/snapshot-worker.js"}
"""Scripts a first visit fetches after its first advice: the service worker, its list, and the
worker that takes the warm start's snapshot."""


EXTERNAL = {(ROOT / "web" / "worker" / name).resolve() for name in bundle.BUNDLE_EXTERNAL}
"""The imports a bundle leaves to the browser (runtime.js is written by the build, not under web/)."""


def reachable(entry: Path) -> set[Path]:
    """``entry`` and every module of ours it imports, directly or not, but the external ones."""
    seen, todo = set(), [entry.resolve()]
    while todo:
        module = todo.pop()
        if module not in seen and module not in EXTERNAL:
            seen.add(module)
            todo.extend(imports_of(module))
    return seen


@pytest.mark.parametrize("name", sorted(bundle.BUNDLES))
def test_each_bundle_holds_every_module_its_entry_imports_and_imports_only_the_runtime(site, name) -> None:
    entry = ROOT / bundle.BUNDLES[name]
    text = (site / name).read_text()
    bundled = {ROOT / path for path in re.findall(r"^// (web/\S+\.js)$", text, re.M)}
    modules = reachable(entry)
    assert len(modules) > 1, "the entry imports modules"
    assert bundled == modules
    imported = set(re.findall(r"""^import [^;]*?from\s*["']([^"']+)["']""", text, re.M))
    assert imported <= set(bundle.BUNDLE_EXTERNAL)


def test_the_site_publishes_the_bundles_and_none_of_the_modules_in_them(site) -> None:
    assert not (site / "app").exists()
    for stale in bundle.STALE:
        assert not (site / stale).exists(), stale
    precache = (site / "precache.js").read_text()
    listed = set(re.findall(r'"([^"]+\.m?js)"', precache))
    assert set(bundle.BUNDLES) <= listed
    assert not any(url.startswith("app/") or url in bundle.STALE for url in listed)
    assert re.findall(r'<script type="module" src="([^"]+)"', (site / "index.html").read_text()) == ["app.js"]


def test_a_cold_load_fetches_one_page_script_and_the_workers_bundle(fresh_page: Page, server) -> None:
    """Before the first advice: app.js, worker.js, and the runtime's own modules; no request but
    the page's own head (its stylesheet, script, icon, manifest) and rules.json goes out before the
    worker's."""
    server.requested.clear()
    fresh_page.goto(server.url(f"index.html?{QUERY}"))
    wait_for_advice(fresh_page, QUERY)
    scripts = [p for p in server.requested if p.endswith((".js", ".mjs")) and p not in LATER]
    assert sorted(scripts) == sorted(
        ["/app.js", "/worker.js", "/runtime.js", "/pyodide/pyodide.mjs", "/pyodide/pyodide.asm.js"]
    )
    before = server.requested[: server.requested.index("/worker.js")]
    # rules.json is asked for in the same task, just after the worker is created: which of the
    # two reaches the server first is the browser's choice.
    head = {"/index.html", "/style.css", "/app.js", "/icon.svg", "/manifest.webmanifest", "/rules.json"}
    assert set(before) <= head
