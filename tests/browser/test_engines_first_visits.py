"""Firefox saves the warm start's snapshot on every first visit: ten fresh profiles (a new browser
each, on an empty profile folder), each visit starting Python afresh, advising as the CLI does and
saving its snapshot (engine_smoke.saved_snapshots: the try's end, waited for past the worker's own
limit). Every visit is made and the test names each one that saved none, with why. Slow: Firefox
is started ten times; WebKit's automation sessions keep nothing between starts to compare with."""

import pytest

from . import engine_smoke
from .conftest import snapshot_url
from .engine_firefox import missing, start_firefox

pytestmark = [pytest.mark.browser, pytest.mark.slow]

FIRST_VISITS = 10


def test_ten_first_visits_in_fresh_firefox_profiles_save_ten_snapshots(server, cpython, runtime, tmp_path) -> None:
    problem = missing()
    if problem:
        pytest.fail(problem, pytrace=False)
    key, query = snapshot_url(server, runtime), engine_smoke.QUERY
    answer = cpython(query)
    unsaved = {}
    for visit in range(1, FIRST_VISITS + 1):
        driver = start_firefox(tmp_path / f"profile-{visit}")
        try:
            driver.set_viewport(390, 844)
            engine_smoke.open_link(driver, server, query)
            assert driver.evaluate(engine_smoke.RUNTIME_START) == "fresh", f"visit {visit}: not a first visit"
            engine_smoke.assert_cores_advice(driver, query, answer)
            try:
                saved = engine_smoke.saved_snapshots(driver, server, runtime)
            except AssertionError as error:
                unsaved[visit] = str(error)
                continue
            assert list(saved) == [key] and saved[key] > 10_000_000, f"visit {visit}: {saved}"
            assert driver.page_errors() == [], f"visit {visit}: errors in the page"
        finally:
            driver.close()
    assert not unsaved, f"{len(unsaved)} of {FIRST_VISITS} first visits saved no snapshot: {unsaved}"
