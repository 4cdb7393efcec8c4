"""``make serve`` serves before the tables are all built (tools/serve_first.py): the files are
written whole (build_table.files), the kinds not up to date are found by their stamps and removed
before serving, and build.json lists them as pending (site_build.data), under URLs that no other
build's file can answer."""

import os
import sys
from pathlib import Path

import pytest
from conftest import ROOT, TABLES
from yacht.core import table_kinds
from yacht.core.categories import FULL_MASK
from yacht.core.rules import VARIANTS

from build_table.files import swap_in, write_bytes
from build_table.stamps import outputs, stamp_path, stamp_text

sys.path.insert(0, str(ROOT / "tools"))
import serve_first
from site_build import data

LATER = [kind for kind, k in table_kinds.KINDS.items() if k.fetch != "start"]
"""The kinds the page can answer without (all but each variant's table)."""


def test_a_file_is_written_whole_beside_then_renamed_over_the_old(tmp_path) -> None:
    path = tmp_path / "yacht-official.spread.table"
    path.write_bytes(b"old")
    inode = path.stat().st_ino
    write_bytes(path, b"new bytes")
    assert path.read_bytes() == b"new bytes"
    assert path.stat().st_ino != inode  # a new file took its place: a reader of the old one kept it whole
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


def test_a_chunk_folder_is_swapped_in_whole(tmp_path) -> None:
    folder, partial = tmp_path / "yacht-official.reach", tmp_path / "yacht-official.reach.partial"
    folder.mkdir()
    (folder / "000.chunk").write_bytes(b"old")
    (folder / "001.chunk").write_bytes(b"old")
    partial.mkdir()
    (partial / "000.chunk").write_bytes(b"new")
    swap_in(partial, folder)
    assert [(p.name, p.read_bytes()) for p in folder.iterdir()] == [("000.chunk", b"new")]  # no chunk of the old build
    assert sorted(p.name for p in tmp_path.iterdir()) == [folder.name]
    again = tmp_path / "second.partial"
    again.mkdir()
    swap_in(again, tmp_path / "second")  # no folder before: it simply arrives
    assert (tmp_path / "second").is_dir() and not again.exists()


@pytest.fixture
def tables(tmp_path) -> Path:
    """A copy of public/tables (hard links: the tests only remove and add files), every stamp
    rewritten for the sources as they are now: a build that is up to date, whatever the state of
    public/tables (a checkout whose sources changed since its tables were built)."""
    copy = tmp_path / "tables"
    copy.mkdir()
    for path in TABLES.iterdir():
        if path.is_dir():
            (copy / path.name).mkdir()
            for chunk in path.iterdir():
                os.link(chunk, copy / path.name / chunk.name)
        else:
            os.link(path, copy / path.name)
    for variant in VARIANTS:
        for kind in table_kinds.KINDS:
            stamp = stamp_path(copy, variant, kind)
            stamp.unlink(missing_ok=True)  # a link to public/tables' stamp: never written through
            stamp.write_text(stamp_text(variant, kind))
    return copy


def test_the_kinds_not_up_to_date_are_pending_and_removed_before_serving(tables) -> None:
    assert data.pending_kinds(tables) == {variant: [] for variant in sorted(VARIANTS)}  # all built
    stamp_path(tables, "strict", "reach").write_text("sources of another build\n")  # stale
    (tables / table_kinds.file_name("law", "official") / table_kinds.chunk_name(FULL_MASK - 1)).unlink()  # incomplete
    (tables / table_kinds.file_name("coach", "official", "points")).unlink()  # one part of two missing
    expected = {"official": ["law", "coach"], "strict": ["reach"]}
    assert data.pending_kinds(tables) == expected
    assert serve_first.remove_stale(tables) == expected
    for variant, kinds in expected.items():
        for kind in kinds:
            assert not any(path.exists() for path in outputs(tables, variant, kind)), (variant, kind)
    assert (tables / table_kinds.file_name("coach", "strict", "points")).is_file()  # the others stay
    assert (tables / table_kinds.file_name("reach", "official") / table_kinds.chunk_name(0)).is_file()
    assert (tables / table_kinds.file_name("table", "strict")).is_file()


def test_build_json_lists_a_pending_kind_under_the_hash_of_its_sources() -> None:
    built = data.build_json("0.27.7", wheel_name())
    pending = {"strict": ["reach", "coach"]}
    partial = data.build_json("0.27.7", wheel_name(), pending)
    assert partial["pending"] == pending and "pending" not in built
    for field in ("tables", "spreads", "law", "quantiles"):
        assert partial[field] == built[field]  # what is built is listed as it is
    assert partial["reach"]["official"] == built["reach"]["official"]
    assert partial["coach"]["official"] == built["coach"]["official"]
    reach, coach = partial["reach"]["strict"], partial["coach"]["strict"]
    assert reach == {
        "url": "tables/yacht-strict.reach/",
        "hash": data.pending_hash("strict", "reach"),
        "chunks": FULL_MASK,
        "bytes": None,
    }
    h = data.pending_hash("strict", "coach")
    assert coach == {
        "bonus": {"url": f"tables/yacht-strict.bonus?h={h}", "bytes": None},
        "points": {"url": f"tables/yacht-strict.points?h={h}", "bytes": None},
    }
    assert len(data.kind_urls(partial, "reach")) == 2 * FULL_MASK  # the service worker's lists read it as any


def test_a_pending_hash_names_one_kind_of_one_variant_built_from_these_sources(monkeypatch) -> None:
    hashes = {data.pending_hash(variant, kind) for variant in VARIANTS for kind in LATER}
    assert len(hashes) == len(VARIANTS) * len(LATER)
    build = data.build_json("0.27.7", wheel_name())
    built = {url.split("?h=")[1] for kind in LATER for url in data.kind_urls(build, kind)}
    assert not hashes & built  # never a built file's content hash
    before = data.pending_hash("official", "law")
    assert data.pending_hash("official", "law") == before  # the same sources, the same URL
    monkeypatch.setattr(data, "stamp_text", lambda variant, kind: stamp_text(variant, kind) + "changed")
    assert data.pending_hash("official", "law") != before  # other sources: another URL, no stale copy


def wheel_name() -> str:
    return next((ROOT / "public" / "py").glob("*.whl")).name


def test_a_port_already_taken_is_said_at_once_before_anything_is_built(monkeypatch, capsys) -> None:
    import socket

    built = []
    monkeypatch.setattr(serve_first, "run", lambda *args, **kwargs: built.append(args) or True)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert serve_first.main([str(port)]) == 1
    error = capsys.readouterr().err
    assert f"error: cannot serve on 127.0.0.1:{port}" in error and "make serve PORT=" in error, error
    assert "Traceback" not in error and built == []
