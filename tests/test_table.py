"""The table file: build, size, precision, determinism and rejection of damaged files."""

import json
import struct
import subprocess
import sys

import numpy as np
import pytest
from conftest import ROOT
from hypothesis import given
from hypothesis import strategies as st
from yacht.categories import FULL_MASK
from yacht.states import REACHABLE
from yacht.table import MAGIC, STORED_COUNT, TableError, decode, encode, file_name

GOLDEN = {"official": 191.774369188342, "strict": 191.760879752165}
MAX_BYTES = 256 * 1024


@pytest.fixture(scope="module")
def encoded(solved) -> dict[str, bytes]:
    return {name: encode(name, tilde) for name, tilde in solved.items()}


def test_stored_count_is_every_reachable_state_but_the_full_sheet():
    assert STORED_COUNT == int(REACHABLE.sum()) - int(REACHABLE[FULL_MASK].sum()) == 178_752


@pytest.mark.parametrize("variant", ["official", "strict"])
def test_round_trip_keeps_every_value_within_1e_5(solved, encoded, variant):
    table = decode(encoded[variant])
    assert table.variant == variant
    assert np.array_equal(np.isnan(table.tilde), np.isnan(solved[variant]))
    assert np.nanmax(np.abs(table.tilde - solved[variant])) <= 0.5 / 2**17 + 1e-12
    assert len(encoded[variant]) <= MAX_BYTES


def test_build_table_cli_writes_byte_identical_files_to_an_in_process_solve(tmp_path, encoded):
    """Run to run (and forked workers vs one process), the bytes are the same."""
    run = subprocess.run(
        [sys.executable, "-m", "build_table", "--out", str(tmp_path)], cwd=ROOT, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    for variant, data in encoded.items():
        assert (tmp_path / file_name(variant)).read_bytes() == data
        assert f"{variant}: solved in" in run.stdout


def test_shipped_tables_are_what_the_solver_writes_now(encoded):
    for variant, data in encoded.items():
        path = ROOT / "public" / "tables" / file_name(variant)
        assert path.read_bytes() == data, f"{path} is stale: run `make tables`"


@pytest.mark.parametrize("variant", ["official", "strict"])
def test_shipped_tables_give_the_golden_empty_sheet_value(shipped, variant):
    assert shipped[variant].tilde[0, 0] == pytest.approx(GOLDEN[variant], abs=1e-5)


def test_truncated_file_is_rejected(encoded):
    data = encoded["official"]
    for cut in (0, 5, 12, 40, len(data) // 2, len(data) - 1):
        with pytest.raises(TableError):
            decode(data[:cut])


@given(position=st.integers(0, 10**9), flip=st.integers(1, 255))
def test_any_damaged_byte_is_rejected(encoded, position, flip):
    data = bytearray(encoded["strict"])
    data[position % len(data)] ^= flip
    with pytest.raises(TableError):
        decode(bytes(data), source="x.table")


def _rebuilt(data: bytes, header_change: dict) -> bytes:
    """A well-checksummed file whose header has been changed."""
    import hashlib

    fixed = len(MAGIC) + 6
    (length,) = struct.unpack("<I", data[len(MAGIC) + 2 : fixed])
    header = json.loads(data[fixed : fixed + length]) | header_change
    new_header = json.dumps(header).encode()
    body = data[: len(MAGIC) + 2] + struct.pack("<I", len(new_header)) + new_header + data[fixed + length : -32]
    return body + hashlib.sha256(body).digest()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"layout": "dense"}, "header layout"),
        ({"encoding": "raw"}, "header encoding"),
        ({"count": 5}, "header count"),
        ({"variant": "house"}, "unknown variant"),
        ({"scale": -1}, "bad scale"),
    ],
)
def test_header_that_does_not_describe_this_format_is_rejected(encoded, change, message):
    with pytest.raises(TableError, match=message):
        decode(_rebuilt(encoded["official"], change))


def test_error_messages_name_the_file_and_the_fault(encoded):
    data = encoded["official"]
    with pytest.raises(TableError, match=r"^t\.table: not a Yacht table file"):
        decode(b"hello world" + data, source="t.table")
    with pytest.raises(TableError, match="checksum mismatch"):
        decode(data[:-1] + bytes([data[-1] ^ 1]), source="t.table")
    newer = bytearray(data)
    newer[len(MAGIC)] = 2
    with pytest.raises(TableError, match=r"format version 2\.0 is not supported"):
        decode(bytes(newer))
