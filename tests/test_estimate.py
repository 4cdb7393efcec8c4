"""A goal's answer without the files its caller could not fetch (``Tables.set_unavailable``):
the options always, the chance estimated from what is loaded (the chunks' curves rebuilt from
the quantiles file, or the normal law of the spread table; a target at up to five free categories
is solved exactly instead), or none when not even that is, and
``"estimate"`` saying the kinds of the files its loader refused (``available.Reads``): a file
missing degrades only the answers that read it. Where nothing missing is read (the exact range),
the answer is the full one."""

import pytest
from yacht.api import advise_query, explain_query, review_query
from yacht.chances.goal import APPROXIMATION, ESTIMATED, REACH_SOLVED_FREE
from yacht.loader import DEFAULT_TABLES, Tables, every_file

# (query, the chunk kinds its goal reads)
BEYOND = [
    ("s=,,,,,,,,,,,&d=14466&r=1&o=,,,,,,,,,,,", ["law", "reach"]),
    ("s=3,,9,,,18,,,,,30,&d=14466&r=2&o=,4,,12,,,22,,,,30,", ["law", "reach"]),
    ("s=3,6,9,12,,18,22,,,,30,&d=12256&r=3&v=strict&o=2,4,6,8,10,,22,,,15,,", ["law", "reach"]),
    ("s=,,,,,,,,,,,&d=23456&r=1&t=220", ["reach"]),
    ("s=3,6,9,12,,18,,,,,30,&d=55561&r=2&v=strict&t=150", ["reach"]),
]
EXACT = [
    "s=1,2,3,4,5,6,20,0,0,,30,&d=12346&r=1&o=2,4,6,8,10,12,22,0,0,15,,0",
    "s=1,2,3,4,5,6,20,0,,,30,&d=12346&r=2&t=120",
]


@pytest.fixture(scope="module")
def full() -> Tables:
    return Tables(DEFAULT_TABLES)


def lacking_tables(*kinds: str) -> Tables:
    tables = Tables(DEFAULT_TABLES)
    for variant in ("official", "strict"):
        tables.set_unavailable(variant, every_file(*kinds))
    return tables


def keys(answer: dict) -> list:
    return [(tuple(o.get("keep", ())), o.get("category")) for o in answer["options"]]


@pytest.mark.parametrize(("query", "reads"), BEYOND)
@pytest.mark.parametrize("spread", [True, False])
def test_without_chunks_the_chance_is_the_quantiles_estimate_and_says_so(full, query, reads, spread) -> None:
    """The spread table is not read: the answer is the same whether it lacks or not."""
    answer = advise_query(query, lacking_tables("reach", "law", *([] if spread else ["spread"])))
    assert answer["estimate"] == {"lacking": reads, "chance": True}
    assert answer["exact"] is False and answer["method"] == ESTIMATED
    exact = advise_query(query, full)
    assert sorted(keys(answer)) == sorted(keys(exact))
    name = "win" if "win" in exact else "reach"
    assert answer[name] == answer["options"][0][name]
    assert abs(answer[name] - exact[name]) < 0.03


@pytest.mark.parametrize(("query", "reads"), BEYOND)
def test_without_chunks_or_quantiles_the_chance_is_the_spread_tables_estimate_and_says_so(full, query, reads) -> None:
    answer = advise_query(query, lacking_tables("reach", "law", "quantiles"))
    assert answer["estimate"] == {"lacking": sorted([*reads, "quantiles"]), "chance": True}
    assert answer["exact"] is False and answer["method"] == APPROXIMATION
    exact = advise_query(query, full)
    assert "estimate" not in exact
    assert sorted(keys(answer)) == sorted(keys(exact))  # every option, ranked by the estimate
    name = "win" if "win" in exact else "reach"
    chances = [o[name] for o in answer["options"]]
    assert all(0.0 <= c <= 1.0 for c in chances)
    assert answer[name] == answer["options"][0][name]
    assert abs(answer[name] - exact[name]) < 0.08  # an estimate, not another question


@pytest.mark.parametrize(("query", "reads"), BEYOND)
def test_without_chunks_quantiles_or_spread_the_options_come_by_expected_score_with_no_chance(
    full, query, reads
) -> None:
    answer = advise_query(query, lacking_tables("reach", "law", "quantiles", "spread"))
    # what was refused before the chance was given up: the first chunks read, the quantiles file
    # that would stand in for them, then the spread table
    assert answer["estimate"] == {"lacking": sorted([reads[0], "quantiles", "spread"]), "chance": False}
    assert answer["exact"] is False
    assert all("win" not in o and "reach" not in o for o in answer["options"])
    plain = advise_query(query.split("&o=")[0].split("&t=")[0], full)
    assert keys(answer) == keys(plain)
    assert [o["expected"] for o in answer["options"]] == [o["expected"] for o in plain["options"]]


@pytest.mark.parametrize("query", EXACT)
def test_in_the_exact_range_nothing_lacking_is_read_and_the_answer_is_the_full_one(full, query) -> None:
    answer = advise_query(query, lacking_tables("reach", "law", "quantiles", "spread"))
    exact = advise_query(query, full)
    assert "estimate" not in answer and answer["exact"] is True
    assert keys(answer) == keys(exact)
    # The goal DP itself; t= with chunks reads R, stored within 7.7e-6.
    name = "win" if "win" in exact else "reach"
    for got, want in zip(answer["options"], exact["options"], strict=True):
        assert got[name] == pytest.approx(want[name], abs=2e-5)


