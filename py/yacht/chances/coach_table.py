"""The coach's files: B(mask, ν), the chance of the upper bonus by the game's end, and E_c(mask, ν),
the expected points of each category by the game's end, under the advisor's play (``coach``).

Two files per variant, ``yacht-<variant>.bonus`` (quantity ``bonus``: B, fetched by the page
when an explanation is first opened) and ``yacht-<variant>.points`` (quantity ``points``:
E_c of every free category c), ``file_name``. Format version 1.0; the container is the table
file's (``yacht.core.table``): magic ``b"\\x89YCOACH\\n"``, version (major, minor), header
length (uint32 LE), the JSON header (keys sorted: ``variant``, ``quantity``, ``layout``
(``"upper-nu-lower"``), ``encoding`` (``"i2-delta2d-shuffle-deflate"``), ``scale``, ``count``),
the zlib payload, the SHA-256 of all before it.

Layout ``upper-nu-lower``: values in groups by the upper part of the mask, u = mask & 63; group
u is a matrix Q[j, l], row j the j-th stored ν of u (ascending), column l the lower part
mask >> 6 (0–63; 0–62 for u = 63), written row by row (j outer, l inner).

- ``bonus``: groups u = 0 … 62 (with every upper category filled, B is 0 or 1 by ν); ν the
  reachable ν < 63 of u where the bonus is still in reach (``outcome.canonical_nu(ν) = ν``).
  Elsewhere B is 0 (out of reach) or 1 (ν = 63). 118,400 values.
- ``points``: for c = 0 … 11 in turn, the groups u where c is free (every u for a lower c);
  ν the canonical reachable ν of u (where the bonus is out of reach the play, and so E_c, is
  that of ν = 0); a lower c filled in mask l is stored as 0. E_c of a filled c is 0.

Encoding ``i2-delta2d-shuffle-deflate``: q = round(value × scale), scale 4096 for ``bonus``
(a stored chance within 1.2e-4 of the solve) and 256 for ``points`` (within 0.002 points);
within a group differenced along l (the lower mask, inner), then along ν (row 0 kept);
little-endian int16, byte-shuffled, deflated at level 9. A reader MUST check the checksum,
the header's fields, the inflated length (``2 × count``) and every decoded value (B in 0–1,
E_c in 0 – the most c scores) — ``TableError`` naming the file otherwise.
"""

import zlib
from functools import cache
from typing import Final

import numpy as np

from ..core.categories import BONUS_POINTS, BONUS_THRESHOLD, FULL_MASK, N_CATEGORIES, N_UPPER
from ..core.rules import VARIANTS, score_table
from ..core.states import N_MASKS, N_NU, REACHABLE_BY_UPPER
from ..core.table import TableError, container, inflate, open_container, read_header, unshuffle
from ..core.table_kinds import file_name as kind_file_name
from .coach import N_COACH
from .outcome import canonical_nu

MAGIC: Final = b"\x89YCOACH\n"
VERSION: Final = (1, 0)
LAYOUT: Final = "upper-nu-lower"
ENCODING: Final = "i2-delta2d-shuffle-deflate"
SCALES: Final = {"bonus": 4096, "points": 256}
"""Fixed-point scale of each quantity: a stored value is within 0.5 / scale of the solve."""
QUANTITIES: Final = tuple(SCALES)
_LOWER: Final = 1 << (N_CATEGORIES - N_UPPER)


def file_name(variant: str, quantity: str) -> str:
    return kind_file_name("coach", variant, quantity)


@cache
def _plan(quantity: str) -> tuple[tuple[int, int, np.ndarray, np.ndarray], ...]:
    """The groups in stored order: (channel of the (4096, 64, 13) coach array, u, the stored ν
    (J,), the masks (L,)), each group a (J, L) matrix."""
    channels = [0] if quantity == "bonus" else [1 + c for c in range(N_CATEGORIES)]
    groups = []
    for channel in channels:
        for u in range(1 << N_UPPER):
            c = channel - 1
            if (quantity == "bonus" and u == (1 << N_UPPER) - 1) or (0 <= c < N_UPPER and u >> c & 1):
                continue
            masks = (np.arange(_LOWER) << N_UPPER) | u
            masks = masks[masks != FULL_MASK]
            nus = np.flatnonzero(REACHABLE_BY_UPPER[u])
            nus = nus[canonical_nu(np.full(len(nus), u), nus) == nus]
            if quantity == "bonus":
                nus = nus[nus < BONUS_THRESHOLD]
            groups.append((channel, u, nus, masks))
    return tuple(groups)


def count(quantity: str) -> int:
    """The number of stored values of ``quantity``."""
    return sum(len(nus) * len(masks) for _, _, nus, masks in _plan(quantity))


