"""The page per browser engine: the first advice cold and warm, step by step, in Chromium, WebKit and Firefox.

    .venv/bin/python bench/bench_engines.py [--runs 3] [--engines chromium,webkit,firefox] [--probe] [--json FILE]

Serves ``public/`` (built: ``make site``) on 127.0.0.1 and, for each engine, in each run, starts
the browser on a new profile (an empty cache, no service worker, no snapshot) and opens the page on
``bench_page.LINK`` (roll 1 on an empty sheet):

- cold: the first visit, navigation start to the page's ``yacht:first-advice`` mark;
- warm: once the service worker controls the page and the warm start's snapshot is saved
  (``bench_phone.SNAPSHOT_SAVED``), the link opened again in the same browser (a second visit:
  Python starts from the snapshot, the files come from the service worker).

The steps are the page's own marks (web/page/requests/requests.js marks ``yacht:<step>:<state>`` when the
worker's progress message arrives, and ``yacht:runtime-start`` with how Python started): the
worker's first message (when its script has loaded and started), then the time each step took
(``runtime``, ``numpy``, ``package``: one after the other; ``table``: fetched from the start,
in parallel, decoded once the package is in), and ``advice``: from the start action's answer to
the first advice shown; then the NumPy step's parts, from the worker's own progress marks
(web/worker/worker-numpy.js): when the wheel's bytes were in, how long the worker took to unpack
them, to install them (its WebAssembly modules loaded), and ``import numpy``. Medians of
``--runs`` runs; the engines alternate within each run.

Chromium is Debian's, headless, through Playwright, as the other page benchmarks; WebKit
(WebKitGTK's MiniBrowser under an Xvfb of its own) and Firefox (firefox-esr, headless, WebDriver
BiDi) through the engine smoke tests' drivers (tests/browser/engine_webkit.py, engine_firefox.py).
The page is served with ``engine_webkit.ERROR_WATCH`` in its head for every engine (the WebKit
driver reads the page's errors from it on each navigation; a few lines of script, the same for all).

``--probe``: then, per engine, ``--runs`` more runs on a copy of the site whose worker has
``bench/numpy_probe.js`` in it (web/ and public/ are untouched): the NumPy step taken apart inside
the worker (the wheel's fetch, each WebAssembly compile and instantiation of NumPy's .so files,
the rest of loadPackage, ``import numpy``; then each .so compiled again alone, and the source of
NumPy's imported modules compiled again by Python).
"""

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

from bench_page import CHROMIUM_ARGS, LINK, PUBLIC, ROOT, STEPS, TIMEOUT_MS, PageHandler, chromium_executable
from bench_phone import SNAPSHOT_SAVED
from bench_phone import serving as phone_serving
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(ROOT))
from tests.browser import engine_firefox, engine_webkit  # the smoke tests' drivers, reused

ENGINES = ("chromium", "webkit", "firefox")
PROBE = Path(__file__).with_name("numpy_probe.js")
TIMEOUT = TIMEOUT_MS / 1000
MARKS = """() => {
  const marks = {};
  for (const m of performance.getEntriesByType("mark")) {
    if (m.name.startsWith("yacht:") && !(m.name in marks)) marks[m.name] = m.startTime;
  }
  const probe = performance.getEntriesByType("mark").find((m) => m.name.startsWith("yacht:probe:"));
  return {
    marks,
    runtimeStart: performance.getEntriesByName("yacht:runtime-start")[0]?.detail ?? null,
    probe: probe ? JSON.parse(probe.name.slice("yacht:probe:".length)) : null,
  };
}"""
"""The page's marks (name → ms from navigation start), how Python started, and the probe's figures."""
FIRST_ADVICE = "() => performance.getEntriesByName('yacht:first-advice').length > 0"
CONTROLLED = "() => navigator.serviceWorker?.controller?.state === 'activated'"
SNAPSHOT_WAIT = 60.0
"""Seconds to wait for the warm start's snapshot to be saved; past them the warm visit is measured anyway."""
COLUMNS = ("advice", "worker", *STEPS, "answer", "wheel at", "unzip", "install", "import")
"""Per visit, ms: the first advice and the worker's first message from navigation start; each
step's time; the start action's answer to the first advice; then NumPy's step taken apart: its
wheel's bytes in (from navigation start), unpacked by the worker (how long), installed with its
WebAssembly modules (from the step's start) and imported (from then)."""


