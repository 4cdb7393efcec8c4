"""Scoring, exhaustively: all 252 rolls × 12 categories × 2 variants."""

from collections import Counter

import pytest
from yacht.core.dice import ROLL_DICE, roll_index
from yacht.core.rules import OFFICIAL, STRICT, VARIANTS, possible_scores, score_table


def reference_score(dice: tuple[int, ...], category: int, yacht_is_full_house: bool) -> int:
    """Seed 003's rules written from the dice values, independently of rules.py."""
    counts = sorted(Counter(dice).values())
    faces = set(dice)
    if category < 6:
        return sum(d for d in dice if d == category + 1)
    if category == 6:
        return sum(dice)
    if category == 7:
        return sum(dice) if counts[-1] >= 4 else 0
    if category == 8:
        return sum(dice) if counts == [2, 3] or (yacht_is_full_house and counts == [5]) else 0
    if category == 9:
        return 15 if any({s, s + 1, s + 2, s + 3} <= faces for s in (1, 2, 3)) else 0
    if category == 10:
        return 30 if faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
    return 50 if len(faces) == 1 else 0


@pytest.mark.parametrize("variant", VARIANTS.values(), ids=VARIANTS)
def test_every_roll_scores_as_the_rules_say_in_every_category(variant):
    table = score_table(variant)
    assert table.shape == (252, 12)
    for r, dice in enumerate(ROLL_DICE):
        for c in range(12):
            assert table[r, c] == reference_score(dice, c, variant.yacht_is_full_house), (dice, c)


def test_variants_differ_only_on_five_of_a_kind_full_house():
    diff = score_table(OFFICIAL) != score_table(STRICT)
    rows, cols = diff.nonzero()
    assert set(cols) == {8}
    assert sorted(ROLL_DICE[r] for r in rows) == [(f,) * 5 for f in range(1, 7)]


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        ((3, 3, 5, 5, 5), {8: 21, 6: 21, 7: 0, 4: 15}),  # seed 003 worked example
        ((1, 1, 1, 1, 1), {8: 5, 7: 5, 11: 50, 0: 5}),
        ((2, 3, 4, 5, 6), {9: 15, 10: 30, 6: 20}),
        ((1, 2, 3, 4, 6), {9: 15, 10: 0}),
        ((1, 2, 3, 5, 6), {9: 0, 10: 0}),
        ((6, 6, 6, 6, 2), {7: 26, 8: 0, 5: 24}),
    ],
)
def test_known_rolls_score_known_points(dice, expected):
    table = score_table(OFFICIAL)
    for c, points in expected.items():
        assert table[roll_index(dice), c] == points


def test_possible_scores_exclude_values_no_roll_gives():
    official, strict = possible_scores(OFFICIAL), possible_scores(STRICT)
    assert official[0] == (0, 1, 2, 3, 4, 5)
    assert official[5] == (0, 6, 12, 18, 24, 30)
    assert official[6] == tuple(range(5, 31))
    assert 4 not in official[7] and 5 in official[7] and 0 in official[7]
    assert 6 not in official[8] and 5 in official[8] and 30 in official[8]
    assert 5 not in strict[8] and 10 not in strict[8] and 25 not in strict[8] and 7 in strict[8]
    assert official[9] == (0, 15) and official[10] == (0, 30) and official[11] == (0, 50)
