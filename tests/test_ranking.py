"""The core's order of options (yacht.core.ranking) and where it shows: the advisor's and the
goal's answers carry it (``rank``, ``average_rank``, ``average_order``, ``chance_loss``,
``decided``), the CLI prints it, the practice opponent keeps its own fixed choice."""

import itertools
import subprocess
import sys

import pytest
from conftest import ROOT, TABLES
from goal_positions import goal_positions
from hypothesis import given
from hypothesis import strategies as st
from yacht.api import advise_query
from yacht.core.options import advise, first_by_value
from yacht.core.position import parse_query
from yacht.core.ranking import TIE, rank, simplicity
from yacht.loader import Tables


@pytest.fixture(scope="module")
def tables() -> Tables:
    """The shipped tables and the chunks a goal reads, as the CLI loads them."""
    return Tables(TABLES)


DECIDED = "s=2,6,9,12,,18,22,0,26,15,30,0&d=62464&r=1&o=3,6,9,12,15,18,23,20,24,15,30,"

grid = st.sampled_from([0.0, 0.5, 1.0])
noise = st.floats(0, TIE / 4)
"""Values on a grid with noise below the tie: equal on the grid is tied, else far apart."""


@given(st.lists(st.tuples(grid, noise, grid, noise, st.integers(0, 6)), min_size=1, max_size=12))
def test_rank_orders_by_each_value_in_turn_then_simpler_then_index_and_ties_share_a_rank(options):
    keys = [(a + da, b + db) for a, da, b, db, _ in options]
    simpler = [s for *_, s in options]
    order, ranks = rank(keys, simpler)
    on_grid = [(a, b) for a, _, b, _, _ in options]
    assert order == sorted(range(len(options)), key=lambda i: (-on_grid[i][0], -on_grid[i][1], simpler[i], i))
    for k, i in enumerate(order):  # tied: equal on the grid; a rank counts the options before
        assert ranks[k] == 1 + sum(on_grid[j] != on_grid[i] for j in order[:k])


def test_simpler_is_scoring_now_then_fewer_dice_rerolled():
    assert simplicity(None, 3) == 0 and simplicity((1, 2, 3, 4, 5), 10) == 0
    assert [simplicity(tuple(range(n)), None) for n in (4, 3, 0)] == [2, 3, 6]


@pytest.mark.parametrize("query", ["s=3,6,9,,15,18,20,0,25,,30,&d=44523&r=2", "s=3,,9,,,18,,,,,30,&d=14466&r=1"])
def test_the_advisors_options_carry_ranks_tied_options_share_one_and_the_simpler_comes_first(query, tables):
    advice = advise(parse_query(query), tables["official"].tilde)
    ranks = [o.rank for o in advice.options]
    assert ranks[0] == 1 and all(a <= b for a, b in itertools.pairwise(ranks))
    for a, b in itertools.pairwise(advice.options):
        assert (a.rank == b.rank) == (abs(a.expected - b.expected) <= 1e-6)
        if a.rank == b.rank:
            assert simplicity(a.keep, a.category) <= simplicity(b.keep, b.category)
    if query.endswith("d=44523&r=2"):  # keeping 2 3 4 5 ties with stopping in S.Straight: stopping first
        tied = [o for o in advice.options if o.rank == 2]
        assert [(o.keep, o.category) for o in tied] == [((2, 3, 4, 4, 5), 9), ((2, 3, 4, 5), None)]


def test_the_practice_opponent_takes_the_highest_value_exact_ties_in_index_order(tables):
    """Keeping 2 3 4 5 ties with stopping in S.Straight (B.Straight is filled): the advice shows
    the stop first (simpler), the practice opponent keeps its recorded choice, the keep (the
    earlier in index order), so that practice records made before replay as played."""
    tilde = tables["official"].tilde
    position = parse_query("s=3,6,9,,15,18,20,0,25,,30,&d=23455&r=2")
    advice = advise(position, tilde)
    assert [(o.keep, o.rank) for o in advice.options[:2]] == [((2, 3, 4, 5, 5), 1), ((2, 3, 4, 5), 1)]
    chosen = first_by_value(position, tilde)
    assert (chosen.keep, chosen.category) == ((2, 3, 4, 5), None)
    assert chosen.expected == advice.options[0].expected
    clear = parse_query("s=3,,9,,,18,,,,,30,&d=14466&r=1")  # no tie: the advice's first
    assert first_by_value(clear, tilde).keep == advise(clear, tilde).options[0].keep == (4, 4)


def test_a_decided_game_is_ordered_by_the_expected_score_and_says_so(tables):
    answer = advise_query(DECIDED, tables)
    assert answer["decided"] is True
    assert all(o["win"] == 0.0 and o["chance_loss"] == 0.0 for o in answer["options"])
    expected = [o["expected"] for o in answer["options"]]
    assert expected == sorted(expected, reverse=True) and answer["options"][0]["keep"] == []
    text = subprocess.run(
        [sys.executable, "-m", "yacht", "advise", DECIDED], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert text[2] == "Decided: playing for the best score"
    assert text[4].split()[:3] == ["1", "(reroll", "all)"] and text[5].split()[0] == "2" and text[6].split()[0] == "2"


def test_goal_answers_rank_by_the_chance_then_the_expected_score_on_generated_positions(tables):
    """96 generated positions (every stage, both variants, o= and t=): ranks and order as the rule
    says; average_order is the order by the expected score alone; decided only when certain."""
    queries = goal_positions({v: tables[v].tilde for v in ("official", "strict")}, 96, 36)
    decided = 0
    for query in queries:
        answer = advise_query(query, tables)
        options = answer["options"]
        chance = [o["win"] + o["draw"] / 2 if "win" in o else o["reach"] for o in options]
        best = chance[0]
        for k, (a, b) in enumerate(itertools.pairwise(options)):
            assert chance[k] >= chance[k + 1] - TIE, query
            if abs(chance[k] - chance[k + 1]) <= TIE / 2 and abs(a["expected"] - b["expected"]) > TIE:
                assert a["expected"] > b["expected"], query
        assert [o["chance_loss"] for o in options] == [pytest.approx(best - c, abs=1e-12) for c in chance]
        by_average = [options[i] for i in answer["average_order"]]
        assert sorted(answer["average_order"]) == list(range(len(options)))
        averages = [o["expected"] for o in by_average]
        assert all(a >= b - TIE for a, b in itertools.pairwise(averages)), query
        assert by_average[0]["average_rank"] == 1
        channels = [o[name] for o in options for name in ("win", "draw", "reach") if name in o]
        certain = all(v <= TIE or v >= 1 - TIE for v in channels)
        assert answer["decided"] == (certain and max(chance) - min(chance) <= TIE), query
        decided += answer["decided"]
    assert decided >= 3
