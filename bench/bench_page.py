"""The page's benchmark: load times, advice time and bytes, in headless Chromium on localhost.

    .venv/bin/python bench/bench_page.py [--runs 5] [--repeat 200] [--json FILE]

Serves ``public/`` (build it first: ``tools/build_site.py``) on 127.0.0.1 and measures, in one run:

(a) a bare page (``bench/page/bare.html``, served beside the site) that loads only Pyodide +
    NumPy in a module worker, as the advisor does, until NumPy is imported: navigation start to
    its ``bare:numpy-ready`` mark, cold cache (a new browser context);
(b) the advisor page opened on a link (a roll-1 position, so it shows ranked options):
    navigation start to the ``yacht:first-advice`` mark, cold cache;
(c) the same again in the same context: warm HTTP cache (and V8's code cache that lives in it);
(d) one roll-1 advice inside the worker (``advise`` action: ``yacht.api.advise_query`` and the
    conversion of its result), median of ``--repeat`` calls;
(e) the bytes a cold load of (b) transfers (headers and bodies as ``tools/serve.py`` sends them),
    the table's share of them, and what gzip -9 would make of each file;
(f) a second visit with the service worker: the page is loaded once (the worker registers
    after the first advice and precaches the site), then opened again, served from the
    worker's cache: navigation start to ``yacht:first-advice``.

(a)–(c) run with service workers blocked (Playwright's ``service_workers="block"``): the page
registers ``sw.js`` only after its first advice, but its precache downloads would then run in
the background of (c), and (c) would be served by the worker; blocked, (a)–(c) measure what
they measured before the page had a service worker. (f) is the one figure with it.

(a)–(c) and (f) are the medians of ``--runs`` runs; the runs alternate, so all see the same
machine. b/a is the ratio of the medians; the ratio of each run's pair (a, b), loaded one after
the other, is printed too (median, quartiles, range): on a shared machine whose speed drifts
during a run it is the steadier figure. Goals: b/a ≤ 1.10, d ≤ 5 ms, the table ≤ 256 KiB.
"""

import argparse
import functools
import gzip
import http.server
import json
import os
import statistics
import sys
import threading
from pathlib import Path
from typing import ClassVar
from urllib.parse import urlsplit

from playwright.sync_api import Browser, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from serve import Handler  # noqa: E402  (the one handler, shared with `make serve`: types, compression)

PUBLIC = ROOT / "public"
DEBIAN_CHROMIUMS = (Path("/usr/bin/chromium"), Path("/usr/bin/chromium-headless-shell"))


def chromium_executable() -> str | None:
    """The Chromium the benchmarks launch: ``$YACHT_CHROMIUM``, else the first of
    ``DEBIAN_CHROMIUMS`` installed, else None (Playwright's own)."""
    found = [str(path) for path in DEBIAN_CHROMIUMS if path.exists()]
    return os.environ.get("YACHT_CHROMIUM") or (found[0] if found else None)


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LINK = "s=,,,,,,,,,,,&d=14466&r=1"
"""The position of (b), (c) and (d): roll 1 on an empty sheet (the most options, the most work)."""
TIMEOUT_MS = 180_000
STEPS = ("runtime", "numpy", "package", "table")
"""The worker's loading steps; the page marks the end of each (``yacht:<step>:done``)."""
BLANK = "/bench-blank.html"


BARE_PAGE = ROOT / "bench" / "page"
"""The bare Pyodide + NumPy page of (a) (``bare.html``, ``bare-worker.js``): not published in
``public/``; the benchmarks' handlers serve it at the site's root (``BarePage``)."""


class BarePage:
    """A ``serve.Handler`` mixin: the files of ``BARE_PAGE`` at the root of the site it serves,
    beside the site's own files (it loads the site's ``pyodide/`` and ``runtime.js``). A site that
    has its own (an older build published them) keeps it."""

    def translate_path(self, path: str) -> str:
        local = super().translate_path(path)
        name = urlsplit(path).path.lstrip("/")
        if "/" not in name and (BARE_PAGE / name).is_file() and not os.path.isfile(local):
            return str(BARE_PAGE / name)
        return local


class PageHandler(BarePage, Handler):
    """The site, the bare page (``BarePage``), and the benchmark's own files (``served``: path →
    (body, type)): a same-origin page with no script of its own, for (d)."""

    served: ClassVar[dict[str, tuple[bytes, str]]] = {BLANK: (b"<!doctype html><title>bench</title>", "text/html")}

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        if path in self.served:
            body, content_type = self.served[path]
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def log_message(self, format: str, *args: object) -> None:
        pass