class PlaywrightDriver:
    """Chromium through Playwright, with the few EngineDriver methods this benchmark uses."""

    name = "chromium"

    def __init__(self, playwright) -> None:
        executable = chromium_executable()
        self.browser = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        self.version = self.browser.version
        self.page = self.browser.new_context(service_workers="allow").new_page()
        self.page.set_default_timeout(TIMEOUT_MS)

    def goto(self, url: str) -> None:
        self.page.goto(url)

    def evaluate(self, function: str, *args: Any) -> Any:
        return self.page.evaluate(f"(args) => ({function})(...args)", list(args))

    def wait_for(self, function: str, *args: Any, timeout: float = TIMEOUT) -> Any:
        deadline = time.monotonic() + timeout
        while not (value := self.evaluate(function, *args)):
            if time.monotonic() > deadline:
                raise AssertionError(f"chromium: not true within {timeout} s: {function} (last: {value!r})")
            time.sleep(0.1)
        return value

    def close(self) -> None:
        self.browser.close()


class _WatchedHandler(PageHandler):
    """The site, its page with engine_webkit.ERROR_WATCH in the head (``served``, set per server)."""

    served: ClassVar[dict[str, tuple[bytes, str]]] = {}

    def log_message(self, format: str, *args: object) -> None:
        pass


def serving(folder: Path):
    """``folder`` on 127.0.0.1 (its index.html with the error watch), as ``bench_phone.serving``:
    a context manager that yields its base URL."""
    page = engine_webkit.with_error_watch((folder / "index.html").read_bytes())
    served = {path: (page, "text/html") for path in ("/", "/index.html")}
    return phone_serving(folder, type("Handler", (_WatchedHandler,), {"served": served}))


@contextmanager
def probed_site() -> Iterator[Path]:
    """A copy of public/ (symbolic links, but for worker.js) whose worker has numpy_probe.js."""
    worker = (PUBLIC / "worker.js").read_text()
    original = "async function loadNumpy(pyodide) {"
    if worker.count(original) != 1:
        raise SystemExit("public/worker.js has no single `async function loadNumpy(pyodide)`: update numpy_probe.js")
    probed = worker.replace(original, "async function loadNumpyOriginal(pyodide) {") + "\n" + PROBE.read_text()
    with tempfile.TemporaryDirectory(prefix="bench-probe-") as tmp:
        folder = Path(tmp)
        for entry in PUBLIC.iterdir():
            if entry.name != "worker.js":
                (folder / entry.name).symlink_to(entry)
        (folder / "worker.js").write_text(probed)
        yield folder


def visit(driver, url: str) -> dict:
    """Open ``url`` and return the page's marks once its first advice is shown."""
    driver.goto(url)
    driver.wait_for(FIRST_ADVICE, timeout=TIMEOUT)
    if driver.evaluate("() => document.documentElement.dataset.state") == "error":
        raise RuntimeError(f"{driver.name}: the page failed to load")
    return driver.evaluate(MARKS)


