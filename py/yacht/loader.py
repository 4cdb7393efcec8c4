"""The one loader of every table kind: Ẽ (``table``), sd (``table.decode_spread``),
the chunks of R and of the law (``reach_table``), their curves in a few numbers per state
(``quantiles``) and the coach's bonus and points files (``coach_table``), for the CLI, the
worker and the benchmarks.

``Tables(folder)`` reads the files of ``build_table``'s output folder on first
use, each once. ``Tables()`` holds only what its caller put in (the worker:
``tables[variant] = Table``, ``tables.spreads[variant] = sd``,
``tables.add_chunk(variant, mask, data)``, ``tables.add_coach(variant, quantity, data)``, or
for any kind of the registry ``core.table_kinds``, ``tables.add(kind, variant, part, data)``)
and raises, for what is not there, a ``Missing`` (``TableMissing``, ``SpreadMissing``,
``ReachMissing``, ``QuantilesMissing`` or ``CoachMissing``) naming the variant and, for each
file, its kind, part and name, so that the caller fetches the files and asks again. A file that is missing or damaged in
a folder raises ``table.TableError`` naming it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Final

import numpy as np

from .core import table_kinds
from .core.categories import FULL_MASK
from .core.table import Table, TableError, decode, decode_spread, file_name, spread_file_name
from .core.table_kinds import File

if TYPE_CHECKING:
    from .chances.quantiles import Quantiles
    from .chances.reach_table import Chunk

# reach_table (and the outcome, policy and reach modules it imports) is imported where a chunk is
# first named or read: the page's first answer needs none, and its start-up waits on every import.

DEFAULT_TABLES: Final = Path(__file__).resolve().parents[2] / "public" / "tables"
"""``build_table``'s output folder in this checkout (the CLI also honours ``$YACHT_TABLES``)."""


def every_file(*kinds: str) -> list[File]:
    """Every file (kind, part) of ``kinds``: a chunked kind's 4,095 masks, another's parts (for a
    caller that goes without all of a kind: ``Tables.set_unavailable``)."""
    found = []
    for kind in kinds:
        entry = table_kinds.KINDS[kind]
        found += [(kind, part) for part in (range(FULL_MASK) if entry.chunked else entry.files)]
    return found


def _file(kind: str, part: str | int) -> File:
    """(kind, part) checked: a kind of the registry fetched on demand (not at ``start``), a part
    it has (a mask 0–4094 of a chunked kind); ``ValueError`` naming what is wrong."""
    found = table_kinds.KINDS.get(kind)
    if found is None or found.fetch == "start":
        raise ValueError(f"not a kind an answer can go without: {kind!r:.40}")
    if found.chunked:
        if isinstance(part, bool) or not isinstance(part, int) or not 0 <= part < FULL_MASK:
            raise ValueError(f"not a mask of a {kind} chunk: {part!r:.40}")
    elif part not in found.files:
        raise ValueError(f"the {kind} kind has no part {part!r:.40}")
    return kind, part


class Missing(LookupError):
    """Files of ``variant`` are needed and not loaded: for each, its kind (``kinds``: a name of
    ``table_kinds.KINDS``), its part (``parts``: a chunked kind's mask, a kind of several files the
    file's part, else "") and its file name (``names``: in the tables' folder, a chunk's in its
    kind's folder). A caller without a folder fetches them (the URLs are in build.json, under each
    kind's field), gives each to ``Tables.add`` and asks again."""

    def __init__(self, message: str, variant: str, kinds: list[str], parts: list, names: list[str]) -> None:
        super().__init__(message)
        self.variant = variant
        self.kinds = kinds
        self.parts = parts
        self.names = names


class TableMissing(Missing):
    """The table of ``variant`` (a known rule variant) is not among the tables given."""

    def __init__(self, variant: str) -> None:
        super().__init__(f"no table loaded for the {variant} rules", variant, ["table"], [""], [file_name(variant)])


class SpreadMissing(Missing):
    """The sd table of ``variant`` (``table.decode_spread``) is needed and not loaded."""

    def __init__(self, variant: str) -> None:
        message = f"no spread table loaded for the {variant} rules"
        super().__init__(message, variant, ["spread"], [""], [spread_file_name(variant)])


class ReachMissing(Missing):
    """Chunks of ``variant`` are needed and not loaded: ``quantities`` and ``masks`` (lists of
    the same length: "reach" or "law", and the mask) and ``names``, each chunk's file name in
    the quantity's folder (``reach_table.folder_name``)."""

    def __init__(self, variant: str, quantities: list[str], masks: list[int]) -> None:
        wanted = ", ".join(f"{q} {m}" for q, m in zip(quantities, masks, strict=True))
        names = [table_kinds.chunk_name(m) for m in masks]
        super().__init__(f"no chunks loaded for the {variant} rules: {wanted}", variant, quantities, masks, names)
        self.quantities = quantities
        self.masks = masks


