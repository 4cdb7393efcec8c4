"""Playing turns with real dice, vectorized across games: each game follows its
own policy arrays (``policy.Policy``: a choice per roll τ after each roll,
shape (252, N), one column per game).

``roll_dice(rng, counts)`` throws dice; ``play_turns(policy, masks, nus,
variant, rng)`` plays one turn of every game and returns the states after it
and the points gained (bonus included).
"""

from typing import Final

import numpy as np

from .categories import BONUS_POINTS, BONUS_THRESHOLD, N_UPPER
from .dice import KEEP_COUNTS, KEEP_SIZE, N_DICE, N_FACES, ROLL_COUNTS, ROLL_OFFSET
from .policy import Policy
from .rules import Variant, score_table

_POWERS: Final = N_FACES ** np.arange(N_FACES)
_ROLL_OF_CODE: Final = np.full(N_FACES**N_FACES, -1, dtype=np.intp)
_ROLL_OF_CODE[ROLL_COUNTS @ _POWERS] = np.arange(len(ROLL_COUNTS))


def roll_dice(rng: np.random.Generator, kept: np.ndarray) -> np.ndarray:
    """Roll indices (N,) after throwing the dice missing from keeps ``kept`` (N,) (keep indices)."""
    faces = rng.integers(0, N_FACES, size=(len(kept), N_DICE))
    thrown = np.arange(N_DICE) < (N_DICE - KEEP_SIZE[kept])[:, None]
    counts = KEEP_COUNTS[kept].copy()
    np.add.at(counts, (np.repeat(np.arange(len(kept)), N_DICE), faces.ravel()), thrown.ravel())
    return _ROLL_OF_CODE[counts @ _POWERS]


def play_turns(
    policy: Policy, masks: np.ndarray, nus: np.ndarray, variant: Variant, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One turn of N games: (masks', ν', gain), each (N,). Game i follows column i of ``policy``."""
    games = np.arange(len(masks))
    roll = roll_dice(rng, np.zeros(len(masks), dtype=np.intp))
    stopped = np.zeros(len(masks), dtype=bool)
    for keeps in (policy.keep1, policy.keep2):
        keep = keeps[roll, games]
        stopped |= keep >= ROLL_OFFSET
        rerolled = roll_dice(rng, np.where(stopped, 0, keep))
        roll = np.where(stopped, roll, rerolled)
    category = policy.category[roll, games]
    points = score_table(variant)[roll, category]
    upper = category < N_UPPER
    nus_after = np.where(upper, np.minimum(nus + points, BONUS_THRESHOLD), nus)
    bonus = np.where(upper & (nus < BONUS_THRESHOLD) & (nus_after == BONUS_THRESHOLD), BONUS_POINTS, 0)
    return masks | (1 << category), nus_after, points + bonus
