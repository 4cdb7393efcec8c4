"""When two game records are one game (yacht.play.same_game): a kept game's identity on the page."""

import pytest
from yacht.play.game import parse_game
from yacht.play.same_game import is_step, same_game

GAME = "h=14466-4466-24466g.12356-6-16663-666-66634f&oh=c9e20"


@pytest.mark.parametrize(
    "step",
    [
        "h=&oh=",  # the start
        "h=14466&oh=",  # after the first roll
        "h=14466-4466-24466&oh=",  # after a reroll, before the category
        "h=14466-4466-24466g&oh=",  # my turn scored, theirs not yet
        "h=14466-4466-24466g&oh=c9",
        "h=14466-4466-24466g.12356-6-16663&oh=c9",
        GAME,
    ],
)
def test_a_record_cut_at_any_moment_is_a_step_of_the_whole_and_one_game_with_it(step: str) -> None:
    a, b = parse_game(step), parse_game(GAME)
    assert is_step(a, b)
    assert same_game(a, b) and same_game(b, a)
    assert is_step(b, a) == (step == GAME)


@pytest.mark.parametrize(
    "other",
    [
        "h=14466-4466-24466g.12356-6-16665&oh=c9",  # other dice in the reroll
        "h=14466-4466-24466g.12356-6-16663-666-66634a&oh=c9e20",  # another category
        "h=14466-4466-24466g.12356-6-16663-666-66634f&oh=c9e25",  # the opponent scored otherwise
        "h=14466-446-44612&oh=",  # another keep
    ],
)
def test_two_games_that_share_a_start_and_then_differ_are_two(other: str) -> None:
    a, b = parse_game(other), parse_game(GAME)
    assert not same_game(a, b) and not is_step(a, b) and not is_step(b, a)


@pytest.mark.parametrize(
    "start",
    [
        "s=3,,,,,,,,,,,&o=3,,,,,,,,,,,&h=14466&oh=",  # another sheet at the start
        "v=strict&h=14466&oh=",  # other rules
        "h=14466",  # no opponent
        "r=2&h=14466&oh=",  # the first dice from another roll
    ],
)
def test_records_that_start_apart_are_never_one_game(start: str) -> None:
    assert not same_game(parse_game(start), parse_game(GAME))


def test_practice_games_of_another_seed_are_two_games() -> None:
    assert same_game(parse_game("p=k3x9q&h="), parse_game("p=k3x9q&h="))
    assert not same_game(parse_game("p=k3x9q&h="), parse_game("p=k3x9r&h="))
