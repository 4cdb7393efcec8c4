"""Backward induction for Ẽ(mask, ν), the expected score still to come.

Ẽ(s) = E(s) − σ(s): the expected final score under optimal play minus the
sheet's current score (bonus included). Seed 000 shows it depends on the
sheet only through ``(mask, ν)`` (see ``states``). One turn, for a batch of
states (arrays of shape ``(rows, B)``, rows = rolls or keeps):

    E3[τ]  = max over free c of  Ẽ'3(c, τ)                      (roll 3 done)
    E2'[k] = Σ_τ⊇k P(τ − k) E3[τ],   E2[ω] = max_k⊆ω E2'[k]    (roll 2)
    E1'[k] = Σ_τ⊇k P(τ − k) E2[τ],   E1[ω] = max_k⊆ω E1'[k]    (roll 1)
    Ẽ      = Σ_ω P(ω) E1[ω]

with Ẽ'3(c, τ) = gain + Ẽ(mask | c, ν'), gain the points scored plus 35 when
they lift the upper total to 63 or more. Levels run from 11 filled categories
down to 0; the states of one level are solved in chunks, two threads at a
time (NumPy releases the GIL in its loops).
"""

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Final

import numpy as np

from .categories import BONUS_POINTS, BONUS_THRESHOLD, FULL_MASK, N_CATEGORIES, N_UPPER
from .dice import N_DICE, ROLL_COUNTS, ROLL_OFFSET, ROLL_PROBABILITY, best_subkeep, reroll_expectation
from .rules import Variant, score_table
from .states import N_MASKS, N_NU, REACHABLE, states_with_filled

CHUNK: Final = 2048
"""States per batch in the solver: rows of 2048 float64 keep a (252, B) block near cache."""


def category_values(
    tilde: np.ndarray, scores: np.ndarray, masks: np.ndarray, nus: np.ndarray, category: int
) -> np.ndarray:
    """Ẽ'3 of one category for every roll and state: shape ``(252, B)``.

    ``tilde``: (4096, 64) Ẽ of the later states. ``scores``: (252, 12) points.
    ``masks``, ``nus``: (B,) the states. States where ``category`` is already
    filled get ``-inf``.
    """
    bit = 1 << category
    free = (masks & bit) == 0
    after = masks | bit
    if category >= N_UPPER:
        following = np.where(free, tilde[after, nus], -np.inf)
        return scores[:, category, None] + following[None, :]
    face = category + 1
    by_count = np.empty((N_DICE + 1, len(masks)))
    for n in range(N_DICE + 1):
        nus_after = np.minimum(nus + face * n, BONUS_THRESHOLD)
        bonus = np.where((nus < BONUS_THRESHOLD) & (nus_after >= BONUS_THRESHOLD), BONUS_POINTS, 0)
        by_count[n] = np.where(free, face * n + bonus + tilde[after, nus_after], -np.inf)
    return by_count[ROLL_COUNTS[:, category]]


def turn_end_values(tilde: np.ndarray, scores: np.ndarray, masks: np.ndarray, nus: np.ndarray) -> np.ndarray:
    """E3: the best Ẽ'3 over the free categories, shape ``(252, B)``."""
    best = np.full((len(ROLL_COUNTS), len(masks)), -np.inf)
    for c in range(N_CATEGORIES):
        np.maximum(best, category_values(tilde, scores, masks, nus, c), out=best)
    return best


def roll_values(next_roll: np.ndarray) -> np.ndarray:
    """E_k from E_{k+1} (both ``(252, B)``): reroll expectation, then best sub-keep."""
    return best_subkeep(reroll_expectation(next_roll))[ROLL_OFFSET:]


def solve_states(tilde: np.ndarray, scores: np.ndarray, masks: np.ndarray, nus: np.ndarray) -> np.ndarray:
    """Ẽ of a batch of states whose successors are already in ``tilde``: shape (B,)."""
    e3 = turn_end_values(tilde, scores, masks, nus)
    e1 = roll_values(roll_values(e3))
    return ROLL_PROBABILITY @ e1


def solve(
    variant: Variant,
    *,
    threads: int = 2,
    progress: Callable[[int, int], None] | None = None,
) -> np.ndarray:
    """Ẽ for every reachable state: (4096, 64) float64, NaN where unreachable.

    ``progress(n_filled, n_states)`` is called after each level, if given.
    """
    scores = score_table(variant)
    tilde = np.full((N_MASKS, N_NU), np.nan)
    tilde[FULL_MASK, REACHABLE[FULL_MASK]] = 0.0
    with ThreadPoolExecutor(max_workers=threads) as pool:
        for n_filled in range(N_CATEGORIES - 1, -1, -1):
            masks, nus = states_with_filled(n_filled)
            starts = range(0, len(masks), CHUNK)
            results = pool.map(
                lambda i: solve_states(tilde, scores, masks[i : i + CHUNK], nus[i : i + CHUNK]), starts
            )
            tilde[masks, nus] = np.concatenate(list(results))
            if progress:
                progress(n_filled, len(masks))
    return tilde
