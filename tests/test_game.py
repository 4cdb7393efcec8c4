"""Game records (the h= parameter) and their review."""

import json
import subprocess
import sys
from itertools import pairwise

import numpy as np
import pytest
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import play_game, variants
from yacht.api import game_query, review_query
from yacht.core.options import advise
from yacht.core.rules import OFFICIAL, STRICT
from yacht.play.game import Game, GameError, Turn, format_game, parse_game, replay
from yacht.play.review import review


@pytest.fixture(scope="module")
def tildes(shipped):
    return {name: table.tilde for name, table in shipped.items()}


@settings(max_examples=25)
@given(variant=variants, seed=st.integers(0, 2**32 - 1), turns=st.integers(0, 12))
def test_played_games_round_trip_through_the_link_format(tildes, variant, seed, turns):
    game = play_game(tildes[variant.name], variant, np.random.default_rng(seed), turns=turns)
    query = format_game(game)
    assert parse_game(query) == game
    assert format_game(parse_game(query)) == query


@given(
    rolls=st.lists(st.tuples(*[st.integers(1, 6)] * 5), min_size=1, max_size=3),
    category=st.none() | st.integers(0, 11),
    data=st.data(),
)
def test_any_legal_single_turn_round_trips(rolls, category, data):
    keeps = []
    for before, after in pairwise(rolls):
        common = [d for d in set(before) for _ in range(min(before.count(d), after.count(d)))]
        size = data.draw(st.integers(0, min(4, len(common))))
        keeps.append(tuple(sorted(data.draw(st.permutations(common))[:size])))
    game = Game(turns=(Turn(tuple(rolls), tuple(keeps), category),), variant=data.draw(variants))
    assert parse_game(format_game(game)) == game


def test_the_documented_example_reads_as_two_turns():
    game = parse_game("h=14466-4466-24466g.12356-6-16663-666-66634f")
    assert game.turns[0] == Turn(((1, 4, 4, 6, 6), (2, 4, 4, 6, 6)), ((4, 4, 6, 6),), 6)
    assert game.turns[1].keeps == ((6,), (6, 6, 6)) and game.turns[1].category == 5
    steps, position = replay(game)
    assert len(steps) == 5
    assert position.sheet[5] == 18 and position.sheet[6] == 22 and position.roll == 0


def test_a_full_twelve_turn_game_fits_in_400_characters():
    worst = Turn(((1, 2, 3, 4, 5), (1, 2, 3, 4, 6), (1, 2, 3, 4, 6)), ((1, 2, 3, 4), (1, 2, 3, 4)), 0)
    turns = tuple(Turn(worst.rolls, worst.keeps, c) for c in range(12))
    query = format_game(Game(sheet=(None,) * 12, turns=turns, variant=STRICT))
    assert len(query) <= 400
    assert parse_game(query).turns == turns


def test_a_record_may_start_mid_turn_from_a_shared_position():
    game = parse_game("s=3,,9,,,18,,,,,30,&r=2&h=14466-4466-44466h")
    steps, position = replay(game)
    assert steps[0].position.roll == 2 and steps[0].turn == 5
    assert position.sheet[7] == 0 and position.roll == 0


@pytest.mark.parametrize(
    ("query", "field", "reason"),
    [
        ("h=14466-66-12345", "h", "turn 1, roll 2: the dice 12345 lack the kept 66"),
        ("h=14466-3-12345", "h", "turn 1, roll 1: keep 3 is not in the dice 14466"),
        ("h=14466g.12345g", "h", "turn 2: Choice is already filled"),
        ("h=14466.12345a", "h", "turn 1: no category scored before the next turn"),
        ("h=14466-66-66123-66-66456-66-66666a", "h", "4 rolls; a turn has at most 3"),
        ("r=3&h=14466-66-66123a", "h", "turn 1: more than 3 rolls"),
        ("h=14466-66666", "h", "ends with a keep: the dice rolled after it are missing"),
        ("h=14466-44666-44666a", "h", "keeping all five dice is not a reroll"),
        ("h=1446g", "h", "'1446' is not five dice"),
        ("h=14466z", "h", "'z' is not a category"),
        ("h=14467a", "h", "dice are digits 1–6"),
        ("d=12345&h=12345", "d", "not used with h="),
        ("s=6,,,,,,,,,,,&h=", "s", "Aces cannot score 6"),
        ("r=0&h=12345", "r", "'0' is not the roll of the record's first dice"),
        ("h=12345&x=1", "query", "unknown parameter 'x'"),
        ("s=1&h=", "s", "expected 12 comma-separated fields"),
        ("s=,,,,,,,,,,,", "h", "missing: a game record is the h= parameter"),
    ],
)
def test_malformed_or_illegal_records_name_the_turn_and_the_fault(query, field, reason):
    with pytest.raises(GameError) as info:
        parse_game(query)
    assert info.value.field == field
    assert reason in str(info.value)


