"""The package's folders are its layers, and every import goes down (or stays in its layer).

In import order (``py/yacht/__init__.py`` says what each holds):

    core  <  chances  <  play  <  the edges (``loader``, ``api``, the package's ``__init__``)  <  cli

A module may import from its own layer and the layers before it, never from a later one. Every
import counts: at module level, inside functions and under ``if TYPE_CHECKING``, relative or
absolute. A module outside the known folders and top-level files fails too, so that a new one is
given its layer here on purpose. Within a layer, no import circle either: counting the same
imports, no module imports one that (through others) imports it.
"""

import ast
from itertools import pairwise
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "py" / "yacht"
LAYERS = ("core", "chances", "play", "edges", "cli")
"""The layers, lowest first."""
FOLDERS = {"core": "core", "chances": "chances", "play": "play", "cli": "cli"}
"""Each sub-package (``yacht.<folder>``) → its layer."""
TOP_LEVEL = {"__init__": "edges", "loader": "edges", "available": "edges", "api": "edges", "__main__": "cli"}
"""Each module directly in ``py/yacht`` → its layer (``yacht`` itself is its ``__init__``)."""


class Violation(NamedTuple):
    where: str  # py/yacht/…/x.py:line
    statement: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.statement}  # {self.message}"


def module_name(path: Path) -> str:
    """``py/yacht/core/dice.py`` → ``yacht.core.dice``; a package's ``__init__.py`` → the package."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> str | None:
    """The layer of ``module`` (dotted, ``yacht…``), or None if it is in none."""
    parts = module.split(".")
    if parts[0] != "yacht":
        return None
    if len(parts) == 1:
        return TOP_LEVEL["__init__"]
    if parts[1] in FOLDERS:
        return FOLDERS[parts[1]]
    return TOP_LEVEL.get(parts[1]) if len(parts) == 2 else None


def imported_modules(node: ast.AST, importer: str, is_package: bool) -> list[str]:
    """The ``yacht`` modules an import statement ``node`` of module ``importer`` names (dotted)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name.split(".")[0] == "yacht"]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level == 0:
        if not node.module or node.module.split(".")[0] != "yacht":
            return []
        base = node.module.split(".")
    else:
        package = importer.split(".") if is_package else importer.split(".")[:-1]
        base = package[: len(package) - (node.level - 1)] + (node.module.split(".") if node.module else [])
    if node.module:
        return [".".join(base)]
    # ``from . import x``: x is a submodule, or a name of the package itself
    return [".".join([*base, alias.name]) for alias in node.names]


def violations(path: Path, source: str | None = None) -> list[Violation]:
    """Every import of the module at ``path`` (its text: ``source``, else the file's) that goes up
    a layer, or that names a module outside the layers; the module itself outside them too."""
    importer = module_name(path)
    where = path.relative_to(ROOT).as_posix()
    own = layer_of(importer)
    if own is None:
        return [Violation(where, "", "a module outside the layers: give it one (py/yacht/__init__.py, this test)")]
    source = path.read_text() if source is None else source
    found = []
    for node in ast.walk(ast.parse(source, where)):
        for target in imported_modules(node, importer, path.name == "__init__.py"):
            layer = layer_of(target)
            if layer is None:
                message = f"{target} is in no layer"
            elif LAYERS.index(layer) > LAYERS.index(own):
                message = f"{own} imports {target}, of the later layer {layer}"
            else:
                continue
            found.append(Violation(f"{where}:{node.lineno}", ast.get_source_segment(source, node) or "", message))
    return found


def package_modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_import_goes_down_the_layers():
    modules = package_modules()
    assert len(modules) > 30
    found = [str(v) for path in modules for v in violations(path)]
    assert not found, "imports from a later layer (or outside the layers):\n" + "\n".join(found)


