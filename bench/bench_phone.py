"""The phone benchmark: the page on an emulated phone and network, this build against an older one.

    .venv/bin/python bench/bench_phone.py [--runs 3] [--old 5b5e488] [--quota 0.5,0.25] [--cpu-only] [--json FILE]

Headless Chromium as a phone (390 × 844, scale 3, touch, mobile) on an emulated network
(``NETWORK``: 9 Mbit/s down, 1.5 Mbit/s up, 150 ms round trip, CDP
``Network.emulateNetworkConditions``). The condition is set on the page's target, which in
Chromium also throttles its dedicated worker's requests (the worker target itself answers "Not
supported"), and on every service worker target the page's session attaches to (``Throttle``).
Both sites are served by ``tools/serve.py``'s handler, which compresses as a static host does,
offering gzip only (the goal is over gzip; Chromium accepts brotli from 127.0.0.1 too); what
brotli would make of the compressed files is printed beside.

Measured in one run, for this build (``public/``, built first) and for the build of commit
``--old`` (default 5b5e488, the build before the trimmed runtime, the compression and the warm
start: exported with ``git archive`` into a temporary directory, its tables and site built there):

(a) the bytes of a first visit by file, as CDP reports them on the wire (headers and compressed
    bodies; ``Network.loadingFinished``): the page and its worker until the first advice, then
    the service worker's precache (revalidations of what the HTTP cache holds) until it controls
    the page;
(b) cold first advice: a new context (empty caches), navigation start to the page's
    ``yacht:first-advice`` mark on a roll-1 link;
(c) second-visit first advice: the same context once the service worker controls the page (and,
    for this build, the warm start's snapshot is saved), the link opened again;
(e) the bare page (``bench/page/bare.html``, served beside the site: Pyodide + NumPy from the
    same runtime files, nothing of ours) of this build, cold: navigation start to ``bare:numpy-ready``.

Medians of ``--runs`` runs; the runs alternate between the builds so both see the same machine.
Goals: first visit ≤ 5.0 MB; b ≤ 0.65 × old b; c ≤ 0.5 × old c; b ≤ 1.10 × e.

Then a phone's slower CPU, for this build only (``--cpu-only``: this part alone), on the same
network (``phone_cpu.py``): (b) and (c) with their steps, NumPy's taken apart, and how Python
started (the page's ``yacht:runtime-start``) at full speed (the runs above), with the page's main
thread slowed ×4 by CDP, and with the whole browser under a CPU quota of each share of one core
of ``--quota`` (every process, workers included), the modes alternating within each run.
"""

import argparse
import functools
import http.server
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

from bench_page import CHROMIUM_ARGS, LINK, ROOT, STEPS, TIMEOUT_MS, BarePage, chromium_executable, mark_time
from phone_cpu import NUMPY_STEPS, QUOTAS, cpu_section, print_cpu
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright

sys.path.insert(0, str(ROOT / "tools"))
import serve
from serve import Handler
from site_build import runtime
from site_build.common import PUBLIC

OLD: str = "5b5e488"
NETWORK = {"offline": False, "latency": 150, "downloadThroughput": 9e6 / 8, "uploadThroughput": 1.5e6 / 8}
"""9 Mbit/s down, 1.5 Mbit/s up (bytes per second), 150 ms round trip."""
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "is_mobile": True, "has_touch": True}
SNAPSHOT_SAVED = """async () => {
  if (!("caches" in self) || !(await caches.has("yacht-runtime-snapshot"))) return false;
  return (await (await caches.open("yacht-runtime-snapshot")).keys()).length > 0;
}"""


class GzipHandler(BarePage, Handler):
    """The site and the bare page, compressed as a static host does (gzip only), quietly."""

    encodings = ("gzip",)  # the goal is over gzip (Chromium would take brotli from 127.0.0.1)

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def serving(folder: Path, handler: type = GzipHandler) -> Iterator[str]:
    """``folder`` served compressed on 127.0.0.1 (by ``handler``, a ``serve.Handler``); yields its base URL."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(folder)))
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


def build_old(commit: str, folder: Path) -> Path:
    """The site of ``commit``, built in ``folder`` (git archive, its own build_table and build_site)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    (folder / "node_modules").symlink_to(ROOT / "node_modules")
    source = runtime.pyodide_dir(runtime.pinned_pyodide_version())
    wheel, _ = runtime.numpy_wheel(json.loads((source / "pyodide-lock.json").read_text()))
    env = dict(os.environ, PYTHONPATH=str(folder / "py"), YACHT_NUMPY_WHEEL=str(wheel))
    site = "tools/build_site.py" if (folder / "tools" / "build_site.py").is_file() else "web/build_site.py"
    for command in (["-m", "build_table"], [site]):  # the build's place at that commit
        subprocess.run([sys.executable, *command], cwd=folder, env=env, check=True, capture_output=True)
    return folder / "public"


