"""The coach's tables: B(mask, ν), the chance of the upper bonus, and E_c(mask, ν), the expected
points of each category by the game's end, under the advisor's play
(``yacht.chances.coach``), solved one level at a time over forked workers sharing one array
(as ``solve.solve_spread``), written as ``yacht.chances.coach_table`` files."""

from pathlib import Path

import numpy as np
from yacht.chances.coach import coach_states, empty_coach
from yacht.chances.coach_table import QUANTITIES, encode, file_name
from yacht.core.rules import Variant, score_table

from build_table.files import write_bytes
from build_table.solve import Given, can_fork, copied_levels, shared_zeros


def solve_coach(variant: Variant, tilde: np.ndarray, *, workers: int = 2, given: Given | None = None) -> np.ndarray:
    """(4096, 64, 13) float64 [mask, ν, channel]: B (channel 0) and E_c (1 + c) of every
    reachable state under the advisor's play on ``tilde``; 0 where unreachable; the masks of
    ``given`` copied from it (``solve.copied_levels``)."""
    scores = score_table(variant)
    start = empty_coach()
    coach = shared_zeros(start.shape, workers > 1 and can_fork())
    coach[...] = start
    copied_levels(coach, given, lambda masks, nus: coach_states(tilde, scores, coach, masks, nus), workers)
    return np.array(coach)


def write_coach(out: Path, name: str, coach: np.ndarray) -> str:
    """Write the ``bonus`` and ``points`` files of variant ``name`` into ``out``; what was written."""
    sizes = []
    for quantity in QUANTITIES:
        data = encode(name, coach, quantity)
        write_bytes(out / file_name(name, quantity), data)
        sizes.append(f"{file_name(name, quantity)} ({len(data):,} bytes)")
    return f"P(bonus from the empty sheet) = {coach[0, 0, 0]:.6f}, wrote {' and '.join(sizes)} to {out}"
