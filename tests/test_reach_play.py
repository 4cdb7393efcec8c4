"""The final-score distribution when playing for a score to reach (yacht.chances.reach_play): the target's
choices are the t= advice's at every roll, and the simulated games reach the target as often as the
exact chance says."""

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from strategies import sheets
from yacht.api import advise_query, distribution_query
from yacht.chances.reach_play import (
    REACH_PLAY_FREE,
    SIMULATED_GAMES,
    later_masks,
    reach_play_distribution,
    reach_policy,
)
from yacht.core.categories import FULL_MASK, N_CATEGORIES
from yacht.core.dice import ROLL_DICE, keep_index
from yacht.core.options import sheet_state
from yacht.core.position import Position, format_query, parse_query
from yacht.core.rules import VARIANTS
from yacht.loader import DEFAULT_TABLES, Tables

MARGIN = 1e-6
"""A choice is checked where the advice's best option beats the next by more than this."""


@given(mask=st.integers(0, FULL_MASK - 1))
def test_later_masks_are_every_mask_a_game_can_reach(mask) -> None:
    later = later_masks(mask)
    free = N_CATEGORIES - bin(mask).count("1")
    assert len(later) == len(set(later)) == 2**free - 2
    assert all(m & mask == mask and m not in (mask, FULL_MASK) for m in later)


@pytest.fixture(scope="module")
def loaded() -> Tables:
    """The shipped tables and chunks, each read on first use."""
    return Tables(DEFAULT_TABLES)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), variant=st.sampled_from(["official", "strict"]), roll=st.integers(1, 3))
def test_the_target_play_chooses_what_the_t_advice_ranks_first(loaded, data, variant, roll) -> None:
    """At every roll, reach_policy takes the option the t= advice (exact, from the same chunks)
    ranks first, wherever that option is better than the next by more than MARGIN."""
    rules = VARIANTS[variant]
    sheet = data.draw(sheets(rules, min_filled=4, max_filled=N_CATEGORIES - 1), label="sheet")
    dice = data.draw(st.sampled_from(ROLL_DICE), label="dice")
    mask, nu, sigma = sheet_state(sheet)
    expected = float(loaded[variant].tilde[mask, nu])  # needs near it: far ones make every option 0 or 1
    need = data.draw(st.integers(max(1, round(0.6 * expected)), max(1, round(1.3 * expected))), label="need")
    target = max(sigma + need, 0)
    query = format_query(Position(sheet, dice, roll, rules, target=target))
    options = advise_query(query, loaded)["options"]
    if len(options) > 1 and options[0]["reach"] - options[1]["reach"] <= MARGIN:
        event("a tie: not checked")
        return
    event(f"checked at roll {roll}")
    policy = reach_policy(
        loaded.reach(variant, later_masks(mask)),
        loaded[variant].tilde,
        rules,
        np.array([mask]),
        np.array([nu]),
        np.array([max(target - sigma, 0)]),
    )
    row = ROLL_DICE.index(tuple(sorted(dice)))
    best = options[0]
    if roll == 3:
        assert policy.category[row, 0] == best["category"], query
        return
    chosen = (policy.keep1 if roll == 1 else policy.keep2)[row, 0]
    assert chosen == keep_index(tuple(best["keep"])), query
    if len(best["keep"]) == 5:  # stopping: the category scored is the one the advice names
        assert policy.category[row, 0] == best["category"], query


@pytest.mark.parametrize(
    "query",
    [
        "s=3,6,9,12,,18,22,,,,30,&d=22556&r=1&t=160",
        "s=3,6,9,12,,18,22,,,,30,&r=0&t=185",
        "s=1,4,,,15,18,,20,24,,,&d=11456&r=2&t=190&v=strict",
        "s=2,,12,16,,24,,,,,,&d=33456&r=3&t=200",
    ],
)
def test_the_simulated_games_reach_the_target_as_often_as_the_exact_chance(loaded, query) -> None:
    """P(final ≥ t) of the target's play, simulated, against the exact chance of the advice: within
    4.5 standard errors (10,000 games); the first turn starts from the position's dice and roll."""
    position = parse_query(query)
    variant = position.variant.name
    result = reach_play_distribution(position, loaded[variant].tilde, lambda masks: loaded.reach(variant, masks))
    assert result["play"] == "goal" and result["exact"] is False and result["games"] == SIMULATED_GAMES
    p = np.array(result["p"])
    assert p.sum() == pytest.approx(1.0) and (p >= 0).all()
    exact = advise_query(query, loaded)["reach"]
    simulated = p[max(0, position.target - result["from"]) :].sum()
    error = np.sqrt(exact * (1 - exact) / SIMULATED_GAMES)
    assert abs(simulated - exact) <= 4.5 * error + 1e-12, (simulated, exact, error)
    assert result["from"] == sheet_state(position.sheet)[2]


def test_the_histogram_with_a_target_follows_the_target_up_to_six_free_categories(loaded) -> None:
    """distribution_query: the target's play (simulated) up to REACH_PLAY_FREE free categories
    beyond the goal DP's four, the best average's beyond it; the same games every time."""
    six = "s=3,6,9,12,,18,,,,,30,&d=22556&r=1&t=170"
    seven = "s=3,,9,12,,18,,,,,30,&d=22556&r=1&t=170"
    assert 12 - sum(v != "" for v in six[2:].split("&")[0].split(",")) == REACH_PLAY_FREE
    first = distribution_query(six, loaded)["distribution"]
    assert first["play"] == "goal" and first["exact"] is False
    assert distribution_query(six, loaded)["distribution"] == first, "seeded by the sheet: the same games"
    assert distribution_query(seven, loaded)["distribution"]["play"] == "average"
    assert distribution_query("s=3,6,9,12,,18,,,,,30,&d=22556&r=1", loaded)["distribution"]["play"] == "average"


def test_a_chart_of_the_best_average_beside_a_goal_says_why_it_is_not_the_goals(loaded) -> None:
    """With o= or t=, a law of the best average's play (what the page then heads "if you play for
    the best average") carries "goal_chart": more free categories than the goal's play is drawn
    with, or (t=, within them) the reach chunks not held; the goal's own law carries none."""
    six = "s=3,6,9,12,,18,,,,,30,&d=22556&r=1&t=170"
    seven = "s=3,,9,12,,18,,,,,30,&d=22556&r=1&t=170"
    assert "goal_chart" not in distribution_query(six, loaded)["distribution"]
    far = distribution_query(seven, loaded)["distribution"]
    assert far["play"] == "average" and far["goal_chart"] == {"reason": "free", "free": REACH_PLAY_FREE}
    without = distribution_query(six, {"official": loaded["official"]})["distribution"]  # a mapping: no chunks
    assert without["play"] == "average" and without["goal_chart"] == {"reason": "files", "free": REACH_PLAY_FREE}
    rival = distribution_query("s=,,,,,,,,,,,&r=0&o=,,,,,,,,,,,", loaded)["distribution"]
    assert rival["goal_chart"] == {"reason": "free", "free": 4, "opponent_free": 4}
    assert "goal_chart" not in distribution_query("s=3,6,9,12,,18,,,,,30,&d=22556&r=1", loaded)["distribution"]