class Throttle:
    """NETWORK on a page's target (which in Chromium also throttles its dedicated worker) and on
    every service worker target attached to it, recording the bytes each transfers.

    The page's CDP session auto-attaches (non-flat, so messages to a target go through
    ``Target.sendMessageToTarget``); each new target waits until Network is set up on it.
    """

    def __init__(self, context: BrowserContext, page: Page, cpu_rate: float | None = None) -> None:
        self.session = context.new_cdp_session(page)
        if cpu_rate is not None:  # the page's main thread only (phone_cpu.py)
            self.session.send("Emulation.setCPUThrottlingRate", {"rate": cpu_rate})
        self.urls: dict[tuple[str, str], str] = {}
        self.page_bytes: list[tuple[str, int]] = []
        self.sw_bytes: list[tuple[str, int]] = []
        self.service_workers: set[str] = set()
        self.session.on("Network.responseReceived", lambda e: self._response("", e))
        self.session.on("Network.loadingFinished", lambda e: self._finished("", e))
        self.session.on("Target.attachedToTarget", self._attached)
        self.session.on("Target.receivedMessageFromTarget", self._message)
        self.session.send("Network.enable")
        self.session.send("Network.emulateNetworkConditions", NETWORK)
        attach = {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False}
        self.session.send("Target.setAutoAttach", attach)

    def _response(self, session_id: str, event: dict) -> None:
        self.urls[session_id, event["requestId"]] = event["response"]["url"]

    def _finished(self, session_id: str, event: dict) -> None:
        url = self.urls.get((session_id, event["requestId"]), "?")
        into = self.sw_bytes if session_id in self.service_workers else self.page_bytes
        into.append((url, int(event["encodedDataLength"])))

    def _send(self, session_id: str, method: str, params: dict | None = None) -> None:
        message = json.dumps({"id": 1, "method": method, "params": params or {}})
        self.session.send("Target.sendMessageToTarget", {"sessionId": session_id, "message": message})

    def _attached(self, event: dict) -> None:
        session_id = event["sessionId"]
        self._send(session_id, "Network.enable")  # the requests of the worker and the service worker
        if event["targetInfo"]["type"] == "service_worker":
            self.service_workers.add(session_id)
            self._send(session_id, "Network.emulateNetworkConditions", NETWORK)
        self._send(session_id, "Runtime.runIfWaitingForDebugger")

    def _message(self, event: dict) -> None:
        message = json.loads(event["message"])
        if message.get("method") == "Network.responseReceived":
            self._response(event["sessionId"], message["params"])
        elif message.get("method") == "Network.loadingFinished":
            self._finished(event["sessionId"], message["params"])


def wait_until(page: Page, predicate: str) -> None:
    """Poll the async JS ``predicate`` until it resolves true (wait_for_function takes a promise as true)."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not page.evaluate(predicate):
        if time.monotonic() > deadline:
            raise TimeoutError(f"never true: {predicate}")
        page.wait_for_timeout(200)


def phone_context(browser: Browser) -> BrowserContext:
    return browser.new_context(service_workers="allow", **PHONE)


NUMPY = "({origin: performance.timeOrigin, steps: globalThis.numpySteps ?? {}, how: globalThis.numpyInstall ?? null})"


def numpy_steps(page: Page) -> dict[str, float]:
    """The NumPy step's parts (``phone_cpu.NUMPY_STEPS``), ms from navigation start, as the page's
    worker timed them (web/worker/worker-numpy.js; {} for a build without)."""
    worker = next((w for w in page.workers if w.url.endswith("/worker.js")), None)
    seen = worker and worker.evaluate(NUMPY)
    if not seen:
        return {}
    shift = seen["origin"] - page.evaluate("performance.timeOrigin")
    steps = {name: seen["steps"][name] + shift for name in NUMPY_STEPS if name in seen["steps"]}
    return {**steps, "how": seen["how"]} if seen["how"] else steps


def runtime_start(page: Page) -> str:
    """How the page's Python started (its ``yacht:runtime-start`` mark; "?" in a build without it)."""
    return page.evaluate("performance.getEntriesByName('yacht:runtime-start')[0]?.detail ?? '?'")


PRIMING = """(() => {
  const [start, done] = ["start", "done"].map((s) => performance.getEntriesByName(`yacht:runtime-code:${s}`)[0]);
  return start && done ? done.startTime - start.startTime : null;
})()"""
"""The ms the first visit spent compiling the runtime's code ahead (offline.js: primeRuntimeCode), or null."""


