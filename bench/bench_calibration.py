"""The win chance's calibration beyond the exact range: fit ``calibration.CALIBRATION`` on saved duel
games, check it on others.

    python bench/bench_calibration.py --fit FILE.npz ... [--check FILE.npz ...] [--round N]
    python bench/bench_calibration.py --split FILE.npz ... [--round N]

(``--split``: fit on the runs' even rounds, check on their odd rounds.)

FILE.npz: runs saved by ``bench/bench_duel.py --player chunks`` (the shipped player), each with
its ``--round`` (default 1,024 games; a round is played in blocks of ``duel.BLOCK_GAMES``).
A duel saves, per point (the start of each of the win-aware player's turns), the predicted
win + draw/2, the game's result and the turn; the point's game and seat are rebuilt here from
the order ``duel`` plays them in (per block, turn by turn, the first seat's games, then the
second's). Runs saved with the map applied (``_calibrated``) are taken back to the blend's
chances first.

Fit: per variant and per the stage (my free categories, and whether the opponent has already
played this turn), the shift β of the logit that makes the points' targets most likely,
q′ = 1 / (1 + exp(−(logit q + β))) (the same map as ``calibration.calibrated``; fractional targets).
The target (``--target``): ``last``, the default, is the game's prediction at the start of my
last turn, which is exact (nothing I do after it can depend on the opponent's last turn), so
E[result | that prediction] = that prediction and it can stand for the result with the last
turn's noise taken out; ``result``: the game's result (1, ½, 0). Printed with its standard error
(as if the points were independent: a game's points at different stages share its result, so
the stages' errors move together). Then the same pooled over both seats; then over both
variants, per my free categories and seat: what ``calibration.CALIBRATION`` holds (one map for both
variants: in the fitting half of the first run official's β were above strict's by 1–1.5
standard errors, in the checking half strict's gaps were the larger), printed as it is
written there.

Check: on the other files' points, the shipped map (``calibration.CALIBRATION``) applied where the
shown chance is beyond the exact range (as the advice does) and not applied: per stage the
mean gap (observed − predicted, 95 % interval by game), and the ten calibration bins of
``duel.calibration`` over all points with their gap's 95 % interval (by game: a game's points
are correlated).
"""

import argparse
import sys
from functools import partial
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from yacht.chances.calibration import CALIBRATION, calibrated, calibration_shifts, shifted  # noqa: E402
from yacht.chances.goal import EXACT_FREE  # noqa: E402
from yacht.core.categories import N_CATEGORIES  # noqa: E402
from yacht.play.duel import BLOCK_GAMES, calibration  # noqa: E402

VARIANTS = ("official", "strict")


