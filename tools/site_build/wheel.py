"""Step 4, our package: writes ``public/py/<name>-<version>-py3-none-any.whl``, a wheel built from
``py/yacht`` (fixed timestamps, sorted entries: byte-identical from run to run), with the bytecode
of the modules the first answer imports, compiled by the pinned Pyodide under Node.js
(``tools/compile_pyc.mjs``); older wheels in that folder are removed."""

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
from pathlib import Path
from typing import Final

from .common import ROOT, TOOLS, BuildError, write_if_changed

ZIP_TIME: Final = (1980, 1, 1, 0, 0, 0)
"""The timestamp of every entry of our wheel (the earliest a zip file can hold)."""


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
    wheel = ["Wheel-Version: 1.0", "Generator: tools/build_site.py", "Root-Is-Purelib: true", "Tag: py3-none-any"]
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
    (``tools/compile_pyc.mjs`` under Node.js): the worker imports them without compiling their
    source, about 50 ms sooner on a desktop (more on a phone) for 55 kB more of wheel. The other
    modules, imported later if at all, ship as source only."""
    sources = {name: files[name].decode() for name in first_answer_modules()}
    return compile_bytecode(sources)


def compile_bytecode(sources: dict[str, str], **options: object) -> dict[str, bytes]:
    """``{path of the pyc: its bytes}`` for ``{path of a module: its source}``, compiled by the pinned
    Pyodide under Node.js (``tools/compile_pyc.mjs``, which says what ``options`` may be)."""
    if shutil.which("node") is None:
        raise BuildError("Node.js (node) is needed to compile bytecode with Pyodide")
    run = subprocess.run(
        ["node", str(TOOLS / "compile_pyc.mjs")],
        input=json.dumps({"files": sources, **options}),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if run.returncode != 0:
        raise BuildError(f"tools/compile_pyc.mjs failed:\n{run.stderr.strip()[-2000:]}")
    compiled = json.loads(run.stdout)["files"]
    return {name: base64.b64decode(data) for name, data in sorted(compiled.items())}
