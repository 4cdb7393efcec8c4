"""Record what the page imports in Pyodide, and write the keep-lists the site build trims by.

    .venv/bin/python tools/record_imports.py          # rewrite tools/keep-stdlib.txt and tools/keep-numpy.txt
    .venv/bin/python tools/record_imports.py --check  # exit 1, naming them, if a module is outside the lists

Serves the built ``public/`` (``tools/site_runtime.py`` first) with the *official* runtime files
put back in place of the trimmed ones (``official_files``: the whole ``python_stdlib.zip``, the
whole NumPy wheel, a lock file and ``runtime.js`` with their sha256), opens the page in headless
Chromium and makes its worker do everything it can (``exercise``): advice of both variants at
every roll and a full sheet, game records and their review, every kind of bad input, and the
loading failures that reach Python (a table of the wrong variant, a damaged table, a damaged
package wheel). After each of these the worker's ``sys.modules`` is read (``imported``); the
union, as members of the stdlib zip and of the wheel, is what the keep-lists hold, plus
``ALWAYS_KEPT`` (Pyodide's own packages, which it imports on its own paths, and NumPy's
``.dist-info``, which ``loadPackage`` writes into).

The browser test ``tests/browser/test_runtime.py`` runs the same ``exercise`` and fails, naming
each module, when something outside the committed lists is imported.
"""

import argparse
import functools
import hashlib
import http.server
import json
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from serve import Handler
from site_build import common
from site_build import runtime as site_runtime

ROOT: Final = common.ROOT
PUBLIC: Final = common.PUBLIC

ALWAYS_KEPT: Final = {
    "stdlib": ("_pyodide/", "pyodide/"),
    "numpy": ("numpy-2.0.2.dist-info/",),
}
STDLIB_PREFIX: Final = "/lib/python312.zip/"
SITE_PACKAGES: Final = "/lib/python3.12/site-packages/"

HEADERS: Final = {
    "stdlib": "# python_stdlib.zip members the page imports (tools/record_imports.py writes this file).\n",
    "numpy": "# NumPy wheel members the page imports (tools/record_imports.py writes this file).\n",
}

QUERIES: Final = (
    # advice, official rules: every roll, a full sheet, a percent-encoded and a whole-URL query
    "",
    "s=,,,,,,,,,,,&d=14466&r=1",
    "s=3,,9,,,18,,,,,30,&d=14466&r=2",
    "s=3,,9,,,18,,,,,30,&d=66666&r=3",
    "s=1,2,3,4,5,6,7,8,9,15,30,50",
    "s=%2C%2C%2C%2C%2C%2C%2C%2C%2C%2C%2C&d=12345&r=3",
    "http://example.com/?d=11111&r=1#x",
    # strict rules
    "s=,,,,,,,,,,,&d=22255&r=1&v=strict",
    "s=,,,,,,,,,,,&d=66666&r=3&v=strict",
    # playing to win (o=, the opponent's sheet) and to reach a score (t=), early and late
    "s=,,,,,,,,,,,&d=14466&r=1&o=,,,,,,,,,,,",
    "s=1,2,3,4,5,6,7,8,9,15,30,&d=66666&r=3&o=1,2,3,4,5,6,7,8,9,15,30,",
    "s=1,2,3,4,5,6,7,8,,15,30,&d=12345&r=1&t=150",
    "d=14466&r=1&t=200",
    "d=14466&r=1&t=1000",
    # bad input: every field
    "x=1",
    "d=1234&r=1",
    "s=6,,,,,,,,,,,&d=12345&r=1",
    "s=,,,,,,,,25,,,&d=22255&r=3&v=strict",
    "s=1,2,3,4,5,6,7,8,9,15,30,50&r=1",
    "r=4",
    "v=other",
    "%1B[2J=1",
    "d=12345&d=12345",
)
GAMES: Final = (
    "h=14466-4466-24466g.12356-6-16663-666-66634f",
    "s=,,,,,,,,,,,&r=1&v=strict&h=14466-4466-24466",
    "h=14466-3-24466g",
    "h=14466g.12356g",
    "h=zz",
)

