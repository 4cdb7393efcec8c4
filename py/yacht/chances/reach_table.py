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

Format version 1.0, the container of ``table`` (magic, version, header length,
header, payload, SHA-256 of all before it) with magic ``b"\\x89YREACH\\n"``. The
header (a UTF-8 JSON object, keys sorted) holds ``variant``, ``quantity``
(``"reach"`` or ``"law"``), ``mask`` (0–4094), ``layout`` (``"nu-k"``),
``encoding`` (``"u2-delta-shuffle-deflate"``), ``scale`` (65535) and ``count``
(the number of stored values).

Layout ``nu-k``: one row per canonical reachable ν of the mask
(``reach.canonical_states``: ν, except 0 where the bonus is out of reach),
ascending; row ν holds R for k = 1 … ``outcome.max_future(mask, ν)`` (R = 1 for
k ≤ 0 and 0 beyond, so neither is stored). Rows follow one another.

Encoding ``u2-delta-shuffle-deflate``: each value is ``q = round(R × 65535)``
(within 7.7e-6 of the solve; S likewise). R (and S) falls as k rises, so each row is stored as the
drops ``q[k − 1] − q[k]`` with ``q[0] = 65535``: little-endian uint16, every
one ≥ 0; the row is decoded by subtracting their running sum from 65535. The
numbers are byte-shuffled (all low bytes, then all high bytes) and deflated at
level 9. A reader MUST verify the checksum, every header field (the variant
quantity and mask it asked for among them), the decompressed length (``2 × count``,
inflating no more than that), and that no row's drops add up to more than
65535 (every value in 0–1, falling along k).

Writing is deterministic: the same R gives the same bytes.
"""

import zlib
from collections.abc import Callable
from functools import cache
from typing import Final

import numpy as np

from ..core.categories import FULL_MASK, N_CATEGORIES
from ..core.rules import VARIANTS, Variant
from ..core.states import N_NU
from ..core.table import TableError, container, inflate, open_container, read_header
from ..core.table_kinds import chunk_name as kind_chunk_name
from ..core.table_kinds import file_name as kind_file_name
from .outcome import canonical_nu, max_future
from .reach import canonical_states

MAGIC: Final = b"\x89YREACH\n"
VERSION: Final = (1, 0)
LAYOUT: Final = "nu-k"
ENCODING: Final = "u2-delta-shuffle-deflate"
QUANTITIES: Final = ("reach", "law")
SCALE: Final = 65535
"""Fixed-point scale: a stored chance is within 0.5 / 65535 ≈ 7.7e-6 of the solve."""


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


def encode_chunk(variant: str, mask: int, values: np.ndarray, quantity: str = "reach") -> bytes:
    """The chunk file of ``mask`` from its R, ``values`` (64, ≥ 1 + the longest row) indexed
    [ν, k] (``reach.empty_reach(...)[mask]``); only the stored entries are read."""
    if variant not in VARIANTS or not 0 <= mask < FULL_MASK or quantity not in QUANTITIES:
        raise ValueError(f"no chunk for variant {variant!r}, mask {mask}, quantity {quantity!r}")
    lengths = row_lengths(VARIANTS[variant], mask)
    rows = []
    for nu, length in zip(canonical_states(mask).tolist(), lengths.tolist(), strict=True):
        q = np.rint(values[nu, : length + 1] * SCALE).astype(np.int64)
        q[0] = SCALE
        rows.append(-np.diff(q))
    drops = np.concatenate(rows)
    if drops.min(initial=0) < 0:
        raise ValueError(f"mask {mask}: R rises along k")
    shuffled = drops.astype("<u2").view(np.uint8).reshape(-1, 2).T.tobytes()
    header = {
        "count": int(lengths.sum()),
        "encoding": ENCODING,
        "layout": LAYOUT,
        "mask": mask,
        "quantity": quantity,
        "scale": SCALE,
        "variant": variant,
    }
    return container(MAGIC, VERSION, header, zlib.compress(shuffled, 9))


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
    fields = (("variant", str), ("quantity", str), ("mask", int), ("layout", str), ("encoding", str))
    header = read_header(raw_header, source, (*fields, ("scale", int), ("count", int)))
    if (header["variant"], header["quantity"], header["mask"]) != (variant, quantity, mask):
        found = f"the {header['variant'][:20]} {header['quantity'][:20]} chunk of mask {header['mask']}"
        raise TableError(f"{source}: holds {found}, expected the {variant} {quantity} chunk of mask {mask}")
    lengths = row_lengths(VARIANTS[variant], mask)
    expected = {"layout": LAYOUT, "encoding": ENCODING, "scale": SCALE, "count": int(lengths.sum())}
    for key, value in expected.items():
        if header[key] != value:
            raise TableError(f"{source}: header {key} is {header[key]!r:.40}, expected {value!r}")
    shuffled = inflate(payload, 2 * int(lengths.sum()), source)
    drops = np.frombuffer(shuffled, dtype=np.uint8).reshape(2, -1).T.copy().view("<u2").ravel().astype(np.int64)
    width = int(lengths.max()) + 2
    values = np.zeros((N_NU, width))
    start = 0
    for nu, length in zip(canonical_states(mask).tolist(), lengths.tolist(), strict=True):
        q = SCALE - np.cumsum(drops[start : start + length])
        if length and q[-1] < 0:
            raise TableError(f"{source}: the row of ν {nu} falls below 0 (its drops add up to {SCALE - q[-1]})")
        values[nu, 0] = 1.0
        values[nu, 1 : length + 1] = q / SCALE
        start += length
    return Chunk(mask, values)