def import_graph(replaced: dict[Path, str] | None = None) -> dict[str, dict[str, str]]:
    """Each module of the package (dotted) → the package's modules it imports, each with where its
    first import of it is (``py/yacht/…/x.py:line``). Every import statement counts, at any depth
    (inside functions, ``if TYPE_CHECKING``), relative or absolute; ``from x import y`` imports the
    submodule ``x.y`` when there is one, else ``x``. ``replaced``: texts to read instead of some files'."""
    paths = {module_name(path): path for path in package_modules()}
    graph: dict[str, dict[str, str]] = {}
    for importer, path in paths.items():
        source = (replaced or {}).get(path) or path.read_text()
        where = path.relative_to(ROOT).as_posix()
        edges = graph.setdefault(importer, {})
        for node in ast.walk(ast.parse(source, where)):
            named = imported_modules(node, importer, path.name == "__init__.py")
            if named and isinstance(node, ast.ImportFrom) and node.module:
                named = [f"{named[0]}.{alias.name}" for alias in node.names]
            for target in named:
                while target not in paths and "." in target:  # a name of a module: that module
                    target = target.rsplit(".", 1)[0]
                if target in paths and target != importer:
                    edges.setdefault(target, f"{where}:{node.lineno}")
    return graph


def import_circle(graph: dict[str, dict[str, str]]) -> list[str]:
    """A circle of imports in ``graph`` (``import_graph``), as its steps "module (where it imports
    the next)" back to the first module, or [] when there is none."""
    state: dict[str, str] = {}  # "open" while on the path walked, "done" once every import is walked
    path: list[str] = []

    def walk(module: str) -> list[str]:
        state[module] = "open"
        path.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == "open":
                circle = [*path[path.index(target) :], target]
                return [f"{a} ({graph[a][b]})" for a, b in pairwise(circle)] + [target]
            if target not in state and (found := walk(target)):
                return found
        state[module] = "done"
        path.pop()
        return []

    for module in sorted(graph):
        if module not in state and (found := walk(module)):
            return found
    return []


def test_no_import_circle_even_through_imports_inside_functions():
    graph = import_graph()
    assert len(graph) > 30 and sum(map(len, graph.values())) > 100
    circle = import_circle(graph)
    assert not circle, "an import circle (a module needs itself, through these imports):\n  " + "\n  → ".join(circle)


def test_the_circle_check_names_every_import_of_a_circle_lazy_and_absolute_ones_too():
    dice = PACKAGE / "core" / "dice.py"
    assert "yacht.core.dice" in import_graph()["yacht.core.options"]  # options imports dice
    lazy = dice.read_text() + "\n\ndef f():\n    if True:\n        from .options import advise\n"
    assert import_circle(import_graph({dice: lazy}))[:2] == [
        f"yacht.core.dice (py/yacht/core/dice.py:{lazy.count(chr(10))})",
        f"yacht.core.options ({import_graph()['yacht.core.options']['yacht.core.dice']})",
    ]
    absolute = dice.read_text() + "\n\ndef f():\n    import yacht.core.options\n"
    assert "yacht.core.options" in import_graph({dice: absolute})["yacht.core.dice"]
    package = dice.read_text() + "\n\ndef f():\n    from . import options\n"
    assert "yacht.core.options" in import_graph({dice: package})["yacht.core.dice"]
    assert import_circle(import_graph({dice: absolute})) and import_circle(import_graph({dice: package}))
    assert import_circle({"a": {"b": "a.py:1"}, "b": {"c": "b.py:2"}, "c": {"a": "c.py:3"}}) == [
        "a (a.py:1)",
        "b (b.py:2)",
        "c (c.py:3)",
        "a",
    ]
    assert import_circle({"a": {"b": "a.py:1"}, "b": {}, "c": {"a": "c.py:3", "b": "c.py:4"}}) == []


def test_every_folder_is_a_layer_that_says_what_it_holds_and_may_import():
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders == set(FOLDERS)
    for folder in folders:
        doc = ast.get_docstring(ast.parse((PACKAGE / folder / "__init__.py").read_text()))
        assert doc and "Imports:" in doc, f"py/yacht/{folder}/__init__.py: a docstring with what it may import"
    top = {p.stem for p in PACKAGE.glob("*.py")}
    assert top == set(TOP_LEVEL)


