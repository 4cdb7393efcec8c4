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
others build on it). The output is byte-identical from run to run. Built in one run, the
second variant copies the spread, reach, law and coach of the masks whose rest of the game is
the same in both (the Full House filled: half of them) from the first, solved and written
(``build_table.shared``): the same bytes as solving them again. Last, when every kind of
every variant is built and up to date, it touches ``DIR/.built`` (the Makefile's target).

Each kind of each variant has a stamp beside it, ``<its file or folder>.stamp``: the
SHA-256 of the sources it is built from (``sources``). A kind whose output and stamp
are there and whose sources are unchanged is not built again (its output is touched,
for make); ``--force`` builds it anyway. Each kind prints the seconds it took to solve
and to write, wall-clock and CPU (this process and its workers).
"""

import argparse
import sys
import time
from pathlib import Path

from yacht.core import table_kinds
from yacht.core.rules import VARIANTS
from yacht.core.table import encode

from build_table import kinds as builders
from build_table.kinds import seconds, timed
from build_table.shared import Shared
from build_table.solve import keep_freed_memory, solve
from build_table.stamps import made_targets, stamp_path, stamp_text, up_to_date

KINDS = tuple(table_kinds.KINDS)
"""What ``--only`` can name: every kind of the registry, in the order they are built."""
DEFAULT_OUT = Path(__file__).resolve().parent.parent / "public" / "tables"


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
    names = sorted(set(args.variant or VARIANTS))
    shared = Shared([VARIANTS[name] for name in names])
    for name in names:
        build_variant(args.out, name, [k for k in KINDS if k in (args.only or KINDS)], args.force, shared)
    if all(up_to_date(args.out, name, kind) for name in VARIANTS for kind in KINDS):
        (args.out / ".built").touch()
    return 0


def build_variant(out: Path, name: str, kinds: list[str], force: bool, shared: Shared) -> None:
    """Build the ``kinds`` of variant ``name`` into ``out`` that are not up to date (all with
    ``force``), with what ``shared`` hands over from the variant built before."""
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
    shared.start(VARIANTS[name], tilde)
    for kind in stale:
        stamp = stamp_path(out, name, kind)
        stamp.unlink(missing_ok=True)  # no stamp for a half-written output
        built, written, figure = getattr(builders, table_kinds.KINDS[kind].builder)(
            out, kind, name, tilde, data, shared
        )
        solved = solved_tilde if built is None else built  # the Ẽ table's: the solve above
        stamp.write_text(stamp_text(name, kind))
        print(f"{name}: {kind} solved in {seconds(solved)}, written in {seconds(written)}, {figure}", flush=True)
    print(f"{name}: {', '.join(stale)} built in {time.perf_counter() - start:.2f} s", flush=True)


if __name__ == "__main__":
    sys.exit(main())
