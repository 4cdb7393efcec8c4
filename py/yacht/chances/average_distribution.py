"""The final-score distribution from a position under the advisor's play (the best average):
exact up to ``outcome.EXACT_FREE`` free categories, else simulated (labelled, with its standard
error); ``"play": "average"``. (Under the goal's play: ``goal.goal_distribution``; with t= beyond
that: ``reach_play``.) Standing in for a goal's (o=, t=), it says why (``goal_chart``).
"""

from __future__ import annotations

from typing import Final

import numpy as np

from ..core.dice import roll_index
from ..core.options import advise, sheet_state
from ..core.position import Position, free_categories
from ..core.steps import Steps, finish
from .opponent import OPPONENT_EXACT_FREE
from .outcome import EXACT_FREE as EXACT_DISTRIBUTION_FREE
from .outcome import Distribution, option_vector, solve_outcome_steps
from .reach_play import REACH_PLAY_FREE
from .simulate import ByteDice, expected_play_steps
from .winning import EXACT_FREE as GOAL_EXACT_FREE

SIMULATED_GAMES: Final = 10_000
"""Games simulated for a distribution outside the exact range."""


def distribution(position: Position, tilde: np.ndarray, rng: np.random.Generator | ByteDice | None = None) -> dict:
    """The final-score distribution from the position under the advisor's play (its best
    option): ``{"from", "p", "bonus", "expected", "exact"}`` (``Distribution.to_json``).
    Exact up to ``outcome.EXACT_FREE`` free categories; beyond, ``SIMULATED_GAMES``
    simulated games (``rng``, default ``simulate.ByteDice`` seeded by the sheet's state
    mask · 64 + ν: the same games in CPython and in the page), with ``"games"`` and
    ``"standard_error"``: the largest standard error of one ``p`` entry. With o= or t=, also
    ``"goal_chart"`` (``goal_chart``)."""
    return finish(distribution_steps(position, tilde, rng))


def distribution_steps(
    position: Position, tilde: np.ndarray, rng: np.random.Generator | ByteDice | None = None
) -> Steps[dict]:
    """``distribution`` in steps (``core.steps``)."""
    found = yield from _distribution(position, tilde, rng)
    chart = goal_chart(position)
    return found if chart is None else {**found, "goal_chart": chart}


def goal_chart(position: Position) -> dict | None:
    """Why the best average's law stands for a position with a goal (o= or t=; None without one,
    or over): the goal's own law (``goal.goal_distribution``, exact, up to ``winning.EXACT_FREE``
    free categories of mine and ``opponent.OPPONENT_EXACT_FREE`` of the rival's; with t= and its
    chunks ``reach_play``, up to ``REACH_PLAY_FREE``) is drawn only within them.
    ``{"reason": "free", "free": n}`` (o= adds ``"opponent_free": m``): the position has more free
    categories than n (or m); ``{"reason": "files", "free": n}`` (t=): within them, so the reach
    chunks were not held (its caller could not fetch them, or holds none)."""
    if (position.opponent is None and position.target is None) or position.is_over:
        return None
    if position.opponent is not None:
        return {"reason": "free", "free": GOAL_EXACT_FREE, "opponent_free": OPPONENT_EXACT_FREE}
    reason = "free" if free_categories(position.sheet) > REACH_PLAY_FREE else "files"
    return {"reason": reason, "free": REACH_PLAY_FREE}


def _distribution(position: Position, tilde: np.ndarray, rng: np.random.Generator | ByteDice | None) -> Steps[dict]:
    """``distribution``'s law (without ``"goal_chart"``), in steps."""
    mask, nu, sigma = sheet_state(position.sheet)
    rolled = position.roll > 0 and position.dice is not None and not position.is_over
    if free_categories(position.sheet) > EXACT_DISTRIBUTION_FREE:
        rng = rng or ByteDice(mask * 64 + nu)
        start = (position.roll, roll_index(position.dice)) if rolled else None
        points, bonus = yield from expected_play_steps(tilde, position.variant, mask, nu, SIMULATED_GAMES, rng, start)
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
    outcome = yield from solve_outcome_steps(tilde, position.variant, mask, nu, sigma)
    if not rolled:
        vector = outcome.root.start[0]
    else:
        best = advise(position, tilde).options[0]
        vector = option_vector(outcome, position.roll, position.dice, best.keep, best.category)
    final = outcome.final(vector)
    return {**final.to_json(), "expected": final.expected, "exact": True, "play": "average"}
