"""Steps 5 and 6, the site's data.

``public/rules.json``: category names, the bonus rule, and per variant the possible scores of each
category and the points of every roll (keyed by its dice in ascending order), so the page can
offer and preview scores before the runtime has loaded.

``public/build.json``: the URLs of the wheel, the tables and the spread tables (``spreads``: the
worker loads one only when a goal needs it; the service worker caches it then, it is not
precached), each with a content hash in the query, so no stale copy is ever used; the folders of
the chunks (``reach`` and ``law``: the worker fetches the chunks a goal's answer needs, the service
worker keeps each; a hash of them all goes in each chunk's query); the coach's files (``coach``:
variant → ``bonus`` and ``points``, each {url, bytes}: fetched when an explanation is first asked
for, kept by the service worker then, not precached); and the Pyodide version, so the JavaScript
names no version or file itself. The tables come from ``python -m build_table``; this step only
checks they are there. Each kind of table of the registry ``yacht.core.table_kinds`` is listed
under its field, and described in ``kinds`` (field, parts, chunked, fetch): the worker reads the
kinds from there and names none itself.

Served before the tables are all built (``make serve``: tools/serve_first.py), ``build_json`` with
``pending`` lists each file of a kind fetched later than at start that is not built yet (or not up to
date: ``build_table.stamps``) as it will be: its URL with the hash of the sources it is built from
in the query (``pending_hash``: the same sources give the same bytes, so no other build's copy is
ever used), its size null, and no offline pack; ``pending`` names those kinds by variant. The
worker fetches such a file as any other: while it is missing the answers go without it and it is
fetched again by itself, so the page picks it up once it is built.
"""

import hashlib
from collections.abc import Callable
from pathlib import Path

from yacht.core import categories, rules, table_kinds
from yacht.core.dice import ROLL_DICE

from build_table.stamps import stamp_text, up_to_date

from .common import PUBLIC, ROOT, BuildError, versioned_url

TABLES = PUBLIC / "tables"
VARIANT_NAMES = sorted(rules.VARIANTS)


def rules_json() -> dict:
    variants = {}
    for name, variant in sorted(rules.VARIANTS.items()):
        table = rules.score_table(variant)
        variants[name] = {
            "possible": [list(values) for values in rules.possible_scores(variant)],
            "points": {
                "".join(map(str, dice)): [int(x) for x in row] for dice, row in zip(ROLL_DICE, table, strict=True)
            },
        }
    return {
        "categories": {"en": list(categories.NAMES_EN), "ja": list(categories.NAMES_JA)},
        "upper": categories.N_UPPER,
        "bonus": {"threshold": categories.BONUS_THRESHOLD, "points": categories.BONUS_POINTS},
        "default_variant": rules.DEFAULT_VARIANT.name,
        "variants": variants,
    }


def table_entries(name: Callable[[str], str], variants: list[str]) -> dict:
    """variant → {url, bytes} of the file ``name(variant)`` in public/tables/ (from build_table)."""
    entries = {}
    for variant in variants:
        path = PUBLIC / "tables" / name(variant)
        if not path.is_file():
            raise BuildError(f"{path.relative_to(ROOT)} is missing: run `.venv/bin/python -m build_table` first")
        entries[variant] = {"url": versioned_url(path), "bytes": path.stat().st_size}
    return entries


def chunk_entries(kind: str, variants: list[str]) -> dict:
    """variant → {url (the folder, ending in /), hash, chunks, bytes} of its chunks of the chunked
    ``kind`` (from build_table): the worker fetches ``url + name + "?h=" + hash``, the hash being of
    every chunk's bytes, so no stale chunk is ever used."""
    entries = {}
    for variant in variants:
        folder = PUBLIC / "tables" / table_kinds.file_name(kind, variant)
        paths = [folder / table_kinds.chunk_name(mask) for mask in range(categories.FULL_MASK)]
        digest = hashlib.sha256()
        for path in paths:
            if not path.is_file():
                raise BuildError(f"{path.relative_to(ROOT)} is missing: run `.venv/bin/python -m build_table` first")
            digest.update(path.read_bytes())
        entries[variant] = {
            "url": f"{folder.relative_to(PUBLIC).as_posix()}/",
            "hash": digest.hexdigest()[:16],
            "chunks": len(paths),
            "bytes": sum(path.stat().st_size for path in paths),
        }
    return entries


