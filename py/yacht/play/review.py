"""Grading a game: what every decision cost in expected final score.

For each decision (a keep at roll 1 or 2, or the category scored, possibly
before roll 3) the review gives the option chosen, the best option and the
loss: best minus chosen expected final score, 0 when within ``TIE`` of the
best. The series of expected final scores along the game splits the change
from the first value to the last into what the dice did (luck: after a roll,
its value minus the value of the keep it was rolled from) and what the
decisions cost (skill: minus the losses):

    last = start + luck − total loss

Stopping early to score (a category chosen at roll 1 or 2) is one decision,
valued at that category's E'3 for those dice.

With the opponent's record (``Game.opponent``), every decision is also graded
by the chance of winning, chance = win + draw/2 (``goal``: the opponent plays
for the best expected score from their sheet at that moment, independently of
my dice, so the order of the turns does not change it); with a score to reach
(``Game.target``), by the chance of reaching it, chance = reach. Graded: the
chance of the option chosen, of the option best for the goal and of the
best-average option (``Winning``), exact where ``goal`` is exact, else its
approximation. The decisions where the two aims differ are those where the
option best for the goal is another option than the best-average one and
gains more than ``TIE`` in chance over it.

Each decision is graded in the measure the advice ranked by at that moment
(``Decision.grade``): with an opponent, percentage points of the chance of
winning; with a score to reach, of the chance of reaching it; otherwise points
of expected final score. A decision equal to the advice's first option is
best, whatever the other measure says; the costliest decisions and the counts
by loss follow that measure. A finished game against an opponent has a
``Result``: who won, and both totals. What a review answers (its records, how losses
are measured and counted): ``graded``.
"""

from collections.abc import Callable

import numpy as np

from ..chances.goal import APPROXIMATION, GoalTurn, chunks_needed, goal_advice, solve_turn
from ..chances.reach_table import Reach
from ..core.options import Option, advise
from ..core.position import Position
from ..core.table_kinds import Unavailable
from .graded import TIE, Chance, Chances, Decision, Point, Review, Winning, result_of
from .record import Game, GameError, Step
from .replay import replay


class _Goals:
    """``goal_advice`` of the review's positions, one ``solve_turn`` per pair of sheets
    (or sheet and target)."""

    def __init__(self, tilde: np.ndarray, spread: Callable[[], np.ndarray] | None, reach: Reach | None) -> None:
        self.tilde = tilde
        self.spread = spread
        self.reach = reach
        self.turns: dict[tuple, GoalTurn] = {}

    def advice(self, position: Position) -> dict:
        key = (position.sheet, position.opponent, position.target)
        if key not in self.turns:
            self.turns[key] = solve_turn(position, self.tilde, self.spread, self.reach)
        advice = advise(position, self.tilde).to_json()
        return goal_advice(position, self.tilde, advice, solved=self.turns[key])

    def chance(self, position: Position) -> tuple[Chance, bool]:
        """The position's chance (roll 0: its own; else its best option's) and whether exact."""
        answer = self.advice(position)
        return Chance.of(answer), answer["exact"]

    def grade(self, step: Step, best_average: Option) -> Winning:
        """The step's choice graded by the chance of winning."""
        answer = self.advice(step.position)
        best = answer["options"][0]
        chosen = self._option(step.position, answer, step.keep, step.category)
        average = self._option(step.position, answer, best_average.keep, best_average.category)
        gap = Chance.of(best).chance - Chance.of(chosen).chance
        differ = not _same(best, best_average) and Chance.of(best).chance - Chance.of(average).chance > TIE
        return Winning(
            Chance.of(chosen),
            best,
            Chance.of(average),
            gap if gap > TIE else 0.0,
            answer["exact"],
            differ,
            answer.get("method", APPROXIMATION),
        )

    def _option(self, position: Position, answer: dict, keep: tuple[int, ...] | None, category: int | None) -> dict:
        """The goal option of a keep (fewer than five dice), or of scoring ``category`` with
        these dice (at roll 3, or stopping early: valued as at roll 3)."""
        if keep is not None and len(keep) < 5:
            return next(o for o in answer["options"] if o.get("keep") == list(keep))
        at_roll3 = self.advice(position._replace(roll=3))
        return next(o for o in at_roll3["options"] if o["category"] == category)


def _same(option: dict, other: Option) -> bool:
    """Whether a goal option (JSON) is the advisor's option ``other``: the same keep (and,
    keeping all five, the same category), or the same category."""
    if other.keep is not None:
        same_keep = option.get("keep") == list(other.keep)
        return same_keep and (len(other.keep) < 5 or option["category"] == other.category)
    return "keep" not in option and option["category"] == other.category


def _chosen_option(step: Step, tables: dict[str, np.ndarray]) -> tuple[Option, Option]:
    """(chosen, best) options of a step."""
    tilde = tables[step.position.variant.name]
    advice = advise(step.position, tilde)
    best = advice.options[0]
    if step.keep is not None:
        chosen = next(o for o in advice.options if o.keep == step.keep)
    elif step.position.roll == 3:
        chosen = next(o for o in advice.options if o.category == step.category)
    else:  # stopped early: the category's value for these dice
        at_roll3 = advise(Position(step.position.sheet, step.position.dice, 3, step.position.variant), tilde)
        scored = next(o for o in at_roll3.options if o.category == step.category)
        chosen = Option(scored.expected, best.expected - scored.expected, None, scored.category, scored.points)
    return chosen, best


