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

from .categories import BONUS_THRESHOLD, N_CATEGORIES, N_UPPER
from .dice import N_DICE

N_MASKS: Final = 1 << N_CATEGORIES  # 4096
N_NU: Final = BONUS_THRESHOLD + 1  # 64


def _reachable_by_upper() -> np.ndarray:
    """Each upper mask's reachable ν as the bits of a Python integer (bit ν), built from the mask
    without its highest face, then read out as a (64, 64) bool array."""
    reach = [1] * (1 << N_UPPER)  # the empty upper part: ν = 0 only
    for upper in range(1, 1 << N_UPPER):
        c = upper.bit_length() - 1  # the highest filled upper category, face c + 1
        before, sums = reach[upper ^ (1 << c)], 0
        for n in range(N_DICE + 1):
            sums |= before << ((c + 1) * n)
        capped = sums >> BONUS_THRESHOLD != 0  # some total of 63 or more: ν = 63
        reach[upper] = (sums & ((1 << BONUS_THRESHOLD) - 1)) | (capped << BONUS_THRESHOLD)
    bits = np.array(reach, dtype=np.uint64)
    return ((bits[:, None] >> np.arange(N_NU, dtype=np.uint64)) & 1).astype(bool)


REACHABLE_BY_UPPER: Final = _reachable_by_upper()
"""(64, 64) bool: ``[upper_mask, ν]`` reachable."""
REACHABLE: Final = np.tile(REACHABLE_BY_UPPER, (N_MASKS >> N_UPPER, 1))  # [mask, ν]: row mask & 0b111111
"""(4096, 64) bool: ``[mask, ν]`` reachable."""
POPCOUNT: Final = sum((np.arange(N_MASKS) >> c) & 1 for c in range(N_CATEGORIES))
"""(4096,) NumPy's default int (int64 in CPython, int32 in Pyodide): the filled categories of each mask."""


@cache
def states_with_filled(n_filled: int) -> tuple[np.ndarray, np.ndarray]:
    """Reachable states with ``n_filled`` categories filled: ``(masks, nus)``, each (B,).

    Ordered by mask ascending, then ν ascending. Read-only arrays.
    """
    masks, nus = np.nonzero(REACHABLE & (POPCOUNT == n_filled)[:, None])
    masks.flags.writeable = nus.flags.writeable = False
    return masks, nus
