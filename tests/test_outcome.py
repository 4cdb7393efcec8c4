"""The final-score distribution under the advisor's play: exact against a slow
brute force, consistent with Ẽ, and the advisor's choices as arrays."""

import numpy as np
import pytest
from bruteforce import expected_play_distribution
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import positions, sheets
from yacht.chances.opponent import opponent_law
from yacht.chances.outcome import canonical_nu, option_vector, reachable_levels, solve_outcome
from yacht.core.dice import KEEP_DICE, ROLL_DICE, ROLL_OFFSET
from yacht.core.options import advise, sheet_state
from yacht.core.policy import expected_policy
from yacht.core.position import Position
from yacht.core.rules import OFFICIAL, STRICT, VARIANTS, score_table

# Small positions for the brute force: (variant, sheet, roll, dice).
BRUTE_CASES = [
    (OFFICIAL, (1, 2, 3, 4, 5, 6, 20, 0, 0, 15, 30, None), 0, None),  # Yacht left
    (OFFICIAL, (3, 6, 9, 12, 15, None, 20, 0, 0, 15, 30, 0), 0, None),  # Sixes left, bonus at 18
    (STRICT, (3, 6, 9, 12, 15, None, 20, 0, 0, 15, 30, 0), 2, (6, 6, 6, 1, 2)),
    (OFFICIAL, (1, 2, 3, 4, 5, 6, 20, 0, 0, None, 30, None), 1, (1, 2, 3, 4, 6)),  # S.Straight, Yacht
    (STRICT, (4, 8, 12, 16, 20, 24, 22, None, 25, 15, 30, None), 0, None),  # Four Dice, Yacht, bonus in
]


@pytest.mark.parametrize(("variant", "sheet", "roll", "dice"), BRUTE_CASES)
def test_distribution_equals_brute_force_within_1e_9(solved, variant, sheet, roll, dice):
    tilde = solved[variant.name]
    reference = expected_play_distribution(sheet, variant, tilde, roll, dice)
    mask, nu, sigma = sheet_state(sheet)
    outcome = solve_outcome(tilde, variant, mask, nu, sigma)
    if roll == 0:
        vector = option_vector(outcome, 0, None, None, None)
    else:
        best = advise(Position(sheet, dice, roll, variant), tilde).options[0]
        vector = option_vector(outcome, roll, dice, best.keep, best.category)
    dist = outcome.final(vector)
    for final in range(sigma, sigma + len(dist.points)):
        assert abs(dist.points[final - sigma] - reference.get(final, 0.0)) <= 1e-9, final
    assert set(reference) <= set(range(sigma, sigma + len(dist.points)))


@settings(max_examples=25)
@given(st.sampled_from(list(VARIANTS.values())).flatmap(lambda v: st.tuples(st.just(v), sheets(v, 8, 11))))
def test_distribution_sums_to_one_and_its_mean_is_the_expected_final_score(solved, case):
    variant, sheet = case
    tilde = solved[variant.name]
    mask, nu, sigma = sheet_state(sheet)
    outcome = solve_outcome(tilde, variant, mask, nu, sigma)
    dist = outcome.final(outcome.root.start[0])
    assert abs(dist.points.sum() - 1) <= 1e-12
    assert abs(dist.expected - (sigma + tilde[mask, nu])) <= 1e-9
    assert 0 <= dist.bonus <= 1 + 1e-12
    if nu == 63:
        assert abs(dist.bonus - 1) <= 1e-12


@settings(max_examples=60)
@given(positions(rolls=(1, 2, 3)))
def test_policy_arrays_make_one_of_the_advisors_best_choices(solved, position):
    """The policy (what the solver, the coach and the simulations play) takes an option the advice
    ranks first: its first choice, or one tied with it (yacht.core.ranking: within 1e-9, where the
    advice puts the simpler first and the policy's argmax the first by index) of the same value."""
    tilde = solved[position.variant.name]
    mask, nu, _ = sheet_state(position.sheet)
    policy = expected_policy(tilde, score_table(position.variant), np.array([mask]), np.array([nu]))
    roll = ROLL_DICE.index(tuple(sorted(position.dice)))
    advice = advise(position, tilde)
    firsts = [o for o in advice.options if o.rank == 1]
    if position.roll == 3:
        chosen = next(o for o in firsts if o.category == policy.category[roll, 0])
    else:
        keep = (policy.keep1 if position.roll == 1 else policy.keep2)[roll, 0]
        stop = keep >= ROLL_OFFSET
        chosen = next(
            o for o in firsts if o.keep == KEEP_DICE[keep] and (not stop or o.category == policy.category[roll, 0])
        )
    assert abs(chosen.expected - advice.options[0].expected) <= 1e-9


