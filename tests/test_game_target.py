"""Game records with a score to reach (t=): the link format, replay, advice along the game and
the review by the chance of reaching it."""

from dataclasses import replace

import numpy as np
import pytest
from conftest import check_review_chances, review_lines
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import play_game
from yacht.api import advise_query, game_query, review_query
from yacht.core.rules import OFFICIAL, STRICT
from yacht.loader import DEFAULT_TABLES, Tables
from yacht.play.game import GameError, format_game, parse_game, replay

# Turn 10 of a sheet at 41 with S.Straight, B.Straight and Yacht left: 1 1 1 2 3. To reach 100
# a Yacht is needed (41 + 45 = 86 without it), so keeping 1 1 1 is best for the target while
# keeping 2 3 (for the straights) is the best average; the player kept 2 3, scored B.Straight,
# then S.Straight at once on turn 11 (going for the Yacht was the better chance).
ME = "s=1,2,3,4,5,6,20,0,0,,,"
SCRIPTED = f"{ME}&t=100&h=11123-23-23456k.12345j"


@pytest.fixture(scope="module")
def tables() -> Tables:
    """The shipped tables with their spread tables, loaded as the CLI loads them."""
    return Tables(DEFAULT_TABLES)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), turns=st.integers(0, 12), target=st.integers(0, 999))
def test_records_with_a_target_round_trip_through_the_link_format(shipped, seed, turns, target):
    variant = (OFFICIAL, STRICT)[seed % 2]
    game = replace(
        play_game(shipped[variant.name].tilde, variant, np.random.default_rng(seed), turns=turns), target=target
    )
    query = format_game(game)
    assert f"t={target}&h=" in query
    assert parse_game(query) == game and format_game(parse_game(query)) == query
    steps, end = replay(game)
    assert all(step.position.target == target for step in steps) and end.target == target


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("t=abc&h=12345", "t", "'abc' is not a score to reach (a whole number 0–999)"),
        ("t=1000&h=12345", "t", "'1000' is not a score to reach (a whole number 0–999)"),
        ("t=&h=12345", "t", "'' is not a score to reach"),
        ("t=150&oh=&h=12345", "t", "give either the opponent's record (o=, oh=) or t= (a score to reach), not both"),
        ("o=,,,,,,,,,,,&t=150&h=12345", "t", "not both"),
        ("t=150&t=160&h=12345", "t", "given more than once"),
    ],
)
def test_every_bad_target_in_a_record_names_the_field(query, field, message):
    with pytest.raises(GameError) as error:
        parse_game(query)
    assert error.value.field == field and message in str(error.value)


def test_game_query_gives_the_chance_of_reaching_along_the_game(tables):
    answer = game_query(f"{ME}&t=100&h=11123-23-23456k", tables)
    assert answer["position"] == "s=1,2,3,4,5,6,20,0,0,,30,&r=0&t=100"
    mine = advise_query(answer["position"], tables)
    assert answer["advice"] == {k: v for k, v in mine.items() if k not in ("query", "variant")}
    assert 0 < answer["advice"]["reach"] < 1 and answer["advice"]["exact"] is True


def test_a_scripted_record_with_a_target_shows_where_the_two_aims_differ(tables):
    result = review_query(SCRIPTED, tables)
    first = result["decisions"][0]
    w = first["winning"]
    assert first["best"]["keep"] == [2, 3] and first["chosen"]["keep"] == [2, 3]
    assert w["best"]["keep"] == [1, 1, 1] and w["aims_differ"] is True and w["exact"] is True
    assert w["chosen"] == w["best_average"] and w["best"]["chance"] > w["chosen"]["chance"] > 0
    assert result["winning"]["aims_differ"] == [0, 2]
    # At the end 86 with only Yacht left: 100 needs the Yacht, about 4.6 % over a turn.
    assert result["winning"]["target"] == 100 and result["winning"]["seat"] is None
    assert result["winning"]["opponent"] is None
    assert 0.04 < result["winning"]["last"]["reach"] == result["winning"]["last"]["chance"] < 0.05
    check_review_chances(result, tables)


@pytest.mark.parametrize(("variant", "seed"), [(OFFICIAL, 4), (STRICT, 5)], ids=["official", "strict"])
def test_review_reach_equals_goal_advice_of_the_same_positions_played(tables, variant, seed):
    """A game from five free categories with a target near its mean: every chance exact (R)."""
    start = [None, None, None, None, None, 18, 22, 20, 9, 15, 30, 0]
    game = play_game(tables[variant.name].tilde, variant, np.random.default_rng(seed), turns=5, start=tuple(start))
    result = review_query(format_game(replace(game, target=200)), tables)
    exactness = [d["winning"]["exact"] for d in result["decisions"]]
    assert all(exactness) and len(exactness) > 5
    assert result["final"] is not None
    assert result["winning"]["last"]["reach"] == (1.0 if result["final"] >= 200 else 0.0)
    check_review_chances(result, tables)


def test_cli_review_with_a_target_prints_the_chance_of_reaching_it(tables):
    lines = review_lines(SCRIPTED, tables)
    assert any(line.startswith("Chance of reaching 100: at the start ") for line in lines)
    assert lines[3].startswith("Mean loss ") and " pp a decision over 3 decisions " in lines[3]
    assert lines[5].endswith("loss  chance to reach")
    assert "Where playing to reach 100 and the best average differ: 2" in lines
    assert any(line.startswith("  turn 10 roll 1 dice 11123: best average keep 2 3 ") for line in lines)
    assert any(", to reach keep 1 1 1 " in line for line in lines)
