"""Dice multisets and the reroll operators, vectorized over batches of states.

A *keep* is a multiset of 0–5 dice; a *roll* is a keep of exactly five dice.
Both are stored as count vectors over the faces 1–6 (``counts[f - 1]`` dice
show face ``f``). There are 462 keeps, of which 252 are rolls.

Keep index order: by size ascending (0, 1, 2, 3, 4, 5 dice); within one
size by the number of distinct faces descending, then by the ascending tuple
of dice values (so the running max in ``best_subkeep`` works on prefixes). Size ``k`` occupies the index
range ``SIZE_OFFSETS[k]:SIZE_OFFSETS[k + 1]``; the rolls are the last block,
so roll ``r`` (0–251) is keep ``ROLL_OFFSET + r``.

Operators act on arrays whose first axis is the keep or roll index and whose
remaining axes are a batch (e.g. shape ``(462, B)``): every step is a
contiguous row operation over the batch.
"""

from itertools import combinations_with_replacement, product
from math import factorial
from typing import Final

import numpy as np

N_FACES: Final = 6
N_DICE: Final = 5


def _enumerate_keeps() -> list[tuple[int, ...]]:
    keeps: list[tuple[int, ...]] = []
    for size in range(N_DICE + 1):
        block = combinations_with_replacement(range(1, N_FACES + 1), size)
        keeps.extend(sorted(block, key=lambda dice: (-len(set(dice)), dice)))
    return keeps


KEEP_DICE: Final[tuple[tuple[int, ...], ...]] = tuple(_enumerate_keeps())
"""Dice values of each keep, ascending: ``KEEP_DICE[i]`` for keep index ``i``."""
N_KEEPS: Final = len(KEEP_DICE)  # 462
_COUNT_TUPLES: Final = tuple(tuple(d.count(f) for f in range(1, N_FACES + 1)) for d in KEEP_DICE)
KEEP_COUNTS: Final = np.array(_COUNT_TUPLES, dtype=np.int64)
"""(462, 6) dice per face for each keep."""
KEEP_SIZE: Final = KEEP_COUNTS.sum(axis=1)
SIZE_OFFSETS: Final = tuple(int(np.searchsorted(KEEP_SIZE, k)) for k in range(N_DICE + 2))
"""Start of each size block: (0, 1, 7, 28, 84, 210, 462)."""
ROLL_OFFSET: Final = SIZE_OFFSETS[N_DICE]  # 210
N_ROLLS: Final = N_KEEPS - ROLL_OFFSET  # 252
ROLL_COUNTS: Final = KEEP_COUNTS[ROLL_OFFSET:]
"""(252, 6) dice per face for each roll."""
ROLL_DICE: Final = KEEP_DICE[ROLL_OFFSET:]

_INDEX_OF_COUNTS: Final = {c: i for i, c in enumerate(_COUNT_TUPLES)}
_INDEX_OF_DICE: Final = {d: i for i, d in enumerate(KEEP_DICE)}


def keep_index(dice: tuple[int, ...] | list[int]) -> int:
    """Keep index of a multiset of 0–5 dice values (any order)."""
    return _INDEX_OF_DICE[tuple(sorted(dice))]


def roll_index(dice: tuple[int, ...] | list[int]) -> int:
    """Roll index (0–251) of five dice values (any order)."""
    if len(dice) != N_DICE:
        raise ValueError(f"a roll has {N_DICE} dice, got {len(dice)}")
    return keep_index(dice) - ROLL_OFFSET


_FACTORIALS: Final = np.array([factorial(n) for n in range(N_DICE + 1)])
ROLL_PROBABILITY: Final = factorial(N_DICE) // _FACTORIALS[ROLL_COUNTS].prod(axis=1) / N_FACES**N_DICE
"""(252,) probability of each roll when all five dice are thrown: 5! / (Π over faces of count!) / 6⁵."""

_FACE_WEIGHTS: Final = (N_DICE + 1) ** np.arange(N_FACES)
"""A keep's counts read as the digits of a number in base 6 (``_KEEP_NUMBER``): face f's weight."""
_KEEP_NUMBER: Final = KEEP_COUNTS @ _FACE_WEIGHTS
_INDEX_OF_NUMBER: Final = np.zeros((N_DICE + 1) ** N_FACES, dtype=np.intp)
_INDEX_OF_NUMBER[_KEEP_NUMBER] = np.arange(N_KEEPS)

CHILD: Final = _INDEX_OF_NUMBER[_KEEP_NUMBER[:ROLL_OFFSET, None] + _FACE_WEIGHTS]
"""(210, 6) ``CHILD[i, f - 1]``: the index of keep i with one more die showing f (keeps of size < 5)."""


