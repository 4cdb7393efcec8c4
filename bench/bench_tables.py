"""The table build: seconds per kind of table and variant, printed as figures (not timed tests).

    .venv/bin/python bench/bench_tables.py [--variant official|strict ...] [--only KIND ...] [--keep DIR]

Runs ``python -m build_table --force`` into a temporary folder (or ``--keep DIR``) as
``make tables`` would, both variants in one run, and prints per variant and kind the seconds
to solve and to write, wall-clock and CPU (the builder's own lines), the whole build's
wall-clock and CPU seconds with the machine's load averages before and after (the machine is
shared: a high load means slow wall-clock figures; the CPU seconds move less), and the seconds
a second build takes when every stamp is up to date. Goal: every table of both variants in
≤ 60 s on the 2-core development machine.
"""

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("table", "spread", "reach", "law")
TIMING = r"([\d.]+) s \(([\d.]+) s of CPU\)"
LINE = re.compile(rf"^(\w+): (\w+) solved in {TIMING}, written in {TIMING}")


def build(out: Path, variants: list[str], kinds: list[str], *flags: str) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, stdout) of one ``python -m build_table`` run into ``out``."""
    argv = [sys.executable, "-m", "build_table", "--out", str(out), *flags]
    for variant in variants:
        argv += ["--variant", variant]
    for kind in kinds:
        argv += ["--only", kind]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "py"), str(ROOT)])}
    start, cpu = time.perf_counter(), children_cpu()
    run = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, children_cpu() - cpu, run.stdout


def children_cpu() -> float:
    """User and system CPU seconds of the processes this one has waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


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
        wall, cpu, stdout = build(out, variants, args.only, "--force")
        after = "/".join(f"{x:.2f}" for x in os.getloadavg())
        again, _, _ = build(out, variants, args.only)
    what = f"{', '.join(variants)}; {', '.join(args.only or KINDS)}"
    print(f"Table build (python -m build_table --force: {what}), one run")
    print(f"{'variant':<9} {'kind':<7} {'solve s':>8} {'CPU s':>7} {'write s':>8} {'CPU s':>7}")
    for line in stdout.splitlines():
        if found := LINE.match(line):
            variant, kind, *figures = found.groups()
            solved, solved_cpu, written, written_cpu = map(float, figures)
            print(f"{variant:<9} {kind:<7} {solved:>8.2f} {solved_cpu:>7.1f} {written:>8.2f} {written_cpu:>7.1f}")
    print(
        f"whole build: {wall:.1f} s wall, {cpu:.1f} s of CPU (goal ≤ 60 s wall for both variants); "
        f"load average {load} before, {after} after"
    )
    print(f"again with every stamp up to date: {again:.2f} s")


if __name__ == "__main__":
    main()
