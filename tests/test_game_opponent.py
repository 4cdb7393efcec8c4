"""Game records with the opponent's turns (o=, oh=) and their review by the chance of winning."""

import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest
from conftest import ROOT, check_review_chances, review_lines
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import games_with_opponent, play_game, variants
from yacht.api import advise_query, game_query, review_query
from yacht.core.dice import roll_index
from yacht.core.position import format_query, parse_query
from yacht.core.rules import OFFICIAL, STRICT, possible_scores, score_table
from yacht.loader import DEFAULT_TABLES, Tables
from yacht.play.game import (
    GameError,
    format_game,
    format_opponent_turns,
    parse_game,
    parse_opponent_turns,
    replay,
)

ME = "s=1,2,3,4,5,6,20,0,0,,,"  # 86 so far (no bonus); S.Straight, B.Straight and Yacht left
THEM = "o=2,4,6,8,10,12,22,10,20,,,"  # 94 so far (no bonus); the same three left
# Turn 10: 1 1 1 2 3, keep 2 3 (the best average; keeping 1 1 1 for a Yacht is the better chance),
# B.Straight 30; they score S.Straight 15; turn 11: S.Straight 15 at once; they score B.Straight 30.
SCRIPTED = f"{ME}&{THEM}&h=11123-23-23456k.12345j&oh=j15k30"


@pytest.fixture(scope="module")
def tables() -> Tables:
    """The shipped tables with their spread tables, loaded as the CLI loads them."""
    return Tables(DEFAULT_TABLES)


@settings(max_examples=60)
@given(game=games_with_opponent())
def test_records_with_an_opponent_round_trip_through_the_link_format(game):
    query = format_game(game)
    assert parse_game(query) == game
    assert format_game(parse_game(query)) == query
    assert "oh=" in query and ("o=" in query.replace("oh=", "")) == any(v is not None for v in game.opponent)


@given(data=st.data(), variant=variants)
def test_any_opponent_turns_round_trip(data, variant):
    allowed = possible_scores(variant)
    categories = data.draw(st.lists(st.integers(0, 11), max_size=12))
    turns = [(c, data.draw(st.sampled_from(allowed[c]))) for c in categories]
    text = format_opponent_turns(turns)
    assert parse_opponent_turns(text, variant) == turns
    assert len(text) <= 4 * len(turns)


def test_a_twelve_turn_opponent_record_takes_at_most_36_characters():
    """No category scores 100: a letter and at most two digits a turn."""
    for variant in (OFFICIAL, STRICT):
        most = [(c, max(points)) for c, points in enumerate(possible_scores(variant))]
        assert len(format_opponent_turns(most)) <= 36


@settings(max_examples=40)
@given(game=games_with_opponent())
def test_every_decision_of_a_record_is_a_valid_position_with_the_opponents_sheet_then(game):
    """Whose turn it is follows from the counts: at each of my decisions the opponent's sheet is
    one the position format accepts, and it holds exactly their turns recorded before it."""
    steps, _ = replay(game)
    for step in steps:
        query = format_query(step.position)
        assert parse_query(query) == step.position
        played = sum(v is not None for v in step.position.opponent) - sum(v is not None for v in game.opponent)
        mine = step.turn - sum(v is not None for v in game.sheet) - 1  # my turns finished before this one
        assert played == mine


