"""The site as a host serves it under a sub-path (GitHub Pages: https://<owner>.github.io/<repo>/):
every URL the page, its worker and its service worker use is relative, so it gets advice there."""

import functools
import http.server
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect
from serve import Handler

from .conftest import PUBLIC, serving
from .page_helpers import assert_same_advice, wait_for_advice

pytestmark = pytest.mark.browser

PREFIX = "/yacht-advisor/"
QUERY = "s=3,,9,,,18,,,,,30,&d=14466&r=2"


class SubPathServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), functools.partial(_SubPathHandler, directory=str(PUBLIC)))
        self.outside: list[str] = []


class _SubPathHandler(Handler):
    """``public/`` at PREFIX; any other path is 404 and recorded."""

    server: SubPathServer

    def translate_path(self, path: str) -> str:
        if not urlsplit(path).path.startswith(PREFIX):
            self.server.outside.append(path)
            return str(PUBLIC / "no such file")
        return super().translate_path("/" + path.removeprefix(PREFIX))

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def sub_path_server(site) -> Iterator[SubPathServer]:
    yield from serving(SubPathServer())


def test_under_a_sub_path_the_page_gives_advice_and_its_service_worker_takes_it(
    make_context, sub_path_server, cpython
) -> None:
    context = make_context(service_workers="allow")
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{sub_path_server.server_port}{PREFIX}?{QUERY}")
    expect(page.locator("html")).to_have_attribute("data-state", "ready")
    wait_for_advice(page, QUERY)
    assert_same_advice(page, cpython(QUERY))
    scope = page.evaluate("navigator.serviceWorker.ready.then((registration) => registration.scope)")
    assert urlsplit(scope).path == PREFIX
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    assert sub_path_server.outside == [], "requested outside the sub-path"
