"""The order of a position's options and their ranks: one rule for every answer.

Options are ranked best first by one or more values, each higher-is-better, compared in turn
(the advisor: the expected score; with a goal: the chance, then the expected score). Values
within ``TIE`` of the first of a run are equal (floating-point noise, never a real
difference): the next value decides among them. Options equal on every value are **tied**:
they share a rank (1 + the number of options ranked strictly before them), and among them the
**simpler** comes first — stopping to score before a keep, then the keep that rerolls fewer
dice — then the order given (keep or category index order).

``rank(values, simplicity)`` returns the order and the ranks; ``simplicity(keep, category)`` is
the rule above as a number (smaller is simpler). The CLI, the review, practice and the page all
show this order and these ranks (``Option.rank`` in JSON: ``"rank"``); none of them ranks again.
"""

from collections.abc import Sequence
from typing import Final

from .dice import N_DICE

TIE: Final = 1e-9
"""Values (points, or a chance 0–1) at most this far apart are equal when ranking."""


def simplicity(keep: Sequence[int] | None, category: int | None) -> int:
    """0 for scoring now (a roll-3 option, or keeping all five dice), else 1 + the number of
    dice the keep rerolls (1–6): smaller is simpler."""
    if keep is None or len(keep) == N_DICE:
        return 0
    return 1 + N_DICE - len(keep)


def rank(values: Sequence[Sequence[float]], simpler: Sequence[int]) -> tuple[list[int], list[int]]:
    """The options' order, best first, and each one's rank (1-based, shared by tied options),
    in that order: ``(order, ranks)`` with ``order`` indices into ``values``.

    ``values[i]``: option i's values, compared in turn (all options have as many); ``simpler[i]``:
    its ``simplicity``. A run of options within ``TIE`` of its first on one value is ordered
    by the next value; options equal on all of them by simplicity, then index."""
    n = len(values)
    groups: list[list[int]] = [list(range(n))]
    depth = len(values[0]) if n else 0
    for level in range(depth):
        split: list[list[int]] = []
        for group in groups:
            ordered = sorted(group, key=lambda i: (-values[i][level], i))
            run = [ordered[0]]
            for i in ordered[1:]:
                if values[run[0]][level] - values[i][level] <= TIE:
                    run.append(i)
                else:
                    split.append(run)
                    run = [i]
            split.append(run)
        groups = split
    order: list[int] = []
    ranks: list[int] = []
    for group in groups:
        first = len(order) + 1
        for i in sorted(group, key=lambda i: (simpler[i], i)):
            order.append(i)
            ranks.append(first)
    return order, ranks