def test_hopeless_bonus_states_share_their_values(solved):
    """canonical_nu may merge states only where Ẽ is the same."""
    for tilde in solved.values():
        for mask in range(0, 4096, 7):
            nus = np.flatnonzero(~np.isnan(tilde[mask]))
            merged = canonical_nu(np.full(len(nus), mask), nus)
            assert np.array_equal(tilde[mask, nus], tilde[mask, merged])


def test_reachable_levels_hold_every_state_a_game_can_reach():
    levels = reachable_levels(0b111111111000, 0)
    assert [len(m) for m, _ in levels] == [1, 3, 3, 1]
    filled = 0b111111011110
    levels = reachable_levels(filled, 40)  # Aces and Sixes free, upper total 40
    assert len(levels) == 3
    aces, sixes = filled | 1, filled | 32
    after_one = {(int(m), int(n)) for m, n in zip(*levels[1], strict=True)}
    # Aces scored: 40–45 (Sixes can still lift them to 63); Sixes scored: 40 + 6n, of which
    # 40, 46, 52 are merged into 0 (Aces' 5 at most cannot reach 63), 58 stays, 64 is capped at 63.
    assert after_one == {(aces, n) for n in range(40, 46)} | {(sixes, n) for n in (0, 58, 63)}
    assert {int(n) for n in levels[2][1]} == {0, 63}


def test_every_option_of_a_roll_has_a_distribution_whose_mean_is_its_expected_value(solved):
    sheet = (3, 6, None, 12, 15, 18, 20, 0, None, 15, 30, 0)
    for roll in (1, 2, 3):
        position = Position(sheet, (3, 3, 5, 5, 5), roll, OFFICIAL)
        advice = advise(position, solved["official"])
        mask, nu, sigma = sheet_state(sheet)
        outcome = solve_outcome(solved["official"], OFFICIAL, mask, nu, sigma)
        for option in advice.options:
            dist = outcome.final(option_vector(outcome, roll, position.dice, option.keep, option.category))
            assert abs(dist.expected - option.expected) <= 1e-9


def test_the_laws_kept_on_the_way_equal_each_states_own_solve(solved):
    """``solve_outcome(…, laws)`` keeps the law of every state it passes: each equals the
    law solved from that state itself (within 1e-12), bonus chance included."""
    sheet = (3, None, 9, 12, None, 18, 20, None, 0, 15, None, 0)
    tilde = solved["official"]
    laws = {}
    solve_outcome(tilde, OFFICIAL, *sheet_state(sheet)[:2], 0, laws)
    assert len(laws) > 20
    for (mask, nu), law in list(laws.items())[:: max(1, len(laws) // 12)]:
        own = solve_outcome(tilde, OFFICIAL, mask, nu, 0)
        expected = own.final(own.root.start[0])
        assert law.score == 0 and len(law.points) == len(expected.points)
        assert np.abs(law.points - expected.points).max() <= 1e-12 and abs(law.bonus - expected.bonus) <= 1e-12


def test_an_opponent_law_from_the_memo_is_the_one_solved_afresh(solved):
    """``opponent.opponent_law`` with a memo: after a sheet with four free categories, a later
    sheet of that game (one category more filled) is read from the memo and equals a fresh solve."""
    tilde = solved["official"]
    memo = {}
    first = (3, None, 9, 12, None, 18, 20, None, 0, 15, None, 0)
    later = (3, 8, 9, 12, None, 18, 20, None, 0, 15, None, 0)
    opponent_law(tilde, None, OFFICIAL, *sheet_state(first), memo=memo)
    known = len(memo)
    law, exact = opponent_law(tilde, None, OFFICIAL, *sheet_state(later), memo=memo)
    fresh, _ = opponent_law(tilde, None, OFFICIAL, *sheet_state(later))
    assert exact and len(memo) == known and law.score == fresh.score
    assert np.abs(law.points - fresh.points).max() <= 1e-12
