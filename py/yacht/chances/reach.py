"""R(s, k): the largest chance that the points still to come from a state reach k.

For a state s = (mask, ν) (``states``) and k = 0, 1, …, R(s, k) is the
largest probability, over every way to play the rest of the game, that the
points scored from s on (the upper bonus included) are at least k, each k
played for itself. R(s, k) = 1 for k ≤ 0; R(full sheet, k) = 0 for k > 0;
R(s, k) = 0 for k > ``outcome.max_future(s)``. A player at state s with σ
points asking for a final score of at least t wants R(s, t − σ).

One turn, for columns (s, k) of one mask (the same operators as ``solver``,
acting on each column separately, as in ``winning``):

    R3[τ]  = max over free c of  R(s'(c, τ), k − gain(c, τ))      (roll 3 done)
    R2'[k] = Σ_τ⊇k P(τ − k) R3[τ],   R2[ω] = max_k⊆ω R2'[k]       (roll 2)
    R1'[k] = Σ_τ⊇k P(τ − k) R2[τ],   R1[ω] = max_k⊆ω R1'[k]       (roll 1)
    R(s, k) = Σ_ω P(ω) R1[ω]

with gain the points scored plus 35 when they lift the upper total to 63.
Only canonical ν (``outcome.canonical_nu``: 0 where the bonus is out of
reach) are stored; a lookup maps ν to its canonical value.

Work array (``empty_reach``): (4096, 64, ``width``) float64 indexed
[mask, ν, k] for k = 0 … width − 1, width = the most a sheet can score from
the start plus 2, so that the last column is always 0: R(s′, k − gain) for
k − gain < 0 is 1 and past the most 0. This module is the per-mask
mathematics; ``build_table.solve`` runs the levels.

What a mask's solve does not repeat (``solve_mask``), each exact, the same bits:
the ν whose bonus prospects are the same share one row (``nu_groups``, 12 % of
the columns), and a column whose options (R3's inputs, ``_option_values``) equal
those of the column before it in k or in the group before it takes that column's
R (``_first_equal``, 28 %): 60 % of a variant's 21.2–21.3 million columns are solved.

The same layout holds the law S of the points still to come under the advisor's play: ``law``.
"""

from functools import cache
from typing import Final, NamedTuple

import numpy as np

from ..core.categories import BONUS_POINTS, BONUS_THRESHOLD, FULL_MASK, N_CATEGORIES, N_UPPER
from ..core.dice import (
    CHILD,
    N_DICE,
    N_FACES,
    N_KEEPS,
    N_ROLLS,
    ROLL_OFFSET,
    ROLL_PROBABILITY,
    SIZE_OFFSETS,
    SUBKEEP_STEPS,
)
from ..core.rules import Variant, score_table
from ..core.solver import HALF_COUNTS, ROLL_HIGH_HALF, ROLL_LOW_HALF
from ..core.states import N_MASKS, N_NU, REACHABLE
from .outcome import canonical_nu, max_future

BLOCK: Final = 256
"""Columns (ν, k) solved at once: the turn's (462, 256) float64 block (0.9 MB) stays in a
1 MB L2 cache, and with its row views made once (``_Turn``) the ~180 NumPy calls of a turn
cost less than the cache misses of longer blocks."""


def width(variant: Variant) -> int:
    """Columns k = 0 … width − 1 of the work array: the most from the empty sheet, plus 2."""
    return max_future(variant, 0, 0) + 2


def reach_shape(variant: Variant) -> tuple[int, int, int]:
    """The shape of the work array: (4096, 64, width)."""
    return N_MASKS, N_NU, width(variant)


def empty_reach(variant: Variant, zeros: np.ndarray | None = None) -> np.ndarray:
    """The (4096, 64, width) work array: 0, except R(full sheet, 0) = 1; in ``zeros`` (an
    array of zeros of ``reach_shape``, e.g. in shared memory) if given, else a new one."""
    reach = np.zeros(reach_shape(variant)) if zeros is None else zeros
    reach[FULL_MASK, :, 0] = 1.0
    return reach


