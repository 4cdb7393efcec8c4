"""The solve against the seeds' golden values, and its internal consistency."""

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from yacht.core import solver
from yacht.core.categories import FULL_MASK
from yacht.core.rules import OFFICIAL, STRICT, score_table
from yacht.core.states import REACHABLE, states_with_filled

from build_table.solve import solve

EXACT_OFFICIAL = Fraction(
    13016843164781134911577847485373669410583272579736395462208071768435842671487294870976987471456569489783095557501482949120609571264927,
    67875823134619594730407653673318155404265238604384965333372979438895032016829720226590246561116620399665156181673853449412452286464,
)
# Seed 003: one category left, no bonus in reach (printed there cut after 5 decimals).
LAST_TURN = {
    0: 2.10648,
    1: 4.21296,
    2: 6.31944,
    3: 8.42592,
    4: 10.53240,
    5: 12.63888,
    6: 70 / 3,  # printed as 23.333… (≈ 70/3)
    7: 5.61126,
    8: 7.01355,
    9: 9.23163,
    10: 7.83285,
    11: 2.30143,
}
# Seed 003: the bonus's expected value when the last category is an upper one
# and k more dice of its face reach 63.
BONUS_BY_DICE_SHORT = {1: 32.72830, 2: 24.45935, 3: 12.41974, 4: 3.65492, 5: 0.46452}
BONUS_TABLE = {  # seed 003's per-category totals, rounded to 2 decimals
    0: (34.83, 26.57, 14.53, 5.76, 2.57),
    5: (45.37, 37.10, 25.06, 16.29, 13.10),
}


def test_empty_sheet_official_matches_the_exact_fraction(solved):
    assert float(EXACT_OFFICIAL) == pytest.approx(191.774369188342, abs=1e-12)
    assert solved["official"][0, 0] == pytest.approx(float(EXACT_OFFICIAL), abs=1e-9)


def test_empty_sheet_strict(solved):
    assert solved["strict"][0, 0] == pytest.approx(191.760879752165, abs=1e-9)


def test_last_turn_values_without_bonus_match_seed_003(solved):
    tilde = solved["official"]
    for c, value in LAST_TURN.items():
        assert tilde[FULL_MASK ^ (1 << c), 0] == pytest.approx(value, abs=1e-5), c
    assert tilde[FULL_MASK ^ 1, 0] == pytest.approx(455 / 216, abs=1e-12)
    assert tilde[FULL_MASK ^ (1 << 6), 0] == pytest.approx(70 / 3, abs=1e-12)


def test_last_turn_bonus_values_match_seed_003(solved):
    tilde = solved["official"]
    for c in range(6):
        face = c + 1
        for short, bonus in BONUS_BY_DICE_SHORT.items():
            nu = 63 - face * short
            assert REACHABLE[FULL_MASK ^ (1 << c), nu]
            assert tilde[FULL_MASK ^ (1 << c), nu] - tilde[FULL_MASK ^ (1 << c), 0] == pytest.approx(bonus, abs=1e-5)
    for c, row in BONUS_TABLE.items():
        for short, total in enumerate(row, 1):
            assert tilde[FULL_MASK ^ (1 << c), 63 - (c + 1) * short] == pytest.approx(total, abs=0.005)


def test_strict_full_house_last_turn_is_lower_than_official(solved):
    mask = FULL_MASK ^ (1 << 8)
    assert solved["strict"][mask, 0] < solved["official"][mask, 0]
    assert solved["strict"][mask ^ (1 << 11), 0] <= solved["official"][mask ^ (1 << 11), 0]


def test_exactly_the_reachable_states_are_solved(solved):
    for tilde in solved.values():
        assert np.array_equal(~np.isnan(tilde), REACHABLE)
        assert (tilde[REACHABLE] >= 0).all()


def test_value_never_decreases_with_more_upper_points(solved):
    """A higher capped upper total can only help (same filled categories).

    Ẽ leaves out the bonus already earned, so it is added back at ν = 63.
    """
    tilde = solved["official"]
    with_bonus = tilde + np.where(np.arange(64) == 63, 35.0, 0.0)
    for mask in range(FULL_MASK):
        values = with_bonus[mask][REACHABLE[mask]]
        assert (np.diff(values) >= -1e-9).all(), mask


@pytest.mark.parametrize("n_filled", [0, 3, 6, 9, 11])
def test_fast_turn_end_equals_max_over_categories(solved, n_filled):
    masks, nus = states_with_filled(n_filled)
    masks, nus = masks[:400], nus[:400]
    for name, variant in (("official", OFFICIAL), ("strict", STRICT)):
        scores = score_table(variant)
        fast = solver.turn_end_values(solved[name], scores, masks, nus)
        plain = np.max([solver.category_values(solved[name], scores, masks, nus, c) for c in range(12)], axis=0)
        np.testing.assert_array_equal(fast, plain)


def test_core_solver_holds_no_process_orchestration():
    """The core is the per-batch mathematics: forking, shared memory and pools live in build_table."""
    source = Path(solver.__file__).read_text()
    for word in ("multiprocessing", "mmap", "fork", "Pool"):
        assert word not in source, word


def test_forked_solve_equals_one_process_chunk_by_chunk(solved):
    """build_table.solve with two forked workers gives exactly the chunk-by-chunk core solve."""
    tilde = solver.empty_table()
    scores = score_table(OFFICIAL)
    for n_filled in range(11, -1, -1):
        for start in range(0, len(states_with_filled(n_filled)[0]), solver.CHUNK):
            solver.solve_chunk(tilde, scores, n_filled, start)
    assert np.array_equal(tilde, solve(OFFICIAL, workers=2), equal_nan=True)
    assert np.array_equal(tilde, solved["official"], equal_nan=True)
