"""The command-line advisor: a thin edge around ``yacht.api``.

    python -m yacht advise QUERY [QUERY ...] [--json] [--tables DIR]
    python -m yacht advise - [--json]          # one query per line on stdin
    python -m yacht review GAME [--json]       # grade every decision of a game record

Reads the table files (``build_table`` output) from ``--tables`` (default:
``public/tables`` of this checkout, or ``$YACHT_TABLES``). Bad input: a
message on stderr naming what is wrong (outside text quoted with ``repr``),
exit status 2; the other queries are still answered, and with ``--json`` a
bad query gets an error object ``{"query", "error": {"field", "message"}}``
in its place, so the output has one line per query (per input line with
``-``). A table that is missing or damaged: exit status 1. Any argument that
is not an option is a query, even one that starts with ``-``.
"""

import argparse
import json
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from .api import advise_query, review_query
from .categories import NAMES_EN
from .position import PositionError
from .table import Table, TableError, decode, file_name

DEFAULT_TABLES = Path(__file__).resolve().parents[2] / "public" / "tables"


class _Tables(dict[str, Table]):
    """Tables loaded from a folder on first lookup, per variant (``yacht.api`` looks up
    the variant it parsed from the query)."""

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder

    def __missing__(self, variant: str) -> Table:
        path = self.folder / file_name(variant)
        try:
            data = path.read_bytes()
        except OSError as e:
            raise TableError(
                f"{path}: cannot read the {variant} table ({e.strerror}); build it with `python -m build_table`"
            ) from None
        self[variant] = table = decode(data, source=str(path), variant=variant)
        return table


def _fmt_keep(keep: list[int]) -> str:
    return " ".join(str(d) for d in keep) if keep else "(reroll all)"


def render(result: dict) -> str:
    """A readable ranked table of one advice."""
    lines = [f"{result['query']}  [{result['variant']}]"]
    if result["over"]:
        lines.append(f"Game over: final score {result['expected']:.0f}")
        return "\n".join(lines)
    lines.append(f"Score now {result['score']}, expected final score {result['expected']:.4f}")
    if result["roll"] == 0:
        lines.append("(before the first roll: no choice to make)")
        return "\n".join(lines)
    header = "keep" if result["roll"] < 3 else "category"
    lines.append(f"{'#':>3}  {header:<30} {'expected':>10} {'loss':>9}")
    for rank, option in enumerate(result["options"], 1):
        if "keep" in option:
            what = _fmt_keep(option["keep"])
            if "category" in option:
                what = f"{what} = score {NAMES_EN[option['category']]} ({option['points']})"
        else:
            what = f"{NAMES_EN[option['category']]} ({option['points']})"
        loss = f"−{option['loss']:.4f}" if option["loss"] > 0 else "best"
        lines.append(f"{rank:>3}  {what:<30} {option['expected']:>10.4f} {loss:>9}")
    return "\n".join(lines)


def _fmt_option(option: dict) -> str:
    if "keep" in option:
        what = "keep " + _fmt_keep(option["keep"])
        if "category" in option:
            what = f"{what} = score {NAMES_EN[option['category']]} ({option['points']})"
        return what
    return f"score {NAMES_EN[option['category']]} ({option['points']})"


