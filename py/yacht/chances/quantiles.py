"""The quantiles file: the chunks' two curves, S (``law``) and R (``reach``), of every state in
a few numbers each, which stand in for the chunks when they cannot be fetched (``EstimatedReach``).

Per state s = (mask, canonical ν) and curve C(s, k) (C = S or R: the chance that the points still
to come reach k, 1 at k = 0, not rising with k), the file keeps the points k_j where C falls
through the chances p_j = Φ(z_j), z_j in ``LEVELS`` (14 for S, 20 for R, their p_j about evenly
spaced between 0.994 and 0.006; k_j: the crossing of the line between C at the two whole k around
it). A reader rebuilds C(s, k) = Φ(z(k)) (``rebuilt``), z(k) the monotone cubic through the
(k_j, z_j) (``monotone_cubic``), straight beyond the end knots, C = 1 at k = 0 and 0 beyond the
most the state can still score. Between two knots both C and its rebuilding lie between their
p_j, so a rebuilt chance is within the largest step of the p_j (0.056 for R, 0.080 for S), and of
the half point a k_j is rounded by, of the chunks' at every k; the mixtures a normal law misses
(the upper bonus, the Yacht's 50) move the k_j. A t= or o= answer on the rebuilt curves is
measured against the one on the chunks in docs/mathematics.md ("Without the chunks").

File name: ``yacht-<variant>.quantiles`` (``file_name``). Format version 1.0 (``VERSION``; the
file format, not the package version). A file is, in order (the container of ``core.table``):

1. Magic string, 8 bytes: ``b"\\x89YQUANT\\n"``.
2. Format version, 2 bytes: major 1, minor 0. A reader MUST refuse another major version and
   SHOULD accept a higher minor one.
3. Header length ``H``, 4 bytes, unsigned little-endian (at most 1,024).
4. Header, ``H`` bytes: a UTF-8 JSON object, keys sorted, no spaces, holding exactly ``count``
   (the number of rows, a JSON integer: 112,718) and ``variant`` (``"official"`` or
   ``"strict"``). Levels, resolution and layout are those of the format version.
5. Payload: a zlib stream (deflate with its header and Adler-32), up to the last 32 bytes.
6. Checksum, 32 bytes: the SHA-256 of every byte before it.

Rows: one per state of a mask with at least 4 free categories (``MIN_FREE``: the states an
estimate reads), masks ascending and within a mask its reachable canonical ν
(``reach.canonical_states``) ascending; N rows (112,718). Row i holds W = 34 numbers: S's
k_0 … k_13, then R's k_0 … k_19 (k_j ascending), each as q = round(k × ``RESOLUTION``), whole
points (within half a point). Coding: each curve as its first q then the gaps q_j − q_{j−1}
(≥ 0); those W numbers are differenced from the previous row's (row −1: zeros), zigzagged
(z = 2r for r ≥ 0, −2r − 1 otherwise), written as little-endian uint16 and byte-shuffled (every
low byte, then every high byte): the inflated payload is 2 W N bytes.

A reader MUST verify, before using any value: the checksum; every header field's JSON type and
value (the variant it asked for, count = N); that the payload inflates to exactly 2 W N bytes
with nothing after it (inflating no more than that); that every first q and every gap is at
least 0 and no k_j is more than a point beyond the most its state can score. Writing is
deterministic: the same chunks give the same bytes (``encode``, deflate level 9).
"""

import math
import zlib
from collections.abc import Callable
from functools import cache
from typing import Final

import numpy as np

from ..core.categories import FULL_MASK, N_CATEGORIES
from ..core.rules import VARIANTS, Variant
from ..core.states import N_NU, POPCOUNT, REACHABLE
from ..core.table import TableError, container, inflate, open_container, read_header
from ..core.table_kinds import file_name as kind_file_name
from .outcome import canonical_nu
from .reach import canonical_states, max_future_table
from .reach_table import Chunk, stored_values

