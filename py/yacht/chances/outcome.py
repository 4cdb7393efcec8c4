"""The exact final-score distribution under the advisor's play, from any position.

A backward induction over the states reachable from the position's state
(mask, ν), whose values are vectors over the points still to come: for a
state s, ``D_s[p]`` = P(exactly p more points, bonus included, | s) under
``policy.expected_policy``, plus one last entry, P(upper bonus at the end | s).
One turn, for a batch of states (the solver's operators on vectors):

    D3[τ]  = D_{s'}[· − gain]     s', gain: after scoring the chosen category
    D2'[k] = Σ_τ⊇k P(τ − k) D3[τ],   D2[τ] = D2'[keep2(τ)]
    D1'[k] = Σ_τ⊇k P(τ − k) D2[τ],   D1[ω] = D1'[keep1(ω)]  (keeping all five: D3[ω])
    D_s    = Σ_ω P(ω) D1[ω]

The final score is σ (the sheet's score now) plus p. The state space is every
(mask', ν') reachable from (mask, ν): at most 2^f masks for f free categories,
with ν' only the capped upper totals that the free upper categories can add.
Vectors have ``1 + max_future`` point entries (the most the free categories
and the bonus can still add). Exact (float64) for every position; the cost
grows about as 2^f × the number of ν' × the vector length, so callers keep f
at most ``EXACT_FREE`` (a time limit, see docs/benchmarks.md) and sample beyond.
"""

from dataclasses import dataclass
from typing import Final

import numpy as np

from ..core.categories import BONUS_POINTS, BONUS_THRESHOLD, FULL_MASK, N_CATEGORIES, N_UPPER, UPPER_MASK
from ..core.dice import (
    N_KEEPS,
    N_ROLLS,
    ROLL_OFFSET,
    ROLL_PROBABILITY,
    keep_index,
    keeps_from_rolls,
    reroll_expectation,
    roll_index,
)
from ..core.policy import Policy, expected_policy, successor
from ..core.rules import VARIANTS, Variant, score_table
from ..core.states import N_MASKS
from ..core.steps import Steps, finish

EXACT_FREE: Final = 6
"""The most free categories for which distributions are computed exactly on request."""
STEP_COLUMNS: Final = 4096
"""(state, points) columns of a level solved in one step of ``solve_outcome_steps`` (up to about
0.2 s in CPython): a state's law does not depend on the others solved with it, except in the
last bits of ``play_turn``'s mean over the first roll (a dot product)."""


def max_future(variant: Variant, mask: int, nu: int) -> int:
    """The most points the free categories of (mask, ν) can still add, bonus included."""
    most = int(_MOST[variant.name][~mask & FULL_MASK])
    if nu < BONUS_THRESHOLD and ~mask & UPPER_MASK:
        most += BONUS_POINTS
    return most


def _most_by_free_set() -> dict[str, np.ndarray]:
    """Per variant: (4096,) the most points of the categories in each set (no bonus)."""
    bits = (np.arange(N_MASKS)[:, None] >> np.arange(N_CATEGORIES)) & 1
    return {name: bits @ score_table(v).max(axis=0) for name, v in VARIANTS.items()}


_MOST: Final = _most_by_free_set()
_UPPER_MOST: Final = ((np.arange(N_MASKS)[:, None] >> np.arange(N_UPPER)) & 1) @ (5 * np.arange(1, N_UPPER + 1))
"""(4096,) the most upper points the free upper categories of a mask can add (``~mask`` indexed)."""


def canonical_nu(masks: np.ndarray, nus: np.ndarray) -> np.ndarray:
    """ν, except 0 where the bonus is out of reach (ν + the most the free upper
    categories can add < 63): Ẽ and the advisor's play are then the same for every ν."""
    hopeless = nus + _UPPER_MOST[~masks & FULL_MASK] < BONUS_THRESHOLD
    return np.where(hopeless, 0, nus)


