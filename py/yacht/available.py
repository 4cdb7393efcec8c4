"""What one answer reads of the tables its caller holds, and what it went without.

``Reads(tables, variant)`` gives an answer its loaders of ``variant``'s spread table and chunks
(a ``loader.Tables`` has both, a plain mapping of Ẽ tables neither). A loader asked for a file
its caller could not fetch now (``loader.Tables.set_unavailable``) reads nothing of that request,
records the files it refused in ``Reads.refused`` and raises ``table_kinds.Unavailable``; the goal then
answers without them (the spread table's normal law, or no chance at all). That record is the one
source of an answer's ``"estimate"`` (``api``): nothing predicts it beside the loader. Where the
chunks are refused, their curves rebuilt from the quantiles file stand in (``Unavailable.stand_in``)."""

from collections.abc import Callable, Mapping

import numpy as np

from .core.position import GoalUnavailable, PositionError, check_turn_order, parse_query
from .core.table import Table
from .core.table_kinds import File, Unavailable, chunk_name


class Reads:
    """The loaders of one answer of ``variant`` (``spread``, ``chunks``: ``None`` where
    ``tables`` has no such loader) and the files they refused (``refused``: (kind, part) in the
    order refused, each once)."""

    def __init__(self, tables: Mapping[str, Table], variant: str, estimates: bool = True) -> None:
        self.variant = variant
        self.refused: dict[File, None] = {}
        self._lacking: frozenset[File] = getattr(tables, "lacking", lambda _: frozenset())(variant)
        spread, chunks = getattr(tables, "spread", None), getattr(tables, "chunks_of", None)
        self._quantiles = getattr(tables, "quantiles", None) if estimates else None
        self.spread: Callable[[], np.ndarray] | None = spread and (lambda: self._read([("spread", "")], spread))
        self.chunks: Callable | None = chunks and (lambda wanted: self._chunks(chunks, wanted))

    def _chunks(self, chunks_of: Callable, wanted: dict[str, list[int]]) -> dict:
        """The chunks ``wanted`` (quantity → masks); where any is refused, ``Unavailable`` whose
        stand-in is their curves rebuilt from the quantiles file (``quantiles.EstimatedReach``;
        not with ``estimates`` false, nor where that file is refused too)."""
        files = [(quantity, mask) for quantity, masks in wanted.items() for mask in masks]
        quantiles = self._quantiles
        stand_in = quantiles and (lambda: self._estimated(quantiles, wanted))
        return self._read(files, lambda _: chunks_of(self.variant, wanted), stand_in)

    def _estimated(self, quantiles: Callable, wanted: dict[str, list[int]]) -> dict:
        from .chances.quantiles import EstimatedReach

        return EstimatedReach(lambda: self._read([("quantiles", "")], quantiles))(wanted)

    def _read(self, files: list[File], read: Callable, stand_in: Callable | None = None):
        """``read(variant)``, or ``Unavailable`` (with its ``stand_in``) recording the ``files``
        its caller could not fetch now."""
        refused = [file for file in files if file in self._lacking]
        if refused:
            self.refused.update(dict.fromkeys(refused))
            raise Unavailable(self.variant, refused, stand_in)
        return read(self.variant)

    def went_without(self) -> list[str]:
        """The kinds of the files refused, sorted (``[]``: none was)."""
        return sorted({kind for kind, _ in self.refused})


def graded_from_what_is_loaded(grade, game, tildes: dict[str, np.ndarray], tables: Mapping[str, Table], *at):
    """``grade(game, *at, tildes, spread, chances=…, reach=…)`` (the review's ``review``,
    ``grade_last``, or ``grade_decision`` with ``at`` its decision's index) with the goal's chances
    from what is loaded; graded by points alone where the chances need a file its caller could not
    fetch now (the loader refused it)."""
    reads = Reads(tables, game.variant.name)
    try:
        return grade(game, *at, tildes, reads.spread, chances=reads.spread is not None, reach=reads.chunks)
    except GoalUnavailable:
        if not reads.refused:
            raise
        return grade(game, *at, tildes, None, chances=False, reach=None)


def chunks_ahead_query(query: str, game: bool = False) -> dict:
    """The chunks the next decisions of a position (or, ``game``, of a game record where it
    ends, the rival's sheet as it stands) can read, soonest first (``goal.chunks_ahead``; a
    record whose rival plays next, theirs first): ``{"variant", "chunks": [[quantity, mask,
    file name], …]}``, none without a goal."""
    from .chances.goal import chunks_ahead

    rival_next = False
    if game:
        from .play.game import parse_game, replay

        position = replay(parse_game(query))[1]
        if position.opponent is not None:
            try:
                check_turn_order(position.sheet, position.opponent)
            except PositionError:
                rival_next = True
    else:
        position = parse_query(query)
    chunks = [[quantity, mask, chunk_name(mask)] for quantity, mask in chunks_ahead(position, rival_next)]
    return {"variant": position.variant.name, "chunks": chunks}
