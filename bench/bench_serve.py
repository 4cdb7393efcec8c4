"""A newcomer's first command: ``make serve`` on a fresh clone, timed to the page's first answer.

    .venv/bin/python bench/bench_serve.py [--port PORT] [--keep DIR]

Clones this repository's HEAD into a new folder (or ``--keep DIR``, which must not exist), runs
``make serve PORT=…`` there and prints, in seconds from the clone's start: when the server first
answers, when Chromium (headless, a phone-sized viewport, on localhost) shows the advice of the
README's example, when a position against a rival shows a chance and whether it is an estimate,
when that same page (no reload) shows the exact chance, and when the tables built behind the page
are done (``tools/serve_first.py``). Goal: the first answer ≤ 120 s on the 2-core machine.

What it asserts of its conditions, else it stops: the clone is fresh (no ``.venv/``,
``node_modules/`` or ``public/``), the port is free before it starts, and the page's answers are
those of the served clone (its build.json lists the tables as pending until the build behind is
done: it must list some at first). It prints the machine's load averages before and after (a shared machine: a high load
means slow figures).
"""

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_page import chromium_executable

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = "s=3,,9,,,18,,,,,30,&d=14466&r=2"
RIVAL = "s=,,,,,,,,,,,&d=12256&r=3&o=,,,,,,,,,,,"
"""Both sheets empty, the rival to play: the chance reads the reach and law chunks and the quantiles."""
LIMIT_S = 900


def port_free(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


def wait_until(what: str, ready, since: float) -> float:
    """Poll ``ready()`` until true; the seconds since ``since``."""
    while not ready():
        if time.monotonic() - since > LIMIT_S:
            raise SystemExit(f"bench_serve: no {what} within {LIMIT_S} s")
        time.sleep(0.2)
    return time.monotonic() - since


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8790)
    parser.add_argument("--keep", type=Path, help="clone into this folder (must not exist) and keep it")
    args = parser.parse_args()
    if not port_free(args.port):
        raise SystemExit(f"bench_serve: port {args.port} is taken: choose another with --port")
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench-serve-")) / "clone"
    if folder.exists():
        raise SystemExit(f"bench_serve: {folder} exists: --keep names a folder to create")
    print(f"load averages before: {os.getloadavg()}")
    start = time.monotonic()
    subprocess.run(["git", "clone", "-q", str(ROOT), str(folder)], check=True)
    leftovers = [name for name in (".venv", "node_modules", "public") if (folder / name).exists()]
    if leftovers:
        raise SystemExit(f"bench_serve: the clone is not fresh: it has {leftovers}")
    log_path = folder.parent / "make-serve.log"
    with log_path.open("w") as log:
        command = ["make", "serve", f"PORT={args.port}"]
        make = subprocess.Popen(command, cwd=folder, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{args.port}/"
    try:
        served = wait_until("server", lambda: make.poll() is not None or answers(base), start)
        if make.poll() is not None:
            raise SystemExit(f"bench_serve: make serve ended ({make.returncode}); see {log_path}")
        print(f"the server answers: {served:.1f} s")
        pending = json.loads(urllib.request.urlopen(base + "build.json").read()).get("pending")
        if not pending:
            raise SystemExit("bench_serve: build.json lists nothing pending: the tables were there before the page")
        print(f"served before these were built: {pending}")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_executable())
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto(base + "?" + EXAMPLE)
            page.locator(f'#options[data-query="{EXAMPLE}"]:not([aria-busy=true])').wait_for(timeout=LIMIT_S * 1000)
            print(f"the first answer: {time.monotonic() - start:.1f} s  (goal ≤ 120 s)")
            page.goto(base + "?" + RIVAL)
            verdict = page.locator("[data-testid=verdict][data-win]")
            verdict.wait_for(timeout=LIMIT_S * 1000)
            estimate = verdict.get_attribute("data-estimate")
            print(
                f"a rival position: {time.monotonic() - start:.1f} s, chance {verdict.get_attribute('data-win')}"
                f" ({'an estimate without ' + estimate if estimate else 'exact'})"
            )
            exact = page.locator("[data-testid=verdict][data-win]:not([data-estimate])")
            exact.wait_for(timeout=LIMIT_S * 1000)
            print(f"exact on the same page: {time.monotonic() - start:.1f} s, chance {exact.get_attribute('data-win')}")
            browser.close()
        done = wait_until("build behind", lambda: "done: every table" in log_path.read_text(), start)
        print(f"the tables built behind it: {done:.1f} s")
        print(f"load averages after: {os.getloadavg()}")
    finally:
        os.killpg(make.pid, 15)
        make.wait()
        if not args.keep:
            shutil.rmtree(folder.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