def points(saved: dict[str, np.ndarray], name: str, round_games: int) -> dict[str, np.ndarray]:
    """The calibration points of the shipped player of ``name`` in one saved run: predicted,
    observed, free (my free categories), second (the opponent has played this turn: I have the
    second seat), game (index in the run)."""
    predicted = saved[f"{name}_chunks_predicted"]
    observed = saved[f"{name}_chunks_observed"]
    turn = saved[f"{name}_chunks_turn"].astype(np.int64)
    first = saved[f"{name}_chunks_first"]
    games = len(first)
    sizes = [min(BLOCK_GAMES, round_games - s) for s in range(0, round_games, BLOCK_GAMES)] * (games // round_games)
    if sum(sizes) != games or N_CATEGORIES * games != len(predicted):
        raise SystemExit(f"{name}: {games} games, {len(predicted)} points: not rounds of {round_games} games")
    game = np.concatenate(
        [np.tile(np.arange(s, s + n), N_CATEGORIES) for s, n in zip(np.cumsum([0, *sizes[:-1]]), sizes, strict=True)]
    )
    free, second = N_CATEGORIES - turn, ~first[game]
    if bool(saved.get(f"{name}_chunks_calibrated", False)):  # the shown chances: back to the blend's
        predicted = shifted(predicted, -calibration_shifts(free, free - second))
    last = np.zeros(games)
    last[game[free == 1]] = predicted[free == 1]  # my last turn's prediction: exact (see ``fit``)
    return {
        "predicted": predicted,
        "observed": observed,
        "last": last[game],
        "free": free,
        "second": second,
        "game": game,
    }


def subset(p: dict[str, np.ndarray], chosen: np.ndarray) -> dict[str, np.ndarray]:
    """The points ``chosen`` (a boolean mask) of a run's."""
    return {k: v[chosen] for k, v in p.items()}


def joined(runs: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Several runs' points as one set (game indices made distinct)."""
    out: dict[str, list[np.ndarray]] = {k: [] for k in runs[0]}
    offset = 0
    for run in runs:
        for k, v in run.items():
            out[k].append(v + offset if k == "game" else v)
        offset += int(run["game"].max()) + 1
    return {k: np.concatenate(v) for k, v in out.items()}


def fit_shift(predicted: np.ndarray, observed: np.ndarray) -> tuple[float, float]:
    """The logit shift β of greatest likelihood (Newton's method) and its standard error."""
    q = np.clip(predicted, 1e-9, 1 - 1e-9)
    logit = np.log(q / (1 - q))
    beta = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-(logit + beta)))
        step = float((observed - p).sum() / (p * (1 - p)).sum())
        beta += step
        if abs(step) < 1e-12:
            break
    p = 1 / (1 + np.exp(-(logit + beta)))
    return beta, float(1 / np.sqrt((p * (1 - p)).sum()))


def by_game_interval(values: np.ndarray, game: np.ndarray) -> tuple[float, float]:
    """Mean of ``values`` and its 95 % half-width with each game's points summed (clustered)."""
    _, index = np.unique(game, return_inverse=True)
    sums = np.bincount(index, weights=values)
    counts = np.bincount(index)
    mean = float(values.mean())
    residual = sums - mean * counts
    return mean, float(1.96 * np.sqrt((residual**2).sum()) / len(values))


def shown(p: dict[str, np.ndarray], name: str) -> np.ndarray:
    """The points' predictions with the shipped map where the advice applies it."""
    return calibrated(p["predicted"], p["free"], p["free"] - p["second"])


def fit(p: dict[str, np.ndarray], name: str, target: str) -> None:
    games = len(np.unique(p["game"]))
    print(f"{name}: the logit shift of greatest likelihood per stage ({games:,} games; target: {target})")
    wanted = p["last"] if target == "last" else p["observed"]
    print(f"  {'free':>4} {'seat':>6} {'beta':>8} {'± se':>7} {'mean gap':>9} {'points':>8}  shipped")
    for free in range(N_CATEGORIES, 0, -1):
        for second in (False, True):
            chosen = (p["free"] == free) & (p["second"] == second)
            beta, se = fit_shift(p["predicted"][chosen], wanted[chosen])
            gap = 100 * float((p["observed"][chosen] - p["predicted"][chosen]).mean())
            seat = "second" if second else "first"
            now = CALIBRATION.get((free, second))
            print(
                f"  {free:>4} {seat:>6} {beta:+8.4f} {se:7.4f} {gap:+9.2f} {int(chosen.sum()):>8,}  "
                + (f"{now:+.4f}" if now is not None else "-")
            )
    print(
        "  both seats:  "
        + "  ".join(
            f"{f}: {fit_shift(p['predicted'][p['free'] == f], wanted[p['free'] == f])[0]:+.4f}"
            for f in range(N_CATEGORIES, 0, -1)
        )
    )


