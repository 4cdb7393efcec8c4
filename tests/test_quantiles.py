"""The quantiles file (``yacht.chances.quantiles``): its round trip, its refusal of damaged
files, its rebuilt curves against the chunks, and the chance a goal answer estimates from it
against the chance with every file, on a sample of random positions beyond the exact range."""

import random
import statistics
import struct
import zlib

import numpy as np
import pytest
from yacht.api import advise_query
from yacht.chances import quantiles, reach_table
from yacht.chances.goal import ESTIMATED, REACH_SOLVED_FREE
from yacht.chances.reach import canonical_states, max_future_table
from yacht.core.categories import FULL_MASK
from yacht.core.position import Position, format_query, free_categories, parse_query
from yacht.core.rules import VARIANTS, possible_scores
from yacht.core.table import TableError, container
from yacht.loader import DEFAULT_TABLES, QuantilesMissing, Tables, every_file

from build_table.kinds import masks_crossings

VARIANT_NAMES = sorted(VARIANTS)


@pytest.fixture(scope="module")
def shipped() -> dict[str, bytes]:
    return {name: (DEFAULT_TABLES / quantiles.file_name(name)).read_bytes() for name in VARIANT_NAMES}


def random_crossings(rng: np.random.Generator, most: np.ndarray, levels: int) -> np.ndarray:
    """Ascending crossings (rows, levels), each row's within 0 … its ``most`` points."""
    return np.sort(rng.uniform(0.0, 1.0, (len(most), levels)), axis=1) * most[:, None]


def test_a_file_decodes_to_its_crossings_within_half_a_step_and_encodes_to_the_same_bytes() -> None:
    rng = np.random.default_rng(5)
    table = max_future_table(VARIANTS["strict"])
    most = np.concatenate([table[m, canonical_states(m)] for m in range(FULL_MASK) if quantiles.stored(m)])
    law = random_crossings(rng, most, len(quantiles.LEVELS["law"]))
    reach = random_crossings(rng, most, len(quantiles.LEVELS["reach"]))
    data = quantiles.encode("strict", law, reach)
    decoded = quantiles.decode(data, variant="strict")
    for quantity, crossed in (("law", law), ("reach", reach)):
        assert np.abs(decoded.crossed[quantity] - crossed).max() <= 0.5 / quantiles.RESOLUTION + 1e-9
    assert quantiles.encode("strict", decoded.crossed["law"], decoded.crossed["reach"]) == data


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_the_shipped_file_is_under_a_megabyte_and_reencodes_to_its_own_bytes(shipped, name) -> None:
    data = shipped[name]
    assert len(data) <= 1_000_000
    decoded = quantiles.decode(data, variant=name)
    assert quantiles.encode(name, decoded.crossed["law"], decoded.crossed["reach"]) == data


def _refit(data: bytes, header: dict | None = None, payload: bytes | None = None) -> bytes:
    """``data`` with its header or payload replaced and a valid checksum again."""
    length = struct.unpack("<I", data[10:14])[0]
    original = {"count": int(quantiles.row_offsets()[-1]), "variant": "official"}
    body = data[14 + length : -32]
    return container(quantiles.MAGIC, quantiles.VERSION, header or original, body if payload is None else payload)


def _numbers(data: bytes) -> np.ndarray:
    """The zigzagged numbers (N, 2 L) of a file's payload."""
    length = struct.unpack("<I", data[10:14])[0]
    raw = zlib.decompress(data[14 + length : -32])
    width = len(quantiles.LEVELS["law"]) + len(quantiles.LEVELS["reach"])
    return np.frombuffer(raw, dtype=np.uint8).reshape(2, -1).T.copy().view("<u2").reshape(-1, width).copy()


def _payload(numbers: np.ndarray) -> bytes:
    return zlib.compress(numbers.astype("<u2").view(np.uint8).reshape(-1, 2).T.tobytes(), 9)


