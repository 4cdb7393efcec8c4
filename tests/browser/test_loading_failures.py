"""The page when what it loads is missing, damaged or the wrong file: each case ends in a clear
message naming the step and the file, with Retry that recovers once the file is right again."""

import time

import pytest
from playwright.sync_api import Page, expect

from .conftest import PUBLIC
from .page_helpers import assert_same_advice, control, wait_for_advice

pytestmark = pytest.mark.browser

NUMPY_WHEEL = "numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl"


def expect_load_error(page: Page, *texts: str) -> None:
    expect(page.locator("html")).to_have_attribute("data-state", "error")
    error = page.get_by_test_id("error")
    for text in texts:
        expect(error).to_contain_text(text)
    expect(control(page, "button", "Retry")).to_be_visible()


def retry_gets_advice(page: Page, query: str, cpython) -> None:
    control(page, "button", "Retry").click()
    expect(page.locator("html")).to_have_attribute("data-state", "ready")
    wait_for_advice(page, query)
    expect(page.get_by_test_id("error")).to_be_hidden()
    assert_same_advice(page, cpython(query))


def test_the_strict_table_served_as_the_official_one_is_refused(warm_page: Page, server, cpython) -> None:
    """Once shown: 225.3394 (strict) under "Official" for d=66666&r=3 (225.3611 is right)."""
    page, query = warm_page, "s=,,,,,,,,,,,&d=66666&r=3"
    strict = (PUBLIC / "tables" / "yacht-strict.table").read_bytes()
    with server.replace("/tables/yacht-official.table", strict):
        page.goto(server.url(f"index.html?{query}"))
        expect_load_error(page, "Could not load the advisor (Table)", "holds the strict table, expected official")
        expect(page.locator("[data-testid=option]")).to_have_count(0)
    retry_gets_advice(page, query, cpython)


@pytest.mark.parametrize(("status", "body"), [(404, None), (500, None), (200, "truncated")])
def test_a_missing_or_damaged_runtime_is_named_not_loading_forever(
    fresh_page: Page, server, cpython, status: int, body: str | None
) -> None:
    page, query = fresh_page, "s=,,,,,,,,,,,&d=12345&r=1"
    path = "/pyodide/pyodide.asm.wasm"
    if body == "truncated":
        whole = (PUBLIC / "pyodide" / "pyodide.asm.wasm").read_bytes()
        failure, reason = server.replace(path, whole[: len(whole) // 3]), "pyodide.asm.wasm: "
    else:
        failure, reason = server.fail(path, status), f"pyodide.asm.wasm: HTTP {status}"
    with failure:
        page.goto(server.url(f"index.html?{query}"))
        expect_load_error(page, "Could not load the advisor (Python runtime (Pyodide))", reason)
        expect(page.locator("#steps")).to_contain_text("Python runtime (Pyodide): failed")
    retry_gets_advice(page, query, cpython)


def test_a_numpy_wheel_that_fails_gives_a_plain_message_with_the_details_folded(
    warm_page: Page, server, cpython, runtime
) -> None:
    page, query = warm_page, "s=,,,,,,,,,,,&d=12345&r=1"
    with server.fail("/" + runtime["numpyURL"], 503):
        page.goto(server.url(f"index.html?{query}"))
        expect_load_error(page, "(NumPy)", f"{NUMPY_WHEEL}: NumPy could not be loaded (Failed to fetch)")
        shown = page.get_by_test_id("error").inner_text()
        assert "micropip" not in shown and "Traceback" not in shown
        details = page.locator("#error-details")
        expect(details).to_be_visible()
        expect(details.locator("pre")).to_be_hidden()  # folded until asked for
        details.locator("summary").click()
        expect(details.locator("pre")).to_contain_text("No module named 'numpy'")
    retry_gets_advice(page, query, cpython)


def test_a_damaged_package_wheel_names_the_file(warm_page: Page, server, cpython) -> None:
    page, query = warm_page, "s=,,,,,,,,,,,&d=12345&r=1"
    with server.replace("/py/yacht_advisor-0.1.0-py3-none-any.whl", b"PK\x03\x04 not really a zip"):
        page.goto(server.url(f"index.html?{query}"))
        expect_load_error(page, "(Advisor package)", "yacht_advisor-0.1.0-py3-none-any.whl: not a readable wheel")
        assert "Traceback" not in page.get_by_test_id("error").inner_text()
    retry_gets_advice(page, query, cpython)


def test_a_damaged_package_wheel_read_while_numpy_is_awaited_leaves_no_unhandled_rejection(
    warm_page: Page, server, runtime
) -> None:
    """A start from the snapshot waits for NumPy's wheel before it reads ours: the package's
    failure, which comes first here, is reported by the package step and never as a script error
    (an unhandled rejection failed CI once, when NumPy's wheel came late). Checked by warm_page's
    teardown, which fails on any script error of the page or its workers."""
    page, query = warm_page, "s=,,,,,,,,,,,&d=12345&r=1"
    wheel = "/py/yacht_advisor-0.1.0-py3-none-any.whl"
    with server.replace(wheel, b"PK\x03\x04 not really a zip"), server.hold("/" + runtime["numpyURL"]) as numpy:
        page.goto(server.url(f"index.html?{query}"))
        # NumPy's wheel comes only once ours has been served and the restore waits for NumPy's
        # (worker-numpy.js: numpySteps.wanted), so that the package's failure comes first.
        deadline = time.monotonic() + 60
        while not (wheel in server.requested and wanted(page)) and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        assert wheel in server.requested, "the worker never asked for our wheel"
        assert wanted(page), "the start from the snapshot never came to need NumPy's wheel"
        numpy.set()
        expect_load_error(page, "(Advisor package)", "yacht_advisor-0.1.0-py3-none-any.whl: not a readable wheel")


def wanted(page: Page) -> bool:
    """Whether the page's worker, restoring the snapshot, has come to wait for NumPy's wheel."""
    workers = [w for w in page.workers if w.url.split("?")[0].endswith("/worker.js")]
    return bool(workers) and workers[-1].evaluate("globalThis.numpySteps?.wanted !== undefined")


def test_a_worker_that_fails_before_the_page_script_runs_is_reported(warm_page: Page, server, cpython) -> None:
    """index.html starts the worker before the modules load: a failure that early is not lost."""
    page, query = warm_page, "s=,,,,,,,,,,,&d=12345&r=1"
    with server.fail("/worker.js", 404):
        page.goto(server.url(f"index.html?{query}"))
        expect_load_error(page, "Could not load the advisor (Python runtime (Pyodide))", "worker.js")
    assert server.requested.count("/worker.js") >= 1
    retry_gets_advice(page, query, cpython)
