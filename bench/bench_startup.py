"""The start-up goal alone: the first advice against the bare page, many cold pairs, with intervals.

    .venv/bin/python bench/bench_startup.py [--pairs 30] [--against DIR] [--seed 1] [--phone]

Serves ``public/`` (and, with ``--against``, another build's ``public/`` on a second port) and
loads, in a shuffled order within each round, the bare page (``bench/page/bare.html``, served
beside the site: Pyodide + NumPy, ``bare:numpy-ready``) and the advisor page on
``bench_page.LINK`` (``yacht:first-advice``) of each site, each load in a new browser context (a
cold HTTP cache, service workers blocked), as ``bench/bench_page.py`` measures (a) and (b). Each
site's ratio is against its own bare page, and the two sites' runtime files are the same, so a
round compares them on the same machine state. Prints per site: the medians, b/a (ratio of the
medians) with a 95 % bootstrap interval (pairs resampled), the run-by-run ratios' median and
how often the worker's runtimeFirst opened on a fast network (the wheels and the first table
fetched while the runtime compiles: localhost) or once the runtime was in (the phone); with
``--against``, the difference of the two sites' (b) medians with its interval. Goal: b/a ≤ 1.10.

``--phone``: both loads as ``bench/bench_phone.py`` measures (b) and (e), as a phone sees them: the
phone's viewport and touch, its network on the page, its worker and its service worker (allowed, as
on a first visit), and the files served gzip-compressed as a static host does. Without it: the
desktop viewport, no network emulation, service workers blocked, files as ``bench_page`` serves them.
"""

import argparse
import collections
import functools
import http.server
import random
import statistics
import sys
import threading
from pathlib import Path

import bench_phone
from bench_page import CHROMIUM_ARGS, LINK, PUBLIC, PageHandler, bare_load, chromium_executable, mark_time, new_context
from playwright.sync_api import Browser, sync_playwright

BOOTSTRAP = 2000


def advice_load(browser: Browser, base: str) -> tuple[float, str]:
    """(ms from navigation to the first advice, cold cache; ``gate_opened``)."""
    context = new_context(browser)
    try:
        page = context.new_page()
        page.goto(f"{base}index.html?{LINK}")
        return mark_time(page, "yacht:first-advice"), gate_opened(page)
    finally:
        context.close()


def phone_advice_load(browser: Browser, base: str) -> tuple[float, str]:
    """(ms from navigation to the first advice, cold, on the phone: ``bench_phone``'s (b); ``gate_opened``)."""
    context = bench_phone.phone_context(browser)
    try:
        page = context.new_page()
        bench_phone.Throttle(context, page)
        page.goto(f"{base}index.html?{LINK}")
        return mark_time(page, "yacht:first-advice"), gate_opened(page)
    finally:
        context.close()


def gate_opened(page) -> str:
    """Why the worker's runtimeFirst opened (web/worker/worker-load.js): "fast network" (the
    wheels and the first table came while the runtime compiled) or "runtime in" (after it)."""
    (worker,) = [w for w in page.workers if w.url.endswith("/worker.js")]
    return str(worker.evaluate("globalThis.runtimeFirstOpened"))


def serve(directory: Path, handler: type = PageHandler) -> http.server.ThreadingHTTPServer:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def interval(values: list[float]) -> tuple[float, float]:
    """The 2.5 and 97.5 percentiles of a bootstrap distribution."""
    ordered = sorted(values)
    return ordered[int(0.025 * len(ordered))], ordered[int(0.975 * len(ordered)) - 1]


