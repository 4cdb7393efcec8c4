"""The coach (``yacht.chances.coach``): the aims, bonus chances and category expectations of every
option against a brute force and a simulation, the shipped files against the solve, ``why``,
the CLI and the API."""

import json
import shutil
import subprocess
import sys

import numpy as np
import pytest
from bruteforce import coach_options
from conftest import TABLES
from strategies import advisor_practice
from test_cli_input import call
from yacht.api import CoachMissing, Tables, explain_decision_query, explain_query, review_query
from yacht.chances.coach import empty_coach, explain, solve_coach_states
from yacht.chances.coach_table import SCALES, file_name
from yacht.core.categories import BONUS_POINTS, BONUS_THRESHOLD, N_CATEGORIES, N_UPPER
from yacht.core.dice import KEEP_COUNTS, N_DICE, N_FACES, ROLL_OFFSET, keep_index
from yacht.core.options import advise, sheet_state
from yacht.core.policy import expected_policy
from yacht.core.position import parse_query
from yacht.core.rules import OFFICIAL, VARIANTS, score_table
from yacht.core.states import POPCOUNT, REACHABLE
from yacht.play.game import GameError

from build_table.coach import solve_coach

NEAR_END = 8
"""The tests solve B and E_c of every state with at least this many categories filled."""

# Sheets with 1–3 free categories: the upper ones near the bonus, so that it is in play.
BRUTE_POSITIONS = [
    "s=3,6,9,12,,18,20,0,25,15,30,50&d=12556&r=1",  # Fives free: 15 more for the bonus
    "s=3,6,9,12,,18,20,0,25,15,30,50&d=55513&r=2",
    "s=3,6,9,12,15,,20,0,25,15,30,&d=66612&r=1",  # Sixes and Yacht
    "s=3,6,9,12,15,,20,0,25,15,30,&d=66612&r=2",
    "s=3,6,9,12,15,,20,0,25,15,30,&d=66612&r=3",
    "s=3,6,9,,15,18,20,0,24,,30,&d=44523&r=1&v=strict",  # Fours, S.Straight, Yacht
    "s=3,6,9,,15,18,20,0,24,,30,&d=44523&r=2&v=strict",
]
# Positions from every stage, for the simulation.
STAGE_POSITIONS = [
    "d=33455&r=1",  # early: an empty sheet
    "d=12366&r=2&v=strict",
    "s=3,,9,,,18,,,,,30,&d=14466&r=1",  # mid
    "s=3,,9,,,18,,,,,30,&d=14466&r=2",
    "s=1,2,3,4,5,6,20,0,0,,,&d=12346&r=1",  # late
    "s=3,6,9,,15,18,20,0,25,,30,&d=44523&r=2",
]


@pytest.fixture(scope="module")
def tables() -> Tables:
    return Tables(TABLES)


@pytest.fixture(scope="module")
def near_end(tables) -> dict[str, np.ndarray]:
    """B and E_c (unquantized, float64) of every state with ``NEAR_END`` or more categories filled,
    under the advisor's play on the shipped Ẽ (the play the shipped files were solved for)."""
    solved = {}
    for name, variant in VARIANTS.items():
        coach = empty_coach()
        solve_coach_states(tables[name].tilde, score_table(variant), coach, lowest=NEAR_END)
        solved[name] = coach
    return solved


def explained_options(query: str, tilde: np.ndarray, coach: np.ndarray):
    advice = advise(parse_query(query), tilde)
    return advice, explain(advice, tilde, coach)


@pytest.mark.parametrize("query", BRUTE_POSITIONS + STAGE_POSITIONS)
def test_aims_of_each_option_sum_to_one_with_positive_chances_sorted(query, tables):
    position = parse_query(query)
    _, explained = explained_options(query, tables[position.variant.name].tilde, tables.coach(position.variant.name))
    for e in explained:
        chances = [a.p for a in e.aims]
        assert sum(chances) == pytest.approx(1.0, abs=1e-12)
        assert all(p > 0 for p in chances) and chances == sorted(chances, reverse=True)
        assert all(0 <= a.scratch <= a.p for a in e.aims)


@pytest.mark.parametrize("query", STAGE_POSITIONS)
def test_category_expectations_and_bonus_add_up_to_each_options_expected_score(query, tables):
    """The points still to come are Σ_c E_c + 35·(B − bonus already earned): the option's expected
    final score less the score now — to float rounding, the loader's coach values being made to add
    up to Ẽ (coach_table.consistent)."""
    position = parse_query(query)
    advice, explained = explained_options(
        query, tables[position.variant.name].tilde, tables.coach(position.variant.name)
    )
    earned = sheet_state(position.sheet)[1] >= BONUS_THRESHOLD
    for option, e in zip(advice.options, explained, strict=True):
        future = sum(v for _, v in e.categories) + BONUS_POINTS * (e.bonus - earned)
        assert future == pytest.approx(option.expected - advice.score, abs=1e-9)


