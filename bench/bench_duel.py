"""The duel at scale: as many games per variant as a time budget allows, saved as it goes.

    python bench/bench_duel.py --minutes M [--games N] [--variant V ...] [--seed S] [--out FILE.npz]

(``--out`` default: .cache/duel-results.npz, ignored by git.)

Plays ``yacht.duel.duel`` in rounds of ``ROUND_GAMES`` games per variant, the
variants taking turns, until the budget is spent (a round that has started is
finished) or each variant has played ``--games``. After every round the results so far go to ``--out`` (NumPy ``.npz``:
per variant ``<v>_result``, ``<v>_first``, ``<v>_predicted``, ``<v>_observed``, and
``<v>_seconds``, the CPU seconds spent), so a run that is stopped keeps what it played;
``--report FILE.npz`` prints the figures of a saved run without playing. Printed per
variant: games, games per second (CPU and wall), the win rate with draws half and its
95 % interval for both seats and each seat, the average over the seats, and the
calibration in ten bins.
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from yacht.cli import DEFAULT_TABLES, _Tables  # noqa: E402
from yacht.duel import Memo, calibration, duel, win_rate  # noqa: E402
from yacht.rules import VARIANTS  # noqa: E402

FIELDS = ("result", "first", "predicted", "observed")
ROUND_GAMES = 1024


def report(saved: dict[str, np.ndarray], variants: list[str]) -> None:
    for name in variants:
        if f"{name}_result" not in saved:
            continue
        result, first = saved[f"{name}_result"], saved[f"{name}_first"]
        cpu, wall = float(saved[f"{name}_seconds"][0]), float(saved[f"{name}_seconds"][1])
        rates = f"{len(result) / cpu:.2f} games/s of CPU, {len(result) / wall:.2f} of wall"
        print(f"{name}: {len(result):,} games, {rates}")
        for label, chosen in (("both seats", slice(None)), ("first seat", first), ("second seat", ~first)):
            games = result[chosen]
            rate, half = win_rate(games)
            print(
                f"  {label:<12} {100 * rate:6.2f} % ± {100 * half:.2f} (95 %), "
                f"draws {100 * float((games == 0.5).mean()):.2f} %, {len(games):,} games"
            )
        seats = [win_rate(result[first]), win_rate(result[~first])]
        average = (seats[0][0] + seats[1][0]) / 2
        half = np.hypot(seats[0][1], seats[1][1]) / 2
        print(f"  averaged over the seats: {100 * average:.2f} % ± {100 * half:.2f} (goal: at least 51.0 %)")
        predicted, observed = saved[f"{name}_predicted"], saved[f"{name}_observed"]
        print(f"  calibration, {len(predicted):,} points: predicted, observed, gap (points), count")
        for p, o, count in calibration(predicted, observed):
            if count:
                print(f"  {100 * p:8.2f} % {100 * o:8.2f} % {100 * (o - p):+6.2f} {count:>9,}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--variant", choices=sorted(VARIANTS), action="append")
    parser.add_argument("--games", type=int, help="stop once every variant has played this many games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=ROOT / ".cache" / "duel-results.npz")
    parser.add_argument("--report", type=Path, help="print the figures of a saved run and stop")
    args = parser.parse_args()
    variants = args.variant or ["official", "strict"]
    if args.report:
        report(dict(np.load(args.report)), variants)
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tables = _Tables(DEFAULT_TABLES)
    rngs = {name: np.random.default_rng([args.seed, name == "strict"]) for name in variants}
    parts: dict[str, list] = {name: [] for name in variants}
    seconds = {name: np.zeros(2) for name in variants}
    memos = {name: Memo() for name in variants}
    deadline = time.monotonic() + 60 * args.minutes
    while time.monotonic() < deadline and not (
        args.games and all(sum(len(b.result) for b in parts[n]) >= args.games for n in variants)
    ):
        for name in variants:
            cpu, wall = time.process_time(), time.monotonic()
            block = duel(
                tables[name].tilde, tables.spread(name), VARIANTS[name], ROUND_GAMES, rngs[name], memo=memos[name]
            )
            seconds[name] += (time.process_time() - cpu, time.monotonic() - wall)
            parts[name].append(block)
        saved = {
            f"{name}_{f}": np.concatenate([getattr(b, f) for b in parts[name]]) for name in variants for f in FIELDS
        }
        saved.update({f"{name}_seconds": seconds[name] for name in variants})
        np.savez(args.out, **saved)
        games = len(saved[f"{variants[0]}_result"])
        print(f"{time.strftime('%H:%M:%S')} {games:,} games per variant", flush=True)
    report(saved, variants)
    return 0


if __name__ == "__main__":
    sys.exit(main())
