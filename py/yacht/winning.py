"""Playing to win (or to reach a score): exact backward induction over states
that carry the points gathered so far.

The objective is E[u(F)], F = my final score, for a payoff u over final
scores, maximized over my decisions. Two goals:

win    u(F) = P(Y < F) + ½·P(Y = F), Y the opponent's final score: an
       independent random variable (their play does not depend on my dice),
       whose exact distribution under their optimal-expected play comes from
       ``outcome``. Two channels are carried: P(win) = E[P(Y < F)] and
       P(draw) = E[P(Y = F)]; the objective is win + draw/2.
reach  u(F) = 1 if F ≥ t, else 0: one channel, P(F ≥ t).

From the position's state s₀ = (mask, ν) with f free categories and σ₀ its
score, a later state s is (mask', ν', g) with g = 0 … G − 1 the points
gathered since s₀ (bonus included), G = 1 + the most s₀ can still add. Its
values V_s[g] (a vector over g, one row per channel) satisfy, per turn, with
the solver's operators acting on the vectors (the choice is made for every
g separately: the max is of the objective w·V, and the channels follow it):

    V3[τ]  = V_{s'(c*)}[g + gain(c*)],  c* = argmax_c w·V_{s'(c)}[g + gain(c)]
    V2'[k] = Σ_τ⊇k P(τ − k) V3[τ],       V2[τ] = V2'[argmax_{k⊆τ} w·V2'[k]]
    V1'[k] = Σ_τ⊇k P(τ − k) V2[τ],       V1[ω] = V1'[argmax_{k⊆ω} w·V1'[k]]
    V_s    = Σ_ω P(ω) V1[ω],             V_full[g] = u(σ₀ + g)

Keeping all five dice at roll 1 is stopping: its value is V3[ω]. Ties of the
objective: the lowest category; among keeps, the larger keep (the running
max keeps a keep's own value unless a sub-keep is strictly better). Every
value is exact (float64); the work grows as 2^f × ν' × G, so callers keep f
at most ``EXACT_FREE``.
"""

import math
from typing import Final

import numpy as np

from .categories import BONUS_POINTS, N_CATEGORIES
from .dice import (
    KEEP_DICE,
    N_KEEPS,
    N_ROLLS,
    ROLL_OFFSET,
    ROLL_PROBABILITY,
    SUBKEEP_STEPS,
    keeps_from_rolls,
    reroll_expectation,
    roll_index,
    subkeeps,
)
from .outcome import Distribution, Turn, key, max_future, reachable_levels, successor_rows
from .rules import Variant, score_table

EXACT_FREE: Final = 4
"""The most free categories (mine) for which the win and reach values are computed on request."""

CHUNK_COLUMNS: Final = 4096
"""States × gathered points solved at once (bounds memory: about 25 MB per channel)."""


def win_payoff(opponent: Distribution, size: int) -> tuple[np.ndarray, np.ndarray]:
    """(size, 2) payoff over my final score F = 0 … size − 1: [P(Y < F), P(Y = F)], and weights (1, ½)."""
    equal = np.zeros(size + len(opponent.points) + opponent.score)
    equal[opponent.score : opponent.score + len(opponent.points)] = opponent.points
    below = np.concatenate(([0.0], np.cumsum(equal)[:-1]))
    return np.stack([below[:size], equal[:size]], axis=1), np.array([1.0, 0.5])