@cache
def canonical_states(mask: int) -> np.ndarray:
    """The reachable canonical ν of ``mask``, ascending (int64, read-only)."""
    nus = np.flatnonzero(REACHABLE[mask])
    nus = np.unique(canonical_nu(np.full(len(nus), mask), nus))
    nus = nus[REACHABLE[mask, nus]]
    nus.flags.writeable = False
    return nus


def mask_size(variant: Variant, mask: int) -> int:
    """The columns ``solve_mask`` reads the options of: one per group of ν (``nu_groups``) and
    k = 1 … the most of the mask (a measure of its work, for handing out the largest first)."""
    return len(nu_groups(mask)[0]) * int(max_future_table(variant)[mask, canonical_states(mask)].max())


@cache
def distinct_scores(variant: Variant) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """Per lower category: (its distinct scores (P,), each roll's index among them (252,))."""
    scores = score_table(variant)
    out = []
    for c in range(N_UPPER, N_CATEGORIES):
        values, index = np.unique(scores[:, c], return_inverse=True)
        out.append((values, index))
    return tuple(out)


@cache
def _scoring_rolls(variant: Variant) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """Per lower category: (the rolls where it scores points (R,), their rows among its
    distinct scores (R,))."""
    out = []
    for values, index in distinct_scores(variant):
        rows = np.flatnonzero(values[index] > 0)
        out.append((rows, index[rows]))
    return tuple(out)


@cache
def nu_groups(mask: int) -> tuple[np.ndarray, np.ndarray]:
    """The canonical ν of ``mask`` (``canonical_states``, n of them) in groups that share
    their future: ``(firsts, group)``, the first ν of each group (G,) ascending and the group
    of each canonical ν (n,), both int64.

    ν acts on the rest of the game only through the bonus, which comes if and only if the
    free upper categories still score at least 63 − ν; they can score only the sums of 0–5
    dice of each free face. Two ν whose need is met by the same sums (the same least sum at
    least 63 − ν), or that can no longer gain the bonus (ν = 63 had it; a hopeless ν < 63
    never will), have the same options with the same successors at every turn, so the same
    R(mask, ν, k), bit for bit (the solve does the same arithmetic on the same numbers). A
    hopeless ν < 63 only has 35 more k (``outcome.max_future`` counts the bonus), all 0."""
    sums = np.zeros(1, dtype=np.int64)
    for c in range(N_UPPER):
        if not mask >> c & 1:
            sums = np.unique((sums[:, None] + (c + 1) * np.arange(N_DICE + 1)).ravel())
    nus = canonical_states(mask)
    need = BONUS_THRESHOLD - nus
    least = np.searchsorted(sums, need)  # the first sum ≥ need, len(sums) if none
    key = np.where((need > 0) & (least < len(sums)), least, -1)
    _, first, group = np.unique(key, return_index=True, return_inverse=True)
    order = np.argsort(first)
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    firsts, group = nus[first[order]], rank[group]
    firsts.flags.writeable = group.flags.writeable = False
    return firsts, group


def _option_plan(variant: Variant, mask: int) -> tuple[np.ndarray, np.ndarray, tuple]:
    """The options of the last roll from each group of ``mask`` (``nu_groups``), each a
    category and what it scores: 0–5 dice of each free upper face (6 each), then each
    distinct score of each free lower category (``_distinct_scores``), Q in all.
    ``(rows, shifts, spans)``: ``rows`` (Q, G) the state after it, as the row
    mask′ · 64 + ν′ (canonical) of the work array seen as (4096 · 64, width); ``shifts``
    (Q, G) the points it scores, bonus included; ``spans[c]`` the (first, stop) options
    of category c, None if c is filled."""
    firsts, _ = nu_groups(mask)
    rows, shifts, spans = [], [], [None] * N_CATEGORIES
    for c in range(N_CATEGORIES):
        if mask >> c & 1:
            continue
        after = mask | 1 << c
        if c < N_UPPER:
            points = (c + 1) * np.arange(N_DICE + 1)[:, None]
            raised = np.minimum(firsts + points, BONUS_THRESHOLD)
            bonus = np.where((firsts < BONUS_THRESHOLD) & (raised == BONUS_THRESHOLD), BONUS_POINTS, 0)
            nus, shift = canonical_nu(np.full(raised.shape, after), raised), points + bonus
        else:
            values = distinct_scores(variant)[c - N_UPPER][0]
            nus, shift = np.broadcast_to(firsts, (len(values), len(firsts))), np.repeat(values[:, None], len(firsts), 1)
        spans[c] = (sum(len(r) for r in rows), sum(len(r) for r in rows) + len(shift))
        rows.append(after * N_NU + nus)
        shifts.append(shift)
    return np.concatenate(rows), np.concatenate(shifts), tuple(spans)


