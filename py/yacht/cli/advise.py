"""``python -m yacht advise``: rank the options of positions, as text (``render``) or JSON.

    python -m yacht advise QUERY [QUERY ...] [--json] [--distribution] [--explain] [--lang en|ja] [--tables DIR]
    python -m yacht advise - [--json]          # one query per line on stdin

The answers are ``api.advise_query``'s (``api.explain_query``'s with ``--explain``); the query
loop, its errors and exit statuses are ``query.run_queries``'.
"""

import argparse
from functools import partial

from ..api import advise_query, explain_query
from ..core.categories import NAMES_EN
from .coach_text import render_explanation
from .query import add_query_options, answer_queries

HELP = "rank the options of positions"
DESCRIPTION = (
    "Rank every option of each position. QUERY: e.g. 's=3,,9,,,18,,,,,30,&d=14466&r=2' "
    "(s: sheet, d: dice, r: roll 0-3, v=strict); '-' reads one query per line from stdin."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("queries", nargs="+", metavar="QUERY")
    parser.add_argument(
        "--distribution",
        action="store_true",
        help="also the final-score distribution under the advised play: for the goal (o=/t=) where it is exact, "
        'else for the best average (JSON: "distribution")',
    )
    add_query_options(parser)


def run(args: argparse.Namespace) -> int:
    """Answer and print every query of ``args`` (``query.answer_queries``)."""
    render_text = render
    answer = partial(advise_query, with_distribution=args.distribution)
    if args.explain:
        answer = partial(explain_query, with_distribution=args.distribution)
        render_text = partial(render_explained, lang=args.lang)
    return answer_queries(args, answer, render_text)


def keep_text(keep: list[int]) -> str:
    """The dice of a keep, '4 4 6 6', or '(reroll all)'."""
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
            what = keep_text(option["keep"])
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


def render_explained(result: dict, lang: str = "en") -> str:
    """``render`` followed by the coach's explanation (``coach_text.render_explanation``)."""
    return "\n".join([render(result), *render_explanation(result, lang)])