def figures(seen: dict) -> dict:
    """The columns of one visit (COLUMNS): ms from navigation start, or ms a step took."""
    marks = seen["marks"]
    row = {"advice": marks["yacht:first-advice"], "worker": marks.get("yacht:runtime:start")}
    for step in STEPS:
        start, done = marks.get(f"yacht:{step}:start"), marks.get(f"yacht:{step}:done")
        row[step] = None if start is None or done is None else done - start
    row["answer"] = marks["yacht:first-advice"] - marks["yacht:runtime-start"]
    # Inside the NumPy step (the worker's own progress marks: web/worker/worker-numpy.js).
    fetched, unpacked = marks.get("yacht:numpy-wheel:fetched"), marks.get("yacht:numpy-wheel:unpacked")
    installed = next((v for k, v in marks.items() if k.startswith("yacht:numpy-install:")), None)
    row["wheel at"] = fetched
    row["unzip"] = None if fetched is None or unpacked is None else unpacked - fetched
    numpy_start, numpy_done = marks.get("yacht:numpy:start"), marks.get("yacht:numpy:done")
    row["install"] = None if installed is None or numpy_start is None else installed - numpy_start
    row["import"] = None if installed is None or numpy_done is None else numpy_done - installed
    return {"row": row, "python": seen["runtimeStart"], "probe": seen["probe"]}


def run_engine(name: str, start: Callable[[Path], Any], base: str) -> dict:
    """One run: a fresh profile, the cold visit, then the warm one."""
    with tempfile.TemporaryDirectory(prefix=f"bench-{name}-") as profile:
        driver = start(Path(profile))
        try:
            url = f"{base}index.html?{LINK}"
            cold = figures(visit(driver, url))
            driver.wait_for(CONTROLLED, timeout=TIMEOUT)
            try:
                driver.wait_for(SNAPSHOT_SAVED, timeout=SNAPSHOT_WAIT)
            except AssertionError:  # the warm visit then starts afresh: its Python column says so
                print(f"{name}: no snapshot saved within {SNAPSHOT_WAIT:.0f} s", file=sys.stderr)
            warm = figures(visit(driver, url))
            version = getattr(driver, "version", None)
            return {"cold": cold, "warm": warm, "version": version}
        finally:
            driver.close()


def starters(playwright) -> dict[str, Callable[[Path], Any]]:
    return {
        "chromium": lambda _profile: PlaywrightDriver(playwright),
        "webkit": engine_webkit.start_webkit,
        "firefox": engine_firefox.start_firefox,
    }


def median(values: list) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


def print_engine(name: str, runs: list[dict], label: str = "") -> None:
    version = next((r["version"] for r in runs if r["version"]), None)
    print(f"\n  {name}{f' {version}' if version else ''}{label}: medians of {len(runs)} runs, ms")
    header = "advice at  worker at " + " ".join(f"{c:>8s}" for c in COLUMNS[2:])
    print(f"      {'visit':6s} {header}   Python")
    for visit_ in ("cold", "warm"):
        cells = [median([r[visit_]["row"][c] for r in runs]) for c in COLUMNS]
        shown = " ".join("       –" if v is None else f"{v:8.0f}" for v in cells)
        started = "/".join(sorted({str(r[visit_]["python"]) for r in runs}))
        print(f"      {visit_:6s}   {shown[:8]}  {shown[9:]}   {started}")


def probe_summary(probe: dict) -> dict:
    """One visit's NumPy step split (ms, inside the worker; 0 = the step's start there)."""
    wasm = [w for w in probe["wasm"] if w["at"] < probe["stepEnd"]]
    wheel = [b for b in probe["bodies"] if b["url"].endswith(".whl")]
    fetched = max((b["end"] for b in wheel), default=0.0)
    first_wasm = min((w["at"] for w in wasm), default=probe["loadPackageEnd"])
    compiles = sum(w["ms"] for w in wasm if w["kind"] in ("compile", "new Module", "instantiate"))
    linking = probe["loadPackageEnd"] - first_wasm - compiles
    return {
        "wheel fetched": fetched,
        "wheel → first .so": first_wasm - fetched,
        "wasm compile+inst": compiles,
        "rest of .so loading": linking,
        "loadPackage": probe["loadPackageEnd"],
        "import numpy": probe["importEnd"] - probe["loadPackageEnd"],
        "step (in worker)": probe["stepEnd"],
        "recompile .so alone": sum(r["ms"] for r in probe["recompile"]),
        "recompile NumPy .py": probe["pySource"]["compileMs"],
    }