MAGIC: Final = b"\x89YQUANT\n"
VERSION: Final = (1, 0)
LEVELS: Final = {
    "law": np.array([2.5, 1.48, 1.04, 0.75, 0.51, 0.3, 0.1, -0.1, -0.3, -0.51, -0.75, -1.04, -1.48, -2.5]),
    "reach": np.array(
        [
            2.5,
            1.64,
            1.26,
            1.01,
            0.81,
            0.64,
            0.48,
            0.34,
            0.2,
            0.07,
            -0.07,
            -0.2,
            -0.34,
            -0.48,
            -0.64,
            -0.81,
            -1.01,
            -1.26,
            -1.64,
            -2.5,
        ]
    ),
}
"""Per curve, the z_j whose chances Φ(z_j) it is cut at, descending: k_j ascends along them."""
RESOLUTION: Final = 1
"""Stored steps per point: a k_j is stored in whole points, within half a point of the crossing."""
CURVES: Final = ("law", "reach")
"""The curves of a row, in order: S, then R."""


def file_name(variant: str) -> str:
    return kind_file_name("quantiles", variant)


MIN_FREE: Final = 4
"""The masks whose states the file holds have at least this many free categories: those an
estimate reads (one category after a sheet beyond ``winning.EXACT_FREE``, an opponent's beyond
``opponent.OPPONENT_EXACT_FREE``)."""


def stored(mask: int) -> bool:
    """The file holds the states of ``mask`` (``MIN_FREE`` free categories or more)."""
    return N_CATEGORIES - int(POPCOUNT[mask]) >= MIN_FREE


@cache
def stored_states() -> tuple[np.ndarray, np.ndarray]:
    """(masks, ν) of the file's rows, each (N,), in its order: every ``stored`` mask's reachable
    canonical ν (``reach.canonical_states``, all masks at once)."""
    masks, nus = np.nonzero(REACHABLE[:FULL_MASK])
    keys = np.unique(masks * N_NU + canonical_nu(masks, nus))
    masks, nus = keys // N_NU, keys % N_NU
    keep = REACHABLE[masks, nus] & (N_CATEGORIES - POPCOUNT[masks] >= MIN_FREE)
    return masks[keep], nus[keep]


@cache
def row_offsets() -> np.ndarray:
    """(4096,) the first row of each mask (the full sheet's: the row count, 112,718); a mask
    not ``stored`` has none."""
    return np.concatenate(([0], np.cumsum(np.bincount(stored_states()[0], minlength=FULL_MASK)))).astype(np.int64)


def chances(quantity: str) -> np.ndarray:
    """(L,) the chances Φ(z_j) of the ``LEVELS`` of ``quantity``'s curve, descending."""
    return 0.5 * (1.0 + np.array([math.erf(z / math.sqrt(2.0)) for z in LEVELS[quantity]]))


def crossings(curves: np.ndarray, quantity: str) -> np.ndarray:
    """(N, L) the k where each curve (N, W): C at k = 0 … W − 1, 1 at k = 0, not rising,
    0 at its end) falls through the ``chances`` of ``quantity``, on the line between the whole
    k around it."""
    levels = chances(quantity)
    rows = np.arange(len(curves))[:, None]
    before = np.stack([(curves >= p).sum(axis=1) for p in levels], axis=1) - 1  # the last k with C ≥ p
    high = curves[rows, before]
    low = curves[rows, np.minimum(before + 1, curves.shape[1] - 1)]
    return before + (high - levels) / np.maximum(high - low, 1e-12)


def solved_crossings(values: np.ndarray, quantity: str, batch: int = 4096) -> np.ndarray:
    """(N, L) ``crossings`` of every state the file holds, in its row order, from ``values``, a
    solved (4096, 64, W) array of ``quantity`` (``reach.empty_reach``'s layout) read as its chunks
    store it (``reach_table.stored_values``): the same numbers as from the chunks themselves, a
    ``batch`` of states at a time."""
    masks, nus = stored_states()
    parts = [
        crossings(stored_values(values[masks[s : s + batch], nus[s : s + batch]]), quantity)
        for s in range(0, len(masks), batch)
    ]
    return np.concatenate([np.zeros((0, len(LEVELS[quantity]))), *parts])


