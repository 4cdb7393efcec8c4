"""Head-to-head: the win-aware player against the expected-score player.

Games are played in lockstep, one turn of every game at a time (dice and
choices vectorized across games by ``simulate.play_turns``), in blocks of
``BLOCK_GAMES`` games (memory). The expected-score player follows
``policy.expected_policy`` (``simulate.expected_policies``: once per distinct
state). The win-aware player, at the start of each of its turns, takes the
goal's values after each category against the opponent's sheet as it stands
(``goal.goal_after`` with ``opponent.opponent_law``: exact up to ``exact_free``
free categories of its own, one exact turn and a normal law before) and then,
for every roll, the option with the best win + draw/2 (ties: the lowest
category; the first keep in ``subkeeps`` order). ``win_aware_policy`` does this
for all the games of a turn at once: the per-game part is the goal DP after
the turn; the turn itself (rerolls and keeps of every roll) is played for all
games in one batch (``winning.root_turns``). The win-aware player has the first
seat in the first half of each block's games and the second seat in the other half.

Calibration points: at the start of each of the win-aware player's turns, its
predicted win + draw/2 (with the chunks and the shipped exact range, as the advice shows
it: ``calibration.CALIBRATION`` applied beyond the exact range), the game's result (1 win, ½ draw,
0 loss) and the turn (0–11).
A calibrated prediction is a martingale: its mean over the games is the same at every
turn, so ``drift`` (each turn's predictions minus those of a reference turn, game by
game; the report's reference is the first exact turn) shows a bias of some turns against
others with the results' noise taken out. (It showed that the exact turns' chances rise
too: they are exact against the opponent's law as it stands, while the player looks at
the opponent's sheet again at each turn; see docs/mathematics.md and ``bench/bench_adaptive.py``.)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

import numpy as np

from ..chances.calibration import calibrated
from ..chances.goal import EXACT_FREE, goal_after
from ..chances.opponent import opponent_law
from ..chances.outcome import Distribution, max_future
from ..chances.reach_table import Reach
from ..chances.simulate import expected_policies, play_turns
from ..chances.winning import root_turns, win_payoff
from ..core.categories import N_CATEGORIES
from ..core.dice import N_ROLLS
from ..core.policy import Policy, first_best_keep
from ..core.rules import Variant, score_table

BLOCK_GAMES: Final = 2048
"""Games played in lockstep at once (memory: about 20 MB of policy arrays)."""
TURN_CHUNK: Final = 512
"""Games whose goal turn is played in one batch (memory: about 4 MB per keep array)."""
LAW_MEMO: Final = 50_000
"""The most future-point laws kept in a duel's memo before it is emptied (memory)."""


@dataclass(frozen=True)
class DuelResult:
    """``result`` (games,): 1 / ½ / 0 for the win-aware player; ``first`` (games,) bool:
    it had the first seat. ``predicted``, ``observed``, ``turn``: the calibration points (the
    turn: 0–11, or -1 where it was not saved)."""

    result: np.ndarray
    first: np.ndarray
    predicted: np.ndarray
    observed: np.ndarray
    turn: np.ndarray


@dataclass
class Memo:
    """What a duel reuses across games and turns (one variant, table, exact range):
    the opponent's laws by their state and my future-point laws by state."""

    opponents: dict[tuple[int, int], Distribution] = field(default_factory=dict)
    laws: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)


def win_aware_policy(
    tilde: np.ndarray,
    spread: Callable[[], np.ndarray] | None,
    variant: Variant,
    mine: np.ndarray,
    theirs: np.ndarray,
    exact_free: int = EXACT_FREE,
    memo: Memo | None = None,
    chunks: Reach | None = None,
) -> tuple[Policy, np.ndarray]:
    """The win-aware choices for every roll of a turn of N games, and the predicted
    win + draw/2 at the turn's start. ``mine``, ``theirs``: (N, 3) (mask, ν, σ) of the
    player to move and of its opponent (whose law is ``opponent.opponent_law``). Returns a
    ``Policy`` of (252, N) columns and (N,) chances."""
    memo = Memo() if memo is None else memo
    for laws in (memo.laws, memo.opponents):
        if len(laws) > LAW_MEMO:
            laws.clear()
    afters, weights = [], np.array([1.0, 0.5])
    for (mask, nu, sigma), (their_mask, their_nu, their_sigma) in zip(mine.tolist(), theirs.tolist(), strict=True):
        opponent, _ = opponent_law(
            tilde, spread, variant, their_mask, their_nu, their_sigma, memo=memo.opponents, chunks=chunks
        )
        payoff, weights = win_payoff(opponent, sigma + max_future(variant, mask, nu) + 1)
        after, _ = goal_after(
            tilde, spread, variant, mask, nu, sigma, payoff, weights, exact_free, memo.laws, chunks=chunks
        )
        afters.append(after)
    parts = [_choices(afters[i : i + TURN_CHUNK], weights) for i in range(0, len(afters), TURN_CHUNK)]
    policy = Policy(*(np.concatenate([p[0][k] for p in parts], axis=1) for k in range(3)))
    chances = np.concatenate([p[1] for p in parts])
    if chunks is not None and exact_free == EXACT_FREE:  # as the advice shows them (calibration.CALIBRATION)
        chances = calibrated(chances, _free(mine[:, 0]), _free(theirs[:, 0]))
    return policy, chances


def _free(masks: np.ndarray) -> np.ndarray:
    """Free categories of each mask."""
    return N_CATEGORIES - np.array([bin(m).count("1") for m in masks.tolist()])


