"""The duel at scale: as many games per variant as a time budget allows, saved as it goes.

    python bench/bench_duel.py --minutes M [--games N] [--variant V ...] [--seed S] [--out FILE.npz]

(``--out`` default: .cache/duel-results.npz, ignored by git.)

Plays ``yacht.duel.duel`` in rounds of ``ROUND_GAMES`` games per variant, the
variants taking turns, until the budget is spent (a round that has started is
finished) or each variant has played ``--games``. After every round the results so far go to ``--out`` (NumPy ``.npz``:
per variant ``<v>_result``, ``<v>_first``, ``<v>_predicted``, ``<v>_observed``, and
``<v>_seconds``, the CPU seconds spent), so a run that is stopped keeps what it played;
``--report FILE.npz ...`` prints the figures of saved runs without playing, the
runs' games taken together (runs with different ``--seed`` are independent games).
Printed per variant (``yacht.cli.render_duel``, as ``python -m yacht duel``): games,
games per CPU second, the win rate with draws half and its 95 % interval for both
seats, each seat and averaged over the seats, and the calibration in ten bins.
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from yacht.cli import render_duel  # noqa: E402
from yacht.duel import DuelResult, Memo, duel  # noqa: E402
from yacht.goal import EXACT_FREE  # noqa: E402
from yacht.loader import DEFAULT_TABLES, Tables  # noqa: E402
from yacht.rules import VARIANTS  # noqa: E402

FIELDS = ("result", "first", "predicted", "observed")
ROUND_GAMES = 1024


def report(saved: list[dict[str, np.ndarray]], variants: list[str], exact_free: int) -> None:
    """Print ``yacht.cli.render_duel`` for each variant over all the saved runs together."""
    for name in variants:
        runs = [run for run in saved if f"{name}_result" in run]
        if not runs:
            continue
        result = DuelResult(*(np.concatenate([run[f"{name}_{f}"] for run in runs]) for f in FIELDS))
        cpu, wall = sum(run[f"{name}_seconds"] for run in runs)
        print(render_duel(name, result, float(cpu), float(wall), exact_free), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--variant", choices=sorted(VARIANTS), action="append")
    parser.add_argument("--games", type=int, help="stop once every variant has played this many games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=ROOT / ".cache" / "duel-results.npz")
    parser.add_argument(
        "--report",
        type=Path,
        nargs="+",
        help="print the figures of saved runs (played with other seeds) together and stop",
    )
    args = parser.parse_args()
    variants = args.variant or ["official", "strict"]
    if args.report:
        report([dict(np.load(path)) for path in args.report], variants, EXACT_FREE)
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tables = Tables(DEFAULT_TABLES)
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
    report([saved], variants, EXACT_FREE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
