"""R(s, k): the largest chance that the points still to come from a state reach k.

For a state s = (mask, ν) (``states``) and k = 0, 1, …, R(s, k) is the
largest probability, over every way to play the rest of the game, that the
points scored from s on (the upper bonus included) are at least k, each k
played for itself. R(s, k) = 1 for k ≤ 0; R(full sheet, k) = 0 for k > 0;
R(s, k) = 0 for k > ``outcome.max_future(s)``. A player at state s with σ
points asking for a final score of at least t wants R(s, t − σ).

One turn, for columns (s, k) of one mask (the same operators as ``solver``,
acting on each column separately, as in ``winning``):

    R3[τ]  = max over free c of  R(s'(c, τ), k − gain(c, τ))      (roll 3 done)
    R2'[k] = Σ_τ⊇k P(τ − k) R3[τ],   R2[ω] = max_k⊆ω R2'[k]       (roll 2)
    R1'[k] = Σ_τ⊇k P(τ − k) R2[τ],   R1[ω] = max_k⊆ω R1'[k]       (roll 1)
    R(s, k) = Σ_ω P(ω) R1[ω]

with gain the points scored plus 35 when they lift the upper total to 63.
Only canonical ν (``outcome.canonical_nu``: 0 where the bonus is out of
reach) are solved; a lookup maps ν to its canonical value.

Work array (``empty_reach``): (4096, 64, ``width``) float64 indexed
[mask, ν, k] for k = 0 … width − 1, width = the most a sheet can score from
the start plus 2, so that the last column is always 0 and k − gain clipped to
[0, width − 1] reads 1 below zero and 0 beyond the most. This module is the
per-batch mathematics; ``build_table.solve`` runs the levels.

The same layout holds S(s, k) = P(the points still to come are at least k) under
the advisor's play (``solve_law_mask``): the same turn with the advisor's
category and keeps (``policy.expected_policy``) in place of the max, i.e. the
exact law of the future points of best-average play.
"""

from functools import cache
from typing import Final

import numpy as np

from .categories import BONUS_POINTS, BONUS_THRESHOLD, FULL_MASK, N_CATEGORIES, N_UPPER
from .dice import (
    N_DICE,
    N_KEEPS,
    N_ROLLS,
    ROLL_COUNTS,
    ROLL_OFFSET,
    ROLL_PROBABILITY,
    reroll_expectation,
)
from .outcome import canonical_nu, max_future
from .policy import Policy, expected_policy
from .rules import VARIANTS, Variant, score_table
from .solver import best_upper, turn_start
from .states import N_MASKS, N_NU, REACHABLE

BLOCK: Final = 512
"""Columns (ν, k) solved at once: (462, 512) float64 blocks (1.9 MB) stay near the cache."""


def width(variant: Variant) -> int:
    """Columns k = 0 … width − 1 of the work array: the most from the empty sheet, plus 2."""
    return max_future(variant, 0, 0) + 2


def empty_reach(variant: Variant) -> np.ndarray:
    """The (4096, 64, width) work array: 0, except R(full sheet, 0) = 1."""
    reach = np.zeros((N_MASKS, N_NU, width(variant)))
    reach[FULL_MASK, :, 0] = 1.0
    return reach


@cache
def canonical_states(mask: int) -> np.ndarray:
    """The reachable canonical ν of ``mask``, ascending (int64, read-only)."""
    nus = np.flatnonzero(REACHABLE[mask])
    nus = np.unique(canonical_nu(np.full(len(nus), mask), nus))
    nus = nus[REACHABLE[mask, nus]]
    nus.flags.writeable = False
    return nus


def mask_columns(variant: Variant, mask: int) -> tuple[np.ndarray, np.ndarray]:
    """The columns of ``mask`` that are solved, (ν, k) for each canonical ν and k = 1 …
    max_future(mask, ν), ν outer: ``(nus, ks)``, each (C,) int64."""
    nus, ks = [], []
    for nu in canonical_states(mask).tolist():
        most = max_future(variant, mask, nu)
        nus.append(np.full(most, nu))
        ks.append(np.arange(1, most + 1))
    return np.concatenate(nus), np.concatenate(ks)


@cache
def _distinct_scores(variant: Variant) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """Per lower category: (its distinct scores (P,), each roll's index among them (252,))."""
    scores = score_table(variant)
    out = []
    for c in range(N_UPPER, N_CATEGORIES):
        values, index = np.unique(scores[:, c], return_inverse=True)
        out.append((values, index))
    return tuple(out)


def _upper_after(reach: np.ndarray, mask: int, nus: np.ndarray, ks: np.ndarray, category: int) -> np.ndarray:
    """(6, C): R after scoring upper ``category`` with n = 0–5 dice of its face."""
    face = category + 1
    after = mask | 1 << category
    points = face * np.arange(N_DICE + 1)[:, None]
    raised = np.minimum(nus + points, BONUS_THRESHOLD)
    bonus = np.where((nus < BONUS_THRESHOLD) & (raised == BONUS_THRESHOLD), BONUS_POINTS, 0)
    rest = np.clip(ks - points - bonus, 0, reach.shape[2] - 1)
    return reach[after, canonical_nu(np.full(raised.shape, after), raised), rest]


def _lower_after(
    reach: np.ndarray, mask: int, nus: np.ndarray, ks: np.ndarray, values: np.ndarray, category: int
) -> np.ndarray:
    """(P, C): R after scoring lower ``category`` for each of its distinct scores ``values``."""
    rest = np.clip(ks - values[:, None], 0, reach.shape[2] - 1)
    return reach[mask | 1 << category, nus, rest]


