"""Where a cold first visit's loading steps go in Chromium: each step's time, and how much of it the
worker's thread spends compiling WebAssembly functions on their first call.

    .venv/bin/python bench/bench_lazy_compile.py [--runs 5]

Serves ``public/`` and loads, alternating, the bare page (``bench/page/bare.html``: the same runtime
and NumPy alone) and the advisor page on ``bench_page.LINK``, each load in a new browser context (a
cold HTTP cache, service workers blocked) with a Chromium trace. From each trace, on the worker's
thread (the page's one dedicated worker): the events ``wasm.CompileLazy`` (V8 compiles a
WebAssembly function the first time it is called, on the thread that calls it) between the step
marks the page sets, ``yacht:<step>:done`` (runtime, NumPy, package, table) and
``yacht:first-advice`` (the answer); for the bare page, its runtime and NumPy steps
(``bare:runtime``, ``bare:numpy-ready``). Prints per step the medians of its time and of that
compile time, ms. Checks what it claims: each advisor load started Python afresh (NumPy installed
from its wheel, no snapshot) and each trace holds exactly one dedicated worker with the marks.
"""

import argparse
import functools
import http.server
import json
import statistics
import sys
import threading

from bench_page import CHROMIUM_ARGS, LINK, PUBLIC, STEPS, PageHandler, chromium_executable, mark_time, new_context
from playwright.sync_api import Browser, sync_playwright

CATEGORIES = ["blink.user_timing", "v8.wasm", "toplevel"]
"""What the trace records: the page's marks, V8's WebAssembly compiles, and the thread names."""
COMPILE = "wasm.CompileLazy"


def traced_load(browser: Browser, url: str, last: str) -> list[dict]:
    """The trace events of one cold load of ``url``, until the mark ``last`` (and a little after)."""
    context = new_context(browser)
    try:
        page = context.new_page()
        browser.start_tracing(page=page, categories=CATEGORIES)
        try:
            page.goto(url)
            mark_time(page, last)
            page.wait_for_timeout(200)
        finally:
            trace = browser.stop_tracing()
        return json.loads(trace)["traceEvents"]
    finally:
        context.close()


def step_figures(events: list[dict], edges: list[tuple[str, str]]) -> dict[str, tuple[float, float]]:
    """{step: (ms from the mark before it to its own, ms of ``COMPILE`` on the worker's thread in
    between)}, ``edges`` the (step, mark) pairs in order, the first step timed from the worker
    thread's first event; ValueError when the trace does not hold one dedicated worker and each
    mark once."""
    threads = {
        (e["pid"], e["tid"]): e["args"]["name"] for e in events if e.get("ph") == "M" and e["name"] == "thread_name"
    }
    workers = [thread for thread, name in threads.items() if name == "DedicatedWorker thread"]
    if len(workers) != 1:
        raise ValueError(f"the trace holds {len(workers)} dedicated workers, expected 1")
    times: dict[str, list[float]] = {}
    for e in events:
        if e.get("cat", "").startswith("blink.user_timing") and e.get("ph") in ("R", "I", "n", "b"):
            times.setdefault(e["name"], []).append(e["ts"])
    missing = [mark for _, mark in edges if len(times.get(mark, [])) != 1]
    times[""] = [min(e["ts"] for e in events if (e.get("pid"), e.get("tid")) == workers[0] and e.get("ph") != "M")]
    if missing:
        raise ValueError(f"the trace does not hold each of these marks once: {', '.join(missing)}")
    compiles = [
        (e["ts"], e.get("dur", 0)) for e in events if e["name"] == COMPILE and (e["pid"], e["tid"]) == workers[0]
    ]
    figures = {}
    for (_, before), (step, mark) in zip([("", ""), *edges[:-1]], edges, strict=True):
        start, end = times[before][0], times[mark][0]
        compiled = sum(duration for ts, duration in compiles if start <= ts < end)
        figures[step] = ((end - start) / 1000, compiled / 1000)
    return figures


ADVISOR_EDGES = [*((step, f"yacht:{step}:done") for step in STEPS), ("answer", "yacht:first-advice")]
"""Each step of the advisor page and the mark of its end; the runtime's from the worker's start."""
BARE_EDGES = [("runtime", "bare:runtime"), ("numpy", "bare:numpy-ready")]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="cold loads of each page (default 5)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error(f"--runs must be at least 1, not {args.runs}")
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(PageHandler, directory=str(PUBLIC)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_port}/"
    rows: dict[str, list[dict]] = {"bare page": [], "advisor page": []}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=chromium_executable(), headless=True, args=CHROMIUM_ARGS
            )
            print(f"Chromium {browser.version}, {args.runs} cold loads of each page, alternating")
            for _ in range(args.runs):
                bare = traced_load(browser, base + "bare.html", "bare:numpy-ready")
                rows["bare page"].append(step_figures(bare, BARE_EDGES))
                advisor = traced_load(browser, f"{base}index.html?{LINK}", "yacht:first-advice")
                fresh = {e["name"] for e in advisor if e["name"].startswith("yacht:numpy-install:")}
                if fresh != {"yacht:numpy-install:javascript"}:
                    raise SystemExit(f"not a fresh start: the page marked {sorted(fresh)} for NumPy's install")
                rows["advisor page"].append(step_figures(advisor, ADVISOR_EDGES))
            browser.close()
    finally:
        httpd.shutdown()
        httpd.server_close()
    print("| page | step | ms | of which compiling on first call |")
    print("| --- | --- | --- | --- |")
    for page, runs in rows.items():
        for step in runs[0]:
            took = statistics.median(run[step][0] for run in runs)
            compiled = statistics.median(run[step][1] for run in runs)
            print(f"| {page} | {step} | {took:.0f} | {compiled:.0f} ({compiled / took:.0%}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
