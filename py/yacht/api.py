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
``field``); a table not loaded raises ``KeyError`` naming the variant.
"""

from collections.abc import Mapping

from .advisor import advise
from .game import format_game, parse_game, replay
from .position import format_query, parse_query, split_query
from .review import review
from .rules import DEFAULT_VARIANT, VARIANTS
from .table import Table


def _tilde(tables: Mapping[str, Table], variant: str):
    if variant not in tables:
        raise KeyError(f"no table loaded for the {variant} rules")
    return tables[variant].tilde


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
    _tilde(tables, game.variant.name)
    result = review(game, {name: table.tilde for name, table in tables.items()}).to_json()
    result["query"] = format_game(game)
    result["variant"] = game.variant.name
    result["position"] = format_query(replay(game)[1])
    return result


def is_game(query: str) -> bool:
    """Whether a query is a game record (has ``h=``) rather than a position."""
    try:
        return "h" in split_query(query, ("s", "d", "r", "v", "h"))
    except ValueError:
        return False


def variant_of(query: str) -> str:
    """The rule variant a query asks for (to load its table first); the
    default when the query does not say or cannot be read (reading it again
    then gives the error)."""
    try:
        name = split_query(query, ("s", "d", "r", "v", "h")).get("v", DEFAULT_VARIANT.name)
    except ValueError:
        return DEFAULT_VARIANT.name
    return name if name in VARIANTS else DEFAULT_VARIANT.name
