"""Advice with a goal (o=, t=) and the distribution, through yacht.api and the CLI."""

import json
import subprocess
import sys
from itertools import pairwise

import pytest
from conftest import ROOT
from yacht.advisor import sheet_state
from yacht.api import advise_query
from yacht.position import PositionError, format_query, parse_query
from yacht.rules import OFFICIAL
from yacht.winning import reach_payoff, solve_goal

ME = "s=1,2,3,4,5,6,20,0,0,,30,"  # S.Straight and Yacht left, 71 points
THEM = "o=2,4,6,8,10,12,22,0,0,15,,0"  # B.Straight left: 102 or 132


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "yacht", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("roll", [1, 2, 3])
def test_with_an_opponent_every_option_carries_win_and_draw_ranked_by_win_plus_half_draw(shipped, roll):
    result = advise_query(f"{ME}&d=12346&r={roll}&{THEM}", shipped)
    chances = [o["win"] + o["draw"] / 2 for o in result["options"]]
    assert all(a >= b - 1e-12 for a, b in pairwise(chances))  # ties (to 12 decimals) by expected
    assert all("expected" in o and 0 <= o["draw"] <= o["draw"] + o["win"] <= 1 for o in result["options"])
    assert (result["win"], result["draw"]) == (result["options"][0]["win"], result["options"][0]["draw"])
    assert result["exact"] is True


def test_with_a_target_every_option_carries_reach_ranked_by_it(shipped):
    result = advise_query(f"{ME}&d=12346&r=1&t=110", shipped)
    reach = [o["reach"] for o in result["options"]]
    assert all(a >= b - 1e-12 for a, b in pairwise(reach)) and result["reach"] == reach[0]
    assert all("win" not in o for o in result["options"])


def test_roll_0_gives_the_positions_own_chance(shipped):
    result = advise_query(f"{ME}&r=0&t=110", shipped)
    mask, nu, sigma = sheet_state(parse_query(ME).sheet)
    root, _ = solve_goal(shipped["official"].tilde, OFFICIAL, mask, nu, sigma, *reach_payoff(110, 400))
    assert result["options"] == [] and result["reach"] == pytest.approx(root.start[0, 0], abs=1e-15)


def test_a_finished_game_is_won_lost_or_drawn(shipped):
    full = "s=1,2,3,4,5,6,20,0,0,15,30,0"  # 86
    assert advise_query(f"{full}&o=1,2,3,4,5,6,20,0,0,15,30,0", shipped)[("draw")] == 1.0
    won = advise_query(f"{full}&o=0,2,3,4,5,6,20,0,0,15,30,0", shipped)
    assert (won["win"], won["draw"]) == (1.0, 0.0)
    # The opponent still has Yacht to play (they play second): 86 beats 85 unless they roll it.
    left = advise_query(f"{full}&o=0,2,3,4,5,6,20,0,0,15,30,", shipped)
    assert 0.9 < left["win"] < 1 and left["draw"] == 0


def test_playing_to_win_can_differ_from_playing_for_points(shipped):
    """Far behind, the win-aware choice is not the best average."""
    # 41 points with both straights and Yacht left, against 94 with the same left: only a Yacht can win.
    result = advise_query("s=1,2,3,4,5,6,20,0,0,,,&d=11123&r=1&o=2,4,6,8,10,12,22,10,20,,,", shipped)
    best_expected = max(result["options"], key=lambda o: o["expected"])
    assert best_expected["keep"] == [2, 3] and result["options"][0]["keep"] == [1, 1, 1]
    assert result["options"][0]["win"] > 1.7 * best_expected["win"]


