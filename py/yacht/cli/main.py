"""The command-line advisor: a thin edge around ``yacht.api``.

    python -m yacht advise QUERY [QUERY ...] [--json] [--distribution] [--explain] [--lang en|ja] [--tables DIR]
    python -m yacht advise - [--json]          # one query per line on stdin
    python -m yacht review GAME [--json] [--explain] [--lang en|ja]
                                               # grade every decision of a game record
                                               # (with o=/oh=: also by the chance of winning)
                                               # --explain: the coach's explanation (cli.coach_text)
    python -m yacht practice [--seed S] ...    # a practice game, choices on stdin (cli.practice)

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
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Final

import numpy as np

from ..api import advise_query, explain_query, review_query
from ..chances.goal import APPROXIMATION
from ..core.categories import N_CATEGORIES, NAMES_EN
from ..core.position import PositionError
from ..core.table import TableError
from ..loader import DEFAULT_TABLES, Tables
from .coach_text import LANGUAGES, render_explanation, why_words
from .practice import add_parser as add_practice_parser
from .practice import loss_summary, run_practice

if TYPE_CHECKING:
    from ..play.duel import DuelResult


def _fmt_keep(keep: list[int]) -> str:
    return " ".join(str(d) for d in keep) if keep else "(reroll all)"


def render(result: dict) -> str:
    """A readable ranked table of one advice: the options in the core's order with their ranks
    (tied options share one, ``ranking.rank``)."""
    lines = [f"{result['query']}  [{result['variant']}]"]
    if result["over"]:
        lines.append(f"Game over: final score {result['expected']:.0f}")
        return "\n".join(lines)
    lines.append(f"Score now {result['score']}, expected final score {result['expected']:.4f}{_goal_line(result)}")
    if "distribution" in result:
        lines.extend(render_distribution(result["distribution"]))
    if result["roll"] == 0:
        lines.append("(before the first roll: no choice to make)")
        return "\n".join(lines)
    header = "keep" if result["roll"] < 3 else "category"
    chance = _chance_header(result)
    lines.append(f"{'#':>3}  {header:<30} {chance}{'expected':>10} {'loss':>9}")
    for option in result["options"]:
        if "keep" in option:
            what = _fmt_keep(option["keep"])
            if "category" in option:
                what = f"{what} = score {NAMES_EN[option['category']]} ({option['points']})"
        else:
            what = f"{NAMES_EN[option['category']]} ({option['points']})"
        loss = "best" if option["rank"] == 1 else f"−{option['loss']:.4f}"
        lines.append(f"{option['rank']:>3}  {what:<30} {_chance(option)}{option['expected']:>10.4f} {loss:>9}")
    return "\n".join(lines)


DECIDED = "Decided: playing for the best score"
"""Said when every option's chance is certain and the same (``goal_advice``'s ``"decided"``)."""


def _goal_line(result: dict) -> str:
    """'; chance of winning 51.20 % (draw 0.40 %)' or '; chance of reaching 150: …', or ''."""
    note = "" if result.get("exact", True) else f"\n(approximate: {result['method']})"
    if result.get("decided"):
        note += f"\n{DECIDED}"
    if "win" in result:
        return f"; chance of winning {100 * result['win']:.2f} % (draw {100 * result['draw']:.2f} %){note}"
    if "reach" in result:
        return f"; chance of reaching {_target(result)}: {100 * result['reach']:.2f} %{note}"
    return ""


def _target(result: dict) -> str:
    return result["query"].rsplit("t=", 1)[1].split("&", 1)[0]


def _chance_header(result: dict) -> str:
    if "win" in result:
        return f"{'win':>8} {'draw':>7} "
    return f"{'reach':>8} " if "reach" in result else ""


def _chance(option: dict) -> str:
    """The goal's columns of one option (percent), or '' without a goal."""
    if "win" in option:
        return f"{100 * option['win']:>7.2f}% {100 * option['draw']:>6.2f}% "
    return f"{100 * option['reach']:>7.2f}% " if "reach" in option else ""


