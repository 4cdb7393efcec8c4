"""Why the best beats another option, in points (``yacht.chances.coach.why``, ``yacht.api``'s
``"why"``): every term listed, summing to the gap in expected final score (to float rounding on
the loader's consistent coach values, and on a float64 solve of small sheets), the words' terms
carrying most of the movement with one in favour of the best; and the command line's words."""

import numpy as np
import pytest
from conftest import TABLES
from test_cli_input import call
from test_coach import BRUTE_POSITIONS, explained_options
from yacht.api import Tables, explain_query
from yacht.chances.coach import empty_coach, solve_coach_states, why
from yacht.core.categories import N_CATEGORIES
from yacht.core.position import parse_query
from yacht.core.rules import VARIANTS, score_table


@pytest.fixture(scope="module")
def tables() -> Tables:
    return Tables(TABLES)


def test_why_lists_every_term_largest_first_summing_to_the_gap(tables):
    query = "s=3,,9,,,18,,,,,30,&d=14466&r=1"
    advice, explained = explained_options(query, tables["official"].tilde, tables.coach("official"))
    total = advice.options[0].expected - advice.options[1].expected
    found = why(explained[0], explained[1], total)
    points = [t["points"] for t in found["terms"]]
    assert points == sorted(points, key=lambda x: -abs(x))
    assert sorted(t["category"] for t in found["terms"] if t["category"] != "bonus") == [1, 3, 4, 6, 7, 8, 9, 11]
    assert sum(points) == pytest.approx(found["total"], abs=1e-9) and found["total"] == total
    assert found["shown"] and any(points[i] > 0 for i in found["shown"])
    assert why(explained[0], explained[0], 0.0)["shown"] == []


@pytest.mark.parametrize(
    ("points", "shown"),
    [
        ([3.0, -1.0, 0.5, 0.5], [0, 1]),  # 3 + 1 = 80 % of 5
        ([-4.2, 2.4, 0.9, 0.5, 0.2], [0, 1]),  # 4.2 + 2.4 carry 80 % of 8.2
        ([-4.0, -1.0, 0.6], [0, 1, 2]),  # 4 + 1 carry 89 %, both against the best: its largest in favour added
        ([0.0, 0.0], []),
        ([1.0], [0]),
    ],
)
def test_the_words_show_the_terms_carrying_80_percent_and_one_for_the_best(points, shown):
    from yacht.chances.coach import shown_terms

    assert shown_terms(points) == shown


def test_cli_text_explains_why_the_best_beats_the_next_best():
    status, out, err = call("advise", "--explain", "s=3,,9,,,18,,,,,30,&d=14466&r=2")
    assert status == 0, err
    why = "Keep 4 4 6 6 (not 4 4): +2.3 Full House, −1.2 bonus, +0.7 Yacht, −0.7 Four Dice … = +1.00\u00a0pts"
    assert f"Why the best: {why}" in out
    line = "  1  Keep 4 4 6 6: plays for Choice 67 % (avg 22.8), Full House 33 % (avg 25.0); bonus 64 %"
    assert line.replace(" %", "\u00a0%") in out  # no % alone on a line


def test_cli_text_in_japanese_uses_the_japanese_names():
    status, out, err = call("advise", "--explain", "--lang", "ja", "s=3,,9,,,18,,,,,30,&d=14466&r=2")
    assert status == 0, err
    why = "4 4 6 6 を残す(4 4 ではなく): フルハウス +2.3、ボーナス −1.2、ヨット +0.7、フォーダイス −0.7 … "
    why += "= +1.00\u00a0点"
    assert f"最善の理由: {why}" in out


@pytest.fixture(scope="module")
def stages(tables) -> list[str]:
    """72 positions from every stage of a game, both variants, every roll (goal_positions: the
    sheets the advisor plays to), half of them with their goal (o= or t=), half without."""
    from goal_positions import goal_positions
    from yacht.core.position import Position, format_query

    found = goal_positions({v: tables[v].tilde for v in VARIANTS}, 72, 3838)
    out = []
    for i, query in enumerate(found):
        p = parse_query(query)
        out.append(query if i % 2 else format_query(Position(p.sheet, p.dice, p.roll, p.variant)))
    return out