def test_who_sat_first_follows_from_the_sheets_at_the_start():
    assert parse_game("h=14466g&oh=c9").seat == 1
    assert parse_game("o=,,,,,,20,,,,,&h=14466g&oh=c9").seat == 2
    assert parse_game("h=14466g").seat is None and parse_game("h=14466g").opponent is None
    game = parse_game("o=,,,,,,20,,,,,&h=14466g.12345&oh=c9")
    assert replay(game)[1].opponent == (None, None, 9, None, None, None, 20, None, None, None, None, None)


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("h=14466g&oh=c9e20", "oh: the opponent's turn 2 comes after your turn 2, which the record does not have"),
        ("h=14466g.12345&oh=", "oh: the opponent's turn 1 is missing: it comes before your turn 2 (players alternate)"),
        ("h=14466&oh=c9", "oh: the opponent's turn 1 comes after your turn 1, which is not finished"),
        ("h=14466g&oh=x9", "oh: the opponent's turn 1: 'x' is not a category (a = Aces … l = Yacht)"),
        ("h=14466g&oh=9", "oh: the opponent's turn 1: '9' lacks its category: write its letter, then the points (g22)"),
        ("h=14466g&oh=g", "oh: the opponent's turn 1: 'g' lacks the points Choice scored (e.g. g0)"),
        ("h=14466g&oh=g3", "oh: the opponent's turn 1: Choice cannot score 3 under official rules (possible: 5–30)"),
        (
            "h=14466g&oh=g1000",
            "oh: the opponent's turn 1: Choice cannot score 1000 under official rules (possible: 5–30)",
        ),
        (
            "v=strict&h=14466g&oh=i5",
            "oh: the opponent's turn 1: Full House cannot score 5 under strict rules (possible: 0, 7–9, 11–24, 26–28)",
        ),
        ("h=14466g.12345a&oh=c9.c9", "oh: the opponent's turn 2: '.' is not a category (a = Aces … l = Yacht)"),
        ("o=1,,,,,,,,,,,&h=14466g.12345&oh=a2", "oh: the opponent's turn 2: Aces is already filled"),
        (
            "o=1,2,,,,,,,,,,&h=12345",
            "o: the opponent has filled 2 categories and you 0 where the record starts: players take turns, so at "
            "your turn the opponent has filled 0 (you play first) or 1 (you play second)",
        ),
        ("o=1,,,&h=12345", "o: expected 12 comma-separated fields, got 4"),
        ("o=7,,,,,,,,,,,&h=12345", "o: field 1 (Aces): Aces cannot score 7 under official rules (possible: 0–5)"),
        ("o=x,,,,,,,,,,,&h=12345", "o: field 1 (Aces): 'x' is not a number"),
        (
            "s=1,2,3,4,5,6,7,8,9,15,30,&o=1,2,3,4,5,6,7,8,9,15,30,50&h=11111l&oh=l0",
            "oh: the opponent's turn 13: their sheet is full, the game is over",
        ),
        (
            "s=1,2,3,4,5,6,7,8,9,15,30,50&o=1,2,3,4,5,6,7,8,9,15,30,&h=&oh=l50k30",
            "oh: the opponent's turn 13: their sheet is full, the game is over",
        ),
        ("h=12345&oh=&oh=", "oh: given more than once"),
        ("h=12345&oh=a1&q=2", "query: unknown parameter 'q' (known: s, d, r, v, h, o, oh, t, p)"),
    ],
)
def test_every_bad_opponent_record_names_the_field_and_the_fault(query, message):
    with pytest.raises(GameError) as info:
        parse_game(query)
    assert str(info.value) == message
    assert info.value.field == message.split(":")[0]


def test_the_opponents_last_turn_may_follow_my_last_and_ends_the_game():
    full = "s=1,2,3,4,5,6,7,8,9,15,30,&o=1,2,3,4,5,6,7,8,9,15,30,&h=11111l&oh=l0"
    _, end = replay(parse_game(full))
    assert end.is_over and all(v is not None for v in end.opponent)
    # I sit second: my last turn ends the game
    _, end = replay(parse_game("s=1,2,3,4,5,6,7,8,9,15,30,&o=1,2,3,4,5,6,7,8,9,15,30,50&h=11111l&oh="))
    assert end.is_over and end.opponent[11] == 50


def test_game_query_gives_the_opponents_sheet_at_my_turn_only(tables):
    at_my_turn = game_query(f"{ME}&{THEM}&h=11123-23-23456k&oh=j15", tables)
    assert at_my_turn["position"] == "s=1,2,3,4,5,6,20,0,0,,30,&r=0&o=2,4,6,8,10,12,22,10,20,15,,"
    theirs_next = game_query(f"{ME}&{THEM}&h=11123-23-23456k&oh=", tables)
    assert theirs_next["position"] == "s=1,2,3,4,5,6,20,0,0,,30,&r=0"
    assert theirs_next["query"] == f"{ME}&{THEM}&h=11123-23-23456k&oh="
    # At my turn the advice carries the chances of winning, as advise_query gives them.
    mine = advise_query(at_my_turn["position"], tables)
    assert at_my_turn["advice"] == {k: v for k, v in mine.items() if k not in ("query", "variant")}
    assert "win" in at_my_turn["advice"] and "win" not in theirs_next["advice"]


def test_a_scripted_game_shows_where_the_two_aims_differ(tables):
    result = review_query(SCRIPTED, tables)
    first, second, third = result["decisions"]
    # Turn 10, 1 1 1 2 3: keeping 2 3 (for the straights) is the best average, keeping 1 1 1 (for a
    # Yacht, 50 points, the only way past 139) the best chance; the player kept 2 3.
    w = first["winning"]
    assert first["best"]["keep"] == [2, 3] and first["chosen"]["keep"] == [2, 3] and first["loss"] == 0
    assert w["best"]["keep"] == [1, 1, 1] and w["aims_differ"] is True and w["exact"] is True
    assert w["chosen"] == w["best_average"] and w["loss"] == pytest.approx(w["best"]["chance"] - w["chosen"]["chance"])
    assert w["best"]["chance"] > 1.5 * w["chosen"]["chance"] > 0
    assert second["winning"]["aims_differ"] is False and second["winning"]["loss"] == 0
    assert third["chosen"] == {**third["chosen"], "category": 9, "points": 15}
    assert result["winning"]["aims_differ"] == [0, 2]
    # At the end: 86 + 45 with only Yacht left (86 + 45 or + 95) against 139 with only Yacht left.
    assert result["winning"]["seat"] == 1 and result["winning"]["last"] == {
        "win": 0.0,
        "draw": 0.0,
        "chance": 0.0,
        "exact": True,
    }
    assert result["winning"]["opponent"] == [2, 4, 6, 8, 10, 12, 22, 10, 20, 15, 30, None]
    assert result["position"] == "s=1,2,3,4,5,6,20,0,0,15,30,&r=0&o=2,4,6,8,10,12,22,10,20,15,30,"


