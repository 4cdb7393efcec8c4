"""The page's JavaScript (web/): data flows one way and files stay small.

- No import cycle among the ES modules under ``web/`` (every static ``import … from "./x.js"``
  and ``export … from``; a cycle is reported with its path).
- The views (``web/app/view-*.js``) import no action module (``actions.js``, ``advisor.js``,
  ``render.js``, ``games.js``): they render from the store and call the handlers they are given.
- ``formats.js``, ``rules.js`` and ``texts.js`` read no store.
- No JavaScript file of ours over 400 lines.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
SOURCES = sorted(p for p in WEB.rglob("*.js"))
IMPORT = re.compile(
    r"""^\s*(?:import|export)\b[^"';]*?\bfrom\s*["'](\.{1,2}/[^"']+)["']|^\s*import\s*["'](\.{1,2}/[^"']+)["']""", re.M
)
ACTION_MODULES = {"actions.js", "advisor.js", "render.js", "games.js"}
MAX_LINES = 400


def imports_of(path: Path) -> set[Path]:
    """The files of ours that `path` imports statically (relative specifiers)."""
    text = path.read_text()
    found = set()
    for match in IMPORT.finditer(text):
        target = (path.parent / (match.group(1) or match.group(2))).resolve()
        if target.suffix == ".js" and WEB in target.parents:
            found.add(target)
    return found


def graph() -> dict[Path, set[Path]]:
    return {p.resolve(): imports_of(p) for p in SOURCES}


def find_cycle(edges: dict[Path, set[Path]]) -> list[Path] | None:
    """One cycle of the graph as a path [a, b, …, a], or None (depth-first search)."""
    state: dict[Path, int] = {}  # 1: on the current path, 2: done
    path: list[Path] = []

    def visit(node: Path) -> list[Path] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_cycle_finder_finds_a_cycle_and_no_false_one() -> None:
    a, b, c = (Path(f"/x/{n}.js") for n in "abc")
    assert find_cycle({a: {b}, b: {c}, c: {a}}) == [a, b, c, a]
    assert find_cycle({a: {b, c}, b: {c}, c: set()}) is None


def test_the_import_pattern_reads_every_form() -> None:
    text = (
        'import { a } from "./a.js";\nimport {\n  b,\n  c,\n} from "./b.js";\n'
        'export { d } from "../d.js";\nimport "./e.js";\n'
    )
    specifiers = [m.group(1) or m.group(2) for m in IMPORT.finditer(text)]
    assert specifiers == ["./a.js", "./b.js", "../d.js", "./e.js"]


def test_no_import_cycle_under_web() -> None:
    edges = graph()
    assert sum(len(v) for v in edges.values()) > 50  # the graph was read
    cycle = find_cycle(edges)
    assert cycle is None, " -> ".join(p.relative_to(WEB).as_posix() for p in cycle)


@pytest.mark.parametrize("view", sorted(p.name for p in (WEB / "app").glob("view-*.js")))
def test_a_view_imports_no_action_module(view: str) -> None:
    imported = {p.name for p in imports_of(WEB / "app" / view)}
    assert imported & ACTION_MODULES == set()


@pytest.mark.parametrize("module", ["formats.js", "rules.js", "texts.js"])
def test_the_format_and_text_modules_read_no_store(module: str) -> None:
    assert "store.js" not in {p.name for p in imports_of(WEB / "app" / module)}


def test_no_javascript_file_is_over_400_lines() -> None:
    long = {p.relative_to(ROOT).as_posix(): n for p in SOURCES if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}
