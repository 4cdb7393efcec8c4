"""The win chance's calibration beyond the exact range (``calibration.CALIBRATION``): the shift's
arithmetic, where the advice applies it, and that the duel's prediction is the chance shown."""

from dataclasses import replace
from functools import partial

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_reach import random_sheet
from yacht.api import advise_query
from yacht.chances.calibration import CALIBRATED, CALIBRATION, calibrated_channels, calibration_shift, shifted
from yacht.chances.goal import EXACT_FREE, goal_advice, solve_turn
from yacht.core.categories import N_CATEGORIES
from yacht.core.options import advise, sheet_state
from yacht.core.position import Position, format_query, parse_query
from yacht.core.rules import OFFICIAL, STRICT
from yacht.loader import DEFAULT_TABLES, Tables
from yacht.play.duel import win_aware_policy

chances = st.floats(0.0, 1.0)
shifts = st.floats(-1.0, 1.0)


@pytest.fixture(scope="module")
def tables() -> Tables:
    return Tables(DEFAULT_TABLES)


@given(win=chances, draw=chances, beta=shifts)
def test_a_shift_moves_win_plus_half_draw_along_the_logit_and_keeps_every_chance_in_range(win, draw, beta):
    draw = min(draw, 1.0 - win)
    new_win, new_draw = calibrated_channels(win, draw, beta)
    q = win + draw / 2
    assert 0.0 <= new_draw <= draw + 1e-15 and 0.0 <= new_win and new_win + new_draw <= 1.0 + 1e-12
    assert new_win + new_draw / 2 == pytest.approx(float(shifted(np.array(q), beta)), abs=1e-12)
    if 1e-9 < q < 1.0 - 1e-9 and abs(beta) > 1e-6:
        assert (new_win + new_draw / 2 - q) * beta > 0  # the chance moves the way of the shift
    if beta == 0.0 or q in (0.0, 1.0):
        assert (new_win, new_draw) == (win, draw)


@given(low=chances, high=chances, beta=shifts)
def test_the_opposite_shift_undoes_a_shift_and_a_shift_keeps_the_order(low, high, beta):
    low, high = sorted((low, high))
    there = shifted(np.array([low, high]), beta)
    assert there[0] <= there[1] and np.all((0.0 <= there) & (there <= 1.0))
    assert shifted(there, -beta) == pytest.approx([low, high], abs=1e-9)
    assert shifted(np.array([0.0, 1.0]), beta).tolist() == [0.0, 1.0]


def test_the_shipped_map_has_a_modest_shift_for_every_stage_beyond_the_exact_range_and_none_within():
    """Both seats of every number of free categories beyond the exact range; |β| ≤ 0.25 (at most
    6.2 points at ½)."""
    assert set(CALIBRATION) == {(f, s) for f in range(EXACT_FREE + 1, N_CATEGORIES + 1) for s in (False, True)}
    assert all(abs(beta) <= 0.25 for beta in CALIBRATION.values())
    assert all(calibration_shift(f, g) == 0.0 for f in range(EXACT_FREE + 1) for g in (f, f - 1))


@pytest.mark.parametrize(
    "query",
    [
        "s=3,,9,,,18,22,,,,30,&d=22556&r=2&v=strict&o=5,,12,,,24,,,,15,30,",  # 7 free against 6
        "s=1,6,,12,,24,,,0,15,,&d=13456&r=1&o=2,4,9,,,18,,16,25,,,",  # 6 free against 6
        "s=,,,,,,,,,,,&d=66612&r=3&o=,,,,,,,,,,,",  # the empty sheets
    ],
)
def test_beyond_the_exact_range_the_shown_chances_are_the_blends_shifted_in_the_blends_order(tables, query):
    position = parse_query(query)
    variant = position.variant
    tilde = tables[variant.name].tilde
    solved = solve_turn(position, tilde, None, partial(tables.chunks_of, variant.name))
    free = [sum(v is None for v in sheet) for sheet in (position.sheet, position.opponent)]
    assert solved.shift == calibration_shift(*free) != 0.0
    shown = advise_query(query, tables)
    blend = goal_advice(position, tilde, advise(position, tilde).to_json(), solved=replace(solved, shift=0.0))
    assert shown["exact"] is False and shown["method"] == CALIBRATED and "method" in blend
    assert [(o.get("keep"), o.get("category")) for o in shown["options"]] == [
        (o.get("keep"), o.get("category")) for o in blend["options"]
    ]
    for mine, theirs in zip(shown["options"], blend["options"], strict=True):
        q = theirs["win"] + theirs["draw"] / 2
        assert mine["win"] + mine["draw"] / 2 == pytest.approx(float(shifted(np.array(q), solved.shift)), abs=1e-12)
        assert (mine["win"], mine["draw"]) == pytest.approx(
            calibrated_channels(theirs["win"], theirs["draw"], solved.shift)
        )


def test_in_the_exact_range_the_chance_is_not_shifted(tables, monkeypatch):
    """Even with a shift listed for four free categories, the exact DP's chance is shown as is."""
    monkeypatch.setitem(CALIBRATION, (EXACT_FREE, False), 0.5)
    query = "s=1,6,,12,,24,20,,0,15,,0&d=13456&r=1&o=2,4,9,,,18,20,16,25,15,,"
    position = parse_query(query)
    solved = solve_turn(position, tables["official"].tilde, None, partial(tables.chunks_of, "official"))
    assert solved.exact and solved.shift == 0.0 and advise_query(query, tables)["exact"] is True


@pytest.mark.parametrize("variant", [OFFICIAL, STRICT], ids=lambda v: v.name)
def test_the_duels_prediction_is_the_chance_the_advice_shows_at_the_turns_start(tables, variant):
    """``win_aware_policy`` with the chunks (the shipped player) predicts, at a turn's start,
    win + draw/2 of the advice at roll 0 of the same sheets, shift included (mine 12–3 free,
    the opponent as many or one fewer)."""
    rng = np.random.default_rng(4 if variant is OFFICIAL else 5)
    frees = [12, 9, 7, 6, 5, 5, 4, 3]
    sheets = [(random_sheet(rng, variant, f), random_sheet(rng, variant, f - int(rng.integers(2)))) for f in frees]
    mine = np.array([sheet_state(a) for a, _ in sheets])
    theirs = np.array([sheet_state(b) for _, b in sheets])
    chunks = partial(tables.chunks_of, variant.name)
    _, predicted = win_aware_policy(tables[variant.name].tilde, None, variant, mine, theirs, chunks=chunks)
    for (sheet, opponent), chance in zip(sheets, predicted, strict=True):
        answer = advise_query(format_query(Position(sheet, None, 0, variant, opponent=opponent)), tables)
        assert chance == pytest.approx(answer["win"] + answer["draw"] / 2, abs=1e-9), (sheet, opponent)
