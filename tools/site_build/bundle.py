"""Step 1, the page: writes ``public/index.html`` and ``public/sw.js`` (``WEB_FILES``, copied), and
the scripts of ``BUNDLES`` and the stylesheet of ``STYLESHEETS``, each bundled by esbuild (pinned
in ``package.json``) from its entry and the modules it imports: the page's modules
(``web/page/``) as ``app.js``, the worker's as ``worker.js``, the snapshot worker's as
``snapshot-worker.js``, ``web/page/styles/`` as ``style.css``. A cold load then asks for one
script where it asked for 32, and the worker's own request no longer waits behind the page's
modules on the browser's six connections to a host. Removes what earlier builds published in
their place (``STALE``)."""

import shutil
import subprocess
from pathlib import Path
from typing import Final

from .common import PUBLIC, ROOT, BuildError, write_if_changed

WEB_FILES: Final = {
    "index.html": "web/page/index.html",
    "sw.js": "web/service-worker/sw.js",
}
"""Copied as they are (public name: source): the page and its service worker. (The benchmark's
bare Pyodide + NumPy page, ``bench/page/``, is not published: the benchmarks serve it beside
``public/``.)"""

BUNDLES: Final = {
    "app.js": "web/page/main.js",
    "worker.js": "web/worker/worker.js",
    "snapshot-worker.js": "web/worker/snapshot-worker.js",
}
"""Each bundled script of ``public/`` and its entry module in the repository."""

STYLESHEETS: Final = {"style.css": "web/page/styles/style.css"}
"""Each bundled stylesheet of ``public/`` and its entry (the sheets it ``@import``s inlined)."""

BUNDLE_EXTERNAL: Final = ("./pyodide/pyodide.mjs", "./runtime.js")
"""Imports left to the browser: Pyodide's own module, and ``runtime.js``, which this build writes
later (step 3b) and ``tools/record_imports.py`` replaces with the official runtime's."""
STALE: Final = (
    "app",
    "worker-load.js",
    "worker-tables.js",
    "snapshot.js",
    "bare.html",
    "bare-worker.js",
    "wheel-worker.js",
)
"""What earlier builds published and this one does not (the modules now in the bundles, the
benchmark's bare page): removed from ``public/``."""


def esbuild() -> Path:
    """node_modules' esbuild (``npm ci`` installs it with Pyodide: see ``pyodide_dir``)."""
    path = ROOT / "node_modules" / ".bin" / "esbuild"
    if not path.exists():
        raise BuildError("node_modules/.bin/esbuild is missing: run `npm ci` (package.json pins it)")
    return path


def bundle(entry: str) -> bytes:
    """``entry`` (a path from the repository root) and every module it imports (but
    ``BUNDLE_EXTERNAL``) as one ES module.

    Not minified (each module's code follows a ``// web/…`` comment naming its file; the server
    compresses), UTF-8 kept as it is, the same bytes from run to run."""
    command = [str(esbuild()), entry, "--bundle", "--format=esm", "--charset=utf8", "--log-level=warning"]
    command += [f"--external:{name}" for name in BUNDLE_EXTERNAL]
    done = subprocess.run(command, cwd=ROOT, capture_output=True)
    if done.returncode != 0 or not done.stdout:
        raise BuildError(f"esbuild could not bundle {entry}:\n{done.stderr.decode(errors='replace')}")
    return done.stdout


def copy_page() -> None:
    for name, source in WEB_FILES.items():
        write_if_changed(PUBLIC / name, (ROOT / source).read_bytes())
    for name, entry in (BUNDLES | STYLESHEETS).items():
        write_if_changed(PUBLIC / name, bundle(entry))
    for name in STALE:
        path = PUBLIC / name
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
