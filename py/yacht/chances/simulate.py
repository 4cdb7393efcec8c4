"""Playing turns with real dice, vectorized across games: each game follows its
own policy arrays (``policy.Policy``: a choice per roll τ after each roll,
shape (252, N), one column per game).

``roll_dice(rng, counts)`` throws dice; ``play_turns(policy, masks, nus,
variant, rng)`` plays one turn of every game and returns the states after it
and the points gained (bonus included); ``expected_policies`` gives the
advisor's choices for many games; ``expected_play_steps`` plays whole games under
the advisor's play (the distribution where it is not computed exactly).
"""

from __future__ import annotations

import random as _random
from typing import Final

import numpy as np

from ..core.categories import BONUS_POINTS, BONUS_THRESHOLD, FULL_MASK, N_UPPER
from ..core.dice import KEEP_COUNTS, KEEP_SIZE, N_DICE, N_FACES, ROLL_COUNTS, ROLL_OFFSET
from ..core.policy import Policy, expected_policy
from ..core.rules import Variant, score_table
from ..core.steps import Steps, finish

_POWERS: Final = N_FACES ** np.arange(N_FACES)
_ROLL_OF_CODE: Final = np.full(N_FACES**N_FACES, -1, dtype=np.intp)
_ROLL_OF_CODE[ROLL_COUNTS @ _POWERS] = np.arange(len(ROLL_COUNTS))


class ByteDice:
    """A seeded source of dice faces for the simulations that also run in the page, whose
    trimmed NumPy has no ``numpy.random``: ``integers(0, n, size)`` as a Generator's, from
    ``random.Random(seed).randbytes`` with the bytes ≥ 256 − 256 mod n rejected, so every value
    has chance 1/n. The same seed gives the same faces in CPython and in Pyodide."""

    def __init__(self, seed: int) -> None:
        self._random = _random.Random(seed)

    def integers(self, low: int, high: int, size: tuple[int, ...]) -> np.ndarray:
        n = high - low
        count = int(np.prod(size))
        limit = 256 - 256 % n
        taken = np.empty(0, dtype=np.intp)
        while taken.size < count:
            raw = np.frombuffer(self._random.randbytes(count + count // 16 + 16), dtype=np.uint8)
            taken = np.concatenate([taken, (raw[raw < limit] % n).astype(np.intp)])
        return (taken[:count] + low).reshape(size)


def roll_dice(rng: np.random.Generator | ByteDice, kept: np.ndarray) -> np.ndarray:
    """Roll indices (N,) after throwing the dice missing from keeps ``kept`` (N,) (keep indices)."""
    faces = rng.integers(0, N_FACES, size=(len(kept), N_DICE))
    thrown = np.arange(N_DICE) < (N_DICE - KEEP_SIZE[kept])[:, None]
    counts = KEEP_COUNTS[kept].copy()
    np.add.at(counts, (np.repeat(np.arange(len(kept)), N_DICE), faces.ravel()), thrown.ravel())
    return _ROLL_OF_CODE[counts @ _POWERS]


def play_turns(
    policy: Policy,
    masks: np.ndarray,
    nus: np.ndarray,
    variant: Variant,
    rng: np.random.Generator | ByteDice,
    rolled: tuple[int, np.ndarray] | None = None,
    columns: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One turn of N games: (masks', ν', gain), each (N,). Game i follows column i of ``policy``,
    or column ``columns[i]`` (games in the same state can share one).
    ``rolled``: (r, rolls (N,)) to start after roll r (1–3) with these rolls instead of the first throw."""
    games = np.arange(len(masks)) if columns is None else columns
    done, roll = rolled if rolled is not None else (1, roll_dice(rng, np.zeros(len(masks), dtype=np.intp)))
    stopped = np.zeros(len(masks), dtype=bool)
    for keeps in (policy.keep1, policy.keep2)[done - 1 :]:
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


def expected_policies(tilde: np.ndarray, scores: np.ndarray, masks: np.ndarray, nus: np.ndarray) -> Policy:
    """``expected_policies_steps`` run to the end."""
    return finish(expected_policies_steps(tilde, scores, masks, nus))


def expected_policies_steps(tilde: np.ndarray, scores: np.ndarray, masks: np.ndarray, nus: np.ndarray) -> Steps[Policy]:
    """``policy.expected_policy`` for N games (one column each, (252, N)), solved once per
    distinct state and ``POLICY_CHUNK`` states at a time, a step each (``core.steps``)."""
    keys, where = np.unique(masks * 64 + nus, return_inverse=True)
    parts = []
    for i in range(0, len(keys), POLICY_CHUNK):
        parts.append(expected_policy(tilde, scores, keys[i : i + POLICY_CHUNK] >> 6, keys[i : i + POLICY_CHUNK] & 63))
        yield
    return Policy(*(np.concatenate(p, axis=1)[:, where.ravel()] for p in zip(*parts, strict=True)))


def expected_play_steps(
    tilde: np.ndarray,
    variant: Variant,
    mask: int,
    nu: int,
    games: int,
    rng: np.random.Generator | ByteDice,
    rolled: tuple[int, int] | None = None,
) -> Steps[tuple[np.ndarray, np.ndarray]]:
    """Simulate ``games`` games from (mask, ν) under the advisor's play, in steps (``core.steps``:
    ``POLICY_CHUNK`` states' policy, or a turn played): the points still to come (games,) and
    whether the upper bonus is had at the end (games,). ``rolled``: (r, roll index) to start
    the first turn after roll r with that roll."""
    masks, nus = np.full(games, mask), np.full(games, nu)
    gained = np.zeros(games, dtype=np.int64)
    scores = score_table(variant)
    start = None if rolled is None else (rolled[0], np.full(games, rolled[1]))
    while (masks != FULL_MASK).any():
        policy = yield from expected_policies_steps(tilde, scores, masks, nus)
        masks, nus, gain = play_turns(policy, masks, nus, variant, rng, start)
        gained += gain
        start = None
        yield
    return gained, nus == BONUS_THRESHOLD


POLICY_CHUNK: Final = 1024
"""States whose policy is computed at once (memory: about 12 × 252 × 1024 floats)."""
