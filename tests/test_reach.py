"""R(s, k), the chance of reaching k more points: the solve against a brute force and
the exact goal DP, the chunk files (exact round trip, the format as documented, damage and
other versions refused, the shipped chunks against a fresh solve and written again), the loader,
and exact t= answers from any sheet."""

import zlib

import numpy as np
import pytest
from bruteforce import goal_value
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import chunk_values
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
    row_lengths,
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


def test_a_chunk_round_trips_exactly_and_reads_any_nu_and_need():
    mask = 0b101111110011
    reach = solve_supersets(STRICT, mask)
    data = encode_chunk("strict", mask, reach[mask])
    chunk = decode_chunk(data, variant="strict", mask=mask)
    for nu, n in zip(canonical_states(mask).tolist(), row_lengths(STRICT, mask).tolist(), strict=True):
        assert np.array_equal(chunk.values[nu, : n + 1], np.rint(reach[mask, nu, : n + 1] * SCALE) / SCALE), nu
        assert not chunk.values[nu, n + 1 :].any()
    for nu in range(64):
        for need in (-3, 0, 1, 7, 20, 60, 200):
            assert abs(chunk.at(np.array(nu), np.array(need)) - lookup(reach, mask, nu, need)) <= HALF_STEP
    assert data == encode_chunk("strict", mask, reach[mask].copy())


@given(chunk_values())
def test_any_falling_rows_round_trip_exactly_and_write_the_same_bytes_twice(drawn):
    variant, quantity, mask, values = drawn
    data = encode_chunk(variant, mask, values, quantity)
    chunk = decode_chunk(data, variant=variant, mask=mask, quantity=quantity)
    assert chunk.values.shape == (64, values.shape[1]) and np.array_equal(chunk.values, values)
    assert encode_chunk(variant, mask, values.copy(), quantity) == data


def test_rising_or_out_of_range_values_are_not_written():
    values = np.zeros((64, 52))
    values[[0, 63], 0] = 1.0
    values[0, 1:51] = np.linspace(1.0, 0.5, 50)
    values[63, 1:51] = 0.5
    encode_chunk("official", 2047, values)  # falling: written
    values[63, 30] = 0.6
    with pytest.raises(ValueError, match="mask 2047, ν 63: R rises along k"):
        encode_chunk("official", 2047, values)
    values[63, 30], values[0, 1] = 0.5, 1.5
    with pytest.raises(ValueError, match="mask 2047, ν 0: R rises"):
        encode_chunk("official", 2047, values)


def _shipped(variant: str, quantity: str, mask: int) -> bytes:
    return (DEFAULT_TABLES / folder_name(variant, quantity) / chunk_name(mask)).read_bytes()


@pytest.mark.parametrize("variant", ["official", "strict"])
@pytest.mark.parametrize("quantity", ["reach", "law"])
def test_a_shipped_chunk_written_again_from_its_values_is_the_same_bytes(variant, quantity):
    """build_table's chunks read back and written again: the same bytes (a sample of masks here;
    every mask of both variants in make test-slow: tests/test_chunk_writer.py)."""
    for mask in [*np.random.default_rng(3).choice(FULL_MASK, 12, replace=False).tolist(), 0, 2047, 4094]:
        data = _shipped(variant, quantity, mask)
        chunk = decode_chunk(data, variant=variant, mask=mask, quantity=quantity)
        assert encode_chunk(variant, mask, chunk.values, quantity) == data, mask


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


