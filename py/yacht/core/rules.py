"""Scoring rules, as data: one score table per rule variant.

Variants:
    official  as in Clubhouse Games: five of a kind also counts as a Full House
              (scoring the dice sum).
    strict    a Full House needs three of one face and two of another.

Both: Aces–Sixes score the sum of that face; Choice the sum of all dice; Four
Dice the sum of all dice when four or more show one face; S.Straight 15 when
four consecutive faces appear; B.Straight 30 for five consecutive faces;
Yacht 50 for five of a kind. A category whose condition fails scores 0.
"""

from functools import cache
from typing import Final, NamedTuple

import numpy as np

from .categories import N_CATEGORIES
from .dice import N_FACES, ROLL_COUNTS

S_STRAIGHT_POINTS: Final = 15
B_STRAIGHT_POINTS: Final = 30
YACHT_POINTS: Final = 50


class Variant(NamedTuple):
    """A rule variant. ``name`` is the one used in file names and ``v=``. (A NamedTuple, as are
    the other values the first answer builds, so the page's worker does not import dataclasses
    before its first answer.)"""

    name: str
    yacht_is_full_house: bool


OFFICIAL: Final = Variant("official", yacht_is_full_house=True)
STRICT: Final = Variant("strict", yacht_is_full_house=False)
VARIANTS: Final = {v.name: v for v in (OFFICIAL, STRICT)}
DEFAULT_VARIANT: Final = OFFICIAL


def scores_of(counts: np.ndarray, variant: Variant) -> np.ndarray:
    """Points of five dice in every category: ``counts`` (N, 6) dice per face
    → (N, 12) int64, category order."""
    counts = np.asarray(counts, dtype=np.int64).reshape(-1, N_FACES)
    total = counts @ np.arange(1, N_FACES + 1)
    most = counts.max(axis=1)
    present = counts > 0
    runs4 = np.zeros(len(counts), dtype=bool)
    for start in range(N_FACES - 3):
        runs4 |= present[:, start : start + 4].all(axis=1)
    runs5 = present[:, 0:5].all(axis=1) | present[:, 1:6].all(axis=1)
    pair_and_triple = (counts == 3).any(axis=1) & (counts == 2).any(axis=1)
    full_house = pair_and_triple | ((most == 5) & variant.yacht_is_full_house)
    out = np.empty((len(counts), N_CATEGORIES), dtype=np.int64)
    out[:, :N_FACES] = counts * np.arange(1, N_FACES + 1)
    out[:, 6] = total
    out[:, 7] = np.where(most >= 4, total, 0)
    out[:, 8] = np.where(full_house, total, 0)
    out[:, 9] = np.where(runs4, S_STRAIGHT_POINTS, 0)
    out[:, 10] = np.where(runs5, B_STRAIGHT_POINTS, 0)
    out[:, 11] = np.where(most == 5, YACHT_POINTS, 0)
    return out


@cache
def score_table(variant: Variant) -> np.ndarray:
    """(252, 12) int64: points of each roll (dice.py order) in each category."""
    table = scores_of(ROLL_COUNTS, variant)
    table.flags.writeable = False
    return table


@cache
def possible_scores(variant: Variant) -> tuple[tuple[int, ...], ...]:
    """For each category, the ascending values some roll can score there (Im σ_c)."""
    table = score_table(variant)
    return tuple(tuple(int(v) for v in np.unique(table[:, c])) for c in range(N_CATEGORIES))
