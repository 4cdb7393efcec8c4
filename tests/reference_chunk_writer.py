"""A slow reference of ``yacht.chances.reach_table.encode_chunk``, as it was first written: one
row at a time, every candidate code's residuals in int64 and their bit lengths by ``np.frexp``.
The fast writer chooses every row's code of many chunks at once; the differential tests
(tests/test_chunk_writer.py) compare the bytes of the two."""

import zlib

import numpy as np
from yacht.chances.reach import canonical_states
from yacht.chances.reach_table import MAGIC, QUANTITIES, SCALE, VERSION, row_lengths
from yacht.core.categories import FULL_MASK
from yacht.core.rules import VARIANTS
from yacht.core.table import container

SHIFTS = np.arange(-6, 7)
WEIGHTS = np.arange(1, 17)
MARGIN = 8
ESCAPE = 255


def reference_encode_chunk(variant: str, mask: int, values: np.ndarray, quantity: str = "reach") -> bytes:
    """The chunk file of ``mask`` from ``values`` (64, ≥ 1 + the longest row) [ν, k], row by row."""
    if variant not in VARIANTS or not 0 <= mask < FULL_MASK or quantity not in QUANTITIES:
        raise ValueError(f"no chunk for variant {variant!r}, mask {mask}, quantity {quantity!r}")
    lengths = row_lengths(VARIANTS[variant], mask)
    rows = np.zeros((len(lengths) + 2, int(lengths.max(initial=0)) + 2 * MARGIN), dtype=np.int64)
    codes = np.zeros((len(lengths), 2), dtype=np.uint8)
    residuals = []
    for i, (nu, length) in enumerate(zip(canonical_states(mask).tolist(), lengths.tolist(), strict=True)):
        q = np.rint(values[nu, : length + 1] * SCALE).astype(np.int64)
        q[0] = SCALE
        drops = -np.diff(q)
        if drops.min(initial=0) < 0 or q[-1] < 0:
            raise ValueError(f"mask {mask}, ν {nu}: R rises along k or leaves 0–1")
        (order, base, shift, weight), residual = _codes(rows, i, drops)
        rows[i + 2, MARGIN : MARGIN + length] = drops
        codes[i] = (order | base << 2 | (shift + 8) << 4, weight)
        residuals.append(residual)
    signed = ((np.concatenate(residuals) + 32768) & 0xFFFF) - 32768
    zigzag = np.where(signed >= 0, 2 * signed, -2 * signed - 1)
    escapes = (zigzag[zigzag >= ESCAPE] - ESCAPE).astype("<u2").view(np.uint8).reshape(-1, 2).T
    body = codes.tobytes() + np.minimum(zigzag, ESCAPE).astype(np.uint8).tobytes() + escapes.tobytes()
    deflater = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_FILTERED)
    header = {"count": int(lengths.sum()), "mask": mask, "quantity": quantity, "variant": variant}
    return container(MAGIC, VERSION, header, deflater.compress(body) + deflater.flush())


def _bits(residuals: np.ndarray) -> np.ndarray:
    """(candidates,) Σ of the bit lengths of |residual| along the last axis."""
    return np.frexp(np.abs(residuals).astype(np.float64))[1].sum(axis=-1)


def _codes(rows: np.ndarray, i: int, drops: np.ndarray) -> tuple[tuple[int, int, int, int], np.ndarray]:
    """The code (order, base, shift, weight) of row i with the fewest residual bits, and its
    residual (n,) before the zigzag, given the rows before it (``rows``: row i at index 2 + i,
    drop j at column ``MARGIN`` + j). Candidates in order: b 0, b 1, then b 2 by weight, then shift."""
    n = len(drops)
    change = rows[i + 1] - rows[i]
    moved = change[np.arange(n)[None, :] + SHIFTS[:, None] + MARGIN]  # (shifts, n)
    corrections = (WEIGHTS[:, None, None] * moved[None] + 4) >> 3  # (weights, shifts, n)
    step = drops - rows[i + 1, MARGIN : MARGIN + n]
    targets = np.concatenate([drops[None], step[None], step[None] - corrections.reshape(-1, n)])
    best: tuple[int, int, int, np.ndarray] | None = None
    for order in range(4):
        if order == 3:
            targets = targets[:2]  # b = 2 stops at order 2
        if order:
            targets[:, 1:] = targets[:, 1:] - targets[:, :-1]  # Δ, in place (the right side first)
        bits = _bits(targets)
        j = int(np.argmin(bits))
        if best is None or bits[j] < best[0]:
            best = (int(bits[j]), order, j, targets[j].copy())
    _, order, j, residual = best
    if j < 2:
        return (order, j, 0, 0), residual
    weight, shift = divmod(j - 2, len(SHIFTS))
    return (order, 2, int(SHIFTS[shift]), int(WEIGHTS[weight])), residual
