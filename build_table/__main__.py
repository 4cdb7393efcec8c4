"""python -m build_table [--variant official|strict] [--only KIND ...] [--out DIR] [--force]

Solves the game exactly (float64) for each variant and writes
``DIR/yacht-<variant>.table`` (format: ``yacht.core.table``), then the standard
deviation of the future points under that play, ``DIR/yacht-<variant>.spread.table``
(same format, ``quantity`` "sd"; see ``yacht.chances.spread``), then the chances of
reaching each score, ``DIR/yacht-<variant>.reach/``, and the law of the future
points under that play, ``DIR/yacht-<variant>.law/`` (one chunk per mask; format:
``yacht.chances.reach_table``), and the coach's files, the chance of the upper bonus
``DIR/yacht-<variant>.bonus`` and each category's expected points ``DIR/yacht-<variant>.points``
(``build_table.coach``; format: ``yacht.chances.coach_table``). The kinds, their files and
their builders (``build_table.kinds``) are the registry ``yacht.core.table_kinds``.
``--only`` writes only the kinds named (the Ẽ table is solved whatever is asked, since the
others build on it). The output is byte-identical from run to run. Last, when every kind of
every variant is built and up to date, it touches ``DIR/.built`` (the Makefile's target).

Each kind of each variant has a stamp beside it, ``<its file or folder>.stamp``: the
SHA-256 of the sources it is built from (``sources``). A kind whose output and stamp
are there and whose sources are unchanged is not built again (its output is touched,
for make); ``--force`` builds it anyway. Each kind prints the seconds it took to solve
and to write, wall-clock and CPU (this process and its workers).
"""

import argparse
import ast
import hashlib
import json
import sys
import time
from pathlib import Path

import numpy as np
from yacht.core import table_kinds
from yacht.core.categories import FULL_MASK
from yacht.core.rules import VARIANTS
from yacht.core.table import encode
from yacht.core.table_kinds import chunk_name

from build_table import kinds as builders
from build_table.kinds import seconds, timed
from build_table.solve import keep_freed_memory, solve

KINDS = tuple(table_kinds.KINDS)
"""What ``--only`` can name: every kind of the registry, in the order they are built."""
ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "public" / "tables"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m build_table", description=__doc__.split("\n\n")[1])
    parser.add_argument("--variant", choices=sorted(VARIANTS), action="append", help="default: both")
    parser.add_argument(
        "--only", choices=KINDS, action="append", help="write only these kinds of table (default: every kind)"
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"output folder (default: {DEFAULT_OUT})")
    parser.add_argument("--force", action="store_true", help="build even the kinds whose stamp is up to date")
    args = parser.parse_args(argv)
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        parser.error(f"--out: cannot create {args.out}: {e.strerror}")
    keep_freed_memory()
    for name in args.variant or sorted(VARIANTS):
        build_variant(args.out, name, [k for k in KINDS if k in (args.only or KINDS)], args.force)
    if all(up_to_date(args.out, name, kind) for name in VARIANTS for kind in KINDS):
        (args.out / ".built").touch()
    return 0


def build_variant(out: Path, name: str, kinds: list[str], force: bool) -> None:
    """Build the ``kinds`` of variant ``name`` into ``out`` that are not up to date (all with ``force``)."""
    start = time.perf_counter()
    stale = []
    for kind in kinds:
        if not force and up_to_date(out, name, kind):
            for path in made_targets(out, name, kind):
                path.touch()
            print(f"{name}: {kind} is up to date (its stamp matches its sources), not built")
        else:
            stale.append(kind)
    if not stale:
        return
    solved_tilde, tilde = timed(solve, VARIANTS[name])
    data = encode(name, tilde)
    for kind in stale:
        stamp = stamp_path(out, name, kind)
        stamp.unlink(missing_ok=True)  # no stamp for a half-written output
        built, written, figure = getattr(builders, table_kinds.KINDS[kind].builder)(out, kind, name, tilde, data)
        solved = solved_tilde if built is None else built  # the Ẽ table's: the solve above
        stamp.write_text(stamp_text(name, kind))
        print(f"{name}: {kind} solved in {seconds(solved)}, written in {seconds(written)}, {figure}", flush=True)
    print(f"{name}: {', '.join(stale)} built in {time.perf_counter() - start:.2f} s", flush=True)


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


if __name__ == "__main__":
    sys.exit(main())
