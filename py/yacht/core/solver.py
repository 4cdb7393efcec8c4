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
down to 0; the states of one level are solved in chunks of ``CHUNK`` states
(``solve_chunk``). This module is the per-batch mathematics only: the
orchestration of a whole solve (levels, worker processes, shared memory) is
``build_table.solve``.
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
    best_subkeep,
    reroll_expectation,
)
from .states import N_MASKS, N_NU, REACHABLE, states_with_filled

# This process's work buffers (see ``solve_states``).
_SHARED: dict = {}

CHUNK: Final = 256
"""States per batch in the solver: (462, 256) float64 blocks stay in a 2 MiB L2 cache."""


def _after_scoring(tilde: np.ndarray, masks: np.ndarray, nus: np.ndarray, category: int) -> np.ndarray:
    """Gain-free part of Ẽ'3 for ``category``, by the points it would score.

    Lower category: shape (1, B), Ẽ(mask | c, ν). Upper category of face f:
    shape (6, B), row n = f·n + bonus + Ẽ(mask | c, min(63, ν + f·n)) for n
    dice showing f. ``-inf`` where the category is already filled.
    """
    bit = 1 << category
    filled = (masks & bit) != 0
    after = masks | bit
    if category >= N_UPPER:
        values = tilde[after, nus][None, :]
    else:
        points = (category + 1) * np.arange(N_DICE + 1)[:, None]
        nus_after = np.minimum(nus + points, BONUS_THRESHOLD)
        bonus = np.where((nus < BONUS_THRESHOLD) & (nus_after == BONUS_THRESHOLD), BONUS_POINTS, 0)
        values = points + bonus + tilde[after, nus_after]
    values[:, filled] = -np.inf
    return values


def category_values(
    tilde: np.ndarray, scores: np.ndarray, masks: np.ndarray, nus: np.ndarray, category: int
) -> np.ndarray:
    """Ẽ'3 of one category for every roll and state: shape ``(252, B)``.

    ``tilde``: (4096, 64) Ẽ of the later states. ``scores``: (252, 12) points.
    ``masks``, ``nus``: (B,) the states. States where ``category`` is already
    filled get ``-inf``.
    """
    values = _after_scoring(tilde, masks, nus, category)
    if category >= N_UPPER:
        return scores[:, category, None] + values
    return values[ROLL_COUNTS[:, category]]


@cache
def _scoring_rows(variant_scores: bytes) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """Per category: (rows that score > 0, their points as a (rows, 1) column)."""
    scores = np.frombuffer(variant_scores, dtype=np.int64).reshape(-1, N_CATEGORIES)
    out = []
    for c in range(N_CATEGORIES):
        rows = np.flatnonzero(scores[:, c])
        out.append((rows, scores[rows, c, None].astype(np.float64)))
    return tuple(out)


