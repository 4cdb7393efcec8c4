"""``python -m yacht practice``: a practice game in a terminal, the advice hidden.

    python -m yacht practice [--seed SEED] [--variant official|strict] [--opponent]
                             [--feedback each|end] [--json] [--tables DIR]

The dice come from the seed (``practice_dice``; a new one is drawn when none is given and printed
first, so the same dice can be played again, here or on the page with ``?p=<seed>&h=``). Each
input line is one choice:

- ``keep 446`` (or just ``446``): keep those dice and roll the others; ``keep`` alone (or ``-``)
  rolls all five;
- a category: its letter (``a`` Aces … ``l`` Yacht) or its name (``sixes``, ``full house``,
  ``s.straight``), or ``score <category>``;
- ``quit``: stop (the record so far is printed; exit status 1).

Blank lines and lines starting with ``#`` are skipped; a line that is not understood (or a keep
not in the dice, a category already filled) is reported on stderr and the game waits for the
next. With ``--feedback each`` (the default) every choice is graded at once: the best option and
mine, what each scores now and the expected final score after each, the loss (and, with
``--opponent``, the chance of winning of each); with ``end`` only the summary is shown. The
summary is the review of the record (``api.review_query``): the final score, the mean loss per
decision, the decisions counted by loss, the three costliest with their positions, luck and
skill, and the record itself. ``--json``: instead of text, one JSON object at the end, the
review's (``review_query``) with ``"seed"``. End of input before the game is over: the record so
far, exit status 1.
"""

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

from ..api import grade_query, review_query
from ..core.categories import NAMES_EN
from ..core.dice import roll_index
from ..core.rules import VARIANTS, score_table
from ..core.table import TableError
from ..loader import Tables
from ..play.game import CATEGORY_LETTERS
from ..play.graded import LOSS_BINS
from ..play.practice import Practice
from ..play.practice_dice import SeedError, format_seed, parse_seed, random_seed

BIN_TEXT = {"optimal": "optimal", "below_0.1": "< 0.1", "0.1_to_1": "0.1–1", "1_to_5": "1–5", "above_5": "> 5"}
"""How the summary names the ``graded.LOSS_BINS``."""


LOSS_UNITS = {"score": "pts", "win": "pp", "reach": "pp"}
"""The unit of a review's losses by ``graded.MEASURES``: points of expected final score, or
percentage points of the goal's chance."""


def loss_summary(result: dict, digits: int) -> str:
    """A review's losses in its measure's unit (``mean_grade``, ``total_grade``) and the yardstick
    (``strong_play``): 'Mean loss 0.107 pp a decision over 30 decisions (total 3.21 pp; below 0.2 pp
    is strong play)'."""
    unit, n = LOSS_UNITS[result["measure"]], len(result["decisions"])
    return (
        f"Mean loss {result['mean_grade']:.{digits}f} {unit} a decision over {n} decision{'s' * (n != 1)} "
        f"(total {result['total_grade']:.{digits}f} {unit}; below {result['strong_play']} {unit} is strong play)"
    )


HELP = "play a practice game with the advice hidden, graded after each choice or at the end"
DESCRIPTION = (
    "A practice game: the dice come from a seed, choices are read one per line from stdin "
    "('keep 446', 'keep' to roll all, a category letter a-l or name, 'quit'); every choice is graded "
    "against the exact player."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=_seed, default=None, help="the seed of the dice (1-6 of 0-9a-z; default: new)")
    parser.add_argument("--variant", choices=tuple(VARIANTS), default="official", help="the rules (default official)")
    parser.add_argument(
        "--opponent", action="store_true", help="against a simulated opponent who plays the exact expected-score advice"
    )
    parser.add_argument(
        "--feedback",
        choices=("each", "end"),
        default="each",
        help="grade after each choice (default) or only at the end",
    )
    parser.add_argument("--json", action="store_true", help="print only the review of the game as one JSON object")


def run(args: argparse.Namespace) -> int:
    """``run_practice`` on standard input; 1 when a table is missing or damaged, 130 when interrupted."""
    try:
        return run_practice(args, args.tables)
    except TableError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def _seed(text: str) -> int:
    try:
        return parse_seed(text)
    except SeedError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def run_practice(args: argparse.Namespace, folder: Path, stdin: TextIO = sys.stdin, out: TextIO = sys.stdout) -> int:
    """Play the game from ``stdin``'s lines; 0 when it was played to the end, 1 when it stopped."""
    tables = Tables(folder)
    variant = VARIANTS[args.variant]
    seed = random_seed() if args.seed is None else args.seed
    game = Practice(tables[variant.name].tilde, variant, seed, args.opponent)
    say = (lambda text: None) if args.json else (lambda text: print(text, file=out, flush=True))
    against = "; against the exact player" if args.opponent else ""
    say(f"Practice {format_seed(seed)} ({variant.name} rules{against}). Replay these dice: --seed {format_seed(seed)}")
    lines = iter(stdin)
    while not game.over:
        say(_status(game))
        choice = _next_choice(lines, game)
        if choice is None:
            print(f"stopped at turn {game.turn}; the record so far: {game.query}", file=sys.stderr)
            return 1
        if args.feedback == "each" and not args.json:
            say(_feedback(grade_query(game.query, tables)["decision"], variant.name))
    result = review_query(game.query, tables)
    if args.json:
        print(json.dumps({**result, "seed": format_seed(seed)}, ensure_ascii=False), file=out, flush=True)
    else:
        say(render_summary(result, game))
    return 0