def solve_columns(reach: np.ndarray, variant: Variant, mask: int, nus: np.ndarray, ks: np.ndarray) -> np.ndarray:
    """R(mask, ν, k) for a batch of columns (C,) of one non-full mask, from the later
    masks' values in ``reach`` (``empty_reach`` layout): (C,) float64."""
    size = len(nus)
    keeps = np.empty((N_KEEPS, size))
    scratch = np.empty(N_ROLLS * size)
    rolls = keeps[ROLL_OFFSET:]
    free = [c for c in range(N_CATEGORIES) if not mask >> c & 1]
    filled = np.full((N_DICE + 1, size), -np.inf)
    upper = [_upper_after(reach, mask, nus, ks, c) if c in free else filled for c in range(N_UPPER)]
    best_upper(upper, rolls, scratch.reshape(N_ROLLS, size))
    for c in free:
        if c >= N_UPPER:
            values, index = _distinct_scores(variant)[c - N_UPPER]
            np.maximum(rolls, _lower_after(reach, mask, nus, ks, values, c)[index], out=rolls)
    return turn_start(keeps, scratch)


def solve_mask(reach: np.ndarray, variant: Variant, mask: int) -> None:
    """Solve every column of ``mask`` into ``reach`` (in place), in blocks of ``BLOCK``;
    R(mask, ν, 0) = 1. The masks with one more category filled must be solved."""
    nus, ks = mask_columns(variant, mask)
    reach[mask, canonical_states(mask), 0] = 1.0
    for start in range(0, len(nus), BLOCK):
        n, k = nus[start : start + BLOCK], ks[start : start + BLOCK]
        reach[mask, n, k] = solve_columns(reach, variant, mask, n, k)


def lookup(reach: np.ndarray, mask: int, nu: int, need: int) -> float:
    """R(mask, ν, need) from a solved work array: any ν (made canonical), any need."""
    canonical = int(canonical_nu(np.array([mask]), np.array([nu]))[0])
    return float(reach[mask, canonical, min(max(need, 0), reach.shape[2] - 1)])


def solve_law_columns(
    law: np.ndarray, policy: Policy, variant: Variant, mask: int, rows: np.ndarray, nus: np.ndarray, ks: np.ndarray
) -> np.ndarray:
    """S(mask, ν, k) = P(the points still to come are at least k) under the advisor's play
    (``policy.expected_policy`` of the mask's states, ``policy``: (252, B) columns) for a
    batch of columns (C,): ``rows`` their state's column in ``policy``, from the later masks'
    S in ``law`` (``empty_reach`` layout): (C,) float64. The same turn as R with the
    advisor's category and keeps in place of the max."""
    size = len(nus)
    columns = np.arange(size)
    # Each free category's values by its distinct outcomes (upper: the count of its face; lower:
    # its distinct scores), stacked; each roll then reads the row of the category chosen for it.
    parts, offsets, row_of_roll = [], np.zeros(N_CATEGORIES, dtype=np.intp), _ROW_OF_ROLL[variant.name]
    for c in range(N_CATEGORIES):
        if not mask >> c & 1:
            offsets[c] = sum(len(part) for part in parts)
            if c < N_UPPER:
                parts.append(_upper_after(law, mask, nus, ks, c))
            else:
                parts.append(_lower_after(law, mask, nus, ks, _distinct_scores(variant)[c - N_UPPER][0], c))
    chosen = policy.category[:, rows]
    stacked = np.concatenate(parts)
    keeps = np.empty((N_KEEPS, size))
    scratch = np.empty(N_ROLLS * size)
    rolls3 = np.take_along_axis(stacked, offsets[chosen] + row_of_roll[chosen, np.arange(N_ROLLS)[:, None]], axis=0)
    keeps[ROLL_OFFSET:] = rolls3
    reroll_expectation(keeps, scratch)
    keeps[ROLL_OFFSET:] = keeps[policy.keep2[:, rows], columns]  # roll 2's keeps
    reroll_expectation(keeps, scratch)
    keeps[ROLL_OFFSET:] = rolls3  # keeping all five at roll 1 is stopping
    return ROLL_PROBABILITY @ keeps[policy.keep1[:, rows], columns]


def _rows_of_rolls() -> dict[str, np.ndarray]:
    """Per variant: (12, 252) the row of each roll among its category's distinct outcomes
    (upper: the count of the face; lower: the index of its score among the distinct ones)."""
    out = {}
    for name, variant in VARIANTS.items():
        table = np.zeros((N_CATEGORIES, N_ROLLS), dtype=np.intp)
        table[:N_UPPER] = ROLL_COUNTS[:, :N_UPPER].T
        for c in range(N_UPPER, N_CATEGORIES):
            table[c] = _distinct_scores(variant)[c - N_UPPER][1]
        out[name] = table
    return out


_ROW_OF_ROLL: Final = _rows_of_rolls()


def solve_law_mask(law: np.ndarray, tilde: np.ndarray, variant: Variant, mask: int) -> None:
    """``solve_mask`` for S (``solve_law_columns``) under the advisor's play on ``tilde``."""
    states = canonical_states(mask)
    policy = expected_policy(tilde, score_table(variant), np.full(len(states), mask), states)
    nus, ks = mask_columns(variant, mask)
    rows = np.searchsorted(states, nus)
    law[mask, states, 0] = 1.0
    for start in range(0, len(nus), BLOCK):
        part = slice(start, start + BLOCK)
        law[mask, nus[part], ks[part]] = solve_law_columns(law, policy, variant, mask, rows[part], nus[part], ks[part])
