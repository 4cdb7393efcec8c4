"""A broken game record keeps its legal part (``yacht.play.game.LegalStart``): for a twelve-turn
game against a rival, every turn of either side broken in turn, the game before it is kept, and
the turn named is the one broken. ``replay`` says where a record stops being legal
(``GameError.stop``), and the legal part found in that one replay is the one that replaying
shorter records, longest first, finds (the reference, kept here), on random damaged records."""

import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from strategies import damaged_records
from yacht.core.rules import DEFAULT_VARIANT, possible_scores
from yacht.play.game import (
    CATEGORY_LETTERS,
    GameError,
    format_game,
    parse_game,
    parse_opponent_turns,
    parse_turns,
    read_start,
    replay,
)
from yacht.play.record import Stop

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


def test_an_unfinished_turn_before_another_is_kept_as_the_legal_games_last():
    unfinished = MINE[1][:-1]
    error = broken(record([MINE[0], unfinished, MINE[2]], THEIRS[:2]))
    assert str(error) == "h: turn 2: no category scored before the next turn"
    assert (error.legal.who, error.legal.turn, error.legal.mine, error.legal.theirs) == ("me", 3, 2, 1)
    assert format_game(error.legal.game) == record([MINE[0], unfinished], THEIRS[:1])
    # with a fault of its own besides (a keep not in the dice), it is dropped too
    error = broken(record([MINE[0], "12345-6-16666", MINE[2]], THEIRS[:2]))
    assert str(error) == "h: turn 2: no category scored before the next turn"
    assert (error.legal.who, error.legal.turn, error.legal.mine, error.legal.theirs) == ("me", 2, 1, 1)


def test_replay_says_where_a_record_stops_being_legal():
    def stop(mine: list[str], theirs: list[str]) -> tuple[str, Stop | None]:
        game = replace(parse_game(record(MINE, THEIRS)), turns=tuple(parse_turns(".".join(mine))))
        with pytest.raises(GameError) as raised:
            replay(replace(game, opponent_turns=tuple(parse_opponent_turns("".join(theirs), game.variant))))
        return raised.value.field, raised.value.stop

    # my turn 5 scores Aces again: four of mine, with the rival's four after them
    assert stop([*MINE[:4], MINE[4][:-1] + "a", *MINE[5:]], THEIRS) == ("h", Stop(5, 4, 4))
    # the rival's turn 3 scores Yacht again: three of mine and two of theirs
    assert stop(MINE, [*THEIRS[:2], THEIRS[0], *THEIRS[3:]]) == ("oh", Stop(3, 3, 2))
    # the rival's turn 2 is missing before my turn 3: two of mine and one of theirs
    assert stop(MINE[:3], THEIRS[:1]) == ("oh", Stop(2, 2, 1))
    # a thirteenth turn of mine: the whole game is legal
    assert stop([*MINE, MINE[0]], THEIRS) == ("h", Stop(13, 12, 12))


def salvage_by_shorter_replays(query: str) -> tuple[str, str, tuple | None] | None:
    """The reference: what ``parse_game(query)`` raised when a broken record's legal start was
    found by replaying shorter records, longest first (up to 13 × 14 replays): None for a legal
    record, else the error's field and message and the legal start, ``(its query, mine, theirs,
    who, turn)`` or None."""
    start, params = read_start(query)
    opponent_filled = sum(v is not None for v in start.opponent or ())
    try:
        mine = parse_turns(params["h"])
        theirs = parse_opponent_turns(params.get("oh", ""), start.variant, opponent_filled) if start.opponent else []
        replay(replace(start, turns=tuple(mine), opponent_turns=tuple(theirs)))
        return None
    except GameError as e:
        field, message = e.field, str(e)
    mine, theirs = [], []
    all_mine = len(params["h"].split(".")) if params["h"] else 0
    try:
        parse_turns(params["h"], mine)
    except GameError:
        pass
    all_theirs = 0
    if start.opponent is not None:
        try:
            all_theirs = len(parse_opponent_turns(params.get("oh", ""), start.variant, opponent_filled, theirs))
        except GameError:
            all_theirs = len(theirs) + 1
    for k in range(len(mine), -1, -1):
        for j in range(min(len(theirs), k + 1), -1, -1):
            game = replace(start, turns=tuple(mine[:k]), opponent_turns=tuple(theirs[:j]))
            if (k, j) == (0, 0) or not is_legal(game):
                continue
            mine_lost, theirs_lost = k < all_mine, j < all_theirs
            if theirs_lost and (not mine_lost or field == "oh"):
                return field, message, (format_game(game), k, j, "opponent", opponent_filled + j + 1)
            return field, message, (format_game(game), k, j, "me", sum(v is not None for v in start.sheet) + k + 1)
    return field, message, None


def is_legal(game) -> bool:
    try:
        replay(game)
    except GameError:
        return False
    return True


@settings(max_examples=1000)
@given(damaged_records())
def test_the_one_replay_legal_start_is_the_one_shorter_replays_find(query: str) -> None:
    expected = salvage_by_shorter_replays(query)
    try:
        parse_game(query)
    except GameError as e:
        legal = e.legal and (format_game(e.legal.game), e.legal.mine, e.legal.theirs, e.legal.who, e.legal.turn)
        assert (e.field, str(e), legal) == expected
        if e.stop is not None:  # a record whose turns all read: the replay's stop names the turn at fault
            assert f"turn {e.stop.turn}" == re.search(r"turn \d+", str(e))[0]
            assert ((e.legal.mine, e.legal.theirs) if e.legal else (0, 0)) == (e.stop.mine, e.stop.theirs)
    else:
        assert expected is None
