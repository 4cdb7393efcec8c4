"""What an answer may read of the tables its caller holds: the loaders of a variant's spread
table and chunks (a ``loader.Tables`` has both, a plain mapping of Ẽ tables neither), less the
kinds its caller could not fetch now (``loader.Tables.set_unavailable``): ``api`` answers without
them and says so in ``"estimate"``."""

from collections.abc import Callable, Mapping

import numpy as np

from .core.position import parse_query
from .core.table import Table


def lacking(tables: Mapping[str, Table], variant: str) -> frozenset[str]:
    """The kinds of ``variant`` its caller could not fetch now (``Tables.set_unavailable``)."""
    found = getattr(tables, "lacking", None)
    return found(variant) if found else frozenset()


def loaders(tables: Mapping[str, Table], variant: str) -> tuple[Callable[[], np.ndarray] | None, Callable | None]:
    """The sd table's loader and the chunks' loader of ``variant``, where ``tables``
    has them (``(None, None)`` for a plain mapping), and neither of a kind its caller could not
    fetch now (the chunks' when either quantity lacks: an answer reads both or neither)."""
    spread, chunks = getattr(tables, "spread", None), getattr(tables, "chunks_of", None)
    without = lacking(tables, variant)
    spread = None if "spread" in without else spread
    chunks = None if without & {"reach", "law"} else chunks
    return spread and (lambda: spread(variant)), chunks and (lambda wanted: chunks(variant, wanted))


def chunks_ahead_query(query: str, game: bool = False) -> dict:
    """The chunks the next decisions of a position (or, ``game``, a game record's end, the
    rival's sheet as it stands) can read (``goal.chunks_ahead``): ``{"variant", "chunks":
    {quantity: [mask, …]}}``, no quantity without a goal."""
    from .chances.goal import chunks_ahead

    if game:
        from .play.game import parse_game, replay

        position = replay(parse_game(query))[1]
    else:
        position = parse_query(query)
    return {"variant": position.variant.name, "chunks": chunks_ahead(position)}
