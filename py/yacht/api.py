"""One call from a query string to JSON-ready advice: what the CLI and the
browser worker both use.

``advise_query(query, tables)`` parses the position, picks the table of its
variant and returns ``Advice.to_json()`` plus the canonical ``query`` and the
``variant``. Bad input raises ``position.PositionError``; a missing table
raises ``KeyError`` naming the variant.
"""

from collections.abc import Mapping

from .advisor import advise
from .position import format_query, parse_query
from .table import Table


def advise_query(query: str, tables: Mapping[str, Table]) -> dict:
    position = parse_query(query)
    variant = position.variant.name
    if variant not in tables:
        raise KeyError(f"no table loaded for the {variant} rules")
    result = advise(position, tables[variant].tilde).to_json()
    result["query"] = format_query(position)
    result["variant"] = variant
    return result


def variant_of(query: str) -> str:
    """The rule variant a query asks for (to load its table first)."""
    return parse_query(query).variant.name
