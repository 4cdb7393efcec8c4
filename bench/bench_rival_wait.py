"""The wait at each decision of a game against a rival on a phone's network, and the offline pack.

    .venv/bin/python bench/bench_rival_wait.py [--games 2] [--json FILE]

Headless Chromium as a phone on ``bench_phone.NETWORK`` (9 Mbit/s down, 150 ms round trip; CDP
on the page's target, which throttles its worker's requests too), the site served compressed by
``tools/serve.py``'s handler, no service worker, and a connection that says it saves data
(``navigator.connection.saveData``), so that the page never downloads the offline pack by itself:
every chunk a decision reads comes from the network, as on a first game. The bench checks both
conditions (it stops if a pack was kept). A game against a rival is played by taps from turn 1
to its end (random dice, the verdict followed, the rival's scores random, tapped ``PAUSE_MS``
after mine). Two waits are timed: from the tap that enters the rival's score (the last score
before my turn) to the new answer shown with its chance, and from the tap that scores mine to
the answer shown; each answer is recorded exact or an estimate (the goal card's note,
``data-testid="estimate"``).
Games alternate between fetching ahead off (the worker's ``setLookAhead(false)``) and on (the
page as shipped), same dice for both. Printed: each wait's median, 95th percentile and largest,
and how many answers were estimates, off and on; the goal is a median ≤ 0.3 s.

Then the offline pack of each variant: its size (build.json) and its download time on the same
network (the goal card's Download until ``data-state=ready``).
"""

import argparse
import json
import statistics
import sys
import time

import numpy as np
from bench_page import TIMEOUT_MS, chromium_executable
from bench_phone import PHONE, Throttle, serving
from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1] / "tools"))
from site_build.common import PUBLIC

PAUSE_MS = 2000
"""Between my score and the tap on the rival's: they roll up to three times meanwhile, so at a real
table this is several seconds; 2 s here."""
SHOWN = "() => document.querySelector('#options').dataset.query === location.search.slice(1)"


def tap_dice(page: Page, rng: np.random.Generator, n: int) -> None:
    for face in rng.integers(1, 7, n):
        page.locator(f"#keypad button[data-face='{face}']").click()


SAVES_DATA = """Object.defineProperty(Object.getPrototypeOf(navigator.connection), "saveData", { get: () => true });"""
"""The connection says it saves data: the page starts no offline pack by itself."""
ANSWERED = f"() => ({SHOWN})() && !document.querySelector('#options').hasAttribute('aria-busy')"


def my_turn(page: Page, rng: np.random.Generator) -> float:
    """My turn, tapped; seconds from the tap that scores to the answer shown after it."""
    missing = 5
    while True:
        tap_dice(page, rng, missing)
        page.wait_for_function(SHOWN, timeout=TIMEOUT_MS)
        verdict = page.get_by_test_id("verdict")
        category, keep = verdict.get_attribute("data-category"), verdict.get_attribute("data-keep")
        start = time.perf_counter()
        page.locator("#verdict-apply").click()
        if category is not None:
            page.wait_for_function(ANSWERED, timeout=TIMEOUT_MS, polling="raf")
            return time.perf_counter() - start
        missing = 5 - len(keep)


def estimated(page: Page) -> bool:
    """Whether the answer shown is an estimate (it went without files: the goal card's note)."""
    return page.get_by_test_id("estimate").is_visible()


def rival_turn(page: Page, rng: np.random.Generator) -> float:
    """Their turn, tapped; seconds from the tap on their score to the new answer with its chance."""
    free = page.locator("[data-testid=opponent-cell][data-value='']")
    c = free.nth(int(rng.integers(free.count()))).get_attribute("data-category")
    page.locator(f"[data-testid=opponent-cell][data-category='{c}']").click()
    values = page.locator("#picker-values button:not([data-value=''])")
    values.first.wait_for()
    choice = values.nth(int(rng.integers(values.count())))
    start = time.perf_counter()
    choice.click()
    page.wait_for_function(
        f"() => ({ANSWERED})() && /%/.test(document.querySelector('#summary').textContent)",
        timeout=TIMEOUT_MS,
        polling="raf",
    )
    return time.perf_counter() - start


PACKS_KEPT = "() => caches.keys().then(keys => keys.filter(k => k.startsWith('yacht-pack-')))"