WORKER_CALLS: Final = """async ({queries, games, variant}) => {
  const worker = new Worker("worker.js", {type: "module"});
  const pending = new Map();
  let next = 1;
  worker.onmessage = ({data}) => {
    if (data.type === "progress") return;
    pending.get(data.id)(data);
    pending.delete(data.id);
  };
  const call = (action, args) => new Promise((resolve) => {
    const id = next++;
    pending.set(id, resolve);
    worker.postMessage({id, action, args});
  });
  const replies = [await call("start", {variant})];
  if ("error" in replies[0]) return replies;
  for (const query of queries) replies.push(await call("advise", {query}));
  for (const query of queries) replies.push(await call("explain", {query}));
  for (const query of games) {
    replies.push(await call("game", {query}));
    replies.push(await call("review", {query}));
    replies.push(await call("explainDecision", {query, index: 0}));
  }
  replies.push(await call("time", {query: queries[1], repeat: 2}));
  replies.push(await call("nonsense", {}));
  return replies;
}"""

MODULE_FILES: Final = """() => {
  const files = globalThis.pyodide.runPython(
    "import sys\\nsorted({str(getattr(m, '__file__', None) or '') for m in list(sys.modules.values())} - {''})"
  );
  try { return files.toJs(); } finally { files.destroy(); }
}"""


def official_files() -> dict[str, bytes]:
    """URL path -> bytes that put the official runtime back: whole stdlib, whole wheel, their lock and runtime.js."""
    runtime = site_runtime.read_runtime()
    source = site_runtime.pyodide_dir(site_runtime.pinned_pyodide_version())
    lock = json.loads((source / "pyodide-lock.json").read_text())
    wheel_path, _ = site_runtime.numpy_wheel(lock)
    stdlib = (source / "python_stdlib.zip").read_bytes()
    entry = dict(lock["packages"]["numpy"], file_name="../" + runtime["numpyURL"])
    official = {"stdLibSha256": hashlib.sha256(stdlib).hexdigest(), "numpySha256": entry["sha256"]}
    ours = dict(runtime, **official, snapshotKey="official-" + runtime["snapshotKey"])  # never the trimmed one's
    return {
        "/" + runtime["stdLibURL"].split("?", 1)[0]: stdlib,
        "/" + runtime["numpyURL"]: wheel_path.read_bytes(),
        "/" + runtime["lockFileURL"].split("?", 1)[0]: site_runtime.lock_json(lock, entry),
        "/" + site_runtime.RUNTIME_MODULE: site_runtime.runtime_js(ours),
    }


def members(files: list[str]) -> dict[str, set[str]]:
    """Module files (``__file__`` in Pyodide) as members of the stdlib zip and of the NumPy wheel."""
    found: dict[str, set[str]] = {"stdlib": set(), "numpy": set()}
    for file in files:
        if file.startswith(STDLIB_PREFIX):
            found["stdlib"].add(file.removeprefix(STDLIB_PREFIX))
        elif file.startswith(SITE_PACKAGES + "numpy/"):
            found["numpy"].add(file.removeprefix(SITE_PACKAGES))
    return found


def run_worker(page, variant: str = "official", queries=QUERIES, games=GAMES) -> tuple[list[dict], dict[str, set[str]]]:
    """Start a worker in ``page``, make the calls, and return its replies and the members it imported."""
    with page.expect_worker(lambda w: urlsplit(w.url).path.endswith("/worker.js")) as started:
        replies = page.evaluate(WORKER_CALLS, {"queries": list(queries), "games": list(games), "variant": variant})
    worker = started.value
    worker_ready = worker.evaluate("() => globalThis.pyodide !== undefined")
    files = worker.evaluate(MODULE_FILES) if worker_ready else []
    return replies, members(files)