def visits(browser: Browser, base: str, cpu_rate: float | None = None, wait_for_priming: bool = True) -> dict:
    """(b) cold and (c) second-visit first advice in ms, and (a) the first visit's bytes by file;
    the second visit after the runtime's code is primed (``wait_for_priming``), or at once."""
    context = phone_context(browser)
    try:
        page = context.new_page()
        throttle = Throttle(context, page, cpu_rate)
        page.goto(f"{base}index.html?{LINK}")
        cold = mark_time(page, "yacht:first-advice")
        cold_steps = {step: mark_time(page, f"yacht:{step}:done") for step in STEPS}
        cold_start, cold_numpy = runtime_start(page), numpy_steps(page)
        page_bytes = list(throttle.page_bytes)
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=TIMEOUT_MS)
        if page.evaluate("typeof caches !== 'undefined'"):  # this build's worker saves the warm start's snapshot
            worker = next((w for w in page.workers if w.url.endswith("/worker.js")), None)
            if worker is not None and worker.evaluate("globalThis.runtimeStart !== undefined"):
                wait_until(page, SNAPSHOT_SAVED)
        # This build compiles the runtime's WebAssembly once through the service worker (offline.js):
        # a player's next visit comes later, so the second visit here waits for it too.
        priming = None
        if wait_for_priming and page.evaluate("document.documentElement.dataset.runtimeCode !== undefined"):
            page.wait_for_function("document.documentElement.dataset.runtimeCode !== 'priming'", timeout=TIMEOUT_MS)
            priming = page.evaluate(PRIMING)
        sw_bytes = list(throttle.sw_bytes)
        page.goto(f"{base}index.html?{LINK}")
        second = mark_time(page, "yacht:first-advice")
        second_steps = {step: mark_time(page, f"yacht:{step}:done") for step in STEPS}
        return {
            "runtime_start": {"cold": cold_start, "second": runtime_start(page)},
            "cold_ms": cold,
            "second_ms": second,
            "priming_ms": priming,
            "steps": {"cold": cold_steps, "second": second_steps},
            "numpy_steps": {"cold": cold_numpy, "second": numpy_steps(page)},
            "page_bytes": page_bytes,
            "sw_bytes": sw_bytes,
        }
    finally:
        context.close()


def bare_load(browser: Browser, base: str) -> float:
    context = phone_context(browser)
    try:
        page = context.new_page()
        Throttle(context, page)
        page.goto(base + "bare.html")
        return mark_time(page, "bare:numpy-ready")
    finally:
        context.close()


def by_file(transferred: list[tuple[str, int]]) -> dict[str, int]:
    files: dict[str, int] = {}
    for url, n in transferred:
        path = urlsplit(url).path
        files[path] = files.get(path, 0) + n
    return files


def brotli_saving(folder: Path, files: dict[str, int]) -> int | None:
    """Bytes fewer with brotli than with gzip for the files sent compressed (None: no brotli package)."""
    if serve.brotli is None:
        return None
    saved = 0
    for path in files:
        file = folder / path.lstrip("/")
        if file.suffix in serve.COMPRESSIBLE and file.is_file():
            data = file.read_bytes()
            saved += len(serve.compress(data, "gzip")) - len(serve.compress(data, "br"))
    return saved


def print_bytes(label: str, figures: dict) -> int:
    page, sw = by_file(figures["page_bytes"]), by_file(figures["sw_bytes"])
    total = sum(page.values()) + sum(sw.values())
    print(f"\n  (a) {label}: first visit, bytes on the wire (compressed bodies + headers)")
    for path, n in sorted(page.items(), key=lambda item: -item[1]):
        if n >= 1000:
            print(f"      {path:72s} {n:11,d}")
    small = [n for n in page.values() if n < 1000]
    print(f"      {f'{len(small)} files under 1,000 bytes':72s} {sum(small):11,d}")
    print(f"      {'page and worker, to the first advice':72s} {sum(page.values()):11,d}")
    precache = f"service worker precache ({len(figures['sw_bytes'])} requests)"
    print(f"      {precache:72s} {sum(sw.values()):11,d}")
    print(f"      {'total':72s} {total:11,d}")
    saved = figures["brotli_saved"]
    if saved is not None:
        print(
            f"      {f'total with brotli {serve.BROTLI_QUALITY} instead of gzip (computed)':72s} {total - saved:11,d}"
        )
    return total