def render_distribution(dist: dict) -> list[str]:
    """The final-score distribution as text lines: summary, then one bar per final score."""
    p = dist["p"]
    kind = (
        "exact"
        if dist["exact"]
        else (f"simulated, {dist['games']:,} games, standard error at most {100 * dist['standard_error']:.2f} points")
    )
    play = "playing for the goal" if dist["play"] == "goal" else "playing for the best average"
    lines = [
        f"Final score distribution {play} ({kind}): mean {dist['expected']:.4f}, "
        f"upper bonus {100 * dist['bonus']:.2f} %"
    ]
    peak = max(p) or 1.0
    for i, chance in enumerate(p):
        if chance >= 5e-5:
            lines.append(f"{dist['from'] + i:>5}  {100 * chance:6.2f} %  {'#' * round(40 * chance / peak)}")
    return lines


def _fmt_option(option: dict) -> str:
    if "keep" in option:
        what = "keep " + _fmt_keep(option["keep"])
        if "category" in option:
            what = f"{what} = score {NAMES_EN[option['category']]} ({option['points']})"
        return what
    return f"score {NAMES_EN[option['category']]} ({option['points']})"


OPTION_WIDTH: Final = 38
"""The widest option a review names: 'keep 1 2 3 4 5 = score S.Straight (15)'."""


def render_review(result: dict) -> str:
    """A readable review: the summary, then one line per decision."""
    lines = [f"{result['query']}  [{result['variant']}]"]
    if result.get("result") is not None:
        lines.append(render_result(result["result"]))
    elif result["final"] is not None:
        lines.append(f"Final score {result['final']}")
    else:
        lines.append(f"Game in progress ({result['position']}): expected final score {result['last']:.4f}")
    n = len(result["decisions"])
    lines.append(
        f"Expected at the start {result['start']:.4f}; the dice (luck) {result['luck']:+.4f}; "
        f"the decisions (skill) {-result['total_loss'] or 0.0:+.4f}"
    )
    if n:
        lines.append(loss_summary(result, 4))
    winning = result.get("winning")
    if winning:
        lines.append(_chances_line(winning))
    chance_header = f" {'chance':>7} {_aim(winning):>7}" if winning else ""
    if n:
        lines.append(
            f"{'turn':>4} {'roll':>4}  {'dice':<6} {'chosen':<{OPTION_WIDTH}} {'best':<{OPTION_WIDTH}} {'loss':>8}"
            f"{chance_header}"
        )
    for d in result["decisions"]:
        loss = f"−{d['grade']['loss']:.4f}" if not d["grade"]["best"] else "best"
        dice_text = "".join(map(str, d["dice"]))
        lines.append(
            f"{d['turn']:>4} {d['roll']:>4}  {dice_text:<6} {_fmt_option(d['chosen']):<{OPTION_WIDTH}} "
            f"{_fmt_option(_graded_best(d)):<{OPTION_WIDTH}} {loss:>8}{_decision_chances(d)}"
        )
    if result["costliest"]:
        worst = ", ".join(
            f"turn {result['decisions'][i]['turn']} roll {result['decisions'][i]['roll']} "
            f"(−{result['decisions'][i]['grade']['loss']:.4f})"
            for i in result["costliest"]
        )
        lines.append(f"Costliest: {worst}")
    if n:
        lines.append(f"Each decision's loss: {MEASURE_WORDS[result['measure']]}")
    if winning:
        lines.extend(_aims_lines(result))
    return "\n".join(lines)


def render_explained(result: dict, lang: str = "en") -> str:
    """``render`` followed by the coach's explanation (``coach_text.render_explanation``)."""
    return "\n".join([render(result), *render_explanation(result, lang)])


def render_review_explained(result: dict, lang: str = "en") -> str:
    """``render_review`` followed by, for each decision that was not the best, why the best beats it."""
    lines = [render_review(result)]
    for d in result["decisions"]:
        if d["why"]:
            where = f"turn {d['turn']} roll {d['roll']} dice {''.join(map(str, d['dice']))}"
            lines.append(f"{where}: {why_words(d['best'], d['chosen'], d['why'], lang)}")
    return "\n".join(lines)


