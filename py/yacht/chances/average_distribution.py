"""The final-score distribution from a position under the advisor's play (the best average):
exact up to ``outcome.EXACT_FREE`` free categories, else simulated (labelled, with its standard
error); ``"play": "average"``. (Under the goal's play: ``goal.goal_distribution``; with t= beyond
that: ``reach_play``.)
"""

from __future__ import annotations

from typing import Final

import numpy as np

from ..core.dice import roll_index
from ..core.options import advise, sheet_state
from ..core.position import Position, free_categories
from .outcome import EXACT_FREE as EXACT_DISTRIBUTION_FREE
from .outcome import Distribution, option_vector, solve_outcome
from .simulate import ByteDice, expected_play

SIMULATED_GAMES: Final = 10_000
"""Games simulated for a distribution outside the exact range."""


def distribution(position: Position, tilde: np.ndarray, rng: np.random.Generator | ByteDice | None = None) -> dict:
    """The final-score distribution from the position under the advisor's play (its best
    option): ``{"from", "p", "bonus", "expected", "exact"}`` (``Distribution.to_json``).
    Exact up to ``outcome.EXACT_FREE`` free categories; beyond, ``SIMULATED_GAMES``
    simulated games (``rng``, default ``simulate.ByteDice`` seeded by the sheet's state
    mask · 64 + ν: the same games in CPython and in the page), with ``"games"`` and
    ``"standard_error"``: the largest standard error of one ``p`` entry."""
    mask, nu, sigma = sheet_state(position.sheet)
    rolled = position.roll > 0 and position.dice is not None and not position.is_over
    if free_categories(position.sheet) > EXACT_DISTRIBUTION_FREE:
        rng = rng or ByteDice(mask * 64 + nu)
        start = (position.roll, roll_index(position.dice)) if rolled else None
        points, bonus = expected_play(tilde, position.variant, mask, nu, SIMULATED_GAMES, rng, start)
        chances = np.bincount(points.astype(np.intp)) / SIMULATED_GAMES  # intp: int32 in Pyodide
        final = Distribution(sigma, chances, float(bonus.mean()))
        error = float(np.sqrt(chances * (1 - chances) / SIMULATED_GAMES).max())
        return {
            **final.to_json(),
            "expected": final.expected,
            "exact": False,
            "games": SIMULATED_GAMES,
            "standard_error": error,
            "play": "average",
        }
    outcome = solve_outcome(tilde, position.variant, mask, nu, sigma)
    if not rolled:
        vector = outcome.root.start[0]
    else:
        best = advise(position, tilde).options[0]
        vector = option_vector(outcome, position.roll, position.dice, best.keep, best.category)
    final = outcome.final(vector)
    return {**final.to_json(), "expected": final.expected, "exact": True, "play": "average"}
