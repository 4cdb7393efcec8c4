"""S(s, k) = P(the points still to come from a state are at least k) under the advisor's play,
in ``reach``'s layout (shifted by ``LAW_PAD``: ``empty_law``).

The layout of R (``reach``) holds S(s, k) = P(the points still to come are at least k) under
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
from ..core.states import N_MASKS, N_NU
from .outcome import canonical_nu
from .reach import distinct_scores, max_future_table, width


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
            values, row_of_roll[c] = distinct_scores(variant)[c - N_UPPER]
        categories += [c] * len(values)
        points += values.tolist()
    return np.array(categories), np.array(points), first, row_of_roll


LAW_PAD: Final = 100
"""Columns before k = 0 in the law's work array (``empty_law``): more than any one turn scores."""


def law_shape(variant: Variant) -> tuple[int, int, int]:
    """The shape of the law's work array: (4096, 64, ``LAW_PAD`` + width)."""
    return N_MASKS, N_NU, LAW_PAD + width(variant)


def empty_law(variant: Variant, zeros: np.ndarray | None = None) -> np.ndarray:
    """The law's work array: (4096, 64, ``LAW_PAD`` + width) float64, column ``LAW_PAD`` + k
    holding S(mask, ν, k) for k = −``LAW_PAD`` … width − 1 (``empty_reach``'s layout shifted),
    so that every k − gain of a turn reads its own row: 0, except 1 for k ≤ 0 at the full
    sheet (``solve_law_states`` sets it for the states it solves). In ``zeros`` (an array of
    zeros of ``law_shape``) if given, else a new one."""
    law = np.zeros(law_shape(variant)) if zeros is None else zeros
    law[FULL_MASK, :, : LAW_PAD + 1] = 1.0
    return law


def solve_law_states(law: np.ndarray, tilde: np.ndarray, variant: Variant, masks: np.ndarray, nus: np.ndarray) -> None:
    """S(mask, ν, k) = P(the points still to come are at least k) under the advisor's play on
    ``tilde`` (``policy.expected_policy``), for every k, of a batch of canonical states
    (``masks``, ``nus``, each (B,)) whose successors are solved in ``law`` (``empty_law``),
    into it (in place). A fixed play makes a turn a mix of its successors' laws
    (``law_terms``): S(s, k) = Σ_j chance_j·S(s′_j, k − gain_j), one shifted row each."""
    terms = law_terms(expected_policy(tilde, score_table(variant), masks, nus), variant, masks, nus)
    most = max_future_table(variant)[masks, nus]
    longest = int(most.max())
    row = law.shape[2]
    starts = (terms.mask * N_NU + terms.nu) * row + LAW_PAD + 1 - terms.gain  # k = 1 of s′, shifted
    shifted = np.lib.stride_tricks.sliding_window_view(law.reshape(-1), longest)[starts]
    shifted *= terms.chance[:, None]
    values = np.add.reduceat(shifted, np.flatnonzero(np.diff(terms.state, prepend=-1)), axis=0)
    state, k = np.nonzero(np.arange(longest) < most[:, None])
    law[masks, nus, : LAW_PAD + 1] = 1.0
    law[masks[state], nus[state], LAW_PAD + 1 + k] = values[state, k]
