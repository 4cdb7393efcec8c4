"""What one variant's build hands to the next (``build_table.shared``): the masks whose rest of the
game is the same in both variants, the check that both solves of Ẽ agree there, the chunks taken
under the other variant's header, and (make test-slow) the strict rules built alone: the same
bytes as the shipped ones, built after the official rules and copied from them."""

import subprocess
import sys

import numpy as np
import pytest
from conftest import ROOT, TABLES
from yacht.chances.reach_table import chunk_for_variant, chunk_name, folder_name
from yacht.core.categories import FULL_MASK
from yacht.core.rules import OFFICIAL, STRICT, Variant
from yacht.core.states import N_MASKS

from build_table.shared import Shared, same_future_masks

FULL_HOUSE = 8


def test_the_rest_of_the_game_is_the_same_in_both_variants_exactly_where_the_full_house_is_filled():
    masks = same_future_masks(OFFICIAL, STRICT)
    assert masks.tolist() == [m for m in range(N_MASKS) if m >> FULL_HOUSE & 1]
    assert len(masks) == 2048 and (same_future_masks(STRICT, OFFICIAL) == masks).all()
    assert (same_future_masks(OFFICIAL, OFFICIAL) == np.arange(N_MASKS)).all()
    assert (Shared([OFFICIAL, STRICT]).masks == masks).all()
    assert (Shared([STRICT]).masks == np.arange(N_MASKS)).all()


def test_the_variant_built_first_hands_its_work_only_to_a_later_one():
    values = np.zeros((N_MASKS, 64, 3))
    shared = Shared([OFFICIAL, STRICT])
    shared.start(OFFICIAL, np.zeros((N_MASKS, 64)))
    assert shared.given("reach", OFFICIAL) is None and shared.keeps(OFFICIAL)
    shared.keep("reach", OFFICIAL, values)
    shared.start(STRICT, np.zeros((N_MASKS, 64)))
    masks, given = shared.given("reach", STRICT)
    assert given is values and (masks == same_future_masks(OFFICIAL, STRICT)).all()
    assert shared.given("law", STRICT) is None  # not built by the first in this run
    assert not shared.keeps(STRICT)
    alone = Shared([STRICT])
    alone.start(STRICT, np.zeros((N_MASKS, 64)))
    alone.keep("reach", STRICT, values)
    assert alone.values == {} and not alone.keeps(STRICT)


@pytest.mark.parametrize(("mask", "differs"), [(FULL_MASK - 1, True), (1 << FULL_HOUSE, True), (5, False)])
def test_a_later_variant_whose_e_differs_at_a_shared_mask_stops_the_build(mask, differs):
    tilde = np.arange(N_MASKS * 64, dtype=np.float64).reshape(N_MASKS, 64)
    other = tilde.copy()
    other[mask, 3] = np.nextafter(other[mask, 3], np.inf)  # one bit
    shared = Shared([OFFICIAL, STRICT])
    shared.start(OFFICIAL, tilde)
    if differs:
        with pytest.raises(RuntimeError, match="Ẽ of strict differs from official's at a mask whose rest"):
            shared.start(STRICT, other)
    else:
        shared.start(STRICT, other)  # mask 5 leaves the Full House free: the variants' games differ


def _shipped(variant: Variant, quantity: str, mask: int) -> bytes:
    return (TABLES / folder_name(variant.name, quantity) / chunk_name(mask)).read_bytes()


@pytest.mark.parametrize("quantity", ["reach", "law"])
def test_a_chunk_taken_from_the_other_variant_is_the_shipped_chunk(quantity):
    masks = same_future_masks(OFFICIAL, STRICT)
    for mask in [*np.random.default_rng(8).choice(masks[:-1], 12, replace=False).tolist(), 1 << FULL_HOUSE, 4094]:
        official = _shipped(OFFICIAL, quantity, mask)
        assert chunk_for_variant(official, "strict", mask, quantity) == _shipped(STRICT, quantity, mask), mask
        assert chunk_for_variant(_shipped(STRICT, quantity, mask), "official", mask, quantity) == official, mask


def test_a_chunk_of_another_mask_or_quantity_or_damaged_is_not_taken():
    data = _shipped(OFFICIAL, "reach", 256)
    with pytest.raises(ValueError, match="not the reach chunk of mask 257"):
        chunk_for_variant(data, "strict", 257, "reach")
    with pytest.raises(ValueError, match="not the law chunk of mask 256"):
        chunk_for_variant(data, "strict", 256, "law")
    damaged = bytearray(data)
    damaged[len(data) // 2] ^= 1
    with pytest.raises(ValueError, match="checksum"):
        chunk_for_variant(bytes(damaged), "strict", 256, "reach")


@pytest.mark.slow
def test_the_strict_rules_built_alone_are_the_shipped_bytes_built_after_the_official_ones(tmp_path):
    """make's build (both variants: strict copies half its masks from official) against strict
    solved and written alone: every kind that copies but reach (``build_table.shared``), whose
    solve copies as law's does (``solve._copied``) and solves each mask alone, its chunks taken
    as law's are (a quarter of the time of all four)."""
    kinds = ["spread", "law", "coach"]
    only = [a for kind in kinds for a in ("--only", kind)]
    command = [sys.executable, "-m", "build_table", "--variant", "strict", *only, "--out", str(tmp_path)]
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file() and p.suffix != ".stamp")
    assert len(written) == 4095 + 3  # the chunks of law, the spread and the coach's two files
    for path in written:
        assert (tmp_path / path).read_bytes() == (TABLES / path).read_bytes(), path