def _option_values(reach: np.ndarray, rows: np.ndarray, shifts: np.ndarray, length: int) -> np.ndarray:
    """(Q, G, length) float64: R(s′, k − shift) of each option (``_option_plan``) for
    k = 1 … ``length``, read from ``reach`` (C-contiguous ``empty_reach`` layout) as one
    window of each successor's row; 1 where k − shift < 0 (the window starts before the row)."""
    windows = np.lib.stride_tricks.sliding_window_view(reach.reshape(-1), length)
    values = windows[rows * reach.shape[2] + 1 - shifts]
    values[np.arange(1, length + 1) < shifts[:, :, None]] = 1.0
    return values


def _first_equal(options: np.ndarray) -> np.ndarray:
    """For the options' values (Q, G, L) of the columns (group g, k = 1 … L): each column's
    index g · L + k − 1 in that order, or the index of an earlier column with the same values
    (then the same R): the column just before it in k or in the previous group, through its
    own first equal column. (G · L,) intp; a column is solved where it is its own."""
    _, n_groups, length = options.shape
    same_group = (options[:, 1:, :] == options[:, :-1, :]).all(axis=0)  # (G − 1, L)
    same_k = (options[:, :, 1:] == options[:, :, :-1]).all(axis=0)  # (G, L − 1)
    first = np.empty((n_groups, length), dtype=np.intp)
    ks = np.arange(length)
    for g in range(n_groups):
        above = same_group[g - 1] if g else np.zeros(length, dtype=bool)
        left = np.concatenate([[False], same_k[g]]) & ~above
        source = np.maximum.accumulate(np.where(left, -1, ks))  # the last k not taken from the left
        first[g] = np.where(above[source], first[g - 1][source] if g else 0, g * length + source)
    return first.reshape(-1)


class _LastRoll(NamedTuple):
    """Where ``_last_roll`` finds each roll's options among a block's (``_option_plan``'s
    rows), for one mask (``_last_roll_plan``)."""

    zero: np.ndarray  # (Z,) the zero-point options of the free lower categories that have one
    halves: tuple  # per half (faces 1–3, 4–6) with a free face: ((56,) rows per free face, (252,) each roll's triple)
    lower: tuple  # per free lower category: (the rolls it scores on (R,), or None for all 252; their options (R,))


def _last_roll_plan(variant: Variant, spans: tuple) -> _LastRoll:
    """``_LastRoll`` of the mask whose options are ``spans`` (``_option_plan``)."""
    zero = [spans[c][0] for c in range(N_UPPER, N_CATEGORIES) if spans[c] and _score_values(variant, c)[0] == 0]
    halves = []
    for first, of_roll in ((0, ROLL_LOW_HALF), (3, ROLL_HIGH_HALF)):
        faces = [spans[first + k][0] + HALF_COUNTS[:, k] for k in range(3) if spans[first + k] is not None]
        if faces:
            halves.append((tuple(faces), of_roll))
    lower = []
    for c in range(N_UPPER, N_CATEGORIES):
        if spans[c] is not None:
            rolls, index = _scoring_rolls(variant)[c - N_UPPER]
            lower.append((None if len(rolls) == N_ROLLS else rolls, spans[c][0] + index))
    return _LastRoll(np.array(zero, dtype=np.intp), tuple(halves), tuple(lower))


