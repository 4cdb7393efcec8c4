"""The coach on the page: the explanation of every option of a roll (``yacht.api.explain_query``) as
the page's own worker gives it, in Pyodide in headless Chromium, beside CPython; and the bytes the
first explanation fetches (the coach's ``.bonus`` and ``.points``).

    .venv/bin/python bench/bench_coach_page.py [--per-stage 4] [--seed 27] [--games 2]

Serves ``public/`` (build it first: ``tools/build_site.py``) on 127.0.0.1 and starts, in a blank
page of that origin, the site's ``worker.js`` (its "start", then its "explain" requests, timed in
the page from the request to the answer, as the page waits for it). The first explanation loads
the coach's files (timed apart: its time and the bytes served for it); then every position is
timed: my free categories 12 … 1, ``--per-stage`` random positions each (``bench_goal``'s
sheets), rolls 1–3, official rules, no goal. Printed: per stage and over all, the median and max,
and CPython's for the same queries. Goal: median ≤ 50 ms in Pyodide. Then every decision of
``--games`` practice games (the advisor's, the second best every fifth choice; every other one
against the simulated opponent) explained by the worker's "explainDecision" (what the Why? of a
practice choice or of a review decision asks for), the median and max beside CPython's.
"""

import argparse
import random
import statistics
import sys
import time
from typing import ClassVar
from urllib.parse import urlsplit

from bench_goal import field, random_sheet
from bench_goal_page import print_stages
from bench_page import PUBLIC, ROOT, PageHandler, evaluate_in_blank_page

sys.path.insert(0, str(ROOT / "py"))
from yacht.api import explain_decision_query, explain_query, review_query
from yacht.loader import DEFAULT_TABLES, Tables

FIRST = "s=,,,,,,,,,,,&d=14466&r=1"
"""The first explanation: the one that fetches the coach's files."""

RUN = """async ({queries, decisions}) => {
  const worker = new Worker("worker.js", {type: "module"});
  const pending = new Map();
  let next = 1;
  worker.onmessage = ({data}) => {
    const settle = pending.get(data.id);
    if (!settle) return;
    pending.delete(data.id);
    settle(data);
  };
  const call = (action, args) => new Promise((resolve) => {
    const id = next++;
    pending.set(id, resolve);
    worker.postMessage({id, action, args});
  });
  const timed = async (query, action = "explain", index = undefined) => {
    const start = performance.now();
    const reply = await call(action, {query, index});
    if ("error" in reply) throw new Error(`${query}: ${JSON.stringify(reply.error)}`);
    return performance.now() - start;
  };
  try {
    const started = await call("start", {variant: "official"});
    if ("error" in started) throw new Error(JSON.stringify(started.error));
    await call("advise", {query: queries[0]});  // the advice comes first on the page
    const first = await timed(queries[0]);
    const times = [];
    for (const query of queries.slice(1)) times.push(await timed(query));
    const decided = [];
    for (const [record, index] of decisions) decided.push(await timed(record, "explainDecision", index));
    return {first, times, decided, version: started.result.pyodide};
  } catch (error) {
    return {error: String(error?.message ?? error)};
  } finally {
    worker.terminate();
  }
}"""


class _CountingHandler(PageHandler):
    """The site, recording the bytes served per path (``served_bytes``)."""

    served_bytes: ClassVar[dict[str, int]] = {}

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        file = PUBLIC / path.lstrip("/")
        if file.is_file():
            self.served_bytes[path] = self.served_bytes.get(path, 0) + file.stat().st_size
        super().do_GET()


def positions(per_stage: int, seed: int) -> list[tuple[int, str]]:
    """(my free categories, query) for every stage 12 … 1, ``per_stage`` each, rolls 1–3."""
    rng = random.Random(seed)
    out = []
    for free in range(12, 0, -1):
        for _ in range(per_stage):
            dice = "".join(str(rng.randint(1, 6)) for _ in range(5))
            out.append((free, f"s={field(random_sheet(rng, free))}&d={dice}&r={rng.randint(1, 3)}"))
    return out


