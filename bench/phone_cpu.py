"""The phone benchmark's CPU part (``bench/bench_phone.py`` runs it): this build's visits on a
phone's slower CPU, on the phone's network.

Modes (``modes``): full speed; the page's main thread slowed ×4 by CDP
(``Emulation.setCPUThrottlingRate``: its workers, where Python runs, keep full speed); and the
whole browser under a CPU quota of each share of one core asked for (``cpu_quota.CpuQuota``: every
process, workers included; 0.5 and 0.25 by default), the modes alternating within each run. First
a check that each slows what it should: a busy loop timed on a page and in its worker at full
speed, under CDP's ×4 and under each quota.

Each visit is ``bench_phone.visits``: (b) cold and (c) second-visit first advice, the end of each
of the worker's steps, and the NumPy step taken apart by the worker's own clock (``numpySteps``,
web/worker/worker-numpy.js: the wheel's bytes in, loadPackage done, ``import numpy`` done).
"""

import statistics
import sys
from contextlib import ExitStack

from bench_page import CHROMIUM_ARGS, STEPS
from cpu_quota import BUSY_REPEATS, BUSY_STEPS, CpuQuota, QuotaUnavailable, busy_loops
from playwright.sync_api import Playwright

CPU_RATE = 4
"""The page-only slow-down (CDP): the page's main thread ×4, its workers at full speed."""
QUOTAS = (0.5, 0.25)
"""The whole browser's slow-downs (``cpu_quota.CpuQuota``): all its processes on half, then a quarter of a core."""
NUMPY_STEPS = ("fetched", "unpacked", "installed", "imported")
"""The NumPy step's parts the worker times (``numpySteps``): ms from navigation start to each."""


def modes(quotas: tuple[float, ...]) -> tuple[str, ...]:
    return ("full", "page", *(f"quota {share:g}" for share in quotas))


def cpu_section(pw: Playwright, executable: str, base: str, runs: int, quotas: tuple[float, ...], full, visits) -> dict:
    """The busy-loop check, then this build's visits (``visits(browser, base, cpu_rate)``) in each
    mode (``full``: the full-speed visits measured already, or None to measure them here)."""
    figures: dict = {"quota": {}, "check": {}, "throttled": {}, "visits": {mode: [] for mode in modes(quotas)}}
    with ExitStack() as stack:
        browsers = {"full": pw.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)}
        stack.callback(browsers["full"].close)
        limits = {}
        for share in quotas:
            try:
                quota = stack.enter_context(CpuQuota(share))
                wrapped = quota.wrapper(executable)
                launched = pw.chromium.launch(executable_path=wrapped, headless=True, args=CHROMIUM_ARGS)
                stack.callback(launched.close)  # closed before the quota's cgroup is removed
                browsers[f"quota {share:g}"], limits[f"quota {share:g}"] = launched, quota
                figures["quota"][f"quota {share:g}"] = quota.how
            except QuotaUnavailable as error:
                figures["quota_error"] = str(error)
                print(error, file=sys.stderr)
        checks: dict[str, list[dict[str, float]]] = {}
        for mode in (*modes(quotas), "full"):  # full speed before and after (the least of both: others' load)
            if mode in browsers or mode == "page":
                before = limits[mode].throttled() if mode in limits else None
                page = browsers.get(mode, browsers["full"]).new_page()
                if mode == "page":
                    page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": CPU_RATE})
                checks.setdefault(mode, []).append(busy_loops(page))
                page.context.close()
                if before is not None:
                    figures["throttled"][mode] = limits[mode].throttled(before)
        for mode, times in checks.items():
            figures["check"][mode] = {where: min(t[where] for t in times) for where in ("page", "worker")}
        print(f"CPU check (busy loop, ms): {figures['check']}", file=sys.stderr)
        if full is not None:
            figures["visits"]["full"] = full
        for run in range(runs):
            for mode in modes(quotas):
                if (mode == "full" and full is not None) or (mode.startswith("quota") and mode not in browsers):
                    continue
                browser = browsers.get(mode, browsers["full"])
                figures["visits"][mode].append(visits(browser, base, CPU_RATE if mode == "page" else None))
                last = figures["visits"][mode][-1]
                print(
                    f"cpu run {run + 1}/{runs}, {mode}: cold {last['cold_ms']:.0f} ms,"
                    f" second {last['second_ms']:.0f} ms",
                    file=sys.stderr,
                )
    return figures


def print_cpu(figures: dict, runs: int, cpu_only: bool) -> None:
    names = {"full": "full speed" + (" (the runs above)" if not cpu_only else ""), "page": f"page ×{CPU_RATE} (CDP)"}
    shares = [mode for mode in figures["visits"] if mode.startswith("quota")]
    names.update({mode: f"whole browser, {float(mode.split()[1]):.0%} of one core" for mode in shares})
    print("\n  CPU: the phone's network as above; this build only")
    for mode, how in figures["quota"].items():
        print(f"      {mode}: {how}")
    if "quota_error" in figures:
        print(f"      {figures['quota_error']}")
    for mode, (throttled, periods) in figures["throttled"].items():
        print(f"      {mode} held the browser back in {throttled} of its {periods} periods in the check (cpu.stat)")
    check = figures["check"]
    head = f"busy loop ({BUSY_STEPS:,d} steps, least of {BUSY_REPEATS}), ms"
    print(f"  {head:50s} page   worker   slower: page, worker")
    for mode, ms in check.items():
        slower = ""
        if mode != "full":
            slower = f"{ms['page'] / check['full']['page']:6.2f}×  {ms['worker'] / check['full']['worker']:6.2f}×"
        print(f"      {names[mode].split(' (')[0]:46s} {ms['page']:8.0f} {ms['worker']:8.0f}   {slower}")
    if figures["visits"]["full"]:
        first = figures["visits"]["full"][0]
        total = sum(n for _, n in first["page_bytes"] + first["sw_bytes"])
        print(f"  first visit at full speed (run 1): {total:,d} bytes on the wire (gzip; goal ≤ 6,500,000)")
    print(f"  first advice and the end of each step, ms from navigation start (medians of {runs});")
    print("  and inside NumPy's (the worker's clock): wheel = its bytes in, unzip = unpacked in JavaScript,")
    print("  install = its files and WebAssembly modules in (numpy = imported); how: the worker's numpyInstall")
    columns = ("runtime", "wheel", "unzip", "install", *STEPS[1:])
    print(f"      {'':40s} {'visit':6s} {'advice':>7s} " + " ".join(f"{c:>7s}" for c in columns) + "  Python; how")
    for mode, visits in figures["visits"].items():
        for visit, key in (("cold", "cold_ms"), ("second", "second_ms")):
            if not visits:
                continue
            cells = [statistics.median(r[key] for r in visits)]
            for column in columns:
                inner = {"wheel": "fetched", "unzip": "unpacked", "install": "installed"}.get(column)
                values = [r["numpy_steps"][visit].get(inner) if inner else r["steps"][visit][column] for r in visits]
                present = [v for v in values if v is not None]
                cells.append(statistics.median(present) if present else None)
            shown = " ".join("      –" if v is None else f"{v:7.0f}" for v in cells)
            started = "/".join(sorted({r["runtime_start"][visit] for r in visits}))
            started += "; " + "/".join(sorted({str(r["numpy_steps"][visit].get("how")) for r in visits}))
            print(f"      {names[mode] if visit == 'cold' else '':40s} {visit:6s} {shown}  {started}")
