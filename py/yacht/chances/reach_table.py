"""The chunk files: per rule variant and mask, a chance along k of each state (mask, ν).

Two quantities (``QUANTITIES``), each a folder beside the tables (``folder_name``):
``yacht-<variant>.reach/`` holds R(mask, ν, k) (``reach``: the largest chance
that the points still to come reach k, each k played for itself) and
``yacht-<variant>.law/`` holds S(mask, ν, k) (``law.solve_law_states``: the
chance that they reach k under the advisor's play, the law of the future
points). One file per mask that is not the full sheet, ``<mask as three
lowercase hex digits>.chunk`` (``chunk_name``): 4,095 files per folder. A
position with mask m needs the chunks of the masks ``m | 1 << c`` for its free
categories c only (``chunks_for``); an opponent's law, the law chunk of their mask.

Format version 2.0 (``VERSION``; this is the file format, not the package
version). A chunk file is, in order (the container of ``core.table``):

1. Magic string, 8 bytes: ``b"\\x89YREACH\\n"``.
2. Format version, 2 bytes: major 2, minor 0. A reader MUST refuse another
   major version (1.0 included) and SHOULD accept a higher minor one.
3. Header length ``H``, 4 bytes, unsigned little-endian (at most 1,024).
4. Header, ``H`` bytes: a UTF-8 JSON object, keys sorted, no spaces, holding
   exactly ``count`` (the number of stored values, a JSON integer),
   ``mask`` (0–4094), ``quantity`` (``"reach"`` or ``"law"``) and ``variant``
   (``"official"`` or ``"strict"``). Layout, encoding and scale are those of
   the format version and are not stored.
5. Payload: a raw deflate stream (RFC 1951: no zlib header or Adler-32; zlib's
   ``wbits = -15``), up to the last 32 bytes.
6. Checksum, 32 bytes: the SHA-256 of every byte before it.

Rows: one per canonical reachable ν of the mask (``reach.canonical_states``:
ν, except 0 where the bonus is out of reach), ascending, N rows; row i holds R
for k = 1 … n_i, n_i = ``outcome.max_future(mask, ν)`` (R = 1 for k ≤ 0 and 0
beyond, so neither is stored), count = Σ n_i. Each value is
``q = round(R × 65535)`` (``SCALE``: within 7.7e-6 of the solve; S likewise),
and row i is stored as its drops ``d_i[j] = q(j) − q(j + 1)`` (q(k): the value at k), j = 0 … n_i − 1,
with q(0) = 65535: each 0–65535, since R falls as k rises.

Prediction: let W = max n_i, ``D_i`` row i's drops followed by zeros up to W
columns, and D_{−1} = D_{−2} = 0. Each row has a code (o, b, s, a): order o
(0–3), base b (0–2), shift s (−8 … 7) and weight a (0–255, the weight a / 8),
and a prediction p_i[j] = 0 (b = 0), D_{i−1}[j] (b = 1), or D_{i−1}[j] +
⌊(a · (D_{i−1} − D_{i−2})[j + s] + 4) / 8⌋ (b = 2; the difference read as 0
where j + s is outside 0 … W − 1): the change from row i − 2 to row i − 1,
moved s columns and weighted, predicts the change from row i − 1 to row i.
The residual of row i is ``Δ^o (d_i − p_i)``, where Δx[j] = x[j] − x[j − 1]
with x[−1] = 0, reduced modulo 65536 to a signed 16-bit integer r, zigzagged:
z = 2r for r ≥ 0, −2r − 1 otherwise (0–65535). A reader undoes it with o
running sums of r along the row and d_i = (that + p_i) mod 65536, row after row.

The inflated payload is, in order:

a. Row codes, 2 N bytes: per row, ``o | b << 2 | (s + 8) << 4``, then a
   (b < 2: written with s = 0 and a = 0, and ignored).
b. Residuals, count bytes: min(z, 255) of every value, row after row.
c. Escapes, 2 E bytes, E the number of bytes 255 in (b): for each of them, in
   order, z − 255 as uint16 little-endian, byte-shuffled (the E low bytes,
   then the E high bytes).

A reader MUST verify, before using any value: the checksum; every header field's
JSON type and value (the variant, quantity and mask it asked for; count = Σ n_i);
that the payload inflates to exactly 2 N + count + 2 E bytes with nothing after
the stream (inflating no more than 2 N + 3 count); that every code's base is
0–2; and that no row's drops add up to more than 65535 (every value in 0–1, not
rising along k).

Writing is deterministic: the same R gives the same bytes. The writer (``encode_chunk``)
tries, for each row, b 0 and 1 with o 0–3 and b 2 with o 0–2, s −6 … 6 and a 1 … 16, and
keeps the code whose residuals have the fewest bits (Σ of the bit lengths of |r|; a tie goes
to the lower order, then the lower base, weight, shift); it deflates at level 9, memLevel 9,
strategy ``Z_FILTERED``. A row's candidates predict from the drops of the rows before it,
known before any code is chosen, so ``encode_chunks`` weighs every candidate of every row of
many chunks at once (rows of one length together, in float32, exact for these integers) and
writes each chunk's bytes as ``encode_chunk`` alone would. A reader depends on none of these
choices.
"""