def _subkeep_steps() -> tuple[tuple[int, int, np.ndarray], ...]:
    """Steps ``(lo, hi, parents)`` of the running max in ``best_subkeep``.

    For each size and each ``j``, keeps ``lo:hi`` are those of that size with
    more than ``j`` distinct faces (a prefix of the size block) and
    ``parents`` their keeps without one die of their j-th distinct face.
    """
    steps = []
    for size in range(1, N_DICE + 1):
        lo, hi = SIZE_OFFSETS[size], SIZE_OFFSETS[size + 1]
        shown = KEEP_COUNTS[lo:hi] > 0
        rank = np.cumsum(shown, axis=1)  # [keep, face]: the faces shown up to this one
        for j in range(int(rank[:, -1].max())):
            n = int((rank[:, -1] > j).sum())
            face = np.argmax(shown[:n] & (rank[:n] == j + 1), axis=1)  # the j-th distinct face (0-based)
            steps.append((lo, lo + n, _INDEX_OF_NUMBER[_KEEP_NUMBER[lo : lo + n] - _FACE_WEIGHTS[face]]))
    return tuple(steps)


SUBKEEP_STEPS: Final = _subkeep_steps()


def keeps_from_rolls(roll_values: np.ndarray) -> np.ndarray:
    """A new ``(462, *batch)`` array: rows of the rolls hold ``roll_values``
    (shape ``(252, *batch)``), the other rows 0."""
    keeps = np.zeros((N_KEEPS, *roll_values.shape[1:]))
    keeps[ROLL_OFFSET:] = roll_values
    return keeps


def _scratch_rows(scratch: np.ndarray | None, keeps: np.ndarray, rows: int) -> np.ndarray:
    """A ``(rows, *batch)`` work array, taken from the start of ``scratch``
    (flat float64, at least 252 × batch) when one is given."""
    shape = (rows, *keeps.shape[1:])
    if scratch is None:
        return np.empty(shape)
    return scratch[: rows * (keeps[0].size)].reshape(shape)


def reroll_expectation(keeps: np.ndarray, scratch: np.ndarray | None = None) -> np.ndarray:
    """Expected value of each keep when its missing dice are thrown, in place.

    ``keeps``: shape ``(462, *batch)`` whose roll rows (210:) hold a value per
    roll. Rows 0:210 are overwritten: keep ``k`` gets the sum over rolls
    ``τ ⊇ k`` of ``P(τ − k) · value[τ]``. Computed one die at a time (a keep
    of size ``n`` is the mean over the six keeps of size ``n + 1`` that
    extend it): 1,260 row operations. ``scratch``: optional flat work buffer
    (so that a hot loop allocates nothing). Returns ``keeps``.
    """
    gathered = _scratch_rows(scratch, keeps, ROLL_OFFSET - SIZE_OFFSETS[N_DICE - 1])
    for size in range(N_DICE - 1, -1, -1):
        lo, hi = SIZE_OFFSETS[size], SIZE_OFFSETS[size + 1]
        block, tmp = keeps[lo:hi], gathered[: hi - lo]
        np.take(keeps, CHILD[lo:hi, 0], axis=0, out=block, mode="clip")
        for f in range(1, N_FACES):
            np.take(keeps, CHILD[lo:hi, f], axis=0, out=tmp, mode="clip")
            block += tmp
        block *= 1.0 / N_FACES
    return keeps


def best_subkeep(keeps: np.ndarray, scratch: np.ndarray | None = None) -> np.ndarray:
    """Best value over the sub-keeps of each keep, in place.

    ``keeps``: shape ``(462, *batch)``. Row ``k`` becomes the maximum of the
    values of every keep ``j ⊆ k`` (``k`` itself and the empty keep
    included). A running max over keeps with one die fewer, by size
    ascending: 1,260 row operations (one per distinct face of each keep).
    ``scratch`` as in ``reroll_expectation``. Returns ``keeps``.
    """
    gathered = _scratch_rows(scratch, keeps, N_ROLLS)
    for lo, hi, parents in SUBKEEP_STEPS:
        tmp = gathered[: hi - lo]
        np.take(keeps, parents, axis=0, out=tmp, mode="clip")
        np.maximum(keeps[lo:hi], tmp, out=keeps[lo:hi])
    return keeps


def subkeeps(roll_dice: tuple[int, ...] | list[int]) -> list[int]:
    """Keep indices of every distinct sub-multiset of the given dice (none to all)."""
    counts = [0] * N_FACES
    for d in roll_dice:
        counts[d - 1] += 1
    return [_INDEX_OF_COUNTS[c] for c in product(*(range(n + 1) for n in counts))]