def _half_counts() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Count vectors of three faces with at most five dice, and for each roll
    its index among them for faces 1–3 and for faces 4–6."""
    halves = np.array(
        [(a, b, c) for a in range(6) for b in range(6) for c in range(6) if a + b + c <= N_DICE], dtype=np.intp
    )
    index = np.zeros((N_DICE + 1,) * 3, dtype=np.intp)  # [a, b, c]: the index of (a, b, c)
    index[tuple(halves.T)] = np.arange(len(halves))
    low, high = (index[tuple(ROLL_COUNTS[:, faces].T)] for faces in (slice(0, 3), slice(3, 6)))
    return halves, low, high


HALF_COUNTS, ROLL_LOW_HALF, ROLL_HIGH_HALF = _half_counts()
"""The count vectors of three faces (``_half_counts``), and each roll's index among them for its
faces 1–3 and for its faces 4–6 (``best_upper``; ``chances.reach`` takes its max the same way)."""


def best_upper(after: list[np.ndarray | None], out: np.ndarray, scratch: np.ndarray) -> None:
    """max over the six upper categories of Ẽ'3 into ``out`` (252, B).

    For face f the value depends on the roll only through the count of f, so
    the max is taken over faces 1–3 and 4–6 separately on the 56 possible
    count triples, then combined per roll. ``after[c]``: (6, B), or None for a
    category filled in every state of the batch (skipped; ``out`` is -inf
    where none is free).
    """
    parts = []
    for first, of_roll in ((0, ROLL_LOW_HALF), (3, ROLL_HIGH_HALF)):
        faces = [k for k in range(3) if after[first + k] is not None]
        if faces:
            part = after[first + faces[0]][HALF_COUNTS[:, faces[0]]]
            for k in faces[1:]:
                np.maximum(part, after[first + k][HALF_COUNTS[:, k]], out=part)
            parts.append((part, of_roll))
    if not parts:
        out.fill(-np.inf)
        return
    np.take(parts[0][0], parts[0][1], axis=0, out=out, mode="clip")
    if len(parts) == 2:
        np.take(parts[1][0], parts[1][1], axis=0, out=scratch, mode="clip")
        np.maximum(out, scratch, out=out)


def turn_end_values(
    tilde: np.ndarray,
    scores: np.ndarray,
    masks: np.ndarray,
    nus: np.ndarray,
    out: np.ndarray | None = None,
    scratch: np.ndarray | None = None,
) -> np.ndarray:
    """E3: the best Ẽ'3 over the free categories, shape ``(252, B)``.

    Equal to the max of ``category_values`` over the categories, computed
    with less work: the upper categories through ``best_upper``; a lower
    category scores 0 for most rolls, so the best zero-point lower choice is
    one (B,) row for all rolls, and each lower category then updates only
    the rolls where it scores points. ``out`` and ``scratch`` (252, B):
    optional buffers, so that a hot loop allocates nothing.
    """
    shape = (len(scores), len(masks))
    best = np.empty(shape) if out is None else out
    scratch = np.empty(shape) if scratch is None else scratch
    after = [_after_scoring(tilde, masks, nus, c) for c in range(N_CATEGORIES)]
    lower = _scoring_rows(scores.tobytes())[N_UPPER:]
    zero = np.full(len(masks), -np.inf)
    for c, (rows, _) in enumerate(lower, N_UPPER):
        if len(rows) < len(scores):
            np.maximum(zero, after[c][0], out=zero)
    best_upper(after, best, scratch)
    np.maximum(best, zero, out=best)
    for c, (rows, points) in enumerate(lower, N_UPPER):
        if len(rows) == len(scores):
            np.add(points, after[c], out=scratch)
            np.maximum(best, scratch, out=best)
        else:
            current = best[rows]
            np.maximum(current, points + after[c], out=current)
            best[rows] = current
    return best


def solve_states(tilde: np.ndarray, scores: np.ndarray, masks: np.ndarray, nus: np.ndarray) -> np.ndarray:
    """Ẽ of a batch of states whose successors are already in ``tilde``: shape (B,).

    Works in this process's preallocated buffers: fresh arrays of this size
    would be fresh pages from the OS every time, which costs more than the
    arithmetic. Every step works column by column, so a state's value does
    not depend on which batch it is solved in. Not thread-safe (one solve
    per process at a time).
    """
    size = len(masks)
    buffers = _SHARED.get("buffers")
    if buffers is None or buffers[0].size < N_KEEPS * size:
        capacity = max(size, CHUNK)
        buffers = _SHARED["buffers"] = (np.empty(N_KEEPS * capacity), np.empty(N_ROLLS * capacity))
    keeps = buffers[0][: N_KEEPS * size].reshape(N_KEEPS, size)
    scratch = buffers[1][: N_ROLLS * size]
    turn_end_values(tilde, scores, masks, nus, out=keeps[ROLL_OFFSET:], scratch=scratch.reshape(N_ROLLS, size))
    return turn_start(keeps, scratch)


def turn_start(keeps: np.ndarray, scratch: np.ndarray) -> np.ndarray:
    """The value before the first roll, (B,), from the values after the third roll in the
    roll rows of ``keeps`` (462, B): rolls 2 and 1 backwards (reroll, then the best
    sub-keep), then the mean over the first roll. Works in place in ``keeps`` and
    ``scratch`` (flat float64, at least 252 × B); every column on its own, so any
    quantity the same operators apply to (Ẽ, a chance) can use it."""
    size = keeps.shape[1]
    rolls = keeps[ROLL_OFFSET:]
    for _ in range(2):  # roll 2, then roll 1: E_k from E_{k+1}
        reroll_expectation(keeps, scratch)
        best_subkeep(keeps, scratch)
    weighted = np.multiply(rolls, ROLL_PROBABILITY[:, None], out=scratch[: N_ROLLS * size].reshape(N_ROLLS, size))
    return weighted.sum(axis=0)


def solve_chunk(tilde: np.ndarray, scores: np.ndarray, n_filled: int, start: int) -> None:
    """Solve states ``start : start + CHUNK`` of the level with ``n_filled`` categories
    filled (``states_with_filled`` order) into ``tilde`` (4096, 64), in place.

    Their successors (one more category filled) must already be in ``tilde``.
    """
    masks, nus = states_with_filled(n_filled)
    masks, nus = masks[start : start + CHUNK], nus[start : start + CHUNK]
    tilde[masks, nus] = solve_states(tilde, scores, masks, nus)


def empty_table() -> np.ndarray:
    """A (4096, 64) float64 table to solve into: NaN, except 0 at the full sheet."""
    tilde = np.full((N_MASKS, N_NU), np.nan)
    tilde[FULL_MASK, REACHABLE[FULL_MASK]] = 0.0
    return tilde
