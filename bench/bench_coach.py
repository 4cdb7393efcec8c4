"""The coach's figures (not timed tests).

    python bench/bench_coach.py [--positions N]

1. Explaining every option of a position on CPython (``yacht.chances.coach.explain``, and the
   whole ``api.explain_query`` with the advice and the JSON), median and 95th percentile over N
   random positions per stage (early: 0–3 categories filled, mid: 4–7, late: 8–11) and roll
   (1, 2, 3), both variants, after a warm-up; the files already loaded.
2. The coach's files: bytes raw and gzipped (level 9), and the time to decode them.
"""

import argparse
import gzip
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from yacht.api import explain_query  # noqa: E402
from yacht.chances.coach import explain  # noqa: E402
from yacht.chances.coach_table import QUANTITIES, decode, file_name  # noqa: E402
from yacht.core.options import advise  # noqa: E402
from yacht.core.position import Position, format_query  # noqa: E402
from yacht.core.rules import VARIANTS, possible_scores  # noqa: E402
from yacht.loader import DEFAULT_TABLES, Tables  # noqa: E402

STAGES = {"early": range(0, 4), "mid": range(4, 8), "late": range(8, 12)}


def random_position(rng: random.Random, variant, filled: int, roll: int) -> Position:
    """A sheet with ``filled`` categories at random values they can score, five random dice."""
    sheet: list[int | None] = [None] * 12
    for c in rng.sample(range(12), filled):
        sheet[c] = rng.choice(possible_scores(variant)[c])
    dice = tuple(rng.randint(1, 6) for _ in range(5))
    return Position(tuple(sheet), dice, roll, variant)


def percentiles(times: list[float]) -> str:
    times = sorted(times)
    return f"median {1000 * statistics.median(times):6.2f} ms, 95th {1000 * times[int(0.95 * len(times))]:6.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=100, help="positions per stage, roll and variant")
    parser.add_argument("--tables", type=Path, default=DEFAULT_TABLES)
    args = parser.parse_args()
    tables = Tables(args.tables)
    rng = random.Random(27)
    print("Explaining every option of a position (CPython, the files loaded):")
    for name, variant in VARIANTS.items():
        tilde, coach = tables[name].tilde, tables.coach(name)
        explain_query(format_query(random_position(rng, variant, 3, 1)), tables)  # warm-up
        for stage, filled in STAGES.items():
            for roll in (1, 2, 3):
                alone, whole = [], []
                for _ in range(args.positions):
                    position = random_position(rng, variant, rng.choice(filled), roll)
                    advice = advise(position, tilde)
                    start = time.perf_counter()
                    explain(advice, tilde, coach)
                    alone.append(time.perf_counter() - start)
                    query = format_query(position)
                    start = time.perf_counter()
                    explain_query(query, tables)
                    whole.append(time.perf_counter() - start)
                print(
                    f"  {name:8} {stage:5} roll {roll}: explain {percentiles(alone)}; "
                    f"explain_query {percentiles(whole)}"
                )
    print("The coach's files (raw, gzip -9, decode):")
    for name in VARIANTS:
        for quantity in QUANTITIES:
            path = args.tables / file_name(name, quantity)
            data = path.read_bytes()
            start = time.perf_counter()
            decode(data, variant=name, quantity=quantity, source=str(path))
            seconds = time.perf_counter() - start
            print(
                f"  {path.name:24} {len(data):9,} bytes raw, {len(gzip.compress(data, 9)):9,} gzip, "
                f"decoded in {1000 * seconds:.0f} ms"
            )


if __name__ == "__main__":
    main()
