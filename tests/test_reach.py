"""R(s, k), the chance of reaching k more points: the solve against a brute force and
the exact goal DP, the chunk files (round trip, damage, the shipped chunks against a
fresh solve), the loader, and exact t= answers from any sheet."""

import zlib

import numpy as np
import pytest
from bruteforce import goal_value
from yacht.chances.goal import goal_advice
from yacht.chances.law import LAW_PAD, empty_law, solve_law_states
from yacht.chances.outcome import max_future, solve_outcome
from yacht.chances.reach import canonical_states, empty_reach, lookup, solve_mask
from yacht.chances.reach_table import (
    MAGIC,
    SCALE,
    VERSION,
    chunk_name,
    chunks_for,
    decode_chunk,
    encode_chunk,
    folder_name,
)
from yacht.chances.winning import option_values, reach_payoff, solve_goal, win_payoff
from yacht.core.categories import FULL_MASK, N_CATEGORIES
from yacht.core.options import advise, sheet_state
from yacht.core.position import Position, parse_query
from yacht.core.rules import OFFICIAL, STRICT, VARIANTS
from yacht.core.table import TableError, container
from yacht.loader import DEFAULT_TABLES, ReachMissing, Tables

HALF_STEP = 0.5 / SCALE + 1e-12


def solve_supersets(variant, mask: int) -> np.ndarray:
    """R of every mask that contains ``mask``, solved from the full sheet down (float64)."""
    reach = empty_reach(variant)
    supersets = [m for m in range(FULL_MASK) if m & mask == mask]
    for m in sorted(supersets, key=lambda m: -bin(m).count("1")):
        solve_mask(reach, variant, m)
    return reach


def random_sheet(rng: np.random.Generator, variant, free: int) -> tuple[int | None, ...]:
    """A sheet with ``free`` categories left, each filled one with a score some roll gives."""
    from yacht.core.rules import possible_scores

    open_ = set(rng.choice(N_CATEGORIES, free, replace=False).tolist())
    scores = possible_scores(variant)
    return tuple(None if c in open_ else int(rng.choice(scores[c])) for c in range(N_CATEGORIES))


