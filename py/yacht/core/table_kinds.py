"""The registry of table kinds: every kind of file ``python -m build_table`` writes into the
tables' folder (``public/tables/``), each named once, here, as data. It imports nothing: the
functions an entry names are resolved by those that call them.

Who reads it:

- ``build_table`` builds each kind with its ``builder`` (a function of ``build_table.kinds``),
  stamps it with the SHA-256 of its ``modules`` and all they import, and offers the names to
  ``--only``; the Makefile's target for all of them is the stamp ``public/tables/.built``;
- ``yacht.loader.Tables`` finds each kind's files by ``files``, keeps the bytes a caller fetched
  with ``Tables.add(kind, variant, part, data)`` (its ``loader``, a method of ``Tables``), and
  names what it lacks in a ``loader.Missing`` (kinds, parts, file names);
- the site build (``tools/site_build/data.py``) lists each kind's files in ``build.json`` under
  ``field`` and describes the kinds themselves in ``build.json``'s ``kinds`` (``field``, ``parts``,
  ``chunked``, ``fetch``): all that the worker (``web/worker/worker-tables.js``) knows of them. It
  precaches the kinds fetched at start; ``precache.js`` lists the others' files for the service
  worker to keep once fetched.

A new kind is one entry of ``KINDS`` (with the builder and the loader it names).
"""

from collections.abc import Callable
from typing import Final, Literal, NamedTuple

Fetch = Literal["start", "goal", "coach"]


class TableKind(NamedTuple):
    name: str
    """What ``build_table --only`` and ``loader.Missing.kinds`` call it."""
    field: str
    """The field of ``build.json`` that lists its files, by variant."""
    files: dict[str, str]
    """Its files in the tables' folder: part → name pattern (``{variant}``). One part, ``""``, for
    a kind of one file per variant; a chunked kind's names its folder."""
    chunked: bool
    """One file per mask of the sheet (``CHUNK``) in its folder, fetched as an answer needs them."""
    fetch: Fetch
    """When the page fetches it: at ``start`` (and precached), when a ``goal`` needs it, or when
    the ``coach`` is first asked."""
    builder: str
    """``build_table.kinds``' function that solves and writes it."""
    loader: str
    """The method of ``yacht.loader.Tables`` that decodes and keeps one of its files."""
    modules: tuple[str, ...]
    """The ``yacht`` modules it is computed and written with (its stamp follows their imports)."""


CHUNK: Final = "{mask:03x}.chunk"
"""The name of a chunked kind's file for one mask, in its folder."""

KINDS: Final = {
    kind.name: kind
    for kind in (
        TableKind(
            name="table",
            field="tables",
            files={"": "yacht-{variant}.table"},
            chunked=False,
            fetch="start",
            builder="build_table",
            loader="load_table",
            modules=("yacht.core.solver", "yacht.core.table"),
        ),
        TableKind(
            name="spread",
            field="spreads",
            files={"": "yacht-{variant}.spread.table"},
            chunked=False,
            fetch="goal",
            builder="build_spread",
            loader="load_spread",
            modules=("yacht.core.solver", "yacht.core.table", "yacht.chances.spread"),
        ),
        TableKind(
            name="reach",
            field="reach",
            files={"": "yacht-{variant}.reach"},
            chunked=True,
            fetch="goal",
            builder="build_reach",
            loader="load_chunk",
            modules=("yacht.chances.reach", "yacht.chances.reach_table"),
        ),
        TableKind(
            name="law",
            field="law",
            files={"": "yacht-{variant}.law"},
            chunked=True,
            fetch="goal",
            builder="build_law",
            loader="load_chunk",
            modules=("yacht.core.solver", "yacht.core.table", "yacht.chances.law", "yacht.chances.reach_table"),
        ),
        TableKind(
            name="quantiles",
            field="quantiles",
            files={"": "yacht-{variant}.quantiles"},
            chunked=False,
            fetch="goal",
            builder="build_quantiles",
            loader="load_quantiles",
            modules=("yacht.chances.quantiles", "yacht.chances.reach_table"),
        ),
        TableKind(
            name="coach",
            field="coach",
            files={"bonus": "yacht-{variant}.bonus", "points": "yacht-{variant}.points"},
            chunked=False,
            fetch="coach",
            builder="build_coach",
            loader="load_coach",
            modules=("yacht.core.solver", "yacht.core.table", "yacht.chances.coach", "yacht.chances.coach_table"),
        ),
    )
}
"""Every kind, by name, in the order ``build_table`` builds them (the Ẽ table first: the others
build on it)."""


def file_name(kind: str, variant: str, part: str = "") -> str:
    """The file (a chunked kind's folder) of ``part`` of ``kind`` of ``variant`` in the tables' folder."""
    return KINDS[kind].files[part].format(variant=variant)


def parts(kind: str) -> tuple[str, ...]:
    """The parts of ``kind`` that are files of their own: ``()`` for a kind of one file (or folder)."""
    names = tuple(KINDS[kind].files)
    return () if names == ("",) else names


def chunk_name(mask: int) -> str:
    return CHUNK.format(mask=mask)


File = tuple[str, str | int]
"""One file of the tables: (kind, part), as ``loader.Missing`` names it: a chunked kind's mask, a
kind of several files the file's part, else ""."""


class Unavailable(LookupError):
    """An answer asked for files of ``variant`` its caller could not fetch now
    (``loader.Tables.set_unavailable``): ``files``, (kind, part) pairs. The answer goes without
    them (``available.Reads`` records so), or reads what stands in for them (``stand_in_for``)."""

    def __init__(self, variant: str, files: list[File], stand_in: Callable[[], object] | None = None) -> None:
        names = ", ".join(f"{kind} {part}".strip() for kind, part in files)
        super().__init__(f"could not be fetched now ({variant} rules): {names}")
        self.variant = variant
        self.files = files
        self.stand_in = stand_in

    def stand_in_for(self):
        """What stands in for the files refused (the chunks' curves rebuilt from the quantiles
        file: ``available.Reads``), or None where nothing does, or it cannot be had either."""
        if self.stand_in is None:
            return None
        try:
            return self.stand_in()
        except Unavailable:
            return None
