"""Run chosen tests several times and say which of them fail only sometimes.

    .venv/bin/python tools/flaky.py [--runs N] [--workers N] [--pytest-args "..."] FILE_OR_TEST...
    make flaky FILES="tests/browser/test_engines.py" RUNS=5 [WORKERS=2] [ARGS="-k firefox"]

Each run is one pytest over all the files given, its outcomes read from a JUnit XML report: with
``--workers 1`` (the default) ``pytest -p no:xdist``, in one process; with more, as ``make test``
runs them (``-n N --dist loadscope --no-loadscope-reorder``: a module's tests in one worker, its
browser and page shared, the other workers' modules beside it on the other cores, the modules in
``tests/conftest.py``'s order). Printed: each run's counts of passed, failed (errors included) and
skipped tests and each failure's message (its first lines), then each test's passes out of the
runs it ran in, the ones that failed at least once first. The exit status is 1 when any run
failed, 2 for a bad argument, else 0.
"""

import argparse
import shlex
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MESSAGE_LINES = 4
"""The lines of a failure's message printed: an expectation's first line alone does not say what
the page showed instead (Playwright's next lines do)."""


def outcomes(report: Path, why: dict[str, str] | None = None) -> dict[str, str]:
    """Test id (``path::name``, as pytest names it) → "passed", "failed" or "skipped", from a JUnit
    XML report of pytest's; ``why`` (if given) gets each failed test's message, its first ``MESSAGE_LINES`` lines."""
    found: dict[str, str] = {}
    for case in ET.parse(report).iter("testcase"):
        module = case.get("classname", "").replace(".", "/")
        test_id = f"{module}.py::{case.get('name')}"
        fault = case.find("failure")
        fault = fault if fault is not None else case.find("error")
        if fault is not None:
            found[test_id] = "failed"  # an error in its teardown counts against the test too
            if why is not None:
                lines = [line for line in (fault.get("message") or fault.text or "").strip().splitlines() if line]
                why[test_id] = "\n    ".join(line[:300] for line in lines[:MESSAGE_LINES]) or "(no message)"
        elif case.find("skipped") is not None:
            found.setdefault(test_id, "skipped")
        else:
            found.setdefault(test_id, "passed")
    return found


def run_once(
    tests: list[str], extra: list[str], report: Path, why: dict[str, str] | None = None, workers: int = 1
) -> tuple[dict[str, str], int, float]:
    """One pytest run (``workers`` xdist workers, or one process): its outcomes (``why``: the
    failures' messages), exit status and seconds."""
    spread = (
        ["-p", "no:xdist"] if workers == 1 else ["-n", str(workers), "--dist", "loadscope", "--no-loadscope-reorder"]
    )
    command = [sys.executable, "-m", "pytest", *spread, "-q", f"--junitxml={report}", *extra, *tests]
    started = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seconds = time.monotonic() - started
    found = outcomes(report, why) if report.exists() else {}
    if done.returncode not in (0, 5) and not any(o == "failed" for o in found.values()):
        found["(the run itself)"] = "failed"  # pytest stopped before any test could fail
        print(done.stdout[-2000:])
    return found, done.returncode, seconds


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tests", nargs="+", help="test files or test ids, as pytest takes them")
    parser.add_argument("--runs", type=int, default=5, help="how many times (default 5)")
    parser.add_argument(
        "--workers", type=int, default=1, help="pytest-xdist workers, as make test runs them (default 1: none)"
    )
    parser.add_argument("--pytest-args", default="", help='more arguments for pytest, e.g. "-k firefox"')
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error(f"--runs must be at least 1, not {args.runs}")
    if args.workers < 1:
        parser.error(f"--workers must be at least 1, not {args.workers}")
    missing = [t for t in args.tests if not (ROOT / t.split("::")[0]).exists()]
    if missing:
        parser.error(f"no such test file: {', '.join(missing)}")
    extra = shlex.split(args.pytest_args)
    per_test: dict[str, Counter] = defaultdict(Counter)
    failed_runs = 0
    with tempfile.TemporaryDirectory() as folder:
        for run in range(1, args.runs + 1):
            why: dict[str, str] = {}
            found, status, seconds = run_once(args.tests, extra, Path(folder) / f"run-{run}.xml", why, args.workers)
            counts = Counter(found.values())
            failed_runs += bool(counts["failed"]) or status not in (0, 5)
            print(
                f"run {run}/{args.runs}: {counts['passed']} passed, {counts['failed']} failed, "
                f"{counts['skipped']} skipped ({seconds:.0f} s, exit {status})",
                flush=True,
            )
            for test_id, outcome in found.items():
                per_test[test_id][outcome] += 1
                if outcome == "failed":
                    print(f"  failed: {test_id}\n    {why.get(test_id, '(no message)')}", flush=True)
    print(f"\n{failed_runs} of {args.runs} runs failed. Per test (passed/runs):")
    for test_id, counts in sorted(per_test.items(), key=lambda item: (-item[1]["failed"], item[0])):
        ran = counts["passed"] + counts["failed"]
        label = "FLAKY " if counts["failed"] and counts["passed"] else "FAILED" if counts["failed"] else "ok    "
        if not ran:
            label = "skip  "
        print(f"  {label} {counts['passed']}/{ran}  {test_id}")
    return 1 if failed_runs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
