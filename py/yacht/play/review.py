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
``Result``: who won, and both totals.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import numpy as np

from ..chances.goal import APPROXIMATION, GoalTurn, Reach, chunks_needed, goal_advice, solve_turn
from ..core.advisor import Option, advise, sheet_state
from ..core.position import Position, format_query
from .game import Game, GameError, Step, replay

TIE = 1e-6
"""Losses at most this big count as optimal (equal options in floating point)."""

MEASURES: Final = ("score", "win", "reach")
"""What a decision is graded by: ``score``, expected final score (a loss in points); ``win``, the
chance of winning, win + draw/2, and ``reach``, the chance of reaching the target (a loss in
percentage points, 0–100)."""

LOSS_BINS: Final = (("optimal", 0.0), ("below_0.1", 0.1), ("0.1_to_1", 1.0), ("1_to_5", 5.0), ("above_5", float("inf")))
"""The decisions counted by loss in the review's measure (points of expected final score, or
percentage points of the goal's chance), as a proficiency test counts them: ``optimal`` (a loss
of 0, i.e. at most ``TIE``), then each bin holds the losses below its bound and at or above the
bound before it: (0, 0.1), [0.1, 1), [1, 5), [5, ∞)."""


STRONG_PLAY: Final = {"score": 0.2, "win": 0.2, "reach": 0.2}
"""The mean loss per decision below which play is strong, in each measure's unit (``mean_grade``):
0.2 points of expected final score, as a proficiency test has it; 0.2 percentage points of the
goal's chance, where players near 0.2 points lose 0.14–0.26 pp (simulated: docs/practice.md)."""


def loss_bin(loss: float) -> str:
    """The name of the ``LOSS_BINS`` bin of a decision's loss."""
    if loss <= 0.0:
        return LOSS_BINS[0][0]
    return next(name for name, bound in LOSS_BINS[1:] if loss < bound)


GOAL_FIELDS: Final = (("win", "draw"), ("reach",))
"""The goal's fields of an answer (``goal``): with an opponent, or with a score to reach."""


@dataclass(frozen=True)
class Chance:
    """The goal's chances of an option or position (0–1): with an opponent ``win`` =
    P(my final > theirs) and ``draw`` = P(equal); with a score to reach ``reach`` =
    P(final ≥ t). ``fields``: those names and values, in that order."""

    fields: tuple[tuple[str, float], ...]

    @classmethod
    def of(cls, answer: dict) -> "Chance":
        """The goal's fields of ``goal_advice``'s answer or one of its options."""
        names = next(names for names in GOAL_FIELDS if names[0] in answer)
        return cls(tuple((name, float(answer[name])) for name in names))

    @property
    def chance(self) -> float:
        """What playing for the goal maximizes: win + draw/2, or reach."""
        values = dict(self.fields)
        return values["reach"] if "reach" in values else values["win"] + values["draw"] / 2

    def to_json(self) -> dict:
        return {**dict(self.fields), "chance": self.chance}


@dataclass(frozen=True)
class Winning:
    """A decision graded by the goal's chance. ``chosen``: the option chosen;
    ``best``: the option best for the goal (``goal_advice``'s first option: the
    advisor's option JSON with ``win`` and ``draw``, or ``reach``); ``best_average``: the chance
    of the best-average option (``Decision.best``); ``loss``: best − chosen chance,
    0 when within ``TIE``; ``exact``: else ``method`` (``goal.CALIBRATED`` or ``goal.APPROXIMATION``)."""

    chosen: Chance
    best: dict
    best_average: Chance
    loss: float
    exact: bool
    aims_differ: bool
    method: str = APPROXIMATION

    def to_json(self) -> dict:
        out = {
            "chosen": self.chosen.to_json(),
            "best": {**self.best, "chance": Chance.of(self.best).chance},
            "best_average": self.best_average.to_json(),
            "loss": self.loss,
            "aims_differ": self.aims_differ,
            "exact": self.exact,
        }
        return out if self.exact else {**out, "method": self.method}


@dataclass(frozen=True)
class Decision:
    """One graded choice. ``position``: where it was made. ``chosen`` and
    ``best``: options as in ``advisor`` (best: the best average). ``loss`` ≥ 0: points of
    expected final score. ``winning``: with an opponent or a target, the same choice graded by
    the goal's chance."""

    turn: int
    position: Position
    chosen: Option
    best: Option
    loss: float
    winning: Winning | None = None

    @property
    def measure(self) -> str:
        """What the advice ranked by here (``MEASURES``): ``win`` or ``reach`` with a goal graded,
        else ``score``."""
        if self.winning is None:
            return "score"
        return "reach" if "reach" in dict(self.winning.chosen.fields) else "win"

    @property
    def grade(self) -> float:
        """The loss in ``measure``'s unit: percentage points of the goal's chance (100 × the
        ``winning`` loss), or points of expected final score; 0: the advice's first option."""
        return self.loss if self.winning is None else 100 * self.winning.loss

    def to_json(self) -> dict:
        out = {
            "turn": self.turn,
            "roll": self.position.roll,
            "dice": list(self.position.dice or ()),
            "query": format_query(self.position),
            "chosen": self.chosen.to_json(),
            "best": self.best.to_json(),
            "loss": self.loss,
            "grade": {"measure": self.measure, "loss": self.grade, "best": self.grade == 0.0},
        }
        return out if self.winning is None else {**out, "winning": self.winning.to_json()}


