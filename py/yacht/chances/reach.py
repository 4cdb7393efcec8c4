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
the advisor's play (``solve_law_states``): the same turn with the advisor's
category and keeps (``policy.expected_policy``) in place of the max, i.e. the
exact law of the future points of best-average play. A fixed play needs no max
per k: the turn of a state is solved once as the chance of ending in each
(next state s′, gain) (``law_terms``), and then

    S(s, k) = Σ_j chance_j · S(s′_j, k − gain_j)      (every k at once)

which is the turn above with the max replaced by the play, rearranged (the same
law to rounding, about 1e-15).
"""

from functools import cache
from typing import Final, NamedTuple

import numpy as np

from ..core.categories import BONUS_POINTS, BONUS_THRESHOLD, FULL_MASK, N_CATEGORIES, N_UPPER
from ..core.dice import (
    CHILD,
    N_DICE,
    N_FACES,
    N_KEEPS,
    N_ROLLS,
    ROLL_COUNTS,
    ROLL_OFFSET,
    ROLL_PROBABILITY,
    SIZE_OFFSETS,
)
from ..core.policy import Policy, expected_policy
from ..core.rules import Variant, score_table
from ..core.solver import best_upper, turn_start
from ..core.states import N_MASKS, N_NU, REACHABLE
from .outcome import canonical_nu, max_future

BLOCK: Final = 1024
"""Columns (ν, k) solved at once: (462, 1024) float64 blocks (3.8 MB); fewer, longer NumPy calls
gain more than a block kept within the L2 cache (the most a mask has is 12,320 columns)."""


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
    masks' values in ``reach`` (``empty_reach`` layout): (C,) float64.

    R3 is taken as in ``solver.turn_end_values``: the free upper categories through
    ``best_upper``; the best zero-point lower choice is one (C,) row
    for every roll (R falls along k, so scoring 0 is never better than the points a roll
    gives); each free lower category then updates only the rolls where it scores points."""
    size = len(nus)
    keeps = np.empty((N_KEEPS, size))
    scratch = np.empty(N_ROLLS * size)
    rolls = keeps[ROLL_OFFSET:]
    free = [c for c in range(N_CATEGORIES) if not mask >> c & 1]
    upper = [_upper_after(reach, mask, nus, ks, c) if c in free else None for c in range(N_UPPER)]
    best_upper(upper, rolls, scratch.reshape(N_ROLLS, size))
    lower = [c for c in free if c >= N_UPPER]
    after = {c: _lower_after(reach, mask, nus, ks, _distinct_scores(variant)[c - N_UPPER][0], c) for c in lower}
    zero = [after[c][0] for c in lower if _distinct_scores(variant)[c - N_UPPER][0][0] == 0]
    if zero:
        np.maximum(rolls, np.maximum.reduce(zero), out=rolls)
    for c in lower:
        rows, index = _scoring_rolls(variant)[c - N_UPPER]
        current = rolls[rows]
        np.maximum(current, after[c][index], out=current)
        rolls[rows] = current
    return turn_start(keeps, scratch)


@cache
def _scoring_rolls(variant: Variant) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """Per lower category: (the rolls where it scores points (R,), their rows among its
    distinct scores (R,))."""
    out = []
    for values, index in _distinct_scores(variant):
        rows = np.flatnonzero(values[index] > 0)
        out.append((rows, index[rows]))
    return tuple(out)


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


def end_chances(policy: Policy) -> np.ndarray:
    """(252, B) the chance that a turn played by ``policy`` (a batch of B states) ends with
    the dice τ, scored in ``policy.category[τ]``: stopping at roll 1 or 2 (keeping all
    five) or rolling a third time. The forward view of ``outcome.play_turn``: the mass of
    each keep goes to the rolls it can make, one die at a time (the transpose of
    ``dice.reroll_expectation``)."""
    n_states = policy.keep1.shape[1]
    states = np.broadcast_to(np.arange(n_states), (N_ROLLS, n_states))
    kept = np.bincount(
        (policy.keep1 * n_states + states).ravel(),
        np.broadcast_to(ROLL_PROBABILITY[:, None], states.shape).ravel(),
        N_KEEPS * n_states,
    ).reshape(N_KEEPS, n_states)
    end = kept[ROLL_OFFSET:].copy()  # kept all five at roll 1
    kept = np.bincount((policy.keep2 * n_states + states).ravel(), _reroll_forward(kept).ravel(), N_KEEPS * n_states)
    kept = kept.reshape(N_KEEPS, n_states)
    end += kept[ROLL_OFFSET:]  # kept all five at roll 2
    end += _reroll_forward(kept)
    return end


def _reroll_forward(kept: np.ndarray) -> np.ndarray:
    """(252, B) the chance of each roll after throwing the missing dice of the keeps whose
    chances are the rows 0–209 of ``kept`` (462, B) (overwritten; the roll rows are not read)."""
    kept[ROLL_OFFSET:] = 0.0
    for size in range(N_DICE):
        lo, hi = SIZE_OFFSETS[size], SIZE_OFFSETS[size + 1]
        share = kept[lo:hi] * (1.0 / N_FACES)
        for f in range(N_FACES):
            kept[CHILD[lo:hi, f]] += share  # one keep per child for a given face
    return kept[ROLL_OFFSET:]


