"""The app's icon, drawn in code: a die showing five, on the page's blue.

``svg()`` is the scalable icon (favicon, manifest "any"); ``png(size)``
rasterizes the same drawing with 4×4 supersampling into a PNG (for the
manifest's 192 and 512 px icons) with NumPy and zlib: byte-identical from
run to run. ``png(size, maskable=True)`` draws the die smaller, inside the
central circle of radius 40 % that a maskable icon must keep visible
whatever shape the launcher cuts out.
"""

import struct
import zlib

import numpy as np

BACKGROUND = (11, 98, 196)  # the page's accent blue (#0b62c4)
DIE = (255, 255, 255)
PIP = (22, 27, 34)
# In units of a 100 × 100 icon: the die's square and corner radius, the pips.
DIE_BOX = (16.0, 16.0, 84.0, 84.0)
DIE_RADIUS = 12.0
PIP_RADIUS = 7.0
PIPS = ((32.0, 32.0), (68.0, 32.0), (50.0, 50.0), (32.0, 68.0), (68.0, 68.0))
MASKABLE_SCALE = 0.9
"""The die's scale in the maskable icon: its corners then lie within 40 units of the centre."""


def _geometry(scale: float) -> tuple[tuple[float, ...], float, float, tuple[tuple[float, float], ...]]:
    """The die box, its corner radius, the pip radius and the pips, scaled about the centre."""

    def at(v: float) -> float:
        return 50.0 + (v - 50.0) * scale

    box = tuple(at(v) for v in DIE_BOX)
    return box, DIE_RADIUS * scale, PIP_RADIUS * scale, tuple((at(x), at(y)) for x, y in PIPS)


def svg() -> str:
    x0, y0, x1, y1 = DIE_BOX
    pips = "".join(f'<circle cx="{x:g}" cy="{y:g}" r="{PIP_RADIUS:g}"/>' for x, y in PIPS)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        f'<rect width="100" height="100" rx="22" fill="rgb{BACKGROUND}"/>'
        f'<rect x="{x0:g}" y="{y0:g}" width="{x1 - x0:g}" height="{y1 - y0:g}" rx="{DIE_RADIUS:g}" fill="rgb{DIE}"/>'
        f'<g fill="rgb{PIP}">{pips}</g></svg>\n'
    )


def png(size: int, maskable: bool = False, samples: int = 4) -> bytes:
    """The icon as a ``size`` × ``size`` RGB PNG (a full-bleed square)."""
    (x0, y0, x1, y1), radius, pip_radius, pips = _geometry(MASKABLE_SCALE if maskable else 1.0)
    n = size * samples
    coords = ((np.arange(n) + 0.5) * (100.0 / n)).astype(np.float32)
    x, y = coords[None, :], coords[:, None]
    cx = np.clip(x, x0 + radius, x1 - radius)
    cy = np.clip(y, y0 + radius, y1 - radius)
    image = np.empty((n, n, 3), np.float32)
    image[:] = BACKGROUND
    image[(x - cx) ** 2 + (y - cy) ** 2 <= radius**2] = DIE
    for px, py in pips:
        image[(x - px) ** 2 + (y - py) ** 2 <= pip_radius**2] = PIP
    pixels = np.rint(image.reshape(size, samples, size, samples, 3).mean(axis=(1, 3))).astype(np.uint8)
    raw = np.concatenate([np.zeros((size, 1), np.uint8), pixels.reshape(size, -1)], axis=1).tobytes()

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
