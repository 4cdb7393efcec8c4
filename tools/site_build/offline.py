"""Steps 7 and 8, what lets the page install and work offline.

Writes the app's icons (``tools/icons.py``: ``icon.svg``, ``icon-192.png``, ``icon-512.png``,
``icon-maskable-512.png``) and its web app manifest ``public/manifest.webmanifest``, so a phone
can install the page; and ``public/precache.js``, read by the service worker ``sw.js``: every
URL the page needs to work offline (the page as ``./``, its scripts, data, manifest and icons,
the player's guide,
the Pyodide core files, ``runtime.js`` and the trimmed runtime (stdlib, lock file, NumPy wheel),
and our wheel and the tables fetched at start under the URLs build.json gives them) and a version
that is a hash of all their bytes: any change of any of them is a new version, a new service
worker and a new cache; and the tables fetched later (``kept``: files, and chunked kinds' folders),
which the service worker keeps once fetched.
"""

import hashlib
import json
from pathlib import Path
from typing import Final

import icons  # tools/icons.py (common puts tools/ on sys.path)

from .bundle import BUNDLES
from .common import PUBLIC, json_bytes, sha256_file, write_if_changed
from .data import kind_urls
from .guide import GUIDES
from .runtime import PYODIDE_FILES, RUNTIME_MODULE

APP_NAME: Final = "Yacht advisor"
THEME_COLOR: Final = "#0b62c4"
"""The page's accent blue (style.css ``--accent``): the installed app's title bar."""
BACKGROUND_COLOR: Final = "#eef1f5"
"""The page's background (style.css ``--bg``): the splash screen of the installed app."""
ICONS: Final = (
    ("icon.svg", "image/svg+xml", "any", "any"),
    ("icon-192.png", "image/png", "192x192", "any"),
    ("icon-512.png", "image/png", "512x512", "any"),
    ("icon-maskable-512.png", "image/png", "512x512", "maskable"),
)


def icon_bytes(name: str) -> bytes:
    if name == "icon.svg":
        return icons.svg().encode()
    size = int(name.rsplit("-", 1)[1].removesuffix(".png"))
    return icons.png(size, maskable="maskable" in name)


def manifest() -> dict:
    return {
        "name": APP_NAME,
        "short_name": "Yacht",
        "description": "Exact advice for every Yacht position, and a review of your games. Works offline.",
        "lang": "en",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [
            {"src": name, "type": kind, "sizes": sizes, "purpose": purpose} for name, kind, sizes, purpose in ICONS
        ],
    }


def write_app_files() -> None:
    for name, *_ in ICONS:
        write_if_changed(PUBLIC / name, icon_bytes(name))
    write_if_changed(PUBLIC / "manifest.webmanifest", json_bytes(manifest()))


PRECACHE_FILE: Final = "precache.js"
PAGE_FILES: Final = (
    *BUNDLES,
    "style.css",
    "rules.json",
    "build.json",
    *GUIDES,
    "manifest.webmanifest",
)


def precache_urls(build: dict, runtime: dict) -> dict[str, Path]:
    """Each URL the service worker precaches (relative to public/) and the file it serves."""
    urls = {"./": PUBLIC / "index.html"}
    for name in (*PAGE_FILES, *(icon for icon, *_ in ICONS)):
        urls[name] = PUBLIC / name
    for name in PYODIDE_FILES:
        urls[f"pyodide/{name}"] = PUBLIC / "pyodide" / name
    urls[RUNTIME_MODULE] = PUBLIC / RUNTIME_MODULE
    for url in (runtime["stdLibURL"], runtime["lockFileURL"], runtime["numpyURL"]):
        urls[url] = PUBLIC / url.split("?", 1)[0]
    start = [url for kind, k in build["kinds"].items() if k["fetch"] == "start" for url in kind_urls(build, kind)]
    for url in (build["wheel"]["url"], *start):
        urls[url] = PUBLIC / url.split("?", 1)[0]
    return urls


def kept_paths(build: dict) -> list[str]:
    """The files the service worker keeps once fetched, not precached (the table kinds fetched
    later than at start: when a goal needs them, when the coach is first asked), by path relative
    to public/; a chunked kind's as its folder (ending in ``/``)."""
    paths = set()
    for kind, description in build["kinds"].items():
        if description["fetch"] != "start":
            for url in kind_urls(build, kind):
                path = url.split("?", 1)[0]
                paths.add(path.rsplit("/", 1)[0] + "/" if description["chunked"] else path)
    return sorted(paths)


def precache_js(urls: dict[str, Path], kept: list[str]) -> bytes:
    """``self.PRECACHE = {version, urls, kept}``: the version hashes every URL and its file's
    bytes; ``kept`` (``kept_paths``) is kept once fetched."""
    digest = hashlib.sha256()
    for url in sorted(urls):
        digest.update(f"{url}\0{sha256_file(urls[url])}\n".encode())
    value = {"version": digest.hexdigest()[:16], "urls": sorted(urls), "kept": kept}
    return (
        "// Written by tools/build_site.py: what sw.js precaches (the version hashes every file's bytes).\n"
        f"self.PRECACHE = {json.dumps(value, indent=1)};\n"
    ).encode()
