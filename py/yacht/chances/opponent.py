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
from ..core.table_kinds import Unavailable
from .outcome import Distribution, canonical_nu, max_future, solve_outcome
from .quantiles import ESTIMATED
from .reach_table import Chunk, Reach
from .winning import normal_points

OPPONENT_EXACT_FREE: Final = 4
"""The most free categories of the opponent's for which their distribution is solved here (time);
beyond, it is read from the law chunk of their mask (exact too) or, without chunks, approximated."""


def required_spread(spread: Callable[[], np.ndarray] | None, field: str) -> np.ndarray:
    """The spread table (``spread()``), which a chance outside the exact range without chunks
    needs; ``GoalUnavailable`` on ``field`` when none is loaded."""
    try:
        if spread is not None:
            return spread()
    except Unavailable:
        pass  # its caller could not fetch it now: recorded by the loader
    raise GoalUnavailable(field, "outside the exact range the chance needs the spread table, and none is loaded")


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
    memo: dict[tuple, Distribution] | None = None,
    chunks: Reach | None = None,
) -> tuple[Distribution, bool | str]:
    """The opponent's final-score distribution under optimal-expected play from their state
    (roll 0), and whether it is exact: solved up to ``exact_free`` free categories; beyond,
    read from the law chunk of their mask (``chunks``: exact to 7.7e-6 a point) or, where its
    caller could not fetch it now (``table_kinds.Unavailable``), its curve rebuilt from the
    quantiles file (``quantiles.ESTIMATED``, the second value then), or without either a normal
    law of their future points (mean Ẽ, sd from the spread table) on whole points. ``memo``: the
    laws of future points already found, for a caller that asks about many sheets of one
    variant, table and ``exact_free``: by (mask, canonical ν) in the exact range (every state an
    exact solve passes is kept), else by (mask, ν); the estimates apart, by (mask, ν, how)."""
    memo = {} if memo is None else memo
    if 12 - bin(mask).count("1") <= exact_free:
        key = (mask, int(canonical_nu(np.array([mask]), np.array([nu]))[0]))
        if key not in memo:
            solve_outcome(tilde, variant, mask, nu, 0, memo)
        return Distribution(sigma, memo[key].points, memo[key].bonus), True
    most = max_future(variant, mask, nu)
    if (mask, nu) not in memo and chunks is not None:
        found, how = _law_chunk(chunks, mask)
        if found is not None:
            chance = found.at(np.array(nu), np.arange(most + 2))
            memo[(mask, nu) if how is True else (mask, nu, how)] = Distribution(
                0, np.maximum(chance[:-1] - chance[1:], 0.0), float("nan")
            )
    for key, how in (((mask, nu), True), ((mask, nu, ESTIMATED), ESTIMATED)):
        if key in memo:
            return Distribution(sigma, memo[key].points, float("nan")), how
    # the normal law, kept apart from the exact ones: a later call may read the chunk
    if (mask, nu, "normal") not in memo:
        sd = required_spread(spread, "o")
        points = normal_points(float(tilde[mask, nu]), float(sd[mask, nu]), most)
        memo[mask, nu, "normal"] = Distribution(0, points, float("nan"))
    return Distribution(sigma, memo[mask, nu, "normal"].points, float("nan")), False


def _law_chunk(chunks: Reach, mask: int) -> tuple[Chunk | None, bool | str]:
    """(the law chunk of ``mask``, True), or where its caller could not fetch it now
    (``table_kinds.Unavailable``) (its curve rebuilt from the quantiles file, ``ESTIMATED``),
    or (None, False) without that either."""
    try:
        return chunks({"law": [mask]})["law"][mask], True
    except Unavailable as error:
        found = error.stand_in_for()
        return (found["law"][mask], ESTIMATED) if found is not None else (None, False)
