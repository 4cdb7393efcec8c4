"""Advice with a goal (o=, t=) and the distribution, through yacht.api and the CLI."""

import json
import subprocess
import sys
from itertools import pairwise

import numpy as np
import pytest
from conftest import ROOT, TABLES
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import dice, sheets, variants
from yacht.api import advise_query, distribution_query
from yacht.chances.goal import goal_distribution
from yacht.chances.opponent import opponent_law
from yacht.chances.outcome import max_future
from yacht.chances.winning import reach_payoff, solve_goal, win_payoff
from yacht.core.options import advise, sheet_state
from yacht.core.position import Position, PositionError, format_query, parse_query
from yacht.core.rules import OFFICIAL
from yacht.core.table import SCALE
from yacht.loader import Tables

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


@pytest.mark.parametrize(
    "query",
    [
        "s=1,2,3,4,5,6,20,0,,15,30,&d=66666&t=100",  # Yacht or Full House: the target reached either way
        "s=0,0,0,,,,,0,,0,,&d=55555&t=64",  # beyond the exact range, from the chunks
        "s=1,2,3,4,5,6,20,0,,15,30,&d=66666&o=0,0,0,0,0,0,5,0,0,0,0,",  # the rival at most 55: a win either way
    ],
)
@pytest.mark.parametrize("roll", [1, 2])
def test_keeping_all_five_scores_the_category_roll_3_ranks_first_when_the_chance_ties(query, roll):
    """The Full House (8) and the Yacht (11) give the same chance; the Yacht the better score. A
    stop names the Yacht, as roll 3 does, with its chance, expected score and distribution
    (the DP's own tie rule, the lowest category, named the Full House, about 28 points worse)."""
    tables = Tables(TABLES)  # every kind: the chunks beyond the exact range
    answer = advise_query(f"{query}&r={roll}", tables, with_distribution=True)
    at_3 = advise_query(f"{query}&r=3", tables, with_distribution=True)
    stop = next(o for o in answer["options"] if len(o.get("keep") or ()) == 5)
    assert stop["category"] == at_3["options"][0]["category"] == 11
    assert stop == answer["options"][0] and stop["loss"] == 0.0
    for field in ("expected", "points", "reach", "win", "draw"):
        assert stop.get(field) == at_3["options"][0].get(field), field
    if at_3["distribution"]["exact"]:
        assert answer["distribution"] == at_3["distribution"]
    else:  # simulated: the same play within the draws (the Full House would lose about 28 points)
        assert answer["distribution"]["expected"] == pytest.approx(at_3["distribution"]["expected"], abs=1.0)


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
    assert lines[2].startswith("Final score distribution playing for the goal (exact): mean 88.30")
    assert lines[3].split()[:3] == ["86", "95.40", "%"] and lines[4].split()[:3] == ["136", "4.60", "%"]
    assert lines[5].split()[2:4] == ["win", "draw"]
    as_json = json.loads(run("advise", "--json", "--distribution", f"{ME}&r=0").stdout)
    assert as_json["distribution"]["from"] == 71 and sum(as_json["distribution"]["p"]) == pytest.approx(1)


def test_cli_says_when_the_chance_is_approximate():
    result = run("advise", "s=1,2,3,,,,,,,,,&r=0&o=1,2,3,,,,,,,,,")
    assert result.returncode == 0, result.stderr
    assert (
        "chance of winning" in result.stdout
        and "(approximate: one exact turn, then 0.925 × the chance" in result.stdout
    )
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


def test_a_lazy_caller_is_told_which_chunks_to_load_and_then_gets_the_same_answer(shipped):
    """The worker's way: yacht.api.Tables raises ReachMissing naming the chunks the goal reads
    outside the exact range (the law chunk of the opponent's mask, then the law and reach chunks
    of the masks after mine); once they are loaded the answer is the CLI's. No spread table."""
    from yacht.api import ReachMissing, Tables
    from yacht.chances.reach_table import chunks_for, folder_name

    query = "s=3,,9,,,18,22,,,,30,&d=22556&r=2&v=strict&o=5,,12,,,24,,,,15,30,"
    lazy = Tables()
    lazy.update(shipped)
    assert advise_query(f"{ME}&d=12346&r=1&{THEM}", lazy)["exact"] is True  # exact: no chunk asked for
    asked = []
    for _ in range(3):
        try:
            answer = advise_query(query, lazy)
            break
        except ReachMissing as missing:
            assert missing.variant == "strict"
            asked.append(sorted(zip(missing.quantities, missing.masks, strict=True)))
            for quantity, mask, name in zip(missing.quantities, missing.masks, missing.names, strict=True):
                data = (ROOT / "public" / "tables" / folder_name("strict", quantity) / name).read_bytes()
                lazy.add_chunk("strict", mask, data, quantity)
    mine = sum(
        1 << c for c, v in enumerate((3, None, 9, None, None, 18, 22, None, None, None, 30, None)) if v is not None
    )
    theirs = sum(
        1 << c for c, v in enumerate((5, None, 12, None, None, 24, None, None, None, 15, 30, None)) if v is not None
    )
    assert asked == [
        [("law", theirs)],
        sorted([("law", m) for m in chunks_for(mine)] + [("reach", m) for m in chunks_for(mine)]),
    ]
    assert answer["exact"] is False and "exact law" in answer["method"] and not lazy.spreads
    cli = run("advise", "--json", query)
    assert cli.returncode == 0, cli.stderr
    assert json.loads(cli.stdout) == json.loads(json.dumps(answer))


