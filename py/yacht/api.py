"""From a query string to JSON-ready results: what the CLI and the browser
worker both call.

``advise_query(query, tables)``: a position (``position`` format) → the
ranked options (``Advice.to_json()``) plus the canonical ``query`` and the
``variant``.

``game_query(query, tables)``: a game record (``game`` format) → where it
stands: the canonical ``query``, the current ``position`` query and its
``advice``, and the number of ``turns`` recorded.

``review_query(query, tables)``: a game record → its review
(``Review.to_json()``) plus ``query``, ``variant`` and ``position``.

``tables`` maps a variant name to its ``Table``. Bad input raises
``position.PositionError`` or ``game.GameError`` (both ValueErrors with a
``field``). The query is parsed once: the variant it asks for is the one
whose table is looked up, and a table missing from ``tables`` raises
``TableMissing`` naming that variant, so a caller that loads tables lazily
(the worker) can load it and ask again; a mapping that loads on lookup (the
CLI's) never lets it through.
"""

from collections.abc import Mapping

import numpy as np

from .advisor import advise
from .game import format_game, parse_game, replay
from .position import format_query, parse_query
from .review import review
from .table import Table


class TableMissing(LookupError):
    """The table of ``variant`` (a known rule variant) is not among the tables given."""

    def __init__(self, variant: str) -> None:
        super().__init__(f"no table loaded for the {variant} rules")
        self.variant = variant


def _tilde(tables: Mapping[str, Table], variant: str) -> np.ndarray:
    """Ẽ of ``variant``: (4096, 64) float64, indexed [mask, ν]."""
    try:
        return tables[variant].tilde
    except KeyError:
        raise TableMissing(variant) from None


def advise_query(query: str, tables: Mapping[str, Table]) -> dict:
    position = parse_query(query)
    variant = position.variant.name
    result = advise(position, _tilde(tables, variant)).to_json()
    result["query"] = format_query(position)
    result["variant"] = variant
    return result


def game_query(query: str, tables: Mapping[str, Table]) -> dict:
    game = parse_game(query)
    _, position = replay(game)
    advice = advise(position, _tilde(tables, game.variant.name)).to_json()
    return {
        "query": format_game(game),
        "variant": game.variant.name,
        "position": format_query(position),
        "advice": advice,
        "turns": len(game.turns),
    }


def review_query(query: str, tables: Mapping[str, Table]) -> dict:
    game = parse_game(query)
    result = review(game, {game.variant.name: _tilde(tables, game.variant.name)}).to_json()
    result["query"] = format_game(game)
    result["variant"] = game.variant.name
    result["position"] = format_query(replay(game)[1])
    return result