MEASURE_WORDS: Final = {
    "score": "points of expected final score",
    "win": "percentage points of the chance of winning (what the advice played for)",
    "reach": "percentage points of the chance of reaching the target (what the advice played for)",
}
"""The unit of a review's losses, by ``yacht.play.review.MEASURES``."""


def render_result(result: dict) -> str:
    """A finished game's result in words, the winner's total first: 'You won 184–148', 'Rival won
    162–150', 'Draw 170–170'."""
    mine, theirs = result["mine"], result["theirs"]
    if result["outcome"] == "loss":
        return f"Rival won {theirs}–{mine}"
    return f"{'You won' if result['outcome'] == 'win' else 'Draw'} {mine}–{theirs}"


def _graded_best(decision: dict) -> dict:
    """The best option in the decision's grade: the goal's with a goal, else the best average."""
    return decision["best"] if decision["grade"]["measure"] == "score" else decision["winning"]["best"]


def _signed(points: float) -> str:
    """'+1.20' or '−1.20' (a minus sign, as the losses are written)."""
    return f"{points:+.2f}".replace("-", "−")


def _percent(chance: float, exact: bool = True) -> str:
    return f"{'' if exact else '~'}{100 * chance:.2f}%"


def _aim(winning: dict) -> str:
    """What the review's goal is, in two words: "to win" or "to reach" (a score to reach)."""
    return "to win" if winning["target"] is None else "to reach"


def _chances_line(winning: dict) -> str:
    """The review's goal chance at the start and at the end."""
    start, last = winning["start"], winning["last"]
    if winning["target"] is None:
        what = f"Chance of winning (win + draw/2; you sit {'first' if winning['seat'] == 1 else 'second'})"
    else:
        what = f"Chance of reaching {winning['target']}"
    return (
        f"{what}: at the start {_percent(start['chance'], start['exact'])}, "
        f"at the end {_percent(last['chance'], last['exact'])}"
    )


def _decision_chances(decision: dict) -> str:
    """The chance columns of one decision: the option chosen and the best for the goal."""
    if "winning" not in decision:
        return ""
    w = decision["winning"]
    return f" {_percent(w['chosen']['chance'], w['exact']):>7} {_percent(w['best']['chance'], w['exact']):>7}"


def _aims_lines(result: dict) -> list[str]:
    """The decisions where playing for the goal and the best average differ, and the approximation note."""
    decisions = result["decisions"]
    differ = result["winning"]["aims_differ"]
    aim = _aim(result["winning"])
    goal = "playing to win" if aim == "to win" else f"playing to reach {result['winning']['target']}"
    lines = [f"Where {goal} and the best average differ: {len(differ) or 'nowhere'}"]
    for i in differ:
        d, w = decisions[i], decisions[i]["winning"]
        exact = w["exact"]
        change = 100 * (w["chosen"]["chance"] - w["best"]["chance"])
        lines.append(
            f"  turn {d['turn']} roll {d['roll']} dice {''.join(map(str, d['dice']))}: best average "
            f"{_fmt_option(d['best'])} {_percent(w['best_average']['chance'], exact)}, {aim} "
            f"{_fmt_option(w['best'])} {_percent(w['best']['chance'], exact)}; you chose "
            f"{_fmt_option(d['chosen'])} {_percent(w['chosen']['chance'], exact)} "
            f"({_signed(change)} pp against {goal})"
        )
    ends = (result["winning"]["start"], result["winning"]["last"])
    methods = {d["winning"]["method"] for d in decisions if not d["winning"]["exact"]}
    if methods or not all(end["exact"] for end in ends):
        lines.append(f"~ approximate: {' / '.join(sorted(methods)) or APPROXIMATION}")
    return lines


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