import zlib
from collections.abc import Callable, Mapping
from functools import cache
from typing import Final

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..core.categories import FULL_MASK, N_CATEGORIES
from ..core.rules import VARIANTS, Variant
from ..core.states import N_NU
from ..core.table import TableError, container, inflate, open_container, read_header
from ..core.table_kinds import chunk_name as kind_chunk_name
from ..core.table_kinds import file_name as kind_file_name
from .outcome import canonical_nu, max_future
from .reach import canonical_states

MAGIC: Final = b"\x89YREACH\n"
VERSION: Final = (2, 0)
QUANTITIES: Final = ("reach", "law")
SCALE: Final = 65535
"""Fixed-point scale: a stored chance is within 0.5 / 65535 ≈ 7.7e-6 of the solve."""

_SHIFTS: Final = np.arange(-6, 7)
"""The shifts s the writer tries (the format allows −8 … 7)."""
_WEIGHTS: Final = np.arange(1, 17)
"""The weights a the writer tries: a / 8 = 0.125 … 2."""
_MARGIN: Final = 8
"""Zero columns on each side of the rows in ``_padded``: a shift reads 0 outside the rows."""
_WIDE: Final = 6
"""Zero columns on each side of the writer's changes (``_stacked``): the shifts it tries."""
_BLOCK: Final = 1 << 16
"""Candidate residuals (rows × shifts × n, float32) per order and weight the writer weighs at
once: its buffer of the three orders' is about 0.8 MB, within a core's cache."""
_NOT_TRIED: Final = 1 << 30
"""The bits of the codes the writer does not try (b 2 with o 3): more than any it does."""
_ESCAPE: Final = 255
_WBITS: Final = -15
"""Raw deflate: no zlib header or Adler-32 (the SHA-256 checks every byte)."""


def folder_name(variant: str, quantity: str = "reach") -> str:
    return kind_file_name(quantity, variant)


def chunk_name(mask: int) -> str:
    return kind_chunk_name(mask)


def chunks_for(mask: int) -> list[int]:
    """The masks whose chunks an answer at ``mask`` needs: one more category filled, except
    the full sheet (``FULL_CHUNK``, not stored)."""
    return [mask | 1 << c for c in range(N_CATEGORIES) if not mask >> c & 1 and mask | 1 << c != FULL_MASK]


@cache
def row_lengths(variant: Variant, mask: int) -> np.ndarray:
    """(rows,) the stored length of each row of ``mask``'s chunk: max_future(mask, ν)."""
    return np.array([max_future(variant, mask, nu) for nu in canonical_states(mask).tolist()], dtype=np.int64)


def _padded(lengths: np.ndarray) -> np.ndarray:
    """Zeros for a chunk's drops as they are written or read: (2 + rows, margin + W + margin)
    int64, row i at index 2 + i (0 and 1: the zero rows −2 and −1), drop j at column margin + j,
    zeros past each row's end (W: the longest row)."""
    return np.zeros((len(lengths) + 2, int(lengths.max(initial=0)) + 2 * _MARGIN), dtype=np.int64)


