"""Playing to win or to reach a score: the exact DP against a slow brute force
that tries every decision, and the payoffs."""

from itertools import pairwise

import numpy as np
import pytest
from bruteforce import expected_play_distribution, goal_value
from reference_goal import dense_solve_goal
from yacht.chances.outcome import Distribution, reachable_levels, solve_outcome
from yacht.chances.winning import option_values, reach_payoff, reachable_pairs, solve_goal, win_payoff
from yacht.core.options import sheet_state
from yacht.core.rules import OFFICIAL, STRICT, score_table

MINE = [  # (variant, my sheet, roll, dice): one or two free categories
    (OFFICIAL, (1, 2, 3, 4, 5, 6, 20, 0, 0, 15, 30, None), 0, None),
    (OFFICIAL, (3, 6, 9, 12, 15, None, 20, 0, 0, 15, 30, 0), 1, (6, 6, 1, 2, 3)),
    (STRICT, (3, 6, 9, 12, 15, None, 20, 0, 0, 15, 30, 0), 2, (6, 6, 6, 1, 2)),
    (OFFICIAL, (1, 2, 3, 4, 5, 6, 20, 0, 0, None, 30, None), 1, (1, 2, 3, 4, 6)),
    (OFFICIAL, (1, 2, 3, 4, 5, 6, 20, 0, 0, None, 30, None), 3, (1, 2, 3, 4, 4)),
]
OPPONENT = (2, 4, 6, 8, 10, 12, 22, 0, 0, 15, None, 0)  # B.Straight left: 102 or 132


def test_three_free_categories_reach_equals_brute_force_within_1e_9(solved):
    sheet = (1, 2, 3, 4, 5, 6, 20, 0, 0, None, None, None)  # both straights and Yacht left
    payoff, weights = reach_payoff(125, 400)
    ours = _best(sheet, OFFICIAL, payoff, weights, 2, (2, 3, 4, 5, 5), solved["official"])
    assert abs(ours - goal_value(sheet, OFFICIAL, lambda final: float(final >= 125), 2, (2, 3, 4, 5, 5))) <= 1e-9


def _best(sheet, variant, payoff, weights, roll, dice, tilde):
    mask, nu, sigma = sheet_state(sheet)
    root, after = solve_goal(tilde, variant, mask, nu, sigma, payoff, weights)
    return max(float(v @ weights) for _, _, v in option_values(root, after, weights, roll, dice))


@pytest.mark.parametrize(("variant", "sheet", "roll", "dice"), MINE)
@pytest.mark.parametrize("target", [110, 125, 150])
def test_reach_chance_equals_brute_force_within_1e_9(solved, variant, sheet, roll, dice, target):
    payoff, weights = reach_payoff(target, 400)
    ours = _best(sheet, variant, payoff, weights, roll, dice, solved[variant.name])
    assert abs(ours - goal_value(sheet, variant, lambda final: float(final >= target), roll, dice)) <= 1e-9


@pytest.mark.parametrize(("variant", "sheet", "roll", "dice"), MINE)
def test_win_chance_equals_brute_force_within_1e_9(solved, variant, sheet, roll, dice):
    tilde = solved[variant.name]
    theirs = expected_play_distribution(OPPONENT, variant, tilde)
    mask, nu, sigma = sheet_state(OPPONENT)
    outcome = solve_outcome(tilde, variant, mask, nu, sigma)
    opponent = outcome.final(outcome.root.start[0])
    payoff, weights = win_payoff(opponent, 400)
    ours = _best(sheet, variant, payoff, weights, roll, dice, tilde)

    def chance(final: int) -> float:
        return sum(p for y, p in theirs.items() if y < final) + 0.5 * theirs.get(final, 0.0)

    assert abs(ours - goal_value(sheet, variant, chance, roll, dice)) <= 1e-9


def test_win_payoff_counts_below_and_equal():
    opponent = Distribution(100, np.array([0.25, 0.0, 0.75]), 0.0)  # 100 or 102
    payoff, weights = win_payoff(opponent, 105)
    assert payoff[100].tolist() == [0.0, 0.25] and payoff[101].tolist() == [0.25, 0.0]
    assert payoff[102].tolist() == [0.25, 0.75] and payoff[104].tolist() == [1.0, 0.0]
    assert weights.tolist() == [1.0, 0.5]