class QuantilesMissing(Missing):
    """The quantiles file of ``variant`` (``quantiles.decode``) is needed and not loaded."""

    def __init__(self, variant: str) -> None:
        name = table_kinds.file_name("quantiles", variant)
        super().__init__(f"no quantiles file loaded for the {variant} rules", variant, ["quantiles"], [""], [name])


class CoachMissing(Missing):
    """The coach's files of ``variant`` are needed and not loaded: ``names``, their file names
    (``coach_table.file_name``) in the tables' folder."""

    def __init__(self, variant: str, quantities: list[str]) -> None:
        names = [table_kinds.file_name("coach", variant, q) for q in quantities]
        message = f"no coach files loaded for the {variant} rules: {', '.join(names)}"
        super().__init__(message, variant, ["coach"] * len(quantities), quantities, names)
        self.quantities = quantities


class Tables(dict[str, Table]):
    """Variant name → ``Table``; ``spreads``: variant → sd (4096, 64) float64 [mask, ν];
    ``chunks``: (variant, quantity, mask) → ``reach_table.Chunk``. With a ``folder``, each is read
    from it on first use; without, the caller fills them (see the module docstring)."""

    def __init__(self, folder: Path | str | None = None) -> None:
        super().__init__()
        self.folder = None if folder is None else Path(folder)
        self.spreads: dict[str, np.ndarray] = {}
        self.chunks: dict[tuple[str, str, int], Chunk] = {}
        self.estimates: dict[str, Quantiles] = {}  # the quantiles files
        self.coaches: dict[tuple[str, str], np.ndarray] = {}  # (variant, quantity); "": both, joined
        self.unavailable: dict[str, frozenset[File]] = {}
        """Variant → the files (kind, part) its caller could not fetch now."""

    def set_unavailable(self, variant: str, files: list) -> None:
        """The files of ``variant`` that answers go without for now (``[]``: none): each a pair
        (kind, part), ``part`` as ``Missing.parts`` names it (a chunked kind's mask, a kind of
        several files the file's part, else ""). Only the files a caller fetches on demand may be
        named: the Ẽ table is essential. An answer that would read one of them reads none of
        what it asked for with it and goes without (``available.Reads``: the answer says so)."""
        found = frozenset(_file(kind, part) for kind, part in files)
        self.unavailable[variant] = found

    def lacking(self, variant: str) -> frozenset[File]:
        """The files (kind, part) of ``variant`` that answers go without for now (``set_unavailable``)."""
        return self.unavailable.get(variant, frozenset())

    def __missing__(self, variant: str) -> Table:
        if self.folder is None:
            raise KeyError(variant)
        path = self.folder / file_name(variant)
        self[variant] = table = decode(_read(path, f"the {variant} table"), source=str(path), variant=variant)
        return table

    def spread(self, variant: str) -> np.ndarray:
        """The sd table of ``variant``."""
        if variant not in self.spreads:
            if self.folder is None:
                raise SpreadMissing(variant)
            path = self.folder / spread_file_name(variant)
            data = _read(path, f"the {variant} spread table")
            self.spreads[variant] = decode_spread(data, source=str(path), variant=variant)
        return self.spreads[variant]

    def quantiles(self, variant: str) -> Quantiles:
        """The quantiles file of ``variant`` (the chunks' curves in a few numbers per state)."""
        if variant not in self.estimates:
            if self.folder is None:
                raise QuantilesMissing(variant)
            path = self.folder / table_kinds.file_name("quantiles", variant)
            self.load_quantiles("quantiles", variant, "", _read(path, f"the {variant} quantiles file"), str(path))
        return self.estimates[variant]

    def chunks_of(self, variant: str, wanted: dict[str, list[int]]) -> dict[str, dict[int, Chunk]]:
        """The chunks of ``variant`` by quantity ("reach", "law") and mask, for ``wanted``:
        quantity → masks. Without a folder, one ``ReachMissing`` names all that are missing."""
        missing = [(q, m) for q, masks in wanted.items() for m in masks if (variant, q, m) not in self.chunks]
        if missing and self.folder is None:
            raise ReachMissing(variant, [q for q, _ in missing], [m for _, m in missing])
        from .chances.reach_table import chunk_name, folder_name

        for quantity, mask in missing:
            path = self.folder / folder_name(variant, quantity) / chunk_name(mask)
            data = _read(path, f"the {variant} {quantity} chunk of mask {mask}")
            self.add_chunk(variant, mask, data, quantity, source=str(path))
        return {q: {m: self.chunks[variant, q, m] for m in masks} for q, masks in wanted.items()}

    def reach(self, variant: str, masks: list[int]) -> dict[int, Chunk]:
        """The reach chunks of ``variant``'s ``masks``, by mask."""
        return self.chunks_of(variant, {"reach": masks})["reach"]

    def add_chunk(self, variant: str, mask: int, data: bytes, quantity: str = "reach", source: str = "") -> None:
        """Decode (``reach_table.decode_chunk``, ``TableError`` if damaged) and keep a chunk
        file's bytes: how a caller without a folder fills ``chunks``."""
        from .chances.reach_table import chunk_name, decode_chunk

        source = source or f"the {variant} {quantity} chunk {chunk_name(mask)}"
        chunk = decode_chunk(data, variant=variant, mask=mask, quantity=quantity, source=source)
        self.chunks[variant, quantity, mask] = chunk

    def coach(self, variant: str) -> np.ndarray:
        """The coach's values of ``variant`` as ``coach.empty_coach``'s (4096, 64, 13) float64
        [mask, ν, channel]: B (channel 0), E_c (1 + c), made to add up to the variant's Ẽ
        (``coach_table.consistent``: its table is loaded, or named missing, first); without a
        folder, one ``CoachMissing`` names the files not loaded."""
        from .chances.coach_table import QUANTITIES, consistent, file_name

        missing = [q for q in QUANTITIES if (variant, q) not in self.coaches]
        if missing and self.folder is None:
            raise CoachMissing(variant, missing)
        for quantity in missing:
            path = self.folder / file_name(variant, quantity)
            data = _read(path, f"the {variant} coach's {quantity} file")
            self.add_coach(variant, quantity, data, source=str(path))
        if (variant, "") not in self.coaches:
            bonus, points = self.coaches[variant, "bonus"], self.coaches[variant, "points"]
            coach = np.concatenate([bonus[..., None], points], axis=-1)
            self.coaches[variant, ""] = consistent(coach, self[variant].tilde)
        return self.coaches[variant, ""]

    def add_coach(self, variant: str, quantity: str, data: bytes, source: str = "") -> None:
        """Decode (``coach_table.decode``, ``TableError`` if damaged) and keep a coach file's bytes."""
        from .chances.coach_table import decode, file_name

        source = source or file_name(variant, quantity)
        self.coaches[variant, quantity] = decode(data, variant=variant, quantity=quantity, source=source)
        self.coaches.pop((variant, ""), None)

    def add(self, kind: str, variant: str, part: str | int, data: bytes, source: str = "") -> None:
        """Decode (``TableError`` if damaged) and keep one file of ``kind`` (a name of
        ``table_kinds.KINDS``) of ``variant``, ``part`` as ``Missing.parts`` names it, with the
        kind's ``loader``: how a caller without a folder fills what a ``Missing`` named."""
        getattr(self, table_kinds.KINDS[kind].loader)(kind, variant, part, data, source)

    def load_table(self, kind: str, variant: str, part: str, data: bytes, source: str = "") -> None:
        """``add`` of the Ẽ table."""
        self[variant] = decode(data, source=source or f"the {variant} table", variant=variant)

    def load_spread(self, kind: str, variant: str, part: str, data: bytes, source: str = "") -> None:
        """``add`` of the sd table."""
        self.spreads[variant] = decode_spread(data, source=source or f"the {variant} spread table", variant=variant)

    def load_quantiles(self, kind: str, variant: str, part: str, data: bytes, source: str = "") -> None:
        """``add`` of the quantiles file."""
        from .chances.quantiles import decode

        self.estimates[variant] = decode(data, variant=variant, source=source or f"the {variant} quantiles file")

    def load_chunk(self, kind: str, variant: str, part: int, data: bytes, source: str = "") -> None:
        """``add`` of a chunk of R or of the law (``kind``, the quantity) of mask ``part``."""
        self.add_chunk(variant, part, data, kind, source)

    def load_coach(self, kind: str, variant: str, part: str, data: bytes, source: str = "") -> None:
        """``add`` of a coach's file, ``part`` its quantity."""
        self.add_coach(variant, part, data, source)


def _read(path: Path, what: str) -> bytes:
    """The bytes of a table file; a ``TableError`` naming it when it cannot be read."""
    try:
        return path.read_bytes()
    except OSError as e:
        raise TableError(f"{path}: cannot read {what} ({e.strerror}); build it with `python -m build_table`") from None
