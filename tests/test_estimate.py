"""A goal's answer without the files its caller could not fetch (``Tables.set_unavailable``):
the options always, the chance estimated from what is loaded (the chunks' curves rebuilt from
the quantiles file, or the normal law of the spread table), or none when not even that is, and
``"estimate"`` saying which kinds it went without. Where nothing missing is read (the exact
range), the answer is the full one."""

import pytest
from yacht.api import advise_query, explain_query
from yacht.chances.goal import APPROXIMATION, ESTIMATED
from yacht.loader import DEFAULT_TABLES, Tables

# (query, the chunk kinds its goal reads)
BEYOND = [
    ("s=,,,,,,,,,,,&d=14466&r=1&o=,,,,,,,,,,,", ["law", "reach"]),
    ("s=3,,9,,,18,,,,,30,&d=14466&r=2&o=,4,,12,,,22,,,,30,", ["law", "reach"]),
    ("s=3,6,9,12,,18,22,,,,30,&d=12256&r=3&v=strict&o=2,4,6,8,10,,22,,,15,,", ["law", "reach"]),
    ("s=,,,,,,,,,,,&d=23456&r=1&t=220", ["reach"]),
    ("s=3,6,9,12,,18,22,,,,30,&d=55561&r=2&v=strict&t=150", ["reach"]),
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
        tables.set_unavailable(variant, list(kinds))
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
    assert answer["estimate"] == {"lacking": sorted([*reads, "quantiles", "spread"]), "chance": False}
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


def test_only_kinds_fetched_on_demand_can_be_gone_without() -> None:
    tables = Tables(DEFAULT_TABLES)
    with pytest.raises(ValueError, match="not a kind an answer can go without: table"):
        tables.set_unavailable("official", ["table"])
    with pytest.raises(ValueError, match="not a kind an answer can go without: chunks"):
        tables.set_unavailable("official", ["chunks"])
    tables.set_unavailable("official", ["coach"])
    assert tables.lacking("official") == {"coach"} and tables.lacking("strict") == frozenset()
    tables.set_unavailable("official", [])
    assert tables.lacking("official") == frozenset()


def test_without_chunks_the_distribution_of_a_target_is_the_best_averages_not_a_play_on_rebuilt_curves(full) -> None:
    query = "s=3,6,9,12,,18,22,,,,30,&d=55561&r=2&v=strict&t=150"  # 5 free: the target's play needs R
    assert advise_query(query, full, with_distribution=True)["distribution"]["play"] == "goal"
    answer = advise_query(query, lacking_tables("reach", "law"), with_distribution=True)
    assert answer["method"] == ESTIMATED and answer["distribution"]["play"] == "average"
