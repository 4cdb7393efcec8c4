"""The spread of the points still to come under the advisor's play, per state:
the first two moments of X, the future points from (mask, ν) (bonus included),
solved like Ẽ, one level at a time from the full sheet down:

    at roll 3, scoring the chosen category c*:  X = gain + X'   (X' from the state after)
    E[X] and E[X²] of a turn: ``outcome.play_turn`` on the two channels
    (E[gain + X'] = gain + E[X'];  E[(gain + X')²] = gain² + 2·gain·E[X'] + E[X'²])

The standard deviation sd = √(E[X²] − E[X]²) of every state is shipped as a
table file (``table.encode_spread``) for ``goal``'s approximation outside the
exact range. The play is ``policy.expected_policy`` on the float64 Ẽ.
"""

import numpy as np

from ..core.policy import expected_policy, successor
from ..core.states import N_MASKS, N_NU
from .outcome import play_turn


def empty_moments() -> np.ndarray:
    """(4096, 64, 2) float64 [E X, E X²] to solve into: 0 (the full sheet's are 0)."""
    return np.zeros((N_MASKS, N_NU, 2))


def moments_states(
    tilde: np.ndarray, scores: np.ndarray, moments: np.ndarray, masks: np.ndarray, nus: np.ndarray
) -> None:
    """Solve the moments of the states (``masks``, ``nus``, each (B,)) into ``moments``, in place
    (their successors solved)."""
    policy = expected_policy(tilde, scores, masks, nus)
    next_masks, next_nus, gain = successor(scores, masks, nus, policy.category)
    after = moments[next_masks, next_nus]
    mean = gain + after[..., 0]
    square = gain * gain + 2 * gain * after[..., 0] + after[..., 1]
    moments[masks, nus] = play_turn(np.stack([mean, square], axis=-1), policy).start


def standard_deviation(moments: np.ndarray) -> np.ndarray:
    """(4096, 64) sd of the future points from the moments."""
    return np.sqrt(np.maximum(moments[..., 1] - moments[..., 0] ** 2, 0.0))