def _last_roll(options: np.ndarray, plan: _LastRoll, rolls: np.ndarray, scratch: np.ndarray, parts: np.ndarray) -> None:
    """R3 into ``rolls`` (252, B): for each roll, the best of the free categories' options,
    ``options`` (Q, B) the values of ``_option_plan``'s options for B columns; ``scratch``
    (252, B) and ``parts`` (2, 56, B) are overwritten. Only maxima, so exact in any order (as
    in ``solver.turn_end_values``): the upper faces' best on the 56 count triples of faces
    1–3 and of faces 4–6, with the lower categories' zero-point options (one row: R falls
    along k, so 0 points is never better than the points a roll scores), then per roll; then
    each lower category on the rolls it scores."""
    zero = None
    if len(plan.zero):
        zero = np.maximum.reduce(options.take(plan.zero, axis=0, out=scratch[: len(plan.zero)], mode="clip"))
    for part, (faces, _) in zip(parts, plan.halves, strict=False):
        options.take(faces[0], axis=0, out=part, mode="clip")
        for rows in faces[1:]:
            np.maximum(part, options.take(rows, axis=0, out=scratch[: len(rows)], mode="clip"), out=part)
    if plan.halves:
        if zero is not None:
            np.maximum(parts[0], zero, out=parts[0])
        parts[0].take(plan.halves[0][1], axis=0, out=rolls, mode="clip")
        if len(plan.halves) == 2:
            np.maximum(rolls, parts[1].take(plan.halves[1][1], axis=0, out=scratch, mode="clip"), out=rolls)
    else:
        rolls[:] = -np.inf if zero is None else zero
    for scoring, rows in plan.lower:
        if scoring is None:
            np.maximum(rolls, options.take(rows, axis=0, out=scratch, mode="clip"), out=rolls)
        else:
            current = rolls.take(scoring, axis=0, out=scratch[: len(rows)], mode="clip")
            np.maximum(current, options.take(rows, axis=0, out=parts[0, : len(rows)], mode="clip"), out=current)
            rolls[scoring] = current


def _score_values(variant: Variant, category: int) -> np.ndarray:
    """The distinct scores of lower ``category``, ascending."""
    return distinct_scores(variant)[category - N_UPPER][0]


class _Turn:
    """This process's work buffers for blocks of ``size`` columns, with the row views of
    ``solver.turn_start``'s steps made once: ``rolls`` (252, size) takes R3, ``start_values``
    gives the value before the first roll. The same operations in the same order as
    ``turn_start`` (the same numbers), without its per-call overhead, which would outweigh
    the arithmetic on blocks small enough to stay in the L2 cache."""

    def __init__(self, size: int) -> None:
        self.keeps = np.empty((N_KEEPS, size))
        self.scratch = np.empty((N_ROLLS, size))
        self.rolls = self.keeps[ROLL_OFFSET:]
        self.parts = np.empty((2, len(HALF_COUNTS), size))  # for ``_last_roll``
        self.options = np.empty((0, size))
        self._reroll = []
        for n in range(N_DICE - 1, -1, -1):
            lo, hi = SIZE_OFFSETS[n], SIZE_OFFSETS[n + 1]
            children = [CHILD[lo:hi, f].copy() for f in range(N_FACES)]
            self._reroll.append((self.keeps[lo:hi], self.scratch[: hi - lo], children))
        self._subkeep = [(self.keeps[lo:hi], self.scratch[: hi - lo], parents) for lo, hi, parents in SUBKEEP_STEPS]

    def start_values(self) -> np.ndarray:
        """(size,) the value before the first roll from R3 in ``rolls``: rolls 2 and 1
        backwards (``dice.reroll_expectation``, then ``dice.best_subkeep``), then the mean
        over the first roll. Overwrites the buffers."""
        take, add, maximum, multiply = self.keeps.take, np.add, np.maximum, np.multiply
        for _ in range(2):
            for block, tmp, children in self._reroll:
                take(children[0], axis=0, out=block, mode="clip")
                for f in range(1, N_FACES):
                    add(block, take(children[f], axis=0, out=tmp, mode="clip"), out=block)
                multiply(block, 1.0 / N_FACES, out=block)
            for block, tmp, parents in self._subkeep:
                maximum(block, take(parents, axis=0, out=tmp, mode="clip"), out=block)
        return multiply(self.rolls, ROLL_PROBABILITY[:, None], out=self.scratch).sum(axis=0)

    def options_of(self, options: np.ndarray, columns: np.ndarray) -> np.ndarray:
        """(Q, size) the columns ``columns`` (size,) of ``options`` (Q, C), in a kept buffer."""
        if len(self.options) < len(options):
            self.options = np.empty((len(options), self.keeps.shape[1]))
        return options.take(columns, axis=1, out=self.options[: len(options)], mode="clip")


