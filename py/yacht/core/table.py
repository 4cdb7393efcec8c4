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
deflated at level 9. A reader MUST verify the checksum, the type and value of
every header field (``scale`` a JSON integer 1–2²⁴, the header at most 1,024
bytes), and the decompressed length (``4 × count``, inflating no more than
that) before using any value, and SHOULD check each decoded value against the
most its state could still score.

Writing is deterministic: the same Ẽ gives the same bytes.

Spread files, ``yacht-<variant>.spread.table`` (``spread_file_name``): the
same format, layout and encoding holding the standard deviation of the future
points of each state under the advisor's play (``spread``), with one more
header key, ``quantity`` = ``"sd"`` (a Ẽ file has no ``quantity``; each reader
rejects the other's files). ``encode_spread`` / ``decode_spread``.
"""

import hashlib
import json
import struct
import zlib
from functools import cache
from typing import Final, NamedTuple

import numpy as np

from .categories import BONUS_POINTS, FULL_MASK, N_CATEGORIES, N_UPPER
from .rules import VARIANTS, Variant, possible_scores
from .states import N_MASKS, N_NU, REACHABLE, REACHABLE_BY_UPPER
from .table_kinds import file_name as kind_file_name

MAGIC: Final = b"\x89YACHT\r\n"
VERSION: Final = (1, 0)
LAYOUT: Final = "upper-lower-nu"
ENCODING: Final = "i4-delta2d-shuffle-deflate"
SCALE: Final = 1 << 17
"""Fixed-point scale: values are stored to within 2^-18 ≈ 3.8e-6."""

SPREAD_SCALE: Final = 1 << 10
"""The spread file's scale: an sd is stored to within 2^-11 ≈ 0.0005 points. The sd enters the
normal law only beyond the exact range (sd above 5 points there), so this moves a chance by under
0.005 percentage points, far below the estimate's own error, and the two files are 164 kB
smaller on the wire than at ``SCALE`` (docs/benchmarks.md: a phone's CPU)."""

MAX_SCALE: Final = 1 << 24
"""The largest scale a reader accepts (values times the scale must fit the int64 sums)."""
MAX_HEADER_SIZE: Final = 1024
"""The longest header a reader accepts, in bytes (a version-1.0 header takes about 110)."""

_STORED: Final = REACHABLE.copy()
_STORED[FULL_MASK] = False
STORED_COUNT: Final = int(_STORED.sum())
_DIGEST_SIZE: Final = 32


@cache
def _groups() -> list[tuple[np.ndarray, np.ndarray]]:
    """For u = 0–63: (masks (rows,), nus (columns,)) of group u in stored order."""
    groups = []
    for upper in range(1 << N_UPPER):
        masks = (np.arange(1 << (N_CATEGORIES - N_UPPER)) << N_UPPER) | upper
        masks = masks[masks != FULL_MASK]
        groups.append((masks, np.flatnonzero(REACHABLE_BY_UPPER[upper])))
    return groups


N_LOWER: Final = 1 << (N_CATEGORIES - N_UPPER)
"""The lower parts of a mask, ``l = mask >> 6``: 64."""


@cache
def _stored_places() -> np.ndarray:
    """(STORED_COUNT,) int64: the flat index ``mask * 64 + ν`` of each stored value, in stored
    order (u outer, then ν, then l)."""
    uppers, nus = np.nonzero(REACHABLE_BY_UPPER)  # every group's columns: u outer, ν ascending
    masks = (np.arange(N_LOWER)[None, :] << N_UPPER) | uppers[:, None]  # (columns, l)
    return (masks * N_NU + nus[:, None])[masks != FULL_MASK]


def _undo_deltas(deltas: np.ndarray) -> np.ndarray:
    """(4096, 64) int64, indexed [mask, ν]: the stored values from their deltas (stored order),
    exact; meaningless where nothing is stored. The deltas go to their places in a (l, u, ν)
    array with zeros elsewhere; a cumulative sum along l undoes the differences along the lower
    mask, one along ν those along ν (the zeros between a group's reachable ν add nothing)."""
    dense = np.zeros(N_MASKS * N_NU, dtype=np.int64)
    dense[_stored_places()] = deltas
    dense = dense.reshape(N_LOWER, 1 << N_UPPER, N_NU)  # [l, u, ν]: mask = l << 6 | u
    np.cumsum(dense, axis=0, out=dense)
    np.cumsum(dense, axis=2, out=dense)
    return dense.reshape(N_MASKS, N_NU)


class TableError(ValueError):
    """A table file that cannot be used; the message says what is wrong."""


class Table(NamedTuple):
    """Ẽ of one variant: ``tilde`` is (4096, 64) float64, indexed ``[mask, ν]``,
    NaN where unreachable."""

    variant: str
    tilde: np.ndarray


def file_name(variant: str) -> str:
    return kind_file_name("table", variant)


def spread_file_name(variant: str) -> str:
    return kind_file_name("spread", variant)


def encode_spread(variant: str, sd: np.ndarray) -> bytes:
    """The spread file for ``sd`` (shape (4096, 64), see the module docstring), at ``SPREAD_SCALE``."""
    return encode(variant, sd, quantity="sd", scale=SPREAD_SCALE)


def decode_spread(data: bytes, *, source: str = "spread table", variant: str | None = None) -> np.ndarray:
    """Read and verify a spread file (checked as ``decode`` checks a table): (4096, 64) sd."""
    return decode(data, source=source, variant=variant, quantity="sd").tilde


def encode(variant: str, tilde: np.ndarray, quantity: str | None = None, scale: int = SCALE) -> bytes:
    """The table file for ``tilde`` (shape (4096, 64); only reachable entries are read).
    ``quantity``: ``None`` for Ẽ, else the header's ``quantity`` (a spread file); ``scale``: the
    fixed-point scale written in the header."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}")
    parts = []
    for masks, nus in _groups():
        quantized = np.rint(tilde[np.ix_(masks, nus)] * scale).astype(np.int64)
        deltas = np.diff(np.diff(quantized, axis=1, prepend=0), axis=0, prepend=0)
        parts.append(deltas.T.ravel())
    deltas = np.concatenate(parts).astype("<i4")
    shuffled = deltas.view(np.uint8).reshape(-1, 4).T.tobytes()
    payload = zlib.compress(shuffled, 9)
    header = {
        "count": STORED_COUNT,
        "encoding": ENCODING,
        "layout": LAYOUT,
        "scale": scale,
        "variant": variant,
    }
    if quantity is not None:
        header["quantity"] = quantity
    return container(MAGIC, VERSION, header, payload)


def decode(data: bytes, *, source: str = "table", variant: str | None = None, quantity: str | None = None) -> Table:
    """Read and verify a table file; with ``variant``, it must hold that variant's table.

    Everything in the file is treated as untrusted input: the checksum, every header
    field's type and range, the decompressed size (never more than ``4 × count`` bytes
    are inflated) and every decoded value (``0 ≤ Ẽ ≤`` the most the free categories
    and the bonus could still score) are checked. Raises ``TableError`` naming
    ``source`` and the fault.
    """
    raw_header, payload = open_container(data, source, MAGIC, VERSION)
    header_variant, scale = _read_header(raw_header, source, quantity)
    if variant is not None and header_variant != variant:
        raise TableError(f"{source}: holds the {header_variant} table, expected {variant}")
    quantized = _undo_deltas(_inflate(payload, source))
    bound = _max_future(VARIANTS[header_variant])[:, None] * scale
    bad = np.flatnonzero(_STORED & ((quantized < 0) | (quantized > bound + 1)))
    if bad.size:
        mask, nu = divmod(int(bad[0]), N_NU)
        raise TableError(
            f"{source}: {bad.size} stored values out of range, first at mask {mask}, ν {nu}: "
            f"{quantized[mask, nu] / scale:.6g} (possible: 0–{bound[mask, 0] / scale:g})"
        )
    tilde = quantized / scale
    tilde[~_STORED] = np.nan
    tilde[FULL_MASK, REACHABLE[FULL_MASK]] = 0.0
    return Table(variant=header_variant, tilde=tilde)


def container(magic: bytes, version: tuple[int, int], header: dict, payload: bytes) -> bytes:
    """A file of this module's container: magic, version, header length, the header (JSON,
    keys sorted, compact), the payload, then the SHA-256 of all that."""
    header_bytes = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    body = magic + bytes(version) + struct.pack("<I", len(header_bytes)) + header_bytes + payload
    return body + hashlib.sha256(body).digest()


def open_container(data: bytes, source: str, magic: bytes, version: tuple[int, int]) -> tuple[bytes, bytes]:
    """The raw header and the payload of a ``container`` file, after checking its magic,
    major version, checksum and header length; ``TableError`` naming ``source`` if not."""
    fixed = len(magic) + 2 + 4
    if len(data) < len(magic) or data[: len(magic)] != magic:
        raise TableError(f"{source}: not a Yacht table file (bad magic bytes)")
    if len(data) < fixed + _DIGEST_SIZE:
        raise TableError(f"{source}: truncated ({len(data)} bytes)")
    major, minor = data[len(magic)], data[len(magic) + 1]
    if major != version[0]:
        raise TableError(f"{source}: format version {major}.{minor} is not supported (expected {version[0]}.x)")
    body, digest = data[:-_DIGEST_SIZE], data[-_DIGEST_SIZE:]
    if hashlib.sha256(body).digest() != digest:
        raise TableError(f"{source}: checksum mismatch (the file is truncated or corrupted)")
    (header_len,) = struct.unpack("<I", data[len(magic) + 2 : fixed])
    if header_len > MAX_HEADER_SIZE:
        raise TableError(f"{source}: header length {header_len} is over the limit of {MAX_HEADER_SIZE} bytes")
    if len(body) < fixed + header_len:
        raise TableError(f"{source}: header length {header_len} runs past the end of the file")
    return data[fixed : fixed + header_len], body[fixed + header_len :]


def read_header(raw: bytes, source: str, fields: tuple[tuple[str, type], ...]) -> dict:
    """The header as a dict, after checking that it is a JSON object whose ``fields`` (name,
    type) have exactly that JSON type (a JSON true is not the integer 1)."""
    try:
        header = json.loads(raw.decode())
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise TableError(f"{source}: unreadable header ({type(e).__name__}: {str(e)[:80]})") from None
    if not isinstance(header, dict):
        raise TableError(f"{source}: header is not a JSON object")
    for key, kind in fields:
        value = header.get(key)
        if type(value) is not kind:  # exact: a JSON true is not the integer 1
            raise TableError(f"{source}: header {key} is {_shown(value)}, expected a JSON {kind.__name__}")
    return header


def _read_header(raw: bytes, source: str, quantity: str | None = None) -> tuple[str, int]:
    """The header's (variant, scale), after checking every field's type and value."""
    fields = (("variant", str), ("layout", str), ("encoding", str), ("scale", int), ("count", int))
    header = read_header(raw, source, fields)
    expected = {"layout": LAYOUT, "encoding": ENCODING, "count": STORED_COUNT}
    for key, value in expected.items():
        if header[key] != value:
            raise TableError(f"{source}: header {key} is {_shown(header[key])}, expected {value!r}")
    if header.get("quantity") != quantity:
        found, wanted = (_shown(q) if q else "Ẽ" for q in (header.get("quantity"), quantity))
        raise TableError(f"{source}: holds the quantity {found}, expected {wanted}")
    if header["variant"] not in VARIANTS:
        raise TableError(f"{source}: unknown variant {_shown(header['variant'])} (known: {', '.join(VARIANTS)})")
    if not 1 <= header["scale"] <= MAX_SCALE:
        raise TableError(f"{source}: header scale is {_shown(header['scale'])}, expected 1–{MAX_SCALE}")
    return header["variant"], header["scale"]


def _shown(value: object) -> str:
    """A header value as a message shows it: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def _inflate(payload: bytes, source: str) -> np.ndarray:
    """The payload's int32 deltas, inflating no more than the ``4 × count`` bytes promised."""
    return unshuffle(inflate(payload, 4 * STORED_COUNT, source), 4).view("<i4").ravel()