@pytest.mark.parametrize(
    ("query", "field", "words"),
    [
        (f"{ME}&t=abc", "t", "'abc' is not a score to reach"),
        (f"{ME}&t=-1", "t", "'-1' is not a score to reach"),
        (f"{ME}&t=1000", "t", "'1000' is not a score to reach"),
        (f"{ME}&t=", "t", "'' is not a score to reach"),
        (f"{ME}&t=5&{THEM}", "t", "not both"),
        (f"{ME}&o=1,2", "o", "expected 12 comma-separated fields, got 2"),
        (f"{ME}&o=7,,,,,,,,,,,", "o", "Aces cannot score 7"),
        (f"{ME}&o=,,,,,,,,,,,", "o", "the opponent has filled 0 categories and you 10"),
        ("s=1,2,3,4,5,6,20,0,0,15,30,0&o=1,2,3,,,,,,,,,", "o", "filled 11 (you play first) or 12"),
        (f"{ME}&o=x,,,,,,,,,,,", "o", "'x' is not a number"),
    ],
)
def test_bad_goal_values_name_the_field_and_the_reason(query, field, words):
    with pytest.raises(PositionError) as caught:
        parse_query(query)
    assert caught.value.field == field and words in str(caught.value)


def test_goal_parameters_round_trip():
    for query in (f"{ME}&d=12346&r=1&{THEM}", f"{ME}&r=0&t=150"):
        assert format_query(parse_query(format_query(parse_query(query)))) == format_query(parse_query(query))
        assert parse_query(query).opponent is not None or parse_query(query).target == 150


def test_cli_prints_the_chance_beside_the_expected_score_and_the_distribution():
    result = run("advise", f"{ME}&d=12346&r=1&{THEM}", "--distribution")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "chance of winning 75.09 % (draw 0.00 %)" in lines[1]
    assert lines[2].startswith("Final score distribution under the advisor's play (exact): mean 88.30")
    assert lines[3].split()[:3] == ["86", "95.40", "%"] and lines[4].split()[:3] == ["136", "4.60", "%"]
    assert lines[5].split()[2:4] == ["win", "draw"]
    as_json = json.loads(run("advise", "--json", "--distribution", f"{ME}&r=0").stdout)
    assert as_json["distribution"]["from"] == 71 and sum(as_json["distribution"]["p"]) == pytest.approx(1)


def test_cli_says_when_the_chance_is_approximate():
    result = run("advise", "s=1,2,3,,,,,,,,,&r=0&o=1,2,3,,,,,,,,,")
    assert result.returncode == 0, result.stderr
    assert "chance of winning" in result.stdout and "(approximate: one exact turn, then a normal law" in result.stdout
    exact = run("advise", f"{ME}&r=0&{THEM}")
    assert "approximate" not in exact.stdout


def test_outside_the_exact_range_the_distribution_is_simulated_and_says_so(shipped):
    result = advise_query("s=3,,,,,,,,,,,&d=14466&r=2", shipped, with_distribution=True)
    dist = result["distribution"]
    assert dist["exact"] is False and dist["games"] == 10_000 and 0 < dist["standard_error"] < 0.01
    assert sum(dist["p"]) == pytest.approx(1) and dist["from"] == 3
    sd_of_mean = 40 / 100  # sd of a game's final score is under 40; √10,000 = 100
    assert abs(dist["expected"] - result["options"][0]["expected"]) < 4 * sd_of_mean
    assert 0.4 < dist["bonus"] < 0.9


def test_a_lazy_caller_is_told_which_spread_table_to_load_and_then_gets_the_same_answer(shipped):
    """The worker's way: yacht.api.Tables raises SpreadMissing(variant) when the goal needs the
    spread table outside the exact range; once it is loaded the answer is the CLI's."""
    from yacht.api import SpreadMissing, Tables
    from yacht.table import decode_spread, spread_file_name

    query = "s=3,,9,,,18,22,,,,30,&d=22556&r=2&v=strict&o=5,,12,,,24,,,,15,30,"
    lazy = Tables()
    lazy.update(shipped)
    assert advise_query(f"{ME}&d=12346&r=1&{THEM}", lazy)["exact"] is True  # exact: no spread table asked for
    with pytest.raises(SpreadMissing) as missing:
        advise_query(query, lazy)
    assert missing.value.variant == "strict"
    path = ROOT / "public" / "tables" / spread_file_name("strict")
    lazy.spreads["strict"] = decode_spread(path.read_bytes(), variant="strict")
    cli = run("advise", "--json", query)
    assert cli.returncode == 0, cli.stderr
    assert json.loads(cli.stdout) == json.loads(json.dumps(advise_query(query, lazy)))
