"""python -m build_table [--variant official|strict] [--out DIR]

Solves the game exactly (float64) for each variant and writes
``DIR/yacht-<variant>.table`` (format: ``yacht.table``), then the standard
deviation of the future points under that play, ``DIR/yacht-<variant>.spread.table``
(same format, ``quantity`` "sd"; see ``yacht.spread``), then the chances of
reaching each score, ``DIR/yacht-<variant>.reach/``, and the law of the future
points under that play, ``DIR/yacht-<variant>.law/`` (one chunk per mask; format:
``yacht.reach_table``). The output is byte-identical from run to run.
"""

import argparse
import sys
import time
from pathlib import Path

from yacht.categories import FULL_MASK
from yacht.reach_table import QUANTITIES, chunk_name, encode_chunk, folder_name
from yacht.rules import VARIANTS
from yacht.table import decode, encode, encode_spread, file_name, spread_file_name

from build_table.solve import solve, solve_law, solve_reach, solve_spread

DEFAULT_OUT = Path(__file__).resolve().parent.parent / "public" / "tables"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m build_table", description=__doc__.split("\n\n")[1])
    parser.add_argument("--variant", choices=sorted(VARIANTS), action="append", help="default: both")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"output folder (default: {DEFAULT_OUT})")
    args = parser.parse_args(argv)
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        parser.error(f"--out: cannot create {args.out}: {e.strerror}")
    for name in args.variant or sorted(VARIANTS):
        variant = VARIANTS[name]
        start = time.perf_counter()
        tilde = solve(VARIANTS[name])
        solved = time.perf_counter() - start
        data = encode(name, tilde)
        path = args.out / file_name(name)
        path.write_bytes(data)
        print(
            f"{name}: solved in {solved:.2f} s, E(empty sheet) = {tilde[0, 0]:.9f}, wrote {path} ({len(data):,} bytes)"
        )
        start = time.perf_counter()
        sd = solve_spread(VARIANTS[name], tilde)
        spread = encode_spread(name, sd)
        path = args.out / spread_file_name(name)
        path.write_bytes(spread)
        print(
            f"{name}: spread solved in {time.perf_counter() - start:.2f} s, sd(empty sheet) = {sd[0, 0]:.6f}, "
            f"wrote {path} ({len(spread):,} bytes)"
        )
        for quantity in QUANTITIES:
            start = time.perf_counter()
            # The law of the advisor's play as shipped: on the table as the advisor reads it back.
            values = solve_reach(variant) if quantity == "reach" else solve_law(variant, decode(data).tilde)
            solved = time.perf_counter() - start
            folder = args.out / folder_name(name, quantity)
            folder.mkdir(exist_ok=True)
            sizes = [
                (folder / chunk_name(m)).write_bytes(encode_chunk(name, m, values[m], quantity))
                for m in range(FULL_MASK)
            ]
            print(
                f"{name}: {quantity} solved in {solved:.2f} s, P(150 or more from the empty sheet) = "
                f"{values[0, 0, 150]:.6f}, wrote {len(sizes):,} chunks to {folder} ({sum(sizes):,} bytes, "
                f"the largest {max(sizes):,})"
            )
            del values
    return 0


if __name__ == "__main__":
    sys.exit(main())
