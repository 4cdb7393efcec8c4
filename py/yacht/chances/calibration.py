"""The win chance beyond the exact range when the chunks are loaded: the blend of two exact laws
(``BLEND``, the ``"method"`` label ``BLENDED``) and the calibration of its logit on duel games
(``CALIBRATION``, ``"method"`` ``CALIBRATED``), with the arithmetic of that shift.

Both are fitted offline and shipped as constants: the blend on the calibration positions of
``bench/bench_chances.py``, the calibration on duel games (``bench/bench_calibration.py``). The goal's
advice (``goal``) and the duel's win-aware player (``play.duel``) apply them.
"""

from typing import Final

import numpy as np

from ..core.categories import N_CATEGORIES
from .winning import EXACT_FREE

BLEND: Final = 0.075
"""The weight of the reach bound in a win chance beyond the exact range (the rest: the law of the
advisor's play), fitted on the calibration positions of ``bench/bench_chances.py``."""
BLENDED: Final = (
    f"one exact turn, then {1 - BLEND:.3f} × the chance under the best average's exact law "
    f"+ {BLEND:.3f} × the chance each score is played for (R)"
)
"""The blend of a win chance beyond the exact range when the chunks are loaded (the first part
of its ``"method"``, ``CALIBRATED``)."""

CALIBRATION: Final[dict[tuple[int, bool], float]] = {
    **{(12, False): 0.018, (11, False): 0.019, (10, False): 0.022, (9, False): 0.027},
    **{(8, False): 0.031, (7, False): 0.032, (6, False): 0.035, (5, False): 0.040},
    **{(12, True): 0.057, (11, True): 0.059, (10, True): 0.062, (9, True): 0.069},
    **{(8, True): 0.075, (7, True): 0.076, (6, True): 0.081, (5, True): 0.086},
}
"""Per stage beyond the exact range, (my free categories, whether I play second: the opponent
has played this turn and has one free category fewer), the shift β of the logit of a win
chance (win + draw/2), the same in both variants. The blend above is fitted to the goal DP,
which is exact for a play that never looks at the opponent's sheet again; a player who follows
the advice looks again at every turn, and wins more often than that. The second seat's β is
the larger: before each of its turns, its last one too, it sees a turn of the opponent's that
the chance did not. β is fitted on duel games of the shipped player
(``bench/bench_calibration.py``) and checked on other games (figures in docs/benchmarks.md)."""
CALIBRATED: Final = f"{BLENDED}, its logit then shifted by a calibration on duel games"
"""``"method"`` of a win chance beyond the exact range when the chunks are loaded."""


def calibration_shift(free: int, opponent_free: int) -> float:
    """β of ``CALIBRATION`` for my ``free`` categories against the opponent's ``opponent_free``
    (0 in the exact range)."""
    return CALIBRATION.get((free, opponent_free < free), 0.0) if free > EXACT_FREE else 0.0


def calibration_shifts(free: np.ndarray, opponent_free: np.ndarray) -> np.ndarray:
    """``calibration_shift`` of many stages (``free``, ``opponent_free``: int arrays of one shape)."""
    table = np.array([[calibration_shift(f, f - second) for second in (0, 1)] for f in range(N_CATEGORIES + 1)])
    free = np.asarray(free)
    return table[free, (np.asarray(opponent_free) < free).astype(int)]


def calibrated(chance: np.ndarray, free: np.ndarray, opponent_free: np.ndarray) -> np.ndarray:
    """Win chances (win + draw/2, any shape) with the ``calibration_shift`` of each one's
    stage (``free``, ``opponent_free``: the same shape) applied to its logit (``shifted``)."""
    return shifted(np.asarray(chance, dtype=float), calibration_shifts(free, opponent_free))


def shifted(chance: np.ndarray, beta: np.ndarray | float) -> np.ndarray:
    """``chance`` with its logit shifted by ``beta``: q·e^β / (q·e^β + 1 − q), so 0 and 1 stay
    (float noise outside [0, 1] clipped first)."""
    q = np.clip(chance, 0.0, 1.0)
    odds = q * np.exp(beta)
    return odds / (odds + (1.0 - q))


def calibrated_channels(win: float, draw: float, beta: float) -> tuple[float, float]:
    """(win, draw) with q = win + draw/2 shifted by ``beta`` in the logit to q′: for β > 0 the loss
    and the draw are scaled by one factor r = (1 − q′)/(1 − q) < 1 (the rest goes to the win), for
    β < 0 the win and the draw by q′/q; so win′ + draw′/2 = q′ and every chance stays in [0, 1]."""
    q = win + draw / 2
    if beta == 0.0 or not 0.0 < q < 1.0:
        return win, draw
    moved = float(shifted(np.array(q), beta))
    if beta < 0.0:
        return win * moved / q, draw * moved / q
    r = (1.0 - moved) / (1.0 - q)
    return 1.0 - r * (1.0 - win), r * draw
