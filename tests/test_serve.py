"""``tools/serve.py``, the local server of ``make serve``: long links, content types, compression."""

import gzip
import http.client
import sys
import threading
from collections.abc import Iterator

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import serve

WASM = b"\0asm\1\0\0\0" + bytes(range(256)) * 64
ZIP = b"PK\3\4" + bytes(range(256)) * 64


@pytest.fixture(scope="module")
def port(tmp_path_factory) -> Iterator[int]:
    folder = tmp_path_factory.mktemp("site")
    (folder / "index.html").write_text("<!doctype html><title>t</title>")
    (folder / "a.wasm").write_bytes(WASM)
    (folder / "a.zip").write_bytes(ZIP)
    handler = lambda *args: serve.Handler(*args, directory=str(folder))  # noqa: E731
    server = serve.http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_port
    server.shutdown()
    server.server_close()


def get(port: int, path: str, **headers: str) -> http.client.HTTPResponse:
    """The response (its body read into ``response.body``)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", path, headers={k.replace("_", "-"): v for k, v in headers.items()})
    response = connection.getresponse()
    response.body = response.read()
    connection.close()
    return response


def test_a_long_game_link_is_served_not_refused_with_414(port):
    """``http.server`` alone answers 414 past 64 KiB; a 100 KB query must open the page."""
    response = get(port, "/index.html?h=" + "12345-1-12345a." * 7000)
    assert response.status == 200


def test_a_request_line_past_chromiums_url_limit_is_refused(port):
    assert get(port, "/index.html?q=" + "x" * (serve.MAX_REQUEST_LINE + 10)).status == 414


def test_the_site_root_is_index_html_compressed_as_index_html_is(port):
    """`/` (the manifest's start_url, a typed address) is sent as `/index.html` is: gzipped."""
    root = get(port, "/", Accept_Encoding="gzip")
    index = get(port, "/index.html", Accept_Encoding="gzip")
    assert root.status == index.status == 200
    assert root.getheader("Content-Encoding") == index.getheader("Content-Encoding") == "gzip"
    assert root.getheader("Content-Type") == index.getheader("Content-Type")
    assert gzip.decompress(root.body) == gzip.decompress(index.body) == b"<!doctype html><title>t</title>"


def test_wasm_is_served_with_its_content_type(port):
    assert get(port, "/a.wasm").getheader("Content-Type") == "application/wasm"


def test_wasm_is_sent_gzipped_with_its_content_type_vary_and_the_sent_length(port):
    response = get(port, "/a.wasm", Accept_Encoding="gzip, deflate")
    assert response.getheader("Content-Encoding") == "gzip"
    assert response.getheader("Content-Type") == "application/wasm"
    assert response.getheader("Vary") == "Accept-Encoding"
    assert int(response.getheader("Content-Length")) == len(response.body) < len(WASM)
    assert gzip.decompress(response.body) == WASM


def test_brotli_is_preferred_when_accepted():
    brotli = pytest.importorskip("brotli", reason="brotli is in pyproject's dev extras")
    assert serve.choose_encoding("gzip, deflate, br") == "br"
    assert serve.choose_encoding("br;q=0, gzip") == "gzip"
    assert serve.choose_encoding("identity") is None
    assert serve.choose_encoding(None) is None
    assert serve.choose_encoding("gzip, br", offered=("gzip",)) == "gzip"
    assert brotli.decompress(serve.compress(WASM, "br")) == WASM


def test_a_brotli_answer_carries_its_coding_and_length(port):
    brotli = pytest.importorskip("brotli", reason="brotli is in pyproject's dev extras")
    response = get(port, "/a.wasm", Accept_Encoding="gzip, br")
    assert response.getheader("Content-Encoding") == "br"
    assert int(response.getheader("Content-Length")) == len(response.body)
    assert brotli.decompress(response.body) == WASM


def test_without_accept_encoding_the_file_is_sent_as_it_is(port):
    response = get(port, "/a.wasm")
    assert response.getheader("Content-Encoding") is None
    assert response.getheader("Vary") == "Accept-Encoding"  # a cache must not give this copy to a gzip client
    assert response.body == WASM and int(response.getheader("Content-Length")) == len(WASM)


def test_a_refused_coding_is_not_used(port):
    response = get(port, "/a.wasm", Accept_Encoding="gzip;q=0")
    assert response.getheader("Content-Encoding") is None and response.body == WASM


def test_already_deflated_files_are_sent_as_they_are(port):
    response = get(port, "/a.zip", Accept_Encoding="gzip, br")
    assert response.getheader("Content-Encoding") is None and response.body == ZIP


def test_an_unchanged_compressed_file_is_answered_304(port):
    first = get(port, "/index.html", Accept_Encoding="gzip")
    again = get(port, "/index.html", Accept_Encoding="gzip", If_Modified_Since=first.getheader("Last-Modified"))
    assert again.status == 304 and again.body == b""