def compare(pw: Playwright, executable: str | None, new_base: str, args: argparse.Namespace) -> dict:
    """(a), (b), (c) and (e): this build against the build of ``args.old``, alternating, at full CPU speed."""
    with tempfile.TemporaryDirectory(prefix="bench-old-") as tmp:
        print(f"building {args.old} in {tmp} …", file=sys.stderr)
        old_public = build_old(args.old, Path(tmp))
        with serving(old_public) as old_base:
            browser = pw.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
            runs: dict[str, list] = {"new": [], "old": [], "bare": [], "unprimed": []}
            for run in range(args.runs):
                runs["bare"].append(bare_load(browser, new_base))
                runs["new"].append(visits(browser, new_base))
                runs["unprimed"].append(visits(browser, new_base, wait_for_priming=False))
                runs["old"].append(visits(browser, old_base))
                new, old = runs["new"][-1], runs["old"][-1]
                figures = (
                    f"bare {runs['bare'][-1]:.0f} ms; this build cold {new['cold_ms']:.0f}, second "
                    f"{new['second_ms']:.0f}; {args.old} cold {old['cold_ms']:.0f}, second {old['second_ms']:.0f}"
                )
                print(f"run {run + 1}/{args.runs}: {figures}", file=sys.stderr)
            runs["version"] = browser.version
            browser.close()
        for build, folder in (("new", PUBLIC), ("old", old_public)):
            first = runs[build][0]
            first["brotli_saved"] = brotli_saving(folder, by_file(first["page_bytes"] + first["sw_bytes"]))
    return runs


def print_comparison(runs: dict, args: argparse.Namespace) -> dict:
    def median(build: str, key: str) -> float:
        return statistics.median(r[key] for r in runs[build])

    b_new, b_old = median("new", "cold_ms"), median("old", "cold_ms")
    c_new, c_old = median("new", "second_ms"), median("old", "second_ms")
    bare = statistics.median(runs["bare"])
    print(f"\nPhone benchmark: headless Chromium {runs['version']}, 390 × 844, 9 Mbit/s down, 1.5 up, 150 ms RTT,")
    print(f"gzip server; median of {args.runs} runs; this build vs {args.old}")
    total_new = print_bytes("this build", runs["new"][0])
    total_old = print_bytes(args.old, runs["old"][0])
    print(f"\n  (a) first visit: {total_new:,d} bytes vs {total_old:,d}          goal ≤ 5,000,000")
    print(f"  (b) cold first advice        {b_new:8.0f} ms vs {b_old:8.0f} ms   {b_new / b_old:.3f}×   goal ≤ 0.65×")
    print(f"  (c) second-visit advice      {c_new:8.0f} ms vs {c_old:8.0f} ms   {c_new / c_old:.3f}×   goal ≤ 0.5×")
    print(f"  (e) bare page, NumPy ready   {bare:8.0f} ms    (b)/(e) {b_new / bare:.3f}      goal ≤ 1.10")
    primed = [r["priming_ms"] for r in runs["new"] if r["priming_ms"] is not None]
    if primed:
        priming = statistics.median(primed)
        print(f"      the first visit's priming of the runtime's code, after its advice: {priming:.0f} ms")
    unprimed = median("unprimed", "second_ms")
    print(f"  (c') second visit at once, not waiting for the priming: {unprimed:.0f} ms (primed: {c_new:.0f} ms)")
    print("\n  step by step, ms from navigation start to the end of each (medians): this build / old")
    for visit in ("cold", "second"):
        for step in STEPS:
            new_ms, old_ms = (statistics.median(r["steps"][visit][step] for r in runs[b]) for b in ("new", "old"))
            print(f"      {visit:6s} {step:8s} {new_ms:8.0f} / {old_ms:8.0f}")
    return {
        "chromium": runs["version"],
        "runs": args.runs,
        "old": args.old,
        "first_visit_bytes": {"new": total_new, "old": total_old},
        "cold_ms": {"new": b_new, "old": b_old},
        "second_ms": {"new": c_new, "old": c_old},
        "bare_ms": bare,
        "second_unprimed_ms": unprimed,
        "samples": {key: runs[key] for key in ("new", "old", "bare", "unprimed")},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each measure (default 3)")
    parser.add_argument("--old", default=OLD, help=f"the commit to compare with (default {OLD})")
    shares = ",".join(f"{q:g}" for q in QUOTAS)
    parser.add_argument("--quota", default=shares, help=f"the whole browser's shares of a core, each a mode ({shares})")
    parser.add_argument("--cpu-only", action="store_true", help="only the CPU section (no build of --old)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if not (PUBLIC / runtime.RUNTIME_MODULE).is_file():
        parser.error("public/ is not built: run `make site` first")
    executable = chromium_executable()
    figures: dict = {}
    with serving(PUBLIC) as new_base, sync_playwright() as pw:
        runs = None if args.cpu_only else compare(pw, executable, new_base, args)
        quotas = tuple(float(q) for q in args.quota.split(",") if q)
        executable = executable or pw.chromium.executable_path
        cpu = cpu_section(pw, executable, new_base, args.runs, quotas, runs and runs["new"], visits)
    if runs is not None:
        figures = print_comparison(runs, args)
    print_cpu(cpu, args.runs, args.cpu_only)
    if args.json:
        figures["cpu"] = cpu
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
