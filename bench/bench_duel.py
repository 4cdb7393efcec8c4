"""The duel at scale: as many games per variant as a time budget allows, saved as it goes.

    python bench/bench_duel.py --minutes M [--games N] [--variant V ...] [--seed S]
                               [--player chunks|normal ...] [--out FILE.npz]
    python bench/bench_duel.py --report FILE.npz ...

(``--out`` default: .cache/duel-results.npz, ignored by git.)

Plays ``yacht.play.duel.duel`` in rounds of ``--round`` games per variant (default ``ROUND_GAMES``), the
variants taking turns, until the budget is spent (a round that has started is
finished) or each variant has played ``--games``. Two win-aware players can play:
``chunks``, the shipped one (the law and reach chunks beyond the exact range, as the
advice), and ``normal``, the one before the chunks (the spread table's normal law).
Default: both, on the same dice: round i of a variant draws its dice from
``default_rng([seed, variant is strict, i])`` for each player, and a game's dice do
not depend on the choices made (``simulate.roll_dice`` throws five dice for every
roll of every game), so the two players' games are paired (common random numbers,
the same seats), and their difference is measured with the games' noise taken out.

After every round the results so far go to ``--out`` (NumPy ``.npz``: per variant and
player ``<v>_<player>_result``, ``_first``, ``_predicted``, ``_observed``, ``_turn``, and
``_seconds``: CPU and wall seconds spent; ``_calibrated``: the predictions are the shown
chances, ``calibration.CALIBRATION`` applied; absent in runs before it), so a run that is stopped keeps what it
played. ``--report FILE.npz ...`` prints the figures of saved runs without playing,
the runs' games taken together (runs with different ``--seed`` are independent
games; a file of the earlier format, ``<v>_result`` …, holds the ``normal`` player).
Printed per variant and player (``yacht.cli.duel.render_duel``, as ``python -m yacht
duel``): games, games per CPU second, the win rate with draws half and its 95 %
interval for both seats, each seat and averaged over the seats, the calibration in
ten bins and its drift by turn; then, where both players played the same games, the paired difference
(``yacht.cli.duel.render_paired``).
"""

import argparse
import sys
import time
from functools import partial
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from yacht.chances.goal import EXACT_FREE  # noqa: E402
from yacht.cli.duel import render_duel, render_paired  # noqa: E402
from yacht.core.rules import VARIANTS  # noqa: E402
from yacht.loader import DEFAULT_TABLES, Tables  # noqa: E402
from yacht.play.duel import DuelResult, Memo, duel  # noqa: E402

FIELDS = ("result", "first", "predicted", "observed", "turn")
PLAYERS = ("chunks", "normal")
ROUND_GAMES = 1024


def _runs_of(saved: dict[str, np.ndarray], name: str, player: str) -> tuple[DuelResult, np.ndarray] | None:
    """The games of (variant, player) in one saved file and their seconds, or None."""
    prefixes = [f"{name}_{player}_"] + ([f"{name}_"] if player == "normal" else [])  # the earlier format
    for prefix in prefixes:
        if f"{prefix}result" in saved:
            unknown = np.full(len(saved[f"{prefix}predicted"]), -1, dtype=np.int8)  # files before the turn
            fields = (saved.get(f"{prefix}{f}", unknown) for f in FIELDS)
            return DuelResult(*fields), saved[f"{prefix}seconds"]
    return None


def report(saved: list[dict[str, np.ndarray]], variants: list[str], exact_free: int) -> None:
    """Print ``yacht.cli.duel.render_duel`` for each variant and player over all the saved runs together,
    and the paired difference where both players played the same games."""
    for name in variants:
        for player in PLAYERS:
            runs = [run for run in (_runs_of(s, name, player) for s in saved) if run is not None]
            if not runs:
                continue
            result = DuelResult(*(np.concatenate([getattr(r, f) for r, _ in runs]) for f in FIELDS))
            cpu, wall = sum(seconds for _, seconds in runs)
            label = f"{name}, {'the shipped player (chunks)' if player == 'chunks' else 'the normal law (before)'}"
            print(render_duel(label, result, float(cpu), float(wall), exact_free), flush=True)
        chunks, normal = [], []
        for run in saved:  # paired: both players' games of the same file, round by round
            if f"{name}_chunks_result" in run and f"{name}_normal_result" in run:
                n = min(len(run[f"{name}_chunks_result"]), len(run[f"{name}_normal_result"]))
                chunks.append(run[f"{name}_chunks_result"][:n])
                normal.append(run[f"{name}_normal_result"][:n])
        if chunks and sum(map(len, chunks)) > 1:
            print(render_paired(name, np.concatenate(chunks), np.concatenate(normal)), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--variant", choices=sorted(VARIANTS), action="append")
    parser.add_argument("--player", choices=PLAYERS, action="append", help="default: both, on the same dice")
    parser.add_argument("--games", type=int, help="stop once every variant has played this many games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--round", type=int, default=ROUND_GAMES, help=f"games per round (default {ROUND_GAMES})")
    parser.add_argument("--out", type=Path, default=ROOT / ".cache" / "duel-results.npz")
    parser.add_argument(
        "--report",
        type=Path,
        nargs="+",
        help="print the figures of saved runs (played with other seeds) together and stop",
    )
    args = parser.parse_args()
    variants = args.variant or ["official", "strict"]
    players = args.player or list(PLAYERS)
    if args.report:
        report([dict(np.load(path)) for path in args.report], variants, EXACT_FREE)
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tables = Tables(DEFAULT_TABLES)
    parts: dict[tuple[str, str], list[DuelResult]] = {(n, p): [] for n in variants for p in players}
    seconds = {key: np.zeros(2) for key in parts}
    memos = {key: Memo() for key in parts}
    deadline = time.monotonic() + 60 * args.minutes
    played = 0
    while time.monotonic() < deadline and not (args.games and played >= args.games):
        for name in variants:
            for player in players:
                rng = np.random.default_rng([args.seed, name == "strict", played // args.round])
                chunks = partial(tables.chunks_of, name) if player == "chunks" else None
                cpu, wall = time.process_time(), time.monotonic()
                block = duel(
                    tables[name].tilde,
                    tables.spread(name),
                    VARIANTS[name],
                    args.round,
                    rng,
                    memo=memos[name, player],
                    chunks=chunks,
                )
                seconds[name, player] += (time.process_time() - cpu, time.monotonic() - wall)
                parts[name, player].append(block)
        played += args.round
        saved = {f"{n}_{p}_{f}": np.concatenate([getattr(b, f) for b in parts[n, p]]) for n, p in parts for f in FIELDS}
        saved.update({f"{n}_{p}_seconds": seconds[n, p] for n, p in parts})
        saved.update({f"{n}_{p}_calibrated": np.array(p == "chunks") for n, p in parts})
        np.savez(args.out, **saved)
        print(f"{time.strftime('%H:%M:%S')} {played:,} games per variant and player", flush=True)
    report([saved], variants, EXACT_FREE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
