"""Positions with a goal (o= or t=) from every stage of a game, generated from a seed: both
sheets played by the advisor's choices (real scores, not random ones), the turn order kept,
the target near where the game is heading. What the tests of the core's order compare the
page against (``tests/browser/test_core_order.py``) and check in CPython (``test_ranking.py``)."""

import numpy as np
from strategies import play_game
from yacht.core.categories import N_CATEGORIES
from yacht.core.options import advise
from yacht.core.position import Position, format_query
from yacht.core.rules import VARIANTS
from yacht.play.game import replay


def goal_positions(tildes: dict, count: int, seed: int) -> list[str]:
    """``count`` canonical position queries with a goal: variants alternate, free categories of
    mine cycle through 12 … 1 (a pair of positions each), o= and t= take turns so that every 48
    positions hold each (free count, variant, goal) once, rolls 1–3 drawn; ``tildes``: variant
    name → its Ẽ (4096, 64)."""
    rng = np.random.default_rng(seed)
    queries = []
    for i in range(count):
        variant = VARIANTS[("official", "strict")[i % 2]]
        tilde = tildes[variant.name]
        free = N_CATEGORIES - (i // 2) % N_CATEGORIES
        mine = _sheet(tilde, variant, rng, N_CATEGORIES - free)
        dice = tuple(int(x) for x in rng.integers(1, 7, 5))
        roll = 1 + int(rng.integers(0, 3))
        opponent, target = None, None
        if (i // 2 + i // 24) % 2 == 0:
            theirs = min(N_CATEGORIES, N_CATEGORIES - free + int(rng.integers(0, 2)))
            opponent = _sheet(tilde, variant, rng, theirs)
        else:
            heading = advise(Position(mine, None, 0, variant), tilde).expected
            target = int(np.clip(round(heading + rng.normal(0, 25)), 0, 999))
        queries.append(format_query(Position(mine, dice, roll, variant, opponent, target)))
    return queries


def _sheet(tilde: np.ndarray, variant, rng: np.random.Generator, filled: int) -> tuple[int | None, ...]:
    """A sheet of ``filled`` categories played by the advisor with dice from ``rng``."""
    game = play_game(tilde, variant, rng, turns=filled)
    return replay(game)[1].sheet
