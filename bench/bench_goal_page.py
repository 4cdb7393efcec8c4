"""One decision with an opponent, and one with a score to reach, in Pyodide in headless Chromium,
beside CPython.

    .venv/bin/python bench/bench_goal_page.py [--per-stage 6] [--seed 9]

Serves ``public/`` (build it first: ``tools/build_site.py``) on 127.0.0.1 and starts, in a
blank page of that origin, a module worker (``/bench-goal-worker.js``, below) that loads
Pyodide and NumPy from the site's trimmed runtime as ``worker.js`` does, installs the
site's wheel, puts the official table, its spread table and the reach and law chunks the
queries need (``goal.chunks_needed``) in a folder read by ``yacht.loader.Tables`` (each
decoded on first use, as the page does), and then times ``yacht.api.advise_query`` on each query,
the result converted to a JS object as the page's worker converts it (one warm-up query
first). The same queries are timed on CPython in this process (``bench_goal``'s
positions: my free categories 12 … 1, ``--per-stage`` random positions each, rolls 1–3,
the opponent with as many or one fewer free categories; then the same with a score to reach
instead). Printed: per stage and over all stages, the median and max of both. Goals: median
≤ 1 s in Pyodide (max ≤ 3 s), ≤ 0.2 s on CPython.
"""

import argparse
import random
import statistics
import sys
import time
from typing import ClassVar

from bench_goal import field, random_sheet
from bench_page import PUBLIC, ROOT, PageHandler, evaluate_in_blank_page

sys.path.insert(0, str(ROOT / "py"))
from yacht.api import advise_query
from yacht.chances.goal import chunks_needed
from yacht.chances.reach_table import chunk_name, folder_name
from yacht.core.position import parse_query
from yacht.loader import DEFAULT_TABLES, Tables

WORKER = "/bench-goal-worker.js"
WORKER_SOURCE = """
import { loadPyodide } from "./pyodide/pyodide.mjs";
import { RUNTIME } from "./runtime.js";

const here = (path) => new URL(path, import.meta.url).href;
const bytes = async (path) => new Uint8Array(await (await fetch(here(path))).arrayBuffer());
let ready;
const start = () => (async () => {
  const pyodide = await loadPyodide({
    indexURL: here(RUNTIME.indexURL),
    stdLibURL: here(RUNTIME.stdLibURL),
    lockFileURL: here(RUNTIME.lockFileURL),
  });
  await pyodide.loadPackage("numpy", { messageCallback: () => {} });
  const build = await (await fetch(here("build.json"))).json();
  const site = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
  pyodide.unpackArchive(await bytes(build.wheel.url), "wheel", { extractDir: site });
  pyodide.FS.mkdirTree("/tmp/tables/yacht-official.reach");
  pyodide.FS.mkdirTree("/tmp/tables/yacht-official.law");
  for (const name of ["yacht-official.table", "yacht-official.spread.table", ...CHUNKS]) {
    pyodide.FS.writeFile(`/tmp/tables/${name}`, await bytes(`tables/${name}`));
  }
  pyodide.runPython(`
from pathlib import Path
from yacht.api import advise_query
from yacht.loader import Tables

TABLES = Tables(Path("/tmp/tables"))
TABLES.spread("official")

def advise(query):
    return advise_query(query, TABLES)
`);
  return { pyodide, advise: pyodide.globals.get("advise") };
})();

function timed(advise, query) {
  const start = performance.now();
  const result = advise(query);
  result.toJs({ dict_converter: Object.fromEntries });
  result.destroy();
  return performance.now() - start;
}

let CHUNKS = [];

onmessage = async ({ data: { queries, chunks } }) => {
  CHUNKS = chunks;
  try {
    ready ??= start();
    const { pyodide, advise } = await ready;
    timed(advise, queries[0]);
    postMessage({ times: queries.map((query) => timed(advise, query)), version: pyodide.version });
  } catch (error) {
    postMessage({ error: String(error?.message ?? error) });
  }
};
"""

RUN = """async ([queries, chunks]) => {
  const worker = new Worker("WORKER", {type: "module"});
  const answer = await new Promise((resolve) => {
    worker.onmessage = ({data}) => resolve(data);
    worker.onerror = (event) => resolve({error: event.message ?? "the worker failed"});
    worker.postMessage({queries, chunks});
  });
  worker.terminate();
  return answer;
}""".replace("WORKER", WORKER)