def encode(variant: str, law: np.ndarray, reach: np.ndarray) -> bytes:
    """The file of ``variant`` from the crossings (``crossings``) of S and R, each (N, L) in row order."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}")
    numbers = np.concatenate(
        [np.diff(np.rint(c * RESOLUTION).astype(np.int64), axis=1, prepend=0) for c in (law, reach)], axis=1
    )
    if (numbers < 0).any():
        raise ValueError("the crossings of each curve must ascend")
    deltas = np.diff(numbers, axis=0, prepend=0)
    zigzag = np.where(deltas >= 0, 2 * deltas, -2 * deltas - 1)
    if zigzag.max(initial=0) > 0xFFFF:
        raise ValueError("a change from one state's crossings to the next is over 32,767 steps")
    zigzag = np.ascontiguousarray(zigzag, dtype="<u2")
    payload = zlib.compress(zigzag.view(np.uint8).reshape(-1, 2).T.tobytes(), 9)
    return container(MAGIC, VERSION, {"count": len(numbers), "variant": variant}, payload)


def decode(data: bytes, *, variant: str, source: str = "quantiles file") -> "Quantiles":
    """Read and verify a quantiles file of ``variant`` (untrusted input: see the module docstring);
    ``TableError`` naming ``source`` and the fault."""
    raw_header, payload = open_container(data, source, MAGIC, VERSION)
    fields = (("count", int), ("variant", str))
    header = read_header(raw_header, source, fields)
    if len(header) != len(fields):
        raise TableError(f"{source}: header holds other keys than count, variant: {sorted(header)!r:.60}")
    if header["variant"] != variant:
        raise TableError(f"{source}: holds the {header['variant'][:20]} quantiles, expected {variant}")
    rows = int(row_offsets()[-1])
    if header["count"] != rows:
        raise TableError(f"{source}: header count is {header['count']!r:.40}, expected {rows}")
    split = len(LEVELS["law"])
    width = split + len(LEVELS["reach"])
    body = inflate(payload, 2 * width * rows, source)
    # (W, N) int16, each number's sequence along the rows contiguous; the sums wrap at 16 bits, so
    # they are the stored numbers exactly (those are 0 … a few hundred), and a damaged file's are
    # caught below as numbers under 0 or crossings beyond the most.
    zigzag = np.frombuffer(body, dtype=np.uint8).reshape(2, rows, width).transpose(0, 2, 1).copy()
    zigzag = zigzag.transpose(1, 2, 0).copy().view("<u2")[..., 0].view(np.int16)
    numbers = np.cumsum((zigzag >> 1 & 0x7FFF) ^ -(zigzag & 1), axis=1, dtype=np.int16)
    bad = np.flatnonzero((numbers < 0).any(axis=0))
    if bad.size:
        raise TableError(f"{source}: row {bad[0]} has crossings out of order")
    law = np.ascontiguousarray(np.cumsum(numbers[:split], axis=0, dtype=np.int32).T)
    reach = np.ascontiguousarray(np.cumsum(numbers[split:], axis=0, dtype=np.int32).T)
    most = _row_most(VARIANTS[variant]) * RESOLUTION
    over = np.flatnonzero((law[:, -1] > most + RESOLUTION) | (reach[:, -1] > most + RESOLUTION))
    if over.size:
        raise TableError(f"{source}: row {over[0]} has a crossing beyond the most its state can score")
    return Quantiles(VARIANTS[variant], {"law": law / RESOLUTION, "reach": reach / RESOLUTION})


@cache
def _row_most(variant: Variant) -> np.ndarray:
    """(N,) the most each row's state can still score."""
    return max_future_table(variant)[stored_states()].astype(np.int64)


_erf = np.vectorize(math.erf, otypes=[np.float64])


def rebuilt(crossed: np.ndarray, quantity: str, most: np.ndarray, width: int) -> np.ndarray:
    """(N, width) C(s, k), k = 0 … width − 1, rebuilt from the crossings (N, L) of N states
    whose most points still to come are ``most`` (N,): Φ of z(k), the monotone cubic through
    the (k_j, z_j) (``monotone_cubic``), extended by straight lines of its end slopes; 1 at
    k ≤ 0, 0 past ``most``."""
    k = np.arange(width, dtype=np.float64)
    levels = LEVELS[quantity]
    knots = crossed + 1e-6 * np.arange(len(levels))  # equal crossings (a jump): a steep piece
    z = monotone_cubic(knots, levels, k)
    chance = 0.5 * (1.0 + _erf(z / math.sqrt(2.0)))
    chance[:, 0] = 1.0
    chance[k[None, :] > most[:, None]] = 0.0
    return chance


