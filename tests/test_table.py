"""The table file: build, size, precision, determinism and rejection of damaged files."""

import functools
import hashlib
import json
import struct
import subprocess
import sys
import tracemalloc
import zlib

import numpy as np
import pytest
from conftest import ROOT, TABLES
from hypothesis import given
from hypothesis import strategies as st
from yacht.core.categories import FULL_MASK
from yacht.core.states import REACHABLE
from yacht.core.table import MAGIC, MAX_SCALE, STORED_COUNT, TableError, decode, encode, file_name
from yacht.loader import Tables

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
        [sys.executable, "-m", "build_table", "--only", "table", "--out", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    for variant, data in encoded.items():
        assert (tmp_path / file_name(variant)).read_bytes() == data
        assert f"{variant}: table solved in" in run.stdout
    expected = sorted(name for v in encoded for name in (file_name(v), f"{file_name(v)}.stamp"))
    assert sorted(path.name for path in tmp_path.iterdir()) == expected, "only the tables and their stamps"


def test_build_table_skips_a_kind_whose_stamp_matches_its_sources_unless_forced(tmp_path):
    """A second build of the same sources writes nothing (the table is only touched); --force and
    a stamp of other sources build it again, the same bytes."""

    def build(*flags: str) -> str:
        argv = [sys.executable, "-m", "build_table", "--variant", "strict", "--only", "table", "--out", str(tmp_path)]
        run = subprocess.run([*argv, *flags], cwd=ROOT, capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        return run.stdout

    table, stamp = tmp_path / file_name("strict"), tmp_path / f"{file_name('strict')}.stamp"
    assert "strict: table solved in" in build()
    data = table.read_bytes()
    assert json.loads(stamp.read_text())["kind"] == "table"
    assert "strict: table is up to date" in build() and table.read_bytes() == data
    assert "strict: table solved in" in build("--force") and table.read_bytes() == data
    stamp.write_text(stamp.read_text().replace('"sources": "', '"sources": "0'))
    assert "strict: table solved in" in build() and table.read_bytes() == data


def test_a_kinds_sources_are_the_modules_it_imports_and_the_builder():
    from build_table.stamps import sources

    names = {path.relative_to(ROOT).as_posix() for path in sources("reach")}
    assert {
        "py/yacht/chances/reach.py",
        "py/yacht/chances/outcome.py",
        "py/yacht/core/dice.py",
        "build_table/solve.py",
        "py/yacht/__init__.py",
        "py/yacht/chances/__init__.py",
    } <= names
    assert "py/yacht/chances/goal.py" not in names and "py/yacht/chances/spread.py" not in names
    assert "reach.py" not in {path.name for path in sources("table")}


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


def _rebuilt(data: bytes, header_change: dict | None = None, *, header: bytes | None = None, payload=None) -> bytes:
    """A well-checksummed file whose header (changed keys, or raw bytes) or payload has been replaced."""
    fixed = len(MAGIC) + 6
    (length,) = struct.unpack("<I", data[len(MAGIC) + 2 : fixed])
    if header is None:
        header = json.dumps(json.loads(data[fixed : fixed + length]) | (header_change or {})).encode()
    payload = data[fixed + length : -32] if payload is None else payload
    body = data[: len(MAGIC) + 2] + struct.pack("<I", len(header)) + header + payload
    return body + hashlib.sha256(body).digest()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"layout": "dense"}, "header layout"),
        ({"encoding": "raw"}, "header encoding"),
        ({"count": 5}, "header count"),
        ({"variant": "house"}, "unknown variant"),
        ({"scale": -1}, "header scale is -1, expected 1–16777216"),
        ({"scale": 10**400}, "header scale is 1000000000000000000000000000000000000…, expected 1–16777216"),
        ({"scale": True}, "header scale is True, expected a JSON int"),
        ({"scale": 131072.0}, "header scale is 131072.0, expected a JSON int"),
        ({"count": True}, "header count is True, expected a JSON int"),
        ({"variant": ["official"]}, r"header variant is \['official'\], expected a JSON str"),
        ({"variant": None}, "header variant is None, expected a JSON str"),
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


