"""The test server of the browser tests: ``public/`` on 127.0.0.1 with ``tools/serve.py``'s
handler (compressed as a host compresses), which can hold or fail chosen paths, answer them with
other bytes, send them slowly or fail every third request of a goal's files, and records the paths
it is asked for.
"""

import functools
import http.server
import os
import re
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = ROOT / "public"
LOAD_TIMEOUT_MS = int(os.environ.get("YACHT_TEST_TIMEOUT_MS", 120_000))
"""Loading Pyodide + NumPy takes seconds; allow for a slow, busy machine."""

sys.path.insert(0, str(ROOT / "tools"))
from serve import Handler  # noqa: E402  (the one handler, shared with `make serve`: types, compression)


class SiteServer(http.server.ThreadingHTTPServer):
    """``public/`` on 127.0.0.1; ``hold`` and ``fail`` change how chosen paths are answered."""

    daemon_threads = True

    def __init__(self, port: int = 0) -> None:
        handler = functools.partial(_Handler, directory=str(PUBLIC))
        super().__init__(("127.0.0.1", port), handler)
        self.held: dict[str, threading.Event] = {}
        self.failing: dict[str, int] = {}
        self.replaced: dict[str, bytes] = {}
        self.slowed: dict[str, float] = {}
        """Paths whose file is sent in pieces over that many seconds (``slow``): a slow network."""
        self.absent: tuple[str, ...] = ()
        """Path prefixes answered 404, as files not built yet (``missing``)."""
        self.requested: list[str] = []
        self.flaky = 0
        """Every ``flaky``-th request for a file a goal reads (a spread table, a chunk) fails with
        503 (0: none): a bad network."""
        self.goal_requests = 0
        self.snapshot: bytes | None = None
        """The warm start's snapshot new contexts are seeded with (``warm_snapshot``), served at
        ``SNAPSHOT_PATH``; posted there by the page that took it."""

    def url(self, path: str = "") -> str:
        return f"http://127.0.0.1:{self.server_port}/{path}"

    def handle_error(self, request, client_address) -> None:
        """A page closed while it was being answered (its context closed at the end of a test)
        is no error of the server's; any other exception is printed as usual."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)

    @contextmanager
    def hold(self, path: str) -> Iterator[threading.Event]:
        """Requests for ``path`` wait until the yielded event is set (at the latest on exit)."""
        gate = self.held[path] = threading.Event()
        try:
            yield gate
        finally:
            gate.set()
            del self.held[path]

    @contextmanager
    def fail(self, path: str, status: int = 503) -> Iterator[None]:
        """Requests for ``path`` are answered with ``status`` until the block ends."""
        self.failing[path] = status
        try:
            yield
        finally:
            del self.failing[path]

    @contextmanager
    def missing(self, prefixes: list[str]) -> Iterator[None]:
        """Requests for paths that start with any of ``prefixes`` are answered 404 until the block ends."""
        self.absent = tuple(prefixes)
        try:
            yield
        finally:
            self.absent = ()

    @contextmanager
    def slow(self, path: str, seconds: float) -> Iterator[None]:
        """Requests for ``path`` are answered with its file (200, no caching headers) sent in
        ``SLOW_PIECES`` pieces over ``seconds``, until the block ends: a slow network."""
        self.slowed[path] = seconds
        try:
            yield
        finally:
            del self.slowed[path]

    @contextmanager
    def replace(self, path: str, body: bytes) -> Iterator[None]:
        """Requests for ``path`` are answered with ``body`` (200, no caching headers) until the block ends."""
        self.replaced[path] = body
        try:
            yield
        finally:
            del self.replaced[path]


SLOW_PIECES = 10
"""How many pieces a ``slow`` path's file is sent in."""


SOURCES_PATH = "/web/page/"
"""Where the test server also serves the page's source modules (``web/page/**/*.js``), which the site
publishes only bundled (``public/app.js``): tests that import one module (test_formats) load it here."""


SNAPSHOT_PATH = "/__tests__/snapshot"
"""Where the test server takes (POST) and gives (GET) the snapshot contexts are seeded with."""


class _Handler(Handler):
    server: SiteServer

    def do_POST(self) -> None:
        if urlsplit(self.path).path != SNAPSHOT_PATH:
            self.send_error(405)
            return
        self.server.snapshot = self.rfile.read(int(self.headers["Content-Length"]))
        self.send_response(204)
        self.end_headers()

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        self.server.requested.append(path)
        if path == SNAPSHOT_PATH and self.server.snapshot is not None:
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(self.server.snapshot)))
            self.end_headers()
            self.wfile.write(self.server.snapshot)
            return
        if path.startswith(SOURCES_PATH):
            pages = ROOT / "web" / "page"
            source = (pages / path.removeprefix(SOURCES_PATH)).resolve()
            if pages not in source.parents or source.suffix != ".js" or not source.is_file():
                self.send_error(404)
                return
            body = source.read_bytes()
            self.send_response(200)
            self.send_header("Content-Type", "text/javascript")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if path in self.server.replaced:
            self._send(path, self.server.replaced[path])
            return
        if path in self.server.slowed:
            self._send(path, (PUBLIC / path.lstrip("/")).read_bytes(), self.server.slowed[path])
            return
        if path in self.server.failing:
            self.send_error(self.server.failing[path])
            return
        if self.server.absent and path.startswith(self.server.absent):
            self.send_error(404)
            return
        if self.server.flaky and re.search(r"\.(reach|law)/|\.spread\.table$", path):
            self.server.goal_requests += 1
            if self.server.goal_requests % self.server.flaky == 0:
                self.send_error(503)
                return
        if path in self.server.held:
            self.server.held[path].wait(timeout=LOAD_TIMEOUT_MS / 1000)
        super().do_GET()

    def _send(self, path: str, body: bytes, seconds: float = 0.0) -> None:
        """Answer 200 with ``body`` (no caching headers): at once, or in ``SLOW_PIECES`` pieces
        over ``seconds``."""
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        pieces = SLOW_PIECES if seconds else 1
        for piece in range(pieces):
            time.sleep(seconds / pieces)
            self.wfile.write(body[piece * len(body) // pieces : (piece + 1) * len(body) // pieces])

    def log_message(self, format: str, *args: object) -> None:
        pass