def monotone_cubic(knots: np.ndarray, levels: np.ndarray, k: np.ndarray) -> np.ndarray:
    """(N, W) at ``k`` (W,) the Fritsch–Carlson cubic of each row of ``knots`` (N, L), ascending,
    through ``levels`` (L,), descending: on each piece the Hermite cubic whose slopes at the knots
    are the harmonic means of the two pieces' (the end pieces': their own), so it never rises;
    before the first knot and after the last, the straight lines of the end slopes."""
    width = np.diff(knots, axis=1)
    secant = np.diff(levels) / width  # (N, L − 1), < 0
    slope = np.empty_like(knots)
    slope[:, 1:-1] = 2.0 / (1.0 / secant[:, :-1] + 1.0 / secant[:, 1:])
    slope[:, 0], slope[:, -1] = secant[:, 0], secant[:, -1]
    rows = np.arange(len(knots))[:, None]
    piece = np.clip((k[None, :] >= knots[:, :, None]).sum(axis=1) - 1, 0, knots.shape[1] - 2)  # (N, W)
    x0, h = knots[rows, piece], width[rows, piece]
    t = (k[None, :] - x0) / h
    y0, y1 = levels[piece], levels[piece + 1]
    d0, d1 = slope[rows, piece] * h, slope[rows, piece + 1] * h
    inside = (t >= 0.0) & (t <= 1.0)
    tc = np.clip(t, 0.0, 1.0)
    cubic = ((2 * tc**3 - 3 * tc**2 + 1) * y0 + (tc**3 - 2 * tc**2 + tc) * d0 + (-2 * tc**3 + 3 * tc**2) * y1) + (
        tc**3 - tc**2
    ) * d1
    before = levels[0] + slope[:, :1] * (k[None, :] - knots[:, :1])
    after = levels[-1] + slope[:, -1:] * (k[None, :] - knots[:, -1:])
    return np.where(inside, cubic, np.where(k[None, :] < knots[:, :1], before, after))


class Quantiles:
    """A decoded quantiles file: the crossings of S (``"law"``) and R (``"reach"``) of every
    row, each (N, L) float64 in points, and the rebuilt curves of a mask as a ``Chunk``."""

    def __init__(self, variant: Variant, crossed: dict[str, np.ndarray]) -> None:
        self.variant = variant
        self.crossed = crossed
        self._chunks: dict[tuple[str, int], Chunk] = {}

    def chunk(self, quantity: str, mask: int) -> Chunk:
        """The rebuilt curve of ``quantity`` ("reach" or "law") of ``mask`` (not the full
        sheet, ``stored``) as a ``reach_table.Chunk`` (values (64, width) [canonical ν, k]); kept."""
        if not stored(mask):
            raise ValueError(f"the quantiles file holds no state of mask {mask}: fewer than {MIN_FREE} free categories")
        if (quantity, mask) not in self._chunks:
            lo, hi = row_offsets()[mask : mask + 2]
            nus = canonical_states(mask)
            most = max_future_table(self.variant)[mask, nus]
            values = np.zeros((N_NU, int(most.max()) + 2))
            values[nus] = rebuilt(self.crossed[quantity][lo:hi], quantity, most, values.shape[1])
            self._chunks[quantity, mask] = Chunk(mask, values)
        return self._chunks[quantity, mask]


ESTIMATED: Final = "as with the chunks, on their curves rebuilt from the quantiles file"
"""``"method"`` of an answer read from the quantiles file in place of chunks its caller could not
fetch: a t= chance on the rebuilt R, an o= chance blended and shifted as ``calibration.CALIBRATED``
says; also ``goal.goal_after``'s and ``opponent.opponent_law``'s second value then."""


class EstimatedReach:
    """A chunks' loader (``reach_table.Reach``) that gives the rebuilt curves of a quantiles
    file (``load``: loads it) in place of the chunks: what ``goal`` reads when the chunks cannot
    be fetched. Its answers are estimates (``goal.ESTIMATED``)."""

    def __init__(self, load: Callable[[], Quantiles]) -> None:
        self.load = load

    def __call__(self, wanted: dict[str, list[int]]) -> dict[str, dict[int, Chunk]]:
        quantiles = self.load()
        return {q: {m: quantiles.chunk(q, m) for m in masks} for q, masks in wanted.items()}
