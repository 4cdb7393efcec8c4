"""The advisor's play (optimal expected score) as arrays, for batches of states,
and the successor of a state after scoring a category.

A *policy* for a batch of B states (``masks``, ``nus``, each (B,)) is three
(252, B) integer arrays, indexed [roll τ, state]:

``category``  the category scored after the third roll τ;
``keep2``     the keep index (``dice`` order) chosen after the second roll τ;
``keep1``     the same after the first roll.

A keep of all five dice (index ≥ ``ROLL_OFFSET``) means stopping to score now
with ``category[τ]``. The choices are the advisor's: the best Ẽ-based value,
ties broken as the advisor breaks them (the lowest category index; the first
keep in ``subkeeps`` order). Values are compared without the sheet's score σ,
so the play depends on the state (mask, ν), the roll and the dice only.
"""

from typing import Final, NamedTuple

import numpy as np

from .categories import BONUS_POINTS, BONUS_THRESHOLD, N_CATEGORIES, N_UPPER
from .dice import N_ROLLS, ROLL_COUNTS, ROLL_DICE, ROLL_OFFSET, keeps_from_rolls, reroll_expectation, subkeeps
from .solver import category_values


def _subkeep_order() -> np.ndarray:
    """(252, 32) keep indices of each roll's sub-keeps in ``subkeeps`` order,
    padded by repeating the last (so a first-max search is unchanged)."""
    rows = []
    for dice in ROLL_DICE:
        keeps = subkeeps(dice)
        rows.append(keeps + [keeps[-1]] * (32 - len(keeps)))
    return np.array(rows, dtype=np.intp)


SUBKEEP_ORDER: Final = _subkeep_order()
"""(252, 32): the advisor's order of the options of each roll (none kept … all kept)."""


def _search_plan() -> tuple[np.ndarray, tuple[tuple[np.ndarray, np.ndarray], ...]]:
    """``first_best_keep``'s plan: the rolls by their number of sub-keeps, most first (stable), and
    per place j ≥ 1 in ``SUBKEEP_ORDER`` the j-th sub-keep of the rolls that have more than j,
    as rows (n_j,) and as a column (n_j, 1): a prefix of that order (the padding is never read)."""
    counts = np.prod(ROLL_COUNTS + 1, axis=1)  # a sub-keep holds 0 … n of each face shown n times
    rolls = np.argsort(-counts, kind="stable")
    order = SUBKEEP_ORDER[rolls]
    places = []
    for j in range(1, SUBKEEP_ORDER.shape[1]):
        keeps = order[: int((counts > j).sum()), j].copy()
        places.append((keeps, keeps[:, None].copy()))
    return rolls, tuple(places)


_SEARCH_ROLLS, _SEARCH_PLACES = _search_plan()


class Policy(NamedTuple):
    category: np.ndarray
    keep2: np.ndarray
    keep1: np.ndarray


def category_table(tilde: np.ndarray, scores: np.ndarray, masks: np.ndarray, nus: np.ndarray) -> np.ndarray:
    """(12, 252, B) Ẽ'3 of every category, roll and state; -inf where filled."""
    return np.stack([category_values(tilde, scores, masks, nus, c) for c in range(N_CATEGORIES)])


def first_best_keep(keep_values: np.ndarray) -> np.ndarray:
    """(252, B) the first keep in ``SUBKEEP_ORDER`` with the largest value (a NaN is never
    the largest; where every value is −inf or NaN, keep 0: none kept).

    ``keep_values``: (462, B), a value per keep and state (not changed). A running strict max
    along each roll's sub-keeps in their order; the rolls are searched with most sub-keeps first
    (``_search_plan``), so that place j reads only the rolls that have a j-th (4,368 of
    252 × 32 rows)."""
    n_states = keep_values.shape[1]
    first = np.where(keep_values[0] > -np.inf, keep_values[0], -np.inf)  # place 0: the empty keep, 0
    best = np.broadcast_to(first, (N_ROLLS, n_states)).copy()
    choice = np.zeros((N_ROLLS, n_states), dtype=np.intp)
    values = np.empty_like(best)
    better = np.empty(best.shape, dtype=bool)
    for keeps, column in _SEARCH_PLACES:
        n = len(keeps)
        keep_values.take(keeps, axis=0, out=values[:n], mode="clip")
        np.greater(values[:n], best[:n], out=better[:n])
        np.copyto(best[:n], values[:n], where=better[:n])
        np.copyto(choice[:n], column, where=better[:n])
    out = np.empty_like(choice)
    out[_SEARCH_ROLLS] = choice
    return out


def expected_policy(tilde: np.ndarray, scores: np.ndarray, masks: np.ndarray, nus: np.ndarray) -> Policy:
    """The advisor's choices for every roll of a batch of states (see the module docstring)."""
    by_category = category_table(tilde, scores, masks, nus)
    category = by_category.argmax(axis=0)
    e3 = by_category.max(axis=0)
    keeps = reroll_expectation(keeps_from_rolls(e3))  # E'2 of every keep; rolls hold E3 (stop)
    keep2 = first_best_keep(keeps)
    e2 = np.take_along_axis(keeps, keep2, axis=0)
    keeps = reroll_expectation(keeps_from_rolls(e2))  # E'1; keeping all five is stopping: E3
    keeps[ROLL_OFFSET:] = e3
    keep1 = first_best_keep(keeps)
    return Policy(category, keep2, keep1)


def successor(
    scores: np.ndarray, masks: np.ndarray, nus: np.ndarray, category: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """After scoring ``category`` (an int array broadcastable with (252, B), e.g.
    ``Policy.category``) for every roll τ: ``(mask', ν', gain)``, each (252, B);
    gain = the points plus 35 when they lift ν to 63."""
    category = np.broadcast_to(category, (N_ROLLS, len(masks)))
    points = np.take_along_axis(scores, category, axis=1)
    upper = category < N_UPPER
    nus_after = np.where(upper, np.minimum(nus + points, BONUS_THRESHOLD), nus)
    bonus = np.where(upper & (nus < BONUS_THRESHOLD) & (nus_after == BONUS_THRESHOLD), BONUS_POINTS, 0)
    return masks | (1 << category), nus_after, points + bonus