def test_dice_after_the_twelfth_turn_are_rejected(tildes):
    game = play_game(tildes["official"], OFFICIAL, np.random.default_rng(3))
    with pytest.raises(GameError, match="turn 13: the sheet is full, the game ended after turn 12"):
        parse_game(format_game(game) + ".12345")


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("variant", [OFFICIAL, STRICT], ids=["official", "strict"])
def test_an_all_optimal_game_loses_nothing(tildes, seed, variant):
    game = play_game(tildes[variant.name], variant, np.random.default_rng(seed))
    result = review(game, tildes)
    assert result.total_loss == 0
    assert all(d.loss == 0 for d in result.decisions)
    assert result.costliest() == []
    assert result.final == advise(replay(game)[1], tildes[variant.name]).score


@pytest.mark.parametrize("mistake_at", [0, 5, 17])
def test_one_deliberate_mistake_costs_exactly_its_loss(tildes, mistake_at):
    game = play_game(tildes["official"], OFFICIAL, np.random.default_rng(11), mistake_at=mistake_at)
    result = review(game, tildes)
    steps, _ = replay(game)
    mistake = steps[mistake_at]
    options = advise(mistake.position, tildes["official"]).options
    # the worst option (keeping all five dice included: scoring now, valued the same way)
    expected_loss = options[0].expected - options[-1].expected
    assert result.decisions[mistake_at].loss == pytest.approx(expected_loss, abs=1e-12)
    assert result.total_loss == pytest.approx(expected_loss, abs=1e-12)
    assert result.costliest() == [mistake_at]


@settings(max_examples=15)
@given(seed=st.integers(0, 2**32 - 1), turns=st.integers(1, 12), mistake=st.integers(0, 30))
def test_luck_and_skill_add_up_to_the_change_in_expected_score(tildes, seed, turns, mistake):
    game = play_game(tildes["strict"], STRICT, np.random.default_rng(seed), turns=turns, mistake_at=mistake)
    result = review(game, tildes)
    assert result.start + result.luck - result.total_loss == pytest.approx(result.last, abs=1e-9)
    assert result.start == pytest.approx(191.760879752165, abs=1e-5)
    if turns == 12:
        assert result.last == result.final


def test_game_query_gives_the_current_position_and_its_advice(shipped):
    result = game_query("h=14466-4466-24466", shipped)
    assert result["position"] == "s=,,,,,,,,,,,&d=24466&r=2"
    assert result["advice"]["roll"] == 2 and result["turns"] == 1
    assert result["advice"]["options"][0]["keep"] == [4, 4, 6, 6]


def test_cli_review_prints_the_same_review_as_json_and_text(shipped):
    query = "h=14466-4466-24466g.12356-6-16663-666-66634f.11111a"
    run = subprocess.run(
        [sys.executable, "-m", "yacht", "review", "--json", query], cwd=ROOT, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == json.loads(json.dumps(review_query(query, shipped)))
    text = subprocess.run([sys.executable, "-m", "yacht", "review", query], cwd=ROOT, capture_output=True, text=True)
    assert "score Aces (5)" in text.stdout and "keep 1 1 1 1 1 = score Yacht (50)" in text.stdout
    assert "Costliest: turn 3 roll 1 (−33.99" in text.stdout


def test_cli_review_of_an_illegal_game_is_an_error_message():
    run = subprocess.run(
        [sys.executable, "-m", "yacht", "review", "h=14466g.12345g"], cwd=ROOT, capture_output=True, text=True
    )
    assert run.returncode == 2
    assert "h: turn 2: Choice is already filled" in run.stderr and "Traceback" not in run.stderr
