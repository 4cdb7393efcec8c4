"""Sheet equivalence classes (mask, ν) and which of them a game can reach.

A sheet is reduced to ``mask`` (12-bit filled-category set, bit ``c`` for
category ``c``) and ``ν`` = min(63, upper total), 0–63: Ẽ depends on nothing
else (seed 000). Dense arrays over these states have shape ``(4096, 64)``,
indexed ``[mask, ν]``.

ν is reachable for a mask iff it is the capped sum of ``face × n`` (n = 0–5)
over the filled upper categories; it depends only on ``mask & 0b111111``.
"""

from functools import cache
from typing import Final

import numpy as np

from .categories import BONUS_THRESHOLD, N_CATEGORIES, N_UPPER, UPPER_MASK
from .dice import N_DICE

N_MASKS: Final = 1 << N_CATEGORIES  # 4096
N_NU: Final = BONUS_THRESHOLD + 1  # 64


def _reachable_by_upper() -> np.ndarray:
    table = np.zeros((1 << N_UPPER, N_NU), dtype=bool)
    table[0, 0] = True
    for upper in range(1, 1 << N_UPPER):
        c = upper.bit_length() - 1  # the highest filled upper category, face c + 1
        before = table[upper ^ (1 << c)]
        for n in range(N_DICE + 1):
            shift = (c + 1) * n
            table[upper, shift:] |= before[: N_NU - shift]
            table[upper, BONUS_THRESHOLD] |= before[N_NU - shift :].any()
    return table


REACHABLE_BY_UPPER: Final = _reachable_by_upper()
"""(64, 64) bool: ``[upper_mask, ν]`` reachable."""
REACHABLE: Final = REACHABLE_BY_UPPER[np.arange(N_MASKS) & UPPER_MASK]
"""(4096, 64) bool: ``[mask, ν]`` reachable."""
POPCOUNT: Final = ((np.arange(N_MASKS)[:, None] >> np.arange(N_CATEGORIES)) & 1).sum(axis=1)


@cache
def states_with_filled(n_filled: int) -> tuple[np.ndarray, np.ndarray]:
    """Reachable states with ``n_filled`` categories filled: ``(masks, nus)``, each (B,).

    Ordered by mask ascending, then ν ascending. Read-only arrays.
    """
    masks, nus = np.nonzero(REACHABLE & (POPCOUNT == n_filled)[:, None])
    masks.flags.writeable = nus.flags.writeable = False
    return masks, nus
