"""The registry of table kinds (``yacht.core.table_kinds``) is the one place a kind is named: every
kind in it is built (``build_table``), loaded (``yacht.loader.Tables.add``), published
(``build.json``, ``precache.js``), and the worker, the service worker and the Makefile name no
kind's file themselves."""

import json
import re
import subprocess
import sys

import pytest
from conftest import ROOT, TABLES
from yacht.core import table_kinds
from yacht.core.rules import VARIANTS
from yacht.core.table import TableError
from yacht.loader import CoachMissing, Missing, QuantilesMissing, ReachMissing, SpreadMissing, TableMissing, Tables

import build_table.kinds as builders
from build_table.__main__ import KINDS
from build_table.stamps import made_targets, output_name, sources

sys.path.insert(0, str(ROOT / "tools"))
from site_build import data, offline

PUBLIC = ROOT / "public"
JS_PROGRAMS = [*sorted((ROOT / "web" / "worker").glob("*.js")), ROOT / "web" / "service-worker" / "sw.js"]
STEP_NAMES = {"runtime", "numpy", "package", "table"}
"""The worker's loading steps (worker-load.js): "table" is the start's step, not a kind."""


def file_of(kind: str, variant: str, part: str) -> str:
    """A file of ``kind``: the part's, or a chunked kind's chunk of mask 0, relative to the tables."""
    name = table_kinds.file_name(kind, variant, part)
    return f"{name}/{table_kinds.chunk_name(0)}" if table_kinds.KINDS[kind].chunked else name


def every_file() -> list[tuple[str, str, str]]:
    """(kind, variant, part) of one file of every part of every kind of every variant."""
    return [
        (kind, variant, part)
        for kind, entry in table_kinds.KINDS.items()
        for variant in sorted(VARIANTS)
        for part in entry.files
    ]


def test_each_kind_of_the_registry_is_what_build_table_builds_with_its_own_builder_and_sources() -> None:
    assert KINDS == tuple(table_kinds.KINDS)
    assert KINDS[0] == "table", "the others build on the Ẽ table"
    for kind, entry in table_kinds.KINDS.items():
        assert callable(getattr(builders, entry.builder)), kind
        py = [path.relative_to(ROOT / "py") for path in sources(kind) if path.is_relative_to(ROOT / "py")]
        built_from = {path.with_suffix("").as_posix().replace("/", ".") for path in py}
        assert set(entry.modules) <= built_from, kind
        for variant in VARIANTS:
            targets = made_targets(TABLES, variant, kind)
            assert targets and all(path.exists() for path in targets), (kind, variant)
            assert output_name(variant, kind) == table_kinds.file_name(kind, variant, next(iter(entry.files)))


def test_build_table_offers_every_kind_and_makes_the_one_stamp_make_waits_for() -> None:
    run = subprocess.run([sys.executable, "-m", "build_table", "--help"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0
    for kind in table_kinds.KINDS:
        assert kind in run.stdout
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^TABLES := public/tables/\.built$", makefile, re.M)
    assert "public/tables/yacht-" not in makefile, "the Makefile names no table file"


@pytest.mark.parametrize(("kind", "variant", "part"), every_file())
def test_each_built_file_is_loaded_by_tables_add_with_its_kinds_loader(kind, variant, part) -> None:
    path = TABLES / file_of(kind, variant, part)
    data = path.read_bytes()
    tables = Tables()
    held = (len(tables), len(tables.spreads), len(tables.chunks), len(tables.estimates), len(tables.coaches))
    tables.add(kind, variant, 0 if table_kinds.KINDS[kind].chunked else part, data)
    assert (len(tables), len(tables.spreads), len(tables.chunks), len(tables.estimates), len(tables.coaches)) != held
    with pytest.raises(TableError):
        Tables().add(kind, variant, 0 if table_kinds.KINDS[kind].chunked else part, data[: len(data) // 2])


def test_what_a_folderless_loader_lacks_is_named_by_registry_kind_part_and_file() -> None:
    for missing in (
        TableMissing("strict"),
        SpreadMissing("strict"),
        QuantilesMissing("strict"),
        ReachMissing("strict", ["reach", "law"], [3, 4094]),
        CoachMissing("strict", ["bonus", "points"]),
    ):
        assert isinstance(missing, Missing)
        for kind, part, name in zip(missing.kinds, missing.parts, missing.names, strict=True):
            assert kind in table_kinds.KINDS
            assert (TABLES / file_of(kind, "strict", "" if isinstance(part, int) else part)).exists()
            if isinstance(part, int):
                assert name == table_kinds.chunk_name(part)
            else:
                assert name == table_kinds.file_name(kind, "strict", part)


def test_build_json_publishes_every_kind_for_every_variant_and_describes_the_kinds(site_built) -> None:
    build = json.loads((PUBLIC / "build.json").read_text())
    assert build["kinds"] == data.kinds_json()
    for kind, entry in table_kinds.KINDS.items():
        assert build["kinds"][kind]["field"] == entry.field
        assert sorted(build[entry.field]) == sorted(VARIANTS)
        urls = data.kind_urls(build, kind)
        assert len(urls) == len(VARIANTS) * (4095 if entry.chunked else len(entry.files))
        assert all((PUBLIC / url.split("?", 1)[0]).is_file() for url in urls)
    precache = json.loads((PUBLIC / "precache.js").read_text().split("self.PRECACHE = ", 1)[1].rstrip().rstrip(";"))
    for kind, entry in table_kinds.KINDS.items():
        urls = data.kind_urls(build, kind)
        if entry.fetch == "start":
            assert set(urls) <= set(precache["urls"]), kind
        else:
            assert not set(urls) & set(precache["urls"]), kind
            kept = offline.kept_paths(build)
            assert precache["kept"] == kept
            assert all(any(url.startswith(path) for path in kept) for url in urls), kind


@pytest.fixture(scope="module")
def site_built() -> None:
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "build_site.py")], cwd=ROOT, capture_output=True)
    assert run.returncode == 0, run.stderr.decode()


def code(path) -> str:
    """A JavaScript file without its comments."""
    text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
    return re.sub(r"(?m)^\s*//.*$|(?<=[;,{}()\s])//.*$", "", text)


def literals(text: str) -> list[str]:
    """The string and template literals of JavaScript code."""
    found = re.findall(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'|`((?:[^`\\]|\\.)*)`', text)
    return [next((g for g in groups if g), "") for groups in found]


@pytest.mark.parametrize("path", JS_PROGRAMS, ids=lambda path: path.name)
def test_the_worker_and_the_service_worker_name_no_kind_and_no_table_file(path) -> None:
    """No file name's ending of any kind (``.spread.table``, ``.chunk``: in a string, a template or
    a regular expression, or as a property) and no kind's or field's name as a string: those come
    from build.json and precache.js."""
    patterns = [pattern for entry in table_kinds.KINDS.values() for pattern in entry.files.values()]
    endings = {pattern.split("{variant}", 1)[1] for pattern in patterns} | {table_kinds.CHUNK.split("}", 1)[1]}
    text = code(path)
    for ending in endings:
        found = re.search(re.escape(ending).replace(r"\.", r"\\?\.") + r"\b", text)
        assert not found, f"{path.name}: {found and found.group()!r}"
    assert not re.search(r"\btables\\?/", text), f"{path.name}: the tables' folder"
    names = set(table_kinds.KINDS) | {entry.field for entry in table_kinds.KINDS.values()}
    for literal in literals(text):
        assert literal not in names - STEP_NAMES, f"{path.name}: {literal!r}"
