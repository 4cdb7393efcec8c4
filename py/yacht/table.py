"""The table file: Ẽ(mask, ν) of one rule variant, compact and checksummed.

File name: ``yacht-<variant>.table`` (see ``file_name``).

Format version 1.0. A file is, in order:

1. Magic string, 8 bytes: ``b"\\x89YACHT\\r\\n"`` (a non-ASCII first byte and a
   CRLF catch text-mode mangling, as in PNG).
2. Format version, 2 bytes: major, minor (unsigned). This describes the file
   format, not the package version. A reader MUST reject a major version it
   does not know and SHOULD accept a higher minor version.
3. Header length ``H``, 4 bytes, unsigned little-endian.
4. Header, ``H`` bytes: a UTF-8 JSON object with keys sorted, holding
   ``variant`` (``"official"`` or ``"strict"``), ``layout``
   (``"upper-lower-nu"``), ``encoding`` (``"i4-delta2d-shuffle-deflate"``),
   ``scale`` (the fixed-point scale, an integer) and ``count`` (number of
   stored values).
5. Payload: a zlib (deflate) stream, up to the last 32 bytes.
6. Checksum, 32 bytes: the SHA-256 digest of every byte before it (magic,
   version, header and payload), so that any damaged byte is caught.

Layout ``upper-lower-nu``: one value per reachable state ``(mask, ν)``
except the full sheet (mask 4095, where Ẽ = 0), 178,752 values in all;
reachability as in ``states.REACHABLE``. States are grouped by the upper
part of the mask, ``u = mask & 63``, for u = 0, 1, …, 63. Group ``u`` is a
matrix ``Q[l, j]``: row ``l`` is the lower part ``mask >> 6`` (0–63, but
0–62 for u = 63), column ``j`` the j-th reachable ν of ``u`` in ascending
order. Groups follow one another; each is written column by column (j
outer, l inner).

Encoding ``i4-delta2d-shuffle-deflate``: each value is
``q = round(Ẽ × scale)`` (so a stored value is within ``0.5 / scale`` of the
solve). Within a group, ``q`` is differenced along ν (``D[l, j] = Q[l, j] −
Q[l, j − 1]``, ``D[l, 0] = Q[l, 0]``), then the result along the lower mask
(``D[l, j] − D[l − 1, j]``, row 0 kept): decoding is a cumulative sum
along ``l`` then along ``j``. The concatenated numbers are little-endian
int32, byte-shuffled (all first bytes, then all second bytes, …) and
deflated at level 9. A reader MUST verify the checksum, the decompressed
length (``4 × count``) and ``count`` before using any value.

Writing is deterministic: the same Ẽ gives the same bytes.
"""

import hashlib
import json
import struct
import zlib
from dataclasses import dataclass
from functools import cache
from typing import Final

import numpy as np

from .categories import FULL_MASK, N_CATEGORIES, N_UPPER
from .rules import VARIANTS
from .states import N_MASKS, N_NU, REACHABLE, REACHABLE_BY_UPPER

MAGIC: Final = b"\x89YACHT\r\n"
VERSION: Final = (1, 0)
LAYOUT: Final = "upper-lower-nu"
ENCODING: Final = "i4-delta2d-shuffle-deflate"
SCALE: Final = 1 << 17
"""Fixed-point scale: values are stored to within 2^-18 ≈ 3.8e-6."""

_STORED: Final = REACHABLE.copy()
_STORED[FULL_MASK] = False
STORED_COUNT: Final = int(_STORED.sum())
_DIGEST_SIZE: Final = 32


def _groups() -> list[tuple[np.ndarray, np.ndarray]]:
    """For u = 0–63: (masks (rows,), nus (columns,)) of group u in stored order."""
    groups = []
    for upper in range(1 << N_UPPER):
        masks = (np.arange(1 << (N_CATEGORIES - N_UPPER)) << N_UPPER) | upper
        masks = masks[masks != FULL_MASK]
        groups.append((masks, np.flatnonzero(REACHABLE_BY_UPPER[upper])))
    return groups


_GROUPS: Final = _groups()


@cache
def _decode_plan() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Index arrays that undo the layout with whole-array operations.

    Returns (column lengths, permutation from stored order to row order, row
    lengths, flat ``mask * 64 + ν`` of each value in row order), where
    "row order" lists each group row by row (l outer, ν inner).
    """
    column_lengths, row_lengths, permutation, flat = [], [], [], []
    start = 0
    for masks, nus in _GROUPS:
        rows, cols = len(masks), len(nus)
        column_lengths.append(np.full(cols, rows))
        row_lengths.append(np.full(rows, cols))
        permutation.append(start + np.arange(rows * cols).reshape(cols, rows).T.ravel())
        flat.append((masks[:, None] * N_NU + nus[None, :]).ravel())
        start += rows * cols
    return tuple(np.concatenate(parts) for parts in (column_lengths, permutation, row_lengths, flat))


def _segmented_cumsum(values: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Cumulative sums restarting at each segment (consecutive ``lengths``); int64, exact."""
    total = np.cumsum(values)
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    return total - np.repeat(total[starts] - values[starts], lengths)