def decisions(tables: Tables, games: int, seed: int) -> list[tuple[str, int]]:
    """(record, index) of every decision of ``games`` practice games played by the advisor (the
    second best every fifth choice), every other one against the simulated opponent: what the
    page's Why? on a practice choice or a review decision asks the worker for."""
    sys.path.insert(0, str(ROOT / "tests"))
    from strategies import advisor_practice
    from yacht.core.rules import VARIANTS

    out = []
    for n in range(games):
        game = advisor_practice(tables["official"].tilde, VARIANTS["official"], seed + n, opponent=n % 2 == 1)
        out += [(game.query, i) for i in range(len(review_query(game.query, tables)["decisions"]))]
    return out


def pyodide_times(queries: list[str], decided: list[tuple[str, int]]) -> tuple[dict, dict[str, int]]:
    _CountingHandler.served_bytes.clear()
    arg = {"queries": queries, "decisions": [list(d) for d in decided]}
    answer, browser = evaluate_in_blank_page(_CountingHandler, RUN, arg)
    if "error" in answer:
        raise SystemExit(f"the worker failed: {answer['error']}")
    answer["browser"] = browser
    return answer, dict(_CountingHandler.served_bytes)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-stage", type=int, default=4, help="positions per stage (default 4)")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--games", type=int, default=2, help="practice games whose decisions are explained (default 2)")
    args = parser.parse_args()
    if not (PUBLIC / "build.json").is_file():
        parser.error("public/ is not built: run `.venv/bin/python tools/build_site.py` (or `make site`) first")
    stages = positions(args.per_stage, args.seed)
    queries = [q for _, q in stages]
    tables = Tables(DEFAULT_TABLES)
    decided = decisions(tables, args.games, args.seed)
    answer, served = pyodide_times([FIRST, *queries], decided)
    coach = {path: n for path, n in served.items() if path.endswith((".bonus", ".points"))}
    explain_query(FIRST, tables)  # warm-up: tables read, modules imported
    cpython = []
    for query in queries:
        start = time.perf_counter()
        explain_query(query, tables)
        cpython.append(1e3 * (time.perf_counter() - start))
    browser = answer["times"]
    print(
        f"== The explanation of every option of a roll, official rules: Chromium {answer['browser']}, "
        f"Pyodide {answer['version']} (the page's worker) vs CPython, {len(queries)} positions"
    )
    print(
        f"  first explanation (fetches and decodes the coach's files): {answer['first']:.0f} ms; "
        f"bytes fetched for it: {sum(coach.values()):,} ("
        + ", ".join(f"{path.rsplit('/', 1)[-1]} {n:,}" for path, n in sorted(coach.items()))
        + ")"
    )
    print_stages(stages, browser, cpython)
    print(
        f"  all stages: Pyodide median {statistics.median(browser):.1f} ms (goal <= 50 ms), "
        f"max {max(browser):.0f} ms; CPython median {statistics.median(cpython):.1f} ms, "
        f"max {max(cpython):.0f} ms; ratio of the medians "
        f"{statistics.median(browser) / statistics.median(cpython):.1f}"
    )
    on_cpython = []
    for record, index in decided:
        start = time.perf_counter()
        explain_decision_query(record, tables, index)
        on_cpython.append(1e3 * (time.perf_counter() - start))
    print(
        f"  one decision of a game record (explainDecision: the Why? of a practice choice or a review "
        f"decision), {len(decided)} decisions of {args.games} games (every other against the opponent): "
        f"Pyodide median {statistics.median(answer['decided']):.1f} ms, max {max(answer['decided']):.0f} ms; "
        f"CPython median {statistics.median(on_cpython):.1f} ms, max {max(on_cpython):.0f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
