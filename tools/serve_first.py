"""``make serve``: serve the page as soon as it can answer, and build the rest of the tables behind it.

    .venv/bin/python tools/serve_first.py [PORT]      # default port 8000

1. ``python -m build_table --only table``: each variant's Ẽ table, all that the page needs to
   answer (about 2 s; nothing when it is up to date).
2. The files of every other kind of table that is not up to date (``build_table.stamps``) are
   removed, so that no other build's file is ever served under this build's URLs.
3. ``tools/build_site.py --pending``: the site, with those kinds listed as pending in
   ``build.json`` (``site_build.data``) and no offline pack for a variant that lacks any.
4. The site is served (``tools/serve.py``) at once. When kinds are pending, ``python -m
   build_table`` builds them behind it meanwhile (each file written whole, a chunked kind's folder
   swapped in whole: ``build_table.files``), then the site is built again, complete. The page
   answers without the files not built yet, says that its chance is an estimate, and picks each
   file up once it is there (its worker fetches a missing file again by itself).

With every table up to date, steps 2 and 4's build do nothing: the site is served as built.
"""

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import serve
from site_build import data  # (it puts the repository's build_table and py/ on the path)
from site_build.common import ROOT

from build_table.stamps import outputs

TABLES = serve.PUBLIC / "tables"


def run(*args: str, prefix: str = "", nice: int = 0) -> bool:
    """Run ``python args`` in the repository (``nice``: that much lower a priority), its output
    printed (each line after ``prefix``)."""
    with subprocess.Popen(
        [sys.executable, *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=(lambda: os.nice(nice)) if nice and hasattr(os, "nice") else None,
    ) as process:
        for line in process.stdout:
            print(f"{prefix}{line}", end="", flush=True)
    return process.returncode == 0


def remove_stale(tables: Path = TABLES) -> dict[str, list[str]]:
    """Remove the files of every kind not up to date in ``tables`` (``site_build.data.pending_kinds``:
    those fetched later than at start); those kinds, by variant."""
    stale = data.pending_kinds(tables)
    for variant, kinds in stale.items():
        for kind in kinds:
            for path in outputs(tables, variant, kind):
                if path.is_dir():
                    shutil.rmtree(path)
                else:
                    path.unlink(missing_ok=True)
    return stale


def build_behind() -> None:
    """Build every table not built yet, then the site again, complete (run beside the server)."""
    prefix = "[building the tables behind] "
    # at a lower priority: the browser loading the page comes first
    if not run("-m", "build_table", prefix=prefix, nice=10):
        print(f"{prefix}failed: the page goes on without those tables (see above); run `make tables`", flush=True)
        return
    if run("tools/build_site.py", prefix=prefix, nice=10):
        print(f"{prefix}done: every table is served now, the offline packs too", flush=True)


def main(argv: list[str]) -> int:
    port = serve.parse_port(argv)
    if port is None:
        return 2
    server = serve.bind(port)  # before building: a port already taken is said at once
    if server is None:
        return 1
    if not run("-m", "build_table", "--only", "table"):
        return 1
    stale = remove_stale()
    if not run("tools/build_site.py", "--pending"):
        return 1
    if any(stale.values()):
        names = "; ".join(f"{variant}: {', '.join(kinds)}" for variant, kinds in stale.items() if kinds)
        print(f"Serving now; built behind it (about 3 minutes on 2 cores): {names}", flush=True)
        threading.Thread(target=build_behind, daemon=True).start()
    serve.serve_public(server)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