def _decision(step: Step, tables: dict[str, np.ndarray], goals: "_Goals | None") -> Decision:
    """One step graded: by expected final score, and by the goal's chance when ``goals``."""
    chosen, best = _chosen_option(step, tables)
    loss = max(0.0, best.expected - chosen.expected)
    loss = 0.0 if loss <= TIE else loss
    winning = goals.grade(step, best) if goals else None
    return Decision(step.turn, step.position, chosen, best, loss, winning)


def _goals(game: Game, steps: list[Step], spread, reach: Reach | None, chances: bool, tilde) -> "_Goals | None":
    """The goal's grader of a record with an opponent or a target (``None`` without, or when not
    ``chances``), with every chunk the steps read asked for at once."""
    has_goal = game.opponent is not None or game.target is not None
    goals = _Goals(tilde, spread, reach) if has_goal and chances else None
    if goals is not None and goals.reach is not None:
        wanted: dict[str, set[int]] = {}
        for step in steps:
            for quantity, masks in chunks_needed(step.position).items():
                wanted.setdefault(quantity, set()).update(masks)
        try:
            goals.reach({quantity: sorted(masks) for quantity, masks in wanted.items()})
        except Unavailable:
            pass  # some its caller could not fetch now: each step reads its own, or goes without
    return goals


def grade_last(
    game: Game,
    tables: dict[str, np.ndarray],
    spread: Callable[[], np.ndarray] | None = None,
    *,
    chances: bool = True,
    reach: Reach | None = None,
) -> Decision | None:
    """The record's last decision graded as ``review`` grades it (``None``: no decision yet):
    what a practice game shows after each choice."""
    steps, _ = replay(game)
    if not steps:
        return None
    goals = _goals(game, steps[-1:], spread, reach, chances, tables[game.variant.name])
    return _decision(steps[-1], tables, goals)


def grade_decision(
    game: Game,
    index: int,
    tables: dict[str, np.ndarray],
    spread: Callable[[], np.ndarray] | None = None,
    *,
    chances: bool = True,
    reach: Reach | None = None,
) -> Decision:
    """The record's decision ``index`` (0-based; negative counts from the last) graded as
    ``review`` grades it (by expected final score, and with a goal and ``chances`` by its chance:
    ``spread`` and ``reach`` as there): what the coach explains of one decision. ``GameError``
    (field ``h``) when the record has no such decision."""
    steps, _ = replay(game)
    if not -len(steps) <= index < len(steps):
        raise GameError("h", f"no decision {index}: the record has {len(steps)}")
    step = steps[index]
    goals = _goals(game, [step], spread, reach, chances, tables[game.variant.name])
    return _decision(step, tables, goals)


def review(
    game: Game,
    tables: dict[str, np.ndarray],
    spread: Callable[[], np.ndarray] | None = None,
    *,
    chances: bool = True,
    reach: Reach | None = None,
) -> Review:
    """Grade every decision of ``game``; ``tables`` maps variant name to its Ẽ table.
    With an opponent or a score to reach in the record and ``chances``, also by the goal's chance
    (``spread``: loads the sd table, needed outside the goal's exact range; else
    ``goal.GoalUnavailable``; ``reach``: loads reach chunks, for an exact chance of reaching the
    target from any sheet)."""
    steps, end = replay(game)
    tilde = tables[game.variant.name]
    goals = _goals(game, steps, spread, reach, chances, tilde)
    series: list[Point] = []
    decisions: list[Decision] = []
    luck = 0.0
    value_chosen: float | None = None  # the value of the last choice, before dice are rolled

    def rolled(turn: int, position: Position) -> None:
        """Dice have just been rolled: luck is their value minus what was chosen."""
        nonlocal luck
        value = advise(position, tilde).expected
        if value_chosen is not None:
            luck += value - value_chosen
        series.append(Point(turn, position.roll, "roll", value))

    def turn_start(turn: int, position: Position) -> None:
        nonlocal value_chosen
        value = advise(Position(position.sheet, None, 0, position.variant), tilde).expected
        series.append(Point(turn, 0, "turn start", value))
        value_chosen = value

    previous: Step | None = None
    for step in steps:
        new_turn = previous is None or previous.category is not None
        if new_turn:
            if step.position.roll == 1:
                turn_start(step.turn, step.position)
            rolled(step.turn, step.position)
        decision = _decision(step, tables, goals)
        decisions.append(decision)
        series.append(Point(step.turn, step.position.roll, "choice", decision.chosen.expected))
        value_chosen = decision.chosen.expected
        if step.keep is not None:
            rolled(step.turn, Position(step.position.sheet, step.next_dice, step.position.roll + 1, game.variant))
        previous = step
    if end.dice is not None and (previous is None or previous.category is not None):
        # the record ends with a turn's dice and no choice yet
        turn = sum(v is not None for v in end.sheet) + 1
        if end.roll == 1:
            turn_start(turn, end)
        rolled(turn, end)
    if not series:
        turn_start(sum(v is not None for v in end.sheet) + 1, end)
    total_loss = sum(d.loss for d in decisions)
    final = advise(end, tilde).score if end.is_over else None
    summary = _chances(game, end, goals) if goals else None
    return Review(
        tuple(decisions),
        tuple(series),
        series[0].expected,
        series[-1].expected,
        luck,
        total_loss,
        final,
        summary,
        result_of(end),
    )


def _chances(game: Game, end: Position, goals: _Goals) -> Chances:
    """The chances at the record's start and end (see ``Chances``)."""
    dice = game.turns[0].rolls[0] if game.turns and game.first_roll > 1 else None
    first = Position(game.sheet, dice, game.first_roll if dice else 0, game.variant, game.opponent, game.target)
    start, start_exact = goals.chance(first)
    last, last_exact = goals.chance(end)
    return Chances(game.seat, start, start_exact, last, last_exact, end.opponent, game.target)