@dataclass(frozen=True)
class Result:
    """A finished game against an opponent: ``outcome`` "win", "loss" or "draw" (my final
    total against theirs), ``mine`` and ``theirs`` the final totals, upper bonus included."""

    outcome: str
    mine: int
    theirs: int

    def to_json(self) -> dict:
        return {"outcome": self.outcome, "mine": self.mine, "theirs": self.theirs}


def result_of(end: Position) -> Result | None:
    """The result of a game whose last position is ``end``: ``None`` unless both sheets are
    full (no opponent, or a turn still to play)."""
    if end.opponent is None or not end.is_over or any(v is None for v in end.opponent):
        return None
    mine, theirs = sheet_state(end.sheet)[2], sheet_state(end.opponent)[2]
    return Result("win" if mine > theirs else "loss" if mine < theirs else "draw", mine, theirs)


@dataclass(frozen=True)
class Point:
    """A value of the expected final score along the game: ``after`` is
    ``"turn start"`` (before roll 1), ``"roll"`` (dice just rolled) or
    ``"choice"`` (a keep or category just chosen)."""

    turn: int
    roll: int
    after: str
    expected: float


@dataclass(frozen=True)
class Review:
    decisions: tuple[Decision, ...]
    series: tuple[Point, ...]
    start: float
    last: float
    luck: float
    total_loss: float
    final: int | None
    """The final score when the game is over, else ``None``."""
    chances: "Chances | None" = None
    """With an opponent: the chance of winning at the start and at the end, and the seat."""
    result: Result | None = None
    """A finished game against an opponent: who won, and both totals."""

    @property
    def mean_loss(self) -> float:
        return self.total_loss / len(self.decisions) if self.decisions else 0.0

    @property
    def total_grade(self) -> float:
        """The decisions' losses in the review's measure (``Decision.grade``): points, or
        percentage points of the goal's chance."""
        return sum(d.grade for d in self.decisions)

    @property
    def mean_grade(self) -> float:
        return self.total_grade / len(self.decisions) if self.decisions else 0.0

    @property
    def measure(self) -> str:
        """What the decisions are graded by (``MEASURES``): the goal's chance where the review
        grades by it, else expected score."""
        if self.chances is None:
            return "score"
        return "win" if self.chances.target is None else "reach"

    def costliest(self, n: int = 3) -> list[int]:
        """Indices of the ``n`` decisions that lost the most in the review's measure (losses > 0
        only), costliest first."""
        order = sorted(range(len(self.decisions)), key=lambda i: (-self.decisions[i].grade, i))
        return [i for i in order[:n] if self.decisions[i].grade > 0]

    def counts(self) -> dict[str, int]:
        """The decisions counted by loss in the review's measure (``LOSS_BINS``), every bin
        present, in order."""
        out = dict.fromkeys((name for name, _ in LOSS_BINS), 0)
        for d in self.decisions:
            out[loss_bin(d.grade)] += 1
        return out

    def aims_differ(self) -> list[int]:
        """Indices of the decisions where playing to win and the best average differ."""
        return [i for i, d in enumerate(self.decisions) if d.winning is not None and d.winning.aims_differ]

    def to_json(self) -> dict:
        out = self._json()
        if self.chances is None:
            return out
        return {**out, "winning": {**self.chances.to_json(), "aims_differ": self.aims_differ()}}

    def _json(self) -> dict:
        return {
            "final": self.final,
            "result": None if self.result is None else self.result.to_json(),
            "measure": self.measure,
            "start": self.start,
            "last": self.last,
            "luck": self.luck,
            "total_loss": self.total_loss,
            "mean_loss": self.mean_loss,
            "total_grade": self.total_grade,
            "mean_grade": self.mean_grade,
            "strong_play": STRONG_PLAY[self.measure],
            "counts": self.counts(),
            "decisions": [d.to_json() for d in self.decisions],
            "costliest": self.costliest(),
            "series": [{"turn": p.turn, "roll": p.roll, "after": p.after, "expected": p.expected} for p in self.series],
        }


@dataclass(frozen=True)
class Chances:
    """The review's goal chance at its ``start`` (the start sheets before the first
    roll, or the best option of a record's first dice after roll 2 or 3) and its ``last``
    (the end position's; a finished game: won, lost or drawn, or the target reached or
    not), each with whether it is exact. With an opponent: my ``seat`` (1 or 2) and the
    opponent's sheet at the end; with a score to reach: the ``target`` (the others ``None``)."""

    seat: int | None
    start: Chance
    start_exact: bool
    last: Chance
    last_exact: bool
    opponent: tuple[int | None, ...] | None
    target: int | None = None

    def to_json(self) -> dict:
        return {
            "seat": self.seat,
            "start": {**self.start.to_json(), "exact": self.start_exact},
            "last": {**self.last.to_json(), "exact": self.last_exact},
            "opponent": None if self.opponent is None else list(self.opponent),
            "target": self.target,
        }


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
        goals.reach({quantity: sorted(masks) for quantity, masks in wanted.items()})
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


def grade_decision(game: Game, index: int, tables: dict[str, np.ndarray]) -> Decision:
    """The record's decision ``index`` (0-based; negative counts from the last) graded by expected
    final score as ``review`` grades it, without the goal's chance (``winning`` is ``None``):
    what the coach explains of one decision. ``GameError`` (field ``h``) when the record has no
    such decision."""
    steps, _ = replay(game)
    if not -len(steps) <= index < len(steps):
        raise GameError("h", f"no decision {index}: the record has {len(steps)}")
    return _decision(steps[index], tables, None)


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
