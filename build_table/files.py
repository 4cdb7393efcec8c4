"""Writing the tables' files whole: a server that reads the tables' folder while ``build_table``
runs (``make serve`` serves the page before the extra kinds are built: tools/serve_first.py) sends
a file as it was or as it is, never half written, and a chunked kind's folder with one build's
chunks only."""

import shutil
from pathlib import Path


def write_bytes(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` whole or not at all: into a file beside it, then renamed over it,
    so that a server reading the tables' folder meanwhile never sends a file half written."""
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(data)
    partial.replace(path)
    return path


def swap_in(partial: Path, folder: Path) -> None:
    """Put the folder ``partial`` in the place of ``folder`` (renames: the old folder, if any, is
    moved aside first and then deleted; between the two renames the folder is absent, never mixed)."""
    old = folder.with_name(folder.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if folder.exists():
        folder.rename(old)
    partial.rename(folder)
    shutil.rmtree(old, ignore_errors=True)
