"""The advisor's choice of keep (``policy.first_best_keep``) against its definition, read roll by roll."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from yacht.core.dice import N_KEEPS, N_ROLLS, ROLL_DICE, subkeeps
from yacht.core.policy import SUBKEEP_ORDER, first_best_keep


def _first_best_by_definition(keep_values: np.ndarray) -> np.ndarray:
    """(252, B): per roll and state, the first of the roll's ``subkeeps`` whose value is the
    largest, NaN never the largest; keep 0 where none is above −inf."""
    choice = np.zeros((N_ROLLS, keep_values.shape[1]), dtype=np.intp)
    for roll, dice in enumerate(ROLL_DICE):
        for state in range(keep_values.shape[1]):
            best = -np.inf
            for keep in subkeeps(dice):
                if keep_values[keep, state] > best:
                    best, choice[roll, state] = keep_values[keep, state], keep
    return choice


def test_every_roll_searches_its_sub_keeps_in_the_advisors_order_none_kept_first():
    assert (SUBKEEP_ORDER[:, 0] == 0).all()
    for roll, dice in enumerate(ROLL_DICE):
        keeps = subkeeps(dice)
        assert SUBKEEP_ORDER[roll, : len(keeps)].tolist() == keeps
        assert (SUBKEEP_ORDER[roll, len(keeps) :] == keeps[-1]).all()


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_states=st.integers(1, 9),
    levels=st.integers(1, 4),
    holes=st.sampled_from([0.0, 0.1, 0.5, 1.0]),
)
def test_the_first_best_keep_is_the_first_largest_value_in_the_roll_order_ties_nan_and_minus_inf_included(
    seed, n_states, levels, holes
):
    # Few distinct values make ties everywhere; holes put −inf and NaN in (all of them at 1.0).
    rng = np.random.default_rng(seed)
    values = rng.integers(0, levels, (N_KEEPS, n_states)).astype(float)
    values[rng.random(values.shape) < holes / 2] = -np.inf
    values[rng.random(values.shape) < holes / 2] = np.nan
    assert np.array_equal(first_best_keep(values), _first_best_by_definition(values))


def test_a_batch_chooses_for_each_state_what_it_chooses_alone():
    rng = np.random.default_rng(7)
    values = np.round(rng.random((N_KEEPS, 300)), 2)  # ties between distinct keeps
    together = first_best_keep(values)
    assert all(np.array_equal(together[:, [i]], first_best_keep(values[:, [i]])) for i in range(0, 300, 37))
    assert np.array_equal(together[:, :3], _first_best_by_definition(values[:, :3]))