class _GoalHandler(PageHandler):
    served: ClassVar[dict[str, tuple[bytes, str]]] = {
        **PageHandler.served,
        WORKER: (WORKER_SOURCE.encode(), "text/javascript"),
    }


def positions(per_stage: int, seed: int, goal: str) -> list[tuple[int, str]]:
    """(my free categories, query) for every stage 12 … 1: with an opponent (``goal`` "o", their
    free categories as many as mine or one fewer) or a score to reach ("t", 150–260)."""
    rng = random.Random(seed)
    out = []
    for free in range(12, 0, -1):
        for _ in range(per_stage):
            mine = random_sheet(rng, free)
            theirs = random_sheet(rng, rng.choice([free, max(1, free - 1)]) if free < 12 else 12)
            dice = "".join(str(rng.randint(1, 6)) for _ in range(5))
            aim = f"o={field(theirs)}" if goal == "o" else f"t={rng.randint(150, 260)}"
            out.append((free, f"s={field(mine)}&d={dice}&r={rng.randint(1, 3)}&{aim}"))
    return out


def chunk_files(queries: list[str]) -> list[str]:
    """The chunks (paths under tables/) the queries' answers read: reach and law."""
    wanted = {(q, m) for query in queries for q, masks in chunks_needed(parse_query(query)).items() for m in masks}
    return [f"{folder_name('official', q)}/{chunk_name(m)}" for q, m in sorted(wanted)]


def pyodide_times(queries: list[str]) -> tuple[list[float], str]:
    answer, browser = evaluate_in_blank_page(_GoalHandler, RUN, [queries, chunk_files(queries)])
    if "error" in answer:
        raise SystemExit(f"the Pyodide worker failed: {answer['error']}")
    return [t / 1000 for t in answer["times"]], f"Chromium {browser}, Pyodide {answer.get('version')}"


def print_stages(stages: list[tuple[int, str]], ours: list[float], theirs: list[float]) -> None:
    """Per stage (my free categories 12 … 1 of ``stages``), the median and max of the times in ms
    ``ours`` (Pyodide) and ``theirs`` (CPython), one per position."""
    print(f"  {'my free':>8} {'Pyodide median':>15} {'max':>8} {'CPython median':>15} {'max':>8}")
    for free in range(12, 0, -1):
        mine = [t for (f, _), t in zip(stages, ours, strict=True) if f == free]
        other = [t for (f, _), t in zip(stages, theirs, strict=True) if f == free]
        print(
            f"  {free:>8} {statistics.median(mine):12.1f} ms {max(mine):5.0f} ms"
            f" {statistics.median(other):12.1f} ms {max(other):5.0f} ms"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-stage", type=int, default=6, help="positions per stage (default 6)")
    parser.add_argument("--seed", type=int, default=9)
    args = parser.parse_args()
    if not (PUBLIC / "build.json").is_file():
        parser.error("public/ is not built: run `.venv/bin/python tools/build_site.py` (or `make site`) first")
    tables = Tables(DEFAULT_TABLES)
    for goal, name in (("o", "One decision with an opponent (o=)"), ("t", "One decision with a score to reach (t=)")):
        stages = positions(args.per_stage, args.seed, goal)
        queries = [q for _, q in stages]
        advise_query(queries[0], tables)  # warm-up: tables read, modules imported
        cpython = []
        for query in queries:
            start = time.perf_counter()
            advise_query(query, tables)
            cpython.append(time.perf_counter() - start)
        browser, version = pyodide_times(queries)
        print(f"== {name}, official rules: {version} vs CPython, same {len(queries)} positions")
        print_stages(stages, [1e3 * t for t in browser], [1e3 * t for t in cpython])
        print(
            f"  all stages: Pyodide median {1e3 * statistics.median(browser):.1f} ms (goal <= 1000 ms), "
            f"max {1e3 * max(browser):.0f} ms (goal <= 3000 ms); CPython median "
            f"{1e3 * statistics.median(cpython):.1f} ms (goal <= 200 ms); "
            f"ratio of the medians {statistics.median(browser) / statistics.median(cpython):.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
