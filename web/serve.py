"""Serve ``public/`` on 127.0.0.1 with the content types the page needs.

    .venv/bin/python web/serve.py [PORT]      # what `make serve` runs (default port 8000)

``MIME_TYPES`` is the one list of content types, shared with the browser tests' and
the benchmark's servers (``application/wasm`` for streaming compilation, the
manifest's own type, …).
"""

import functools
import http
import http.server
import sys
from pathlib import Path
from typing import Final

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


MAX_REQUEST_LINE: Final = 2 * 1024 * 1024 + 1024
"""The longest request line answered, in bytes: Chromium's URL limit (2 MiB) and the method
and version around it. ``http.server`` stops at 64 KiB (414), which a long game link passes."""


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = MIME_TYPES

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


def main(argv: list[str]) -> int:
    port = 8000
    if argv:
        if not argv[0].isdigit() or not 0 < int(argv[0]) < 65536:
            print(f"error: PORT must be a number 1–65535, got {argv[0]!r}", file=sys.stderr)
            return 2
        port = int(argv[0])
    if not (PUBLIC / "index.html").exists():
        print(f"error: {PUBLIC} has no index.html: run `make site` first", file=sys.stderr)
        return 1
    handler = functools.partial(Handler, directory=str(PUBLIC))
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        print(f"Serving {PUBLIC} on http://127.0.0.1:{port}/ (Ctrl+C stops)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
