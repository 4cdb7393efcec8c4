"""The builders of the table kinds (``yacht.core.table_kinds``: each kind's ``builder`` names one
here), and the timing and writing they share.

A builder is called as ``builder(out, kind, name, tilde, data, shared)``: the tables' folder, the
kind's name (its files: ``table_kinds.file_name``), the variant's name, its solved Ẽ table
(float64), that table's file bytes (``table.encode``: the kinds that follow the advisor's play
read it back from them, as the advisor does) and the run's hand-over between variants
(``build_table.shared``: the chunked kinds copy the masks whose rest of the game is the same in
a variant built before). It writes every file of its kind of that variant into ``out`` and
returns ``(solved, written, figure)``: the two timings of ``timed`` and a line saying what it
wrote.
"""

import shutil
import time
from pathlib import Path

try:
    import resource
except ImportError:  # Windows: this process's CPU only
    resource = None

import numpy as np
from yacht.chances import quantiles
from yacht.chances.reach import canonical_states
from yacht.chances.reach_table import chunk_for_variant, encode_chunks
from yacht.core.categories import FULL_MASK
from yacht.core.rules import VARIANTS
from yacht.core.table import decode, encode_spread
from yacht.core.table_kinds import chunk_name, file_name
from yacht.loader import Tables

from build_table.coach import solve_coach, write_coach
from build_table.files import swap_in, write_bytes
from build_table.shared import Shared
from build_table.solve import fork_map, solve_law, solve_moments, solve_reach, spread_of


def build_table(out: Path, kind: str, name: str, tilde: np.ndarray, data: bytes, shared: Shared) -> tuple:
    """The Ẽ table itself (solved by the caller: ``solved`` None, the caller's solve)."""
    written, path = timed(write_bytes, out / file_name(kind, name), data)
    return None, written, f"E(empty sheet) = {tilde[0, 0]:.9f}, wrote {path} ({len(data):,} bytes)"


def build_spread(out: Path, kind: str, name: str, tilde: np.ndarray, data: bytes, shared: Shared) -> tuple:
    given = shared.given(kind, VARIANTS[name])
    solved, moments = timed(lambda: solve_moments(VARIANTS[name], tilde, given=given))
    shared.keep(kind, VARIANTS[name], moments)
    sd = spread_of(tilde, moments)
    spread = encode_spread(name, sd)
    written, path = timed(write_bytes, out / file_name(kind, name), spread)
    return solved, written, f"sd(empty sheet) = {sd[0, 0]:.6f}, wrote {path} ({len(spread):,} bytes)"


def build_reach(out: Path, kind: str, name: str, tilde: np.ndarray, data: bytes, shared: Shared) -> tuple:
    solved, values = timed(lambda: solve_reach(VARIANTS[name], given=shared.given(kind, VARIANTS[name])))
    shared.keep(kind, VARIANTS[name], values)
    return (solved, *chunks_built(out, name, kind, values, shared))


def build_law(out: Path, kind: str, name: str, tilde: np.ndarray, data: bytes, shared: Shared) -> tuple:
    # the advisor's play as shipped: on the table file as the advisor reads it back
    given = shared.given(kind, VARIANTS[name])
    solved, values = timed(lambda: solve_law(VARIANTS[name], decode(data).tilde, given=given))
    shared.keep(kind, VARIANTS[name], values)
    return (solved, *chunks_built(out, name, kind, values, shared))


def build_quantiles(out: Path, kind: str, name: str, tilde: np.ndarray, data: bytes, shared: Shared) -> tuple:
    """The crossings of R and S (``yacht.chances.quantiles``): of the reach and law solved in this
    run (``shared.current``), each read as its chunks store it; of a curve not solved in this run
    (up to date), read from its chunks in ``out`` (built before it: the registry's order)."""
    solved, crossed = timed(crossings_of, out, name, shared)
    encoded = quantiles.encode(name, crossed["law"], crossed["reach"])
    written, path = timed(write_bytes, out / file_name(kind, name), encoded)
    return solved, written, f"{len(crossed['law']):,} states, wrote {path} ({len(encoded):,} bytes)"


def crossings_of(out: Path, name: str, shared: Shared) -> dict[str, np.ndarray]:
    """Per curve ("law", "reach"), the crossings (N, L) of every state the file holds, in its row
    order: from the curve's array solved in this run (``shared.current``; the two curves by two
    forked workers), else from its chunks in ``out``: the same numbers either way."""
    solved = [q for q in quantiles.CURVES if q in shared.current]
    parts = fork_map(lambda q: quantiles.solved_crossings(shared.current[q], q), [(q,) for q in solved])
    unsolved = [q for q in quantiles.CURVES if q not in solved]
    return {**dict(zip(solved, parts, strict=True)), **chunk_crossings(out, name, unsolved)}


def chunk_crossings(out: Path, name: str, curves: tuple[str, ...] | list[str] = quantiles.CURVES) -> dict:
    """Per curve of ``curves`` ("law", "reach"), the crossings (N, L) of every state the file holds,
    in its row order, from the chunks in ``out``, read by two forked workers."""
    tasks = [(out, name, q, first, min(first + 256, FULL_MASK)) for q in curves for first in range(0, FULL_MASK, 256)]
    parts = fork_map(masks_crossings, tasks)
    return {q: np.concatenate([p for task, p in zip(tasks, parts, strict=True) if task[2] == q]) for q in curves}