@pytest.mark.parametrize("query", BRUTE_POSITIONS)
def test_aims_bonus_and_categories_equal_a_brute_force(query, tables, near_end):
    position = parse_query(query)
    name = position.variant.name
    tilde = tables[name].tilde
    advice, explained = explained_options(query, tilde, near_end[name])
    worst = 0.0
    brute = coach_options(position.sheet, position.variant, tilde, position.roll, position.dice)
    for option, e in zip(advice.options, explained, strict=True):
        stop = option.keep is None or len(option.keep) == 5
        aims, bonus, categories = brute(keep=None if stop else option.keep, category=option.category if stop else None)
        assert sorted(a.category for a in e.aims) == sorted(aims)
        for c, p, mean, scratch in e.aims:
            worst = max(worst, abs(p - aims[c][0]), abs(mean - aims[c][1]), abs(scratch - aims[c][2]))
        worst = max(worst, abs(bonus - e.bonus), *(abs(categories[c] - v) for c, v in e.categories))
    print(f"{query}: largest error {worst:.2e}")
    assert worst < 1e-9


def test_the_builds_solve_of_the_canonical_states_gives_every_state_the_bits_of_its_own_solve(tables, near_end):
    """``build_table`` solves the canonical ν of each level and copies their rows to the other ν
    (``solve.copied_levels``): near the end, bit for bit the solve of every state on its own."""
    built = solve_coach(OFFICIAL, tables["official"].tilde)
    states = REACHABLE & (POPCOUNT >= NEAR_END)[:, None]
    assert np.array_equal(built[states], near_end["official"][states])


def test_the_shipped_files_equal_the_solve_within_their_precision(tables, near_end):
    for name in VARIANTS:
        tables.coach(name)
        states = REACHABLE & (POPCOUNT >= NEAR_END)[:, None]
        bonus = np.abs(tables.coaches[name, "bonus"] - near_end[name][..., 0])[states]
        points = np.abs(tables.coaches[name, "points"] - near_end[name][..., 1:])[states]
        assert bonus.max() <= 0.5 / SCALES["bonus"] + 1e-9
        assert points.max() <= 0.5 / SCALES["points"] + 1e-9


def test_the_loaders_coach_adds_up_to_the_table_and_stays_as_near_the_solve(tables, near_end):
    """coach_table.consistent: at every reachable state Σ_c E_c + 35·(B − [ν = 63]) = Ẽ to float
    rounding; the bonus as stored; over the states near the end (where the solve is at hand) the
    values no farther from the solve than the files' rounding, in the sum of squares, and each
    within the rounding plus the state's residual."""
    earned = np.arange(64) >= BONUS_THRESHOLD
    for name in VARIANTS:
        coach, tilde = tables.coach(name), tables[name].tilde
        future = coach[..., 1:].sum(axis=-1) + BONUS_POINTS * (coach[..., 0] - earned)
        assert np.abs(future - tilde)[REACHABLE].max() < 1e-9
        assert np.array_equal(coach[..., 0], tables.coaches[name, "bonus"])
        states = REACHABLE & (POPCOUNT >= NEAR_END)[:, None]
        solve, stored = near_end[name][..., 1:][states], tables.coaches[name, "points"][states]
        assert ((coach[..., 1:][states] - solve) ** 2).sum() <= ((stored - solve) ** 2).sum()
        assert np.abs(coach[..., 1:][states] - solve).max() <= 0.5 / SCALES["points"] + 0.02


def _code(counts: np.ndarray) -> np.ndarray:
    return counts @ (N_DICE + 1) ** np.arange(N_FACES)


_KEEP_OF_CODE = np.full((N_DICE + 1) ** N_FACES, -1)
_KEEP_OF_CODE[_code(KEEP_COUNTS)] = np.arange(len(KEEP_COUNTS))


def _throw(rng: np.random.Generator, kept: np.ndarray) -> np.ndarray:
    """(N,) the roll index (0–251) after throwing the dice missing from ``kept`` (N, 6) counts."""
    missing = N_DICE - kept.sum(axis=1)
    faces = rng.integers(0, N_FACES, size=(len(kept), N_DICE))
    thrown = (faces[..., None] == np.arange(N_FACES)) & (np.arange(N_DICE) < missing[:, None])[..., None]
    return _KEEP_OF_CODE[_code(kept + thrown.sum(axis=1))] - ROLL_OFFSET


