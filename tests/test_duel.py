"""Simulated play: dice, turns across games, the duel and its figures."""

import random
import subprocess
import sys

import numpy as np
import pytest
from conftest import ROOT
from reference_goal import dense_solve_goal, looped_approximate_goal
from yacht.chances.opponent import opponent_law
from yacht.chances.outcome import max_future
from yacht.chances.simulate import play_turns, roll_dice
from yacht.chances.winning import win_payoff
from yacht.core.dice import KEEP_COUNTS, ROLL_COUNTS, ROLL_PROBABILITY, keep_index
from yacht.core.options import sheet_state
from yacht.core.policy import SUBKEEP_ORDER, expected_policy, first_best_keep
from yacht.core.rules import OFFICIAL, STRICT, possible_scores, score_table
from yacht.play.duel import calibration, drift, duel, win_aware_policy, win_rate


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


def _random_sheet(rng: random.Random, variant, free: int) -> tuple:
    scores = possible_scores(variant)
    open_ = set(rng.sample(range(12), free))
    return tuple(None if c in open_ else rng.choice(scores[c]) for c in range(12))


def _reference_turn(tilde, spread, variant, mine, theirs):
    """The win-aware player's turn as first written, one position at a time (the dense
    exact DP or the looped approximation): the objective win + draw/2 of every category
    per roll (252, 12; −inf where filled), of every keep after roll 2 and after roll 1
    (462,), and the chance at the start of the turn."""
    (mask, nu, sigma), (their_mask, their_nu, their_sigma) = mine, theirs
    opponent, _ = opponent_law(tilde, lambda: spread, variant, their_mask, their_nu, their_sigma)
    payoff, weights = win_payoff(opponent, sigma + max_future(variant, mask, nu) + 1)
    if 12 - bin(mask).count("1") <= 4:
        turn, after = dense_solve_goal(variant, mask, nu, sigma, payoff, weights)
    else:
        turn, after = looped_approximate_goal(tilde, spread, variant, mask, nu, sigma, payoff, weights)
    objective3 = np.full((252, 12), -np.inf)
    for c, values in after.items():
        objective3[:, c] = values @ weights
    return objective3, turn.keeps2[:, 0] @ weights, turn.keeps1[:, 0] @ weights, float(turn.start[0] @ weights)


def _same_choices(values: np.ndarray, candidates: np.ndarray, ours: np.ndarray, reference: np.ndarray) -> int:
    """Per roll: ours is worth the best candidate within 1e-12, and is the reference's
    choice where the best beats the runner-up by more than 1e-9. ``values`` (252, ids),
    ``candidates`` (252, n) ids. Returns how many rolls had such a clear best."""
    clear = 0
    for roll in range(252):
        ranked = np.sort(values[roll, np.unique(candidates[roll])])
        assert values[roll, ours[roll]] >= ranked[-1] - 1e-12
        if len(ranked) == 1 or ranked[-1] - ranked[-2] > 1e-9:
            assert ours[roll] == reference[roll]
            clear += 1
    return clear


@pytest.mark.slow
@pytest.mark.parametrize("variant", [OFFICIAL, STRICT])
def test_the_fast_win_aware_player_chooses_what_the_reference_does(solved, spreads, variant):
    """Positions from every stage (mine 1–12 free, the opponent as many or one fewer),
    all decided in one batch by ``win_aware_policy`` against the reference one at a time:
    the chances equal within 1e-12, and the choices (see ``_same_choices``)."""
    rng = random.Random(9 if variant is OFFICIAL else 10)
    tilde, spread = solved[variant.name], spreads[variant.name]
    frees = [1, 2, 3, 4, 4, 5, 6, 8, 10, 12]
    mine = np.array([sheet_state(_random_sheet(rng, variant, f)) for f in frees])
    theirs = np.array([sheet_state(_random_sheet(rng, variant, rng.choice([f, f - 1]))) for f in frees])
    policy, chances = win_aware_policy(tilde, lambda: spread, variant, mine, theirs)
    clear = 0
    for i in range(len(frees)):
        objective3, keeps2, keeps1, chance = _reference_turn(tilde, spread, variant, mine[i], theirs[i])
        assert abs(chances[i] - chance) <= 1e-12
        free = np.flatnonzero(objective3[0] > -np.inf)
        categories = np.broadcast_to(free, (252, len(free)))
        clear += _same_choices(objective3, categories, policy.category[:, i], objective3.argmax(axis=1))
        for keeps, ours in ((keeps2, policy.keep2[:, i]), (keeps1, policy.keep1[:, i])):
            reference = first_best_keep(keeps[:, None])[:, 0]
            clear += _same_choices(np.broadcast_to(keeps, (252, 462)), SUBKEEP_ORDER, ours, reference)
    assert clear > 0.75 * 3 * 252 * len(frees)  # most rolls have a clear best (not the decided games)


def test_a_short_duel_gives_results_seats_and_calibration_points(solved, spreads):
    spread = spreads["official"]
    result = duel(solved["official"], spread, OFFICIAL, 6, np.random.default_rng(6), exact_free=2)
    assert set(result.result) <= {0.0, 0.5, 1.0} and result.first.sum() == 3
    assert len(result.predicted) == 6 * 12 and ((0 <= result.predicted) & (result.predicted <= 1)).all()
    assert set(result.observed) <= set(result.result)
    # Each turn's points are the six games in the same order: the observed results line up.
    assert (np.bincount(result.turn) == 6).all() and len(np.bincount(result.turn)) == 12
    for t in range(12):
        assert (result.observed[result.turn == t] == result.observed[result.turn == 0]).all()
    # Against itself, the reference turn's drift is zero.
    assert drift(result.predicted, result.turn)[-1][2] == 0.0
    assert drift(result.predicted, result.turn, 9)[9][2] == 0.0


def test_drift_is_each_turns_prediction_minus_the_reference_turns_game_by_game():
    predicted = np.array([0.5, 0.4, 0.7, 0.6, 1.0, 0.0])  # two games, turns 0, 1, 2
    turn = np.array([0, 0, 1, 1, 2, 2])
    assert drift(predicted, turn) == []  # no point at the default reference, the last turn (11)
    rows = drift(predicted, turn, reference=2)
    assert [r[0] for r in rows] == [0, 1, 2]
    assert rows[0][1] == 0.45 and abs(rows[0][2] - (-0.5 + 0.4) / 2) < 1e-12
    assert abs(rows[1][2] - (-0.3 + 0.6) / 2) < 1e-12 and rows[2][2] == 0.0
    unknown = np.full(6, -1)
    assert drift(predicted, unknown) == []  # files saved before the turn was
    first = drift(predicted, turn, reference=0)
    assert first[0][2] == 0.0 and abs(first[2][2] - (0.5 - 0.4) / 2) < 1e-12


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
    from yacht.chances.simulate import ByteDice

    faces = ByteDice(7).integers(0, 6, size=(120_000, 5))
    assert faces.shape == (120_000, 5) and faces.min() == 0 and faces.max() == 5
    counts = np.bincount(faces.ravel(), minlength=6)
    n = faces.size
    assert np.all(np.abs(counts - n / 6) < 5 * np.sqrt(n * (1 / 6) * (5 / 6))), counts
    assert np.array_equal(ByteDice(7).integers(0, 6, size=(100, 5)), ByteDice(7).integers(0, 6, size=(100, 5)))
    assert not np.array_equal(ByteDice(7).integers(0, 6, size=(100, 5)), ByteDice(8).integers(0, 6, size=(100, 5)))