def test_review_chances_equal_goal_advice_of_the_same_positions_scripted(tables):
    check_review_chances(review_query(SCRIPTED, tables), tables)


@pytest.mark.parametrize(("variant", "seed"), [(OFFICIAL, 4), (STRICT, 5)], ids=["official", "strict"])
def test_review_chances_equal_goal_advice_of_the_same_positions_played(tables, variant, seed):
    """A game from five free categories (approximate, then exact), the opponent one turn ahead."""
    tilde = tables[variant.name].tilde
    rng = np.random.default_rng(seed)
    official = [None, None, None, None, None, 18, 22, 20, 9, 15, 30, 0]
    start = official if variant is OFFICIAL else [3, 6, None, None, 15, 18, None, 20, None, None, 30, 0]
    theirs = [2, 8, 12, 16, 20, 24, 25, 0] + [None] * 4
    played = play_game(tilde, variant, rng, turns=5, start=tuple(start))
    scores = score_table(variant)
    opponent_play = play_game(tilde, variant, rng, turns=4, start=tuple(theirs))
    opponent_turns = tuple((t.category, int(scores[roll_index(t.rolls[-1]), t.category])) for t in opponent_play.turns)
    game = replace(played, opponent=tuple(theirs), opponent_turns=opponent_turns)
    result = review_query(format_game(game), tables)
    assert len(result["decisions"]) >= 5 and result["winning"]["seat"] == 2
    exactness = [d["winning"]["exact"] for d in result["decisions"]]
    assert exactness[0] is False and exactness[-1] is True
    assert result["final"] is not None and result["winning"]["last"]["chance"] in (0.0, 0.5, 1.0)
    check_review_chances(result, tables)


def test_without_an_opponent_the_review_is_unchanged(tables):
    query = "h=14466-4466-24466g.12356-6-16663-666-66634f"
    result = review_query(query, tables)
    assert "winning" not in result and all("winning" not in d for d in result["decisions"])
    assert set(result) == {
        "final",
        "result",
        "measure",
        "start",
        "last",
        "luck",
        "total_loss",
        "mean_loss",
        "total_grade",
        "mean_grade",
        "strong_play",
        "decisions",
        "costliest",
        "counts",
        "series",
        "query",
        "variant",
        "position",
    }
    assert result["measure"] == "score" and result["result"] is None
    with_opponent = review_query(query + "&oh=c9e20", tables)
    assert with_opponent["measure"] == "win"
    for plain, graded in zip(result["decisions"], with_opponent["decisions"], strict=True):
        # The same choices graded by expected score; the grade is now in the chance of winning.
        assert {k: v for k, v in graded.items() if k not in ("winning", "query", "grade")} == {
            k: v for k, v in plain.items() if k not in ("query", "grade")
        }
        assert plain["grade"] == {"measure": "score", "loss": plain["loss"], "best": plain["loss"] == 0}
        assert graded["grade"]["loss"] == 100 * graded["winning"]["loss"]


def test_a_review_without_the_spread_table_skips_the_chances(shipped):
    """A plain mapping of tables (no ``spread``) gives the plain review of a record with an opponent."""
    result = review_query(SCRIPTED, shipped)
    assert "winning" not in result and result["decisions"][0]["query"].endswith("&o=2,4,6,8,10,12,22,10,20,,,")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "yacht", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_cli_review_with_an_opponent_prints_the_chances_as_text_and_json(tables):
    lines = review_lines(SCRIPTED, tables)
    assert "Chance of winning (win + draw/2; you sit first): at the start 2.31%, at the end 0.00%" in lines
    assert lines[5].endswith("loss  chance  to win")
    assert "Where playing to win and the best average differ: 2" in lines
    assert any(
        line.startswith("  turn 10 roll 1 dice 11123: best average keep 2 3 1.67%, to win keep 1 1 1 2.96%")
        for line in lines
    )
    assert not any("approximate" in line for line in lines)


def test_cli_review_marks_approximate_chances():
    text = run("review", "h=14466-4466-24466g&oh=c9")
    assert text.returncode == 0, text.stderr
    assert (
        "~" in text.stdout.splitlines()[5 + 1]
        and "~ approximate: one exact turn, then 0.925 × the chance" in text.stdout
    )


def test_cli_review_of_a_bad_opponent_record_is_an_error_message():
    result = run("review", "h=14466g.12345&oh=")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "oh: the opponent's turn 1 is missing: it comes before your turn 2" in result.stderr
