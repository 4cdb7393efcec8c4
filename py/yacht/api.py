"""From a query string to JSON-ready results: what the CLI and the browser
worker both call.

``advise_query(query, tables, with_distribution=False)``: a position
(``position`` format) → the ranked options (``Advice.to_json()``) plus the
canonical ``query`` and the ``variant``; with ``o=`` or ``t=`` the goal's
chances and ranking (``goal.goal_advice``); ``with_distribution``: also
``"distribution"`` (``goal.distribution``). Outside the exact range the goal
needs the sd table: ``tables.spread(variant)`` where ``tables`` has that
method (the CLI's does), else ``goal.GoalUnavailable``.

``game_query(query, tables)``: a game record (``game`` format) → where it
stands: the canonical ``query``, the current ``position`` query and its
``advice``, and the number of ``turns`` recorded.

``review_query(query, tables)``: a game record → its review
(``Review.to_json()``) plus ``query``, ``variant`` and ``position``.

``tables`` maps a variant name to its ``Table``. A caller that loads tables lazily (the worker)
passes a ``Tables``: its ``spread(variant)`` raises ``SpreadMissing`` naming the variant whose
sd table the goal needs and it has not loaded yet, so that caller loads it and asks again.
Bad input raises
``position.PositionError``, ``game.GameError`` or ``goal.GoalUnavailable``
(ValueErrors with a ``field``). The query is parsed once: the variant it asks for is the one
whose table is looked up, and a table missing from ``tables`` raises
``TableMissing`` naming that variant, so a caller that loads tables lazily
(the worker) can load it and ask again; a mapping that loads on lookup (the
CLI's) never lets it through.
"""

from collections.abc import Mapping

import numpy as np

from .advisor import advise
from .game import format_game, parse_game, replay
from .goal import distribution, goal_advice
from .position import format_query, parse_query
from .review import review
from .table import Table


class TableMissing(LookupError):
    """The table of ``variant`` (a known rule variant) is not among the tables given."""

    def __init__(self, variant: str) -> None:
        super().__init__(f"no table loaded for the {variant} rules")
        self.variant = variant


class SpreadMissing(LookupError):
    """The sd table of ``variant`` (``table.decode_spread``) is needed and not loaded."""

    def __init__(self, variant: str) -> None:
        super().__init__(f"no spread table loaded for the {variant} rules")
        self.variant = variant


class Tables(dict[str, Table]):
    """Variant name → ``Table``, and in ``spreads`` variant name → sd table ((4096, 64)
    float64, [mask, ν]), both filled by the caller as it loads them."""

    def __init__(self) -> None:
        super().__init__()
        self.spreads: dict[str, np.ndarray] = {}

    def spread(self, variant: str) -> np.ndarray:
        try:
            return self.spreads[variant]
        except KeyError:
            raise SpreadMissing(variant) from None


def _tilde(tables: Mapping[str, Table], variant: str) -> np.ndarray:
    """Ẽ of ``variant``: (4096, 64) float64, indexed [mask, ν]."""
    try:
        return tables[variant].tilde
    except KeyError:
        raise TableMissing(variant) from None


def advise_query(query: str, tables: Mapping[str, Table], *, with_distribution: bool = False) -> dict:
    position = parse_query(query)
    variant = position.variant.name
    result = advise(position, _tilde(tables, variant)).to_json()
    if position.opponent is not None or position.target is not None:
        spread = getattr(tables, "spread", None)  # a loader of the sd table, where the tables have one
        result = goal_advice(position, _tilde(tables, variant), result, spread and (lambda: spread(variant)))
    if with_distribution:
        result["distribution"] = distribution(position, _tilde(tables, variant))
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