def ratio_interval(a: list[float], b: list[float], rng: random.Random) -> tuple[float, float]:
    """95 % bootstrap interval of median(b) / median(a), the rounds resampled as pairs."""
    n = len(a)
    draws = []
    for _ in range(BOOTSTRAP):
        picks = [rng.randrange(n) for _ in range(n)]
        draws.append(statistics.median(b[i] for i in picks) / statistics.median(a[i] for i in picks))
    return interval(draws)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=30, help="rounds: one bare and one advisor load per site (30)")
    parser.add_argument("--against", type=Path, help="another build's public/ to measure in the same rounds")
    parser.add_argument("--seed", type=int, default=1, help="seed of the load order and the bootstrap")
    parser.add_argument("--phone", action="store_true", help="as a phone sees it (bench_phone)")
    args = parser.parse_args(argv)
    sites = {"this build": PUBLIC}
    if args.against:
        if not (args.against / "build.json").is_file():
            parser.error(f"--against {args.against}: not a built site (no build.json)")
        sites[f"{args.against}"] = args.against
    if args.pairs < 2:
        parser.error(f"--pairs {args.pairs}: at least 2 rounds are needed for quartiles and intervals")
    if not (PUBLIC / "build.json").is_file():
        parser.error("public/ is not built: run `make site` first")
    rng = random.Random(args.seed)
    handler = bench_phone.GzipHandler if args.phone else PageHandler
    load_bare = bench_phone.bare_load if args.phone else lambda browser, base: bare_load(browser, base)[0]
    load_advice = phone_advice_load if args.phone else advice_load
    servers = {name: serve(path, handler) for name, path in sites.items()}
    bases = {name: f"http://127.0.0.1:{httpd.server_port}/" for name, httpd in servers.items()}
    times: dict[tuple[str, str], list[float]] = {(name, kind): [] for name in sites for kind in "ab"}
    gates: dict[str, collections.Counter] = {name: collections.Counter() for name in sites}
    try:
        with sync_playwright() as playwright:
            executable = chromium_executable()
            browser = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
            version = browser.version
            for round_ in range(args.pairs):
                loads = [(name, kind) for name in sites for kind in "ab"]
                rng.shuffle(loads)
                for name, kind in loads:
                    base = bases[name]
                    if kind == "a":
                        ms = load_bare(browser, base)
                    else:
                        ms, gate = load_advice(browser, base)
                        gates[name][gate] += 1
                    times[name, kind].append(ms)
                shown = ", ".join(f"{n} {k} {times[n, k][-1]:.0f}" for n in sites for k in "ab")
                print(f"round {round_ + 1}/{args.pairs}: {shown}", file=sys.stderr)
            browser.close()
    finally:
        for httpd in servers.values():
            httpd.shutdown()
            httpd.server_close()

    where = "the phone (390 × 844; 9 Mbit/s down, 1.5 up, 150 ms; gzip)" if args.phone else "localhost"
    print(f"\nStart-up: headless Chromium {version}, {where}, {args.pairs} rounds, cold loads in a shuffled order")
    for name in sites:
        a, b = times[name, "a"], times[name, "b"]
        low, high = ratio_interval(a, b, rng)
        by_run = sorted(y / x for x, y in zip(a, b, strict=True))
        quartiles = statistics.quantiles(by_run, n=4)
        print(f"  {name}:")
        print(f"    (a) bare page, NumPy ready       median {statistics.median(a):7.0f} ms")
        print(f"    (b) advisor page, first advice   median {statistics.median(b):7.0f} ms")
        print(
            f"    b/a {statistics.median(b) / statistics.median(a):.3f} (95 % {low:.3f}–{high:.3f}), goal ≤ 1.10; "
            f"run by run: median {statistics.median(by_run):.3f}, quartiles {quartiles[0]:.3f}–{quartiles[2]:.3f}"
        )
        opened = ", ".join(f"{why} {count}" for why, count in gates[name].items())
        without = " (None: a build without that gate's record)" if "None" in gates[name] else ""
        print(f"    the runtime's gate (runtimeFirst) opened by: {opened}{without}")
    if args.against:
        mine, other = times["this build", "b"], times[str(args.against), "b"]
        diffs = []
        for _ in range(BOOTSTRAP):
            picks = [rng.randrange(args.pairs) for _ in range(args.pairs)]
            diffs.append(statistics.median(mine[i] for i in picks) - statistics.median(other[i] for i in picks))
        low, high = interval(diffs)
        change = statistics.median(mine) - statistics.median(other)
        print(f"  (b) this build − {args.against}: {change:+.0f} ms (95 % {low:+.0f} … {high:+.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