class LawTerms(NamedTuple):
    """A turn of a batch of states under a fixed play, as the (next state, gain) pairs it
    can end in, each (J,), grouped by state (ascending): S(s, k) = Σ_j chance_j·S(s′_j, k − gain_j)."""

    state: np.ndarray  # the state's index in the batch
    mask: np.ndarray  # s′ = (mask, ν), ν canonical
    nu: np.ndarray
    gain: np.ndarray  # the points scored, bonus included
    chance: np.ndarray


def law_terms(policy: Policy, variant: Variant, masks: np.ndarray, nus: np.ndarray) -> LawTerms:
    """The turn of the states (``masks``, ``nus``, each (B,)) under ``policy`` as ``LawTerms``:
    the chance of ending with each roll (``end_chances``) summed over the rolls that score the
    same points in the same category (``_OUTCOMES``)."""
    n_states = len(masks)
    categories, points, first, row_of_roll = _outcomes(variant)
    outcome = first[policy.category] + row_of_roll[policy.category, np.arange(N_ROLLS)[:, None]]
    chances = np.bincount(
        (np.arange(n_states) * len(points) + outcome).ravel(),
        end_chances(policy).ravel(),
        n_states * len(points),
    ).reshape(n_states, len(points))
    state, j = np.nonzero(chances)
    category, gain, mask, nu = categories[j], points[j], masks[state], nus[state]
    upper = category < N_UPPER
    raised = np.where(upper, np.minimum(nu + gain, BONUS_THRESHOLD), nu)
    gain = gain + np.where(upper & (nu < BONUS_THRESHOLD) & (raised == BONUS_THRESHOLD), BONUS_POINTS, 0)
    after = mask | 1 << category
    return LawTerms(state, after, canonical_nu(after, raised), gain, chances[state, j])


@cache
def _outcomes(variant: Variant) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The distinct outcomes of scoring, every category's in turn (upper: 0–5 dice of its
    face; lower: its distinct scores): (their category (O,), their points before the bonus
    (O,), each category's first outcome (12,), each roll's outcome within its category
    (12, 252))."""
    categories, points = [], []
    first = np.zeros(N_CATEGORIES, dtype=np.intp)
    row_of_roll = np.zeros((N_CATEGORIES, N_ROLLS), dtype=np.intp)
    for c in range(N_CATEGORIES):
        first[c] = len(points)
        if c < N_UPPER:
            values = (c + 1) * np.arange(N_DICE + 1)
            row_of_roll[c] = ROLL_COUNTS[:, c]
        else:
            values, row_of_roll[c] = _distinct_scores(variant)[c - N_UPPER]
        categories += [c] * len(values)
        points += values.tolist()
    return np.array(categories), np.array(points), first, row_of_roll


LAW_PAD: Final = 100
"""Columns before k = 0 in the law's work array (``empty_law``): more than any one turn scores."""


def empty_law(variant: Variant) -> np.ndarray:
    """The law's work array: (4096, 64, ``LAW_PAD`` + width) float64, column ``LAW_PAD`` + k
    holding S(mask, ν, k) for k = −``LAW_PAD`` … width − 1 (``empty_reach``'s layout shifted),
    so that every k − gain of a turn reads its own row: 0, except 1 for k ≤ 0 at the full
    sheet (``solve_law_states`` sets it for the states it solves)."""
    law = np.zeros((N_MASKS, N_NU, LAW_PAD + width(variant)))
    law[FULL_MASK, :, : LAW_PAD + 1] = 1.0
    return law


def solve_law_states(law: np.ndarray, tilde: np.ndarray, variant: Variant, masks: np.ndarray, nus: np.ndarray) -> None:
    """S(mask, ν, k) = P(the points still to come are at least k) under the advisor's play on
    ``tilde`` (``policy.expected_policy``), for every k, of a batch of canonical states
    (``masks``, ``nus``, each (B,)) whose successors are solved in ``law`` (``empty_law``),
    into it (in place). A fixed play makes a turn a mix of its successors' laws
    (``law_terms``): S(s, k) = Σ_j chance_j·S(s′_j, k − gain_j), one shifted row each."""
    terms = law_terms(expected_policy(tilde, score_table(variant), masks, nus), variant, masks, nus)
    most = _most_future(variant)[masks, nus]
    longest = int(most.max())
    row = law.shape[2]
    starts = (terms.mask * N_NU + terms.nu) * row + LAW_PAD + 1 - terms.gain  # k = 1 of s′, shifted
    shifted = np.lib.stride_tricks.sliding_window_view(law.reshape(-1), longest)[starts]
    shifted *= terms.chance[:, None]
    values = np.add.reduceat(shifted, np.flatnonzero(np.diff(terms.state, prepend=-1)), axis=0)
    state, k = np.nonzero(np.arange(longest) < most[:, None])
    law[masks, nus, : LAW_PAD + 1] = 1.0
    law[masks[state], nus[state], LAW_PAD + 1 + k] = values[state, k]


@cache
def _most_future(variant: Variant) -> np.ndarray:
    """(4096, 64) ``outcome.max_future`` of every state of ``variant`` (read-only)."""
    below, at = (np.array([max_future(variant, m, nu) for m in range(N_MASKS)]) for nu in (0, BONUS_THRESHOLD))
    most = np.where(np.arange(N_NU) < BONUS_THRESHOLD, below[:, None], at[:, None])
    most.flags.writeable = False
    return most
