"""The whole solve: every level of ``yacht.solver``'s backward induction, its
chunks spread over forked worker processes that write into one shared-memory
table. The mathematics of one chunk is ``yacht.solver.solve_chunk``; this
module only orchestrates (processes, memory, progress).
"""

import mmap
import multiprocessing
import threading
from collections.abc import Callable
from contextlib import nullcontext

import numpy as np
from yacht.categories import N_CATEGORIES
from yacht.rules import Variant, score_table
from yacht.solver import CHUNK, empty_table, solve_chunk
from yacht.states import N_MASKS, N_NU, states_with_filled

# The solve under way in this process (inherited by forked workers): the table and the scores.
_SOLVE: dict = {}


def _solve_task(task: tuple[int, int]) -> None:
    """Worker: solve one chunk ``(n_filled, start)`` of a level into the shared table."""
    solve_chunk(_SOLVE["tilde"], _SOLVE["scores"], *task)


def can_fork() -> bool:
    """Forking is safe: the platform has it and this process runs no other thread."""
    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


def solve(
    variant: Variant,
    *,
    workers: int = 2,
    progress: Callable[[int, int], None] | None = None,
) -> np.ndarray:
    """Ẽ for every reachable state: (4096, 64) float64, NaN where unreachable.

    With ``workers`` > 1 (and where forking is safe) the chunks of each level
    are solved by that many forked processes writing into one shared-memory
    table; otherwise in this process. The result is the same either way.
    ``progress(n_filled, n_states)`` is called after each level, if given.
    """
    scores = score_table(variant)
    parallel = workers > 1 and can_fork()
    buffer = mmap.mmap(-1, N_MASKS * N_NU * 8) if parallel else bytearray(N_MASKS * N_NU * 8)
    tilde = np.frombuffer(buffer, dtype=np.float64).reshape(N_MASKS, N_NU)
    tilde[:] = empty_table()
    _SOLVE.update(tilde=tilde, scores=scores)
    try:
        with multiprocessing.get_context("fork").Pool(workers) if parallel else nullcontext() as pool:
            for n_filled in range(N_CATEGORIES - 1, -1, -1):
                n_states = len(states_with_filled(n_filled)[0])
                tasks = [(n_filled, start) for start in range(0, n_states, CHUNK)]
                if pool is None:
                    for task in tasks:
                        _solve_task(task)
                else:
                    pool.map(_solve_task, tasks, chunksize=max(1, len(tasks) // (4 * workers)))
                if progress:
                    progress(n_filled, n_states)
        return tilde.copy()
    finally:
        _SOLVE.clear()
