"""``python -m yacht duel``: the win-aware player against the expected-score player, head to
head (``play.duel``), and its figures as text (``render_duel``, ``render_paired``).
"""

import argparse
import sys
import time
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from ..core.categories import N_CATEGORIES
from ..core.table import TableError
from ..loader import Tables

if TYPE_CHECKING:
    from ..play.duel import DuelResult

HELP = "simulate the win-aware player against the expected-score player"
DESCRIPTION = (
    "Head-to-head games, seats alternated: the win rate (draws half) with its 95 %% interval, "
    "per seat, and the calibration of the predicted chance of winning in ten bins and by turn."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=_positive, default=2000, help="games per variant (default 2000)")
    parser.add_argument("--variant", choices=("official", "strict"), action="append", help="default: both")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument(
        "--compare",
        action="store_true",
        help="also play the win-aware player that uses the spread table's normal law beyond the exact range "
        "(the one before the chunks) on the same dice, and print the difference",
    )
    parser.add_argument(
        "--exact-free",
        type=int,
        choices=range(1, 5),
        default=None,
        help="the win-aware player's exact range in free categories (default: the advisor's, 4)",
    )


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 2:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of games, 2 or more")
    return int(text)


def render_duel(variant_name: str, result: "DuelResult", cpu: float, wall: float, exact_free: int) -> str:
    """The figures of a duel as text: games and their speed, the win rate (draws half) with
    its 95 % interval for both seats, each seat and averaged over the seats (the two seats'
    rates averaged; half-width: the seats' half-widths combined, √(h₁² + h₂²)/2), and the
    calibration in ten bins, and its drift by turn (``duel.drift``). ``cpu``, ``wall``: seconds
    spent playing."""
    from ..play.duel import calibration, drift, win_rate

    games = len(result.result)
    lines = [
        f"{variant_name}: {games:,} games in {wall:.0f} s ({games / cpu:.1f} games per CPU second; "
        f"exact range: {exact_free} free categories)"
    ]
    for label, chosen in (("both seats", slice(None)), ("first seat", result.first), ("second seat", ~result.first)):
        played = result.result[chosen]
        rate, half = win_rate(played)
        lines.append(
            f"  {label:<12} win-aware wins {100 * rate:6.2f} % ± {100 * half:.2f} (95 %), "
            f"draws {100 * float((played == 0.5).mean()):.2f} %, {len(played):,} games"
        )
    seats = [win_rate(result.result[result.first]), win_rate(result.result[~result.first])]
    average, half = (seats[0][0] + seats[1][0]) / 2, float(np.hypot(seats[0][1], seats[1][1])) / 2
    lines.append(f"  averaged over the seats: {100 * average:.2f} % ± {100 * half:.2f} (95 %; goal: at least 51.0 %)")
    lines.append(f"  calibration, {len(result.predicted):,} points (turn starts of the win-aware player):")
    lines.append(f"  {'predicted':>12} {'observed':>9} {'gap':>7} {'points':>10}")
    for predicted, observed, count in calibration(result.predicted, result.observed):
        if count:
            gap = 100 * (observed - predicted)
            lines.append(f"  {100 * predicted:11.2f}% {100 * observed:8.2f}% {gap:+7.2f} {count:>10,}")
    reference = N_CATEGORIES - exact_free  # the first turn whose prediction is exact (exact_free free categories)
    by_turn = drift(result.predicted, result.turn, reference)
    if by_turn:
        lines.append(
            f"  drift: the mean prediction by turn, and minus turn {reference + 1}'s (the first exact one),"
            " game by game (95 %; calibrated: 0):"
        )
        for turn, mean, difference, half in by_turn:
            lines.append(f"    turn {turn + 1:>2}  {100 * mean:6.2f} %  {100 * difference:+6.2f} ± {100 * half:.2f}")
    return "\n".join(lines)


def render_paired(variant_name: str, shipped: np.ndarray, before: np.ndarray) -> str:
    """The paired difference of two win-aware players' results (games,) on the same dice and
    seats: the shipped player's (the chunks) minus the one before (the normal law), in points of
    win rate (draws half), with its 95 % interval, and how many games each won that the other
    did not."""
    difference = shipped - before
    half = 1.96 * difference.std(ddof=1) / np.sqrt(len(difference))
    return (
        f"{variant_name}: the chunks' player minus the normal law's, same dice and seats, {len(difference):,} games: "
        f"{100 * difference.mean():+.2f} points of win rate (95 % interval ±{100 * half:.2f}; "
        f"better in {int((difference > 0).sum()):,} games, worse in {int((difference < 0).sum()):,})"
    )


def run(args: argparse.Namespace) -> int:
    """``python -m yacht duel``: play and print the figures per variant (``render_duel``)."""
    from ..chances.goal import EXACT_FREE
    from ..core.rules import VARIANTS
    from ..play.duel import duel

    tables = Tables(args.tables)
    exact_free = EXACT_FREE if args.exact_free is None else args.exact_free
    for variant_name in args.variant or ["official", "strict"]:
        try:
            table, spread = tables[variant_name], tables.spread(variant_name)
        except TableError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        chunks = partial(tables.chunks_of, variant_name)
        results = []
        for player in (chunks, None) if args.compare else (chunks,):
            cpu, wall = time.process_time(), time.perf_counter()
            rng = np.random.default_rng([args.seed, variant_name == "strict"])  # the same dice for both players
            try:
                result = duel(table.tilde, spread, VARIANTS[variant_name], args.games, rng, exact_free, chunks=player)
            except TableError as e:
                print(f"error: {e}", file=sys.stderr)
                return 1
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            name = variant_name if player else f"{variant_name}, the normal law beyond the exact range (before)"
            print(render_duel(name, result, cpu, wall, exact_free), flush=True)
            results.append(result.result)
        if args.compare:
            print(render_paired(variant_name, *results), flush=True)
    return 0