def render_review(result: dict) -> str:
    """A readable review: the summary, then one line per decision."""
    lines = [f"{result['query']}  [{result['variant']}]"]
    if result["final"] is not None:
        lines.append(f"Final score {result['final']}")
    else:
        lines.append(f"Game in progress ({result['position']}): expected final score {result['last']:.4f}")
    n = len(result["decisions"])
    lines.append(
        f"Expected at the start {result['start']:.4f}; the dice (luck) {result['luck']:+.4f}; "
        f"the decisions (skill) {-result['total_loss']:+.4f} over {n} decision{'s' * (n != 1)} "
        f"(mean loss {result['mean_loss']:.4f})"
    )
    if n:
        lines.append(f"{'turn':>4} {'roll':>4}  {'dice':<6} {'chosen':<34} {'best':<34} {'loss':>8}")
    for d in result["decisions"]:
        loss = f"−{d['loss']:.4f}" if d["loss"] > 0 else "best"
        dice_text = "".join(map(str, d["dice"]))
        lines.append(
            f"{d['turn']:>4} {d['roll']:>4}  {dice_text:<6} {_fmt_option(d['chosen']):<34} "
            f"{_fmt_option(d['best']):<34} {loss:>8}"
        )
    if result["costliest"]:
        worst = ", ".join(
            f"turn {result['decisions'][i]['turn']} roll {result['decisions'][i]['roll']} "
            f"(−{result['decisions'][i]['loss']:.4f})"
            for i in result["costliest"]
        )
        lines.append(f"Costliest: {worst}")
    return "\n".join(lines)


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
    tables = _Tables(folder)
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
            print(f"error: {where}{query!r}: {e}", file=sys.stderr)
            status = 2
            if as_json:
                field = getattr(e, "field", "query")
                print(json.dumps({"query": query, "error": {"field": field, "message": str(e)}}), flush=True)
            continue
        if as_json:
            print(json.dumps(result, ensure_ascii=False), flush=True)
        else:
            print(("" if first else "\n") + render_text(result), flush=True)
        first = False
    return status


OPTIONS: Final = ("--json", "--tables", "-h", "--help")
"""The options of both commands; any other argument, even one that starts with ``-``, is a query."""


def _queries_last(argv: list[str]) -> list[str]:
    """``argv`` with every argument that is not an option moved after ``--``, so a
    query such as ``-1?d=12345&r=1`` is never taken for an option."""
    if not argv or argv[0] not in ("advise", "review"):
        return argv
    options, queries = [argv[0]], []
    rest = iter(argv[1:])
    for arg in rest:
        if arg == "--":
            queries.extend(rest)
        elif arg in OPTIONS or arg.startswith("--tables="):
            options.append(arg)
            if arg == "--tables":
                options.append(next(rest, ""))
        else:
            queries.append(arg)
    return [*options, "--", *queries] if queries else options


def _folder(text: str) -> Path:
    """The ``--tables`` folder; an empty name is an error, not the current folder."""
    if not text:
        raise argparse.ArgumentTypeError("is empty: name the folder of the table files")
    return Path(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m yacht", description="Exact Yacht advice.")
    commands = parser.add_subparsers(dest="command", required=True)
    advise_parser = commands.add_parser(
        "advise",
        help="rank the options of positions",
        description="Rank every option of each position. QUERY: e.g. 's=3,,9,,,18,,,,,30,&d=14466&r=2' "
        "(s: sheet, d: dice, r: roll 0-3, v=strict); '-' reads one query per line from stdin.",
    )
    advise_parser.add_argument("queries", nargs="+", metavar="QUERY")
    review_parser = commands.add_parser(
        "review",
        help="grade every decision of game records",
        description="Grade every decision of each game record: GAME is the page's link query, e.g. "
        "'h=14466-4466-24466g.12356-6-16663-666-66634f' (with s=, r=, v= as needed) or the whole link; "
        "'-' reads one per line from stdin.",
    )
    review_parser.add_argument("queries", nargs="+", metavar="GAME")
    for sub in (advise_parser, review_parser):
        sub.add_argument("--json", action="store_true", help="one JSON object per query, one per line")
        sub.add_argument(
            "--tables",
            type=_folder,
            default=None,
            help="folder of the table files (default: $YACHT_TABLES or public/tables)",
        )
    args = parser.parse_args(_queries_last(sys.argv[1:] if argv is None else argv))
    if args.tables is None:
        env = os.environ.get("YACHT_TABLES")
        if env == "":
            print("error: YACHT_TABLES is set but empty: name the folder of the tables, or unset it", file=sys.stderr)
            return 2
        args.tables = DEFAULT_TABLES if env is None else Path(env)
    answer, render_text = (advise_query, render) if args.command == "advise" else (review_query, render_review)
    try:
        return run_queries(args.queries, args.json, args.tables, answer, render_text)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
