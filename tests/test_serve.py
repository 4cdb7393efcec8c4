"""``web/serve.py``, the local server of ``make serve``: long links and content types."""

import http.client
import sys
import threading
from collections.abc import Iterator

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "web"))
import serve


@pytest.fixture(scope="module")
def port(tmp_path_factory) -> Iterator[int]:
    folder = tmp_path_factory.mktemp("site")
    (folder / "index.html").write_text("<!doctype html><title>t</title>")
    (folder / "a.wasm").write_bytes(b"\0asm")
    handler = lambda *args: serve.Handler(*args, directory=str(folder))  # noqa: E731
    server = serve.http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_port
    server.shutdown()
    server.server_close()


def get(port: int, path: str) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def test_a_long_game_link_is_served_not_refused_with_414(port):
    """``http.server`` alone answers 414 past 64 KiB; a 100 KB query must open the page."""
    response = get(port, "/index.html?h=" + "12345-1-12345a." * 7000)
    assert response.status == 200


def test_a_request_line_past_chromiums_url_limit_is_refused(port):
    assert get(port, "/index.html?q=" + "x" * (serve.MAX_REQUEST_LINE + 10)).status == 414


def test_wasm_is_served_with_its_content_type(port):
    assert get(port, "/a.wasm").getheader("Content-Type") == "application/wasm"
