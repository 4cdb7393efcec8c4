"""No source file of the repository is over ``LIMIT`` lines: every ``.py``, ``.js``, ``.mjs`` and
``.css`` file git knows of (tracked, or new and not ignored), except the golden data of
``tests/golden/`` (written by a script, read as data) and the files of ``OVER_LIMIT``."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 450
SUFFIXES = (".py", ".js", ".mjs", ".css")
GENERATED = ("tests/golden/",)
"""Folders of generated files, which are data rather than source."""

OVER_LIMIT: frozenset[str] = frozenset(
    # Files allowed over the limit for now (e.g. "tools/build_site.py" while it was being split):
    # empty, and to be kept so. A file on it that is within the limit (or gone) fails the test
    # below, so that the list only ever shrinks.
)


def source_files() -> list[str]:
    """The repository's source files (paths from its root), as git lists them."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    return sorted(
        {
            path
            for path in listed
            if path.endswith(SUFFIXES) and not path.startswith(GENERATED) and (ROOT / path).is_file()
        }
    )


def line_count(path: str) -> int:
    return len((ROOT / path).read_bytes().splitlines())


def too_long(paths: list[str]) -> list[str]:
    """``path: N lines`` of each of ``paths`` over ``LIMIT`` lines and not in ``OVER_LIMIT``."""
    return [f"{p}: {line_count(p)} lines" for p in paths if p not in OVER_LIMIT and line_count(p) > LIMIT]


def test_no_source_file_is_over_450_lines():
    paths = source_files()
    assert any(p.endswith(".css") for p in paths) and any(p.endswith(".py") for p in paths)
    found = too_long(paths)
    assert not found, f"source files over {LIMIT} lines (split them by responsibility):\n" + "\n".join(found)


def test_every_file_allowed_over_the_limit_still_is():
    stale = [p for p in sorted(OVER_LIMIT) if not (ROOT / p).is_file() or line_count(p) <= LIMIT]
    assert not stale, "take these off OVER_LIMIT (gone, or within the limit now): " + ", ".join(stale)


def test_the_check_names_a_file_over_the_limit_with_its_length_unless_it_is_allowed(monkeypatch):
    this = "tests/test_file_lengths.py"
    module = sys.modules[__name__]
    monkeypatch.setattr(module, "LIMIT", 10)
    assert too_long([this]) == [f"{this}: {line_count(this)} lines"]
    monkeypatch.setattr(module, "OVER_LIMIT", frozenset({this}))
    assert too_long([this]) == []
    monkeypatch.setattr(module, "LIMIT", 1000)
    monkeypatch.setattr(module, "OVER_LIMIT", frozenset())
    assert too_long([this]) == []
