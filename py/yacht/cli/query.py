"""The query loop of ``advise`` and ``review``: each query (an argument, or a line of standard
input with ``-``) answered and printed as text or as one JSON line.

Bad input: a message on stderr naming what is wrong (outside text quoted with ``repr``), exit
status 2; the other queries are still answered, and with ``--json`` a bad query gets an error
object ``{"query", "error": {"field", "message"}}`` in its place, so the output has one line per
query (per input line with ``-``). A table that is missing or damaged: exit status 1. Any
argument that is not an option is a query, even one that starts with ``-`` (``queries_last``).
"""

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from ..core.position import PositionError
from ..core.table import TableError
from ..loader import Tables
from ..play.game import format_game
from .coach_text import LANGUAGES

QUERY_COMMANDS: Final = ("advise", "review")
"""The commands whose arguments are queries."""


def add_query_options(parser: argparse.ArgumentParser) -> None:
    """The options of both query commands: ``--json``, ``--explain``, ``--lang``."""
    parser.add_argument("--json", action="store_true", help="one JSON object per query, one per line")
    parser.add_argument(
        "--explain",
        action="store_true",
        help="the coach: what each option plays for, the bonus and each category's expected points "
        'after it, and why the best beats the others (JSON: "aims", "bonus", "categories", "why")',
    )
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help="the explanation's language (default en)")


def answer_queries(args: argparse.Namespace, answer, render_text) -> int:
    """``run_queries`` of a query command's ``args``; 130 when interrupted, 0 when the reader
    of the output has gone (a closed pipe)."""
    try:
        return run_queries(args.queries, args.json, args.tables, answer, render_text)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


def _queries(args: list[str]) -> Iterable[tuple[str, str | None]]:
    """Each query with where it came from: ``(text, None)`` for an argument,
    ``(line, "line N")`` for standard input (blank lines included, so that every
    input line gets its answer)."""
    for arg in args:
        if arg == "-":
            for number, line in enumerate(sys.stdin, 1):
                yield line.rstrip("\r\n"), f"line {number}"
        else:
            yield arg, None


def run_queries(queries: list[str], as_json: bool, folder: Path, answer, render_text) -> int:
    """Answer each query (``answer(query, tables)``), printing JSON lines or text.

    A bad query: its message on stderr (and, with ``as_json``, an error object on
    stdout in its place); the others are still answered and the status is 2. A
    table that cannot be loaded stops everything with status 1.
    """
    tables = Tables(folder)
    status = 0
    first = True
    for query, origin in _queries(queries):
        try:
            if origin is not None and not query.strip():
                raise PositionError("query", "blank line (a new game before its first roll is r=0)")
            result = answer(query, tables)
        except TableError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        except ValueError as e:  # PositionError, GameError
            where = f"{origin}: " if origin else ""
            print(f"error: {where}{query!r}: {e}{_legal_text(e)}", file=sys.stderr)
            status = 2
            if as_json:
                error = e.to_json() if isinstance(e, PositionError) else {"field": getattr(e, "field", "query")}
                error.setdefault("message", str(e))
                print(json.dumps({"query": query, "error": error}), flush=True)
            continue
        if as_json:
            print(json.dumps(result, ensure_ascii=False), flush=True)
        else:
            print(("" if first else "\n") + render_text(result), flush=True)
        first = False
    return status


def _legal_text(error: ValueError) -> str:
    """What of a broken game record is legal (``GameError.legal``), as a line to add, or ""."""
    legal = getattr(error, "legal", None)
    if legal is None:
        return ""
    whose = "your" if legal.who == "me" else "the opponent's"
    turns = f"{legal.mine} of your turns" + ("" if legal.game.opponent is None else f", {legal.theirs} of theirs")
    return f"\n  the legal game before {whose} turn {legal.turn} ({turns}): {format_game(legal.game)!r}"


OPTIONS: Final = ("--json", "--distribution", "--explain", "--tables", "--lang", "-h", "--help")
"""The options of both commands; any other argument, even one that starts with ``-``, is a query."""


def queries_last(argv: list[str]) -> list[str]:
    """``argv`` with every argument that is not an option moved after ``--``, so a
    query such as ``-1?d=12345&r=1`` is never taken for an option."""
    if not argv or argv[0] not in QUERY_COMMANDS:
        return argv
    options, queries = [argv[0]], []
    rest = iter(argv[1:])
    for arg in rest:
        if arg == "--":
            queries.extend(rest)
        elif arg in OPTIONS or arg.startswith(("--tables=", "--lang=")):
            options.append(arg)
            if arg in ("--tables", "--lang"):
                options.append(next(rest, ""))
        else:
            queries.append(arg)
    return [*options, "--", *queries] if queries else options