def test_hostile_headers_are_refused_with_a_message(encoded):
    data = encoded["official"]
    deep = b"[" * 100_000 + b"]" * 100_000
    with pytest.raises(TableError, match="header length 200000 is over the limit of 1024 bytes"):
        decode(_rebuilt(data, header=deep))
    with pytest.raises(TableError, match="unreadable header"):
        decode(_rebuilt(data, header=b"[" * 500 + b"]" * 500 + b"}"))
    with pytest.raises(TableError, match="unreadable header"):
        decode(_rebuilt(data, header=b"\xff\xfe{}"))
    with pytest.raises(TableError, match="header is not a JSON object"):
        decode(_rebuilt(data, header=b"[" * 400 + b"]" * 400))


def test_table_of_the_other_variant_is_refused_when_a_variant_is_asked_for(encoded):
    """The page once showed strict values under "Official" when the strict file sat at the official URL."""
    assert decode(encoded["strict"], variant="strict").variant == "strict"
    with pytest.raises(TableError, match=r"x\.table: holds the strict table, expected official"):
        decode(encoded["strict"], source="x.table", variant="official")


def test_compressed_bomb_is_refused_without_inflating_it(encoded):
    bomb = zlib.compress(bytes(200_000_000), 9)  # 200 MB of zeros in about 200 KB
    tracemalloc.start()
    try:
        with pytest.raises(TableError, match="payload holds more than the 715008 bytes the header promises"):
            decode(_rebuilt(encoded["official"], payload=bomb))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20 * 2**20, f"decoding a bomb took {peak} bytes"


def test_payload_with_trailing_bytes_or_a_cut_stream_is_refused(encoded):
    data = encoded["official"]
    fixed = len(MAGIC) + 6
    (length,) = struct.unpack("<I", data[len(MAGIC) + 2 : fixed])
    payload = data[fixed + length : -32]
    with pytest.raises(TableError, match="3 bytes follow the payload"):
        decode(_rebuilt(data, payload=payload + b"abc"))
    with pytest.raises(TableError, match="payload"):
        decode(_rebuilt(data, payload=payload[:-10]))


def test_values_out_of_range_are_refused(encoded):
    """A valid header over a payload of random numbers (once accepted: "expected score 23,681,912")."""
    noise = np.random.default_rng(7).integers(-(2**31), 2**31, STORED_COUNT, dtype=np.int64).astype("<i4")
    shuffled = noise.view(np.uint8).reshape(-1, 4).T.tobytes()
    with pytest.raises(TableError, match="stored values out of range, first at mask"):
        decode(_rebuilt(encoded["official"], payload=zlib.compress(shuffled)))


def _json_containers(inner: st.SearchStrategy) -> st.SearchStrategy:
    """Lists and objects of ``inner`` JSON values (a named function: Hypothesis reads its source
    to check that it uses its argument, which it cannot do for a lambda inside a call)."""
    return st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    _json_containers,
    max_leaves=10,
)
_header_keys = st.sampled_from(["variant", "layout", "encoding", "scale", "count", "extra"])


@functools.cache
def _shipped_official() -> tuple[bytes, dict]:
    """The shipped official table's bytes and header (not a fixture: Hypothesis would print it)."""
    data = (TABLES / file_name("official")).read_bytes()
    (length,) = struct.unpack("<I", data[len(MAGIC) + 2 : len(MAGIC) + 6])
    return data, json.loads(data[len(MAGIC) + 6 : len(MAGIC) + 6 + length])


@given(change=st.dictionaries(_header_keys, _json_values, min_size=1, max_size=3))
def test_fuzzed_headers_with_valid_checksums_are_refused_or_give_the_same_table(change):
    data, header = _shipped_official()
    try:
        table = decode(_rebuilt(data, change), source="fuzz.table")
    except TableError as e:
        assert str(e).startswith("fuzz.table: ") and "\n" not in str(e)
        return
    # Accepted: only an unknown key was added, or fields were set to their own values, or the scale
    # to another the format allows (1–2²⁴) under which every value is still in range: the same
    # stored integers, read at that scale.
    assert all(header[k] == v and type(header[k]) is type(v) for k, v in change.items() if k not in ("extra", "scale"))
    scale = change.get("scale", header["scale"])
    assert type(scale) is int and 1 <= scale <= MAX_SCALE
    stored = (np.rint(t.tilde * s) for t, s in ((table, scale), (decode(data), header["scale"])))
    assert np.array_equal(*stored, equal_nan=True)


def test_tables_read_from_a_folder_given_as_a_string_as_from_a_path():
    by_path, by_name = Tables(TABLES), Tables(str(TABLES))
    assert by_name.folder == TABLES
    np.testing.assert_array_equal(by_name["official"].tilde, by_path["official"].tilde)
