"""The trimmed runtime (``public/runtime/``, built by ``tools/build_site.py`` from the official
files and the keep-lists): what the page loads, that it imports nothing outside the lists, and
that a damaged or substituted runtime file is refused with its name."""

import hashlib
import json
import zipfile
from urllib.parse import urlsplit

import pytest
import record_imports
from playwright.sync_api import Page
from site_build import runtime as site_runtime
from site_build import wheel as site_wheel

from .conftest import PUBLIC
from .page_helpers import advisor_worker, assert_same_advice, wait_for_advice
from .site_server import LOAD_TIMEOUT_MS
from .test_loading_failures import expect_load_error, retry_gets_advice

pytestmark = pytest.mark.browser

QUERY = "s=,,,,,,,,,,,&d=12345&r=1"


@pytest.mark.slow
def test_the_page_imports_nothing_outside_the_keep_lists(make_context, server, runtime) -> None:
    """Run every entry point on the official (whole) stdlib and NumPy: each module imported must be kept."""

    def new_page() -> Page:
        page = make_context().new_page()
        page.goto(server.url("build.json"))
        return page

    official = record_imports.official_files()
    replacing = [server.replace(path, body) for path, body in official.items()]
    for block in replacing:
        block.__enter__()
    try:
        found = record_imports.exercise(new_page, server.replace)
    finally:
        for block in reversed(replacing):
            block.__exit__(None, None, None)
    assert found["stdlib"] and found["numpy"], "nothing recorded: the exercise did not reach Python"
    outside = record_imports.outside_lists(found)
    assert not outside, "imported but not in tools/keep-*.txt (run tools/record_imports.py): " + ", ".join(outside)


def test_the_trimmed_files_hold_exactly_the_keep_lists_and_are_the_ones_loaded(fresh_page: Page, server, runtime):
    stdlib = (PUBLIC / runtime["stdLibURL"].split("?", 1)[0]).read_bytes()
    wheel = (PUBLIC / runtime["numpyURL"]).read_bytes()
    assert hashlib.sha256(stdlib).hexdigest() == runtime["stdLibSha256"]
    assert hashlib.sha256(wheel).hexdigest() == runtime["numpySha256"]
    official = record_imports.official_files()
    whole_stdlib, whole_wheel = (
        official["/" + runtime["stdLibURL"].split("?", 1)[0]],
        official["/" + runtime["numpyURL"]],
    )
    assert len(stdlib) < 0.5 * len(whole_stdlib) and len(wheel) < 0.75 * len(whole_wheel), (len(stdlib), len(wheel))
    before = len(server.requested)
    fresh_page.goto(server.url(f"index.html?{QUERY}"))
    fresh_page.locator("html[data-state=ready]").wait_for()
    requested = set(server.requested[before:])
    assert {"/" + runtime["stdLibURL"].split("?", 1)[0], "/" + runtime["numpyURL"]} <= requested
    assert not any(path.endswith((".zip", ".whl")) and path.startswith("/pyodide/") for path in requested)


