"""The final-score distribution when playing for a score to reach (t=), beyond the goal DP.

A player who follows the advice with ``t=`` plays, at every later roll too, for the
chance of reaching the target: from a state (mask, ν) with ``need`` points still to
score, each option is worth R of the state it leads to (``reach``, read from the reach
chunks) at the need that remains, and the best is played. Ties of R (a need already met,
or out of reach, makes every option 1 or 0) go to the best expected final score, then to
the advisor's order: the objective is R + ``TIE_WEIGHT`` × (points + Ẽ after), as the
advice ranks its options (the chance first, then the expected final score).

``reach_policy(chunks, tilde, variant, masks, nus, needs)``: those choices for a batch of
states, as a ``policy.Policy`` of (252, S) columns. ``reach_play_distribution(position,
tilde, chunks)``: ``SIMULATED_GAMES`` games from the position under that play (its first
turn from the position's roll and dice), the choices computed once per distinct (mask, ν,
need) of each turn; dice from ``simulate.ByteDice`` seeded by the sheet's state, so the
page draws the same games. Up to ``REACH_PLAY_FREE`` free categories: every chunk such a
game can read is one of the 2^f − 2 masks after the position's (about 76 kB at six free
categories, 224 kB at seven), fetched at once by a caller without them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import numpy as np

from ..core.categories import BONUS_THRESHOLD, FULL_MASK, N_CATEGORIES
from ..core.dice import N_ROLLS, roll_index
from ..core.options import sheet_state
from ..core.policy import Policy, first_best_keep, successor
from ..core.position import Position
from ..core.rules import Variant, score_table
from ..core.steps import Steps, finish
from .outcome import Distribution, max_future
from .reach_table import Chunk, chunk_of
from .simulate import ByteDice, play_turns
from .winning import play_goal_turn

REACH_PLAY_FREE: Final = 6
"""The most free categories for which the histogram with t= follows the target's play."""
SIMULATED_GAMES: Final = 10_000
TIE_WEIGHT: Final = 1e-9
"""The weight of the expected final score beside R: it decides only where R ties (to
about 1e-7; the most a sheet can still score is below 400)."""
BATCH: Final = 1024
"""Distinct states whose choices are computed at once (memory: (462, BATCH, 2) floats)."""

Reach = Callable[[list[int]], dict[int, Chunk]]
"""The reach chunks of some masks: masks → {mask: ``reach_table.Chunk``}."""


def later_masks(mask: int) -> list[int]:
    """Every mask a game from ``mask`` can reach, the full sheet excepted: ``mask`` with a
    non-empty subset of its free categories filled (2^f − 2 masks), ascending."""
    free = [c for c in range(N_CATEGORIES) if not mask >> c & 1]
    later = {mask | sum(1 << c for i, c in enumerate(free) if subset >> i & 1) for subset in range(1, 1 << len(free))}
    return sorted(later - {FULL_MASK})


def reach_policy(
    chunks: dict[int, Chunk], tilde: np.ndarray, variant: Variant, masks: np.ndarray, nus: np.ndarray, needs: np.ndarray
) -> Policy:
    """The target's choices (module docstring) for every roll of S states: ``masks``,
    ``nus``, ``needs`` (S,) (a state and the points it still needs); ``chunks``: the reach
    chunks of every mask after theirs. Returns a ``Policy`` of (252, S) columns."""
    scores = score_table(variant)
    weights = np.array([1.0, TIE_WEIGHT])
    size = len(masks)
    best = np.full((N_ROLLS, size), -np.inf)
    category = np.zeros((N_ROLLS, size), dtype=np.intp)
    rolls3 = np.zeros((N_ROLLS, size, 2))  # R and the expected points still to come, of the best category
    for c in range(N_CATEGORIES):
        free = np.flatnonzero((masks >> c & 1) == 0)
        if not len(free):
            continue
        after, nus_after, gain = successor(scores, masks[free], nus[free], np.full((1, 1), c))
        chance = np.empty(gain.shape)
        for mask in np.unique(masks[free]).tolist():
            mine = np.flatnonzero(masks[free] == mask)
            chunk = chunk_of(chunks, mask | 1 << c)
            chance[:, mine] = chunk.at(nus_after[:, mine], needs[free][mine] - gain[:, mine])
        expected = gain + tilde[after, nus_after]
        objective = chance + TIE_WEIGHT * expected
        better = objective > best[:, free]  # strictly: the lowest category keeps a tie
        columns = free[None, :].repeat(N_ROLLS, axis=0)[better]
        rows = np.nonzero(better)[0]
        best[rows, columns] = objective[better]
        category[rows, columns] = c
        rolls3[rows, columns] = np.stack([chance[better], expected[better]], axis=1)
    turn = play_goal_turn(rolls3, weights)
    return Policy(category, first_best_keep(turn.keeps2 @ weights), first_best_keep(turn.keeps1 @ weights))


def reach_play_distribution(
    position: Position, tilde: np.ndarray, chunks: Reach, rng: np.random.Generator | ByteDice | None = None
) -> dict:
    """``reach_play_distribution_steps`` run to the end."""
    return finish(reach_play_distribution_steps(position, tilde, chunks, rng))


def reach_play_distribution_steps(
    position: Position, tilde: np.ndarray, chunks: Reach, rng: np.random.Generator | ByteDice | None = None
) -> Steps[dict]:
    """The final-score distribution from ``position`` (with ``target``, at most
    ``REACH_PLAY_FREE`` free categories) under the target's play, simulated (module docstring),
    in steps (``core.steps``: ``BATCH`` states' policy, or a turn played):
    ``average_distribution.distribution``'s fields with ``"play": "goal"``, ``"exact": false``."""
    assert position.target is not None
    mask, nu, sigma = sheet_state(position.sheet)
    loaded = chunks(later_masks(mask))
    rng = rng or ByteDice(mask * 64 + nu)
    games = SIMULATED_GAMES
    masks, nus = np.full(games, mask), np.full(games, nu)
    gained = np.zeros(games, dtype=np.int64)
    rolled = position.roll > 0 and position.dice is not None
    start = (position.roll, np.full(games, roll_index(position.dice))) if rolled else None
    while masks[0] != FULL_MASK:  # every game has the same turns left
        needs = np.clip(position.target - sigma - gained, 0, max_future(position.variant, 0, 0) + 1)
        keys, columns = np.unique((masks * 64 + nus) * 1024 + needs, return_inverse=True)
        parts = []
        for part in (keys[i : i + BATCH] for i in range(0, len(keys), BATCH)):
            parts.append(reach_policy(loaded, tilde, position.variant, part >> 16, part >> 10 & 63, part & 1023))
            yield
        policy = Policy(*(np.concatenate(p, axis=1) for p in zip(*parts, strict=True)))
        masks, nus, gain = play_turns(policy, masks, nus, position.variant, rng, start, columns.ravel())
        gained += gain
        start = None
        yield
    chances = np.bincount(gained.astype(np.intp)) / games  # intp: int32 in Pyodide
    final = Distribution(sigma, chances, float((nus == BONUS_THRESHOLD).mean()))
    return {
        **final.to_json(),
        "expected": final.expected,
        "exact": False,
        "games": games,
        "standard_error": float(np.sqrt(chances * (1 - chances) / games).max()),
        "play": "goal",
    }
