"""The page in WebKit and Firefox: the smoke scenarios of engine_smoke.py for each engine.

WebKit is WebKitGTK's MiniBrowser driven by WebKitWebDriver under an Xvfb of its own
(engine_webkit.py; Debian packages webkit2gtk-driver and xvfb); Firefox is firefox-esr driven
through WebDriver BiDi by puppeteer-core (engine_firefox.py). One browser per engine for the
module, on a fresh profile. A missing browser fails the tests, naming the packages to install.

For WebKit the page is served with engine_webkit.ERROR_WATCH in its head (WebDriver classic
cannot see the page's errors otherwise): ``page_errors`` reads what it kept.
"""

import importlib
from collections.abc import Iterator

import pytest

from . import engine_smoke
from .conftest import PUBLIC, SiteServer
from .engine_driver import EngineDriver

pytestmark = pytest.mark.browser

ENGINES = ["webkit", "firefox"]


def start(name: str, profile, server: SiteServer) -> tuple[EngineDriver, list]:
    """The engine's driver and the server's changes it needs for the module (to undo at the end)."""
    module = importlib.import_module(f".engine_{name}", __package__)
    problem = module.missing()
    if problem:
        pytest.fail(problem, pytrace=False)
    if name == "webkit":
        watched = module.with_error_watch((PUBLIC / "index.html").read_bytes())
        changes = [server.replace(path, watched) for path in ("/", "/index.html")]
        for change in changes:
            change.__enter__()
        try:
            return module.start_webkit(profile), changes
        except BaseException:
            for change in changes:
                change.__exit__(None, None, None)
            raise
    return module.start_firefox(profile), []


@pytest.fixture(scope="module", params=ENGINES)
def driver(request, server: SiteServer, tmp_path_factory) -> Iterator[EngineDriver]:
    name = request.param
    driver, changes = start(name, tmp_path_factory.mktemp(f"profile-{name}"), server)
    driver.set_viewport(390, 844)
    yield driver
    driver.close()
    for change in reversed(changes):
        change.__exit__(None, None, None)


@pytest.fixture
def checked(driver: EngineDriver) -> Iterator[EngineDriver]:
    """The module's driver; the test fails on any uncaught error the page showed meanwhile."""
    seen = len(driver.page_errors())
    yield driver
    assert driver.page_errors()[seen:] == [], f"{driver.name}: errors in the page"


def test_the_first_advice_of_each_kind_of_link_is_the_clis(checked, server, cpython, artifacts) -> None:
    engine_smoke.first_advice_of_links(checked, server, cpython, artifacts)


def test_a_second_visit_starts_python_from_the_snapshot(checked, server, cpython, runtime, artifacts) -> None:
    engine_smoke.warm_start(checked, server, cpython, runtime, artifacts)


def test_after_one_visit_the_page_advises_with_the_server_down(checked, server, cpython, artifacts) -> None:
    engine_smoke.offline_after_one_visit(checked, server, cpython, artifacts)


def test_playing_to_win_with_the_server_down_gives_an_estimate_then_the_exact_chance(
    checked, server, cpython, artifacts
) -> None:
    engine_smoke.play_to_win_offline(checked, server, cpython, artifacts)


def test_a_game_is_played_by_taps_to_its_result_and_resumed_after_a_reload(checked, server, artifacts) -> None:
    engine_smoke.game_played_and_resumed(checked, server, artifacts)


def test_the_japanese_page_on_a_small_phone_has_no_layout_fault(checked, server, artifacts) -> None:
    engine_smoke.japanese_phone_layout(checked, server, artifacts)


def test_no_uncaught_error_in_the_page(driver, server) -> None:
    engine_smoke.no_page_errors(driver, server)
