"""The command line, ``python -m yacht``: a thin edge around ``yacht.api``. This module parses
the arguments and hands them to the sub-command's module, which answers and renders as text:

    python -m yacht advise QUERY [QUERY ...] [--json] [--distribution] [--explain] [--lang en|ja] [--tables DIR]
    python -m yacht advise - [--json]          # one query per line on stdin (cli.advise)
    python -m yacht review GAME [--json] [--explain] [--lang en|ja]
                                               # grade every decision of a game record (cli.review)
    python -m yacht duel [--games N] ...       # the win-aware player's duel (cli.duel)
    python -m yacht practice [--seed S] ...    # a practice game, choices on stdin (cli.practice)

Reads the table files (``build_table`` output) from ``--tables`` (default:
``public/tables`` of this checkout, or ``$YACHT_TABLES``). Bad input: a
message on stderr naming what is wrong, exit status 2 (for the queries of
``advise`` and ``review``: ``cli.query``). A table that is missing or damaged:
exit status 1.
"""

import argparse
import os
import sys
from pathlib import Path
from typing import Final

from ..loader import DEFAULT_TABLES
from . import advise, duel, practice, review
from .query import queries_last

COMMANDS: Final = {"advise": advise, "review": review, "duel": duel, "practice": practice}
"""Each sub-command's module: its ``HELP``, ``DESCRIPTION``, ``add_arguments(parser)`` and
``run(args)`` (the exit status), in the order ``--help`` lists them."""


def _folder(text: str) -> Path:
    """The ``--tables`` folder; an empty name is an error, not the current folder."""
    if not text:
        raise argparse.ArgumentTypeError("is empty: name the folder of the table files")
    return Path(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m yacht", description="Exact Yacht advice.")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, command in COMMANDS.items():
        sub = commands.add_parser(name, help=command.HELP, description=command.DESCRIPTION)
        command.add_arguments(sub)
        sub.add_argument(
            "--tables",
            type=_folder,
            default=None,
            help="folder of the table files (default: $YACHT_TABLES or public/tables)",
        )
    args = parser.parse_args(queries_last(sys.argv[1:] if argv is None else argv))
    if args.tables is None:
        env = os.environ.get("YACHT_TABLES")
        if env == "":
            print("error: YACHT_TABLES is set but empty: name the folder of the tables, or unset it", file=sys.stderr)
            return 2
        args.tables = DEFAULT_TABLES if env is None else Path(env)
    return COMMANDS[args.command].run(args)
