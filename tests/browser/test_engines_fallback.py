"""A start that finds damaged or foreign keeps, in WebKit and Firefox (engine_smoke.py's scenario
``damaged_keeps_fall_back``; Chromium's own tests are in test_warm_start.py): a snapshot that does
not start, bytes that are no snapshot, another build's snapshot, a damaged copy of NumPy's wheel
in the service worker's cache. One browser per engine for the module (test_engines.py's fixtures)."""

import pytest

from . import engine_smoke
from .test_engines import checked, driver  # noqa: F401 (the fixtures: one browser per engine, errors watched)

pytestmark = pytest.mark.browser


def test_damaged_or_foreign_keeps_fall_back_to_a_working_start(checked, server, cpython, runtime, artifacts) -> None:  # noqa: F811
    engine_smoke.damaged_keeps_fall_back(checked, server, cpython, runtime, artifacts)