def encode_chunk(variant: str, mask: int, values: np.ndarray, quantity: str = "reach") -> bytes:
    """The chunk file of ``mask`` from its R, ``values`` (64, ≥ 1 + the longest row) indexed
    [ν, k] (``reach.empty_reach(...)[mask]``); only the stored entries are read."""
    return encode_chunks(variant, {mask: values}, quantity)[0]


def encode_chunks(variant: str, chunks: Mapping[int, np.ndarray], quantity: str = "reach") -> list[bytes]:
    """``encode_chunk`` of each mask → values of ``chunks``, in their order. Each row's
    prediction reads the drops of the rows before it, known before any code is chosen, so
    the codes of every row of every chunk are chosen together (``_chosen``)."""
    for mask in chunks:
        if variant not in VARIANTS or not 0 <= mask < FULL_MASK or quantity not in QUANTITIES:
            raise ValueError(f"no chunk for variant {variant!r}, mask {mask}, quantity {quantity!r}")
    if not chunks:
        return []
    drops = [_drops(variant, mask, values) for mask, values in chunks.items()]
    stacked, lengths, firsts = _stacked(drops, [row_lengths(VARIANTS[variant], mask) for mask in chunks])
    codes, residuals = _chosen(stacked, lengths)
    files = []
    for mask, first, rows in zip(chunks, firsts, drops, strict=True):
        part = slice(first, first + len(rows))
        stored = np.arange(residuals.shape[1]) < lengths[part, None]
        order, base, shift, weight = codes[part].T
        code_bytes = np.stack([order | base << 2 | (shift + 8) << 4, weight], axis=1).astype(np.uint8)
        files.append(_file(variant, mask, quantity, code_bytes, residuals[part][stored]))
    return files


def chunk_for_variant(data: bytes, variant: str, mask: int, quantity: str) -> bytes:
    """``data``, the chunk file of ``mask`` and ``quantity`` written for another variant, as
    ``encode_chunk`` writes it for ``variant`` from the same values: the same payload under
    ``variant``'s header. For a mask whose rest of the game is the same in both variants (its
    rows, their lengths and values are the same); ValueError if ``data`` is not that chunk
    (another mask or quantity, a count other than ``variant``'s rows, a bad checksum)."""
    try:
        raw_header, payload = open_container(data, "chunk", MAGIC, VERSION)
        header = read_header(raw_header, "chunk", (("count", int), ("mask", int), ("quantity", str)))
    except TableError as e:
        raise ValueError(str(e)) from None
    count = int(row_lengths(VARIANTS[variant], mask).sum())
    if (header["mask"], header["quantity"], header["count"]) != (mask, quantity, count):
        raise ValueError(f"not the {quantity} chunk of mask {mask} with {count} values: {header}")
    return container(MAGIC, VERSION, {**header, "variant": variant}, payload)


def stored_values(values: np.ndarray) -> np.ndarray:
    """R as a chunk stores it, round(R × 65535) / 65535: what ``decode_chunk`` gives back, bit for bit."""
    return np.rint(values * SCALE) / SCALE


def _drops(variant: str, mask: int, values: np.ndarray) -> np.ndarray:
    """(rows, W) int64 the drops of each row of ``mask``'s chunk (``q = round(R × 65535)`` with
    q(0) = 65535, zero past the row's end), W its longest row; ValueError naming the first row
    whose R rises along k or leaves 0–1."""
    lengths = row_lengths(VARIANTS[variant], mask)
    width = int(lengths.max(initial=0))
    stored = np.arange(width + 1) <= lengths[:, None]
    nus = canonical_states(mask)
    q = np.rint(np.where(stored, values[nus, : width + 1], 0.0) * SCALE).astype(np.int64)
    q[:, 0] = SCALE
    drops = np.where(stored[:, 1:], q[:, :-1] - q[:, 1:], 0)
    bad = (drops < 0).any(axis=1) | (q[np.arange(len(lengths)), lengths] < 0)
    if bad.any():
        raise ValueError(f"mask {mask}, ν {nus[np.argmax(bad)]}: R rises along k or leaves 0–1")
    return drops