def _written(drops: list, codes: list | None = None, header: dict | None = None, body_end: bytes | int = b"") -> bytes:
    """A chunk written as the module docstring says, independently of ``encode_chunk``: ``drops``
    (a list of rows of drops, int), ``codes`` (order, base, shift, weight) per row (default: all
    (0, 0, 0, 0); a base over 2 is written as given and predicts as base 0), the header (default:
    the official reach chunk of mask 2047) and bytes appended to the inflated payload (or, a
    number, as many bytes cut from its end)."""
    codes = codes or [(0, 0, 0, 0)] * len(drops)
    width = max(len(d) for d in drops)
    rows = np.zeros((len(drops) + 2, width), dtype=np.int64)  # rows −2, −1, then 0, 1, …
    residuals = []
    for i, (d, (order, base, shift, weight)) in enumerate(zip(drops, codes, strict=True)):
        n, d = len(d), np.asarray(d, dtype=np.int64)
        at = np.arange(n) + shift
        change = np.where((at >= 0) & (at < width), (rows[i + 1] - rows[i])[np.clip(at, 0, width - 1)], 0)
        p = [np.zeros(n, dtype=np.int64), rows[i + 1, :n], rows[i + 1, :n] + (weight * change + 4) // 8][base % 3]
        t = d - p
        for _ in range(order):
            t = t - np.concatenate(([0], t[:-1]))
        r = (t + 32768) % 65536 - 32768
        residuals.append(np.where(r >= 0, 2 * r, -2 * r - 1))
        rows[i + 2, :n] = d
    z = np.concatenate(residuals)
    escapes = (z[z >= 255] - 255).astype("<u2").view(np.uint8).reshape(-1, 2).T.tobytes()
    first = bytes(o | b << 2 | (s + 8) << 4 for o, b, s, _ in codes)
    body = bytes(x for pair in zip(first, (w for *_, w in codes), strict=True) for x in pair)
    body += np.minimum(z, 255).astype(np.uint8).tobytes() + escapes
    body = body[: len(body) - body_end] if isinstance(body_end, int) else body + body_end
    deflater = zlib.compressobj(9, zlib.DEFLATED, -15)
    header = {"count": sum(len(d) for d in drops), "mask": 2047, "quantity": "reach", "variant": "official"} | (
        header or {}
    )
    return container(MAGIC, VERSION, header, deflater.compress(body) + deflater.flush())


YACHT_ONLY = [[0] * 49 + [60000], [0] * 49 + [65000]]
"""Mask 2047 (the Yacht free): rows ν 0 and 63, 50 drops each; R = 1 until a last drop."""


@settings(max_examples=50)
@given(chunk_values(), st.data())
def test_rows_written_by_the_documented_rule_with_any_codes_are_read_back(drawn, data):
    """Any codes (orders 0–3, bases 0–2, shifts −8 … 7, weights 0–255, not only those the writer
    chooses), escapes and all, by the docstring's rule as ``_written`` follows it."""
    variant, quantity, mask, values = drawn
    q = np.rint(values[canonical_states(mask)] * SCALE).astype(np.int64)
    lengths = row_lengths(VARIANTS[variant], mask).tolist()
    drops = [q[i, :n] - q[i, 1 : n + 1] for i, n in enumerate(lengths)]
    code = st.tuples(st.integers(0, 3), st.integers(0, 2), st.integers(-8, 7), st.integers(0, 255))
    codes = data.draw(st.lists(code, min_size=len(drops), max_size=len(drops)))
    header = {"count": sum(lengths), "mask": mask, "quantity": quantity, "variant": variant}
    chunk = decode_chunk(_written(drops, codes, header), variant=variant, mask=mask, quantity=quantity)
    assert np.array_equal(chunk.values, values)


def test_the_documented_writer_makes_a_good_chunk_by_default():
    chunk = decode_chunk(_written(YACHT_ONLY), variant="official", mask=2047)
    assert chunk.values[0, 49] == 1.0 and chunk.values[0, 50] == 5535 / SCALE and chunk.values[0, 51] == 0.0
    assert chunk.values[63, 50] == 535 / SCALE and not chunk.values[1:63].any()


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (
            _written(YACHT_ONLY, header={"variant": "strict"}),
            "holds the strict reach chunk of mask 2047, expected the",
        ),
        (_written(YACHT_ONLY, header={"mask": 2046}), "holds the official reach chunk of mask 2046, expected the"),
        (_written(YACHT_ONLY, header={"quantity": "law"}), "holds the official law chunk of mask 2047, expected the"),
        (_written(YACHT_ONLY, header={"count": 99}), "header count is 99, expected 100"),
        (_written(YACHT_ONLY, header={"mask": True}), "header mask is True, expected a JSON int"),
        (_written(YACHT_ONLY, header={"scale": 65535}), "header holds other keys than count, mask, quantity"),
        (_written([[0] * 49 + [60000], [0] * 48 + [40000, 40000]]), "ν 63 falls below 0 .its drops add up to 80000"),
        (_written(YACHT_ONLY, [(0, 0, 0, 0), (0, 3, 0, 0)]), "row 1 has base 3, expected 0–2"),
        (_written(YACHT_ONLY, body_end=b"\0"), "payload holds 109 bytes, expected 108"),
        (_written(YACHT_ONLY, body_end=1), "payload holds 107 bytes, expected 108"),
        (_written(YACHT_ONLY)[:-1] + b"\0", "checksum mismatch"),
        (b"\x89YACHT\r\n" + _written(YACHT_ONLY)[8:], "bad magic"),
    ],
    ids=["variant", "mask", "quantity", "count", "type", "keys", "range", "code", "long", "short", "sum", "magic"],
)
def test_a_damaged_chunk_is_refused_with_a_message_naming_the_file_and_the_fault(data, words):
    with pytest.raises(TableError, match="^the chunk file: .*" + words.replace("(", r"\(")):
        decode_chunk(data, variant="official", mask=2047, source="the chunk file")


def test_a_chunk_of_another_format_version_is_refused_naming_the_file_and_both_versions():
    header = {"count": 100, "encoding": "u2-delta-shuffle-deflate", "layout": "nu-k", "mask": 2047}
    header |= {"quantity": "reach", "scale": SCALE, "variant": "official"}
    version_1 = container(MAGIC, (1, 0), header, zlib.compress(bytes(200)))  # a version 1.0 chunk
    with pytest.raises(TableError, match=r"^7ff\.chunk: format version 1\.0 is not supported \(expected 2\.x\)"):
        decode_chunk(version_1, variant="official", mask=2047, source="7ff.chunk")
    newer = bytearray(_written(YACHT_ONLY))
    newer[len(MAGIC)] = 3
    with pytest.raises(TableError, match=r"^7ff\.chunk: format version 3\.0 is not supported \(expected 2\.x\)"):
        decode_chunk(bytes(newer), variant="official", mask=2047, source="7ff.chunk")
    assert VERSION == (2, 0)


@settings(max_examples=60)
@given(st.integers(0, 10_000), st.integers(1, 255))
def test_any_changed_byte_of_a_chunk_is_refused(at, flip):
    data = bytearray(_written(YACHT_ONLY))
    data[at % len(data)] ^= flip
    with pytest.raises(TableError, match=r"^the chunk file: "):
        decode_chunk(bytes(data), variant="official", mask=2047, source="the chunk file")


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
