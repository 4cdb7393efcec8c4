"""The warm start's one Pyodide version (web/worker/snapshot.js: PYODIDE_VERSION) is the one the
build pins, and the site build refuses a pin that is not it (tools/site_build/runtime.py); the
engine tests wait for a snapshot as long as the worker lets a try last, and a little more."""

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from site_build import runtime  # noqa: E402
from site_build.common import BuildError  # noqa: E402

PINNED = json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]


def test_the_snapshots_pyodide_version_is_the_one_package_json_and_the_lock_pin() -> None:
    locked = json.loads((ROOT / "package-lock.json").read_text())["packages"]["node_modules/pyodide"]["version"]
    assert runtime.snapshot_pyodide_version() == PINNED == locked


def test_the_build_refuses_a_pyodide_the_snapshot_code_does_not_know(tmp_path, monkeypatch) -> None:
    other = tmp_path / "snapshot.js"
    other.write_text('export const PYODIDE_VERSION = "0.26.4";\n')
    monkeypatch.setattr(runtime, "SNAPSHOT_JS", other)
    known = re.escape(f"pins pyodide {PINNED}, but web/worker/snapshot.js's PYODIDE_VERSION is 0.26.4")
    with pytest.raises(BuildError, match=known):
        runtime.pinned_pyodide_version()


def test_a_snapshot_js_without_the_constant_is_refused(tmp_path, monkeypatch) -> None:
    other = tmp_path / "snapshot.js"
    other.write_text("const PYODIDE = 1;\n")
    monkeypatch.setattr(runtime, "SNAPSHOT_JS", other)
    with pytest.raises(BuildError, match="declares no PYODIDE_VERSION"):
        runtime.snapshot_pyodide_version()


def test_the_snapshot_try_limit_is_the_workers() -> None:
    """The engine tests wait for a try to take the snapshot a little past the worker's own limit
    (tests/browser/engine_smoke.py: SNAPSHOT_TRY_LIMIT), so that a try that hangs fails with the
    step the worker names; the two limits are one."""
    source = (ROOT / "web" / "worker" / "snapshot.js").read_text()
    found = re.search(r"const SNAPSHOT_TIMEOUT_MS = ([\d_]+);", source)
    assert found, "web/worker/snapshot.js declares no SNAPSHOT_TIMEOUT_MS"
    smoke = (ROOT / "tests" / "browser" / "engine_smoke.py").read_text()
    limit = re.search(r"^SNAPSHOT_TRY_LIMIT = (\d+)$", smoke, re.MULTILINE)
    assert limit and int(found.group(1).replace("_", "")) == 1000 * int(limit.group(1))
