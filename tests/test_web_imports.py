"""The page's JavaScript (web/): data flows one way and files stay small.

The page (``web/page/``) is grouped by role: ``state/`` (the store and what is derived from it),
``actions/`` (what the controls and the worker's answers change in the store), ``requests/`` (the
worker's layer and the device's: what is asked, where answers go), ``views/`` (what is drawn),
``texts/`` and ``model/`` (the formats and rules, pure), and ``show.js``, the one place that turns
a change into views drawn and requests sent. Held here:

- No import cycle among the ES modules under ``web/`` (every static ``import … from "./x.js"``
  and ``export … from``; a cycle is reported with its path).
- A view imports no action, no request and not show.js; an action or a request module imports no
  view and not show.js; actions import no request; ``state/`` and ``model/`` import no action,
  request or view; ``model/`` and ``texts/`` read no store.
- No view assigns into the store (``store.x = …``, ``store.x.y++``, ``store.m.set(…)``,
  ``Object.assign(store…``): views read the store and call the handlers they are given.
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
PAGE = WEB / "page"
MAX_LINES = 400

FORBIDDEN = {
    "views": {"actions", "requests", "show.js"},
    "actions": {"views", "requests", "show.js"},
    "requests": {"views", "show.js"},
    "state": {"actions", "requests", "views", "show.js"},
    "model": {"state", "actions", "requests", "views", "show.js"},
    "texts": {"state", "actions", "requests", "views", "show.js"},
}
"""For each group of the page, the groups (folders under web/page/, or show.js) it may not import."""

STORE_WRITE = re.compile(
    r"""\bstore(?:\.\w+|\[[^\]]+\])+\s*(?:[-+*/%&|^]|\*\*|<<|>>>?|&&|\|\||\?\?)?=(?!=)"""
    r"""|\bstore(?:\.\w+|\[[^\]]+\])+\s*(?:\+\+|--)"""
    r"""|(?:\+\+|--)\s*store\."""
    r"""|\bstore(?:\.\w+)+\.(?:set|delete|add|clear|push|pop|shift|unshift|splice|sort|reverse|fill)\("""
    r"""|Object\.assign\(\s*store\b"""
    r"""|\bdelete\s+store\."""
)
"""A write into the store: an assignment (plain or compound) or increment of a store path, a
mutating call on a store member, Object.assign into it, a delete."""


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


def group_of(path: Path) -> str | None:
    """The page's group of a module: its folder under web/page/, or ``show.js``; None elsewhere."""
    if PAGE not in path.parents:
        return None
    rel = path.relative_to(PAGE)
    return rel.parts[0] if len(rel.parts) > 1 else rel.name


def back_edges(edges: dict[Path, set[Path]]) -> list[str]:
    """Every import that goes against the page's direction, as "a.js -> b.js"."""
    found = []
    for module, imported in sorted(edges.items()):
        banned = FORBIDDEN.get(group_of(module) or "", set())
        for target in sorted(imported):
            if group_of(target) in banned:
                found.append(f"{module.relative_to(PAGE)} -> {target.relative_to(PAGE)}")
    return found


def store_writes(text: str) -> list[str]:
    """The lines of `text` that write into the store (comments left out)."""
    lines = []
    for line in text.splitlines():
        code = line.split("//", 1)[0]
        if code.lstrip().startswith("*"):
            continue
        if STORE_WRITE.search(code):
            lines.append(line.strip())
    return lines


def test_the_page_has_its_groups_and_show() -> None:
    groups = {group_of(p.resolve()) for p in SOURCES} - {None}
    assert {"state", "actions", "requests", "views", "texts", "model", "show.js", "main.js"} <= groups


def test_the_page_imports_only_in_its_direction() -> None:
    edges = graph()
    assert sum(len(v) for g, v in edges.items() if group_of(g) == "views") > 20  # the views were read
    assert back_edges(edges) == []


def test_the_direction_check_finds_a_planted_back_edge() -> None:
    view, action, request, store = (PAGE / p for p in ("views/x.js", "actions/y.js", "requests/z.js", "state/store.js"))
    planted = {view: {action, store}, action: {view}, request: {PAGE / "show.js"}, store: {request}}
    assert back_edges(planted) == [
        "actions/y.js -> views/x.js",
        "requests/z.js -> show.js",
        "state/store.js -> requests/z.js",
        "views/x.js -> actions/y.js",
    ]


def test_no_view_writes_the_store() -> None:
    views = sorted((PAGE / "views").glob("*.js"))
    assert len(views) > 10
    writes = {v.name: w for v in views if (w := store_writes(v.read_text()))}
    assert writes == {}


@pytest.mark.parametrize(
    "line",
    [
        "store.picker = null;",
        "  store.theyStart &&= x;",
        "store.whyOptions.keys.add(key);",
        "store.decisionWhy.set(k, v)",
        "store.generation++;",
        "Object.assign(store.state, x);",
        "store.reviewWhy = { record, keys: new Set() };",
        "store['aim'] = 'win';",
    ],
)
def test_the_store_write_check_finds_each_kind_of_write(line: str) -> None:
    assert store_writes(line) == [line.strip()]


@pytest.mark.parametrize(
    "line",
    ["if (store.picker === null) return;", "const open = store.whyOpen && x;", "x = store.aim;", "// store.x = 1"],
)
def test_the_store_write_check_passes_reads(line: str) -> None:
    assert store_writes(line) == []


@pytest.mark.parametrize("module", ["model/formats.js", "model/rules.js", "texts/texts.js"])
def test_the_format_and_text_modules_read_no_store(module: str) -> None:
    assert "store.js" not in {p.name for p in imports_of(PAGE / module)}


def test_no_javascript_file_is_over_400_lines() -> None:
    long = {p.relative_to(ROOT).as_posix(): n for p in SOURCES if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}
