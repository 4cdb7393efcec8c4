"""python -m build_table [--variant official|strict] [--only table|spread|reach|law|coach ...] [--out DIR] [--force]

Solves the game exactly (float64) for each variant and writes
``DIR/yacht-<variant>.table`` (format: ``yacht.core.table``), then the standard
deviation of the future points under that play, ``DIR/yacht-<variant>.spread.table``
(same format, ``quantity`` "sd"; see ``yacht.chances.spread``), then the chances of
reaching each score, ``DIR/yacht-<variant>.reach/``, and the law of the future
points under that play, ``DIR/yacht-<variant>.law/`` (one chunk per mask; format:
``yacht.chances.reach_table``), and the coach's files, the chance of the upper bonus
``DIR/yacht-<variant>.bonus`` and each category's expected points ``DIR/yacht-<variant>.points``
(``build_table.coach``; format: ``yacht.chances.coach_table``). ``--only`` writes only the kinds named (the Ẽ table is
solved whatever is asked, since the others build on it). The output is
byte-identical from run to run.

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

try:
    import resource
except ImportError:  # Windows: this process's CPU only
    resource = None

import numpy as np
from yacht.chances.coach_table import QUANTITIES as COACH_QUANTITIES
from yacht.chances.coach_table import file_name as coach_file_name
from yacht.chances.reach_table import QUANTITIES, chunk_name, encode_chunk, folder_name
from yacht.core.categories import FULL_MASK
from yacht.core.rules import VARIANTS
from yacht.core.table import decode, encode, encode_spread, file_name, spread_file_name

from build_table.coach import solve_coach, write_coach
from build_table.solve import fork_map, keep_freed_memory, solve, solve_law, solve_reach, solve_spread

KINDS = ("table", "spread", *QUANTITIES, "coach")
"""What ``--only`` can name: the Ẽ table, the spread table, the reach and law chunks, the coach's files."""
ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "public" / "tables"
ENTRY_MODULES = {
    "table": ("yacht.core.solver", "yacht.core.table"),
    "spread": ("yacht.core.solver", "yacht.core.table", "yacht.chances.spread"),
    "reach": ("yacht.chances.reach", "yacht.chances.reach_table"),
    "law": ("yacht.core.solver", "yacht.core.table", "yacht.chances.reach", "yacht.chances.reach_table"),
    "coach": ("yacht.core.solver", "yacht.core.table", "yacht.chances.coach", "yacht.chances.coach_table"),
}
"""The ``yacht`` modules each kind is computed and written with (their imports are followed)."""


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
    solved, tilde = timed(solve, VARIANTS[name])
    data = encode(name, tilde)
    for kind in stale:
        stamp = stamp_path(out, name, kind)
        stamp.unlink(missing_ok=True)  # no stamp for a half-written output
        if kind == "table":
            written, path = timed(write_bytes, out / file_name(name), data)
            figure = f"E(empty sheet) = {tilde[0, 0]:.9f}, wrote {path} ({len(data):,} bytes)"
        elif kind == "coach":
            solved, coach = timed(solve_coach, VARIANTS[name], decode(data).tilde)  # the shipped play
            written, figure = timed(write_coach, out, name, coach)
        elif kind == "spread":
            solved, sd = timed(solve_spread, VARIANTS[name], tilde)
            spread = encode_spread(name, sd)
            written, path = timed(write_bytes, out / spread_file_name(name), spread)
            figure = f"sd(empty sheet) = {sd[0, 0]:.6f}, wrote {path} ({len(spread):,} bytes)"
        else:
            variant = VARIANTS[name]
            if kind == "reach":
                solved, values = timed(solve_reach, variant)
            else:  # the advisor's play as shipped: on the table file as the advisor reads it back
                solved, values = timed(solve_law, variant, decode(data).tilde)
            written, sizes = timed(write_chunks, out / folder_name(name, kind), name, kind, values)
            figure = (
                f"P(150 or more from the empty sheet) = {values[0, 0, 150]:.6f}, wrote {len(sizes):,} chunks to "
                f"{out / folder_name(name, kind)} ({sum(sizes):,} bytes, the largest {max(sizes):,})"
            )
        stamp.write_text(stamp_text(name, kind))
        print(f"{name}: {kind} solved in {seconds(solved)}, written in {seconds(written)}, {figure}", flush=True)
    print(f"{name}: {', '.join(stale)} built in {time.perf_counter() - start:.2f} s", flush=True)


def timed(function, *args):
    """((wall seconds, CPU seconds), ``function(*args)``): CPU of this process and of the
    worker processes it waited for (every solve's and writer's pool is closed when it returns)."""
    start, cpu = time.perf_counter(), cpu_seconds()
    result = function(*args)
    return (time.perf_counter() - start, cpu_seconds() - cpu), result


def cpu_seconds() -> float:
    """User and system CPU seconds of this process and of its children that have ended."""
    if resource is None:
        return time.process_time()
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def seconds(timing: tuple[float, float]) -> str:
    """``timed``'s figures as printed: "12.34 s (24.1 s of CPU)"."""
    return f"{timing[0]:.2f} s ({timing[1]:.1f} s of CPU)"


def write_bytes(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


_VALUES: dict = {}  # the chunks' values, for the forked writers


def _write_masks(folder: Path, name: str, quantity: str, first: int, stop: int) -> list[int]:
    """Write the chunks of masks ``first`` … ``stop`` − 1; their sizes."""
    values = _VALUES["values"]
    return [
        (folder / chunk_name(m)).write_bytes(encode_chunk(name, m, values[m], quantity)) for m in range(first, stop)
    ]


def write_chunks(folder: Path, name: str, quantity: str, values: np.ndarray) -> list[int]:
    """Write the 4,095 chunks of ``quantity`` of variant ``name`` from ``values`` (4096, 64, width),
    encoded by two forked workers; the size of each chunk, by mask."""
    folder.mkdir(exist_ok=True)
    _VALUES["values"] = values
    try:
        parts = [(folder, name, quantity, first, min(first + 256, FULL_MASK)) for first in range(0, FULL_MASK, 256)]
        return [size for sizes in fork_map(_write_masks, parts) for size in sizes]
    finally:
        _VALUES.clear()


def stamp_path(out: Path, name: str, kind: str) -> Path:
    return out / f"{output_name(name, kind)}.stamp"


def output_name(name: str, kind: str) -> str:
    """The file (table, spread) or folder (reach, law) of ``kind`` of variant ``name``."""
    if kind == "coach":
        return coach_file_name(name, "bonus")
    return {"table": file_name, "spread": spread_file_name}.get(kind, lambda n: folder_name(n, kind))(name)


def made_targets(out: Path, name: str, kind: str) -> list[Path]:
    """The files of an up-to-date kind that make compares with its sources."""
    path = out / output_name(name, kind)
    if kind == "coach":
        return [out / coach_file_name(name, q) for q in COACH_QUANTITIES]
    return [path / chunk_name(FULL_MASK - 1)] if kind in QUANTITIES else [path]


def up_to_date(out: Path, name: str, kind: str) -> bool:
    """The output of ``kind`` is complete and its stamp names the sources as they are now."""
    stamp, path = stamp_path(out, name, kind), out / output_name(name, kind)
    if not stamp.is_file() or stamp.read_text() != stamp_text(name, kind):
        return False
    if kind in QUANTITIES:
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
    ``ENTRY_MODULES[kind]``, all they import (relative imports: ``from .x import``, ``from ..core.x
    import``, in functions too) and the ``__init__.py`` of each package above them, sorted."""
    found, todo = set(), list(ENTRY_MODULES[kind])
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
