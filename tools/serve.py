"""Serve ``public/`` on 127.0.0.1 as a static host does: content types and compression.

    .venv/bin/python tools/serve.py [PORT]      # what `make serve` runs (default port 8000)

``Handler`` is the one request handler, shared with the browser tests' and the benchmark's
servers, so that local use, the tests and the benchmark see what a phone sees from a host:

- ``MIME_TYPES``: the content types (``application/wasm`` for streaming compilation, the
  manifest's own type, …);
- compression: a file of a ``COMPRESSIBLE`` type is sent with ``Content-Encoding: br`` when
  the request's ``Accept-Encoding`` accepts it and the ``brotli`` package is installed, else
  ``gzip`` when accepted, else as it is; every answer for such a file says
  ``Vary: Accept-Encoding``, and ``Content-Length`` is the length of the bytes sent. Files
  that are already deflated (zip, wheel, table, png) are sent as they are, as hosts do.
  Compressed bodies are kept in memory per file version (path, size, mtime), so only the
  first request for a file pays for compressing it.
"""

import email.utils
import functools
import gzip
import http
import http.server
import io
import os
import sys
import threading
from pathlib import Path
from typing import Final

try:
    import brotli
except ImportError:  # optional (pyproject's dev extras install it): gzip only
    brotli = None

PUBLIC: Final = Path(__file__).resolve().parent.parent / "public"

MIME_TYPES: Final = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".table": "application/octet-stream",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}


COMPRESSIBLE: Final = frozenset({".html", ".js", ".mjs", ".css", ".json", ".wasm", ".webmanifest", ".svg"})
"""File extensions sent compressed; the others hold deflated data already."""

GZIP_LEVEL: Final = 6
BROTLI_QUALITY: Final = 9
"""Brotli's 11 takes half a minute on pyodide.asm.wasm (10 MB) for 13 % fewer bytes."""


def accepted_encodings(header: str | None) -> set[str]:
    """The codings an ``Accept-Encoding`` header accepts (lower case; ``q=0`` refuses one)."""
    accepted = set()
    for item in (header or "").split(","):
        coding, *params = (part.strip() for part in item.split(";"))
        q = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if coding and q > 0:
            accepted.add(coding.lower())
    return accepted


def choose_encoding(header: str | None, offered: tuple[str, ...] = ("br", "gzip")) -> str | None:
    """The first of ``offered`` (``"br"`` only with the brotli package) a request's
    ``Accept-Encoding`` accepts, or None (send as it is)."""
    accepted = accepted_encodings(header)
    for coding in offered:
        if (coding in accepted or "*" in accepted) and (coding != "br" or brotli is not None):
            return coding
    return None


def compress(data: bytes, encoding: str) -> bytes:
    if encoding == "br":
        return brotli.compress(data, quality=BROTLI_QUALITY)
    return gzip.compress(data, GZIP_LEVEL, mtime=0)


_compressed: dict[tuple[str, int, int, str], bytes] = {}
_compressed_lock = threading.Lock()


def compressed_file(path: str, stat: os.stat_result, encoding: str) -> bytes:
    """The bytes of ``path`` compressed with ``encoding``, computed once per file version."""
    key = (path, stat.st_size, stat.st_mtime_ns, encoding)
    with _compressed_lock:
        if key not in _compressed:
            for old in [k for k in _compressed if k[0] == path and k[3] == encoding]:
                del _compressed[old]
            with open(path, "rb") as f:
                _compressed[key] = compress(f.read(), encoding)
        return _compressed[key]


