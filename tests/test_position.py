"""The position format (CLI QUERY and page URL)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import positions
from yacht.core.position import Position, PositionError, format_query, parse_query
from yacht.core.rules import OFFICIAL, STRICT


@given(positions())
def test_every_valid_position_round_trips(position):
    query = format_query(position)
    parsed = parse_query(query)
    assert parsed == position
    assert format_query(parsed) == query


@given(st.text(max_size=80))
def test_random_strings_parse_or_give_the_documented_error(text):
    try:
        position = parse_query(text)
    except PositionError as e:
        assert e.field and str(e).startswith(f"{e.field}: ")
    else:
        assert isinstance(position, Position)


@given(st.text(alphabet="sdrv=&,0123456789?%x", max_size=60))
def test_query_like_strings_parse_or_give_the_documented_error(text):
    try:
        parse_query(text)
    except PositionError as e:
        assert str(e).startswith(f"{e.field}: ")


def test_the_readme_example_reads_as_documented():
    position = parse_query("s=3,,9,,,18,,,,,30,&d=14466&r=2")
    assert position.sheet == (3, None, 9, None, None, 18, None, None, None, None, 30, None)
    assert position.dice == (1, 4, 4, 6, 6)
    assert position.roll == 2
    assert position.variant == OFFICIAL
    assert parse_query("?v=strict&r=3&d=66412").variant == STRICT
    assert parse_query("https://example.org/?d=66412&r=1").dice == (6, 6, 4, 1, 2)
    assert parse_query("s=3%2C%2C9%2C%2C%2C18%2C%2C%2C%2C%2C30%2C&r=0").sheet[5] == 18


def test_defaults_an_empty_query_is_the_start_of_a_game():
    position = parse_query("")
    assert position.sheet == (None,) * 12 and position.dice is None and position.roll == 0


def test_a_full_sheet_is_a_valid_position():
    assert parse_query("s=1,2,3,4,5,6,7,8,9,15,30,50").is_over


@pytest.mark.parametrize(
    ("query", "field", "reason"),
    [
        ("s=6,,,,,,,,,,,", "s", "field 1 (Aces): Aces cannot score 6"),
        ("s=,3,,,,,,,,,,", "s", "Deuces cannot score 3"),
        ("s=,,,,,,4,,,,,", "s", "Choice cannot score 4"),
        ("s=,,,,,,,4,,,,", "s", "Four Dice cannot score 4"),
        ("s=,,,,,,,,6,,,", "s", "Full House cannot score 6 under official rules"),
        ("s=,,,,,,,,10,,,&v=strict", "s", "Full House cannot score 10 under strict rules"),
        ("s=,,,,,,,,25,,,&v=strict", "s", "Full House cannot score 25"),
        ("s=,,,,,,,,,14,,", "s", "S.Straight cannot score 14"),
        ("s=,,,,,,,,,,,49", "s", "Yacht cannot score 49"),
        ("s=,,,,,,,,,,,-1", "s", "'-1' is not a number"),
        ("s=1,2,3", "s", "expected 12 comma-separated fields, got 3"),
        ("s=,,,,,,,,,,,,", "s", "expected 12 comma-separated fields, got 13"),
        ("d=1234&r=1", "d", "expected 5 dice, got 4"),
        ("d=123456&r=1", "d", "expected 5 dice, got 6"),
        ("d=12370&r=1", "d", "each die is a digit 1–6"),
        ("r=2", "d", "missing: the dice are needed for r=2"),
        ("d=12345&r=4", "r", "'4' is not a roll"),
        ("d=12345&r=", "r", "'' is not a roll"),
        ("x=1", "query", "unknown parameter 'x'"),
        ("v=house", "v", "unknown rule variant 'house'"),
        ("r=1&r=2&d=12345", "r", "given more than once"),
        ("s", "query", "'s' is not name=value"),
        ("=3&r=0", "query", "'=3' has no parameter name"),
    ],
)
def test_bad_input_names_the_field_and_the_reason(query, field, reason):
    with pytest.raises(PositionError) as info:
        parse_query(query)
    assert info.value.field == field
    assert reason in str(info.value)
    assert str(info.value).startswith(f"{field}: ")