OPTIONS: Final = ("--json", "--distribution", "--explain", "--tables", "--lang", "-h", "--help")
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
        elif arg in OPTIONS or arg.startswith(("--tables=", "--lang=")):
            options.append(arg)
            if arg in ("--tables", "--lang"):
                options.append(next(rest, ""))
        else:
            queries.append(arg)
    return [*options, "--", *queries] if queries else options


def _folder(text: str) -> Path:
    """The ``--tables`` folder; an empty name is an error, not the current folder."""
    if not text:
        raise argparse.ArgumentTypeError("is empty: name the folder of the table files")
    return Path(text)


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 2:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of games, 2 or more")
    return int(text)


def render_duel(variant_name: str, result: "DuelResult", cpu: float, wall: float, exact_free: int) -> str:
    """The figures of a duel as text: games and their speed, the win rate (draws half) with
    its 95 % interval for both seats, each seat and averaged over the seats (the two seats'
    rates averaged; half-width: the seats' half-widths combined, √(h₁² + h₂²)/2), and the
    calibration in ten bins, and its drift by turn (``duel.drift``). ``cpu``, ``wall``: seconds
    spent playing."""
    from ..play.duel import calibration, drift, win_rate

    games = len(result.result)
    lines = [
        f"{variant_name}: {games:,} games in {wall:.0f} s ({games / cpu:.1f} games per CPU second; "
        f"exact range: {exact_free} free categories)"
    ]
    for label, chosen in (("both seats", slice(None)), ("first seat", result.first), ("second seat", ~result.first)):
        played = result.result[chosen]
        rate, half = win_rate(played)
        lines.append(
            f"  {label:<12} win-aware wins {100 * rate:6.2f} % ± {100 * half:.2f} (95 %), "
            f"draws {100 * float((played == 0.5).mean()):.2f} %, {len(played):,} games"
        )
    seats = [win_rate(result.result[result.first]), win_rate(result.result[~result.first])]
    average, half = (seats[0][0] + seats[1][0]) / 2, float(np.hypot(seats[0][1], seats[1][1])) / 2
    lines.append(f"  averaged over the seats: {100 * average:.2f} % ± {100 * half:.2f} (95 %; goal: at least 51.0 %)")
    lines.append(f"  calibration, {len(result.predicted):,} points (turn starts of the win-aware player):")
    lines.append(f"  {'predicted':>12} {'observed':>9} {'gap':>7} {'points':>10}")
    for predicted, observed, count in calibration(result.predicted, result.observed):
        if count:
            gap = 100 * (observed - predicted)
            lines.append(f"  {100 * predicted:11.2f}% {100 * observed:8.2f}% {gap:+7.2f} {count:>10,}")
    reference = N_CATEGORIES - exact_free  # the first turn whose prediction is exact (exact_free free categories)
    by_turn = drift(result.predicted, result.turn, reference)
    if by_turn:
        lines.append(
            f"  drift: the mean prediction by turn, and minus turn {reference + 1}'s (the first exact one),"
            " game by game (95 %; calibrated: 0):"
        )
        for turn, mean, difference, half in by_turn:
            lines.append(f"    turn {turn + 1:>2}  {100 * mean:6.2f} %  {100 * difference:+6.2f} ± {100 * half:.2f}")
    return "\n".join(lines)


def render_paired(variant_name: str, shipped: np.ndarray, before: np.ndarray) -> str:
    """The paired difference of two win-aware players' results (games,) on the same dice and
    seats: the shipped player's (the chunks) minus the one before (the normal law), in points of
    win rate (draws half), with its 95 % interval, and how many games each won that the other
    did not."""
    difference = shipped - before
    half = 1.96 * difference.std(ddof=1) / np.sqrt(len(difference))
    return (
        f"{variant_name}: the chunks' player minus the normal law's, same dice and seats, {len(difference):,} games: "
        f"{100 * difference.mean():+.2f} points of win rate (95 % interval ±{100 * half:.2f}; "
        f"better in {int((difference > 0).sum()):,} games, worse in {int((difference < 0).sum()):,})"
    )