def test_a_damaged_file_is_refused_with_a_message_naming_the_fault(shipped) -> None:
    data = shipped["official"]
    cases = [
        (data[:-1] + bytes([data[-1] ^ 1]), "checksum mismatch"),
        (data[: len(data) // 2], "checksum mismatch"),
        (b"\x89YACHT\r\n" + data[8:], "bad magic"),
        (data[:8] + bytes([2, 0]) + data[10:], "format version 2.0 is not supported"),
        (_refit(data, {"count": 5, "variant": "official"}), "header count is 5"),
        (_refit(data, {"count": True, "variant": "official"}), "header count is True, expected a JSON int"),
        (_refit(data, {"count": 119870, "variant": "official", "x": 1}), "other keys"),
        (_refit(data, payload=zlib.compress(b"\0" * 100)), "payload holds 100 bytes"),
        (_refit(data, payload=b"not deflate"), "does not decompress"),
    ]
    numbers = _numbers(data)
    numbers[0, 1] = 2 * 5000 - 1  # the empty sheet's second S crossing 5,000 points before its first
    cases.append((_refit(data, payload=_payload(numbers)), "crossings out of order"))
    numbers = _numbers(data)
    numbers[0, 0] = 2 * 2000  # the empty sheet's first crossing at 2,000 points
    cases.append((_refit(data, payload=_payload(numbers)), "beyond the most its state can score"))
    for damaged, message in cases:
        with pytest.raises(TableError, match=message):
            quantiles.decode(damaged, variant="official", source="q")
    with pytest.raises(TableError, match="holds the official quantiles, expected strict"):
        quantiles.decode(data, variant="strict")


def test_a_loader_without_a_folder_names_the_file_and_takes_it_by_its_kind(shipped) -> None:
    tables = Tables()
    with pytest.raises(QuantilesMissing) as missing:
        tables.quantiles("strict")
    assert (missing.value.kinds, missing.value.names) == (["quantiles"], ["yacht-strict.quantiles"])
    tables.add("quantiles", "strict", "", shipped["strict"])
    assert tables.quantiles("strict").crossed["reach"].shape == (112_718, len(quantiles.LEVELS["reach"]))


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_the_rebuilt_curves_follow_the_chunks(shipped, name) -> None:
    """On the masks of 4–11 free categories (the estimate's), sampled: the rebuilt R and S are
    1 at k = 0, 0 past the most, never rising, and within 1.5 pp of the chunks on average."""
    tables = Tables(DEFAULT_TABLES)
    decoded = quantiles.decode(shipped[name], variant=name)
    rng = random.Random(3)
    masks = [m for m in range(FULL_MASK) if 4 <= 12 - bin(m).count("1") <= 11]
    errors = []
    for mask in rng.sample(masks, 12):
        nus = canonical_states(mask)
        for quantity in quantiles.CURVES:
            exact = tables.chunks_of(name, {quantity: [mask]})[quantity][mask].values[nus]
            rebuilt = decoded.chunk(quantity, mask).values[nus]
            width = min(exact.shape[1], rebuilt.shape[1])
            assert (rebuilt[:, 0] == 1.0).all() and (np.diff(rebuilt, axis=1) <= 1e-12).all()
            assert (rebuilt[:, width:] == 0.0).all() and (exact[:, width:] == 0.0).all()
            errors.append(np.abs(rebuilt[:, :width] - exact[:, :width]).mean(axis=1))
    assert np.concatenate(errors).mean() < 0.015


def _query(rng: random.Random, variant, goal: str, tables: Tables) -> str:
    sheets = []
    filled = rng.randint(0, 7)
    for extra in (0, rng.randint(0, 1)):
        sheet: list[int | None] = [None] * 12
        for c in rng.sample(range(12), filled + extra):
            sheet[c] = rng.choice(possible_scores(variant)[c])
        sheets.append(tuple(sheet))
    mine = Position(sheets[0], tuple(rng.randint(1, 6) for _ in range(5)), rng.randint(1, 3), variant)
    if goal == "o":
        return format_query(mine._replace(opponent=sheets[1]))
    expected = advise_query(format_query(mine), tables)["expected"]
    return format_query(mine._replace(target=max(0, int(expected + rng.gauss(0, 25)))))


def _chance(answer: dict) -> float:
    return answer["win"] + answer["draw"] / 2 if "win" in answer else answer["reach"]


@pytest.mark.parametrize(("goal", "mean_bound", "worst_bound"), [("o", 0.005, 0.02), ("t", 0.01, 0.03)])
def test_without_chunks_the_chance_from_the_quantiles_is_near_the_full_one(goal, mean_bound, worst_bound) -> None:
    """20 random positions per variant with 5–12 free categories: the best option's chance
    from the quantiles file within the bounds of docs/mathematics.md (mean and worst, in
    chance) of the chance with every file; a target at up to ``goal.REACH_SOLVED_FREE`` free
    categories is solved exactly instead."""
    full, without = Tables(DEFAULT_TABLES), Tables(DEFAULT_TABLES)
    rng = random.Random(17)
    errors = []
    for name, variant in VARIANTS.items():
        without.set_unavailable(name, every_file("reach", "law"))
        for _ in range(20):
            query = _query(rng, variant, goal, full)
            answer, exact = advise_query(query, without), advise_query(query, full)
            if goal == "t" and free_categories(parse_query(query).sheet) <= REACH_SOLVED_FREE:
                assert answer["exact"] is True and "estimate" not in answer
            else:
                assert answer["method"] == ESTIMATED and answer["exact"] is False
            errors.append(_chance(answer) - _chance(exact))
    assert statistics.fmean(map(abs, errors)) <= mean_bound
    assert max(map(abs, errors)) <= worst_bound


def test_the_file_holds_no_mask_an_estimate_does_not_read(shipped) -> None:
    decoded = quantiles.decode(shipped["official"], variant="official")
    few = int("111111111000", 2)  # 3 free categories
    assert not quantiles.stored(few) and quantiles.stored(few & ~8)
    with pytest.raises(ValueError, match="no state of mask 4088: fewer than 4 free categories"):
        decoded.chunk("reach", few)


def test_the_crossings_of_solved_curves_are_those_of_their_chunks_and_of_the_shipped_file(shipped) -> None:
    """The build reads the crossings from the reach and law it has just solved
    (``quantiles.solved_crossings``), each as its chunks store it, not from the chunks: from the
    shipped chunks' values of masks 0–255 moved by up to 0.45 of a chunk's step (what a chunk
    rounds away), they are the chunks' own crossings (read from their files, as a build that
    solved neither curve reads them) and the shipped file's rows of those masks."""
    name, rng, masks = "official", np.random.default_rng(52), list(range(256))
    tables, rows = Tables(DEFAULT_TABLES), quantiles.row_offsets()[256]
    decoded = quantiles.decode(shipped[name], variant=name)
    for quantity in quantiles.CURVES:
        chunks = tables.chunks_of(name, {quantity: masks})[quantity]
        values = np.zeros((FULL_MASK + 1, 64, max(c.values.shape[1] for c in chunks.values())))
        for mask, chunk in chunks.items():
            values[mask, :, : chunk.values.shape[1]] = chunk.values
        inside = (values > 0) & (values < 1)
        values[inside] += rng.uniform(-0.45, 0.45, inside.sum()) / reach_table.SCALE
        crossed = quantiles.solved_crossings(values, quantity)[:rows]
        np.testing.assert_array_equal(crossed, masks_crossings(DEFAULT_TABLES, name, quantity, 0, 256))
        shown = np.rint(crossed * quantiles.RESOLUTION) / quantiles.RESOLUTION
        np.testing.assert_array_equal(shown, decoded.crossed[quantity][:rows])