def test_the_check_names_an_upward_import_with_its_file_and_line():
    options = PACKAGE / "core" / "options.py"
    source = "import numpy as np\n\n\ndef f():\n    from ..chances.goal import goal_advice\n    return goal_advice\n"
    (found,) = violations(options, source)
    assert str(found) == (
        "py/yacht/core/options.py:5: from ..chances.goal import goal_advice"
        "  # core imports yacht.chances.goal, of the later layer chances"
    )
    assert [v.message for v in violations(options, "from yacht.api import advise_query\n")] == [
        "core imports yacht.api, of the later layer edges"
    ]
    assert [v.message for v in violations(options, "import yacht.cli.main\n")] == [
        "core imports yacht.cli.main, of the later layer cli"
    ]
    assert [v.message for v in violations(options, "from .. import play\n")] == [
        "core imports yacht.play, of the later layer play"
    ]
    assert violations(PACKAGE / "play" / "review.py", "from ..chances.goal import APPROXIMATION\n") == []
    assert violations(PACKAGE / "api.py", "from .loader import Tables\nfrom .play.game import replay\n") == []
    assert [v.message for v in violations(PACKAGE / "api.py", "from .cli.main import main\n")] == [
        "edges imports yacht.cli.main, of the later layer cli"
    ]


NAMED_TUPLE_API = frozenset({"_replace", "_make", "_asdict", "_fields", "_field_defaults"})
"""Public methods of a ``NamedTuple`` whose names start with an underscore (so as not to clash with fields)."""


def is_private(name: str) -> bool:
    """``_x`` is private to its module; ``__x__`` (dunder) is not."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_uses(path: Path, source: str | None = None) -> list[Violation]:
    """Every place where the module at ``path`` (its text: ``source``, else the file's) takes a
    private name of another module: ``from x import _y`` (relative or absolute, any module), or
    ``x._y`` where ``x`` is a name the module imported (a module, or a class or function of one)."""
    where = path.relative_to(ROOT).as_posix()
    source = path.read_text() if source is None else source
    tree = ast.parse(source, where)
    imported, found = set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if is_private(alias.name):
                    statement = ast.get_source_segment(source, node) or ""
                    found.append(Violation(f"{where}:{node.lineno}", statement, f"imports the private {alias.name}"))
                else:
                    imported.add(alias.asname or alias.name)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in imported
            and is_private(node.attr)
            and node.attr not in NAMED_TUPLE_API
        ):
            statement = ast.get_source_segment(source, node) or ""
            found.append(
                Violation(f"{where}:{node.lineno}", statement, f"uses the private {node.attr} of {node.value.id}")
            )
    return found


def python_sources() -> list[Path]:
    """Every Python file under ``py/`` (the package and anything beside it)."""
    return sorted(p for p in (ROOT / "py").rglob("*.py") if "__pycache__" not in p.parts)


def test_no_module_imports_or_uses_a_private_name_of_another():
    modules = python_sources()
    assert len(modules) > 30
    found = [str(v) for path in modules for v in private_uses(path)]
    assert not found, "private names taken from another module (make them public under a good name):\n" + "\n".join(
        found
    )


def test_the_private_check_names_an_import_and_an_attribute_of_another_module_with_its_line():
    api = PACKAGE / "api.py"
    (found,) = private_uses(api, "def f(sheet):\n    from .chances.goal import _free, goal_advice\n    return _free\n")
    assert str(found) == "py/yacht/api.py:2: from .chances.goal import _free, goal_advice  # imports the private _free"
    assert [v.message for v in private_uses(api, "import argparse\n\nx: argparse._SubParsersAction\n")] == [
        "uses the private _SubParsersAction of argparse"
    ]
    assert [v.message for v in private_uses(api, "from .chances import goal\n\ny = goal._free(())\n")] == [
        "uses the private _free of goal"
    ]
    assert [v.message for v in private_uses(api, "from yacht.core.solver import _HALVES as halves\n")] == [
        "imports the private _HALVES"
    ]
    own = "def _helper():\n    return 1\n\n\nclass A:\n    def f(self):\n        return self._g() + _helper()\n"
    assert private_uses(api, own) == []
    assert private_uses(api, "from .core.position import Position\n\np = Position._make(((), None, 0))\n") == []
    assert private_uses(api, "from .core.position import parse_query\n\nq = parse_query('').__doc__\n") == []
