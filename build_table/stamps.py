"""The stamps of the built tables: beside each kind's output of each variant, ``<its file or
folder>.stamp`` holds the SHA-256 of the sources it is built from (``stamp_text``). A kind is up to
date when its output is complete and its stamp names its sources as they are now; ``build_table``
builds the others, and the site build (``tools/site_build/data.py``) lists a kind not up to date as
one still being built when ``make serve`` serves before it is (tools/serve_first.py)."""

import ast
import hashlib
import json
from pathlib import Path

import numpy as np
from yacht.core import table_kinds
from yacht.core.categories import FULL_MASK
from yacht.core.table_kinds import chunk_name

ROOT = Path(__file__).resolve().parent.parent


def stamp_path(out: Path, name: str, kind: str) -> Path:
    return out / f"{output_name(name, kind)}.stamp"


def output_name(name: str, kind: str) -> str:
    """The file (a chunked kind's folder; of a kind of several files, the first's) of ``kind`` of
    variant ``name``: its stamp is beside it."""
    return table_kinds.file_name(kind, name, next(iter(table_kinds.KINDS[kind].files)))


def made_targets(out: Path, name: str, kind: str) -> list[Path]:
    """The files of an up-to-date kind that make compares with its sources."""
    if table_kinds.KINDS[kind].chunked:
        return [out / output_name(name, kind) / chunk_name(FULL_MASK - 1)]
    return [out / table_kinds.file_name(kind, name, part) for part in table_kinds.KINDS[kind].files]


def up_to_date(out: Path, name: str, kind: str) -> bool:
    """The output of ``kind`` is complete and its stamp names the sources as they are now."""
    stamp, path = stamp_path(out, name, kind), out / output_name(name, kind)
    if not stamp.is_file() or stamp.read_text() != stamp_text(name, kind):
        return False
    if table_kinds.KINDS[kind].chunked:
        return all((path / chunk_name(m)).is_file() for m in range(FULL_MASK))
    return all(p.is_file() for p in made_targets(out, name, kind))


def stamp_text(name: str, kind: str) -> str:
    """The stamp of ``kind`` of variant ``name``: what it is and the SHA-256 of its sources."""
    digest = hashlib.sha256(f"numpy {np.__version__}\n".encode())
    for path in sources(kind):
        digest.update(f"{path.relative_to(ROOT).as_posix()} {len(path.read_bytes())}\n".encode())
        digest.update(path.read_bytes())
    return json.dumps({"kind": kind, "sources": digest.hexdigest(), "variant": name}, sort_keys=True) + "\n"


def sources(kind: str) -> list[Path]:
    """The files ``kind`` is built from: every ``build_table`` module, the ``yacht`` modules of
    its registry entry's ``modules``, all they import (relative imports: ``from .x import``, ``from ..core.x
    import``, in functions too) and the ``__init__.py`` of each package above them, sorted."""
    found, todo = set(), list(table_kinds.KINDS[kind].modules)
    while todo:
        module = todo.pop()
        if module in found:
            continue
        found.add(module)
        package = module.split(".")[:-1]
        for node in ast.walk(ast.parse(module_file(module).read_text())):
            if isinstance(node, ast.ImportFrom) and node.level > 0:
                base = package[: len(package) - (node.level - 1)]
                names = [node.module] if node.module else [a.name for a in node.names]
                todo.extend(".".join([*base, name]) for name in names)
    packages = {".".join(m.split(".")[:i]) for m in found for i in range(1, m.count(".") + 1)}
    modules = [module_file(m) for m in found | packages]
    return sorted(modules + list((ROOT / "build_table").glob("*.py")))


def module_file(module: str) -> Path:
    """The file of ``module`` (dotted, from ``yacht``) under ``py/``: a package's ``__init__.py``."""
    path = ROOT / "py" / Path(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def outputs(out: Path, name: str, kind: str) -> list[Path]:
    """Every path ``kind`` of variant ``name`` writes in ``out``: its files (a chunked kind's
    folder) and its stamp."""
    k = table_kinds.KINDS[kind]
    parts = [""] if k.chunked else list(k.files)
    files = [out / (output_name(name, kind) if k.chunked else table_kinds.file_name(kind, name, p)) for p in parts]
    return [*files, stamp_path(out, name, kind)]