def test_reaching_is_certain_below_the_score_now_and_the_value_is_monotone(solved):
    sheet = (3, 6, None, 12, 15, 18, 20, 0, None, 15, 30, 0)
    mask, nu, sigma = sheet_state(sheet)
    chances = []
    for target in (0, sigma, 150, 170, 200, 260):
        payoff, weights = reach_payoff(target, 400)
        root, _ = solve_goal(solved["official"], OFFICIAL, mask, nu, sigma, payoff, weights)
        chances.append(float(root.start[0, 0]))
    assert chances[0] == pytest.approx(1.0, abs=1e-12) and chances[1] == pytest.approx(1.0, abs=1e-12)
    assert all(a >= b for a, b in pairwise(chances)) and chances[-1] == 0.0


def test_playing_to_win_never_does_worse_than_the_advisors_play(solved):
    """The goal DP maximizes the chance: at least the chance of the expected-score play."""
    sheet = (3, 6, None, 12, 15, 18, 20, 0, None, 15, 30, 0)
    mask, nu, sigma = sheet_state(sheet)
    outcome = solve_outcome(solved["official"], OFFICIAL, mask, nu, sigma)
    mine = outcome.final(outcome.root.start[0])
    for target in (150, 180, 200):
        payoff, weights = reach_payoff(target, 400)
        root, _ = solve_goal(solved["official"], OFFICIAL, mask, nu, sigma, payoff, weights)
        assert root.start[0, 0] >= mine.reach(target) - 1e-12


FOUR_FREE = [  # (variant, sheet): four free categories, upper and lower mixed
    (OFFICIAL, (3, None, 9, 12, None, 18, 20, None, 0, 15, None, 0)),
    (STRICT, (None, 4, 9, None, 15, 24, None, 16, 0, None, 30, 50)),
    (OFFICIAL, (1, 2, 3, 4, 5, 6, None, None, None, None, 30, 0)),
]


@pytest.mark.parametrize(("variant", "sheet"), FOUR_FREE)
def test_solving_only_the_reachable_points_equals_the_dense_grid_within_1e_12(variant, sheet):
    """``solve_goal`` (pairs the root reaches) against the dense state × g grid of the
    first version (tests/reference_goal.py), every roll and keep, a reach and a win goal."""
    mask, nu, sigma = sheet_state(sheet)
    opponent = Distribution(sigma - 20, np.full(120, 1 / 120), 0.0)
    for payoff, weights in (reach_payoff(sigma + 90, 400), win_payoff(opponent, 400)):
        ours, our_after = solve_goal(None, variant, mask, nu, sigma, payoff, weights)
        dense, dense_after = dense_solve_goal(variant, mask, nu, sigma, payoff, weights)
        for name in ("rolls3", "keeps2", "keeps1", "start"):
            assert np.abs(getattr(ours, name) - getattr(dense, name)).max() <= 1e-12
        assert our_after.keys() == dense_after.keys()
        assert all(np.abs(our_after[c] - dense_after[c]).max() <= 1e-12 for c in our_after)


def test_the_reachable_points_are_exactly_those_some_play_gathers():
    """``reachable_pairs`` from two free categories (Aces, Yacht; ν = 0): after one turn,
    Aces scored 0–5 or Yacht 0/50; after both, their sums (no bonus: 20 + 5 < 63)."""
    sheet = (None, 2, 3, 4, 5, 6, 20, 0, 0, 15, 30, None)
    levels = reachable_levels(*sheet_state(sheet)[:2])
    pairs = reachable_pairs(score_table(OFFICIAL), levels)
    after_one = {(int(levels[1][0][r]), int(p)) for r, p in zip(pairs[1].rows, pairs[1].points, strict=True)}
    aces, yacht = 1, 1 << 11
    full = 4095
    assert after_one == {(full - aces, 0), (full - aces, 50)} | {(full - yacht, p) for p in range(6)}
    assert sorted(pairs[2].points.tolist()) == sorted({a + y for a in range(6) for y in (0, 50)})