@st.composite
def goal_positions(draw):
    """A position in the goal's exact range: at most four free categories of mine, and with an
    opponent (half the time; else a score to reach) as many filled as mine or one more."""
    variant = draw(variants)
    sheet = draw(sheets(variant, min_filled=8, max_filled=11))
    roll = draw(st.sampled_from((0, 1, 2, 3)))
    mine = sum(v is not None for v in sheet)
    if draw(st.booleans()):
        theirs = draw(sheets(variant, min_filled=mine, max_filled=min(mine + 1, 11)))
        goal = {"opponent": theirs}
    else:
        goal = {"target": draw(st.integers(0, 350))}
    return Position(sheet, draw(dice) if roll else None, roll, variant, **goal)


def _goal_of_final(position: Position, tilde: np.ndarray) -> tuple[list[str], np.ndarray]:
    """The goal's channels as a function of my final score F (rows F = 0 … 399)."""
    if position.target is not None:
        return ["reach"], reach_payoff(position.target, 400)[0]
    law, exact = opponent_law(tilde, None, position.variant, *sheet_state(position.opponent))
    assert exact
    return ["win", "draw"], win_payoff(law, 400)[0]


@settings(max_examples=40)
@given(position=goal_positions())
def test_the_goals_distribution_gives_the_goals_own_chances(shipped, position):
    """Under the goal's play, the final-score law's P(F ≥ t) (or E[P(Y < F)], E[P(Y = F)]) is the
    chance the goal's best option is ranked by, to 1e-12: it is the law of the play advised."""
    tilde = shipped[position.variant.name].tilde
    dist = goal_distribution(position, tilde)
    assert dist is not None and dist["play"] == "goal" and dist["exact"] is True
    p = np.array(dist["p"])
    finals = dist["from"] + np.arange(len(p))
    mask, nu, sigma = sheet_state(position.sheet)
    assert dist["from"] == sigma and len(p) <= max_future(position.variant, mask, nu) + 1
    assert p.min() >= -1e-15 and p.sum() == pytest.approx(1, abs=1e-12)
    assert dist["expected"] == pytest.approx(float(finals @ p), abs=1e-9)
    assert 0 <= dist["bonus"] <= 1 + 1e-12
    answer = advise_query(format_query(position), shipped)
    names, payoff = _goal_of_final(position, tilde)
    for k, name in enumerate(names):
        assert float(p @ payoff[finals, k]) == pytest.approx(answer[name], abs=1e-12), name
    # The best average is the most any play can expect, up to the shipped table's rounding: its
    # values are within 0.5 / SCALE of Ẽ (Hypothesis found an exact law 2.4e-6 above the advice).
    assert dist["expected"] <= advise(position, tilde).expected + 0.5 / SCALE


@pytest.mark.parametrize("others", [(3, 6, 9, 15, 18), (3, 8, 9, 15, 24), (3, 6, 9, 15, 12), (1, 4, 6, 10, 18)])
def test_the_goals_distribution_carries_the_upper_bonus(shipped, others):
    """Only Fours left, the other upper categories at ``others``: the bonus is exactly the
    chance of a final score of at least σ + (63 − upper) + 35 (Fours scoring what is missing)."""
    sheet = (*others[:3], None, *others[3:], 22, 20, 25, 15, 30, 0)
    sigma = sum(v for v in sheet if v is not None)
    position = Position(sheet, (4, 4, 1, 2, 3), 1, OFFICIAL, target=sigma + 10)
    dist = goal_distribution(position, shipped["official"].tilde)
    p = np.array(dist["p"])
    needed = 63 - sum(others)
    assert dist["bonus"] == pytest.approx(p[needed + 35 :].sum() if needed <= 20 else 0.0, abs=1e-12)
    # Holding 4 4 already: 8 is sure; more than 20 (five Fours) is out of reach.
    assert (0 < dist["bonus"] < 1) == (8 < needed <= 20)


def test_the_distribution_follows_the_advised_play(shipped):
    """The goal's play where it is exact ("play": "goal"), else the best average's ("average"),
    in the CLI's --distribution and the page's distribution_query alike."""
    exact = f"{ME}&d=12346&r=1&{THEM}"
    assert distribution_query(exact, shipped)["distribution"]["play"] == "goal"
    assert advise_query(exact, shipped, with_distribution=True)["distribution"]["play"] == "goal"
    assert distribution_query(f"{ME}&d=12346&r=1", shipped)["distribution"]["play"] == "average"
    far = "s=3,,9,,,18,22,,,,30,&d=22556&r=2&t=200"  # seven free: the goal is approximate
    assert goal_distribution(parse_query(far), shipped["official"].tilde) is None
    assert distribution_query(far, shipped)["distribution"]["play"] == "average"
    theirs_far = "s=1,2,3,4,5,6,20,,,,,&d=12346&r=1&o=2,4,6,8,10,12,22,,,,,"  # five free each: approximate
    assert goal_distribution(parse_query(theirs_far), shipped["official"].tilde) is None