def exercise(new_page: Callable[[], object], replace: Callable[[str, bytes], object]) -> dict[str, set[str]]:
    """Everything the page's Python does, each in a fresh worker; the union of the members imported.

    ``new_page()`` opens a page of the site in a context of its own (an empty HTTP cache, so a
    replaced file is fetched); ``replace(path, body)`` is a context manager under which the
    server answers ``path`` with ``body`` (the loading failures).
    """
    found: dict[str, set[str]] = {"stdlib": set(), "numpy": set()}

    def add(part: dict[str, set[str]]) -> None:
        for kind in found:
            found[kind] |= part[kind]

    page = new_page()
    replies, part = run_worker(page)
    failures = [r for r in replies if "error" in r and r["error"]["kind"] not in ("position", "internal")]
    if "error" in replies[0] or failures:
        raise RuntimeError(f"the worker did not load: {replies[0]}, {failures}")
    add(part)
    add(run_worker(page, variant="strict", queries=QUERIES[-3:], games=GAMES[:1])[1])
    tables = PUBLIC / "tables"
    official = (tables / "yacht-official.table").read_bytes()
    wheel_url = json.loads((PUBLIC / "build.json").read_text())["wheel"]["url"].split("?", 1)[0]
    for path, body in (
        ("/tables/yacht-official.table", (tables / "yacht-strict.table").read_bytes()),  # the wrong variant
        ("/tables/yacht-official.table", official[: len(official) // 2]),  # damaged
        ("/tables/yacht-official.table", official[:-1] + bytes([official[-1] ^ 1])),  # checksum
        ("/" + wheel_url, b"PK\x03\x04 not really a zip"),  # our package damaged
    ):
        with replace(path, body):
            replies, part = run_worker(new_page(), queries=QUERIES[:2], games=GAMES[:1])
        if "error" not in replies[0]:
            raise RuntimeError(f"{path} replaced by other bytes, yet the worker loaded")
        add(part)
    return found


def keep_list(kind: str, found: set[str]) -> str:
    """The text of a keep-list: ``ALWAYS_KEPT`` folders, then every member found outside them, sorted."""
    always = ALWAYS_KEPT[kind]
    rest = sorted(m for m in found if not site_runtime.kept(m, always))
    return HEADERS[kind] + "".join(f"{line}\n" for line in (*always, *rest))


def outside_lists(found: dict[str, set[str]]) -> list[str]:
    """The members found that the committed keep-lists do not keep, as ``kind: member``."""
    outside = []
    for kind, names in found.items():
        keep = site_runtime.read_keep_list(site_runtime.KEEP_LISTS[kind])
        outside += [f"{kind}: {name}" for name in sorted(names) if not site_runtime.kept(name, keep)]
    return outside


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, replaced: dict[str, bytes]) -> None:
        super().__init__(("127.0.0.1", 0), functools.partial(_ReplacingHandler, directory=str(PUBLIC)))
        self.replaced = replaced

    @contextmanager
    def replace(self, path: str, body: bytes) -> Iterator[None]:
        before = self.replaced.get(path)
        self.replaced[path] = body
        try:
            yield
        finally:
            if before is None:
                del self.replaced[path]
            else:
                self.replaced[path] = before


class _ReplacingHandler(Handler):
    server: _Server

    def do_GET(self) -> None:
        body = self.server.replaced.get(urlsplit(self.path).path)
        if body is None:
            super().do_GET()
            return
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(urlsplit(self.path).path))
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed lists instead of writing")
    args = parser.parse_args(argv)
    if not (PUBLIC / site_runtime.RUNTIME_MODULE).is_file():
        parser.error("public/ is not built: run `.venv/bin/python tools/site_runtime.py` first")
    from playwright.sync_api import sync_playwright

    server = _Server(official_files())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"
    executable = os.environ.get("YACHT_CHROMIUM") or (
        "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
    )
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, headless=True, args=["--no-sandbox"])

            def new_page():
                page = browser.new_context(service_workers="block").new_page()
                page.goto(base + "build.json")
                return page

            found = exercise(new_page, server.replace)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    if args.check:
        outside = outside_lists(found)
        for line in outside:
            print(f"imported, not in the keep-lists: {line}")
        return 1 if outside else 0
    for kind, names in found.items():
        path = site_runtime.KEEP_LISTS[kind]
        path.write_text(keep_list(kind, names))
        print(f"{path.relative_to(ROOT)}: {len(names)} members imported")
    return 0


if __name__ == "__main__":
    sys.exit(main())