def simulate_option(query: str, keep: tuple[int, ...], tables, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` turns played with real dice after keeping ``keep`` (fewer than five) at ``query``'s roll,
    the advisor's play after: (the category each ended in (n,), its points (n,)), and the state after."""
    position = parse_query(query)
    name = position.variant.name
    mask, nu, _ = sheet_state(position.sheet)
    scores = score_table(position.variant)
    policy = expected_policy(tables[name].tilde, scores, np.array([mask]), np.array([nu]))
    rng = np.random.default_rng(seed)
    kept = np.repeat(KEEP_COUNTS[keep_index(keep)][None], n, axis=0)
    roll = _throw(rng, kept)
    if position.roll == 1:  # the second roll's keep, the advisor's; all five kept: stop
        keep2 = policy.keep2[roll, 0]
        again = keep2 < ROLL_OFFSET
        roll[again] = _throw(rng, KEEP_COUNTS[keep2[again]])
    category = policy.category[roll, 0]
    return category, scores[roll, category]


def _after(tables, query: str, category: np.ndarray, points: np.ndarray) -> np.ndarray:
    """(n, 13) per simulated turn: B of the state after it, and per c the points scored now if c,
    else E_c of the state after (the shipped files)."""
    position = parse_query(query)
    mask, nu, _ = sheet_state(position.sheet)
    coach = tables.coach(position.variant.name)
    upper = category < N_UPPER
    after = coach[mask | 1 << category, np.where(upper, np.minimum(nu + points, BONUS_THRESHOLD), nu)].copy()
    scored = np.arange(N_CATEGORIES) == category[:, None]
    after[:, 1:] = np.where(scored, points[:, None], after[:, 1:])
    return after


@pytest.mark.parametrize("query", STAGE_POSITIONS)
def test_a_simulation_of_100000_turns_agrees_within_4_standard_errors(query, tables):
    """The two best options that reroll (a stop scores at once: nothing to simulate) of positions
    from every stage: each aim's chance and mean points, the bonus chance and each category's
    expected points, against 100,000 seeded turns."""
    n = 100_000
    position = parse_query(query)
    advice, explained = explained_options(
        query, tables[position.variant.name].tilde, tables.coach(position.variant.name)
    )
    rerolling = [(o, e) for o, e in zip(advice.options, explained, strict=True) if len(o.keep) < 5]
    worst = 0.0
    for rank, (option, e) in enumerate(rerolling[:2]):
        category, points = simulate_option(query, option.keep, tables, n, seed=rank)
        for c, p, mean, scratch in e.aims:
            hit = category == c
            worst = max(worst, abs(hit.mean() - p) / np.sqrt(p * (1 - p) / n) if p < 1 else 0.0)
            zero = hit & (points == 0)
            if 0 < scratch < 1:
                worst = max(worst, abs(zero.mean() - scratch) / np.sqrt(scratch * (1 - scratch) / n))
            if hit.sum() > 1 and points[hit].std() > 0:
                worst = max(worst, abs(points[hit].mean() - mean) / (points[hit].std() / np.sqrt(hit.sum())))
        after = _after(tables, query, category, points)
        exact = np.array([e.bonus, *(dict(e.categories).get(c, 0.0) for c in range(N_CATEGORIES))])
        spread = after.std(axis=0) / np.sqrt(n)
        varies = spread > 0
        assert np.allclose(after.mean(axis=0)[~varies], exact[~varies], atol=1e-9)
        worst = max(worst, np.max(np.abs(after.mean(axis=0) - exact)[varies] / spread[varies], initial=0.0))
    print(f"{query}: largest |z| {worst:.2f}")
    assert worst < 4


def test_explain_query_gives_every_option_its_fields_and_the_why():
    answer = explain_query("s=3,,9,,,18,,,,,30,&d=14466&r=1", Tables(TABLES))
    assert answer["query"] == "s=3,,9,,,18,,,,,30,&d=14466&r=1" and answer["variant"] == "official"
    for option in answer["options"]:
        assert {"aims", "bonus", "categories", "plan"} <= set(option)
        assert [c["category"] for c in option["categories"]] == [1, 3, 4, 6, 7, 8, 9, 11]
    assert "why" not in answer["options"][0]
    assert all(o["why"]["versus"] == [4, 4] for o in answer["options"][1:])
    assert answer["why"] == answer["options"][1]["why"]


def test_explain_query_without_the_coach_files_names_them():
    tables = Tables()
    tables["official"] = Tables(TABLES)["official"]
    with pytest.raises(CoachMissing) as raised:
        explain_query("d=14466&r=1", tables)
    assert raised.value.names == ["yacht-official.bonus", "yacht-official.points"]


def test_cli_json_is_the_api_answer():
    query = "s=3,,9,,,18,,,,,30,&d=14466&r=3"
    status, out, err = call("advise", "--explain", "--json", query)
    assert status == 0, err
    assert json.loads(out) == json.loads(json.dumps(explain_query(query, Tables(TABLES))))
    assert json.loads(out)["options"][0]["aims"] == [{"category": 6, "p": 1.0, "mean_points": 21.0, "scratch": 0.0}]


def test_cli_review_json_explains_each_decision():
    record = "h=14466-4466-24466g.12356-6-16663-666-66634f"
    status, out, err = call("review", "--explain", "--json", record)
    assert status == 0, err
    for decision in json.loads(out)["decisions"]:
        for option in (decision["best"], decision["chosen"]):
            assert {"aims", "bonus", "categories"} <= set(option)
        assert decision["why"] == decision["chosen"]["why"]
    status, text, err = call("review", "--explain", record)
    assert status == 0, err
    assert "turn 1 roll 1 dice 14466: Keep 6 6 (not 4 4 6 6): " in text


@pytest.mark.parametrize("opponent", [False, True])
def test_explain_decision_query_is_the_reviews_explanation_of_that_decision(tables, opponent):
    """Every decision of a practice game (the advisor's choices, the second best every fifth), alone
    or against the simulated opponent (the review graded by the chance of winning): the decision,
    its grade (by the goal's chance against the opponent), the coach's fields and the why (with the
    goal's chances) are the review's with explain=True; -1 is the last decision."""
    record = advisor_practice(tables["official"].tilde, VARIANTS["official"], 4242, opponent).query
    review = review_query(record, tables, explain=True)
    assert any(d["why"]["shown"] for d in review["decisions"])
    for index, decision in enumerate(review["decisions"]):
        answer = explain_decision_query(record, tables, index)
        assert answer["query"] == review["query"] and answer["variant"] == "official"
        shown = answer["decision"]
        assert {k: shown[k] for k in REVIEW_KEYS} == {k: decision[k] for k in REVIEW_KEYS}, index
        assert shown["grade"]["measure"] == ("win" if opponent else "score")
        assert ("winning" in shown) == opponent
        assert (shown["why"]["goal"] is not None) == opponent
        assert ("goal_aims" in shown["best"]) == ("goal_aims" in shown["chosen"]) == opponent
        assert shown == decision
    assert explain_decision_query(record, tables)["decision"] == explain_decision_query(record, tables, -1)["decision"]


REVIEW_KEYS = ("turn", "roll", "dice", "query", "chosen", "best", "loss", "why")
"""What explain_decision_query's decision shares with the review's in every game."""


def test_explain_decision_query_explains_stopping_early_and_names_a_missing_decision(tables):
    """Scoring at roll 2 (a category the advice would not stop in) is explained as scoring it now:
    one aim, certain; an index past the record is a GameError on h=; without the coach's files,
    CoachMissing."""
    record = "h=14466-4466-24466g"  # Choice scored at roll 2
    decision = explain_decision_query(record, tables, 1)["decision"]
    assert decision["chosen"]["aims"] == [{"category": 6, "p": 1.0, "mean_points": 22.0, "scratch": 0.0}]
    assert decision["best"]["keep"] == [4, 4, 6, 6] and decision["why"]["shown"]
    assert sum(a["p"] for a in decision["best"]["aims"]) == pytest.approx(1.0, abs=1e-12)
    with pytest.raises(GameError, match="no decision 2: the record has 2") as raised:
        explain_decision_query(record, tables, 2)
    assert raised.value.field == "h"
    bare = Tables()
    bare["official"] = tables["official"]
    with pytest.raises(CoachMissing):
        explain_decision_query(record, bare, 0)


def test_cli_bad_input_with_explain_is_a_message_not_a_traceback():
    status, _, err = call("advise", "--explain", "d=1234&r=1")
    assert status == 2 and "Traceback" not in err
    assert "d: expected 5 dice" in err
    status, _, err = call("advise", "--explain", "--lang", "fr", "d=12345&r=1")
    assert status == 2 and "invalid choice: 'fr'" in err


@pytest.mark.parametrize("damage", ["missing", "corrupt"])
def test_a_missing_or_corrupt_coach_file_is_reported_naming_it(tmp_path, damage):
    for path in TABLES.glob("yacht-official.*"):
        if path.is_file():
            (tmp_path / path.name).symlink_to(path)
    target = tmp_path / file_name("official", "bonus")
    target.unlink()
    if damage == "corrupt":
        data = bytearray((TABLES / file_name("official", "bonus")).read_bytes())
        data[100] ^= 0xFF
        target.write_bytes(bytes(data))
    status, _, err = call("advise", "--explain", "--tables", str(tmp_path), "d=12345&r=1")
    assert status == 1 and "Traceback" not in err
    assert str(target) in err
    assert ("cannot read" if damage == "missing" else "checksum mismatch") in err


@pytest.mark.parametrize(
    "query",
    [
        "s=1,2,3,4,5,6,20,0,0,,,&d=12346&r=2&t=115",
        "s=3,6,9,,15,18,20,0,25,,30,&d=44523&r=2&o=2,4,6,8,10,12,22,0,0,15,,",
    ],
)
def test_goal_aims_follow_the_goals_category_at_every_third_roll(query, tables):
    """At roll 2, a keep's aims under the goal's play are the chances of the rolls whose best
    category for the goal (``solve_turn``'s channels after it, weighted) is each category."""
    from bruteforce import throws
    from yacht.chances.coach import goal_aims
    from yacht.chances.goal import solve_turn
    from yacht.core.dice import roll_index

    position = parse_query(query)
    name = position.variant.name
    solved = solve_turn(position, tables[name].tilde, lambda: tables.spread(name))
    scores = score_table(position.variant)
    aims = goal_aims(position, solved)
    for key, found in aims.items():
        assert sum(a.p for a in found) == pytest.approx(1.0, abs=1e-12)
        if key[0] != "keep":
            continue
        expected: dict[int, list[float]] = {}
        for thrown, p in throws(N_DICE - len(key[1])):
            roll = roll_index(tuple(sorted(key[1] + thrown)))
            objective = {c: values[roll] @ solved.weights for c, values in solved.after.items()}
            best = max(objective, key=lambda c: (objective[c], -c))
            hit = expected.setdefault(best, [0.0, 0.0, 0.0])
            hit[0] += p
            hit[1] += p * scores[roll, best]
            hit[2] += p * (scores[roll, best] == 0)
        want = sorted((c, p, w / p, z) for c, (p, w, z) in expected.items())
        assert [a[0] for a in sorted(found)] == [a[0] for a in want]
        assert np.allclose([a[1:] for a in sorted(found)], [a[1:] for a in want], rtol=0, atol=1e-12)
    answer = explain_query(query, tables)
    assert all("goal_aims" in option for option in answer["options"])


def build_coach(out) -> subprocess.CompletedProcess:
    """``python -m build_table`` for the strict variant's coach files only, into ``out``."""
    from conftest import ROOT

    argv = [sys.executable, "-m", "build_table", "--variant", "strict", "--only", "coach", "--out", str(out)]
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)


def test_build_table_skips_the_coach_files_when_their_stamp_is_this_source(tmp_path):
    """The shipped files with their stamp: nothing is solved again; the files keep their bytes
    (only touched, so that make sees them newer than their sources)."""
    names = [file_name("strict", q) for q in ("bonus", "points")] + ["yacht-strict.bonus.stamp"]
    for name in names:
        shutil.copy2(TABLES / name, tmp_path / name)
    before = {name: (tmp_path / name).read_bytes() for name in names}
    run = build_coach(tmp_path)
    assert run.returncode == 0, run.stderr
    assert "strict: coach is up to date" in run.stdout and "solved" not in run.stdout
    assert {name: (tmp_path / name).read_bytes() for name in names} == before


@pytest.mark.slow  # a 20-second solve; make test checks the skip above and the files against the solve
def test_build_table_writes_the_coach_files_as_shipped_with_a_stamp_and_skips_them_when_up_to_date(tmp_path):
    run = build_coach(tmp_path)
    assert run.returncode == 0, run.stderr
    assert "strict: coach solved in" in run.stdout
    for quantity in ("bonus", "points"):
        assert (tmp_path / file_name("strict", quantity)).read_bytes() == (
            TABLES / file_name("strict", quantity)
        ).read_bytes()
    assert json.loads((tmp_path / "yacht-strict.bonus.stamp").read_text())["kind"] == "coach"
    again = build_coach(tmp_path)
    assert "strict: coach is up to date" in again.stdout