def reachable_levels(mask: int, nu: int, turns: int = N_CATEGORIES) -> list[tuple[np.ndarray, np.ndarray]]:
    """States reachable from (mask, ν) after j = 0 … min(f, ``turns``) more turns:
    ``(masks, nus)`` per level, each (B_j,), ν canonical (``canonical_nu``), ordered
    by ``key`` ascending. With every turn, the last level has the full sheet."""
    levels = [(np.array([mask]), canonical_nu(np.array([mask]), np.array([nu])))]
    free = [c for c in range(N_CATEGORIES) if not mask >> c & 1]
    for _ in free[:turns]:
        masks, nus = levels[-1]
        next_masks, next_nus = [], []
        for c in free:
            open_ = (masks >> c & 1) == 0
            m, n = masks[open_] | (1 << c), nus[open_]
            if c < N_UPPER:
                m = np.repeat(m, 6)
                n = np.minimum(np.repeat(n, 6) + (c + 1) * np.tile(np.arange(6), len(n)), BONUS_THRESHOLD)
            next_masks.append(m)
            next_nus.append(n)
        masks, nus = np.concatenate(next_masks), np.concatenate(next_nus)
        keys = np.unique(key(masks, canonical_nu(masks, nus)))
        levels.append((keys >> 6, keys & 63))
    return levels


def key(masks: np.ndarray, nus: np.ndarray) -> np.ndarray:
    """One integer per state, ``mask · 64 + ν``: the sort order of a level."""
    return masks * 64 + nus


def shifted(next_values: np.ndarray, rows: np.ndarray, gains: np.ndarray, width: int) -> np.ndarray:
    """``next_values[rows]`` with the point entries moved up by ``gains``, as ``width`` entries.

    ``next_values``: (R, L + 1), L point entries and a last entry that is not
    moved (the bonus chance). ``rows``, ``gains``: same shape S. Returns
    (*S, width): out[..., p] = next_values[rows, p − gains] for the points
    (0 outside), and the bonus entry last."""
    n_rows, next_width = next_values.shape
    most_gain = int(gains.max(initial=0))
    stride = most_gain + width
    padded = np.zeros((n_rows, stride))
    padded[:, most_gain : most_gain + next_width - 1] = next_values[:, :-1]
    # take's indices must be the platform's intp (gains are int64; Pyodide's intp is 32 bits).
    start = (rows * stride + most_gain - gains).astype(np.intp)
    out = np.empty((*rows.shape, width))
    np.take(padded.ravel(), start[..., None] + np.arange(width - 1), out=out[..., :-1])
    out[..., -1] = next_values[rows, -1]
    return out