def test_every_options_why_adds_up_to_its_gap_and_shows_a_term_for_the_best(tables, stages):
    """For every option but the first of every position: the terms (one per free category and the
    bonus) sum to the gap in expected final score within 0.005 points (the shipped files' values, made
    consistent: in fact to float rounding), every term is listed once, the shown terms carry 80 % of
    the movement, and they hold one in favour of the best wherever there is one."""
    worst, count = 0.0, 0
    for query in stages:
        answer = explain_query(query, tables)
        options = answer["options"]
        free = {c["category"] for c in options[0]["categories"]}
        for option in options[1:]:
            why = option["why"]
            points = [t["points"] for t in why["terms"]]
            assert why["total"] == pytest.approx(options[0]["expected"] - option["expected"], abs=1e-12)
            worst = max(worst, abs(sum(points) - why["total"]))
            assert sorted(str(t["category"]) for t in why["terms"]) == sorted([*map(str, free), "bonus"])
            gross = sum(abs(x) for x in points)
            if gross > 1e-9:
                assert sum(abs(points[i]) for i in why["shown"]) >= 0.8 * gross - 1e-9
            if any(x > 1e-9 for x in points):
                assert any(points[i] > 1e-9 for i in why["shown"]), (query, option)
            assert all(0 <= a["scratch"] <= a["p"] + 1e-15 for a in option["aims"])
            count += 1
    print(f"{count} options of {len(stages)} positions: largest |Σ terms − gap| {worst:.1e} points")
    assert count > 500
    assert worst <= 0.005


@pytest.fixture(scope="module")
def small_sheets(solved) -> dict[str, np.ndarray]:
    """B and E_c of every state with 9 or more categories filled, solved in float64 under the
    advisor's play on the float64 Ẽ (``solved``): no file's rounding anywhere."""
    out = {}
    for name, variant in VARIANTS.items():
        coach = empty_coach()
        solve_coach_states(solved[name], score_table(variant), coach, lowest=N_CATEGORIES - 3)
        out[name] = coach
    return out


@pytest.mark.parametrize("query", BRUTE_POSITIONS)
def test_on_a_float64_solve_the_terms_sum_to_the_gap_within_1e_9(query, solved, small_sheets):
    position = parse_query(query)
    name = position.variant.name
    advice, explained = explained_options(query, solved[name], small_sheets[name])
    for option, e in zip(advice.options[1:], explained[1:], strict=True):
        total = advice.options[0].expected - option.expected
        found = why(explained[0], e, total)
        assert sum(t["points"] for t in found["terms"]) == pytest.approx(total, abs=1e-9)


@pytest.mark.parametrize(
    ("a", "b", "said"),
    [
        (0.082, 0.080, ("8.2\u00a0%", "8.0\u00a0%")),  # whole percents would say "8 % vs 8 %"
        (0.312451, 0.312449, ("31.25\u00a0%", "31.24\u00a0%")),
        (0.5, 0.5, ("50.000\u00a0%", "50.000\u00a0%")),  # equal: three decimals say so
        (0.62, 0.31, ("62.0\u00a0%", "31.0\u00a0%")),
    ],
)
def test_a_goals_two_chances_are_written_apart(a, b, said):
    from yacht.cli.coach_text import percents_apart

    assert percents_apart(a, b) == said


@pytest.mark.parametrize(
    ("best", "other", "en", "ja"),
    [
        ({"keep": [2, 3]}, {"keep": [1, 2, 3]}, "Keep 2 3 (not 1 2 3)", "2 3 を残す(1 2 3 ではなく)"),
        (
            {"keep": [1, 1, 1, 1, 1], "category": 11},
            {"keep": [1, 1, 1, 1]},
            "Score Yacht now (not keep 1 1 1 1)",
            "今 ヨット に記入(1 1 1 1 を残す ではなく)",
        ),
        ({"keep": [4, 4]}, {"keep": []}, "Keep 4 4 (not reroll all)", "4 4 を残す(全部振り直す ではなく)"),
        ({"category": 6}, {"keep": [6]}, "Score Choice (not keep 6)", "チョイス に記入(6 を残す ではなく)"),
    ],
)
def test_the_option_set_against_keeps_its_verb_unless_both_keep_dice(best, other, en, ja):
    from yacht.cli.coach_text import why_words

    assert why_words(best, other, None, "en") == f"{en}: the same as the best"
    assert why_words(best, other, None, "ja") == f"{ja}: 最善と同じ"
