"""The review grades each decision by what the advice played for, and a finished game against an
opponent has a result (who won, both totals)."""

import pytest
from conftest import review_lines
from yacht.api import advise_query, game_query, review_query
from yacht.cli.review import render_result
from yacht.core.options import sheet_state
from yacht.core.position import format_query, parse_query
from yacht.core.rules import VARIANTS
from yacht.loader import DEFAULT_TABLES, Tables
from yacht.play.graded import LOSS_BINS, STRONG_PLAY, loss_bin, result_of
from yacht.play.practice import Practice

# As in test_game_opponent: turn 10, 1 1 1 2 3, the player keeps 2 3 (the best average) where
# keeping 1 1 1 (for a Yacht, the only way past 139) is the better chance of winning.
SCRIPTED = "s=1,2,3,4,5,6,20,0,0,,,&o=2,4,6,8,10,12,22,10,20,,,&h=11123-23-23456k.12345j&oh=j15k30"


@pytest.fixture(scope="module")
def tables() -> Tables:
    return Tables(DEFAULT_TABLES)


def apply(practice: Practice, option: dict) -> None:
    """Play an advice option: score its category (at roll 3, or keeping all five to stop), else
    keep its dice."""
    if "category" in option:
        practice.score(option["category"])
    else:
        practice.keep(tuple(option["keep"]))


def follow_advice(tables: Tables, variant: str, seed: int, rival: bool) -> Practice:
    """A practice game (against the simulated opponent when ``rival``) in which every decision
    is the advice's first option, as the page ranks it."""
    practice = Practice(tables[variant].tilde, VARIANTS[variant], seed, rival)
    while not practice.over:
        advice = advise_query(format_query(practice.position), tables)
        apply(practice, advice["options"][0])
    return practice


@pytest.mark.parametrize(("variant", "seed"), [("official", 3), ("strict", 8)])
def test_a_game_that_followed_every_advice_against_a_rival_is_graded_best_everywhere(tables, variant, seed):
    practice = follow_advice(tables, variant, seed, rival=True)
    result = review_query(practice.query, tables)
    assert result["measure"] == "win"
    assert all(d["grade"] == {"measure": "win", "loss": 0.0, "best": True} for d in result["decisions"])
    assert result["costliest"] == [] and result["counts"]["optimal"] == len(result["decisions"])
    # Playing to win is not always the best average: the score measure would have condemned some.
    end = parse_query(result["position"])
    mine, theirs = sheet_state(end.sheet)[2], sheet_state(end.opponent)[2]
    outcome = "win" if mine > theirs else "loss" if mine < theirs else "draw"
    assert result["result"] == {"outcome": outcome, "mine": mine, "theirs": theirs}
    assert result["final"] == mine


def test_a_game_that_followed_every_advice_alone_is_graded_best_by_expected_score(tables):
    practice = follow_advice(tables, "official", 5, rival=False)
    result = review_query(practice.query, tables)
    assert result["measure"] == "score" and result["result"] is None and result["final"] is not None
    assert all(d["grade"]["best"] and d["grade"]["measure"] == "score" for d in result["decisions"])


def test_a_decision_is_graded_in_percentage_points_of_the_goal_and_sorted_by_it(tables):
    result = review_query(SCRIPTED, tables)
    first = result["decisions"][0]
    # The best average (score loss 0) is not what the advice played for: graded by the chance.
    assert first["loss"] == 0 and first["grade"]["best"] is False
    assert first["grade"]["loss"] == pytest.approx(100 * first["winning"]["loss"])
    assert first["grade"]["loss"] > 1.0
    graded = [d["grade"]["loss"] for d in result["decisions"]]
    assert result["costliest"] == sorted((i for i, g in enumerate(graded) if g > 0), key=lambda i: (-graded[i], i))[:3]
    counts = {name: 0 for name, _ in LOSS_BINS}
    for g in graded:
        counts[loss_bin(g)] += 1
    assert result["counts"] == counts


def test_the_summary_sums_the_grades_in_the_measure_and_gives_its_yardstick(tables):
    result = review_query(SCRIPTED, tables)
    grades = [d["grade"]["loss"] for d in result["decisions"]]
    assert result["total_grade"] == pytest.approx(sum(grades))
    assert result["mean_grade"] == pytest.approx(sum(grades) / len(grades))
    # Here the grades (pp) and the expected score given up (points) differ: the summary follows the grades.
    assert result["total_grade"] != pytest.approx(result["total_loss"])
    assert result["strong_play"] == STRONG_PLAY["win"]
    plain = review_query("h=14466-4466-24466g.12356-6-16663-666-66634f", tables)
    assert plain["total_grade"] == pytest.approx(plain["total_loss"]) and plain["mean_grade"] == plain["mean_loss"]
    assert plain["strong_play"] == STRONG_PLAY["score"]


def test_the_cli_review_says_the_measure_and_grades_by_it(tables):
    lines = review_lines(SCRIPTED, tables)
    assert "Each decision's loss: percentage points of the chance of winning (what the advice played for)" in lines
    result = review_query(SCRIPTED, tables)
    n = len(result["decisions"])
    assert (
        f"Mean loss {result['mean_grade']:.4f} pp a decision over {n} decisions "
        f"(total {result['total_grade']:.4f} pp; below {STRONG_PLAY['win']} pp is strong play)"
    ) in lines
    row = next(line for line in lines if line.startswith("  10    1"))
    assert "best" not in row.split()[-3:-2] and "−" in row


@pytest.mark.parametrize(
    ("mine", "theirs", "words"),
    [
        ("1,2,3,4,5,6,20,0,0,15,30,0", "2,4,6,8,10,12,22,10,20,15,30,0", "Rival won 139–86"),
        ("1,2,3,4,5,6,20,0,0,15,30,50", "1,2,3,4,5,6,5,0,0,0,0,0", "You won 136–26"),
        ("3,6,9,12,15,18,20,0,0,15,30,0", "3,6,9,12,15,18,20,0,0,15,30,0", "Draw 163–163"),
    ],
)
def test_a_finished_game_has_its_result_with_the_bonus_counted(mine, theirs, words):
    end = parse_query(f"s={mine}&o={theirs}")
    result = result_of(end)
    assert result is not None
    assert render_result(result.to_json()) == words


def test_no_result_while_a_sheet_has_a_turn_to_play():
    assert result_of(parse_query("s=1,2,3,4,5,6,20,0,0,15,30,0&o=2,4,6,8,10,12,22,10,20,15,30,")) is None
    assert result_of(parse_query("s=1,2,3,4,5,6,20,0,0,15,30,0")) is None


def test_before_the_rivals_last_turn_the_game_answer_carries_the_chance_of_winning(tables):
    """My sheet full (136), theirs 86 with only Yacht left: they draw with a Yacht (50), which
    optimal play for it makes in 4.60 % of turns (as the README's distribution shows), else I win."""
    answer = game_query("s=1,2,3,4,5,6,20,0,0,15,30,&o=1,2,3,4,5,6,20,0,0,15,30,&h=11111l&oh=", tables)
    chance = answer["chance"]
    assert chance["draw"] == pytest.approx(0.0460, abs=5e-5)
    assert chance["win"] == pytest.approx(1 - chance["draw"], abs=1e-12)
    assert chance["chance"] == pytest.approx(chance["win"] + chance["draw"] / 2)
    assert "chance" not in game_query("s=1,2,3,4,5,6,20,0,0,15,30,&o=1,2,3,4,5,6,20,0,0,15,30,&h=11111", tables)