def reach_payoff(target: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """(size, 1) payoff over my final score: 1 where F ≥ target; weights (1,)."""
    return (np.arange(size) >= target).astype(np.float64)[:, None], np.array([1.0])


def best_over_subkeeps(keeps: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """(252, N, K): for each roll, the channels of its sub-keep with the best objective.

    ``keeps``: (462, N, K) channels per keep and column; objective ``keeps @ weights``.
    A running max over sub-keeps with one die fewer (``dice.SUBKEEP_STEPS``)
    that carries the index of the keep chosen."""
    objective = keeps @ weights
    choice = np.broadcast_to(np.arange(N_KEEPS)[:, None], objective.shape).copy()
    for lo, hi, parents in SUBKEEP_STEPS:
        candidate = objective[parents]
        better = candidate > objective[lo:hi]
        objective[lo:hi] = np.where(better, candidate, objective[lo:hi])
        choice[lo:hi] = np.where(better, choice[parents], choice[lo:hi])
    return keeps[choice[ROLL_OFFSET:], np.arange(keeps.shape[1])[None, :]]


def play_goal_turn(rolls3: np.ndarray, weights: np.ndarray) -> Turn:
    """One turn backwards from V3 (252, N, K): the best keeps by the objective."""
    _, n_columns, channels = rolls3.shape
    keeps2 = reroll_expectation(keeps_from_rolls(rolls3.reshape(N_ROLLS, -1))).reshape(N_KEEPS, n_columns, channels)
    rolls2 = best_over_subkeeps(keeps2.copy(), weights)
    keeps1 = reroll_expectation(keeps_from_rolls(rolls2.reshape(N_ROLLS, -1))).reshape(N_KEEPS, n_columns, channels)
    keeps1[ROLL_OFFSET:] = rolls3
    rolls1 = best_over_subkeeps(keeps1.copy(), weights)
    return Turn(rolls3, keeps2, keeps1, np.tensordot(ROLL_PROBABILITY, rolls1, axes=1))


def _after_category(
    next_values: np.ndarray,
    scores: np.ndarray,
    masks: np.ndarray,
    nus: np.ndarray,
    category: int,
    next_keys: np.ndarray,
    gathered: int,
) -> np.ndarray:
    """(252, B, gathered, K) channels after scoring ``category`` with each roll, by points gathered."""
    rows, gain = successor_rows(scores, masks, nus, np.full((1, 1), category), next_keys)
    next_gathered = next_values.shape[1]
    points = np.minimum(np.arange(gathered) + gain[..., None], next_gathered - 1)
    return next_values[rows[..., None], points]


def _level(
    next_values: np.ndarray,
    scores: np.ndarray,
    masks: np.ndarray,
    nus: np.ndarray,
    next_keys: np.ndarray,
    gathered: int,
    weights: np.ndarray,
) -> np.ndarray:
    """V (B, gathered, K) of a batch of states from the next level's values (R, G, K)."""
    n_states = len(masks)
    channels = next_values.shape[2]
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


def solve_goal(
    tilde: np.ndarray, variant: Variant, mask: int, nu: int, score: int, payoff: np.ndarray, weights: np.ndarray
) -> tuple[Turn, dict[int, np.ndarray]]:
    """The root turn of (mask, ν) for a goal: its ``Turn`` (N = 1 column: g = 0)
    and, per free category, the (252, K) channels after scoring it with each roll.

    ``payoff``: (size, K) over my final score F, size > score + max_future;
    ``tilde`` is unused (the play is the goal's own) but kept for one signature."""
    del tilde
    scores = score_table(variant)
    levels = reachable_levels(mask, nu)
    most = max_future(variant, mask, nu)
    final = payoff[np.minimum(score + np.arange(most + 1), len(payoff) - 1)]
    values = np.broadcast_to(final, (len(levels[-1][0]), most + 1, payoff.shape[1]))
    # The most j turns can gather: the j best free categories, and the bonus.
    best_first = sorted((int(scores[:, c].max()) for c in range(N_CATEGORIES) if not mask >> c & 1), reverse=True)
    for j in range(len(levels) - 2, 0, -1):
        masks, nus = levels[j]
        next_keys = key(*levels[j + 1])
        gathered = min(most, sum(best_first[:j]) + BONUS_POINTS) + 1
        step = max(1, CHUNK_COLUMNS // gathered)
        values = np.concatenate(
            [
                _level(values, scores, masks[i : i + step], nus[i : i + step], next_keys, gathered, weights)
                for i in range(0, len(masks), step)
            ]
        )
    return _root_turn(values, scores, mask, nu, levels, payoff.shape[1], weights)


def _root_turn(
    values: np.ndarray,
    scores: np.ndarray,
    mask: int,
    nu: int,
    levels: list[tuple[np.ndarray, np.ndarray]],
    channels: int,
    weights: np.ndarray,
) -> tuple[Turn, dict[int, np.ndarray]]:
    """The root's turn (exact, for every roll and keep) from the values of the level after it."""
    if len(levels) == 1:  # a full sheet
        empty = np.zeros((N_KEEPS, 1, channels))
        return Turn(empty[ROLL_OFFSET:], empty, empty, values[:, 0]), {}
    masks, nus = levels[0]
    next_keys = key(*levels[1])
    after = {
        c: _after_category(values, scores, masks, nus, c, next_keys, 1)[:, 0, 0]
        for c in range(N_CATEGORIES)
        if not mask >> c & 1
    }
    best = np.full(N_ROLLS, -np.inf)
    rolls3 = np.zeros((N_ROLLS, channels))
    for values_c in after.values():
        objective = values_c @ weights
        better = objective > best
        best = np.where(better, objective, best)
        rolls3 = np.where(better[:, None], values_c, rolls3)
    return play_goal_turn(rolls3[:, None, :], weights), after


def normal_points(mean: float, sd: float, most: int) -> np.ndarray:
    """(most + 1,) a normal law N(mean, sd²) put on the points 0 … most: P(x) = Φ((x + ½ − mean)/sd) −
    Φ((x − ½ − mean)/sd), the tails folded into 0 and ``most``; a point mass where sd = 0."""
    if sd <= 1e-9:
        out = np.zeros(most + 1)
        out[min(most, max(0, round(mean)))] = 1.0
        return out
    edges = (np.arange(most) + 0.5 - mean) / (sd * np.sqrt(2.0))
    cdf = 0.5 * (1.0 + _erf(edges))
    return np.diff(np.concatenate(([0.0], cdf, [1.0])))


_erf = np.vectorize(math.erf, otypes=[np.float64])


def approximate_goal(
    tilde: np.ndarray,
    spread: np.ndarray,
    variant: Variant,
    mask: int,
    nu: int,
    score: int,
    payoff: np.ndarray,
    weights: np.ndarray,
) -> tuple[Turn, dict[int, np.ndarray]]:
    """As ``solve_goal``, but only the root's turn is exact: from each state s after
    it, the future points X are taken as ``normal_points(Ẽ(s), sd(s), most(s))``
    (``spread``: the sd table) and V_s[g] = Σ_x P(X = x) u(σ₀ + g + x)."""
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
    return _root_turn(values, scores, mask, nu, levels, payoff.shape[1], weights)


def option_values(
    root: Turn, after: dict[int, np.ndarray], weights: np.ndarray, roll: int, dice: tuple[int, ...] | None
) -> list[tuple[tuple[int, ...] | None, int | None, np.ndarray]]:
    """The channels (K,) of every option of a roll, from ``solve_goal``'s root:
    ``(keep, category, channels)`` — roll 3: one per free category (keep None);
    roll 1/2: one per distinct keep of the dice, in ``subkeeps`` order (all five
    kept: stopping, with the category best for the goal). Roll 0: one entry,
    the position's own value (keep and category None)."""
    if roll == 0 or dice is None:
        return [(None, None, root.start[0])]
    rolled = roll_index(dice)
    if roll == 3:
        return [(None, c, values[rolled]) for c, values in after.items()]
    stop = max(after, key=lambda c: (float(after[c][rolled] @ weights), -c))
    keeps = root.keeps2 if roll == 2 else root.keeps1
    out = []
    for k in subkeeps(dice):
        if k >= ROLL_OFFSET:
            out.append((KEEP_DICE[k], stop, after[stop][rolled]))
        else:
            out.append((KEEP_DICE[k], None, keeps[k, 0]))
    return out