def print_probe(name: str, runs: list[dict]) -> None:
    print(f"\n  {name}: the NumPy step inside the worker (probed copy), medians of {len(runs)} runs, ms")
    for visit_ in ("cold", "warm"):
        summaries = [probe_summary(r[visit_]["probe"]) for r in runs if r[visit_]["probe"]]
        if not summaries:
            print(f"      {visit_}: no probe figures")
            continue
        cells = "  ".join(f"{k} {statistics.median(s[k] for s in summaries):.0f}" for k in summaries[0])
        print(f"      {visit_:5s} {cells}")
        first = next(r[visit_]["probe"] for r in runs if r[visit_]["probe"])
        wasm = ", ".join(f"{w['kind']} {w['bytes'] or '?'} B {w['ms']:.0f}" for w in first["wasm"])
        print(
            f"            (run 1: {wasm}; recompiled alone: "
            + ", ".join(f"{r['file'].split('.')[0]} {r['ms']:.0f}" for r in first["recompile"])
            + f"; NumPy source: {first['pySource']['modules']} modules, {first['pySource']['bytes']:,d} B,"
            f" pyc written {first['pySource']['pycWritten']})"
        )


def measure(engines: list[str], runs: int, folder: Path, label: str) -> dict[str, list[dict]]:
    results: dict[str, list[dict]] = {name: [] for name in engines}
    with sync_playwright() as playwright, serving(folder) as base:
        start = starters(playwright)
        for run in range(runs):
            for name in engines:
                result = run_engine(name, start[name], base)
                results[name].append(result)
                cold, warm = result["cold"], result["warm"]
                print(
                    f"{label}run {run + 1}/{runs} {name}: cold {cold['row']['advice']:.0f} ms"
                    f" (numpy {cold['row']['numpy']:.0f}), warm {warm['row']['advice']:.0f} ms"
                    f" (numpy {warm['row']['numpy']:.0f}, Python {warm['python']})",
                    file=sys.stderr,
                )
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per engine (default 3)")
    parser.add_argument("--engines", default=",".join(ENGINES), help="comma-separated, of " + ", ".join(ENGINES))
    parser.add_argument("--probe", action="store_true", help="then the NumPy step taken apart (a probed copy)")
    parser.add_argument("--json", type=Path, help="also write every run's figures to this file")
    args = parser.parse_args(argv)
    engines = [e for e in args.engines.split(",") if e]
    if unknown := set(engines) - set(ENGINES):
        parser.error(f"unknown engines: {', '.join(sorted(unknown))}")
    if not (PUBLIC / "build.json").is_file():
        parser.error("public/ is not built: run `make site` first")
    for module, name in ((engine_webkit, "webkit"), (engine_firefox, "firefox")):
        if name in engines and (problem := module.missing()):
            parser.error(problem)
    if "chromium" in engines and chromium_executable() is None:
        print("no Debian chromium: Playwright's own Chromium is tried (`make chromium` installs it)", file=sys.stderr)

    results = measure(engines, args.runs, PUBLIC, "")
    probed = {}
    if args.probe:
        with probed_site() as folder:
            probed = measure(engines, args.runs, folder, "probe ")

    print(f"\nEngines: the first advice of a roll-1 link on localhost, a new profile per run ({args.runs} runs)")
    print("  advice at / worker at: ms from navigation start to the first advice / the worker's first message;")
    print("  runtime, numpy, package, table: ms each step took (table: in parallel); answer: start → first advice;")
    print("  wheel at: NumPy's wheel in (from navigation start); unzip, install, import: NumPy's step's parts, ms")
    for name in engines:
        print_engine(name, results[name])
    for name in probed:
        print_probe(name, probed[name])
    if args.json:
        args.json.write_text(json.dumps({"runs": results, "probe": probed}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
