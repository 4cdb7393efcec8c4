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
from functools import lru_cache
from typing import Final, NamedTuple

import numpy as np

from ..core.categories import BONUS_THRESHOLD, FULL_MASK, N_CATEGORIES
from ..core.dice import (
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
from ..core.rules import Variant, score_table
from ..core.steps import Steps, finish
from .outcome import Distribution, Turn, key, max_future, reachable_levels, successor_rows

EXACT_FREE: Final = 4
"""The most free categories (mine) for which the win and reach values are computed on request."""

CHUNK_COLUMNS: Final = 4096
"""States × gathered points solved at once with two channels (bounds memory: about 25 MB per
channel); with K channels, 2/K as many (``solve_goal_after_steps``)."""


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


PLAN_CACHE: Final = 512
"""Goal plans (``goal_plan``) kept, by state and turns (memory: up to about 1 MB each, 0.1–0.2 MB typical)."""


class _Pairs(NamedTuple):
    """The (state, gathered points) pairs of one level that the root can reach, in
    (row, g) order: ``rows``, ``points`` (P,); ``index`` (B, G) int: the pair's
    position, −1 where unreachable."""

    rows: np.ndarray
    points: np.ndarray
    index: np.ndarray


def reachable_pairs(scores: np.ndarray, levels: list[tuple[np.ndarray, np.ndarray]]) -> list[_Pairs]:
    """Per level (``outcome.reachable_levels``): the pairs (state, g) with g the points some
    play from the root gathers on the way to the state (bonus included). Sets of g are
    bit sets (Python ints), one per state, pushed forward through each category's
    distinct (successor, gain)."""
    sets = [1]
    out = [_pairs_of(sets)]
    for j in range(len(levels) - 1):
        masks, nus = levels[j]
        next_keys = key(*levels[j + 1])
        next_sets = [0] * len(next_keys)
        for c in range(N_CATEGORIES):
            open_ = np.flatnonzero((masks >> c & 1) == 0)
            if not len(open_):
                continue
            rows, gain = successor_rows(scores, masks[open_], nus[open_], np.full((1, 1), c), next_keys)
            codes = np.unique((np.arange(len(open_)) * len(next_keys) + rows) * 512 + gain)
            for code in codes.tolist():
                b, gain_ = divmod(code, 512)
                b, row = divmod(b, len(next_keys))
                next_sets[row] |= sets[open_[b]] << gain_
        sets = next_sets
        out.append(_pairs_of(sets))
    return out


def _pairs_of(sets: list[int]) -> _Pairs:
    rows, points = [], []
    for row, bits in enumerate(sets):
        g = [i for i, bit in enumerate(bin(bits)[:1:-1]) if bit == "1"]
        rows.extend([row] * len(g))
        points.extend(g)
    rows_, points_ = np.array(rows, dtype=np.intp), np.array(points, dtype=np.intp)
    index = np.full((len(sets), int(points_.max(initial=0)) + 1), -1, dtype=np.int32)
    index[rows_, points_] = np.arange(len(rows_))
    return _Pairs(rows_, points_, index)


_Successors = tuple[int, np.ndarray, np.ndarray, np.ndarray]


def _level_successors(
    scores: np.ndarray, masks: np.ndarray, nus: np.ndarray, next_keys: np.ndarray
) -> list[_Successors]:
    """Per category c free in some state of a level: (c, column (B,): the state's column in
    rows and gains, −1 where c is filled; rows (252, B_c), gains (252, B_c))."""
    out = []
    for c in range(N_CATEGORIES):
        open_ = (masks >> c & 1) == 0
        if open_.any():
            rows, gain = successor_rows(scores, masks[open_], nus[open_], np.full((1, 1), c), next_keys)
            out.append((c, np.where(open_, np.cumsum(open_) - 1, -1), rows.astype(np.int32), gain.astype(np.int32)))
    return out


def level_pairs(
    next_values: np.ndarray,
    next_pairs: _Pairs,
    successors: list[_Successors],
    rows: np.ndarray,
    points: np.ndarray,
    weights: np.ndarray,
) -> np.ndarray:
    """V (P, K) of a batch of P (state, g) pairs (``rows`` of the level, ``points``: (P,))
    from the next level's pair values (P', K) and the level's ``_level_successors``."""
    next_objective = next_values @ weights
    best = np.full((N_ROLLS, len(rows)), -np.inf)
    chosen = np.zeros((N_ROLLS, len(rows)), dtype=np.int32)  # the next level's pair after the best category
    for _, column, next_rows, gain in successors:
        open_ = np.flatnonzero(column[rows] >= 0)
        if not len(open_):
            continue
        at = column[rows[open_]]
        after = next_pairs.index[next_rows[:, at], points[open_] + gain[:, at]]
        objective = next_objective[after]
        better = objective > best[:, open_]
        best[:, open_] = np.where(better, objective, best[:, open_])
        chosen[:, open_] = np.where(better, after, chosen[:, open_])
    rolls3 = next_values[chosen]
    return play_goal_turn(rolls3, weights).start


def solve_goal(
    tilde: np.ndarray, variant: Variant, mask: int, nu: int, score: int, payoff: np.ndarray, weights: np.ndarray
) -> tuple[Turn, dict[int, np.ndarray]]:
    """The root turn of (mask, ν) for a goal: its ``Turn`` (N = 1 column: g = 0)
    and, per free category, the (252, K) channels after scoring it with each roll.

    ``payoff``: (size, K) over my final score F, size > score + max_future;
    ``tilde`` is unused (the play is the goal's own) but kept for one signature."""
    del tilde
    if mask == FULL_MASK:
        return _full_sheet_turn(payoff, score), {}
    after = finish(solve_goal_after_steps(variant, mask, nu, score, payoff, weights))
    return root_turns([after], weights), after


def solve_goal_after_steps(
    variant: Variant,
    mask: int,
    nu: int,
    score: int,
    payoff: np.ndarray,
    weights: np.ndarray,
    bonus: bool = False,
) -> Steps[dict[int, np.ndarray]]:
    """``solve_goal``'s channels after each free category (a sheet with one free at least), in
    steps (``core.steps``: one chunk of a level each).

    Only the (state, g) pairs the root can reach are solved (``reachable_pairs``:
    a few per cent to a third of the dense state × g grid); each pair's column is
    the same arithmetic as in the dense grid. ``bonus``: one more channel after the
    payoff's, 1 where the full sheet has the upper bonus (``weights`` then has a weight
    for it, 0 to follow the play without steering it). Channels of weight 0 leave
    every choice as it is, so they give other laws of the goal's own play (e.g. the
    final-score distribution, ``goal.goal_distribution``); memory per chunk stays that
    of two channels."""
    plan = goal_plan(variant, mask, nu, N_CATEGORIES)
    pairs = plan.pairs
    values = payoff[np.minimum(score + pairs[-1].points, len(payoff) - 1)]
    if bonus:
        has_bonus = plan.levels[-1][1][pairs[-1].rows] >= BONUS_THRESHOLD
        values = np.concatenate([values, has_bonus[:, None].astype(np.float64)], axis=1)
    chunk = max(64, CHUNK_COLUMNS * 2 // values.shape[1])
    for j in range(len(pairs) - 2, 0, -1):
        parts = []
        for i in range(0, len(pairs[j].rows), chunk):
            rows, points = pairs[j].rows[i : i + chunk], pairs[j].points[i : i + chunk]
            parts.append(level_pairs(values, pairs[j + 1], plan.successors[j], rows, points, weights))
            yield
        values = np.concatenate(parts)
    return root_after(values, plan)


class Plan(NamedTuple):
    """What a goal solve from a state needs that does not depend on the payoff: per level
    (``outcome.reachable_levels``), the ``levels``, the reachable ``pairs`` and the
    ``successors`` of its states (``_level_successors``; none for the last level)."""

    levels: list[tuple[np.ndarray, np.ndarray]]
    pairs: list[_Pairs]
    successors: list[list[_Successors]]


@lru_cache(maxsize=PLAN_CACHE)
def goal_plan(variant: Variant, mask: int, nu: int, turns: int) -> Plan:
    """The ``Plan`` of (mask, ν) for ``turns`` turns (kept: many positions share a state)."""
    scores = score_table(variant)
    levels = reachable_levels(mask, nu, turns)
    successors = [_level_successors(scores, *levels[j], key(*levels[j + 1])) for j in range(len(levels) - 1)]
    return Plan(levels, reachable_pairs(scores, levels), successors)


def _full_sheet_turn(payoff: np.ndarray, score: int) -> Turn:
    empty = np.zeros((N_KEEPS, 1, payoff.shape[1]))
    return Turn(empty[ROLL_OFFSET:], empty, empty, payoff[min(score, len(payoff) - 1)][None])


def root_after(values: np.ndarray, plan: Plan) -> dict[int, np.ndarray]:
    """Per free category of the root, the (252, K) channels after scoring it with each
    roll, from the values (P, K) of the pairs of the level after the root."""
    index = plan.pairs[1].index
    return {c: values[index[rows[:, 0], gain[:, 0]]] for c, _, rows, gain in plan.successors[0]}


def best_categories(after: dict[int, np.ndarray], weights: np.ndarray) -> np.ndarray:
    """(252, K) V3: for each roll, the channels of the category with the best objective
    (ties: the lowest category)."""
    best = np.full(N_ROLLS, -np.inf)
    rolls3 = np.zeros((N_ROLLS, len(weights)))
    for values_c in after.values():
        objective = values_c @ weights
        better = objective > best
        best = np.where(better, objective, best)
        rolls3 = np.where(better[:, None], values_c, rolls3)
    return rolls3


def root_turns(afters: list[dict[int, np.ndarray]], weights: np.ndarray) -> Turn:
    """The root turns of N positions (one column each) from their ``after`` channels:
    exact for every roll and keep, the rolls and keeps of all N played at once."""
    return play_goal_turn(np.stack([best_categories(after, weights) for after in afters], axis=1), weights)


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
    if mask == FULL_MASK:
        return _full_sheet_turn(payoff, score), {}
    after = approximate_goal_after(tilde, spread, variant, mask, nu, score, payoff)
    return root_turns([after], weights), after


def approximate_goal_after(
    tilde: np.ndarray,
    spread: np.ndarray,
    variant: Variant,
    mask: int,
    nu: int,
    score: int,
    payoff: np.ndarray,
    laws: dict[tuple[int, int], np.ndarray] | None = None,
) -> dict[int, np.ndarray]:
    """``approximate_goal``'s channels after each free category, computed only on the
    (state, g) pairs the root reaches. ``laws``: a memo of the future-points laws by
    state (mask, ν), for a caller that asks about many positions of one variant and table."""
    plan = goal_plan(variant, mask, nu, 1)
    pairs = plan.pairs[1]
    masks, nus = plan.levels[1]
    laws = {} if laws is None else laws
    futures = []
    for m, n in zip(masks.tolist(), nus.tolist(), strict=True):
        if (m, n) not in laws:
            laws[m, n] = normal_points(float(tilde[m, n]), float(spread[m, n]), max_future(variant, m, n))
        futures.append(laws[m, n])
    table = np.zeros((len(futures), max(len(f) for f in futures)))
    for b, future in enumerate(futures):
        table[b, : len(future)] = future
    finals = np.minimum(score + pairs.points[:, None] + np.arange(table.shape[1]), len(payoff) - 1)
    values = np.einsum("plk,pl->pk", payoff[finals], table[pairs.rows])
    return root_after(values, plan)


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
