"""The site build: everything the advisor page serves, assembled into ``public/``.

    .venv/bin/python tools/build_site.py [--pending]

Each step is a module of ``tools/site_build/`` (its docstring says what it writes); this file runs
them in order. Each is re-runnable: a file whose bytes are unchanged is not rewritten.

1. ``bundle``: the page (``index.html``, ``sw.js``) and its bundled scripts and stylesheet.
2. ``runtime``: Pyodide's core files to ``public/pyodide/``.
3. ``runtime``: the NumPy wheel of ``pyodide-lock.json``, verified by its sha256, and the trimmed
   runtime ``public/runtime/`` with ``public/runtime.js``.
4. ``wheel``: our package's wheel, with the bytecode of the first answer's modules.
5. ``data``: ``public/rules.json``.
6. ``data``: ``public/build.json`` (the tables come from ``python -m build_table``; this build only
   checks they are there); ``pack``: the offline packs, ``public/packs/<variant>/``, listed in it.
7. ``offline``: the icons and ``manifest.webmanifest``.
8. ``offline``: ``public/precache.js``, the service worker's list and version.
9. ``guide``: the player's guide, ``public/guide.html`` and ``public/guide.ja.html``.

With ``--pending`` (``make serve`` before the tables are all built: tools/serve_first.py), the
table kinds fetched later than at start that are not built yet are listed as pending in
``build.json`` (``site_build.data``), and a variant with any of them has no offline pack yet;
only the kinds fetched at start (each variant's table) must be there.

Outputs 1 and 4–8 depend only on the repository's files (and 8 on the pinned Pyodide and NumPy
files).
"""

import argparse
import json
import sys

from site_build import bundle, data, guide, offline, pack, runtime, wheel
from site_build.common import PUBLIC, BuildError, json_bytes, write_if_changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--pending", action="store_true", help="list the tables not built yet as pending (built behind: make serve)"
    )
    args = parser.parse_args(argv)
    try:
        version = runtime.pinned_pyodide_version()
        source = runtime.pyodide_dir(version)
        lock = json.loads((source / "pyodide-lock.json").read_text())
        wheel_path, numpy_name = runtime.numpy_wheel(lock)
        bundle.copy_page()
        runtime.copy_runtime(source)
        wheel_name = wheel.build_wheel(PUBLIC / "py")
        values = runtime.build_runtime(source, lock, wheel_path, numpy_name, PUBLIC / "py" / wheel_name)
        write_if_changed(PUBLIC / runtime.RUNTIME_MODULE, runtime.runtime_js(values))
        write_if_changed(PUBLIC / "rules.json", json_bytes(data.rules_json()))
        pending = data.pending_kinds() if args.pending else {}
        packs = pack.write_packs([variant for variant in data.VARIANT_NAMES if not pending.get(variant)])
        build = {**data.build_json(version, wheel_name, pending), "packs": packs}
        write_if_changed(PUBLIC / "build.json", json_bytes(build))
        offline.write_app_files()
        guide.write_guides()
        precache = offline.precache_js(offline.precache_urls(build, values), offline.kept_paths(build))
        write_if_changed(PUBLIC / offline.PRECACHE_FILE, precache)
    except BuildError as e:
        print(f"build_site: error: {e}", file=sys.stderr)
        return 1
    sizes = {
        name: (PUBLIC / url.split("?", 1)[0]).stat().st_size
        for name, url in (("stdlib", values["stdLibURL"]), ("numpy", values["numpyURL"]))
    }
    print(
        f"build_site: public/ ready (Pyodide {version}, {numpy_name} trimmed to {sizes['numpy']:,} bytes, "
        f"python_stdlib.zip to {sizes['stdlib']:,}, py/{wheel_name})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
