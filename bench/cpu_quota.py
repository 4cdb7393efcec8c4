"""A whole browser on a slow CPU: every process of it under one CPU quota, and the check that it works.

CDP's ``Emulation.setCPUThrottlingRate`` slows a page's main thread only: a dedicated worker
(where the page runs Python) keeps full speed. A CPU quota slows every process and thread the
browser starts, the workers' too: ``CpuQuota(0.25)`` makes a cgroup of its own, limited to a
quarter of one core (``share`` × ``PERIOD_US`` of CPU time per period, for all its threads
together), and ``wrapper()`` writes a script that moves itself into it and ``exec``s the browser
(its children inherit the cgroup; the benchmark's own process, Playwright's driver and the
server stay out). It tries, in order: cgroup v2 (``cpu.max``), cgroup v1's cpu controller
(``cpu.cfs_quota_us``), ``systemd-run --scope -p CPUQuota=``; what each answered is in ``tried``.

``busy_loops(page)`` times the same JavaScript loop on the page and in a worker it starts:
both should be about 1/share times slower under the quota, and only the page's under CDP's
throttling.
"""

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Page

PERIOD_US = 100_000
BUSY_STEPS = 50_000_000
"""The busy loop's steps: about 0.25 s on this machine at full speed."""
BUSY_REPEATS = 5
BUSY_LOOPS = """async ([steps, repeats]) => {
  const loop = (n) => { let x = 0; for (let i = 0; i < n; i++) x = (x * 31 + i) | 0; return x; };
  const source = `const loop = ${loop}; onmessage = (e) => {
    const start = performance.now(); const x = loop(e.data); postMessage([performance.now() - start, x]); };`;
  const worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })));
  const inWorker = (n) => new Promise((resolve) => {
    worker.onmessage = (e) => resolve(e.data[0]);
    worker.postMessage(n);
  });
  const onPage = (n) => { const start = performance.now(); loop(n); return performance.now() - start; };
  await inWorker(steps / 20); onPage(steps / 20);  // both compiled by the optimizing tier first
  const times = { page: [], worker: [] };
  for (let r = 0; r < repeats; r++) { times.page.push(onPage(steps)); times.worker.push(await inWorker(steps)); }
  worker.terminate();
  return times;
}"""


class QuotaUnavailable(RuntimeError):
    """No way of limiting a whole browser's CPU worked here; the message says what each attempt answered."""


def busy_loops(page: Page, repeats: int = BUSY_REPEATS) -> dict[str, float]:
    """The least ms of ``repeats`` runs of ``BUSY_STEPS`` steps of one loop on ``page``'s main thread
    and in a worker it starts. The least, not the median: on a shared machine the others' load only
    adds time, and a quota caps the time the browser gets, so the fastest run is the closest to
    what each setting allows."""
    times = page.evaluate(BUSY_LOOPS, [BUSY_STEPS, repeats])
    return {where: min(ms) for where, ms in times.items()}


def _mounts(kind: str) -> list[tuple[Path, set[str]]]:
    """The mount points of file systems of type ``kind`` and their options."""
    found = []
    for line in Path("/proc/self/mounts").read_text().splitlines():
        _, point, fstype, options, *_ = line.split()
        if fstype == kind:
            found.append((Path(point), set(options.split(","))))
    return found


