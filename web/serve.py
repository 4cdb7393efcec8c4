"""Serve ``public/`` on 127.0.0.1 with the content types the page needs.

    .venv/bin/python web/serve.py [PORT]      # what `make serve` runs (default port 8000)

``MIME_TYPES`` is the one list of content types, shared with the browser tests' and
the benchmark's servers (``application/wasm`` for streaming compilation, the
manifest's own type, …).
"""

import functools
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


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = MIME_TYPES


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