def _choices(afters: list[dict[int, np.ndarray]], weights: np.ndarray) -> tuple[Policy, np.ndarray]:
    """The best option of every roll by win + draw/2 for a batch of positions' ``after``."""
    turn = root_turns(afters, weights)
    objective3 = np.full((N_CATEGORIES, N_ROLLS, len(afters)), -np.inf)
    for i, after in enumerate(afters):
        for c, values in after.items():
            objective3[c, :, i] = values @ weights
    keep2 = first_best_keep(turn.keeps2 @ weights)
    keep1 = first_best_keep(turn.keeps1 @ weights)
    return Policy(objective3.argmax(axis=0), keep2, keep1), turn.start @ weights


def duel(
    tilde: np.ndarray,
    spread: np.ndarray,
    variant: Variant,
    games: int,
    rng: np.random.Generator,
    exact_free: int = EXACT_FREE,
    progress: Callable[[int], None] | None = None,
    memo: Memo | None = None,
    chunks: Reach | None = None,
) -> DuelResult:
    """Play ``games`` games (see the module docstring); ``progress``: called with the
    games finished after each block; ``memo``: kept across calls of one variant, table
    and exact range; ``chunks``: the win-aware player reads the chunks beyond the exact range
    (``goal.goal_after``), else it uses the spread table's normal law."""
    memo = Memo() if memo is None else memo
    blocks = []
    for start in range(0, games, BLOCK_GAMES):
        size = min(BLOCK_GAMES, games - start)
        blocks.append(_duel_block(tilde, spread, variant, size, rng, exact_free, memo, chunks))
        if progress:
            progress(start + len(blocks[-1].result))
    return DuelResult(*(np.concatenate(parts) for parts in zip(*(vars(b).values() for b in blocks), strict=True)))


def _duel_block(
    tilde: np.ndarray,
    spread: np.ndarray,
    variant: Variant,
    games: int,
    rng: np.random.Generator,
    exact_free: int,
    memo: Memo,
    chunks: Reach | None,
) -> DuelResult:
    scores = score_table(variant)
    first = np.arange(games) < games // 2 + games % 2
    # Player 0 is win-aware, player 1 expected-score: (games, 2, 3) mask, ν, σ.
    state = np.zeros((games, 2, 3), dtype=np.int64)
    predicted, sampled_games, turns = [], [], []
    for turn in range(N_CATEGORIES):
        for seat in (0, 1):
            # The win-aware player plays now in the games where its seat is this one.
            win_now = first if seat == 0 else ~first
            for player, games_now in ((0, np.flatnonzero(win_now)), (1, np.flatnonzero(~win_now))):
                if not len(games_now):
                    continue
                if player == 1:
                    policy = expected_policies(tilde, scores, state[games_now, 1, 0], state[games_now, 1, 1])
                else:
                    policy, chances = win_aware_policy(
                        tilde,
                        lambda: spread,
                        variant,
                        state[games_now, 0],
                        state[games_now, 1],
                        exact_free,
                        memo,
                        chunks,
                    )
                    predicted.append(chances)
                    sampled_games.append(games_now)
                    turns.append(np.full(len(games_now), turn, dtype=np.int8))
                mask, nu, gain = play_turns(
                    policy, state[games_now, player, 0], state[games_now, player, 1], variant, rng
                )
                state[games_now, player, 0], state[games_now, player, 1] = mask, nu
                state[games_now, player, 2] += gain
    sigma = state[:, :, 2]
    result = np.where(sigma[:, 0] > sigma[:, 1], 1.0, np.where(sigma[:, 0] == sigma[:, 1], 0.5, 0.0))
    sampled = np.concatenate(sampled_games)
    return DuelResult(result, first, np.concatenate(predicted), result[sampled], np.concatenate(turns))


def win_rate(results: np.ndarray) -> tuple[float, float]:
    """Mean result (draws ½) and the half-width of its 95 % interval (normal approximation)."""
    mean = float(results.mean())
    return mean, float(1.96 * results.std(ddof=1) / np.sqrt(len(results))) if len(results) > 1 else float("nan")


def drift(
    predicted: np.ndarray, turn: np.ndarray, reference: int = N_CATEGORIES - 1
) -> list[tuple[int, float, float, float]]:
    """Per turn of a duel's calibration points (``turn`` 0–11, in the same order of games at
    every turn, as ``duel`` saves them; points with turn -1 are left out): (turn, mean
    predicted, mean of predicted minus the ``reference`` turn's prediction of the same game, the
    half-width of that mean's 95 % interval). Turns with no points are left out. The
    reference: a turn whose prediction is exact (the first one, ``N_CATEGORIES - exact_free``,
    where ``exact_free`` categories are free, has the least noise; the last one is nearly the
    result)."""
    known = turn >= 0
    predicted, turn = predicted[known], turn[known]
    base = predicted[turn == reference]
    if not len(base):
        return []
    out = []
    for t in range(N_CATEGORIES):
        now = predicted[turn == t]
        if not len(now) or len(now) != len(base):
            continue
        difference = now - base
        half = float(1.96 * difference.std(ddof=1) / np.sqrt(len(difference))) if len(difference) > 1 else float("nan")
        out.append((t, float(now.mean()), float(difference.mean()), half))
    return out


def calibration(predicted: np.ndarray, observed: np.ndarray, bins: int = 10) -> list[tuple[float, float, int]]:
    """Per tenth of predicted chance: (mean predicted, mean observed, count)."""
    which = np.minimum((predicted * bins).astype(int), bins - 1)
    out = []
    for b in range(bins):
        chosen = which == b
        count = int(chosen.sum())
        out.append(
            (float(predicted[chosen].mean()), float(observed[chosen].mean()), count)
            if count
            else (float("nan"), float("nan"), 0)
        )
    return out
