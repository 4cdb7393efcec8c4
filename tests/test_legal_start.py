"""A broken game record keeps its legal part (``yacht.play.legal_start``): for a twelve-turn game
against a rival, every turn of either side broken in turn, the game before it is kept, and the
turn named is the one broken."""

import pytest
from yacht.core.rules import DEFAULT_VARIANT, possible_scores
from yacht.play.game import CATEGORY_LETTERS, GameError, format_game, parse_game

MINE = [f"12345-{'' if i % 2 else '1'}-1{i % 5 + 2}{i % 4 + 2}{i % 3 + 4}6{CATEGORY_LETTERS[i]}" for i in range(12)]
THEIRS = [f"{CATEGORY_LETTERS[11 - i]}{min(possible_scores(DEFAULT_VARIANT)[11 - i])}" for i in range(12)]
"""A legal game: my turn i rerolls once and scores category i; the rival scores the least it can,
from Yacht up."""


def record(mine: list[str], theirs: list[str]) -> str:
    return f"h={'.'.join(mine)}&oh={''.join(theirs)}"


def broken(query: str) -> GameError:
    with pytest.raises(GameError) as raised:
        parse_game(query)
    return raised.value


def test_the_whole_game_is_legal() -> None:
    assert format_game(parse_game(record(MINE, THEIRS))) == record(MINE, THEIRS)


@pytest.mark.parametrize("n", range(1, 13))
@pytest.mark.parametrize("damage", ["unreadable", "illegal"])
def test_my_broken_turn_keeps_the_turns_before_it_and_the_rivals_that_fit(n: int, damage: str) -> None:
    mine = list(MINE)
    # unreadable: a die lost; illegal: the category of an earlier turn (or, at turn 1, a kept die not rolled)
    mine[n - 1] = (
        mine[n - 1][:-2] + mine[n - 1][-1]
        if damage == "unreadable"
        else (mine[n - 1][:-1] + CATEGORY_LETTERS[n - 2] if n > 1 else "12345-6-16666a")
    )
    error = broken(record(mine, THEIRS))
    assert error.field == "h"
    legal = error.legal
    if n == 1:
        assert legal is None  # not one turn of mine, and the rival's first comes after it
        return
    assert (legal.who, legal.turn, legal.mine, legal.theirs) == ("me", n, n - 1, n - 1)
    assert format_game(legal.game) == record(MINE[: n - 1], THEIRS[: n - 1])
    assert legal.to_json()["through_turn"] == n - 1
    parse_game(format_game(legal.game))  # the part kept is a legal game


@pytest.mark.parametrize("m", range(1, 13))
def test_the_rivals_broken_turn_keeps_the_turns_before_it_and_mine_that_fit(m: int) -> None:
    theirs = list(THEIRS)
    theirs[m - 1] = THEIRS[m - 2] if m > 1 else "x0"  # a category already filled, or none at all
    error = broken(record(MINE, theirs))
    assert error.field == "oh"
    legal = error.legal
    assert (legal.who, legal.turn, legal.mine, legal.theirs) == ("opponent", m, m, m - 1)
    assert format_game(legal.game) == record(MINE[:m], THEIRS[: m - 1])


def test_a_record_with_no_legal_turn_keeps_nothing() -> None:
    assert broken("h=hello").legal is None
    assert broken("h=14466-55-55123").legal is None  # turn 1: a keep not in the dice


def test_the_start_is_never_salvaged() -> None:
    error = broken("s=99,,,,,,,,,,,&h=12345a")
    assert error.field == "s" and error.legal is None


def test_a_missing_rival_turn_drops_my_turn_after_it() -> None:
    error = broken(record(MINE[:3], THEIRS[:1]))
    assert error.field == "oh"
    assert (error.legal.who, error.legal.turn, error.legal.mine, error.legal.theirs) == ("me", 3, 2, 1)
