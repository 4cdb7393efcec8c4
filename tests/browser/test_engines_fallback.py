"""A start that finds damaged or foreign keeps, in WebKit and Firefox (engine_smoke.py's scenario
``damaged_keeps_fall_back``; Chromium's own tests are in test_warm_start.py): a snapshot that does
not start, bytes that are no snapshot, another build's snapshot, a damaged copy of NumPy's wheel
in the service worker's cache. One browser per engine for the module (test_engines.py's fixtures)."""

import pytest

from . import engine_firefox, engine_smoke
from .conftest import snapshot_url
from .test_engines import checked, driver  # noqa: F401 (the fixtures: one browser per engine, errors watched)

pytestmark = pytest.mark.browser


def test_damaged_or_foreign_keeps_fall_back_to_a_working_start(checked, server, cpython, runtime, artifacts) -> None:  # noqa: F811
    engine_smoke.damaged_keeps_fall_back(checked, server, cpython, runtime, artifacts)


@pytest.mark.slow
def test_ten_first_visits_in_fresh_firefox_profiles_each_save_a_snapshot(server, runtime, tmp_path) -> None:
    """Each first visit in a new Firefox profile saves this build's snapshot once its first advice
    is shown (a try that failed fails the test with its reason: engine_smoke.saved_snapshots)."""
    problem = engine_firefox.missing()
    if problem:
        pytest.fail(problem, pytrace=False)
    key = snapshot_url(server, runtime)
    for visit in range(10):
        firefox = engine_firefox.start_firefox(tmp_path / f"profile-{visit}")
        try:
            engine_smoke.open_link(firefox, server, engine_smoke.QUERY)
            assert firefox.evaluate(engine_smoke.RUNTIME_START) == "fresh"
            saved = engine_smoke.saved_snapshots(firefox, server, runtime)
            assert list(saved) == [key] and saved[key] > 10_000_000, (visit, saved)
        finally:
            firefox.close()
