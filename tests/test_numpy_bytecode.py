"""NumPy's trimmed wheel as bytecode only (``tools/site_build/runtime.py``: ``sourceless``).

The wheel's modules are compiled by the pinned Pyodide under Node.js (``tools/compile_pyc.mjs``):
each kept module becomes a ``.pyc`` where its source was, its RECORD row names the bytecode with
its hash and size, nothing else changes, and the same input gives the same bytes (the wheel's
folder is named after its sha256: a build that differed would move it on every build)."""

import io
import json
import shutil
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from site_build import runtime, wheel  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="Node.js compiles the bytecode")


@pytest.fixture(scope="module")
def trimmed() -> tuple[bytes, str]:
    """The trimmed official wheel (sources) and its RECORD's name."""
    source = runtime.pyodide_dir(runtime.pinned_pyodide_version())
    path, name = runtime.numpy_wheel(json.loads((source / "pyodide-lock.json").read_text()))
    record = "numpy-2.0.2.dist-info/RECORD"
    keep = runtime.read_keep_list(runtime.KEEP_LISTS["numpy"])
    return runtime.trim_zip(path.read_bytes(), keep, name, record), record


def members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {m.filename: archive.read(m) for m in archive.infolist()}


def test_each_module_becomes_bytecode_listed_in_record_and_the_rest_is_unchanged(trimmed) -> None:
    data, record = trimmed
    before, after = members(data), members(runtime.sourceless(data, record))
    sources = [n for n in before if n.endswith(".py")]
    assert len(sources) > 70
    assert sorted(after) == sorted({n[:-3] + ".pyc" if n in sources else n for n in before})
    for name in sources:
        pyc = after[name[:-3] + ".pyc"]
        assert pyc[:4] == python312_magic(), name  # CPython 3.12's bytecode, not this machine's 3.11
        assert int.from_bytes(pyc[4:8], "little") == 0b01, name  # PEP 552: hash-based, unchecked
    rows = dict(row.split(",", 1) for row in after[record].decode().splitlines())
    for name in sources:
        pyc = name[:-3] + ".pyc"
        assert rows[pyc] == f"{wheel.record_hash(after[pyc])},{len(after[pyc])}"
        assert name not in rows
    unchanged = [n for n in before if n not in sources and n != record]
    assert all(after[n] == before[n] for n in unchanged)


def python312_magic() -> bytes:
    """Python 3.12's bytecode magic number (the page's Pyodide runs 3.12)."""
    return (3531).to_bytes(2, "little") + b"\r\n"


def test_the_bytecode_is_the_same_from_build_to_build(trimmed) -> None:
    data, record = trimmed
    assert runtime.sourceless(data, record) == runtime.sourceless(data, record)


def test_docstrings_are_left_out_of_the_bytecode_in_both_modes() -> None:
    """Dropped (our package's) or empty strings (NumPy's: the browser test checks ``__doc__ == ""``)."""
    source = 'def f():\n    """Doc."""\n    return 1\n'
    empty = wheel.compile_bytecode({"p/m.py": source}, sourceless=True, docstrings="empty")["p/m.pyc"]
    dropped = wheel.compile_bytecode({"p/m.py": source})["p/__pycache__/m.cpython-312.pyc"]
    assert b"Doc." not in empty and b"Doc." not in dropped
    assert b"return" not in empty  # bytecode, not the source


def test_left_out_members_become_their_python_module_listed_in_record(trimmed) -> None:
    """``left_out``: numpy.linalg's WebAssembly gives way to the module that says it is left out,
    in its place and in RECORD with its hash; every other member is unchanged."""
    data, record = trimmed
    before, after = members(data), members(runtime.left_out(data, record))
    ((so, (module, source)),) = runtime.LEFT_OUT.items()
    assert so in before and so not in after
    assert after[module] == source.read_bytes()
    assert list(after) == [module if n == so else n for n in before]
    rows = dict(row.split(",", 1) for row in after[record].decode().splitlines())
    assert rows[module] == f"{wheel.record_hash(after[module])},{len(after[module])}" and so not in rows
    assert all(after[n] == before[n] for n in before if n not in (so, record))
    with pytest.raises(runtime.BuildError, match="LEFT_OUT"):
        runtime.left_out(members_zip({n: b for n, b in before.items() if n != so}), record)


def members_zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as out:
        for name, body in files.items():
            out.writestr(name, body)
    return buffer.getvalue()
