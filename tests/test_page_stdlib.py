"""Our package imports only what the page's trimmed standard library holds.

``tools/build_site.py`` ships ``python_stdlib.zip`` with only the members ``tools/keep-stdlib.txt``
names; a module of ours that imports anything else fails in the browser only (``import secrets``
in ``practice_dice`` once broke every game query of the page while CPython passed). This test
reads every import of every module the worker can load (all of ``py/yacht`` but the command-line
edges) and checks each standard-library module is built into the interpreter, frozen, compiled
into Pyodide's interpreter, or in the keep-list.
"""

import ast
import importlib.machinery
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "py" / "yacht"
KEEP = {line.strip() for line in (ROOT / "tools" / "keep-stdlib.txt").read_text().splitlines() if line.strip()}
CLI_ONLY = {"__main__.py", "cli"}
"""What only the command line imports, under ``py/yacht``: ``__main__`` and the ``cli`` folder
(argparse and the like are not shipped)."""
PYODIDE_BUILTIN = {"math", "zlib"}
"""Extension modules that CPython here loads from shared objects but Pyodide compiles into its
interpreter (so they are not members of python_stdlib.zip)."""
OURS = {"yacht", "numpy"}


def top_level_imports(path: Path) -> set[str]:
    """The top-level names of every absolute import in ``path`` (module level and in functions)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def shipped(name: str) -> bool:
    return (
        name in OURS
        or name in sys.builtin_module_names
        or name in PYODIDE_BUILTIN
        or importlib.machinery.FrozenImporter.find_spec(name) is not None
        or f"{name}.py" in KEEP
        or f"{name}/__init__.py" in KEEP
    )


def test_every_module_the_worker_can_load_imports_only_shipped_standard_modules():
    modules = sorted(p for p in PACKAGE.rglob("*.py") if p.relative_to(PACKAGE).parts[0] not in CLI_ONLY)
    assert len(modules) > 20
    missing = {
        p.relative_to(PACKAGE).as_posix(): sorted(n for n in top_level_imports(p) if not shipped(n)) for p in modules
    }
    assert {k: v for k, v in missing.items() if v} == {}


def test_the_check_catches_a_module_the_page_does_not_ship():
    assert not shipped("secrets") and not shipped("argparse")
    assert shipped("os") and shipped("math") and shipped("dataclasses")
