"""Hypothesis strategies for sheets, dice and positions (one place for all)."""

from hypothesis import strategies as st
from yacht.categories import N_CATEGORIES
from yacht.position import Position
from yacht.rules import VARIANTS, possible_scores

variants = st.sampled_from(list(VARIANTS.values()))
dice = st.tuples(*[st.integers(1, 6)] * 5)


@st.composite
def sheets(draw, variant=None, min_filled: int = 0, max_filled: int = N_CATEGORIES):
    """A valid sheet for ``variant``: 12 entries, None where unfilled."""
    variant = variant or draw(variants)
    filled = draw(st.sets(st.integers(0, N_CATEGORIES - 1), min_size=min_filled, max_size=max_filled))
    scores = possible_scores(variant)
    return tuple(draw(st.sampled_from(scores[c])) if c in filled else None for c in range(N_CATEGORIES))


@st.composite
def positions(draw, rolls=(0, 1, 2, 3), max_filled: int = N_CATEGORIES):
    variant = draw(variants)
    sheet = draw(sheets(variant, max_filled=max_filled))
    roll = draw(st.sampled_from(rolls))
    roll_dice = draw(dice) if roll > 0 else draw(st.none() | dice)
    return Position(sheet=sheet, dice=roll_dice, roll=roll, variant=variant)
