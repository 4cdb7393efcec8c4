"""What the site build's steps share: the repository's paths, ``BuildError`` and the writing of a
file only when its bytes change. Writes nothing itself."""

import hashlib
import json
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parents[2]
TOOLS: Final = ROOT / "tools"
PUBLIC: Final = ROOT / "public"
CACHE: Final = ROOT / ".cache"


class BuildError(Exception):
    """A step that cannot go on; the message says what to do."""


def write_if_changed(path: Path, data: bytes) -> bool:
    """Write ``data`` unless ``path`` already holds it (keeps mtimes, so HTTP caches stay valid)."""
    if path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    return True


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def json_bytes(value: object) -> bytes:
    return (json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n").encode()


def versioned_url(path: Path) -> str:
    """``path`` relative to public/, with a content hash as its query (cache busting)."""
    return f"{path.relative_to(PUBLIC).as_posix()}?h={sha256_file(path)[:16]}"