def _stacked(drops: list[np.ndarray], lengths: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """The chunks' ``drops`` in one array (rows, W) int64, W their longest row, each chunk after
    two zero rows (its rows −2 and −1); the length of each row (0: the zero rows), and the
    index of each chunk's first row."""
    firsts = (np.cumsum([2 + len(rows) for rows in drops]) - [len(rows) for rows in drops]).tolist()
    stacked = np.zeros((firsts[-1] + len(drops[-1]), max(rows.shape[1] for rows in drops)), dtype=np.int64)
    every = np.zeros(len(stacked), dtype=np.int64)
    for first, rows, n in zip(firsts, drops, lengths, strict=True):
        stacked[first : first + len(rows), : rows.shape[1]] = rows
        every[first : first + len(rows)] = n
    return stacked, every, firsts


def _chosen(stacked: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The code of each row of ``_stacked``'s with the fewest residual bits, (rows, 4) int64
    [row, (order, base, shift, weight)], and its residuals before the zigzag (rows, W) int64,
    zero past the row's end: rows of one length n together, in blocks of about ``_BLOCK``
    candidate residuals per weight, given the row before each and the change from the row two
    before to it (rows, _WIDE + n + _WIDE), drop j at column _WIDE + j, 0 outside 0 … W − 1."""
    codes = np.zeros((len(lengths), 4), dtype=np.int64)
    residuals = np.zeros(stacked.shape, dtype=np.int64)
    for n in np.unique(lengths[lengths > 0]).tolist():
        rows = np.flatnonzero(lengths == n)
        size, read = max(1, _BLOCK // (len(_SHIFTS) * n)), min(n + _WIDE, stacked.shape[1])
        for block in (rows[i : i + size] for i in range(0, len(rows), size)):
            drops, before = stacked[block, :n], stacked[block - 1, :n]
            change = np.zeros((len(block), n + 2 * _WIDE), dtype=np.int64)
            change[:, _WIDE : _WIDE + read] = stacked[block - 1, :read] - stacked[block - 2, :read]
            codes[block] = _block_codes(drops, before, change)
            residuals[block, :n] = _residuals(drops, before, change, codes[block])
    return codes, residuals


def _block_codes(drops: np.ndarray, before: np.ndarray, change: np.ndarray) -> np.ndarray:
    """(rows, 4) the codes of rows of one length n: ``drops`` and ``before`` (rows, n), ``change``
    (rows, n + 2 _WIDE). Every candidate's bits (``_bit_sum``: all plus 126 n), ``bits`` (order,
    candidate, row), then the first of the fewest in the order of the module docstring's
    tie-break: order, then b 0, b 1, b 2 by weight, then shift. The residuals are float32
    (exact: |r| < 2²⁰). b 2's come from Δ being linear: Δ^o (step − moved correction) = Δ^o step
    − the same move of Δ^o correction, except in the first o columns, where the moved
    correction's columns before 0 read 0 (``_head_bits`` puts their bits right). The corrections
    of each order and weight are one flat array, rows of n + 2 _WIDE one after the other, so that
    a shift is a flat view and the residuals of a weight's every order and shift one subtraction
    (the last 2 _WIDE columns of each row, not the row's, left out of the bits)."""
    (rows, n), step = drops.shape, drops - before
    bits = np.full((4, 2 + len(_WEIGHTS) * len(_SHIFTS), rows), _NOT_TRIED, dtype=np.int32)
    plain = np.stack([drops, step]).astype(np.float32)  # b 0, b 1: (2, rows, n)
    for order in range(4):
        bits[order, :2] = _bit_sum(plain.copy(), n)
        plain[..., 1:] = plain[..., 1:] - plain[..., :-1]
    size = rows * change.shape[1]
    flat = np.zeros((3, len(_WEIGHTS), size + 2 * _WIDE), dtype=np.float32)
    corrections = flat[..., :size].reshape(3, len(_WEIGHTS), *change.shape)  # (orders, weights, rows, n + 2 _WIDE)
    targets = np.zeros((3, *change.shape), dtype=np.float32)
    corrections[0] = (_WEIGHTS[:, None, None].astype(np.int32) * change.astype(np.int32) + 4) >> 3
    targets[0, :, :n] = step
    for order in (1, 2):
        for array in (corrections, targets):
            array[order, ..., 0] = array[order - 1, ..., 0]
            np.subtract(array[order - 1, ..., 1:], array[order - 1, ..., :-1], out=array[order, ..., 1:])
    moved = as_strided(flat, (len(_WEIGHTS), 3, len(_SHIFTS), size), (flat.strides[1], flat.strides[0], 4, 4))
    residual = np.empty((3, len(_SHIFTS), size), dtype=np.float32)
    for w in range(len(_WEIGHTS)):
        np.subtract(targets.reshape(3, 1, size), moved[w], out=residual)
        bits[:3, 2 + w * len(_SHIFTS) : 2 + (w + 1) * len(_SHIFTS)] = _bit_sum(
            residual.reshape(3, len(_SHIFTS), *change.shape), n
        )
    bits[1:3, 2:] += _head_bits(targets, corrections).reshape(2, -1, rows)
    order, j = np.divmod(np.argmin(bits.reshape(-1, rows), axis=0), bits.shape[1])
    weight, shift = np.divmod(j - 2, len(_SHIFTS))
    tried = j >= 2
    return np.stack(
        [order, np.minimum(j, 2), np.where(tried, _SHIFTS[shift], 0), np.where(tried, _WEIGHTS[weight], 0)], axis=1
    )


def _head_bits(targets: np.ndarray, corrections: np.ndarray) -> np.ndarray:
    """(orders 1 and 2, weights, shifts, rows) what b 2's bits gain in their first two columns
    from the residuals Δ^o (step − moved correction) in place of those ``_block_codes`` took,
    Δ^o step − the move of Δ^o correction (the columns 1 of order 1 are the same in both)."""
    n = min(targets.shape[2] - 2 * _WIDE, 2)
    head = np.ascontiguousarray(corrections[..., : len(_SHIFTS) + n])
    moved = as_strided(head, (*head.shape[:3], len(_SHIFTS), n), (*head.strides, head.strides[3]))
    taken = targets[:, None, :, None, :n] - moved  # (orders, weights, rows, shifts, ≤ 2)
    both = np.stack([taken[1:], taken[:1].repeat(2, axis=0)])  # [taken, right] of orders 1 and 2
    both[1, ..., 1:] -= np.array([1, 2])[:, None, None, None, None] * taken[0, ..., :1]
    taken_bits, right_bits = _bit_sum(both, n)  # (orders, weights, rows, shifts) each
    return (right_bits - taken_bits).swapaxes(2, 3)


def _bit_sum(residuals: np.ndarray, n: int) -> np.ndarray:
    """126 n + Σ of the bit lengths of |r| along the first n of the last axis of float32
    integers (|r| < 2²³), which it overwrites: the float32 |r| + 0.5 is exact, and its exponent
    field is 126 + the bit length of |r| (126 n is the same for every candidate of a row)."""
    np.abs(residuals, out=residuals)
    residuals += 0.5
    fields = residuals.view(np.int32)
    fields >>= 23
    return fields[..., :n].sum(axis=-1, dtype=np.int32)


def _residuals(drops: np.ndarray, before: np.ndarray, change: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """(rows, n) int64 each row's residuals under its code (``_chosen``'s arguments)."""
    order, base, shift, weight = codes.T
    n = drops.shape[1]
    moved = np.take_along_axis(change, np.arange(n) + (shift + _WIDE)[:, None], axis=1)
    residual = drops - np.where(base[:, None] > 0, before, 0) - ((weight[:, None] * moved + 4) >> 3)
    for k in range(1, 4):
        rows = order >= k
        residual[rows, 1:] = residual[rows, 1:] - residual[rows, :-1]
    return residual


def _file(variant: str, mask: int, quantity: str, codes: np.ndarray, residuals: np.ndarray) -> bytes:
    """The chunk file of ``codes`` (rows, 2) uint8 and ``residuals`` (count,), row after row."""
    signed = ((residuals + 32768) & 0xFFFF) - 32768
    zigzag = np.where(signed >= 0, 2 * signed, -2 * signed - 1)
    escapes = (zigzag[zigzag >= _ESCAPE] - _ESCAPE).astype("<u2").view(np.uint8).reshape(-1, 2).T
    body = codes.tobytes() + np.minimum(zigzag, _ESCAPE).astype(np.uint8).tobytes() + escapes.tobytes()
    deflater = zlib.compressobj(9, zlib.DEFLATED, _WBITS, 9, zlib.Z_FILTERED)
    header = {"count": len(residuals), "mask": mask, "quantity": quantity, "variant": variant}
    return container(MAGIC, VERSION, header, deflater.compress(body) + deflater.flush())


class Chunk:
    """R of one mask, decoded: ``values`` (64, width) float64 indexed [canonical ν, k],
    k = 0 … width − 1 (1 at k = 0, 0 in the last column and past each row's end)."""

    def __init__(self, mask: int, values: np.ndarray) -> None:
        self.mask = mask
        self.values = values

    def at(self, nus: np.ndarray, needs: np.ndarray) -> np.ndarray:
        """R(mask, ν, need) for arrays of any ν (made canonical here) and any need (broadcast)."""
        nus = canonical_nu(np.full(np.shape(nus), self.mask), np.asarray(nus))
        return self.values[nus, np.clip(needs, 0, self.values.shape[1] - 1)]


def _full_chunk() -> Chunk:
    values = np.zeros((N_NU, 2))
    values[:, 0] = 1.0
    return Chunk(FULL_MASK, values)


FULL_CHUNK: Final = _full_chunk()
"""R of the full sheet: 1 for a need of 0 or less, else 0 (no file)."""


def chunk_of(chunks: dict[int, Chunk], mask: int) -> Chunk:
    """The chunk of ``mask`` among ``chunks`` (the loaded ``chunks_for`` of a sheet), or ``FULL_CHUNK``."""
    return FULL_CHUNK if mask == FULL_MASK else chunks[mask]


Reach = Callable[[dict[str, list[int]]], dict[str, dict[int, Chunk]]]
"""A loader of chunks: quantity ("reach", "law") → masks, to the same → {mask: ``Chunk``}
(``loader.Tables.chunks_of`` of one variant)."""


def decode_chunk(
    data: bytes, *, variant: str, mask: int, quantity: str = "reach", source: str = "reach chunk"
) -> Chunk:
    """Read and verify the chunk of ``variant``'s ``mask`` (untrusted input: see the module
    docstring); ``TableError`` naming ``source`` and the fault."""
    raw_header, payload = open_container(data, source, MAGIC, VERSION)
    fields = (("count", int), ("mask", int), ("quantity", str), ("variant", str))
    header = read_header(raw_header, source, fields)
    if len(header) != len(fields):
        extra = sorted(set(header) - {name for name, _ in fields})
        raise TableError(f"{source}: header holds other keys than {', '.join(n for n, _ in fields)}: {extra!r:.60}")
    if (header["variant"], header["quantity"], header["mask"]) != (variant, quantity, mask):
        found = f"the {header['variant'][:20]} {header['quantity'][:20]} chunk of mask {header['mask']}"
        raise TableError(f"{source}: holds {found}, expected the {variant} {quantity} chunk of mask {mask}")
    lengths = row_lengths(VARIANTS[variant], mask)
    n_rows, count = len(lengths), int(lengths.sum())
    if header["count"] != count:
        raise TableError(f"{source}: header count is {header['count']!r:.40}, expected {count}")
    body = inflate(payload, 2 * n_rows + 3 * count, source, wbits=_WBITS, at_most=True)
    codes, zigzag = _read_body(body, n_rows, count, source)
    drops = _decoded_rows(codes, zigzag, lengths)
    totals = drops.sum(axis=1)
    over = np.flatnonzero(totals > SCALE)
    if over.size:
        nu = canonical_states(mask)[over[0]]
        raise TableError(f"{source}: the row of ν {nu} falls below 0 (its drops add up to {totals[over[0]]})")
    drops[np.arange(n_rows), lengths] = SCALE - totals  # one more drop: 0 past each row's end
    values = np.zeros((N_NU, drops.shape[1] + 1))
    values[canonical_states(mask), 1:] = (SCALE - np.cumsum(drops, axis=1, out=drops)) / SCALE
    values[canonical_states(mask), 0] = 1.0
    return Chunk(mask, values)


def _read_body(body: bytes, n_rows: int, count: int, source: str) -> tuple[np.ndarray, np.ndarray]:
    """The inflated payload's parts, after checking its length and every code's base: the codes
    (4, rows) int64 [(order, base, shift, weight), row] and the zigzagged residuals (count,) int64."""
    if len(body) < 2 * n_rows + count:
        raise TableError(f"{source}: payload holds {len(body)} bytes, expected at least {2 * n_rows + count}")
    raw = np.frombuffer(body, dtype=np.uint8)
    low = raw[2 * n_rows : 2 * n_rows + count]
    escaped = np.flatnonzero(low == _ESCAPE)
    expected = 2 * n_rows + count + 2 * len(escaped)
    if len(body) != expected:
        raise TableError(f"{source}: payload holds {len(body)} bytes, expected {expected}")
    zigzag = low.astype(np.int64)
    if escaped.size:
        high = raw[2 * n_rows + count :].reshape(2, -1).astype(np.int64)
        zigzag[escaped] += high[0] | high[1] << 8
    first = raw[: 2 * n_rows : 2].astype(np.int64)
    codes = np.empty((4, n_rows), dtype=np.int64)
    codes[0], codes[1], codes[2], codes[3] = first & 3, first >> 2 & 3, (first >> 4) - 8, raw[1 : 2 * n_rows : 2]
    bad = np.flatnonzero(codes[1] > 2)
    if bad.size:
        raise TableError(f"{source}: row {bad[0]} has base {codes[1, bad[0]]}, expected 0–2")
    return codes, zigzag


def _decoded_rows(codes: np.ndarray, zigzag: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """(rows, W + 1) int64 the drops of every row, zero past its end: the residuals un-zigzagged
    and summed along their row as many times as its order (all rows at once), then each row
    plus its prediction from the rows before it, modulo 65536."""
    width = int(lengths.max())
    steps = np.zeros((len(lengths), width), dtype=np.int64)
    steps[np.arange(width)[None, :] < lengths[:, None]] = (zigzag >> 1) ^ -(zigzag & 1)
    for order in range(1, 4):
        rows = codes[0] >= order
        if rows.any():
            steps[rows] = np.cumsum(steps[rows], axis=1)  # |sums| < 2⁴⁰; past a row's end: never read
    drops = _padded(lengths)
    eighths = (steps << 3) + 4  # ⌊(a·change + 4) / 8⌋ + step = ⌊(a·change + 8·step + 4) / 8⌋
    for i, (n, base, shift, weight) in enumerate(zip(lengths.tolist(), *codes[1:].tolist(), strict=True)):
        if base == 2:  # in place: one array for the whole sum
            moved = slice(_MARGIN + shift, _MARGIN + shift + n)
            step = np.subtract(drops[i + 1, moved], drops[i, moved])
            step *= weight
            step += eighths[i, :n]
            step >>= 3
            step += drops[i + 1, _MARGIN : _MARGIN + n]
        else:
            step = steps[i, :n] + drops[i + 1, _MARGIN : _MARGIN + n] if base else steps[i, :n]
        np.bitwise_and(step, 0xFFFF, out=drops[i + 2, _MARGIN : _MARGIN + n])
    return drops[2:, _MARGIN : _MARGIN + width + 1]
