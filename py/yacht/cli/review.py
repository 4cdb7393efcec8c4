"""``python -m yacht review``: grade every decision of game records, as text (``render_review``)
or JSON.

    python -m yacht review GAME [--json] [--explain] [--lang en|ja]
                                               # grade every decision of a game record
                                               # (with o=/oh=: also by the chance of winning)
                                               # --explain: the coach's explanation (cli.coach_text)

The answers are ``api.review_query``'s; the query loop, its errors and exit statuses are
``query.run_queries``'.
"""

import argparse
from functools import partial
from typing import Final

from ..api import review_query
from ..chances.goal import APPROXIMATION
from ..core.categories import NAMES_EN
from .advise import keep_text
from .coach_text import why_words
from .practice import loss_summary
from .query import add_query_options, answer_queries

HELP = "grade every decision of game records"
DESCRIPTION = (
    "Grade every decision of each game record: GAME is the page's link query, e.g. "
    "'h=14466-4466-24466g.12356-6-16663-666-66634f' (with s=, r=, v= as needed) or the whole link; "
    "'-' reads one per line from stdin."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("queries", nargs="+", metavar="GAME")
    add_query_options(parser)


def run(args: argparse.Namespace) -> int:
    """Grade and print every game record of ``args`` (``query.answer_queries``)."""
    answer, render_text = review_query, render_review
    if args.explain:
        answer = partial(review_query, explain=True)
        render_text = partial(render_review_explained, lang=args.lang)
    return answer_queries(args, answer, render_text)


def option_text(option: dict) -> str:
    """An option as a review names it: 'keep 4 4 6', 'score Sixes (18)'."""
    if "keep" in option:
        what = "keep " + keep_text(option["keep"])
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
            f"{d['turn']:>4} {d['roll']:>4}  {dice_text:<6} {option_text(d['chosen']):<{OPTION_WIDTH}} "
            f"{option_text(_graded_best(d)):<{OPTION_WIDTH}} {loss:>8}{_decision_chances(d)}"
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


def render_review_explained(result: dict, lang: str = "en") -> str:
    """``render_review`` followed by, for each decision that was not the best, why the best beats it."""
    lines = [render_review(result)]
    for d in result["decisions"]:
        if d["why"] and d["why"]["shown"]:
            where = f"turn {d['turn']} roll {d['roll']} dice {''.join(map(str, d['dice']))}"
            lines.append(f"{where}: {why_words(d['best'], d['chosen'], d['why'], lang)}")
    return "\n".join(lines)


MEASURE_WORDS: Final = {
    "score": "points of expected final score",
    "win": "percentage points of the chance of winning (what the advice played for)",
    "reach": "percentage points of the chance of reaching the target (what the advice played for)",
}
"""The unit of a review's losses, by ``yacht.play.graded.MEASURES``."""


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
            f"{option_text(d['best'])} {_percent(w['best_average']['chance'], exact)}, {aim} "
            f"{option_text(w['best'])} {_percent(w['best']['chance'], exact)}; you chose "
            f"{option_text(d['chosen'])} {_percent(w['chosen']['chance'], exact)} "
            f"({_signed(change)} pp against {goal})"
        )
    ends = (result["winning"]["start"], result["winning"]["last"])
    methods = {d["winning"]["method"] for d in decisions if not d["winning"]["exact"]}
    if methods or not all(end["exact"] for end in ends):
        lines.append(f"~ approximate: {' / '.join(sorted(methods)) or APPROXIMATION}")
    return lines