def masks_crossings(out: Path, name: str, quantity: str, first: int, stop: int) -> np.ndarray:
    """The crossings of ``quantity``'s curve of the states of masks ``first`` … ``stop`` − 1."""
    masks = [m for m in range(first, stop) if quantiles.stored(m)]
    chunks = Tables(out).chunks_of(name, {quantity: masks})[quantity]
    rows = [quantiles.crossings(chunks[m].values[canonical_states(m)], quantity) for m in masks]
    return np.concatenate([np.zeros((0, len(quantiles.LEVELS[quantity]))), *rows])


def build_coach(out: Path, kind: str, name: str, tilde: np.ndarray, data: bytes, shared: Shared) -> tuple:
    given = shared.given(kind, VARIANTS[name])
    solved, coach = timed(lambda: solve_coach(VARIANTS[name], decode(data).tilde, given=given))  # the shipped play
    shared.keep(kind, VARIANTS[name], coach)
    written, figure = timed(write_coach, out, name, coach)
    return solved, written, figure


def chunks_built(out: Path, name: str, quantity: str, values: np.ndarray, shared: Shared) -> tuple:
    """(written, figure) of the chunks of ``quantity`` (a chunked kind) of variant ``name``: those
    of the masks ``shared`` gives taken from the variant built before (``chunk_for_variant``),
    and kept for the next when this is the variant ``shared`` keeps."""
    folder, variant = out / file_name(quantity, name), VARIANTS[name]
    given = shared.given_chunks(quantity, variant)
    keep = shared.masks if shared.keeps(variant) else np.zeros(0, dtype=np.int64)
    written, (sizes, kept) = timed(write_chunks, folder, name, quantity, values, given, keep)
    if len(keep):
        shared.chunks[quantity] = kept
    taken = f", {len(given):,} taken from {shared.source}'s" if given else ""
    figure = (
        f"P(150 or more from the empty sheet) = {values[0, 0, 150]:.6f}, wrote {len(sizes):,} chunks{taken} to "
        f"{folder} ({sum(sizes):,} bytes, the largest {max(sizes):,})"
    )
    return written, figure


def timed(function, *args):
    """((wall seconds, CPU seconds), ``function(*args)``): CPU of this process and of the
    worker processes it waited for (every solve's and writer's pool is closed when it returns)."""
    start, cpu = time.perf_counter(), cpu_seconds()
    result = function(*args)
    return (time.perf_counter() - start, cpu_seconds() - cpu), result


def cpu_seconds() -> float:
    """User and system CPU seconds of this process and of its children that have ended."""
    if resource is None:
        return time.process_time()
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def seconds(timing: tuple[float, float]) -> str:
    """``timed``'s figures as printed: "12.34 s (24.1 s of CPU)"."""
    return f"{timing[0]:.2f} s ({timing[1]:.1f} s of CPU)"


_VALUES: dict = {}  # the chunks' values, for the forked writers


def _write_masks(folder: Path, name: str, quantity: str, first: int, stop: int) -> tuple[list[int], dict[int, bytes]]:
    """Write the chunks of masks ``first`` … ``stop`` − 1 (encoded together, but those given);
    their sizes, and the files of the masks to keep."""
    values, given, keep = _VALUES["values"], _VALUES["given"], _VALUES["keep"]
    masks = range(first, stop)
    encoded = iter(encode_chunks(name, {m: values[m] for m in masks if m not in given}, quantity))
    files = {m: chunk_for_variant(given[m], name, m, quantity) if m in given else next(encoded) for m in masks}
    sizes = [(folder / chunk_name(m)).write_bytes(data) for m, data in files.items()]
    return sizes, {m: data for m, data in files.items() if keep[m]}


def write_chunks(
    folder: Path,
    name: str,
    quantity: str,
    values: np.ndarray,
    given: dict[int, bytes] | None = None,
    keep: np.ndarray | None = None,
) -> tuple[list[int], dict[int, bytes]]:
    """Write the 4,095 chunks of ``quantity`` of variant ``name`` from ``values`` (4096, 64, width),
    encoded by two forked workers, but the masks of ``given`` (mask → the file written for another
    variant, taken under this one's header); the size of each chunk, by mask, and the files of the
    masks ``keep`` (M,) names. They are written into a folder beside ``folder`` that then takes
    its place (``swap_in``): a server never sends a chunk half written, nor a folder that mixes
    two builds' chunks."""
    partial = folder.with_name(folder.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)  # what a build that was stopped left
    partial.mkdir()
    kept = np.zeros(FULL_MASK, dtype=bool)
    if keep is not None:
        kept[keep[keep < FULL_MASK]] = True
    _VALUES.update(values=values, given=given or {}, keep=kept)
    try:
        parts = [(partial, name, quantity, first, min(first + 256, FULL_MASK)) for first in range(0, FULL_MASK, 256)]
        written = fork_map(_write_masks, parts)
    finally:
        _VALUES.clear()
    swap_in(partial, folder)
    return [size for sizes, _ in written for size in sizes], {m: f for _, files in written for m, f in files.items()}