def evaluate_in_blank_page(handler: type[PageHandler], script: str, arg: object) -> tuple[dict, str]:
    """Serve ``public/`` with ``handler`` on 127.0.0.1, open the blank page of that origin in headless
    Chromium (service workers blocked) and return what ``script`` (a function of ``arg``) evaluates
    to there, and the browser's version."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(PUBLIC)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    executable = chromium_executable()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
            try:
                page = browser.new_context(service_workers="block").new_page()
                page.set_default_timeout(TIMEOUT_MS)
                page.goto(f"http://127.0.0.1:{httpd.server_port}{BLANK}")
                return page.evaluate(script, arg), browser.version
            finally:
                browser.close()
    finally:
        httpd.shutdown()
        httpd.server_close()


POLL_MS = 100
"""How often the benchmark looks for a mark. Not Playwright's default, every animation frame: that
has the page draw about 60 frames a second while it loads (commit, paint, layerize: CPU taken
from the loading worker on a 2-core machine, more for a big page than for the bare one). The
figure is the mark's own time, whenever it is seen."""


def mark_time(page, name: str) -> float:
    """Milliseconds from navigation start to the performance mark ``name`` (waiting for it)."""
    page.wait_for_function(f"performance.getEntriesByName({name!r}).length > 0", timeout=TIMEOUT_MS, polling=POLL_MS)
    return page.evaluate(f"performance.getEntriesByName({name!r})[0].startTime")


def new_context(browser: Browser, service_workers: str = "block"):
    """A new context: an empty HTTP cache, and service workers blocked unless asked for."""
    return browser.new_context(service_workers=service_workers)


def bare_load(browser: Browser, base: str) -> tuple[float, float]:
    """(ms to NumPy imported, ms to Pyodide up) on a cold load of the bare page."""
    context = new_context(browser)
    try:
        page = context.new_page()
        page.goto(base + "bare.html")
        return mark_time(page, "bare:numpy-ready"), mark_time(page, "bare:runtime")
    finally:
        context.close()


def page_loads(browser: Browser, base: str) -> tuple[float, float, dict[str, float], list[tuple[str, int]]]:
    """(cold ms, warm ms, {step: ms} of the cold load, [(path, bytes)] of the cold load)."""
    context = new_context(browser)
    try:
        requests = []

        def finished(request) -> None:
            requests.append(request)

        context.on("requestfinished", finished)
        page = context.new_page()
        page.goto(f"{base}index.html?{LINK}")
        cold = mark_time(page, "yacht:first-advice")
        context.remove_listener("requestfinished", finished)
        steps = {step: mark_time(page, f"yacht:{step}:done") for step in STEPS}
        transferred = []
        for request in {urlsplit(r.url).path: r for r in requests}.values():
            # Each file once: a second request for a file on a cold load (the worker's early fetch of
            # NumPy's wheel, then loadPackage's) is answered by the HTTP cache; the server sees one.
            sizes = request.sizes()
            # The body as the server sent it (Content-Length: of the compressed body when it is); CDP
            # reports no body size for a worker's own script.
            body = int(request.response().headers.get("content-length", sizes["responseBodySize"]))
            transferred.append((urlsplit(request.url).path, sizes["responseHeadersSize"] + body))
        page.goto(f"{base}index.html?{LINK}")
        warm = mark_time(page, "yacht:first-advice")
        return cold, warm, steps, transferred
    finally:
        context.close()


def service_worker_load(browser: Browser, base: str) -> float:
    """ms to the first advice on a second visit, the page served by its service worker's cache."""
    context = new_context(browser, service_workers="allow")
    try:
        page = context.new_page()
        page.goto(f"{base}index.html?{LINK}")
        mark_time(page, "yacht:first-advice")
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=TIMEOUT_MS)
        page.goto(f"{base}index.html?{LINK}")
        return mark_time(page, "yacht:first-advice")
    finally:
        context.close()


ADVICE_TIMES = """async ({query, repeat}) => {
  const worker = new Worker("/worker.js", {type: "module"});
  const pending = new Map();
  let next = 1;
  worker.onmessage = ({data}) => {
    if (data.type === "progress") return;
    const request = pending.get(data.id);
    pending.delete(data.id);
    if ("error" in data) request.reject(new Error(JSON.stringify(data.error)));
    else request.resolve(data.result);
  };
  const call = (action, args) => new Promise((resolve, reject) => {
    const id = next++;
    pending.set(id, {resolve, reject});
    worker.postMessage({id, action, args});
  });
  await call("start", {variant: "official"});
  const {times} = await call("time", {query, repeat});
  worker.terminate();
  return times;
}"""


def advice_times(browser: Browser, base: str, repeat: int) -> list[float]:
    context = new_context(browser)
    try:
        page = context.new_page()
        page.goto(base + BLANK.lstrip("/"))
        return page.evaluate(ADVICE_TIMES, {"query": LINK, "repeat": repeat})
    finally:
        context.close()