class TableError(ValueError):
    """A table file that cannot be used; the message says what is wrong."""


@dataclass(frozen=True)
class Table:
    """Ẽ of one variant: ``tilde`` is (4096, 64) float64, indexed ``[mask, ν]``,
    NaN where unreachable."""

    variant: str
    tilde: np.ndarray


def file_name(variant: str) -> str:
    return f"yacht-{variant}.table"


def encode(variant: str, tilde: np.ndarray) -> bytes:
    """The table file for ``tilde`` (shape (4096, 64); only reachable entries are read)."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}")
    parts = []
    for masks, nus in _GROUPS:
        quantized = np.rint(tilde[np.ix_(masks, nus)] * SCALE).astype(np.int64)
        deltas = np.diff(np.diff(quantized, axis=1, prepend=0), axis=0, prepend=0)
        parts.append(deltas.T.ravel())
    deltas = np.concatenate(parts).astype("<i4")
    shuffled = deltas.view(np.uint8).reshape(-1, 4).T.tobytes()
    payload = zlib.compress(shuffled, 9)
    header = {
        "count": STORED_COUNT,
        "encoding": ENCODING,
        "layout": LAYOUT,
        "scale": SCALE,
        "variant": variant,
    }
    header_bytes = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    body = MAGIC + bytes(VERSION) + struct.pack("<I", len(header_bytes)) + header_bytes + payload
    return body + hashlib.sha256(body).digest()


def decode(data: bytes, *, source: str = "table") -> Table:
    """Read and verify a table file. Raises ``TableError`` naming ``source`` and the fault."""
    fixed = len(MAGIC) + 2 + 4
    if len(data) < len(MAGIC) or data[: len(MAGIC)] != MAGIC:
        raise TableError(f"{source}: not a Yacht table file (bad magic bytes)")
    if len(data) < fixed + _DIGEST_SIZE:
        raise TableError(f"{source}: truncated ({len(data)} bytes)")
    major, minor = data[len(MAGIC)], data[len(MAGIC) + 1]
    if major != VERSION[0]:
        raise TableError(f"{source}: format version {major}.{minor} is not supported (this reader: {VERSION[0]}.x)")
    body, digest = data[:-_DIGEST_SIZE], data[-_DIGEST_SIZE:]
    if hashlib.sha256(body).digest() != digest:
        raise TableError(f"{source}: checksum mismatch (the file is truncated or corrupted)")
    (header_len,) = struct.unpack("<I", data[len(MAGIC) + 2 : fixed])
    if len(body) < fixed + header_len:
        raise TableError(f"{source}: header length {header_len} runs past the end of the file")
    try:
        header = json.loads(data[fixed : fixed + header_len].decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise TableError(f"{source}: unreadable header ({e})") from None
    if not isinstance(header, dict):
        raise TableError(f"{source}: header is not a JSON object")
    expected = {"layout": LAYOUT, "encoding": ENCODING, "count": STORED_COUNT}
    for key, value in expected.items():
        if header.get(key) != value:
            raise TableError(f"{source}: header {key} is {header.get(key)!r}, expected {value!r}")
    variant, scale = header.get("variant"), header.get("scale")
    if variant not in VARIANTS:
        raise TableError(f"{source}: unknown variant {variant!r}")
    if not isinstance(scale, int) or scale <= 0:
        raise TableError(f"{source}: bad scale {scale!r}")
    payload = body[fixed + header_len :]
    try:
        shuffled = zlib.decompress(payload)
    except zlib.error as e:
        raise TableError(f"{source}: payload does not decompress ({e})") from None
    if len(shuffled) != 4 * STORED_COUNT:
        raise TableError(f"{source}: payload holds {len(shuffled)} bytes, expected {4 * STORED_COUNT}")
    deltas = np.frombuffer(shuffled, dtype=np.uint8).reshape(4, -1).T.copy().view("<i4").ravel()
    column_lengths, permutation, row_lengths, flat = _decode_plan()
    along_masks = _segmented_cumsum(deltas.astype(np.int64), column_lengths)
    quantized = _segmented_cumsum(along_masks[permutation], row_lengths)
    tilde = np.full(N_MASKS * N_NU, np.nan)
    tilde[flat] = quantized / scale
    tilde = tilde.reshape(N_MASKS, N_NU)
    tilde[FULL_MASK, REACHABLE[FULL_MASK]] = 0.0
    return Table(variant=variant, tilde=tilde)