def run_duel(args: argparse.Namespace) -> int:
    """``python -m yacht duel``: play and print the figures per variant (``render_duel``)."""
    import time

    from ..chances.goal import EXACT_FREE
    from ..core.rules import VARIANTS
    from ..play.duel import duel

    tables = Tables(args.tables)
    exact_free = EXACT_FREE if args.exact_free is None else args.exact_free
    for variant_name in args.variant or ["official", "strict"]:
        try:
            table, spread = tables[variant_name], tables.spread(variant_name)
        except TableError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        chunks = partial(tables.chunks_of, variant_name)
        results = []
        for player in (chunks, None) if args.compare else (chunks,):
            cpu, wall = time.process_time(), time.perf_counter()
            rng = np.random.default_rng([args.seed, variant_name == "strict"])  # the same dice for both players
            try:
                result = duel(table.tilde, spread, VARIANTS[variant_name], args.games, rng, exact_free, chunks=player)
            except TableError as e:
                print(f"error: {e}", file=sys.stderr)
                return 1
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            name = variant_name if player else f"{variant_name}, the normal law beyond the exact range (before)"
            print(render_duel(name, result, cpu, wall, exact_free), flush=True)
            results.append(result.result)
        if args.compare:
            print(render_paired(variant_name, *results), flush=True)
    return 0


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
    advise_parser.add_argument(
        "--distribution",
        action="store_true",
        help="also the final-score distribution under the advised play: for the goal (o=/t=) where it is exact, "
        'else for the best average (JSON: "distribution")',
    )
    review_parser = commands.add_parser(
        "review",
        help="grade every decision of game records",
        description="Grade every decision of each game record: GAME is the page's link query, e.g. "
        "'h=14466-4466-24466g.12356-6-16663-666-66634f' (with s=, r=, v= as needed) or the whole link; "
        "'-' reads one per line from stdin.",
    )
    review_parser.add_argument("queries", nargs="+", metavar="GAME")
    duel_parser = commands.add_parser(
        "duel",
        help="simulate the win-aware player against the expected-score player",
        description="Head-to-head games, seats alternated: the win rate (draws half) with its 95 %% interval, "
        "per seat, and the calibration of the predicted chance of winning in ten bins and by turn.",
    )
    duel_parser.add_argument("--games", type=_positive, default=2000, help="games per variant (default 2000)")
    duel_parser.add_argument("--variant", choices=("official", "strict"), action="append", help="default: both")
    duel_parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    duel_parser.add_argument(
        "--compare",
        action="store_true",
        help="also play the win-aware player that uses the spread table's normal law beyond the exact range "
        "(the one before the chunks) on the same dice, and print the difference",
    )
    duel_parser.add_argument(
        "--exact-free",
        type=int,
        choices=range(1, 5),
        default=None,
        help="the win-aware player's exact range in free categories (default: the advisor's, 4)",
    )
    practice_parser = add_practice_parser(commands)
    for sub in (advise_parser, review_parser, duel_parser, practice_parser):
        if sub in (advise_parser, review_parser):
            sub.add_argument("--json", action="store_true", help="one JSON object per query, one per line")
            sub.add_argument(
                "--explain",
                action="store_true",
                help="the coach: what each option plays for, the bonus and each category's expected points "
                'after it, and why the best beats the others (JSON: "aims", "bonus", "categories", "why")',
            )
            sub.add_argument("--lang", choices=LANGUAGES, default="en", help="the explanation's language (default en)")
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
    if args.command == "duel":
        return run_duel(args)
    if args.command == "practice":
        try:
            return run_practice(args, args.tables)
        except TableError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            return 130
    if args.command == "advise":
        render_text = render
        answer = partial(advise_query, with_distribution=args.distribution)
        if args.explain:
            answer = partial(explain_query, with_distribution=args.distribution)
            render_text = partial(render_explained, lang=args.lang)
    else:
        answer, render_text = review_query, render_review
        if args.explain:
            answer = partial(review_query, explain=True)
            render_text = partial(render_review_explained, lang=args.lang)
    try:
        return run_queries(args.queries, args.json, args.tables, answer, render_text)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