def play(browser, base: str, seed: int, ahead: bool) -> dict[str, list]:
    """One game against a rival on the phone's network, no pack: the waits after each rival score
    and after each of mine (s), and whether each answer after the rival's score was an estimate."""
    context = browser.new_context(service_workers="block", **PHONE)
    context.add_init_script(SAVES_DATA)
    page = context.new_page()
    Throttle(context, page)
    page.goto(base + "index.html")
    page.wait_for_function("document.documentElement.dataset.state === 'ready'", timeout=TIMEOUT_MS)
    page.workers[0].evaluate(f"globalThis.setLookAhead({'true' if ahead else 'false'})")
    rng = np.random.default_rng(seed)
    page.locator("#new-game").click()
    page.locator("[data-start=first]").click()
    found: dict[str, list] = {"rival": [], "mine": [], "estimates": []}
    for turn in range(12):
        found["mine"].append(my_turn(page, rng))
        if turn < 11:
            page.wait_for_timeout(PAUSE_MS)  # the rival plays their turn: the worker is idle meanwhile
            found["rival"].append(rival_turn(page, rng))
            found["estimates"].append(estimated(page))
    kept = page.evaluate(PACKS_KEPT)
    context.close()
    if kept:
        raise SystemExit(f"bench_rival_wait: an offline pack was kept ({kept}): not the no-pack network it measures")
    return found


def pack_download(browser, base: str, variant: str) -> float:
    context = browser.new_context(service_workers="block", **PHONE)
    page = context.new_page()
    Throttle(context, page)
    query = "s=,,,,,,,,,,,&d=14466&r=1&o=,,,,,,,,,,," + ("&v=strict" if variant == "strict" else "")
    page.goto(f"{base}index.html?{query}")
    box = page.get_by_test_id("pack")
    box.locator("button").wait_for(timeout=TIMEOUT_MS)
    start = time.perf_counter()
    box.locator("button").click()
    page.wait_for_selector("[data-testid=pack][data-state=ready]", timeout=10 * TIMEOUT_MS)
    seconds = time.perf_counter() - start
    context.close()
    return seconds


def summary(waits: list[float]) -> dict:
    ordered = sorted(waits)
    return {
        "median": statistics.median(ordered),
        "p95": ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))],
        "max": ordered[-1],
        "n": len(ordered),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games of each mode (default 2)")
    parser.add_argument("--json", type=__import__("pathlib").Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    build = json.loads((PUBLIC / "build.json").read_text())
    executable = chromium_executable()
    games: dict[str, dict[str, list]] = {mode: {"rival": [], "mine": [], "estimates": []} for mode in ("off", "on")}
    packs = {}
    with serving(PUBLIC) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, headless=True)
        for game in range(args.games):
            for mode in ("off", "on") if game % 2 == 0 else ("on", "off"):
                for name, values in play(browser, base, 100 + game, ahead=mode == "on").items():
                    games[mode][name] += values
        for variant, pack in sorted(build["packs"].items()):
            packs[variant] = {
                "bytes": pack["bytes"],
                "parts": pack["parts"],
                "seconds": pack_download(browser, base, variant),
            }
        browser.close()
    figures = {
        "waits": {mode: {wait: summary(g[wait]) for wait in ("rival", "mine")} for mode, g in games.items()},
        "estimates": {mode: sum(g["estimates"]) for mode, g in games.items()},
        "packs": packs,
    }
    print("A game against a rival on a phone's network, no offline pack (the connection saves data; none kept):")
    for mode, label in (("off", "fetching ahead off"), ("on", "fetching ahead on (shipped)")):
        for wait, after in (("rival", "after the rival's score"), ("mine", "after my score")):
            f = figures["waits"][mode][wait]
            figures_text = f"median {f['median']:.3f} s, 95th percentile {f['p95']:.3f} s, max {f['max']:.3f} s"
            print(f"  {label:28} {after:24} {figures_text} ({f['n']} waits)")
        print(f"  {label:28} estimates among the answers after the rival's score: {figures['estimates'][mode]}")
    print("  goal: median ≤ 0.3 s")
    print("The offline pack on the same network:")
    for variant, f in packs.items():
        print(f"  {variant:9} {f['bytes']:,} bytes in {f['parts']} parts + index, downloaded in {f['seconds']:.1f} s")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
