"""Benchmarks of playing to win, printed as figures (not timed tests).

    python bench/bench_goal.py

1. One decision with an opponent on CPython (``yacht.api.advise_query`` with
   ``o=``, parsing included): median, p90 and max per stage (my free
   categories 12 … 1), over positions from random sheets (the opponent with
   as many or one fewer free categories), rolls 1–3; then the median over all.
2. The approximation against the exact values where both exist (4 free
   categories each): mean and max absolute error of win + draw/2.
3. The exact final-score distribution: time by free categories.
"""

import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from yacht.api import advise_query  # noqa: E402
from yacht.chances.outcome import solve_outcome  # noqa: E402
from yacht.chances.winning import approximate_goal, solve_goal, win_payoff  # noqa: E402
from yacht.core.options import sheet_state  # noqa: E402
from yacht.core.rules import OFFICIAL, possible_scores  # noqa: E402
from yacht.loader import DEFAULT_TABLES, Tables  # noqa: E402

PER_STAGE = 12


def random_sheet(rng: random.Random, free: int) -> tuple:
    scores = possible_scores(OFFICIAL)
    open_ = set(rng.sample(range(12), free))
    return tuple(None if c in open_ else rng.choice(scores[c][len(scores[c]) // 4 :]) for c in range(12))


def field(sheet: tuple) -> str:
    return ",".join("" if v is None else str(v) for v in sheet)


def main() -> None:
    tables = Tables(DEFAULT_TABLES)
    tilde, spread = tables["official"].tilde, tables.spread("official")
    rng = random.Random(9)
    print("== One decision with an opponent (o=), CPython, official rules")
    everything = []
    for free in range(12, 0, -1):
        times = []
        for _ in range(PER_STAGE):
            mine = random_sheet(rng, free)
            theirs = random_sheet(rng, rng.choice([free, max(1, free - 1)]) if free < 12 else 12)
            dice = "".join(str(rng.randint(1, 6)) for _ in range(5))
            query = f"s={field(mine)}&d={dice}&r={rng.randint(1, 3)}&o={field(theirs)}"
            start = time.perf_counter()
            advise_query(query, tables)
            times.append(time.perf_counter() - start)
        everything.extend(times)
        times.sort()
        print(
            f"  {free:>2} free: median {1e3 * statistics.median(times):7.1f} ms, "
            f"p90 {1e3 * times[int(0.9 * len(times))]:7.1f} ms, max {1e3 * times[-1]:7.1f} ms"
        )
    print(f"  all stages: median {1e3 * statistics.median(everything):.1f} ms (goal <= 200 ms)")

    print("\n== Approximation vs exact (4 free categories each), win + draw/2")
    errors = []
    for _ in range(40):
        mask, nu, sigma = sheet_state(random_sheet(rng, 4))
        om, on, osigma = sheet_state(random_sheet(rng, 4))
        opponent = solve_outcome(tilde, OFFICIAL, om, on, osigma)
        payoff, weights = win_payoff(opponent.final(opponent.root.start[0]), sigma + 400)
        exact, _ = solve_goal(tilde, OFFICIAL, mask, nu, sigma, payoff, weights)
        approx, _ = approximate_goal(tilde, spread, OFFICIAL, mask, nu, sigma, payoff, weights)
        errors.append(abs(float((approx.start[0] - exact.start[0]) @ weights)))
    print(
        f"  40 positions: mean abs error {100 * np.mean(errors):.2f} points, "
        f"median {100 * np.median(errors):.2f}, max {100 * np.max(errors):.2f}"
    )

    print("\n== Exact final-score distribution (roll 0), time by free categories")
    for free in range(1, 7):
        times = []
        for _ in range(6):
            mask, nu, sigma = sheet_state(random_sheet(rng, free))
            start = time.perf_counter()
            solve_outcome(tilde, OFFICIAL, mask, nu, sigma)
            times.append(time.perf_counter() - start)
        print(f"  {free} free: median {1e3 * statistics.median(times):7.1f} ms, max {1e3 * max(times):7.1f} ms")


if __name__ == "__main__":
    main()
