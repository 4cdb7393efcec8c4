"""A slow reference of ``yacht.chances.winning``'s goal turn, as it was first written: the
dense DP over every state × g of each level (g = 0 … the most the turns so far can
gather) and the approximation's level after the root by a loop over states and g.
The fast code solves only the pairs the root reaches and batches roots across games;
the differential tests compare the two."""

import numpy as np
from yacht.chances.outcome import Turn, key, max_future, reachable_levels, successor_rows
from yacht.chances.winning import best_categories, normal_points, play_goal_turn
from yacht.core.categories import BONUS_POINTS, N_CATEGORIES
from yacht.core.dice import N_ROLLS
from yacht.core.rules import Variant, score_table


def _after_category(next_values, scores, masks, nus, category, next_keys, gathered):
    """(252, B, gathered, K) channels after scoring ``category`` with each roll, by points gathered."""
    rows, gain = successor_rows(scores, masks, nus, np.full((1, 1), category), next_keys)
    points = np.minimum(np.arange(gathered) + gain[..., None], next_values.shape[1] - 1)
    return next_values[rows[..., None], points]


def _level(next_values, scores, masks, nus, next_keys, gathered, weights):
    """V (B, gathered, K) of a batch of states from the next level's values (R, G, K)."""
    n_states, channels = len(masks), next_values.shape[2]
    best = np.full((N_ROLLS, n_states, gathered), -np.inf)
    rolls3 = np.zeros((N_ROLLS, n_states, gathered, channels))
    for c in range(N_CATEGORIES):
        open_ = (masks >> c & 1) == 0
        if not open_.any():
            continue
        values = _after_category(next_values, scores, masks, nus, c, next_keys, gathered)
        objective = values @ weights
        objective[:, ~open_] = -np.inf
        better = objective > best
        best = np.where(better, objective, best)
        rolls3 = np.where(better[..., None], values, rolls3)
    turn = play_goal_turn(rolls3.reshape(N_ROLLS, n_states * gathered, channels), weights)
    return turn.start.reshape(n_states, gathered, channels)


def _root(values, scores, mask, levels, weights) -> tuple[Turn, dict[int, np.ndarray]]:
    masks, nus = levels[0]
    next_keys = key(*levels[1])
    after = {
        c: _after_category(values, scores, masks, nus, c, next_keys, 1)[:, 0, 0]
        for c in range(N_CATEGORIES)
        if not mask >> c & 1
    }
    return play_goal_turn(best_categories(after, weights)[:, None, :], weights), after


def dense_solve_goal(variant: Variant, mask: int, nu: int, score: int, payoff, weights):
    """``winning.solve_goal`` over the dense grid (a sheet with one free category at least)."""
    scores = score_table(variant)
    levels = reachable_levels(mask, nu)
    most = max_future(variant, mask, nu)
    final = payoff[np.minimum(score + np.arange(most + 1), len(payoff) - 1)]
    values = np.broadcast_to(final, (len(levels[-1][0]), most + 1, payoff.shape[1]))
    best_first = sorted((int(scores[:, c].max()) for c in range(N_CATEGORIES) if not mask >> c & 1), reverse=True)
    for j in range(len(levels) - 2, 0, -1):
        masks, nus = levels[j]
        gathered = min(most, sum(best_first[:j]) + BONUS_POINTS) + 1
        values = _level(values, scores, masks, nus, key(*levels[j + 1]), gathered, weights)
    return _root(values, scores, mask, levels, weights)


def looped_approximate_goal(tilde, spread, variant: Variant, mask: int, nu: int, score: int, payoff, weights):
    """``winning.approximate_goal`` with the level after the root filled state by state."""
    scores = score_table(variant)
    levels = reachable_levels(mask, nu, turns=1)
    most = max_future(variant, mask, nu)
    best_one = max(int(scores[:, c].max()) for c in range(N_CATEGORIES) if not mask >> c & 1)
    gathered = np.arange(min(most, best_one + BONUS_POINTS) + 1)
    masks, nus = levels[1]
    values = np.empty((len(masks), len(gathered), payoff.shape[1]))
    for b, (m, n) in enumerate(zip(masks, nus, strict=True)):
        future = normal_points(float(tilde[m, n]), float(spread[m, n]), max_future(variant, int(m), int(n)))
        finals = np.minimum(score + gathered[:, None] + np.arange(len(future)), len(payoff) - 1)
        values[b] = np.tensordot(payoff[finals], future, axes=([1], [0]))
    return _root(values, scores, mask, levels, weights)