def unshuffle(shuffled: bytes, width: int) -> np.ndarray:
    """(n, width) uint8: the numbers of ``width`` bytes that ``shuffled`` holds byte-shuffled (all
    first bytes, then all second bytes, …), each row one number's bytes in order. Written one
    byte plane at a time: a transposing copy of the whole is three times slower in Pyodide."""
    planes = np.frombuffer(shuffled, dtype=np.uint8).reshape(width, -1)
    numbers = np.empty((planes.shape[1], width), dtype=np.uint8)
    for k in range(width):
        numbers[:, k] = planes[k]
    return numbers


def inflate(payload: bytes, expected: int, source: str, *, wbits: int = zlib.MAX_WBITS, at_most: bool = False) -> bytes:
    """A zlib stream (``wbits`` as zlib's: −15 for raw deflate) that must hold exactly ``expected``
    bytes, or with ``at_most`` no more than that, inflating no more than that."""
    inflater = zlib.decompressobj(wbits)
    try:
        shuffled = inflater.decompress(payload, expected)
        if len(shuffled) == expected and not inflater.eof:
            shuffled += inflater.decompress(inflater.unconsumed_tail, 1)
    except zlib.error as e:
        raise TableError(f"{source}: payload does not decompress ({e})") from None
    if len(shuffled) > expected:
        raise TableError(f"{source}: payload holds more than the {expected} bytes the header promises")
    if at_most and not inflater.eof:
        raise TableError(f"{source}: payload stream is cut short ({len(shuffled)} bytes inflated)")
    if not at_most and (len(shuffled) < expected or not inflater.eof):
        raise TableError(f"{source}: payload holds {len(shuffled)} bytes, expected {expected}")
    if inflater.unused_data:
        raise TableError(f"{source}: {len(inflater.unused_data)} bytes follow the payload")
    return shuffled


@cache
def _max_future(variant: Variant) -> np.ndarray:
    """(4096,) int64: the most the free categories of each mask could still score, plus
    the bonus while an upper category is free — an upper bound of Ẽ(mask, ·)."""
    most = np.array([scores[-1] for scores in possible_scores(variant)], dtype=np.int64)
    free = (~np.arange(N_MASKS)[:, None] >> np.arange(N_CATEGORIES)) & 1
    upper_free = (free[:, :N_UPPER].any(axis=1)).astype(np.int64)
    return free @ most + BONUS_POINTS * upper_free
