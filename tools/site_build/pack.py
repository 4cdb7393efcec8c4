"""Step 6b, the offline packs: per rule variant, every table file fetched after the start (the
kinds of the registry ``yacht.core.table_kinds`` whose ``fetch`` is not ``"start"``: the spread
table, the chunks of R and of the law, the coach's files) in a few files the page can download
at once, so that playing to win works with no network. Written to ``public/packs/<variant>/``.

The pack format ("yacht-pack", version 2):

- ``<i>.part`` (i = 0, 1, …): the files' bytes one after another, exactly as they are served one
  by one (each keeps its own container and checksum, which the worker's decoder verifies); a part
  ends at a file's end once it holds ``PART_BYTES`` or more, so no file spans two parts;
- ``index.json``: ``{"format": "yacht-pack", "version": 2, "variant", "hash", "parts": [bytes of
  each part], "sha256": [the SHA-256 of each part, hex], "kinds": [[kind, [part, …], [length,
  …]], …]}``: each kind's files in the order
  their bytes follow one another, kind after kind (``part``: a chunked kind's mask, a kind of
  several files the file's part, else ``""``); a file's offset is the sum of the lengths before
  it in its part. ``hash``: the first 16 hex digits of the SHA-256 of every part's bytes in order.

``build.json``'s ``packs``: variant → ``{url (the folder, ending in /), hash, parts, bytes}``;
the worker fetches ``url + "index.json?h=" + hash`` and ``url + i + ".part?h=" + hash``, and keeps
them in a cache of its own named after the hash (a new build's pack never mixes with an old
one's). A reader refuses an index of another format or version, and a part whose SHA-256 is not
its ``sha256`` (checked before it is kept, and when it is first read after a relaunch).
"""

import hashlib

from yacht.core import categories, rules, table_kinds

from .common import PUBLIC, ROOT, BuildError, json_bytes, write_if_changed

FORMAT = "yacht-pack"
VERSION = 2
PART_BYTES = 4 << 20
"""A part is closed at the first file end at or past this many bytes (4 MiB)."""


def pack_files(variant: str) -> list[tuple[str, str | int, bytes]]:
    """(kind, part, bytes) of every file of ``variant`` fetched after the start, in pack order:
    the kinds in the registry's order, a chunked kind's masks ascending, a kind's parts in order."""
    files = []
    for name, kind in table_kinds.KINDS.items():
        if kind.fetch == "start":
            continue
        if kind.chunked:
            folder = PUBLIC / "tables" / table_kinds.file_name(name, variant)
            named = [(mask, folder / table_kinds.chunk_name(mask)) for mask in range(categories.FULL_MASK)]
        else:
            parts = table_kinds.parts(name) or ("",)
            named = [(part, PUBLIC / "tables" / table_kinds.file_name(name, variant, part)) for part in parts]
        for part, path in named:
            if not path.is_file():
                raise BuildError(f"{path.relative_to(ROOT)} is missing: run `.venv/bin/python -m build_table` first")
            files.append((name, part, path.read_bytes()))
    return files


def write_pack(variant: str) -> dict:
    """Write ``variant``'s pack; its ``build.json`` entry."""
    parts: list[bytearray] = [bytearray()]
    kinds: dict[str, tuple[list, list]] = {}
    for kind, part, data in pack_files(variant):
        if len(parts[-1]) >= PART_BYTES:
            parts.append(bytearray())
        parts[-1] += data
        names, lengths = kinds.setdefault(kind, ([], []))
        names.append(part)
        lengths.append(len(data))
    digest = hashlib.sha256()
    for data in parts:
        digest.update(data)
    pack_hash = digest.hexdigest()[:16]
    folder = PUBLIC / "packs" / variant
    for i, data in enumerate(parts):
        write_if_changed(folder / f"{i}.part", bytes(data))
    for stale in folder.glob("*.part"):
        if int(stale.stem) >= len(parts):
            stale.unlink()
    sizes = [len(data) for data in parts]
    sums = [hashlib.sha256(data).hexdigest() for data in parts]
    head = {"format": FORMAT, "version": VERSION, "variant": variant, "hash": pack_hash, "parts": sizes, "sha256": sums}
    index = [[kind, names, lengths] for kind, (names, lengths) in kinds.items()]
    write_if_changed(folder / "index.json", json_bytes({**head, "kinds": index}))
    return {
        "url": f"{folder.relative_to(PUBLIC).as_posix()}/",
        "hash": pack_hash,
        "parts": len(parts),
        "bytes": sum(sizes) + (folder / "index.json").stat().st_size,
    }


def write_packs(variants: list[str] | None = None) -> dict:
    """The pack of each of ``variants`` (default: every variant); ``build.json``'s ``packs``."""
    return {variant: write_pack(variant) for variant in sorted(rules.VARIANTS if variants is None else variants)}
