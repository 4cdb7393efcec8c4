"""The chunk writer (``reach_table.encode_chunks``, every row's code of many chunks chosen at
once) against the per-row reference it replaced (tests/reference_chunk_writer.py): the same
bytes, bit for bit, on drawn rows, on rows made for the largest residuals, and on the values
of the shipped chunks of both quantities and both variants (make test-slow: every chunk written
is the chunk shipped, and one mask in eight the reference's)."""

import numpy as np
import pytest
from conftest import TABLES
from hypothesis import given, settings
from reference_chunk_writer import reference_encode_chunk
from strategies import chunk_values
from yacht.chances.reach import canonical_states
from yacht.chances.reach_table import (
    SCALE,
    chunk_for_variant,
    chunk_name,
    decode_chunk,
    encode_chunk,
    encode_chunks,
    folder_name,
    row_lengths,
)
from yacht.core.categories import FULL_MASK
from yacht.core.rules import OFFICIAL, STRICT, VARIANTS

from build_table.shared import same_future_masks

SAMPLE = [0, 1, 2047, 4094, *np.random.default_rng(52).choice(FULL_MASK, 20, replace=False).tolist()]
"""Masks of the fast comparison: the first, the last, the Yacht alone free and 20 drawn."""
REFERENCE_STRIDE = 8
"""The slow test compares one mask in this many with the reference (all four residues 0–3 together)."""


def _shipped_values(variant: str, quantity: str, masks: list[int]) -> dict[int, np.ndarray]:
    """The values of the shipped chunks of ``masks`` as read back (mask → (64, width))."""
    folder = TABLES / folder_name(variant, quantity)
    return {
        m: decode_chunk((folder / chunk_name(m)).read_bytes(), variant=variant, mask=m, quantity=quantity).values
        for m in masks
    }


@settings(max_examples=40)
@given(chunk_values())
def test_a_drawn_chunk_is_written_as_the_reference_writes_it(drawn):
    variant, quantity, mask, values = drawn
    assert encode_chunk(variant, mask, values, quantity) == reference_encode_chunk(variant, mask, values, quantity)


@pytest.mark.parametrize("variant", ["official", "strict"])
def test_rows_of_one_drop_of_65535_the_largest_residuals_are_written_as_the_reference_writes_them(variant):
    """Every row 1 until one column, then 0 (a drop of 65535), the columns drawn: changes of
    ±65535 from row to row, so corrections of up to 2 × 65535 and residuals near 2²⁰ after Δ²."""
    rng = np.random.default_rng(20)
    for mask in (0, 0b000000111111, 0b101010101010, 4094):
        lengths = row_lengths(VARIANTS[variant], mask)
        values = np.zeros((64, int(lengths.max()) + 2))
        for nu, n in zip(canonical_states(mask).tolist(), lengths.tolist(), strict=True):
            values[nu, : rng.integers(1, n + 1)] = 1.0
        for quantity in ("reach", "law"):
            expected = reference_encode_chunk(variant, mask, values, quantity)
            assert encode_chunk(variant, mask, values, quantity) == expected, (mask, quantity)


@pytest.mark.parametrize("variant", ["official", "strict"])
@pytest.mark.parametrize("quantity", ["reach", "law"])
def test_shipped_chunks_written_together_are_the_reference_bytes_of_each(variant, quantity):
    """A batch of masks written at once (rows of different chunks and lengths side by side):
    each file is the reference's bytes for its mask alone, and the file shipped."""
    assert encode_chunks(variant, {}, quantity) == []
    values = _shipped_values(variant, quantity, SAMPLE)
    written = encode_chunks(variant, values, quantity)
    assert len(written) == len(SAMPLE)
    folder = TABLES / folder_name(variant, quantity)
    for mask, data in zip(SAMPLE, written, strict=True):
        assert data == reference_encode_chunk(variant, mask, values[mask], quantity), mask
        assert data == (folder / chunk_name(mask)).read_bytes(), mask


def test_a_rising_row_in_any_chunk_of_a_batch_is_refused_naming_its_mask_and_nu():
    values = _shipped_values("official", "reach", [5, 2047])
    nu = int(canonical_states(2047)[-1])
    values[2047][nu, 10] = values[2047][nu, 9] + 2 / SCALE
    with pytest.raises(ValueError, match=f"mask 2047, ν {nu}: R rises along k"):
        encode_chunks("official", values, "reach")
    with pytest.raises(ValueError, match=f"mask 2047, ν {nu}: R rises along k"):
        reference_encode_chunk("official", 2047, values[2047], "reach")
    values[2047][nu, 10] = values[2047][nu, 9]
    values[5][0, 3] = -1.0
    with pytest.raises(ValueError, match="mask 5, ν 0: R rises along k or leaves 0–1"):
        encode_chunks("official", values, "reach")


@pytest.mark.parametrize(
    ("variant", "mask", "quantity"), [("house", 5, "reach"), ("official", FULL_MASK, "reach"), ("strict", 5, "sd")]
)
def test_no_chunk_is_written_for_an_unknown_variant_quantity_or_mask(variant, mask, quantity):
    with pytest.raises(ValueError, match=f"no chunk for variant {variant!r}, mask {mask}, quantity {quantity!r}"):
        encode_chunks(variant, {mask: np.zeros((64, 400))}, quantity)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["official", "strict"])
@pytest.mark.parametrize("quantity", ["reach", "law"])
def test_every_shipped_chunk_is_written_as_the_reference_writes_it(variant, quantity):
    """All 4,095 masks, 256 at a time as build_table writes them: the shipped bytes, and for one
    mask in ``REFERENCE_STRIDE`` (a residue of its own for each variant and quantity) the
    reference's (which writes row by row: three quarters of this test's time when it wrote every
    mask). The strict rules' chunks of the masks whose rest of the game is the same in both
    variants are the official ones under the strict header (build_table copies them: the same
    values, so the same bytes), checked as such; the official ones are written here."""
    folder = TABLES / folder_name(variant, quantity)
    shared = set(same_future_masks(OFFICIAL, STRICT).tolist()) if variant == "strict" else set()
    residue = 2 * ("official", "strict").index(variant) + ("reach", "law").index(quantity)
    compared = 0
    for first in range(0, FULL_MASK, 256):
        masks = [m for m in range(first, min(first + 256, FULL_MASK)) if m not in shared]
        values = _shipped_values(variant, quantity, masks)
        for mask, data in zip(masks, encode_chunks(variant, values, quantity), strict=True):
            assert data == (folder / chunk_name(mask)).read_bytes(), mask
            if mask % REFERENCE_STRIDE == residue:
                assert data == reference_encode_chunk(variant, mask, values[mask], quantity), mask
                compared += 1
    assert compared >= (FULL_MASK - len(shared)) // REFERENCE_STRIDE - 1, compared
    official = TABLES / folder_name("official", quantity)
    for mask in sorted(shared - {FULL_MASK}):
        taken = chunk_for_variant((official / chunk_name(mask)).read_bytes(), variant, mask, quantity)
        assert taken == (folder / chunk_name(mask)).read_bytes(), mask