@pytest.mark.parametrize("kind", ["truncated", "substituted"])
def test_a_damaged_or_substituted_standard_library_is_refused(fresh_page: Page, server, cpython, runtime, kind):
    path = "/" + runtime["stdLibURL"].split("?", 1)[0]
    ours = (PUBLIC / path.lstrip("/")).read_bytes()
    official = (site_runtime.pyodide_dir(site_runtime.pinned_pyodide_version()) / "python_stdlib.zip").read_bytes()
    body = ours[: len(ours) // 2] if kind == "truncated" else official
    with server.replace(path, body):
        fresh_page.goto(server.url(f"index.html?{QUERY}"))
        expect_load_error(
            fresh_page, "(Python runtime (Pyodide))", "python_stdlib.zip: damaged or substituted, refused"
        )
    retry_gets_advice(fresh_page, QUERY, cpython)


def test_a_substituted_numpy_wheel_is_refused_by_its_sha256(warm_page: Page, server, cpython, runtime):
    """The official wheel is a genuine NumPy, but not the file our lock file lists."""
    official = record_imports.official_files()["/" + runtime["numpyURL"]]
    with server.replace("/" + runtime["numpyURL"], official):
        warm_page.goto(server.url(f"index.html?{QUERY}"))
        expect_load_error(
            warm_page, "(NumPy)", "numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl: damaged or substituted"
        )
    retry_gets_advice(warm_page, QUERY, cpython)


def test_the_first_answer_imports_the_package_from_its_shipped_bytecode(fresh_page: Page, server) -> None:
    """The wheel holds bytecode (tools/compile_pyc.mjs) for exactly the modules the first answer imports,
    and the worker's Python reads it instead of compiling the source: the modules have no docstring,
    which only the shipped bytecode leaves out. The modules imported later ship as source only."""
    (wheel,) = (PUBLIC / "py").glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        cached = sorted(n for n in archive.namelist() if n.endswith(".pyc"))
    expected = site_wheel.first_answer_modules()
    # yacht/core/__pycache__/options.cpython-312.pyc is the bytecode of yacht/core/options.py
    assert sorted(f"{n.replace('/__pycache__', '').split('.')[0]}.py" for n in cached) == sorted(expected)
    fresh_page.goto(server.url(f"index.html?{QUERY}"))
    fresh_page.get_by_test_id("option").first.wait_for()
    (worker,) = [w for w in fresh_page.workers if w.url.endswith("/worker.js")]
    modules = worker.evaluate(
        """() => globalThis.pyodide.runPython(`
import os, sys
ours = {name: m for name, m in sys.modules.items() if name.split(".")[0] == "yacht"}
{name: [os.path.exists(m.__cached__), m.__doc__ is None] for name, m in ours.items()}
`).toJs({dict_converter: Object.fromEntries})"""
    )
    first = {p[:-3].replace("/__init__", "").replace("/", ".") for p in expected}
    assert first <= set(modules), "the first answer's modules are imported"
    for name, (has_bytecode, no_docstring) in modules.items():
        assert (has_bytecode and no_docstring) == (name in first), name


def test_numpy_ships_as_bytecode_only_and_the_worker_unpacks_and_imports_it(fresh_page: Page, server, runtime) -> None:
    """The trimmed wheel holds bytecode (tools/compile_pyc.mjs) in place of every module the keep-list
    names, listed in its RECORD with its hash; the worker unpacks it itself (worker-numpy.js) and
    Python imports NumPy from it: every NumPy module imported is a .pyc, docstrings empty."""
    keep = site_runtime.read_keep_list(site_runtime.KEEP_LISTS["numpy"])
    with zipfile.ZipFile(PUBLIC / runtime["numpyURL"]) as wheel:
        names = set(wheel.namelist())
        (record,) = [n for n in names if n.endswith(".dist-info/RECORD")]
        rows = {row.split(",")[0]: row for row in wheel.read(record).decode().splitlines()}
        for module in (k for k in keep if k.endswith(".py")):
            pyc = module[:-3] + ".pyc"
            assert module not in names and pyc in names, module
            assert rows[pyc] == f"{pyc},{site_wheel.record_hash(wheel.read(pyc))},{len(wheel.read(pyc))}"
    assert not [n for n in names if n.endswith(".py")]
    fresh_page.goto(server.url(f"index.html?{QUERY}"))
    fresh_page.get_by_test_id("option").first.wait_for()
    (worker,) = [w for w in fresh_page.workers if w.url.endswith("/worker.js")]
    assert worker.evaluate("globalThis.numpyInstall") == "unpacked in JavaScript"
    files = worker.evaluate(
        """() => globalThis.pyodide.runPython(`
import sys
ours = [m for n, m in list(sys.modules.items()) if n.split(".")[0] == "numpy"]
[[m.__file__, m.__doc__] for m in ours if getattr(m, "__file__", None)]
`).toJs()"""
    )
    assert len(files) > 40
    for file, doc in files:
        assert file.endswith((".pyc", ".so")), file
        assert doc in ("", None) or file.endswith(".so"), file


def test_the_standard_library_ships_as_bytecode_only_and_python_imports_it(fresh_page: Page, server, runtime) -> None:
    """The trimmed standard library holds bytecode in place of every module the keep-list names
    (a first visit's Python compiles none of it); each module imported from it is a .pyc."""
    keep = site_runtime.read_keep_list(site_runtime.KEEP_LISTS["stdlib"])
    with zipfile.ZipFile(PUBLIC / runtime["stdLibURL"].split("?", 1)[0]) as stdlib:
        names = set(stdlib.namelist())
    assert not [n for n in names if n.endswith(".py")]
    for module in (k for k in keep if k.endswith(".py")):
        assert module[:-3] + ".pyc" in names, module
    fresh_page.goto(server.url(f"index.html?{QUERY}"))
    fresh_page.get_by_test_id("option").first.wait_for()
    (worker,) = [w for w in fresh_page.workers if w.url.endswith("/worker.js")]
    files = worker.evaluate(
        """() => globalThis.pyodide.runPython(`
import sys
[f for m in list(sys.modules.values()) if ".zip/" in (f := getattr(m, "__file__", None) or "")]
`).toJs()"""
    )
    assert len(files) > 100 and all(f.endswith(".pyc") for f in files), files


def test_numpy_linalg_is_left_out_and_a_call_of_it_names_what_is_missing(fresh_page: Page, server, runtime) -> None:
    """The trimmed wheel holds no linalg WebAssembly (``LEFT_OUT``): NumPy imports, its arrays
    and matmul work, and a ``numpy.linalg`` call raises ImportError naming the module left out."""
    with zipfile.ZipFile(PUBLIC / runtime["numpyURL"]) as wheel:
        names = wheel.namelist()
    assert [n for n in names if n.endswith(".so")] == [
        "numpy/_core/_multiarray_tests.cpython-312-wasm32-emscripten.so",
        "numpy/_core/_multiarray_umath.cpython-312-wasm32-emscripten.so",
    ]
    assert "numpy/linalg/_umath_linalg.pyc" in names
    fresh_page.goto(server.url(f"index.html?{QUERY}"))
    fresh_page.get_by_test_id("option").first.wait_for()
    (worker,) = [w for w in fresh_page.workers if w.url.endswith("/worker.js")]
    seen = worker.evaluate(
        """() => globalThis.pyodide.runPython(`
import numpy
a = numpy.arange(4.0)
try:
    numpy.linalg.inv(numpy.eye(2))
    message = None
except ImportError as error:
    message = str(error)
[float(a @ a), message, hasattr(numpy.linalg._umath_linalg, "__path__")]
`).toJs()"""
    )
    assert seen[0] == 14.0
    assert "numpy.linalg's compiled routines (_umath_linalg.inv) are not part of this site's runtime" in seen[1]
    assert seen[2] is False


@pytest.mark.parametrize("start", ["fresh", "snapshot"])
def test_the_runtimes_files_are_asked_for_as_the_worker_starts_and_each_fetched_once(
    start: str, request: pytest.FixtureRequest, server, cpython
) -> None:
    """pyodide.asm.wasm, the standard library and the lock file are fetched as the worker starts,
    before it looks for a snapshot (worker-load.js: earlyRuntimeFiles), and loadPyodide is handed
    those requests, on a first visit and on a start from the snapshot: none is fetched twice."""
    page: Page = request.getfixturevalue("fresh_page" if start == "fresh" else "warm_page")
    page.goto(server.url(f"index.html?{QUERY}"))
    wait_for_advice(page, QUERY)
    (worker,) = [w for w in page.workers if w.url.endswith("/worker.js")]
    assert worker.evaluate("globalThis.runtimeStart") == start
    files = ["pyodide-lock.json", "pyodide.asm.wasm", "python_stdlib.zip"]
    early = worker.evaluate("globalThis.earlyRuntimeFiles")
    assert sorted(early["served"]) == files and early["unused"] == []
    fetched = worker.evaluate("performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname)")
    assert sorted(path.split("/")[-1] for path in fetched if path.split("/")[-1] in files) == files
    assert_same_advice(page, cpython(QUERY))


AFTER_THE_RUNTIME = (".whl", "/tables/yacht-official.table")
"""What a fresh start holds back until runtimeFirst opens: NumPy's wheel, ours, the first table."""


def early_network(page: Page) -> dict:
    """The worker's measure of the network (worker-load.js: globalThis.earlyNetwork), once made."""
    return advisor_worker(page).evaluate(
        """(ms) => new Promise((resolve, reject) => {
             const end = Date.now() + ms;
             const look = () => globalThis.earlyNetwork ? resolve(globalThis.earlyNetwork)
               : Date.now() > end ? reject(new Error("the network was never measured")) : setTimeout(look, 20);
             look();
           })""",
        LOAD_TIMEOUT_MS,
    )


def held_back(server, since: int) -> list[str]:
    """The paths of AFTER_THE_RUNTIME the server was asked for since its ``since``-th request."""
    return sorted(path for path in server.requested[since:] if path.endswith(AFTER_THE_RUNTIME))


def expected_held_back(runtime: dict) -> list[str]:
    """The paths of NumPy's wheel, ours and the official table, as ``held_back`` lists them."""
    build = json.loads((PUBLIC / "build.json").read_text())
    urls = (runtime["numpyURL"], build["wheel"]["url"], build["tables"]["official"]["url"])
    return sorted("/" + urlsplit(url).path for url in urls)


def test_on_a_fast_network_the_wheels_and_the_table_come_while_the_runtime_is_still_coming(
    fresh_page: Page, server, cpython, runtime: dict
) -> None:
    """On localhost the standard library (fetched beside pyodide.asm.wasm) comes faster than
    FAST_NETWORK_BYTES_PER_MS, so NumPy's wheel, ours and the first table are fetched before the
    runtime is in (worker-load.js: openWhenFast), to be unpacked while it compiles."""
    page, since = fresh_page, len(server.requested)
    with server.hold("/pyodide/pyodide.asm.wasm") as wasm:
        with page.expect_worker():
            page.goto(server.url(f"index.html?{QUERY}"))
        network = early_network(page)
        assert network["fast"], f"localhost measured at {network['bytesPerMs']:.0f} bytes/ms"
        for _ in range(LOAD_TIMEOUT_MS // 50):  # the three requests follow the measure at once
            if len(held_back(server, since)) == 3:
                break
            page.wait_for_timeout(50)
        assert held_back(server, since) == expected_held_back(runtime), "asked for while the runtime was held"
        wasm.set()
    wait_for_advice(page, QUERY)
    assert advisor_worker(page).evaluate("globalThis.runtimeFirstOpened") == "fast network"
    assert_same_advice(page, cpython(QUERY))


def test_on_a_slow_network_the_wheels_and_the_table_wait_for_the_runtime(
    fresh_page: Page, server, cpython, runtime: dict
) -> None:
    """The standard library sent over 1.5 s (at most 655 bytes/ms: slower than the phone's
    network gives it beside the runtime), so nothing held back is asked for before
    pyodide.asm.wasm is in: the runtime has the network to itself, and the gate opens when it is in."""
    page, since = fresh_page, len(server.requested)
    with server.slow("/runtime/python_stdlib.zip", 1.5), server.hold("/pyodide/pyodide.asm.wasm") as wasm:
        with page.expect_worker():
            page.goto(server.url(f"index.html?{QUERY}"))
        network = early_network(page)
        assert not network["fast"] and network["bytesPerMs"] < 700, network
        assert held_back(server, since) == [], "asked for before the runtime was in"
        wasm.set()
        wait_for_advice(page, QUERY)
    assert advisor_worker(page).evaluate("globalThis.runtimeFirstOpened") == "runtime in"
    assert sorted(set(held_back(server, since))) == expected_held_back(runtime)  # (the snapshot's worker may ask again)
    assert_same_advice(page, cpython(QUERY))
