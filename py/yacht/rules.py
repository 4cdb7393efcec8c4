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

from dataclasses import dataclass
from functools import cache
from typing import Final

import numpy as np

from .categories import N_CATEGORIES
from .dice import N_FACES, ROLL_COUNTS

S_STRAIGHT_POINTS: Final = 15
B_STRAIGHT_POINTS: Final = 30
YACHT_POINTS: Final = 50


@dataclass(frozen=True)
class Variant:
    """A rule variant. ``name`` is the one used in file names and ``v=``."""

    name: str
    yacht_is_full_house: bool


OFFICIAL: Final = Variant("official", yacht_is_full_house=True)
STRICT: Final = Variant("strict", yacht_is_full_house=False)
VARIANTS: Final = {v.name: v for v in (OFFICIAL, STRICT)}
DEFAULT_VARIANT: Final = OFFICIAL


def score(counts: np.ndarray, category: int, variant: Variant) -> int:
    """Points that five dice (``counts``: dice per face, shape (6,)) score in ``category``."""
    faces = np.arange(1, N_FACES + 1)
    total = int(counts @ faces)
    if category < N_FACES:
        return int(counts[category]) * (category + 1)
    most = int(counts.max())
    present = counts > 0
    runs = [int(present[i : i + n].all()) for n in (4, 5) for i in range(N_FACES - n + 1)]
    if category == 6:
        return total
    if category == 7:
        return total if most >= 4 else 0
    if category == 8:
        shape = sorted(int(c) for c in counts if c)
        if shape == [2, 3] or (variant.yacht_is_full_house and shape == [5]):
            return total
        return 0
    if category == 9:
        return S_STRAIGHT_POINTS if any(runs[:3]) else 0
    if category == 10:
        return B_STRAIGHT_POINTS if any(runs[3:]) else 0
    if category == 11:
        return YACHT_POINTS if most == 5 else 0
    raise ValueError(f"category must be 0–11, got {category}")


@cache
def score_table(variant: Variant) -> np.ndarray:
    """(252, 12) int64: points of each roll (dice.py order) in each category."""
    table = np.array(
        [[score(c, cat, variant) for cat in range(N_CATEGORIES)] for c in ROLL_COUNTS],
        dtype=np.int64,
    )
    table.flags.writeable = False
    return table


@cache
def possible_scores(variant: Variant) -> tuple[tuple[int, ...], ...]:
    """For each category, the ascending values some roll can score there (Im σ_c)."""
    table = score_table(variant)
    return tuple(tuple(int(v) for v in np.unique(table[:, c])) for c in range(N_CATEGORIES))