def successor_rows(
    scores: np.ndarray, masks: np.ndarray, nus: np.ndarray, category: np.ndarray, next_keys: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Rows of the next level (by ``next_keys``) after scoring ``category``, and the gains."""
    m, n, gain = successor(scores, masks, nus, category)
    return np.searchsorted(next_keys, key(m, canonical_nu(m, n))), gain


@dataclass(frozen=True)
class Turn:
    """The vectors of one turn of a batch of B states (width W = L + 1).

    ``rolls3`` (252, B, W): D3. ``keeps2`` (462, B, W): D2' of every keep (rows
    ≥ 210: D3, stopping). ``keeps1`` (462, B, W): D1' (rows ≥ 210: D3).
    ``start`` (B, W): D before the first roll."""

    rolls3: np.ndarray
    keeps2: np.ndarray
    keeps1: np.ndarray
    start: np.ndarray


def play_turn(rolls3: np.ndarray, policy: Policy) -> Turn:
    """One turn backwards from D3 (252, B, W), following ``policy``."""
    _, n_states, width = rolls3.shape
    columns = np.arange(n_states)[None, :]
    keeps2 = reroll_expectation(keeps_from_rolls(rolls3.reshape(N_ROLLS, -1))).reshape(N_KEEPS, n_states, width)
    rolls2 = keeps2[policy.keep2, columns]
    keeps1 = reroll_expectation(keeps_from_rolls(rolls2.reshape(N_ROLLS, -1))).reshape(N_KEEPS, n_states, width)
    keeps1[ROLL_OFFSET:] = rolls3
    rolls1 = keeps1[policy.keep1, columns]
    start = np.tensordot(ROLL_PROBABILITY, rolls1, axes=1)
    return Turn(rolls3, keeps2, keeps1, start)


@dataclass(frozen=True)
class Outcome:
    """The final-score distribution of a position's state under the advisor's play.

    ``score``: σ now. ``points`` (L,): P(p more points), p = 0 … L − 1.
    ``bonus``: P(the upper bonus at the end). ``root``: the turn of the
    position's state (B = 1), for the options of a roll.
    ``after``: for each category c free, the (252, L + 1) vectors after scoring c
    with each roll."""

    score: int
    root: Turn
    after: dict[int, np.ndarray]

    def final(self, vector: np.ndarray) -> "Distribution":
        return Distribution(self.score, vector[:-1].copy(), float(vector[-1]))


@dataclass(frozen=True)
class Distribution:
    """P(final = score + p) for p = 0 … len(points) − 1, and P(upper bonus)."""

    score: int
    points: np.ndarray
    bonus: float

    @property
    def expected(self) -> float:
        return self.score + float(np.arange(len(self.points)) @ self.points)

    def reach(self, target: int) -> float:
        """P(final ≥ target)."""
        return float(self.points[max(0, target - self.score) :].sum())

    def to_json(self) -> dict:
        """``{"from": lowest final, "p": [P(from), P(from + 1), …], "bonus"}``, zeros trimmed at the end."""
        nonzero = np.flatnonzero(self.points > 0)
        last = int(nonzero[-1]) + 1 if len(nonzero) else 1
        return {"from": self.score, "p": [float(x) for x in self.points[:last]], "bonus": self.bonus}


Laws = dict[tuple[int, int], Distribution] | None
"""Where ``solve_outcome`` keeps the law of every state it passes, keyed by (mask′, canonical ν′), or None."""


def solve_outcome(tilde: np.ndarray, variant: Variant, mask: int, nu: int, score: int, laws: Laws = None) -> Outcome:
    """``solve_outcome_steps`` run to the end."""
    return finish(solve_outcome_steps(tilde, variant, mask, nu, score, laws))


def solve_outcome_steps(
    tilde: np.ndarray,
    variant: Variant,
    mask: int,
    nu: int,
    score: int,
    laws: Laws = None,
) -> Steps[Outcome]:
    """The exact distribution DP from (mask, ν), in steps (``core.steps``: a level each);
    ``score`` = σ of the sheet. ``laws``: if given, receives the distribution of every state
    solved on the way (its future points, ``score`` 0), keyed by (mask′, canonical ν′)."""
    scores = score_table(variant)
    levels = reachable_levels(mask, nu)
    masks, nus = levels[-1]
    values = np.zeros((len(masks), 2))
    values[:, 0] = 1.0
    values[:, -1] = nus == BONUS_THRESHOLD
    width = max_future(variant, mask, nu) + 2
    root = Turn(*(np.zeros((rows, 1, width)) for rows in (N_ROLLS, N_KEEPS, N_KEEPS)), values)
    _keep_laws(laws, variant, masks, nus, values)
    after = {}
    for j in range(len(levels) - 2, -1, -1):
        masks, nus = levels[j]
        level_width = max(max_future(variant, int(m), int(n)) for m, n in zip(masks, nus, strict=True)) + 2
        next_keys = key(*levels[j + 1])
        if j == 0:  # every category, for the roll-3 options
            for c in range(N_CATEGORIES):
                if not mask >> c & 1:
                    rows, gain = successor_rows(scores, masks, nus, np.full((1, 1), c), next_keys)
                    after[c] = shifted(values, rows, gain, level_width)[:, 0]
        starts = []
        size = max(1, STEP_COLUMNS // level_width)
        for i in range(0, len(masks), size):  # a step each (STEP_COLUMNS)
            part_masks, part_nus = masks[i : i + size], nus[i : i + size]
            policy = expected_policy(tilde, scores, part_masks, part_nus)
            rows, gain = successor_rows(scores, part_masks, part_nus, policy.category, next_keys)
            root = play_turn(shifted(values, rows, gain, level_width), policy)
            starts.append(root.start)
            yield
        values = np.concatenate(starts)
        _keep_laws(laws, variant, masks, nus, values)
    return Outcome(score, root, after)


def _keep_laws(
    laws: Laws,
    variant: Variant,
    masks: np.ndarray,
    nus: np.ndarray,
    values: np.ndarray,
) -> None:
    if laws is not None:
        for m, n, row in zip(masks.tolist(), nus.tolist(), values, strict=True):
            laws[m, n] = Distribution(0, row[: max_future(variant, m, n) + 1].copy(), float(row[-1]))


def option_vector(
    outcome: Outcome, roll: int, dice: tuple[int, ...] | None, keep: tuple[int, ...] | None, category: int | None
) -> np.ndarray:
    """The (L + 1,) vector of one option of the position (as ``options.Option`` names it):
    roll 0 (or no option): the state's own; a keep at roll 1 or 2; a category at roll 3."""
    if roll == 0 or dice is None:
        return outcome.root.start[0]
    if keep is None:
        return outcome.after[category][roll_index(dice)]
    index = keep_index(keep)
    if index >= ROLL_OFFSET:  # keeping all five: scoring now with the advised category
        return outcome.after[category][roll_index(dice)]
    keeps = outcome.root.keeps2 if roll == 2 else outcome.root.keeps1
    return keeps[index, 0]
