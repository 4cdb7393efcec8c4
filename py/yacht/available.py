"""What an answer may read of the tables its caller holds: the loaders of a variant's spread
table and chunks (a ``loader.Tables`` has both, a plain mapping of Ẽ tables neither), less the
kinds its caller could not fetch now (``loader.Tables.set_unavailable``): ``api`` answers without
them and says so in ``"estimate"``."""

from collections.abc import Callable, Mapping

import numpy as np

from .core.position import PositionError, check_turn_order, parse_query
from .core.table import Table
from .core.table_kinds import chunk_name


def lacking(tables: Mapping[str, Table], variant: str) -> frozenset[str]:
    """The kinds of ``variant`` its caller could not fetch now (``Tables.set_unavailable``)."""
    found = getattr(tables, "lacking", None)
    return found(variant) if found else frozenset()


def loaders(
    tables: Mapping[str, Table], variant: str, estimates: bool = True
) -> tuple[Callable[[], np.ndarray] | None, Callable | None]:
    """The sd table's loader and the chunks' loader of ``variant``, where ``tables``
    has them (``(None, None)`` for a plain mapping), and neither of a kind its caller could not
    fetch now (the chunks' when either quantity lacks: an answer reads both or neither; then, with
    ``estimates``, the curves rebuilt from the quantiles file stand in for them,
    ``quantiles.EstimatedReach``, unless that lacks too)."""
    spread, chunks = getattr(tables, "spread", None), getattr(tables, "chunks_of", None)
    without = lacking(tables, variant)
    spread = None if "spread" in without else spread
    spread_loader = spread and (lambda: spread(variant))
    if without & {"reach", "law"}:
        quantiles = getattr(tables, "quantiles", None)
        if not estimates or quantiles is None or "quantiles" in without:
            return spread_loader, None
        from .chances.quantiles import EstimatedReach

        return spread_loader, EstimatedReach(lambda: quantiles(variant))
    return spread_loader, chunks and (lambda wanted: chunks(variant, wanted))


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
