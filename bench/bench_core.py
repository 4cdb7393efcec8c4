"""Benchmarks of the core, printed as figures (not timed tests).

    python bench/bench_core.py

1. Full solve of each variant: with two forked workers and in one process,
   in the same run, and where one process's time goes (E3, rerolls, best
   sub-keeps), measured over all levels.
2. Table files: size on disk and decode time.
3. Roll-1 advice on CPython: median and 95th percentile over 1,000 random
   positions (random sheets, dice), after a warm-up.
"""

import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))
sys.path.insert(0, str(ROOT))

from yacht.core import dice, solver  # noqa: E402
from yacht.core.options import advise  # noqa: E402
from yacht.core.position import Position  # noqa: E402
from yacht.core.rules import VARIANTS, possible_scores, score_table  # noqa: E402
from yacht.core.states import states_with_filled  # noqa: E402
from yacht.core.table import decode, encode  # noqa: E402

from build_table.solve import solve  # noqa: E402


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return time.perf_counter() - start, result


def stage_breakdown(tilde: np.ndarray, variant) -> dict[str, float]:
    """Seconds per stage of solve_states over all levels, in one process."""
    scores = score_table(variant)
    keeps_buffer = np.empty(dice.N_KEEPS * solver.CHUNK)
    scratch_buffer = np.empty(dice.N_ROLLS * solver.CHUNK)
    spent = dict.fromkeys(("E3 (best category)", "rerolls (2x)", "best sub-keeps (2x)", "final sum"), 0.0)
    for n_filled in range(11, -1, -1):
        masks, nus = states_with_filled(n_filled)
        for start in range(0, len(masks), solver.CHUNK):
            m, n = masks[start : start + solver.CHUNK], nus[start : start + solver.CHUNK]
            keeps = keeps_buffer[: dice.N_KEEPS * len(m)].reshape(dice.N_KEEPS, -1)
            scratch = scratch_buffer[: dice.N_ROLLS * len(m)]
            rolls = keeps[dice.ROLL_OFFSET :]
            t, _ = timed(solver.turn_end_values, tilde, scores, m, n, rolls, scratch.reshape(dice.N_ROLLS, -1))
            spent["E3 (best category)"] += t
            for _ in range(2):
                t, _ = timed(dice.reroll_expectation, keeps, scratch)
                spent["rerolls (2x)"] += t
                t, _ = timed(dice.best_subkeep, keeps, scratch)
                spent["best sub-keeps (2x)"] += t
            t, _ = timed(lambda v: (v * dice.ROLL_PROBABILITY[:, None]).sum(axis=0), rolls)
            spent["final sum"] += t
    return spent


def random_positions(count: int, seed: int = 7) -> list[Position]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        variant = rng.choice(list(VARIANTS.values()))
        scores = possible_scores(variant)
        filled = set(rng.sample(range(12), rng.randint(0, 11)))
        sheet = tuple(rng.choice(scores[c]) if c in filled else None for c in range(12))
        out.append(Position(sheet, tuple(rng.randint(1, 6) for _ in range(5)), 1, variant))
    return out


def main() -> None:
    print("== Solve (float64, 178,816 reachable states per variant)")
    tables = {}
    for name, variant in VARIANTS.items():
        t2, tilde = timed(solve, variant, workers=2)
        t1, tilde1 = timed(solve, variant, workers=1)
        assert np.array_equal(tilde, tilde1, equal_nan=True)
        tables[name] = tilde
        print(f"{name:>9}: 2 workers {t2:.2f} s, 1 process {t1:.2f} s, speed-up {t1 / t2:.2f}x")
    spent = stage_breakdown(tables["official"], VARIANTS["official"])
    total = sum(spent.values())
    print(f"  where one process's {total:.2f} s go (official):")
    for stage, seconds in spent.items():
        print(f"    {stage:<22} {seconds:6.2f} s  {seconds / total:6.1%}")

    print("\n== Table files")
    for name, tilde in tables.items():
        data = encode(name, tilde)
        t, table = timed(decode, data)
        error = np.nanmax(np.abs(table.tilde - tilde))
        print(
            f"{name:>9}: {len(data):,} bytes ({len(data) / 1024:.1f} KiB; goal <= 256 KiB), "
            f"decode {t * 1e3:.1f} ms, max error {error:.2e} (goal <= 1e-5)"
        )

    print("\n== Roll-1 advice on CPython, 1,000 random positions")
    positions = random_positions(1000)
    for p in positions[:50]:
        advise(p, tables[p.variant.name])
    times = []
    for p in positions:
        t, _ = timed(advise, p, tables[p.variant.name])
        times.append(t * 1e3)
    times.sort()
    print(
        f"  median {statistics.median(times):.3f} ms, p95 {times[949]:.3f} ms, "
        f"max {times[-1]:.3f} ms (goal: median <= 2 ms)"
    )


if __name__ == "__main__":
    main()
