"""The table build: seconds per kind of table and variant, printed as figures (not timed tests).

    .venv/bin/python bench/bench_tables.py [--variant official|strict ...] [--only KIND ...] [--keep DIR]

Runs ``python -m build_table --force`` into a temporary folder (or ``--keep DIR``) as
``make tables`` would, both variants in one run, and prints per variant and kind the seconds
to solve and to write (the builder's own lines), the whole build's wall-clock seconds with the
machine's load averages before and after (the machine is shared: a high load means slow
figures), and the seconds a second build takes when every stamp is up to date. Goal: every
table of both variants in ≤ 90 s on the 2-core development machine.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("table", "spread", "reach", "law")
LINE = re.compile(r"^(\w+): (\w+) solved in ([\d.]+) s, written in ([\d.]+) s")


def build(out: Path, variants: list[str], kinds: list[str], *flags: str) -> tuple[float, str]:
    """(wall seconds, stdout) of one ``python -m build_table`` run into ``out``."""
    argv = [sys.executable, "-m", "build_table", "--out", str(out), *flags]
    for variant in variants:
        argv += ["--variant", variant]
    for kind in kinds:
        argv += ["--only", kind]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "py"), str(ROOT)])}
    start = time.perf_counter()
    run = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, run.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", action="append", choices=["official", "strict"], help="default: both")
    parser.add_argument("--only", action="append", choices=KINDS, default=[], help="default: every kind")
    parser.add_argument("--keep", type=Path, help="build into this folder (kept) rather than a temporary one")
    args = parser.parse_args()
    variants = args.variant or ["official", "strict"]
    with tempfile.TemporaryDirectory() as temporary:
        out = args.keep or Path(temporary)
        load = "/".join(f"{x:.2f}" for x in os.getloadavg())
        wall, stdout = build(out, variants, args.only, "--force")
        after = "/".join(f"{x:.2f}" for x in os.getloadavg())
        again, _ = build(out, variants, args.only)
    what = f"{', '.join(variants)}; {', '.join(args.only or KINDS)}"
    print(f"Table build (python -m build_table --force: {what}), one run")
    print(f"{'variant':<9} {'kind':<7} {'solve s':>8} {'write s':>8}")
    for line in stdout.splitlines():
        if found := LINE.match(line):
            variant, kind, solved, written = found.groups()
            print(f"{variant:<9} {kind:<7} {float(solved):>8.2f} {float(written):>8.2f}")
    print(f"whole build: {wall:.1f} s wall (goal ≤ 90 s for both variants); load average {load} before, {after} after")
    print(f"again with every stamp up to date: {again:.2f} s")


if __name__ == "__main__":
    main()