def check(p: dict[str, np.ndarray], name: str) -> None:
    games = len(np.unique(p["game"]))
    print(f"{name}: the shipped map checked on {games:,} games ({len(p['predicted']):,} points)")
    mapped = shown(p, name)
    print("  mean gap by my free categories, observed − predicted, points (95 %, by game):")
    print(f"  {'free':>4} {'as shipped':>16} {'without the map':>16}")
    for free in range(N_CATEGORIES, 0, -1):
        chosen = p["free"] == free
        with_map = by_game_interval(p["observed"][chosen] - mapped[chosen], p["game"][chosen])
        without = by_game_interval(p["observed"][chosen] - p["predicted"][chosen], p["game"][chosen])
        print(
            f"  {free:>4} {100 * with_map[0]:+8.2f} ± {100 * with_map[1]:.2f} "
            f"{100 * without[0]:+8.2f} ± {100 * without[1]:.2f}"
        )
    for label, predicted in (("as shipped", mapped), ("without the map", p["predicted"])):
        print(f"  ten bins, {label}: predicted, observed, gap (95 %, by game), points")
        which = np.minimum((predicted * 10).astype(int), 9)
        worst = 0.0
        for b, (mean, observed, count) in enumerate(calibration(predicted, p["observed"])):
            if not count:
                continue
            chosen = which == b
            gap, half = by_game_interval(p["observed"][chosen] - predicted[chosen], p["game"][chosen])
            worst = max(worst, abs(gap))
            print(f"    {100 * mean:6.2f} % {100 * observed:6.2f} % {100 * gap:+6.2f} ± {100 * half:.2f} {count:>10,}")
        print(f"    largest |gap|: {100 * worst:.2f} points (goal: each within 1.0)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", type=Path, nargs="*", default=[], help="runs to fit the shift on")
    parser.add_argument("--check", type=Path, nargs="*", default=[], help="runs to check the shipped map on")
    parser.add_argument("--round", type=int, default=1024, help="games per round of every run (default 1,024)")
    parser.add_argument("--variant", choices=VARIANTS, action="append")
    parser.add_argument("--target", choices=("last", "result"), default="last", help="what the fit predicts")
    parser.add_argument(
        "--split",
        type=Path,
        nargs="*",
        default=[],
        help="runs to fit on their even rounds and check on their odd rounds (with --fit and --check)",
    )
    args = parser.parse_args()
    print(f"exact range: {EXACT_FREE} free categories; the map applies beyond it")
    pooled = []  # the points fitted on, every variant's
    split = [dict(np.load(path)) for path in args.split]
    for name in args.variant or VARIANTS:
        halves = [points(run, name, args.round) for run in split if f"{name}_chunks_predicted" in run]
        for paths, action, parity in ((args.fit, partial(fit, target=args.target), 0), (args.check, check, 1)):
            runs = [dict(np.load(path)) for path in paths]
            runs = [points(run, name, args.round) for run in runs if f"{name}_chunks_predicted" in run]
            runs += [subset(run, run["game"] // args.round % 2 == parity) for run in halves]
            if runs:
                action(joined(runs), name)
                if action is not check:
                    pooled.append(joined(runs))
    if len(pooled) > 1:
        p = joined(pooled)
        wanted = p["last"] if args.target == "last" else p["observed"]
        print(f"both variants ({len(np.unique(p['game'])):,} games), β by my free categories and seat:")
        fitted = {}
        for second in (False, True):
            for f in range(N_CATEGORIES, 0, -1):
                chosen = (p["free"] == f) & (p["second"] == second)
                fitted[f, second] = fit_shift(p["predicted"][chosen], wanted[chosen])
            seat = "second" if second else "first"
            print(f"  {seat:>6}: " + "  ".join(f"{f}: {fitted[f, second][0]:+.4f}" for f in range(N_CATEGORIES, 0, -1)))
        errors = [se for _, se in fitted.values()]
        print(f"  standard errors {min(errors):.4f} to {max(errors):.4f}")
        beyond = ", ".join(
            f"({f}, {second}): {fitted[f, second][0]:.3f}"
            for f in range(N_CATEGORIES, EXACT_FREE, -1)
            for second in (False, True)
        )
        print(f"  as calibration.CALIBRATION (beyond the exact range): {{{beyond}}}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
