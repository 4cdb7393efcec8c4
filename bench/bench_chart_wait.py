"""The advice of a new position while the final-score chart of the one before is being computed.

    .venv/bin/python bench/bench_chart_wait.py [--positions 40] [--against OLD/public] [--json FILE]

Headless Chromium with a phone's viewport, the site served compressed by ``tools/serve.py``'s
handler on 127.0.0.1 (no network throttling: the wait measured is the worker's), no service
worker. Positions with a goal from every stage of a game (``tests/goal_positions.py``, seed 36:
both variants, o= and t=, 12 to 1 free categories), each entered as a followed link is (Back:
``history.pushState`` and ``popstate``) at once after the advice of the one before is shown, so
that the chart of that one (asked for when its advice is shown, computed in steps by the worker)
is being computed: the wait is from entering the position to its advice shown. The bench checks
that condition: a position entered once the chart before it had been drawn is not counted (the
count is printed). Before that, the same positions entered with the worker idle (each chart drawn
before the next position), twice: the first pass loads every file the advice and the charts read,
the second is timed: the advice's wait, and the chart alone, from the advice shown to the chart
drawn. Printed: median, 95th percentile and largest of each, and of the chart's share of a wait
(a position's wait during a chart less its wait idle); the goal is that no advice waits for a
chart, only for a step of it: that share's 95th percentile ≤ 0.2 s.
"""

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

from bench_page import TIMEOUT_MS, chromium_executable
from bench_phone import PHONE, serving
from bench_rival_wait import summary
from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "tests")]
from goal_positions import goal_positions  # noqa: E402
from site_build.common import PUBLIC  # noqa: E402
from yacht.api import Tables  # noqa: E402

SEED = 36
ENTER = "q => { history.pushState(null, '', '?' + q); dispatchEvent(new PopStateEvent('popstate')); }"
ADVICE_SHOWN = """q => {
  const o = document.querySelector('#options');
  return o.dataset.query === q && o.getAttribute('aria-busy') !== 'true';
}"""
CHART_DRAWN = """q => {
  const h = document.querySelector('[data-testid=histogram]');
  return !h.hidden && h.dataset.query === q;
}"""


def enter(page: Page, query: str) -> float:
    """Enter ``query`` and wait for its advice: seconds."""
    start = time.perf_counter()
    page.evaluate(ENTER, query)
    page.wait_for_function(ADVICE_SHOWN, arg=query, timeout=TIMEOUT_MS, polling=5)
    return time.perf_counter() - start


def waits_during_charts(page: Page, queries: list[str]) -> tuple[dict[str, float], int]:
    """Each position entered at once after the advice of the one before: its wait (s), for those
    entered while the chart before was not drawn yet; and how many were not (not counted)."""
    waits, drawn_before = {}, 0
    enter(page, queries[0])
    for before, query in itertools.pairwise(queries):
        if page.evaluate(CHART_DRAWN, before):
            drawn_before += 1
            enter(page, query)
            continue
        waits[query] = enter(page, query)
    return waits, drawn_before


def charts_alone(page: Page, queries: list[str]) -> tuple[dict[str, float], list[float]]:
    """Each position entered with the worker idle (the chart before it drawn): its advice's wait,
    and its chart from the advice shown to the chart drawn (s)."""
    advice, charts = {}, []
    for query in queries:
        advice[query] = enter(page, query)
        start = time.perf_counter()
        page.wait_for_function(CHART_DRAWN, arg=query, timeout=TIMEOUT_MS, polling=5)
        charts.append(time.perf_counter() - start)
    return advice, charts


def measure(browser, folder: Path, queries: list[str]) -> dict:
    """The figures of the site in ``folder`` (module docstring)."""
    with serving(folder) as base:
        context = browser.new_context(service_workers="block", **PHONE)
        page = context.new_page()
        page.goto(f"{base}index.html")
        page.wait_for_function("document.documentElement.dataset.state === 'ready'", timeout=TIMEOUT_MS)
        charts_alone(page, queries)  # a first pass: every file the advice and the charts read is loaded
        idle, charts = charts_alone(page, queries)
        waits, drawn_before = waits_during_charts(page, queries)
        context.close()
    if len(waits) < len(queries) // 2:
        raise SystemExit(f"bench_chart_wait: only {len(waits)} positions were entered while a chart was computed")
    return {
        "waits": summary(list(waits.values())),
        "idle": summary(list(idle.values())),
        "extra": summary([wait - idle[query] for query, wait in waits.items()]),
        "charts": summary(charts),
        "drawn_before": drawn_before,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=40, help="positions entered (default 40)")
    parser.add_argument("--against", type=Path, help="an older build's public/ folder, measured the same way after")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    tables = Tables(PUBLIC / "tables")
    queries = goal_positions({v: tables[v].tilde for v in ("official", "strict")}, args.positions, SEED)
    sites = {"this build": PUBLIC} | ({f"against {args.against}": args.against} if args.against else {})
    found = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_executable(), headless=True)
        for name, folder in sites.items():
            found[name] = measure(browser, folder, queries)
        browser.close()
    print(f"{len(queries)} positions with a goal (seed {SEED}), each entered at once after the advice before it:")
    for name, figures in found.items():
        print(f"  {name}:")
        for key, label in (
            ("waits", "the advice's wait, a chart computing"),
            ("idle", "the advice's wait, the worker idle"),
            ("extra", "the chart's share of the wait (paired)"),
            ("charts", "the chart alone"),
        ):
            f = figures[key]
            print(f"    {label:40} median {f['median']:.3f} s, 95th percentile {f['p95']:.3f} s, max {f['max']:.3f} s")
        print(f"    not counted (the chart before already drawn): {figures['drawn_before']}")
    print("  goal: the chart's share of the wait (a step at most), 95th percentile ≤ 0.2 s")
    if args.json:
        args.json.write_text(json.dumps(found, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
