"""The 252 rolls, 462 keeps and the reroll operators."""

from itertools import product
from math import factorial

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import dice as five_dice
from yacht.core import dice


def test_counts_of_rolls_and_keeps_are_the_known_ones():
    assert dice.N_ROLLS == 252
    assert dice.N_KEEPS == 462
    assert dice.SIZE_OFFSETS == (0, 1, 7, 28, 84, 210, 462)
    assert len(set(dice.KEEP_DICE)) == 462
    assert all(list(k) == sorted(k) for k in dice.KEEP_DICE)


def test_roll_probabilities_match_counting_all_7776_sequences():
    counts = np.zeros(dice.N_ROLLS)
    for seq in product(range(1, 7), repeat=5):
        counts[dice.roll_index(seq)] += 1
    assert counts.sum() == 7776
    np.testing.assert_allclose(dice.ROLL_PROBABILITY, counts / 7776, rtol=0, atol=1e-15)


def _reroll_distribution_by_enumeration(keep: tuple[int, ...]) -> np.ndarray:
    """P(roll | keep) by throwing the missing dice in every order: independent of the operators."""
    missing = 5 - len(keep)
    dist = np.zeros(dice.N_ROLLS)
    for seq in product(range(1, 7), repeat=missing):
        dist[dice.roll_index(keep + seq)] += 1
    return dist / 6**missing


@pytest.fixture(scope="module")
def transition() -> np.ndarray:
    """(462, 252): the reroll operator applied to the identity, i.e. P(roll | keep)."""
    return dice.reroll_expectation(dice.keeps_from_rolls(np.eye(dice.N_ROLLS)))


def test_reroll_operator_equals_enumeration_for_every_keep(transition):
    for k, keep in enumerate(dice.KEEP_DICE):
        np.testing.assert_allclose(transition[k], _reroll_distribution_by_enumeration(keep), atol=1e-15)


def test_reroll_probability_is_the_multinomial_of_the_rerolled_dice(transition):
    """P(τ − k) = |τ−k|! / Π (τ−k)(n)! / 6^|τ−k| (seed 000), for every keep and roll."""
    for k, kc in enumerate(dice.KEEP_COUNTS):
        for r, rc in enumerate(dice.ROLL_COUNTS):
            diff = rc - kc
            if (diff < 0).any():
                assert transition[k, r] == 0
                continue
            n = int(diff.sum())
            expected = factorial(n) / np.prod([factorial(int(x)) for x in diff]) / 6**n
            assert transition[k, r] == pytest.approx(expected, abs=1e-15)


@given(k=st.integers(0, dice.N_KEEPS - 1))
def test_each_keeps_reroll_distribution_sums_to_one(transition, k):
    distribution = transition[k]
    assert distribution.sum() == pytest.approx(1.0, abs=1e-12)
    assert (distribution >= 0).all()


@given(st.integers(0, 2**32 - 1))
def test_best_subkeep_equals_brute_force_max_over_sub_multisets(seed):
    values = np.random.default_rng(seed).normal(size=(dice.N_KEEPS, 3))
    best = dice.best_subkeep(values)
    for k, keep in enumerate(dice.KEEP_DICE):
        subs = dice.subkeeps(keep)
        np.testing.assert_array_equal(best[k], values[subs].max(axis=0))


@given(five_dice)
def test_subkeeps_are_every_distinct_sub_multiset(roll):
    subs = dice.subkeeps(roll)
    expected = {
        tuple(sorted(c for c, take in zip(roll, mask, strict=True) if take)) for mask in product((0, 1), repeat=5)
    }
    assert {dice.KEEP_DICE[k] for k in subs} == expected
    assert len(subs) == len(expected)


def test_roll_index_rejects_a_wrong_number_of_dice():
    with pytest.raises(ValueError, match="5 dice"):
        dice.roll_index((1, 2, 3))
