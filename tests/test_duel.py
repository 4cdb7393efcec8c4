"""Simulated play: dice, turns across games, the duel and its figures."""

import subprocess
import sys

import numpy as np
from conftest import ROOT
from yacht.advisor import sheet_state
from yacht.dice import KEEP_COUNTS, ROLL_COUNTS, ROLL_PROBABILITY, keep_index
from yacht.duel import calibration, duel, win_rate
from yacht.policy import expected_policy
from yacht.rules import OFFICIAL, score_table
from yacht.simulate import play_turns, roll_dice

from build_table.solve import solve_spread


def test_thrown_dice_follow_the_roll_probabilities():
    rng = np.random.default_rng(3)
    rolls = roll_dice(rng, np.zeros(200_000, dtype=np.intp))
    frequency = np.bincount(rolls, minlength=252) / len(rolls)
    error = np.abs(frequency - ROLL_PROBABILITY) / np.sqrt(ROLL_PROBABILITY * (1 - ROLL_PROBABILITY) / len(rolls))
    assert error.max() < 4.5  # no roll more than 4.5 standard errors off (252 rolls)


def test_rerolled_dice_keep_the_kept_ones():
    rng = np.random.default_rng(4)
    kept = np.full(1000, keep_index((6, 6, 2)))
    counts = ROLL_COUNTS[roll_dice(rng, kept)]
    assert (counts >= KEEP_COUNTS[kept]).all() and (counts.sum(axis=1) == 5).all()


def test_simulated_turns_score_the_expected_points_on_average(solved):
    sheet = (3, 6, 9, 12, 15, 18, 20, 0, 25, 15, 30, None)  # Yacht left: Ẽ is P(Yacht) × 50
    mask, nu, _ = sheet_state(sheet)
    games = 100_000
    masks, nus = np.full(games, mask), np.full(games, nu)
    policy = expected_policy(solved["official"], score_table(OFFICIAL), masks[:1], nus[:1])
    policy = type(policy)(*(np.repeat(p, games, axis=1) for p in policy))
    after, _, gain = play_turns(policy, masks, nus, OFFICIAL, np.random.default_rng(5))
    assert (after == 4095).all()
    expected = solved["official"][mask, nu]
    assert abs(gain.mean() - expected) < 4 * gain.std() / np.sqrt(games)


def test_a_short_duel_gives_results_seats_and_calibration_points(solved):
    spread = solve_spread(OFFICIAL, solved["official"], workers=1)
    result = duel(solved["official"], spread, OFFICIAL, 6, np.random.default_rng(6), exact_free=2)
    assert set(result.result) <= {0.0, 0.5, 1.0} and result.first.sum() == 3
    assert len(result.predicted) == 6 * 12 and ((0 <= result.predicted) & (result.predicted <= 1)).all()
    assert set(result.observed) <= set(result.result)


def test_win_rate_and_calibration_figures():
    rate, half = win_rate(np.array([1.0, 0.0, 0.5, 1.0]))
    assert rate == 0.625 and abs(half - 1.96 * np.std([1, 0, 0.5, 1], ddof=1) / 2) < 1e-12
    bins = calibration(np.array([0.05, 0.05, 0.95]), np.array([0.0, 1.0, 1.0]))
    assert bins[0] == (0.05, 0.5, 2) and bins[9] == (0.95, 1.0, 1) and bins[5][2] == 0


def test_duel_command_prints_the_figures():
    run = subprocess.run(
        [sys.executable, "-m", "yacht", "duel", "--games", "4", "--variant", "strict", "--exact-free", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("strict: 4 games in ")
    assert "averaged over the seats" in run.stdout and "calibration, 48 points" in run.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "yacht", "duel", "--games", "x"], cwd=ROOT, capture_output=True, text=True
    )
    assert bad.returncode == 2 and "'x' is not a whole number of games" in bad.stderr


def test_byte_dice_give_every_face_one_time_in_six_and_the_same_faces_for_the_same_seed():
    """simulate.ByteDice (the page's dice: no numpy.random there): uniform within 5 standard
    deviations over 600,000 faces, repeatable by seed, shaped like Generator.integers."""
    from yacht.simulate import ByteDice

    faces = ByteDice(7).integers(0, 6, size=(120_000, 5))
    assert faces.shape == (120_000, 5) and faces.min() == 0 and faces.max() == 5
    counts = np.bincount(faces.ravel(), minlength=6)
    n = faces.size
    assert np.all(np.abs(counts - n / 6) < 5 * np.sqrt(n * (1 / 6) * (5 / 6))), counts
    assert np.array_equal(ByteDice(7).integers(0, 6, size=(100, 5)), ByteDice(7).integers(0, 6, size=(100, 5)))
    assert not np.array_equal(ByteDice(7).integers(0, 6, size=(100, 5)), ByteDice(8).integers(0, 6, size=(100, 5)))