def _own_cgroup(controller: str) -> str:
    """This process's cgroup path in the hierarchy of ``controller`` ("" for v2's unified one)."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if controller in controllers.split(","):
            return path.lstrip("/")
    raise LookupError(f"no {controller or 'unified'} line in /proc/self/cgroup")


class CpuQuota:
    def __init__(self, share: float) -> None:
        self.share = share
        self.tried: list[str] = []
        self.how = ""
        self.folder: Path | None = None
        self.command: list[str] = []
        self._tmp = tempfile.TemporaryDirectory(prefix="cpu-quota-")

    def __enter__(self) -> "CpuQuota":
        quota = round(self.share * PERIOD_US)
        name = f"yacht-bench-{os.getpid()}-{quota}"
        for attempt in (self._v2, self._v1, self._systemd):
            try:
                attempt(name, quota)
                return self
            except (OSError, LookupError, subprocess.SubprocessError) as error:
                self.tried.append(f"{attempt.__doc__}: {error}")
        self._tmp.cleanup()
        raise QuotaUnavailable("no CPU quota could be set: " + "; ".join(self.tried))

    def _v2(self, name: str, quota: int) -> None:
        """cgroup v2, cpu.max"""
        mounts = _mounts("cgroup2")
        if not mounts:
            raise LookupError("no cgroup2 file system mounted")
        parent = mounts[0][0] / _own_cgroup("")
        if "cpu" not in (parent / "cgroup.controllers").read_text().split():
            raise LookupError(f"the cpu controller is not enabled in {parent} (cgroup.controllers)")
        if "cpu" not in (parent / "cgroup.subtree_control").read_text().split():
            (parent / "cgroup.subtree_control").write_text("+cpu")
        self._make(parent / name, {"cpu.max": f"{quota} {PERIOD_US}"})
        self.how = f"cgroup v2 {self.folder}/cpu.max {quota} {PERIOD_US}"

    def _v1(self, name: str, quota: int) -> None:
        """cgroup v1 cpu controller, cpu.cfs_quota_us"""
        mounts = [point for point, options in _mounts("cgroup") if "cpu" in options]
        if not mounts:
            raise LookupError("no cgroup v1 hierarchy with the cpu controller mounted")
        parent = mounts[0] / _own_cgroup("cpu")
        self._make(parent / name, {"cpu.cfs_period_us": str(PERIOD_US), "cpu.cfs_quota_us": str(quota)})
        self.how = f"cgroup v1 {self.folder}/cpu.cfs_quota_us {quota} per {PERIOD_US} µs"

    def _systemd(self, name: str, quota: int) -> None:
        """systemd-run --scope -p CPUQuota="""
        if shutil.which("systemd-run") is None:
            raise LookupError("no systemd-run")
        command = ["systemd-run", "--scope", "--quiet", f"--property=CPUQuota={self.share:.0%}"]
        probe = subprocess.run([*command, "true"], capture_output=True, text=True)
        if probe.returncode != 0:
            raise subprocess.SubprocessError(probe.stderr.strip().replace("\n", " / "))
        self.command = command
        self.how = f"systemd-run --scope -p CPUQuota={self.share:.0%}"

    def _make(self, folder: Path, settings: dict[str, str]) -> None:
        folder.mkdir()
        self.folder = folder
        try:
            for file, value in settings.items():
                (folder / file).write_text(value)
        except OSError:
            self._remove()
            raise

    def wrapper(self, executable: str) -> str:
        """A script that runs ``executable`` (with its arguments) under the quota."""
        script = Path(self._tmp.name) / "browser-under-quota"
        if self.folder is not None:
            body = f"echo $$ > '{self.folder / 'cgroup.procs'}'\nexec '{executable}' \"$@\"\n"
        else:
            body = "exec " + " ".join(f"'{part}'" for part in [*self.command, "--", executable])
            body += ' "$@"\n'
        script.write_text("#!/bin/sh\nset -e\n" + body)
        script.chmod(0o755)
        return str(script)

    def throttled(self, since: tuple[int, int] = (0, 0)) -> tuple[int, int] | None:
        """(periods the quota held the browser back in, periods it ran in) since ``since``, from
        the cgroup's ``cpu.stat`` (None under systemd-run)."""
        if self.folder is None:
            return None
        stat = dict(line.split() for line in (self.folder / "cpu.stat").read_text().splitlines())
        return int(stat["nr_throttled"]) - since[0], int(stat["nr_periods"]) - since[1]

    def _remove(self) -> None:
        if self.folder is None:
            return
        for _ in range(50):  # the browser's last processes may take a moment to leave
            try:
                self.folder.rmdir()
                break
            except OSError:
                time.sleep(0.1)
        else:
            for pid in (self.folder / "cgroup.procs").read_text().split():  # the browser's own, left behind
                os.kill(int(pid), 9)
            time.sleep(0.5)
            self.folder.rmdir()
        self.folder = None

    def __exit__(self, *exc: object) -> None:
        self._remove()
        self._tmp.cleanup()