def _status(game: Practice) -> str:
    position = game.position
    dice = " ".join(map(str, position.dice or ()))
    mine = _total(position.sheet)
    theirs = "" if position.opponent is None else f" · opponent {_total(position.opponent)}"
    return f"Turn {game.turn}, roll {position.roll}: {dice}    (you {mine}{theirs})"


def _total(sheet: tuple[int | None, ...]) -> int:
    upper = sum(v or 0 for v in sheet[:6])
    return sum(v or 0 for v in sheet) + (35 if upper >= 63 else 0)


def _next_choice(lines, game: Practice) -> str | None:
    """Read lines until one is a choice that can be made, and make it; ``None`` at the end of
    input or on ``quit``."""
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.lower() in ("quit", "q", "exit"):
            return None
        try:
            _apply(line, game)
        except ValueError as e:
            print(f"error: {line!r}: {e}", file=sys.stderr)
            continue
        return line
    return None


def _apply(line: str, game: Practice) -> None:
    words = line.lower().split(maxsplit=1)
    head, rest = words[0], (words[1] if len(words) > 1 else "")
    if head in ("keep", "-"):
        game.keep(_dice(rest))
    elif head.isdigit():
        game.keep(_dice(line))
    else:
        game.score(_category(rest if head in ("score", "s") and rest else line))


def _dice(text: str) -> tuple[int, ...]:
    digits = text.replace(" ", "").replace(",", "")
    if digits in ("", "-"):
        return ()
    if not set(digits) <= set("123456"):
        raise ValueError("dice to keep are digits 1-6 (e.g. keep 446)")
    return tuple(int(c) for c in digits)


def _category(text: str) -> int:
    key = text.strip().lower()
    if len(key) == 1 and key in CATEGORY_LETTERS:
        return CATEGORY_LETTERS.index(key)
    names = {name.lower().replace(".", "").replace(" ", ""): c for c, name in enumerate(NAMES_EN)}
    squeezed = key.replace(".", "").replace(" ", "").split("(")[0]
    if squeezed in names:
        return names[squeezed]
    raise ValueError("not a choice: keep dice (keep 446), or a category (a-l or its name, e.g. sixes)")


def _option(option: dict, dice: list[int], variant: str) -> str:
    """An option as the feedback names it (the dice it was chosen with, under ``variant``): what
    it keeps or scores now (the bonus apart) and its expected final score."""
    if "keep" in option and len(option["keep"]) < 5:
        what = f"keep {' '.join(map(str, option['keep'])) or 'nothing'}"
    else:
        category = option["category"]
        points = int(score_table(VARIANTS[variant])[roll_index(dice), category])
        bonus = option["points"] - points
        what = f"score {NAMES_EN[category]} {points}" + (f" (+{bonus} bonus)" if bonus else "")
    return f"{what}, expected final {option['expected']:.2f}"


def _feedback(decision: dict, variant: str) -> str:
    dice = decision["dice"]
    lines = []
    if decision["loss"] > 0:
        lines.append(f"  yours: {_option(decision['chosen'], dice, variant)}; loss {decision['loss']:.2f}")
        lines.append(f"  best:  {_option(decision['best'], dice, variant)}")
    else:
        lines.append(f"  best: {_option(decision['chosen'], dice, variant)}")
    winning = decision.get("winning")
    if winning:
        mark = "" if winning["exact"] else "~"
        lines.append(
            f"  chance of winning: yours {mark}{100 * winning['chosen']['chance']:.1f}%, "
            f"best {mark}{100 * winning['best']['chance']:.1f}%"
        )
    return "\n".join(lines)


def _signed(points: float) -> str:
    return f"{points:+.2f}".replace("-", "−") if points else "0.00"


def render_summary(result: dict, game: Practice) -> str:
    """The summary of a finished practice game, from its review."""
    lines = [f"Final score {result['final']}"]
    position = game.position
    if position.opponent is not None:
        theirs = _total(position.opponent)
        verdict = "you win" if result["final"] > theirs else "you lose" if result["final"] < theirs else "a draw"
        lines[0] += f", the opponent {theirs}: {verdict}"
    lines.append(loss_summary(result, 3))
    counts = result["counts"]
    lines.append("Decisions by loss: " + ", ".join(f"{BIN_TEXT[name]}: {counts[name]}" for name, _ in LOSS_BINS))
    lines.append(
        f"Expected final score: luck {_signed(result['luck'])} pts, skill {_signed(-result['total_loss'])} pts "
        f"(at the start {result['start']:.2f})"
    )
    for rank, i in enumerate(result["costliest"], 1):
        d = result["decisions"][i]
        graded_best = d["best"] if d["grade"]["measure"] == "score" else d["winning"]["best"]
        chosen, best = (_option(option, d["dice"], result["variant"]) for option in (d["chosen"], graded_best))
        lines.append(
            f"  {rank}. turn {d['turn']} roll {d['roll']} dice {''.join(map(str, d['dice']))}: "
            f"{chosen}; best {best}; −{d['grade']['loss']:.2f} {LOSS_UNITS[d['grade']['measure']]}   {d['query']}"
        )
    if "winning" in result:
        last = result["winning"]["last"]
        lines.append(
            f"Chance of winning at the start {100 * result['winning']['start']['chance']:.1f}%, "
            f"at the end {100 * last['chance']:.0f}%"
        )
    lines.append(f"Record: {result['query']}")
    return "\n".join(lines)
