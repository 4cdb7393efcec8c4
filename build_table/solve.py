"""The whole solve: every level of ``yacht.core.solver``'s backward induction, its
chunks spread over forked worker processes that write into one shared-memory
table. The mathematics of one chunk is ``yacht.core.solver.solve_chunk``; this
module only orchestrates (processes, memory, progress).
"""

import ctypes
import mmap
import multiprocessing
import sys
import threading
from collections.abc import Callable
from contextlib import nullcontext
from typing import Final

import numpy as np
from yacht.chances.law import LAW_PAD, empty_law, law_shape, solve_law_states
from yacht.chances.outcome import canonical_nu
from yacht.chances.reach import canonical_states, empty_reach, mask_size, reach_shape, solve_mask
from yacht.chances.spread import empty_moments, moments_states, standard_deviation
from yacht.core.categories import N_CATEGORIES
from yacht.core.rules import Variant, score_table
from yacht.core.solver import CHUNK, empty_table, solve_chunk
from yacht.core.states import N_MASKS, N_NU, POPCOUNT, REACHABLE, states_with_filled

LAW_BATCH: Final = 128
"""Canonical states per task of the law's solve."""

# The solve under way in this process (inherited by forked workers): the chunk function.
_SOLVE: dict = {}


def keep_freed_memory() -> bool:
    """Make glibc's malloc keep the memory NumPy frees for the next arrays (True if it could).

    The solves make arrays of 0.1–20 MB by the thousand; by default glibc maps each from the OS
    afresh, or gives the freed top of the heap back, and every page of the next one is then
    a page fault: a third of the time of the R solve went to the kernel. Linux (glibc) only;
    elsewhere nothing changes."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    m_trim_threshold, m_mmap_threshold = -1, -3  # malloc.h
    return bool(mallopt(m_mmap_threshold, 256 << 20)) and bool(mallopt(m_trim_threshold, 1 << 30))


def _solve_task(task: tuple[int, int]) -> None:
    """Worker: solve one chunk ``(n_filled, start)`` of a level into the shared table."""
    _SOLVE["chunk"](*task)


def shared_zeros(shape: tuple[int, ...], parallel: bool) -> np.ndarray:
    """A float64 array of zeros in shared memory (forked workers write into it) or in this
    process. Either way its pages are mapped on first use: the R and law arrays (0.7–0.9 GB)
    are never written whole, and copying them in and out cost seconds of page faults."""
    if not parallel:
        return np.zeros(shape)
    buffer = mmap.mmap(-1, int(np.prod(shape)) * 8)  # anonymous: zero-filled
    return np.frombuffer(buffer, dtype=np.float64).reshape(shape)


def _state_chunks(n_filled: int) -> list[tuple[int, int]]:
    """The tasks of a level of the Ẽ solve: (n_filled, first state) per ``CHUNK`` states."""
    return [(n_filled, start) for start in range(0, len(states_with_filled(n_filled)[0]), CHUNK)]


def run_levels(
    chunk: Callable[[int, int], None],
    workers: int,
    progress: Callable[[int, int], None] | None = None,
    tasks_of: Callable[[int], list[tuple[int, int]]] = _state_chunks,
) -> None:
    """Call ``chunk(*task)`` for every task of every level (``tasks_of(n_filled)``, by
    default ``(n_filled, start)`` per chunk of states), 11 filled down to 0, a level's
    tasks spread over ``workers`` forked processes (or in this process), handed out one at
    a time in their order (so the largest first balances the workers)."""
    parallel = workers > 1 and can_fork()
    _SOLVE["chunk"] = chunk
    try:
        with multiprocessing.get_context("fork").Pool(workers) if parallel else nullcontext() as pool:
            for n_filled in range(N_CATEGORIES - 1, -1, -1):
                n_states = len(states_with_filled(n_filled)[0])
                tasks = tasks_of(n_filled)
                if pool is None:
                    for task in tasks:
                        _solve_task(task)
                else:
                    pool.map(_solve_task, tasks, chunksize=1)
                if progress:
                    progress(n_filled, n_states)
    finally:
        _SOLVE.clear()


def _map_task(task: tuple) -> object:
    """Worker: one call of ``fork_map``'s function."""
    return _SOLVE["function"](*task)


def fork_map(function: Callable[..., object], tasks: list[tuple], workers: int = 2) -> list:
    """``[function(*task) for task in tasks]``, the tasks spread over ``workers`` forked processes
    (which see this process's memory as it is at the call), or in this process."""
    if not (workers > 1 and can_fork()):
        return [function(*task) for task in tasks]
    _SOLVE["function"] = function
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            return pool.map(_map_task, tasks, chunksize=1)
    finally:
        _SOLVE.clear()


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
    tilde = shared_zeros((N_MASKS, N_NU), workers > 1 and can_fork())
    tilde[:] = empty_table()
    run_levels(lambda n_filled, start: solve_chunk(tilde, scores, n_filled, start), workers, progress)
    return tilde.copy()


Given = tuple[np.ndarray, np.ndarray]
"""``(masks, values)``: the masks whose rest of the game is the same in another variant, and that
variant's solved array (``build_table.shared``): a solve copies those masks' rows of it and
solves the others."""


def _copied(work: np.ndarray, given: Given | None, pad: int = 0) -> np.ndarray:
    """Copy the rows of ``given``'s masks into ``work`` (after ``pad`` columns, which take each
    row's column 0: S = 1 for k ≤ 0 where it is 1 at k = 0; the columns both arrays have, since
    the variants' widths differ and a row is 0 past its mask's most, which is the same in both);
    (4096,) bool, the masks copied."""
    copied = np.zeros(N_MASKS, dtype=bool)
    if given is not None:
        masks, values = given
        width = min(work.shape[2] - pad, values.shape[2])  # the widths differ; each row ends before both
        for mask in masks.tolist():  # one mask at a time: no copy of the half of the array at once
            work[mask, :, pad : pad + width] = values[mask, :, :width]
            if pad:
                work[mask, :, :pad] = values[mask, :, :1]
        copied[masks] = True
    return copied


