"""The spread (sd of the future points under the advisor's play), its file, and the
approximation built on it outside the exact range."""

import random

import numpy as np
import pytest
from yacht.api import advise_query
from yacht.chances.outcome import max_future, solve_outcome
from yacht.chances.winning import approximate_goal, normal_points, solve_goal, win_payoff
from yacht.core.options import sheet_state
from yacht.core.rules import OFFICIAL, possible_scores
from yacht.core.table import SPREAD_SCALE, TableError, decode, decode_spread, encode, encode_spread


@pytest.fixture(scope="module")
def spread(spreads) -> np.ndarray:
    return spreads["official"]


def test_spread_is_the_sd_of_the_exact_distribution(solved, spread):
    rng = random.Random(5)
    scores = possible_scores(OFFICIAL)
    for _ in range(12):
        free = set(rng.sample(range(12), rng.randint(1, 4)))
        sheet = tuple(None if c in free else rng.choice(scores[c]) for c in range(12))
        mask, nu, sigma = sheet_state(sheet)
        outcome = solve_outcome(solved["official"], OFFICIAL, mask, nu, sigma)
        points = outcome.final(outcome.root.start[0]).points
        x = np.arange(len(points))
        variance = points @ x**2 - (points @ x) ** 2
        assert abs(np.sqrt(variance) - spread[mask, nu]) <= 1e-9


def test_spread_file_round_trips_and_is_not_taken_for_a_table(solved, spread):
    data = encode_spread("official", spread)
    assert np.nanmax(np.abs(decode_spread(data, variant="official") - spread)) <= 0.5 / SPREAD_SCALE + 1e-12
    with pytest.raises(TableError, match="holds the quantity 'sd', expected Ẽ"):
        decode(data)
    with pytest.raises(TableError, match="holds the quantity Ẽ, expected 'sd'"):
        decode_spread(encode("official", solved["official"]))


def test_where_the_spread_is_read_its_sd_dwarfs_the_files_rounding(spread):
    """SPREAD_SCALE's bound: beyond the exact range (five or more free categories) every sd is
    above 5 points, so storing it to within 0.5 / SPREAD_SCALE (0.0005) moves a chance by less
    than 0.005 percentage points (z·φ(z) ≤ 0.242 times the relative error)."""
    free = 12 - np.array([bin(mask).count("1") for mask in range(4096)])
    read = spread[free >= 5]
    read = read[~np.isnan(read)]
    assert read.size > 100_000 and read.min() > 5.0
    assert 0.242 * (0.5 / SPREAD_SCALE) / read.min() < 0.005 / 100


def test_normal_points_are_a_distribution_with_about_the_mean():
    points = normal_points(40.0, 8.0, 100)
    assert abs(points.sum() - 1) <= 1e-12 and abs(points @ np.arange(101) - 40) <= 1e-6
    assert normal_points(3.2, 0.0, 10).tolist() == [0, 0, 0, 1.0, 0, 0, 0, 0, 0, 0, 0]


def test_approximate_win_chance_is_close_to_the_exact_one_at_four_free_categories(solved, spread):
    """The approximation's error where both are known (measured: mean 1–2 points)."""
    rng = random.Random(11)
    scores = possible_scores(OFFICIAL)
    errors = []
    for _ in range(12):
        sheets = []
        for _player in range(2):
            free = set(rng.sample(range(12), 4))
            sheets.append(tuple(None if c in free else rng.choice(scores[c][len(scores[c]) // 3 :]) for c in range(12)))
        mask, nu, sigma = sheet_state(sheets[0])
        om, on, osigma = sheet_state(sheets[1])
        opponent = solve_outcome(solved["official"], OFFICIAL, om, on, osigma)
        payoff, weights = win_payoff(opponent.final(opponent.root.start[0]), sigma + 400)
        exact, _ = solve_goal(solved["official"], OFFICIAL, mask, nu, sigma, payoff, weights)
        approx, _ = approximate_goal(solved["official"], spread, OFFICIAL, mask, nu, sigma, payoff, weights)
        errors.append(float((approx.start[0] - exact.start[0]) @ weights))
        assert max_future(OFFICIAL, mask, nu) > 0
    assert np.mean(np.abs(errors)) <= 0.04 and np.max(np.abs(errors)) <= 0.2


def test_outside_the_exact_range_the_answer_says_it_is_approximate(shipped):
    class WithSpread(dict):
        def spread(self, variant):
            from conftest import TABLES
            from yacht.core.table import spread_file_name

            return decode_spread((TABLES / spread_file_name(variant)).read_bytes(), variant=variant)

    tables = WithSpread(shipped)
    result = advise_query("d=12346&r=1&o=,,,,,,,,,,,", tables)
    assert result["exact"] is False and "normal law" in result["method"]
    assert 0.4 < result["win"] + result["draw"] / 2 < 0.6
    near = advise_query("s=1,2,3,4,5,6,20,0,0,,30,&d=12346&r=1&o=2,4,6,8,10,12,22,0,0,15,,0", tables)
    assert near["exact"] is True and "method" not in near
