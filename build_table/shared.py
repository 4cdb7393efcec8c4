"""What one variant's build hands to the next's: the work of the masks whose rest of the game is
the same in both.

The variants differ only in how some categories score (``yacht.core.rules``: the official rules'
Full House takes five of a kind, the strict ones' does not). From a mask where every such
category is filled, the rest of the game is the same game in both: the same options scoring the
same points, with the same successors, so every quantity of its states (Ẽ, R, S and the chunks'
bytes but their header) is the same, bit for bit, since each solve works on each state (or
column) alone (``yacht.chances.reach.solve_mask``, ``yacht.chances.law.solve_law_states``). When
``build_table`` builds two variants in one run, the second copies what the first solved and wrote
for those masks (half of them: 2,048 of 4,096) rather than doing it again, after checking that
the two solves of Ẽ agree on every one of their states.
"""

import itertools

import numpy as np
from yacht.core.rules import Variant, score_table
from yacht.core.states import N_MASKS


def same_future_masks(first: Variant, second: Variant) -> np.ndarray:
    """(M,) int64 ascending: the masks from which the rest of the game is the same in both
    variants, i.e. those with every category that some roll scores differently in them filled."""
    differs = (score_table(first) != score_table(second)).any(axis=0)
    bits = int(np.sum(1 << np.flatnonzero(differs))) if differs.any() else 0
    masks = np.arange(N_MASKS)
    return masks[masks & bits == bits]


class Shared:
    """One run's hand-over between the variants it builds (in their order): ``masks``, the masks
    whose rest of the game is the same in all of them (``same_future_masks``; every mask for one
    variant alone); ``source``, the variant whose work is kept (the first built, once its Ẽ is
    solved); ``values[kind]`` its solved array of a kind (``spread``'s moments, ``reach``,
    ``law``, ``coach``) and ``chunks[kind]`` its chunk files of ``masks`` (mask → bytes), kept
    while a later variant can read them; ``current[kind]``, the solved arrays of the variant
    being built (until the next ``start``), for the kinds built from them after it."""

    def __init__(self, variants: list[Variant]) -> None:
        self.masks = np.arange(N_MASKS)
        for a, b in itertools.pairwise(variants):
            self.masks = np.intersect1d(self.masks, same_future_masks(a, b))
        self.order = [v.name for v in variants]
        self.source: str | None = None
        self.tilde: np.ndarray | None = None
        self.values: dict[str, np.ndarray] = {}
        self.chunks: dict[str, dict[int, bytes]] = {}
        self.current: dict[str, np.ndarray] = {}

    def start(self, variant: Variant, tilde: np.ndarray) -> None:
        """Variant ``variant`` is built next, on its solved Ẽ ``tilde`` (4096, 64): the first
        becomes the source; a later one must agree with it on every state of ``masks``
        (RuntimeError if not: the solves would not be the same game)."""
        self.current = {}
        if self.source is None:
            self.source, self.tilde = variant.name, tilde
            return
        if not np.array_equal(self.tilde[self.masks], tilde[self.masks], equal_nan=True):
            raise RuntimeError(
                f"build_table: Ẽ of {variant.name} differs from {self.source}'s at a mask whose rest of the "
                "game is the same in both (a fault in the solve)"
            )

    def given(self, kind: str, variant: Variant) -> tuple[np.ndarray, np.ndarray] | None:
        """``(masks, values)`` of ``kind`` solved by the source for ``variant`` to copy, or None (this
        is the source, or the source did not build ``kind`` in this run)."""
        if variant.name == self.source or kind not in self.values:
            return None
        return self.masks, self.values[kind]

    def given_chunks(self, kind: str, variant: Variant) -> dict[int, bytes] | None:
        """The source's chunk files of ``masks`` of ``kind`` for ``variant`` to take, or None."""
        return None if variant.name == self.source else self.chunks.get(kind)

    def keeps(self, variant: Variant) -> bool:
        """Whether ``variant``'s work is kept: it is the source and a variant is built after it."""
        return variant.name == self.source and self.order.index(variant.name) < len(self.order) - 1

    def keep(self, kind: str, variant: Variant, values: np.ndarray) -> None:
        """The solved ``values`` of ``kind`` of ``variant``, the one being built (``current``);
        kept for a later variant too if it will read them (the source's)."""
        self.current[kind] = values
        if self.keeps(variant):
            self.values[kind] = values