_TURNS: dict[int, _Turn] = {}  # this process's, by block size


def solve_mask(reach: np.ndarray, variant: Variant, mask: int) -> None:
    """Solve R(mask, ν, k) for every canonical ν and k into ``reach`` (``empty_reach``
    layout, C-contiguous; in place); R(mask, ν, 0) = 1. The masks with one more category
    filled must be solved.

    The columns (ν, k) are solved once per group of ν (``nu_groups``) for k = 1 … the most
    of any ν of the mask (past a ν's most, R = 0 exactly). A column whose options read the
    same values as the column before it in k or in the previous group (``_first_equal``) has
    the same R and takes it (with the groups, 40 % of a variant's columns are not solved).
    The others are solved in blocks
    of ``BLOCK`` (the last one filled up with copies of its first column): R3
    (``_last_roll``), then the rest of the turn (``_Turn.start_values``). Every step works
    on each column alone, so a column's R does not depend on its block."""
    nus = canonical_states(mask)
    firsts, group = nu_groups(mask)
    length = int(max_future_table(variant)[mask, nus].max())
    rows, shifts, spans = _option_plan(variant, mask)
    plan = _last_roll_plan(variant, spans)
    options = _option_values(reach, rows, shifts, length)
    first = _first_equal(options)
    options = options.reshape(len(rows), -1)
    solved = np.flatnonzero(first == np.arange(len(first)))
    slot = np.empty(len(first), dtype=np.intp)
    slot[solved] = np.arange(len(solved))
    turn = _TURNS.get(BLOCK) or _TURNS.setdefault(BLOCK, _Turn(BLOCK))
    values = np.empty(len(solved))
    for start in range(0, len(solved), BLOCK):
        columns = solved[start : start + BLOCK]
        size = len(columns)
        if size < BLOCK:
            columns = np.concatenate([columns, np.full(BLOCK - size, columns[0])])
        _last_roll(turn.options_of(options, columns), plan, turn.rolls, turn.scratch, turn.parts)
        values[start : start + size] = turn.start_values()[:size]
    reach[mask, nus, 0] = 1.0
    reach[mask, nus[:, None], np.arange(1, length + 1)] = values[slot[first]].reshape(len(firsts), length)[group]


def lookup(reach: np.ndarray, mask: int, nu: int, need: int) -> float:
    """R(mask, ν, need) from a solved work array: any ν (made canonical), any need."""
    canonical = int(canonical_nu(np.array([mask]), np.array([nu]))[0])
    return float(reach[mask, canonical, min(max(need, 0), reach.shape[2] - 1)])


@cache
def max_future_table(variant: Variant) -> np.ndarray:
    """(4096, 64) ``outcome.max_future`` of every state of ``variant`` (read-only)."""
    below, at = (np.array([max_future(variant, m, nu) for m in range(N_MASKS)]) for nu in (0, BONUS_THRESHOLD))
    most = np.where(np.arange(N_NU) < BONUS_THRESHOLD, below[:, None], at[:, None])
    most.flags.writeable = False
    return most
