"""Ranked options for positions, checked against independent computations."""

from itertools import pairwise, product

import numpy as np
import pytest
from hypothesis import example, given, settings
from strategies import positions
from yacht.core.categories import FULL_MASK
from yacht.core.dice import ROLL_DICE, ROLL_PROBABILITY, roll_index, subkeeps
from yacht.core.options import advise, sheet_state
from yacht.core.position import Position, parse_query
from yacht.core.ranking import TIE
from yacht.core.rules import OFFICIAL, VARIANTS, score_table


def _points(category: int, points: int, nu: int) -> tuple[int, int]:
    """(points with bonus, ν after), from the rules as written in seed 000."""
    after = min(63, nu + points) if category < 6 else nu
    bonus = 35 if category < 6 and nu < 63 <= nu + points else 0
    return points + bonus, after


def _turn_end(tilde, variant, mask, nu, dice) -> float:
    """E3 by looking every free category up directly (no solver code)."""
    scores = score_table(variant)[roll_index(dice)]
    best = -np.inf
    for c in range(12):
        if not mask >> c & 1:
            gain, after = _points(c, int(scores[c]), nu)
            best = max(best, gain + tilde[mask | 1 << c, after])
    return best


def _keep_value_by_enumeration(tilde, variant, mask, nu, keep) -> float:
    """E'2 of a keep by throwing the other dice in all 6^m orders."""
    missing = 5 - len(keep)
    total = sum(_turn_end(tilde, variant, mask, nu, keep + seq) for seq in product(range(1, 7), repeat=missing))
    return total / 6**missing


SHEETS = [
    "s=,,,,,,,,,,,",
    "s=3,,9,,,18,,,,,30,",
    "s=2,8,12,16,20,,,,,,,",
    "s=,,,,,,22,0,,15,,50",
    "s=5,10,15,20,25,,30,30,28,15,30,",
]


@pytest.mark.parametrize("sheet", SHEETS)
def test_roll2_keeps_equal_brute_force_enumeration(shipped, sheet):
    position = parse_query(f"{sheet}&d=24456&r=2")
    tilde = shipped["official"].tilde
    mask, nu, sigma = sheet_state(position.sheet)
    advice = advise(position, tilde)
    assert len(advice.options) == len(subkeeps(position.dice))
    for option in advice.options:
        if len(option.keep) == 5:
            expected = _turn_end(tilde, OFFICIAL, mask, nu, option.keep)
        else:
            expected = _keep_value_by_enumeration(tilde, OFFICIAL, mask, nu, option.keep)
        assert option.expected == pytest.approx(sigma + expected, abs=1e-9), option.keep


@pytest.mark.parametrize("sheet", SHEETS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_advisor_from_the_table_reproduces_the_stored_value(shipped, sheet, variant):
    """Σ_ω P(ω)·E1(s, ω), from roll-1 advice of all 252 rolls, equals the stored Ẽ(s)."""
    tilde = shipped[variant].tilde
    position = parse_query(f"{sheet}&v={variant}")
    mask, nu, sigma = sheet_state(position.sheet)
    total = 0.0
    for probability, dice in zip(ROLL_PROBABILITY, ROLL_DICE, strict=True):
        advice = advise(Position(position.sheet, dice, 1, position.variant), tilde)
        total += probability * (advice.expected - sigma)
    assert total == pytest.approx(tilde[mask, nu], abs=1e-4)


@settings(max_examples=60)
@given(positions(rolls=(1, 2, 3), max_filled=11))
# Keeping 345 or 234 of 12345: equal values but for a rounding (…011 and …013), tied: the simpler first.
@example(Position((0, 0, None, None, 0, 0, 5, None, None, None, None, None), (1, 2, 3, 4, 5), 2, OFFICIAL))
def test_options_are_ranked_with_losses_against_the_best(solved, position):
    """Best first by the expected score, values within ``TIE`` tied (then the simpler option
    first: ``ranking.rank``); each option's loss is the first's value minus its own, never below 0."""
    advice = advise(position, solved[position.variant.name])
    expected = [o.expected for o in advice.options]
    assert all(later <= earlier + TIE for earlier, later in pairwise(expected))
    assert advice.expected == expected[0]
    assert advice.options[0].loss == 0
    for option in advice.options:
        assert option.loss == pytest.approx(max(0.0, expected[0] - option.expected), abs=1e-12)
        assert option.loss >= 0.0
    if position.roll == 3:
        free = [c for c in range(12) if position.sheet[c] is None]
        assert sorted(o.category for o in advice.options) == free
    else:
        kept = [o.keep for o in advice.options]
        assert len(set(kept)) == len(kept) == len(subkeeps(position.dice))
        everything = [o for o in advice.options if len(o.keep) == 5]
        assert len(everything) == 1 and everything[0].category is not None
        roll3 = advise(Position(position.sheet, position.dice, 3, position.variant), solved[position.variant.name])
        assert everything[0].expected == pytest.approx(roll3.expected, abs=1e-12)
        assert everything[0].category == roll3.options[0].category
        assert everything[0].points == roll3.options[0].points


@settings(max_examples=40)
@given(positions(rolls=(1,), max_filled=11))
def test_more_rolls_left_never_lower_the_expected_score(solved, position):
    tilde = solved[position.variant.name]
    values = [advise(Position(position.sheet, position.dice, r, position.variant), tilde).expected for r in (1, 2, 3)]
    assert values[0] >= values[1] - 1e-9 and values[1] >= values[2] - 1e-9


def test_roll3_points_include_the_bonus_when_they_reach_63(solved):
    advice = advise(parse_query("s=3,6,9,12,15,,,,,,,&d=66612&r=3"), solved["official"])
    by_category = {o.category: o for o in advice.options}
    assert by_category[5].points == 18 + 35
    assert by_category[6].points == 21
    assert advice.score == 45


def test_roll3_expected_is_score_plus_points_plus_what_follows(solved):
    tilde = solved["official"]
    advice = advise(parse_query("s=,,,,,,,,,,,&d=14466&r=3"), tilde)
    choice = next(o for o in advice.options if o.category == 6)
    assert choice.points == 21
    assert choice.expected == pytest.approx(21 + tilde[1 << 6, 0], abs=1e-12)


def test_roll0_gives_the_sheets_expected_final_score(solved):
    advice = advise(parse_query("s=3,,9,,,18,,,,,30,"), solved["official"])
    mask, nu, sigma = sheet_state(advice.position.sheet)
    assert advice.options == ()
    assert sigma == 60
    assert advice.expected == pytest.approx(60 + solved["official"][mask, nu], abs=1e-12)


def test_full_sheet_gives_the_final_score_with_bonus(solved):
    advice = advise(parse_query("s=3,8,12,16,20,18,22,0,25,15,30,0"), solved["official"])
    assert advice.options == ()
    assert advice.expected == advice.score == 3 + 8 + 12 + 16 + 20 + 18 + 35 + 22 + 25 + 15 + 30
    assert sheet_state(advice.position.sheet)[0] == FULL_MASK


def test_last_category_yacht_keeps_the_most_common_face(solved):
    advice = advise(parse_query("s=1,2,3,4,5,6,20,0,0,15,30,&d=13556&r=1"), solved["official"])
    assert advice.options[0].keep == (5, 5)