def test_the_coach_without_chunks_quantiles_or_spread_explains_by_expected_score(full) -> None:
    query = BEYOND[1][0]
    answer = explain_query(query, lacking_tables("reach", "law", "quantiles", "spread"))
    assert answer["estimate"]["chance"] is False
    assert all("goal_aims" not in o and "aims" in o for o in answer["options"])


def test_only_files_fetched_on_demand_can_be_gone_without_each_named_by_kind_and_part() -> None:
    tables = Tables(DEFAULT_TABLES)
    with pytest.raises(ValueError, match="not a kind an answer can go without: 'table'"):
        tables.set_unavailable("official", [("table", "")])
    with pytest.raises(ValueError, match="not a kind an answer can go without: 'chunks'"):
        tables.set_unavailable("official", [("chunks", 3)])
    with pytest.raises(ValueError, match="not a mask of a law chunk: 4095"):
        tables.set_unavailable("official", [("law", 4095)])
    with pytest.raises(ValueError, match="the coach kind has no part 'sd'"):
        tables.set_unavailable("official", [("coach", "sd")])
    tables.set_unavailable("official", [("coach", "bonus"), ["law", 7]])  # the worker's lists, too
    assert tables.lacking("official") == {("coach", "bonus"), ("law", 7)} and tables.lacking("strict") == frozenset()
    tables.set_unavailable("official", [])
    assert tables.lacking("official") == frozenset()


# A rival's sheet beyond the exact range: their law chunk (the empty sheet's, mask 0) is one
# file, my position's chunks (one category filled) others.
RIVAL = "s=,,,,,,,,,,,&d=12256&r=3&o=,,,,,,,,,,,"


def test_a_missing_file_degrades_only_the_answers_that_read_it(full) -> None:
    """One law chunk its caller could not fetch (a rival's): the answer that reads it goes
    without it and says so; an answer that reads other files is exact as with every file."""
    tables = Tables(DEFAULT_TABLES)
    tables.set_unavailable("official", [("law", 0)])  # the empty sheet's law: the rival's
    answer = advise_query(RIVAL, tables)
    assert answer["estimate"] == {"lacking": ["law"], "chance": True}
    other = RIVAL.replace("&o=,,,,,,,,,,,", "&o=1,,,,,,,,,,,")  # the rival has filled Aces
    assert advise_query(other, tables) == advise_query(other, full)


def test_what_an_answer_went_without_is_what_its_loader_refused(full) -> None:
    """The estimate names the kinds of the files refused: a target beyond the exact range reads
    reach chunks only; one refused reach chunk among them makes the answer an estimate."""
    query = BEYOND[3][0]
    tables = Tables(DEFAULT_TABLES)
    tables.set_unavailable("official", [("reach", 1 << 11)])  # Yacht filled: one of its chunks
    answer = advise_query(query, tables)
    assert answer["estimate"] == {"lacking": ["reach"], "chance": True}
    tables.set_unavailable("official", [("reach", 1 << 11), ("law", 1 << 11)])  # a law chunk it does not read
    assert advise_query(query, tables)["estimate"]["lacking"] == ["reach"]
    tables.set_unavailable("official", [("law", 1 << 11)])
    assert advise_query(query, tables) == advise_query(query, full)


def test_a_review_without_the_files_its_chances_need_is_graded_by_points_and_not_refused(full) -> None:
    """A rival game from the empty sheets: with the chunks, the quantiles file and the spread table refused, the
    review grades every decision by points (no goal's chance), as a review without a goal does."""
    record = "h=14466-4466-24466g.12356-6-16663-666-66634f&oh=a3b6"
    answer = review_query(record, lacking_tables("reach", "law", "quantiles", "spread"))
    assert answer["decisions"] and all("winning" not in d for d in answer["decisions"])
    assert [d["loss"] for d in answer["decisions"]] == [
        d["loss"] for d in review_query(record.split("&oh=")[0], full)["decisions"]
    ]
    assert all("winning" in d for d in review_query(record, full)["decisions"])


@pytest.mark.parametrize("roll", [1, 2, 3])
@pytest.mark.parametrize("variant", ["official", "strict"])
def test_without_chunks_a_target_at_five_free_categories_is_solved_exactly(full, roll, variant) -> None:
    """Up to ``REACH_SOLVED_FREE`` free categories the goal DP stands in for the reach chunks: the
    answer is the full one (no estimate), every option's chance as the chunks give it."""
    assert REACH_SOLVED_FREE == 5
    query = f"s=3,6,9,12,,18,22,,,,30,&d=55561&r={roll}&v={variant}&t=150"  # 5 free
    answer = advise_query(query, lacking_tables("reach", "law", "quantiles", "spread"))
    exact = advise_query(query, full)
    assert "estimate" not in answer and answer["exact"] is True
    assert keys(answer) == keys(exact)
    for got, want in zip(answer["options"], exact["options"], strict=True):
        assert got["reach"] == pytest.approx(want["reach"], abs=2e-5)
    six = "s=3,6,9,12,,18,,,,,30,&d=55561&r=2&t=150"  # one more free category: estimated
    assert advise_query(six, lacking_tables("reach", "law"))["method"] == ESTIMATED


def test_without_chunks_the_distribution_of_a_target_is_the_best_averages_not_a_play_on_rebuilt_curves(full) -> None:
    query = "s=3,6,9,12,,18,,,,,30,&d=55561&r=2&v=strict&t=150"  # 6 free: the target's play needs R
    assert advise_query(query, full, with_distribution=True)["distribution"]["play"] == "goal"
    answer = advise_query(query, lacking_tables("reach", "law"), with_distribution=True)
    assert answer["method"] == ESTIMATED and answer["distribution"]["play"] == "average"