def gzip_size(path: str) -> int | None:
    file = PUBLIC / path.lstrip("/")
    return len(gzip.compress(file.read_bytes(), 9, mtime=0)) if file.is_file() else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of (a)–(c) (default 5)")
    parser.add_argument("--repeat", type=int, default=200, help="advices timed for (d) (default 200)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if not (PUBLIC / "build.json").is_file():
        parser.error("public/ is not built: run `.venv/bin/python tools/build_site.py` (or `make site`) first")

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(PageHandler, directory=str(PUBLIC)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_port}/"
    executable = chromium_executable()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
            version = browser.version
            bare, bare_runtime, cold, warm, offline = [], [], [], [], []
            steps: dict[str, list[float]] = {step: [] for step in STEPS}
            transferred: list[tuple[str, int]] = []
            for run in range(args.runs):
                numpy_ready, runtime_ready = bare_load(browser, base)
                bare.append(numpy_ready)
                bare_runtime.append(runtime_ready)
                c, w, at, transferred = page_loads(browser, base)
                cold.append(c)
                warm.append(w)
                for step in STEPS:
                    steps[step].append(at[step])
                offline.append(service_worker_load(browser, base))
                figures = f"a {bare[-1]:.0f} ms, b {c:.0f} ms, c {w:.0f} ms, f {offline[-1]:.0f} ms"
                print(f"run {run + 1}/{args.runs}: {figures}", file=sys.stderr)
            times = advice_times(browser, base, args.repeat)
            browser.close()
    finally:
        httpd.shutdown()
        httpd.server_close()

    a, b, c, f = statistics.median(bare), statistics.median(cold), statistics.median(warm), statistics.median(offline)
    ratios = sorted(y / x for x, y in zip(bare, cold, strict=True))
    d = statistics.median(times)
    total = sum(n for _, n in transferred)
    table = sum(n for path, n in transferred if path.endswith(".table"))
    print(f"\nPage benchmark: headless Chromium {version}, localhost, median of {args.runs} runs")
    print("  (a)–(c): service workers blocked")
    print(f"  (a) bare page, Pyodide + NumPy ready, cold cache      {a:9.0f} ms")
    print(f"      (a) Pyodide up                                     {statistics.median(bare_runtime):9.0f} ms")
    print(f"  (b) advisor page, first advice shown, cold cache       {b:9.0f} ms")
    print(f"      b/a                                                {b / a:9.3f}     goal ≤ 1.10")
    if len(ratios) >= 4:
        quartiles = statistics.quantiles(ratios, n=4)
        print(
            f"      b/a run by run: median {statistics.median(ratios):.3f}, quartiles {quartiles[0]:.3f}–"
            f"{quartiles[2]:.3f}, range {ratios[0]:.3f}–{ratios[-1]:.3f}"
        )
    print("      (b) step by step, from navigation start:")
    labels = {"runtime": "Pyodide", "numpy": "NumPy imported", "package": "yacht imported", "table": "table decoded"}
    for step in STEPS:
        print(f"        {labels[step]:<46} {statistics.median(steps[step]):9.0f} ms")
    print(f"        {'first advice shown':<46} {b:9.0f} ms")
    print(f"  (c) advisor page, first advice shown, warm cache       {c:9.0f} ms")
    print(f"  (f) advisor page, first advice shown, service worker   {f:9.0f} ms")
    print(f"  (d) one roll-1 advice in the worker, median of {len(times):<4}  {d:9.2f} ms   goal ≤ 5 ms")
    deciles = statistics.quantiles(times, n=10)
    print(f"      (p10 {deciles[0]:.2f} ms, p90 {deciles[-1]:.2f} ms)")
    print(f"  (e) bytes on a cold load of (b)                        {total:9,d}")
    print(
        f"      of which the table                                 {table:9,d}     "
        f"{table / total:.1%}, goal ≤ 256 KiB ({256 * 1024:,d})"
    )
    print("\n  bytes per file (as served, compressed where the server compresses; gzip -9 of the file beside)")
    for path, n in sorted(transferred, key=lambda item: -item[1]):
        packed = gzip_size(path)
        print(f"    {path:60s} {n:11,d}   gzip {packed:11,d}" if packed else f"    {path:60s} {n:11,d}")
    if args.json:
        figures = {
            "chromium": version,
            "runs": args.runs,
            "a_ms": a,
            "b_ms": b,
            "b_over_a": b / a,
            "b_over_a_by_run": ratios,
            "c_ms": c,
            "f_ms": f,
            "d_ms": d,
            "e_bytes": total,
            "e_table_bytes": table,
            "b_steps_ms": {step: statistics.median(values) for step, values in steps.items()},
            "samples": {"a": bare, "b": cold, "c": warm, "d": times, "f": offline},
        }
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
