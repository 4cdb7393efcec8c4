"""What the win chance misses by not seeing the opponent's later turns.

    python bench/bench_adaptive.py [--variant V] [--free K] [--positions N] [--repeats R] [--seed S]

The win-aware player's chance (``duel.win_aware_policy``, as the advice's ``o=``) is the goal
DP against the law of the opponent's final score as it stands: it is the value of a play that
never looks at the opponent again (open loop). The player that is shipped looks at the
opponent's sheet at every turn (it recomputes its choices), so it can do better than the chance
it was told. This measures by how much, where the DP is exact (``--free`` ≤ 4).

N positions at K free categories for both players are made by expected-score play (both
sheets, ``--seed``); from each, R games are played to the end, in both seats (the win-aware
player first: the opponent has K free too; second: the opponent has played their turn of the
round), twice on the same dice (every roll throws five dice whatever was kept):

- adaptive: at each of its turns the win-aware player recomputes against the opponent's
  sheet as it is then (as in ``yacht.play.duel`` and on the page);
- open loop: it keeps playing against the opponent's sheet of the first turn (the play
  that the predicted chance is the value of).

Printed per seat and play: the mean predicted win + draw/2 at the first turn, the observed one
(draws ½), their gap with its 95 % interval, and the paired difference adaptive − open loop.
A gap of 0 for the open loop checks the DP and the opponent's law; the adaptive gap is
what the chance shown misses.
"""

import argparse
import sys
from functools import partial
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from yacht.chances.simulate import expected_policies, play_turns  # noqa: E402
from yacht.core.categories import N_CATEGORIES  # noqa: E402
from yacht.core.rules import VARIANTS, score_table  # noqa: E402
from yacht.loader import DEFAULT_TABLES, Tables  # noqa: E402
from yacht.play.duel import Memo, win_aware_policy  # noqa: E402


class Games:
    """One variant's tables and players; sheets are (N, 3) int64 arrays of (mask, ν, σ)."""

    def __init__(self, tables: Tables, name: str) -> None:
        self.tilde = tables[name].tilde
        self.variant = VARIANTS[name]
        self.scores = score_table(self.variant)
        self.chunks = partial(tables.chunks_of, name)
        self.spread = tables.spread(name)
        self.memo = Memo()

    def expected_turn(self, sheets: np.ndarray, rng: np.random.Generator) -> None:
        """One turn of the expected-score player on every sheet, in place."""
        policy = expected_policies(self.tilde, self.scores, sheets[:, 0], sheets[:, 1])
        self._apply(policy, sheets, None, rng)

    def aware_turn(self, mine: np.ndarray, theirs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One turn of the win-aware player against ``theirs``, in place; returns the predicted
        win + draw/2 at the turn's start (N,). Each distinct (mine, theirs) is solved once."""
        pairs, where = np.unique(np.concatenate([mine, theirs], axis=1), axis=0, return_inverse=True)
        policy, chances = win_aware_policy(
            self.tilde,
            lambda: self.spread,
            self.variant,
            pairs[:, :3],
            pairs[:, 3:],
            memo=self.memo,
            chunks=self.chunks,
        )
        self._apply(policy, mine, where.ravel(), rng)
        return chances[where.ravel()]

    def _apply(self, policy, sheets: np.ndarray, columns: np.ndarray | None, rng: np.random.Generator) -> None:
        masks, nus, gains = play_turns(policy, sheets[:, 0], sheets[:, 1], self.variant, rng, columns=columns)
        sheets[:, 0], sheets[:, 1] = masks, nus
        sheets[:, 2] += gains


def play_out(
    games: Games, mine: np.ndarray, theirs: np.ndarray, free: int, first: bool, adaptive: bool, seed: list[int]
) -> tuple[np.ndarray, np.ndarray]:
    """Play the games to the end from (mine, theirs), both with ``free`` categories left (the
    opponent plays their turn of the round first unless ``first``). Returns the predicted
    chance at the win-aware player's first turn and the results, each (N,)."""
    rng = np.random.default_rng(seed)
    mine, theirs = mine.copy(), theirs.copy()
    if not first:
        games.expected_turn(theirs, rng)
    seen, predicted = theirs.copy(), None
    for turn in range(free):
        if adaptive:
            seen = theirs
        chances = games.aware_turn(mine, seen, rng)
        predicted = chances if predicted is None else predicted
        if first or turn < free - 1:
            games.expected_turn(theirs, rng)
    result = np.where(mine[:, 2] > theirs[:, 2], 1.0, np.where(mine[:, 2] == theirs[:, 2], 0.5, 0.0))
    return predicted, result


def half_width(values: np.ndarray) -> float:
    """The half-width of the 95 % interval of the mean of ``values`` (normal approximation)."""
    return float(1.96 * values.std(ddof=1) / np.sqrt(len(values)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="strict")
    parser.add_argument("--free", type=int, choices=range(2, 5), default=4)
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = Games(Tables(DEFAULT_TABLES), args.variant)
    rng = np.random.default_rng([args.seed, 0])
    mine = np.zeros((args.positions, 3), dtype=np.int64)
    theirs = np.zeros((args.positions, 3), dtype=np.int64)
    for _ in range(N_CATEGORIES - args.free):
        games.expected_turn(mine, rng)
        games.expected_turn(theirs, rng)
    mine, theirs = np.repeat(mine, args.repeats, axis=0), np.repeat(theirs, args.repeats, axis=0)
    print(
        f"{args.variant}: {args.positions} positions at {args.free} free categories each, "
        f"{args.repeats} games from each per seat and play (seed {args.seed}); points of win + draw/2"
    )
    for first in (True, False):
        seat = "first seat " if first else "second seat"
        outcomes = {}
        for adaptive in (False, True):
            seed = [args.seed, 1, int(first)]  # the same dice for both plays
            predicted, result = play_out(games, mine, theirs, args.free, first, adaptive, seed)
            outcomes[adaptive] = result
            gap = result - predicted
            print(
                f"  {seat} {'adaptive ' if adaptive else 'open loop'}: predicted {100 * predicted.mean():6.2f}, "
                f"observed {100 * result.mean():6.2f}, gap {100 * gap.mean():+.2f} ± {100 * half_width(gap):.2f}",
                flush=True,
            )
        difference = outcomes[True] - outcomes[False]
        mean, half = 100 * difference.mean(), 100 * half_width(difference)
        print(f"  {seat} adaptive − open loop, same dice: {mean:+.2f} ± {half:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
