"""python -m build_table [--variant official|strict] [--only table|spread|reach|law ...] [--out DIR]

Solves the game exactly (float64) for each variant and writes
``DIR/yacht-<variant>.table`` (format: ``yacht.table``), then the standard
deviation of the future points under that play, ``DIR/yacht-<variant>.spread.table``
(same format, ``quantity`` "sd"; see ``yacht.spread``), then the chances of
reaching each score, ``DIR/yacht-<variant>.reach/``, and the law of the future
points under that play, ``DIR/yacht-<variant>.law/`` (one chunk per mask; format:
``yacht.reach_table``). ``--only`` writes only the kinds named (the others take
minutes; the Ẽ table is solved whatever is asked, since the others build on it).
The output is byte-identical from run to run.
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from yacht.categories import FULL_MASK
from yacht.reach_table import QUANTITIES, chunk_name, encode_chunk, folder_name
from yacht.rules import VARIANTS
from yacht.table import decode, encode, encode_spread, file_name, spread_file_name

from build_table.solve import solve, solve_law, solve_reach, solve_spread

KINDS = ("table", "spread", *QUANTITIES)
"""What ``--only`` can name: the Ẽ table, the spread table, the reach and law chunks."""
DEFAULT_OUT = Path(__file__).resolve().parent.parent / "public" / "tables"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m build_table", description=__doc__.split("\n\n")[1])
    parser.add_argument("--variant", choices=sorted(VARIANTS), action="append", help="default: both")
    parser.add_argument(
        "--only", choices=KINDS, action="append", help="write only these kinds of table (default: every kind)"
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"output folder (default: {DEFAULT_OUT})")
    args = parser.parse_args(argv)
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        parser.error(f"--out: cannot create {args.out}: {e.strerror}")
    kinds = args.only or KINDS
    for name in args.variant or sorted(VARIANTS):
        start = time.perf_counter()
        tilde = solve(VARIANTS[name])
        solved = time.perf_counter() - start
        data = encode(name, tilde)
        if "table" in kinds:
            path = args.out / file_name(name)
            path.write_bytes(data)
            print(
                f"{name}: solved in {solved:.2f} s, E(empty sheet) = {tilde[0, 0]:.9f}, "
                f"wrote {path} ({len(data):,} bytes)"
            )
        if "spread" in kinds:
            write_spread(args.out, name, tilde)
        for quantity in (q for q in QUANTITIES if q in kinds):
            write_chunks(args.out, name, quantity, data)
    return 0


def write_spread(out: Path, name: str, tilde: np.ndarray) -> None:
    """Solve and write the spread table of variant ``name`` (Ẽ: ``tilde``, (4096, 64))."""
    start = time.perf_counter()
    sd = solve_spread(VARIANTS[name], tilde)
    spread = encode_spread(name, sd)
    path = out / spread_file_name(name)
    path.write_bytes(spread)
    print(
        f"{name}: spread solved in {time.perf_counter() - start:.2f} s, sd(empty sheet) = {sd[0, 0]:.6f}, "
        f"wrote {path} ({len(spread):,} bytes)"
    )


def write_chunks(out: Path, name: str, quantity: str, table: bytes) -> None:
    """Solve and write the chunks of ``quantity`` ("reach" or "law") of variant ``name``; the law is
    the advisor's play as shipped: on the table file ``table`` as the advisor reads it back."""
    variant = VARIANTS[name]
    start = time.perf_counter()
    values = solve_reach(variant) if quantity == "reach" else solve_law(variant, decode(table).tilde)
    solved = time.perf_counter() - start
    folder = out / folder_name(name, quantity)
    folder.mkdir(exist_ok=True)
    sizes = [(folder / chunk_name(m)).write_bytes(encode_chunk(name, m, values[m], quantity)) for m in range(FULL_MASK)]
    print(
        f"{name}: {quantity} solved in {solved:.2f} s, P(150 or more from the empty sheet) = "
        f"{values[0, 0, 150]:.6f}, wrote {len(sizes):,} chunks to {folder} ({sum(sizes):,} bytes, "
        f"the largest {max(sizes):,})"
    )


if __name__ == "__main__":
    sys.exit(main())