MAX_REQUEST_LINE: Final = 2 * 1024 * 1024 + 1024
"""The longest request line answered, in bytes: Chromium's URL limit (2 MiB) and the method
and version around it. ``http.server`` stops at 64 KiB (414), which a long game link passes."""


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = MIME_TYPES
    encodings: tuple[str, ...] = ("br", "gzip")
    """The content codings offered, preferred first (the phone benchmark offers gzip only)."""

    def send_head(self) -> io.BytesIO | io.BufferedReader | None:
        """As ``http.server``'s, but a file of a ``COMPRESSIBLE`` type is compressed as the client accepts."""
        path = self.translate_path(self.path)
        url_path = self.path.split("?", 1)[0].split("#", 1)[0]
        if url_path.endswith("/") and os.path.isfile(os.path.join(path, "index.html")):
            path = os.path.join(path, "index.html")  # "/" is index.html, compressed as it is
        elif url_path.endswith("/"):
            return super().send_head()
        if os.path.splitext(path)[1].lower() not in COMPRESSIBLE or not os.path.isfile(path):
            return super().send_head()  # directories (redirects, listings), other types, 404
        stat = os.stat(path)
        encoding = choose_encoding(self.headers.get("Accept-Encoding"), self.encodings)
        body = compressed_file(path, stat, encoding) if encoding else Path(path).read_bytes()
        if self.not_modified_since(stat):
            self.send_response(http.HTTPStatus.NOT_MODIFIED)
            self.send_header("Vary", "Accept-Encoding")
            self.end_headers()
            return None
        self.send_response(http.HTTPStatus.OK)
        self.send_header("Content-Type", self.guess_type(path))
        if encoding:
            self.send_header("Content-Encoding", encoding)
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(int(stat.st_mtime)))
        self.end_headers()
        return io.BytesIO(body)

    def not_modified_since(self, stat: os.stat_result) -> bool:
        """Whether the request's ``If-Modified-Since`` (and no ``If-None-Match``) covers the file's mtime."""
        since = self.headers.get("If-Modified-Since")
        if not since or "If-None-Match" in self.headers:
            return False
        try:
            when = email.utils.parsedate_to_datetime(since)
        except (TypeError, ValueError, IndexError, OverflowError):
            return False
        return when.tzinfo is not None and int(stat.st_mtime) <= when.timestamp()

    def handle_one_request(self) -> None:
        """As ``http.server``'s, but with request lines up to ``MAX_REQUEST_LINE`` bytes."""
        try:
            self.raw_requestline = self.rfile.readline(MAX_REQUEST_LINE + 1)
            if len(self.raw_requestline) > MAX_REQUEST_LINE:
                self.requestline = self.request_version = self.command = ""
                self.send_error(http.HTTPStatus.REQUEST_URI_TOO_LONG)
                return
            if not self.raw_requestline:
                self.close_connection = True
                return
            if not self.parse_request():
                return
            method = getattr(self, f"do_{self.command}", None)
            if method is None:
                self.send_error(http.HTTPStatus.NOT_IMPLEMENTED, f"Unsupported method ({self.command!r})")
                return
            method()
            self.wfile.flush()
        except TimeoutError as e:
            self.log_error("Request timed out: %r", e)
            self.close_connection = True


def parse_port(argv: list[str]) -> int | None:
    """The port ``argv`` names (its one argument; default 8000), or None after saying what is wrong."""
    if not argv:
        return 8000
    if len(argv) > 1 or not argv[0].isdigit() or not 0 < int(argv[0]) < 65536:
        print(f"error: PORT must be a number 1–65535, got {' '.join(argv)!r}", file=sys.stderr)
        return None
    return int(argv[0])


def bind(port: int) -> http.server.ThreadingHTTPServer | None:
    """A server of ``public/`` bound to 127.0.0.1:``port``, not serving yet, or None after saying
    why it cannot be (the port taken, say)."""
    handler = functools.partial(Handler, directory=str(PUBLIC))
    try:
        return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as e:
        print(
            f"error: cannot serve on 127.0.0.1:{port}: {e.strerror or e} (is another server there? "
            f"choose another port: make serve PORT=8001)",
            file=sys.stderr,
        )
        return None


def serve_public(server: http.server.ThreadingHTTPServer) -> None:
    """Serve ``public/`` with ``server`` (``bind``'s) until Ctrl+C, then close it."""
    with server:
        port = server.server_address[1]
        print(f"Serving {PUBLIC} on http://127.0.0.1:{port}/ (Ctrl+C stops)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass


def main(argv: list[str]) -> int:
    port = parse_port(argv)
    if port is None:
        return 2
    if not (PUBLIC / "index.html").exists():
        print(f"error: {PUBLIC} has no index.html: run `make site` first", file=sys.stderr)
        return 1
    server = bind(port)
    if server is None:
        return 1
    serve_public(server)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