BRUTE = [  # (variant, sheet): one to three free categories; two of them in make test-slow
    (OFFICIAL, (1, 2, 3, 4, 5, 6, 20, 0, 0, 15, 30, None)),
    (STRICT, (3, 6, 9, 12, 15, None, 20, 0, 0, 15, 30, 0)),
    pytest.param(OFFICIAL, (1, 2, 3, 4, 5, 6, 20, 0, 0, None, 30, None), marks=pytest.mark.slow),
    (OFFICIAL, (3, 6, 9, 12, None, 18, 20, 0, 0, 15, 30, None)),  # two free, one of them upper
    pytest.param(OFFICIAL, (1, 2, 3, 4, 5, 6, 20, 0, 0, None, None, None), marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("variant", "sheet"), BRUTE)
def test_reach_equals_a_brute_force_that_tries_every_decision_within_1e_9(variant, sheet):
    mask, nu, sigma = sheet_state(sheet)
    reach = solve_supersets(variant, mask)
    most = max_future(variant, mask, nu)
    for target in sorted({sigma + 1, sigma + 15, sigma + most // 3, sigma + most // 2, sigma + most}):
        expected = goal_value(sheet, variant, lambda final, t=target: float(final >= t))
        assert abs(lookup(reach, mask, nu, target - sigma) - expected) <= 1e-9, target


@pytest.mark.parametrize("variant", [OFFICIAL, STRICT], ids=lambda v: v.name)
def test_reach_equals_the_exact_goal_dp_on_random_three_free_sheets_within_1e_9(variant):
    rng = np.random.default_rng(16)
    for _ in range(4):
        sheet = random_sheet(rng, variant, 3)
        mask, nu, sigma = sheet_state(sheet)
        reach = solve_supersets(variant, mask)
        most = max_future(variant, mask, nu)
        for need in (0, 1, most // 4, most // 2, 3 * most // 4, most, most + 1):
            payoff, weights = reach_payoff(sigma + need, sigma + most + 2)
            root, _ = solve_goal(None, variant, mask, nu, sigma, payoff, weights)
            assert abs(lookup(reach, mask, nu, need) - float(root.start[0, 0])) <= 1e-9, (sheet, need)


def test_reach_is_one_at_or_below_zero_zero_past_the_most_and_falls_along_k():
    reach = solve_supersets(OFFICIAL, 0b111111110000)
    for nu in canonical_states(0b111111110000).tolist():
        most = max_future(OFFICIAL, 0b111111110000, nu)
        row = reach[0b111111110000, nu, : most + 2]
        assert row[0] == 1.0 and row[most + 1] == 0.0 and row[1] > 0.0
        assert np.all(np.diff(row) <= 1e-15)
    assert lookup(reach, 0b111111110000, 5, -40) == 1.0
    assert lookup(reach, 0b111111110000, 5, 10_000) == 0.0


def test_a_chunk_round_trips_within_half_a_step_and_reads_any_nu_and_need():
    mask = 0b101111110011
    reach = solve_supersets(STRICT, mask)
    chunk = decode_chunk(encode_chunk("strict", mask, reach[mask]), variant="strict", mask=mask)
    for nu in range(64):
        for need in (-3, 0, 1, 7, 20, 60, 200):
            assert abs(chunk.at(np.array(nu), np.array(need)) - lookup(reach, mask, nu, need)) <= HALF_STEP
    assert encode_chunk("strict", mask, reach[mask]) == encode_chunk("strict", mask, reach[mask].copy())


@pytest.mark.parametrize("variant", ["official", "strict"])
def test_the_shipped_chunks_equal_a_fresh_solve_and_their_successors(variant):
    """The chunks build_table wrote (read by the one loader) against a fresh solve of a few
    masks with three free categories and every mask after them."""
    tables = Tables(DEFAULT_TABLES)
    rng = np.random.default_rng(7)
    for _ in range(2):
        mask = int(sum(1 << int(c) for c in rng.choice(N_CATEGORIES, 9, replace=False)))
        reach = solve_supersets(VARIANTS[variant], mask)
        masks = [mask, *chunks_for(mask)]
        masks = [m for m in masks if m != FULL_MASK]
        for m, chunk in tables.reach(variant, masks).items():
            for nu in canonical_states(m).tolist():
                most = max_future(VARIANTS[variant], m, nu)
                stored = chunk.values[nu, : most + 2]
                assert np.abs(stored - reach[m, nu, : most + 2]).max() <= HALF_STEP, (m, nu)


def _damaged(header_changes: dict | None = None, drops: np.ndarray | None = None) -> bytes:
    """A chunk of mask 2047 (Yacht free: rows ν 0 and 63, 50 values each) with its header or
    its drops changed, checksummed as a writer would."""
    header = {"count": 100, "encoding": "u2-delta-shuffle-deflate", "layout": "nu-k", "mask": 2047, "quantity": "reach"}
    header |= {"scale": SCALE, "variant": "official"} | (header_changes or {})
    if drops is None:
        drops = np.zeros(100, dtype=np.int64)
        drops[[49, 99]] = [60000, 65000]
    payload = zlib.compress(drops.astype("<u2").view(np.uint8).reshape(-1, 2).T.tobytes())
    return container(MAGIC, VERSION, header, payload)


def test_the_damage_helper_makes_a_good_chunk_by_default():
    chunk = decode_chunk(_damaged(), variant="official", mask=2047)
    assert chunk.values[0, 49] == 1.0 and abs(chunk.values[0, 50] - 5535 / SCALE) < 1e-12
    assert abs(chunk.values[63, 50] - 535 / SCALE) < 1e-12 and chunk.values[63, 51] == 0.0


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (_damaged({"variant": "strict"}), "holds the strict reach chunk of mask 2047, expected the official reach"),
        (_damaged({"mask": 2046}), "holds the official reach chunk of mask 2046"),
        (_damaged({"quantity": "law"}), "holds the official law chunk of mask 2047, expected the official reach"),
        (_damaged({"count": 99}), "header count is 99"),
        (_damaged({"scale": 1000}), "header scale is 1000"),
        (_damaged({"mask": True}), "header mask is True, expected a JSON int"),
        (_damaged(drops=np.full(100, 1400)), "falls below 0"),
        (_damaged(drops=np.zeros(99, dtype=np.int64)), "payload holds 198 bytes, expected 200"),
        (_damaged()[:-1] + b"\0", "checksum mismatch"),
        (b"\x89YACHT\r\n" + _damaged()[8:], "bad magic"),
    ],
    ids=["variant", "mask", "quantity", "count", "scale", "type", "range", "length", "checksum", "magic"],
)
def test_a_damaged_chunk_is_refused_with_a_message_naming_the_fault(data, words):
    with pytest.raises(TableError, match="the chunk file: .*" + words.replace("(", r"\(")):
        decode_chunk(data, variant="official", mask=2047, source="the chunk file")


def test_the_loader_without_a_folder_names_the_chunks_it_lacks_and_a_folder_names_a_missing_file(tmp_path):
    tables = Tables()
    with pytest.raises(ReachMissing) as missing:
        tables.reach("official", [2047, 2046])
    assert missing.value.variant == "official" and missing.value.masks == [2047, 2046]
    assert missing.value.quantities == ["reach", "reach"] and missing.value.names == ["7ff.chunk", "7fe.chunk"]
    (tmp_path / folder_name("official")).mkdir()
    with pytest.raises(TableError, match=f"{chunk_name(2047)}: cannot read the official reach chunk of mask 2047"):
        Tables(tmp_path).reach("official", [2047])


def _exact_dp_options(position: Position):
    """Every option's chance of the target by the exact goal DP (whatever the free count)."""
    mask, nu, sigma = sheet_state(position.sheet)
    payoff, weights = reach_payoff(position.target, sigma + max_future(position.variant, mask, nu) + 2)
    root, after = solve_goal(None, position.variant, mask, nu, sigma, payoff, weights)
    values = option_values(root, after, weights, position.roll, position.dice)
    return {(k, c if k is None or len(k) == 5 else None): float(v[0]) for k, c, v in values}


@pytest.mark.parametrize(
    "query",
    [
        "s=3,6,9,,15,18,22,,,,30,&d=55523&r=1&t=180",
        "s=3,,9,,15,18,22,,,,30,&d=55523&r=2&t=190",
        "s=3,,9,,15,18,,,,15,30,&d=14466&r=3&t=200&v=strict",
        "s=3,,9,,,18,,,,15,30,&d=14466&r=1&t=200",
        "s=2,,,,,,,,0,,,&d=66612&r=3&t=150&v=strict",
        "s=,,,,,,,,,,,&d=12345&r=1&t=120",
    ],
)
def test_a_target_answer_is_exact_from_any_sheet_every_option_within_1e_4_of_the_exact_dp(query):
    position = parse_query(query)
    tables = Tables(DEFAULT_TABLES)
    tilde = tables[position.variant.name].tilde
    answer = goal_advice(
        position,
        tilde,
        advise(position, tilde).to_json(),
        reach=lambda wanted: tables.chunks_of(position.variant.name, wanted),
    )
    assert answer["exact"] is True and "method" not in answer
    free = sum(v is None for v in position.sheet)
    if free > 7:
        pytest.skip("the exact DP takes minutes here; the turn over R is checked at up to 7 free")
    exact = _exact_dp_options(position)
    for option in answer["options"]:
        keep = tuple(option["keep"]) if "keep" in option else None
        key = (keep, option["category"] if keep is None or len(keep) == 5 else None)
        assert abs(option["reach"] - exact[key]) <= 1e-4, option


@pytest.mark.parametrize("variant", [OFFICIAL, STRICT], ids=lambda v: v.name)
def test_the_win_chance_lies_between_best_average_play_and_the_reach_bound(variant):
    """On random sheets (mine 2–4 free, theirs 1–4): E[u(F)] under the best-average play's exact
    law ≤ the exact win + draw/2 (the goal DP) ≤ Σ_y P(Y = y)·(R(y − σ) + R(y + 1 − σ))/2, R
    from the shipped chunks (the bound each target played for itself gives)."""
    tables = Tables(DEFAULT_TABLES)
    tilde = tables[variant.name].tilde
    rng = np.random.default_rng(11)
    for _ in range(6):
        mine = random_sheet(rng, variant, int(rng.integers(2, 5)))
        theirs = random_sheet(rng, variant, int(rng.integers(1, 5)))
        mask, nu, sigma = sheet_state(mine)
        opponent = solve_outcome(tilde, variant, *sheet_state(theirs))
        opponent = opponent.final(opponent.root.start[0])
        size = sigma + max_future(variant, mask, nu) + 2
        payoff, weights = win_payoff(opponent, size)
        utility = payoff @ weights
        root, _ = solve_goal(tilde, variant, mask, nu, sigma, payoff, weights)
        exact = float(root.start[0] @ weights)
        law = solve_outcome(tilde, variant, mask, nu, sigma)
        law = law.final(law.root.start[0])
        lower = float(law.points @ utility[sigma : sigma + len(law.points)])
        chunk = tables.reach(variant.name, [mask])[mask]
        ys = opponent.score + np.arange(len(opponent.points))
        upper = float(opponent.points @ (chunk.at(nu, ys - sigma) + chunk.at(nu, ys + 1 - sigma)) / 2)
        assert lower <= exact + 1e-9 and exact <= upper + 1e-4, (mine, theirs, lower, exact, upper)


@pytest.mark.parametrize("variant", [OFFICIAL, STRICT], ids=lambda v: v.name)
def test_the_shipped_law_chunks_equal_the_exact_law_of_the_advisors_play(variant):
    """S(mask, ν, k), read by the loader, against ``outcome.solve_outcome``'s exact distribution of
    the future points under the advisor's play, on random states with 2–6 free categories."""
    tables = Tables(DEFAULT_TABLES)
    tilde = tables[variant.name].tilde
    rng = np.random.default_rng(5)
    for _ in range(8):
        sheet = random_sheet(rng, variant, int(rng.integers(2, 7)))
        mask, nu, _ = sheet_state(sheet)
        outcome = solve_outcome(tilde, variant, mask, nu, 0)
        law = outcome.final(outcome.root.start[0]).points
        at_least = np.cumsum(law[::-1])[::-1]
        chunk = tables.chunks_of(variant.name, {"law": [mask]})["law"][mask]
        stored = chunk.at(np.array(nu), np.arange(len(law) + 1))
        assert np.abs(stored[:-1] - at_least).max() <= HALF_STEP + 1e-12 and stored[-1] == 0.0, sheet


# Both variants in make test-slow (half a minute each); make test checks the shipped law chunks
# against the same exact law at random sheets (above).
@pytest.mark.slow
@pytest.mark.parametrize("variant", [OFFICIAL, STRICT], ids=lambda v: v.name)
def test_the_law_solve_equals_the_exact_law_of_the_advisors_play_within_1e_12(variant, solved):
    """``solve_law_states`` (a turn as a mix of its successors' laws), level by level over every
    mask after one with five free categories, against ``outcome.solve_outcome``'s turn-by-turn
    distribution of the future points under the same play, at every state (float64)."""
    tilde = solved[variant.name]
    mask = 0b101101100110
    law = empty_law(variant)
    supersets = [m for m in range(FULL_MASK) if m & mask == mask]
    for m in sorted(supersets, key=lambda m: -bin(m).count("1")):
        states = canonical_states(m)
        solve_law_states(law, tilde, variant, np.full(len(states), m), states)
    for m in supersets:
        for nu in canonical_states(m).tolist():
            outcome = solve_outcome(tilde, variant, m, nu, 0)
            at_least = np.cumsum(outcome.final(outcome.root.start[0]).points[::-1])[::-1]
            stored = law[m, nu, LAW_PAD : LAW_PAD + len(at_least) + 1]
            assert np.abs(stored[:-1] - at_least).max() <= 1e-12 and stored[-1] == 0.0, (m, nu)
            assert (law[m, nu, : LAW_PAD + 1] == 1.0).all()
