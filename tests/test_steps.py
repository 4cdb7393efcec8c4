"""The final-score chart in steps (yacht.core.steps): on every path it takes (the goal's exact
law, the target's simulated play, the best average's exact law or simulated games) it comes in
many steps, each a bounded share of the work, whose value is the chart. The page's
worker answers the advice of a new position between two steps (tests/browser/test_chart_steps.py)."""

import pytest
from yacht.api import Tables, distribution_query_steps
from yacht.chances.outcome import solve_outcome, solve_outcome_steps
from yacht.core.options import sheet_state
from yacht.core.position import parse_query
from yacht.core.steps import finish
from yacht.loader import DEFAULT_TABLES

PATHS = {
    # (play, exact): a position whose chart takes that path, and the fewest steps it must come in
    ("goal", True): ("s=1,,9,12,15,,25,,24,15,30,&d=61133&r=3&t=161", 8),
    ("goal", False): ("s=1,4,,12,,,,,27,15,,0&d=36413&r=2&t=146", 6),
    ("average", True): ("s=,4,,12,15,,26,,,15,30,&d=36416&r=1&o=0,8,6,16,,24,,24,,,,50", 6),
    ("average", False): ("s=,,,,,,,,,,,&d=46155&r=1&t=200", 24),
}


@pytest.fixture(scope="module")
def loaded() -> Tables:
    """The shipped tables and chunks, each read on first use."""
    return Tables(DEFAULT_TABLES)


def steps_of(steps) -> tuple[int, object]:
    """(how many steps ``steps`` yielded, its value)."""
    count = 0
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return count, done.value
        count += 1


@pytest.mark.parametrize("path", list(PATHS), ids=lambda p: f"{p[0]}-{'exact' if p[1] else 'simulated'}")
def test_the_chart_comes_in_steps_on_every_path(loaded, path) -> None:
    """Each path yields many times (the simulated games at least twice a turn: each turn's
    choices, then its dice), and its value is a whole law of the path it names."""
    query, fewest = PATHS[path]
    count, answer = steps_of(distribution_query_steps(query, loaded))
    chart = answer["distribution"]
    assert (chart["play"], chart["exact"]) == path
    assert count >= fewest, count
    assert answer["query"] == query and answer["variant"] == "official"
    assert sum(chart["p"]) == pytest.approx(1.0, abs=1e-9)


def test_a_level_of_the_exact_law_is_solved_in_parts_of_bounded_columns(loaded) -> None:
    """solve_outcome_steps: a level of more than ``STEP_COLUMNS`` (state, points) columns takes
    several steps, and the law is the same as the solve run to the end (finish)."""
    position = parse_query(PATHS[("average", True)][0])
    tilde = loaded["official"].tilde
    mask, nu, sigma = sheet_state(position.sheet)
    count, outcome = steps_of(solve_outcome_steps(tilde, position.variant, mask, nu, sigma))
    levels = 12 - bin(mask).count("1")
    assert count > levels, (count, levels)
    whole = solve_outcome(tilde, position.variant, mask, nu, sigma)
    assert (outcome.root.start == whole.root.start).all()


def test_finish_runs_the_steps_to_their_value() -> None:
    def steps():
        yield
        yield
        return "done"

    assert finish(steps()) == "done"
    assert steps_of(steps()) == (2, "done")
