"""What a review answers: each decision graded (``Decision``: by expected final score, and by the
goal's chance, ``Winning``), the goal's chances at the start and the end (``Chances``), a finished
game's ``Result``, the series of expected final scores and the ``Review`` that holds them, with
how losses are measured (``MEASURES``), tied (``TIE``) and counted (``LOSS_BINS``, ``STRONG_PLAY``).
The grading itself: ``review``.
"""

from dataclasses import dataclass
from typing import Final

from ..chances.goal import APPROXIMATION
from ..core.options import Option, sheet_state
from ..core.position import Position, format_query

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
    0 when within ``TIE``; ``exact``: else ``method`` (``calibration.CALIBRATED`` or ``goal.APPROXIMATION``)."""

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
    ``best``: options as in ``options`` (best: the best average). ``loss`` ≥ 0: points of
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
