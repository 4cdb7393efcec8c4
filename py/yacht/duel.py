"""Head-to-head: the win-aware player against the expected-score player.

Games are played in lockstep, one turn of every game at a time (dice and
choices vectorized across games by ``simulate.play_turns``). The
expected-score player follows ``policy.expected_policy``. The win-aware
player, at the start of each of its turns, solves its goal turn against the
opponent's sheet as it stands (``goal.goal_turn`` with ``goal.opponent_law``:
exact up to ``exact_free`` free categories of its own, one exact turn and a
normal law before) and then, for every roll, takes the option with the best
win + draw/2 (ties: the lowest category; the first keep in ``subkeeps``
order). The win-aware player has the first seat in the first half of the
games and the second seat in the other half.

Calibration points: at the start of each of the win-aware player's turns, its
predicted win + draw/2 and the game's result (1 win, ½ draw, 0 loss).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .categories import N_CATEGORIES
from .dice import N_ROLLS
from .goal import EXACT_FREE, goal_turn, opponent_law
from .outcome import max_future
from .policy import Policy, expected_policy, first_best_keep
from .rules import Variant, score_table
from .simulate import play_turns
from .winning import win_payoff


@dataclass(frozen=True)
class DuelResult:
    """``result`` (games,): 1 / ½ / 0 for the win-aware player; ``first`` (games,) bool:
    it had the first seat. ``predicted``, ``observed``: the calibration points."""

    result: np.ndarray
    first: np.ndarray
    predicted: np.ndarray
    observed: np.ndarray


def goal_policy(turn, after: dict[int, np.ndarray], weights: np.ndarray) -> tuple[Policy, float]:
    """The win-aware choices for every roll of a turn (one column) and the predicted chance."""
    objective3 = np.full((N_CATEGORIES, N_ROLLS), -np.inf)
    for c, values in after.items():
        objective3[c] = values @ weights
    category = objective3.argmax(axis=0)
    keep2 = first_best_keep((turn.keeps2[:, 0] @ weights)[:, None])
    keep1 = first_best_keep((turn.keeps1[:, 0] @ weights)[:, None])
    return Policy(category[:, None], keep2, keep1), float(turn.start[0] @ weights)


def duel(
    tilde: np.ndarray,
    spread: np.ndarray,
    variant: Variant,
    games: int,
    rng: np.random.Generator,
    exact_free: int = EXACT_FREE,
    progress: Callable[[int], None] | None = None,
) -> DuelResult:
    """Play ``games`` games (see the module docstring)."""
    scores = score_table(variant)
    first = np.arange(games) < games // 2 + games % 2
    # Player 0 is win-aware, player 1 expected-score: (games, 2) masks, ν, σ.
    masks = np.zeros((games, 2), dtype=np.int64)
    nus = np.zeros((games, 2), dtype=np.int64)
    sigma = np.zeros((games, 2), dtype=np.int64)
    predicted, sampled_games = [], []
    for round_ in range(N_CATEGORIES):
        for seat in (0, 1):
            # The win-aware player plays now in the games where its seat is this one.
            win_now = first if seat == 0 else ~first
            for player, games_now in ((0, np.flatnonzero(win_now)), (1, np.flatnonzero(~win_now))):
                if player == 1:
                    policy = expected_policy(tilde, scores, masks[games_now, 1], nus[games_now, 1])
                else:
                    columns = []
                    for g in games_now:
                        opponent, _ = opponent_law(
                            tilde, lambda: spread, variant, int(masks[g, 1]), int(nus[g, 1]), int(sigma[g, 1])
                        )
                        mine = (int(masks[g, 0]), int(nus[g, 0]), int(sigma[g, 0]))
                        payoff, weights = win_payoff(opponent, mine[2] + max_future(variant, mine[0], mine[1]) + 1)
                        turn, after, _ = goal_turn(tilde, lambda: spread, variant, *mine, payoff, weights, exact_free)
                        column, chance = goal_policy(turn, after, weights)
                        columns.append(column)
                        predicted.append(chance)
                        sampled_games.append(g)
                    policy = Policy(*(np.concatenate(parts, axis=1) for parts in zip(*columns, strict=True)))
                m, n, gain = play_turns(policy, masks[games_now, player], nus[games_now, player], variant, rng)
                masks[games_now, player], nus[games_now, player] = m, n
                sigma[games_now, player] += gain
        if progress:
            progress(round_ + 1)
    result = np.where(sigma[:, 0] > sigma[:, 1], 1.0, np.where(sigma[:, 0] == sigma[:, 1], 0.5, 0.0))
    return DuelResult(result, first, np.array(predicted), result[np.array(sampled_games, dtype=np.intp)])


def win_rate(results: np.ndarray) -> tuple[float, float]:
    """Mean result (draws ½) and the half-width of its 95 % interval (normal approximation)."""
    mean = float(results.mean())
    return mean, float(1.96 * results.std(ddof=1) / np.sqrt(len(results))) if len(results) > 1 else float("nan")


def calibration(predicted: np.ndarray, observed: np.ndarray, bins: int = 10) -> list[tuple[float, float, int]]:
    """Per tenth of predicted chance: (mean predicted, mean observed, count)."""
    which = np.minimum((predicted * bins).astype(int), bins - 1)
    out = []
    for b in range(bins):
        chosen = which == b
        count = int(chosen.sum())
        out.append(
            (float(predicted[chosen].mean()), float(observed[chosen].mean()), count)
            if count
            else (float("nan"), float("nan"), 0)
        )
    return out