def kind_entries(kind: str, variants: list[str] = VARIANT_NAMES) -> dict:
    """build.json's field of ``kind`` for ``variants``: ``chunk_entries`` for a chunked kind;
    variant → part → {url, bytes} for a kind of several files (the coach's: "bonus", "points");
    else variant → {url, bytes}."""
    if table_kinds.KINDS[kind].chunked:
        return chunk_entries(kind, variants)
    parts = table_kinds.parts(kind)
    if not parts:
        return table_entries(lambda variant: table_kinds.file_name(kind, variant), variants)
    by_part = {
        part: table_entries(lambda variant, p=part: table_kinds.file_name(kind, variant, p), variants) for part in parts
    }
    return {variant: {p: entries[variant] for p, entries in by_part.items()} for variant in variants}


def pending_kinds(tables: Path = TABLES) -> dict[str, list[str]]:
    """variant → the kinds fetched later than at start whose files in ``tables`` are not built or
    not up to date (``build_table.stamps.up_to_date``), in the registry's order."""
    return {
        variant: [
            kind
            for kind, k in table_kinds.KINDS.items()
            if k.fetch != "start" and not up_to_date(tables, variant, kind)
        ]
        for variant in VARIANT_NAMES
    }


def pending_hash(variant: str, kind: str) -> str:
    """The query hash of a file of ``kind`` of ``variant`` not built yet: of its stamp (the SHA-256
    of the sources it will be built from), 16 hex digits as a content hash."""
    return hashlib.sha256(stamp_text(variant, kind).encode()).hexdigest()[:16]


def pending_entry(kind: str, variant: str) -> dict:
    """build.json's entry of ``variant`` for ``kind`` not built yet: as ``kind_entries``' but with
    ``pending_hash`` in each URL's query and every ``bytes`` null."""
    h, k = pending_hash(variant, kind), table_kinds.KINDS[kind]
    if k.chunked:
        folder = table_kinds.file_name(kind, variant)
        return {"url": f"tables/{folder}/", "hash": h, "chunks": categories.FULL_MASK, "bytes": None}
    files = {p: {"url": f"tables/{table_kinds.file_name(kind, variant, p)}?h={h}", "bytes": None} for p in k.files}
    return files if table_kinds.parts(kind) else files[""]


def kinds_json() -> dict:
    """build.json's ``kinds``: each kind of the registry as the worker needs it (its field, its
    parts, whether it is chunked, when it is fetched)."""
    return {
        name: {"field": k.field, "parts": list(table_kinds.parts(name)), "chunked": k.chunked, "fetch": k.fetch}
        for name, k in table_kinds.KINDS.items()
    }


def kind_urls(build: dict, kind: str) -> list[str]:
    """The URLs (relative to public/, with their queries) of every file of ``kind`` that ``build``
    (build.json's value) lists, each variant's in turn."""
    description = build["kinds"][kind]
    urls = []
    for _, entry in sorted(build[description["field"]].items()):
        if description["chunked"]:
            names = (table_kinds.chunk_name(mask) for mask in range(entry["chunks"]))
            urls += [f"{entry['url']}{name}?h={entry['hash']}" for name in names]
        else:
            urls += [entry[part]["url"] for part in description["parts"]] if description["parts"] else [entry["url"]]
    return urls


def build_json(pyodide_version: str, wheel_name: str, pending: dict[str, list[str]] | None = None) -> dict:
    """build.json without its ``packs`` (tools/site_build/pack.py adds them). ``pending``
    (``pending_kinds``: variant → kinds not built yet) lists those kinds' files by ``pending_entry``
    and goes into build.json as it is; None (the default) when every file is built."""
    wheel = PUBLIC / "py" / wheel_name
    pending = {variant: kinds for variant, kinds in (pending or {}).items() if kinds}

    def entries(kind: str) -> dict:
        built = kind_entries(kind, [v for v in VARIANT_NAMES if kind not in pending.get(v, ())])
        return {v: built[v] if v in built else pending_entry(kind, v) for v in VARIANT_NAMES}

    return {
        "default_variant": rules.DEFAULT_VARIANT.name,
        "pyodide": {"version": pyodide_version, "index_url": "pyodide/"},
        "wheel": {"url": versioned_url(wheel), "bytes": wheel.stat().st_size},
        "kinds": kinds_json(),
        **{kind.field: entries(name) for name, kind in table_kinds.KINDS.items()},
        **({"pending": pending} if pending else {}),
    }
