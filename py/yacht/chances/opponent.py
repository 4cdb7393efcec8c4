"""The opponent's final-score law against which a chance of winning (``o=``) is counted, and
the chance of winning once my sheet is full and only the opponent's turns are to come.

``opponent_law``: their distribution under optimal-expected play from their sheet, solved
exactly up to ``OPPONENT_EXACT_FREE`` free categories; beyond, read from the law chunk of their
mask (exact too; without them, its curve rebuilt from the quantiles file) or, without either, a
normal law from the spread table (``required_spread``).
"""

from collections.abc import Callable
from typing import Final

import numpy as np

from ..core.options import sheet_state
from ..core.position import GoalUnavailable, Position, free_categories
from ..core.rules import Variant
from .outcome import Distribution, canonical_nu, max_future, solve_outcome
from .quantiles import EstimatedReach
from .reach_table import Reach
from .winning import normal_points

OPPONENT_EXACT_FREE: Final = 4
"""The most free categories of the opponent's for which their distribution is solved here (time);
beyond, it is read from the law chunk of their mask (exact too) or, without chunks, approximated."""


def required_spread(spread: Callable[[], np.ndarray] | None, field: str) -> np.ndarray:
    """The spread table (``spread()``), which a chance outside the exact range without chunks
    needs; ``GoalUnavailable`` on ``field`` when none is loaded."""
    if spread is None:
        raise GoalUnavailable(field, "outside the exact range the chance needs the spread table, and none is loaded")
    return spread()


def last_turns_chance(position: Position, tilde: np.ndarray) -> dict | None:
    """With my sheet full and the opponent's not (their last turn to come, or turns): the chance
    of winning as those turns go, under their best-expected play from their sheet (exact: their
    law is solved, at most ``OPPONENT_EXACT_FREE`` free categories; ``None`` beyond, or when the
    game is not at that point). ``{"win", "draw", "chance"}``, chance = win + draw/2."""
    theirs = position.opponent
    if theirs is None or not position.is_over or None not in theirs or free_categories(theirs) > OPPONENT_EXACT_FREE:
        return None
    mine = sheet_state(position.sheet)[2]
    mask, nu, sigma = sheet_state(theirs)
    law, _ = opponent_law(tilde, None, position.variant, mask, nu, sigma)
    finals = law.score + np.arange(len(law.points))
    win = float(law.points[finals < mine].sum())
    draw = float(law.points[finals == mine].sum())
    return {"win": win, "draw": draw, "chance": win + draw / 2}


def opponent_law(
    tilde: np.ndarray,
    spread: Callable[[], np.ndarray] | None,
    variant: Variant,
    mask: int,
    nu: int,
    sigma: int,
    exact_free: int = OPPONENT_EXACT_FREE,
    memo: dict[tuple[int, int], Distribution] | None = None,
    chunks: Reach | None = None,
) -> tuple[Distribution, bool]:
    """The opponent's final-score distribution under optimal-expected play from their state
    (roll 0), and whether it is exact: solved up to ``exact_free`` free categories; beyond,
    read from the law chunk of their mask (``chunks``: exact to 7.7e-6 a point; not exact when
    they are ``quantiles.EstimatedReach``'s rebuilt curves) or, without chunks, a normal law of
    their future points (mean Ẽ, sd from the spread table) on whole points. ``memo``: the laws
    of future points already found, for a caller that asks about many sheets of one variant,
    table and ``exact_free``: by (mask, canonical ν) in the exact range (every state an exact
    solve passes is kept), else by (mask, ν)."""
    solved = 12 - bin(mask).count("1") <= exact_free
    memo = {} if memo is None else memo
    key = (mask, int(canonical_nu(np.array([mask]), np.array([nu]))[0])) if solved else (mask, nu)
    if key not in memo:
        most = max_future(variant, mask, nu)
        if solved:
            solve_outcome(tilde, variant, mask, nu, 0, memo)
        elif chunks is not None:
            chance = chunks({"law": [mask]})["law"][mask].at(np.array(nu), np.arange(most + 2))
            memo[key] = Distribution(0, np.maximum(chance[:-1] - chance[1:], 0.0), float("nan"))
        else:
            sd = required_spread(spread, "o")
            memo[key] = Distribution(0, normal_points(float(tilde[mask, nu]), float(sd[mask, nu]), most), float("nan"))
    law = memo[key]
    exact = solved or (chunks is not None and not isinstance(chunks, EstimatedReach))
    return Distribution(sigma, law.points, law.bonus), exact