def solve_reach(variant: Variant, *, workers: int = 2, given: Given | None = None) -> np.ndarray:
    """R(mask, ν, k) for every canonical reachable state: ``yacht.chances.reach.empty_reach``'s
    (4096, 64, width) float64 (in shared memory when solved by forked workers), a level's
    masks spread over ``workers`` forked processes, the largest first (``mask_size``); the
    masks of ``given`` copied from it."""
    reach = empty_reach(variant, shared_zeros(reach_shape(variant), workers > 1 and can_fork()))
    copied = _copied(reach, given)

    def masks(n_filled: int) -> list[tuple[int, int]]:
        level = np.flatnonzero((POPCOUNT == n_filled) & ~copied).tolist()
        return [(n_filled, m) for m in sorted(level, key=lambda m: -mask_size(variant, m))]

    run_levels(lambda _, mask: solve_mask(reach, variant, mask), workers, tasks_of=masks)
    return reach


def solve_law(variant: Variant, tilde: np.ndarray, *, workers: int = 2, given: Given | None = None) -> np.ndarray:
    """S(mask, ν, k), the law of the future points under the advisor's play on ``tilde``
    (``yacht.chances.law.solve_law_states``), in ``solve_reach``'s layout (a view of the work array
    without its ``LAW_PAD`` columns): a level's canonical states in batches of ``LAW_BATCH``
    spread over ``workers`` forked processes; the masks of ``given`` (that layout) copied from it."""
    law = empty_law(variant, shared_zeros(law_shape(variant), workers > 1 and can_fork()))
    levels = canonical_levels(_copied(law, given, LAW_PAD))

    def batches(n_filled: int) -> list[tuple[int, int]]:
        return [(n_filled, start) for start in range(0, len(levels[n_filled][0]), LAW_BATCH)]

    def batch(n_filled: int, start: int) -> None:
        masks, nus = levels[n_filled]
        part = slice(start, start + LAW_BATCH)
        solve_law_states(law, tilde, variant, masks[part], nus[part])

    run_levels(batch, workers, tasks_of=batches)
    return law[:, :, LAW_PAD:]


def solve_spread(variant: Variant, tilde: np.ndarray, *, workers: int = 2) -> np.ndarray:
    """(4096, 64) the standard deviation of the future points of every state under the
    advisor's play on ``tilde`` (``yacht.chances.spread``); NaN where unreachable."""
    return spread_of(tilde, solve_moments(variant, tilde, workers=workers))


def spread_of(tilde: np.ndarray, moments: np.ndarray) -> np.ndarray:
    """``solve_spread``'s standard deviations from ``solve_moments``'s moments."""
    return np.where(np.isnan(tilde), np.nan, standard_deviation(moments))


def solve_moments(variant: Variant, tilde: np.ndarray, *, workers: int = 2, given: Given | None = None) -> np.ndarray:
    """(4096, 64, 2) the first two moments of the future points of every state under the
    advisor's play on ``tilde`` (``yacht.chances.spread.moments_states``); the masks of ``given``
    copied from it (``copied_levels``)."""
    scores = score_table(variant)
    moments = shared_zeros(empty_moments().shape, workers > 1 and can_fork())
    copied_levels(moments, given, lambda masks, nus: moments_states(tilde, scores, moments, masks, nus), workers)
    return np.array(moments)


def copied_levels(
    work: np.ndarray, given: Given | None, states: Callable[[np.ndarray, np.ndarray], None], workers: int
) -> None:
    """``run_levels`` of ``states(masks, nus)`` into ``work`` (4096, 64, …) on the canonical states
    of each level (``canonical_levels``), ``CHUNK`` at a time, after copying the masks of ``given``
    from it; after each level, every other reachable ν of its masks takes the row of its canonical
    ν (``outcome.canonical_nu``: where the bonus is out of reach, the play and all that follows
    from it are those of ν = 0), before the level above reads it."""
    copied = _copied(work, given)
    levels = canonical_levels(copied)

    def tasks(n_filled: int) -> list[tuple[int, int]]:
        return [(n_filled, start) for start in range(0, len(levels[n_filled][0]), CHUNK)]

    def batch(n_filled: int, start: int) -> None:
        masks, nus = levels[n_filled]
        states(masks[start : start + CHUNK], nus[start : start + CHUNK])

    def others(n_filled: int, _: int) -> None:
        masks = np.flatnonzero((POPCOUNT == n_filled) & ~copied)
        canonical = canonical_nu(np.repeat(masks, N_NU), np.tile(np.arange(N_NU), len(masks))).reshape(-1, N_NU)
        rows, nus = np.nonzero(REACHABLE[masks] & (canonical != np.arange(N_NU)))
        work[masks[rows], nus] = work[masks[rows], canonical[rows, nus]]

    run_levels(batch, workers, others, tasks)


def canonical_levels(copied: np.ndarray) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """Per level (categories filled, 0–11): its canonical reachable states
    (``reach.canonical_states``) of the masks not ``copied`` (4096,) bool, as ``(masks, nus)``,
    each (S,) int64, by mask, then ν, ascending."""
    levels = {}
    for n_filled in range(N_CATEGORIES):
        masks = np.flatnonzero((POPCOUNT == n_filled) & ~copied)
        nus = [canonical_states(int(m)) for m in masks]
        levels[n_filled] = (np.repeat(masks, [len(n) for n in nus]), np.concatenate([np.zeros(0, np.int64), *nus]))
    return levels
