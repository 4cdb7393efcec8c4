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
"""

from dataclasses import dataclass

import numpy as np

from .advisor import Option, advise
from .game import Game, Step, replay
from .position import Position, format_query

TIE = 1e-6
"""Losses at most this big count as optimal (equal options in floating point)."""


@dataclass(frozen=True)
class Decision:
    """One graded choice. ``position``: where it was made. ``chosen`` and
    ``best``: options as in ``advisor``. ``loss`` ≥ 0."""

    turn: int
    position: Position
    chosen: Option
    best: Option
    loss: float

    def to_json(self) -> dict:
        return {
            "turn": self.turn,
            "roll": self.position.roll,
            "dice": list(self.position.dice or ()),
            "query": format_query(self.position),
            "chosen": self.chosen.to_json(),
            "best": self.best.to_json(),
            "loss": self.loss,
        }


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

    @property
    def mean_loss(self) -> float:
        return self.total_loss / len(self.decisions) if self.decisions else 0.0

    def costliest(self, n: int = 3) -> list[int]:
        """Indices of the ``n`` decisions that lost the most (losses > 0 only), costliest first."""
        order = sorted(range(len(self.decisions)), key=lambda i: (-self.decisions[i].loss, i))
        return [i for i in order[:n] if self.decisions[i].loss > 0]

    def to_json(self) -> dict:
        return {
            "final": self.final,
            "start": self.start,
            "last": self.last,
            "luck": self.luck,
            "total_loss": self.total_loss,
            "mean_loss": self.mean_loss,
            "decisions": [d.to_json() for d in self.decisions],
            "costliest": self.costliest(),
            "series": [{"turn": p.turn, "roll": p.roll, "after": p.after, "expected": p.expected} for p in self.series],
        }


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


def review(game: Game, tables: dict[str, np.ndarray]) -> Review:
    """Grade every decision of ``game``; ``tables`` maps variant name to its Ẽ table."""
    steps, end = replay(game)
    tilde = tables[game.variant.name]
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
        chosen, best = _chosen_option(step, tables)
        loss = max(0.0, best.expected - chosen.expected)
        loss = 0.0 if loss <= TIE else loss
        decisions.append(Decision(step.turn, step.position, chosen, best, loss))
        series.append(Point(step.turn, step.position.roll, "choice", chosen.expected))
        value_chosen = chosen.expected
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
    return Review(tuple(decisions), tuple(series), series[0].expected, series[-1].expected, luck, total_loss, final)