def encode(variant: str, coach: np.ndarray, quantity: str) -> bytes:
    """The ``quantity`` file of ``variant`` from the solved (4096, 64, 13) ``coach`` array."""
    if variant not in VARIANTS or quantity not in SCALES:
        raise ValueError(f"no coach file for variant {variant!r}, quantity {quantity!r}")
    parts = []
    for channel, _, nus, masks in _plan(quantity):
        q = np.rint(coach[np.ix_(masks, nus, [channel])][..., 0].T * SCALES[quantity]).astype(np.int64)
        parts.append(np.diff(np.diff(q, axis=1, prepend=0), axis=0, prepend=0).ravel())
    deltas = np.concatenate(parts)
    if np.abs(deltas).max() > np.iinfo(np.int16).max:
        raise ValueError(f"{quantity}: a difference does not fit in int16")
    shuffled = deltas.astype("<i2").view(np.uint8).reshape(-1, 2).T.tobytes()
    header = {
        "count": count(quantity),
        "encoding": ENCODING,
        "layout": LAYOUT,
        "quantity": quantity,
        "scale": SCALES[quantity],
        "variant": variant,
    }
    return container(MAGIC, VERSION, header, zlib.compress(shuffled, 9))


def decode(data: bytes, *, variant: str, quantity: str, source: str) -> np.ndarray:
    """Read and verify a ``quantity`` file of ``variant`` (untrusted: see the module docstring):
    ``bonus``: (4096, 64) float64 B [mask, ν]; ``points``: (4096, 64, 12) float64 E_c [mask, ν, c].
    Every reachable state is filled in (B: 0 out of reach, 1 at ν = 63; E_c: ν made canonical)."""
    raw, payload = open_container(data, source, MAGIC, VERSION)
    fields = (("variant", str), ("quantity", str), ("layout", str), ("encoding", str), ("scale", int), ("count", int))
    header = read_header(raw, source, fields)
    expected = {
        "variant": variant,
        "quantity": quantity,
        "layout": LAYOUT,
        "encoding": ENCODING,
        "scale": SCALES[quantity],
        "count": count(quantity),
    }
    for key, value in expected.items():
        if header[key] != value:
            raise TableError(f"{source}: header {key} is {str(header[key])[:40]!r}, expected {value!r}")
    n = count(quantity)
    deltas = unshuffle(inflate(payload, 2 * n, source), 2).view("<i2").ravel().astype(np.int64)
    out = np.zeros((N_MASKS, N_NU, N_COACH))
    most = np.zeros(N_COACH)
    most[0] = 1.0
    most[1:] = score_table(VARIANTS[variant]).max(axis=0)
    start = 0
    for channel, _, nus, masks in _plan(quantity):
        size = len(nus) * len(masks)
        q = np.cumsum(np.cumsum(deltas[start : start + size].reshape(len(nus), len(masks)), axis=0), axis=1)
        start += size
        values = q / SCALES[quantity]
        if values.min(initial=0) < 0 or values.max(initial=0) > most[channel] + 0.5 / SCALES[quantity]:
            raise TableError(f"{source}: values out of range in channel {channel} (possible: 0–{most[channel]:g})")
        out[np.ix_(masks, nus, [channel])] = values.T[..., None]
    if quantity == "bonus":
        out[:, BONUS_THRESHOLD, 0] = 1.0
        return out[..., 0]
    canonical = canonical_nu(np.arange(N_MASKS)[:, None], np.arange(N_NU)[None, :])
    return out[np.arange(N_MASKS)[:, None], canonical, 1:]


def consistent(coach: np.ndarray, tilde: np.ndarray) -> np.ndarray:
    """The decoded coach values (``empty_coach`` layout, (4096, 64, 13)) made to add up as the solve's
    do: at every state the points still to come are Ẽ = Σ_c E_c + 35·(B − [ν = 63]) exactly (``tilde``:
    the same variant's (4096, 64) Ẽ); the files' rounding breaks that by up to about 0.015 points, so
    each state's residual is spread evenly over its free categories' E_c (B stays as stored). The
    projection onto that identity moves the values no farther from the solve than the rounding did
    (in the sum of squares), and makes every option's Σ E_c + 35·B equal its expected score from Ẽ
    to float rounding: the coach's terms of why then add up to the advice's gap. A new array."""
    earned = np.arange(N_NU) >= BONUS_THRESHOLD
    residual = tilde - coach[..., 1:].sum(axis=-1) - BONUS_POINTS * (coach[..., 0] - earned)
    free = (np.arange(N_MASKS)[:, None] >> np.arange(N_CATEGORIES) & 1) == 0
    count = free.sum(axis=1)
    share = np.where(count[:, None] > 0, residual / np.maximum(count, 1)[:, None], 0.0)
    out = coach.copy()
    out[..., 1:] += share[..., None] * free[:, None, :]
    return out
