"""Ranked options for one position, from a table of Ẽ.

Expected values are *final scores*: the sheet's current score σ(s), bonus
included, plus Ẽ of what follows. With ``tilde`` the (4096, 64) Ẽ table:

roll 0   no options; ``expected`` = σ(s) + Ẽ(s).
roll 1/2 one option per distinct keep of the current dice (none to all
         five): E'1 / E'2 of the keep. Keeping all five means stopping to
         score now: its value is the best category's E'3 for these dice, and
         the option names that category and its points.
roll 3   one option per free category: the points it scores now (bonus
         included when they lift the upper total to 63) and E'3.
over     a full sheet: no options; ``expected`` = the final score.

Options are sorted best first by the value still to come (Ẽ'1, Ẽ'2, Ẽ'3:
without σ, so that the choice depends on the state only), as ``ranking.rank``
orders them (values within ``ranking.TIE`` tie: the simpler option first, then
keep or category index order); each carries its rank (shared by tied options)
and its loss against the best (≥ 0). ``policy.expected_policy`` makes the same
choices for whole batches (up to ties). ``first_by_value``: the option of the
highest value, exact ties in index order — the simulated practice opponent's
choice, fixed so that recorded practice games replay.
"""

from typing import NamedTuple

import numpy as np

from .categories import BONUS_POINTS, BONUS_THRESHOLD, N_CATEGORIES, N_UPPER
from .dice import KEEP_DICE, ROLL_OFFSET, best_subkeep, keeps_from_rolls, reroll_expectation, roll_index, subkeeps
from .position import Position
from .ranking import rank, simplicity
from .rules import score_table
from .solver import category_values


class Option(NamedTuple):
    """One choice. ``keep`` (dice values, ascending) for a keep, else ``None``.

    ``category`` and ``points``: the category scored now and its points
    (bonus included) — for a roll-3 option, or for keeping all five dice.
    ``rank``: 1-based, shared by tied options (``ranking.rank``); ``None`` for an
    option outside a ranked list (a review's early stop in another category).
    """

    expected: float
    loss: float
    keep: tuple[int, ...] | None
    category: int | None
    points: int | None
    rank: int | None = None

    def to_json(self) -> dict:
        out: dict = {"expected": self.expected, "loss": self.loss}
        if self.rank is not None:
            out["rank"] = self.rank
        if self.keep is not None:
            out["keep"] = list(self.keep)
        if self.category is not None:
            out["category"] = self.category
            out["points"] = self.points
        return out


class Advice(NamedTuple):
    """``expected``: the expected final score under optimal play from here.
    ``score``: the sheet's score now (bonus included). ``options``: best first."""

    position: Position
    expected: float
    score: int
    options: tuple[Option, ...]

    def to_json(self) -> dict:
        return {
            "expected": self.expected,
            "score": self.score,
            "roll": self.position.roll,
            "over": self.position.is_over,
            "options": [o.to_json() for o in self.options],
        }


def sheet_state(sheet: tuple[int | None, ...]) -> tuple[int, int, int]:
    """(mask, ν, σ) of a sheet: filled mask, capped upper total, score with bonus."""
    mask = sum(1 << c for c, v in enumerate(sheet) if v is not None)
    upper = sum(v for v in sheet[:N_UPPER] if v is not None)
    total = sum(v for v in sheet if v is not None)
    bonus = BONUS_POINTS if upper >= BONUS_THRESHOLD else 0
    return mask, min(upper, BONUS_THRESHOLD), total + bonus


def _category_table(tilde: np.ndarray, scores: np.ndarray, mask: int, nu: int) -> np.ndarray:
    """(12, 252) Ẽ'3 for every category and roll; -inf for filled categories."""
    masks, nus = np.array([mask]), np.array([nu])
    return np.stack([category_values(tilde, scores, masks, nus, c)[:, 0] for c in range(N_CATEGORIES)])


def _rank(options: list[Option], values: list[float]) -> tuple[Option, ...]:
    """``options`` best first by ``values`` (each option's value without σ), ranked by
    ``ranking.rank``; each one's loss against the first, 0 at least (an option tied with the
    first, within ``ranking.TIE``, may sit a rounding above it)."""
    order, ranks = rank([(v,) for v in values], [simplicity(o.keep, o.category) for o in options])
    best = options[order[0]].expected
    return tuple(
        options[i]._replace(loss=max(0.0, best - options[i].expected), rank=r)
        for i, r in zip(order, ranks, strict=True)
    )


def advise(position: Position, tilde: np.ndarray) -> Advice:
    """The ranked options of ``position``; ``tilde`` is the table of its variant."""
    if position.is_over or position.roll == 0 or position.dice is None:
        mask, nu, sigma = sheet_state(position.sheet)
        expected = float(sigma) if position.is_over else sigma + float(tilde[mask, nu])
        return Advice(position, expected, sigma, ())
    options, values = _options(position, tilde)
    ranked = _rank(options, values)
    return Advice(position, ranked[0].expected, sheet_state(position.sheet)[2], ranked)


def first_by_value(position: Position, tilde: np.ndarray) -> Option:
    """The option of the highest value of ``position`` (roll 1–3), exact ties in keep or
    category index order: the simulated practice opponent's choice (``play.practice``), kept
    apart from the advice's ranking so that every recorded practice game replays as played."""
    options, values = _options(position, tilde)
    return options[max(range(len(options)), key=lambda i: (values[i], -i))]


def _options(position: Position, tilde: np.ndarray) -> tuple[list[Option], list[float]]:
    """The options of ``position`` (roll 1–3) unranked, in keep or category index order, and
    each one's value without σ."""
    mask, nu, sigma = sheet_state(position.sheet)
    scores = score_table(position.variant)
    by_category = _category_table(tilde, scores, mask, nu)
    roll = roll_index(position.dice)
    free = [c for c in range(N_CATEGORIES) if not mask >> c & 1]
    points = {c: points_now(c, int(scores[roll, c]), nu) for c in free}
    best_category = max(free, key=lambda c: (by_category[c, roll], -c))
    options: list[Option] = []
    values: list[float] = []
    if position.roll == 3:
        for c in free:
            values.append(float(by_category[c, roll]))
            options.append(Option(sigma + values[-1], 0.0, None, c, points[c]))
    else:
        e3 = by_category.max(axis=0)
        keep_values = keeps_from_rolls(e3)
        if position.roll == 1:  # E2 over the rolls, then E'1 of the keeps
            best_subkeep(reroll_expectation(keep_values))
        reroll_expectation(keep_values)
        for k in subkeeps(position.dice):
            if k >= ROLL_OFFSET:  # all five kept: stop and score now
                value, category, pts = float(e3[roll]), best_category, points[best_category]
            else:
                value, category, pts = float(keep_values[k]), None, None
            values.append(value)
            options.append(Option(sigma + value, 0.0, KEEP_DICE[k], category, pts))
    return options, values


def points_now(category: int, points: int, nu: int) -> int:
    """Points a category adds to the sheet's score: its own, plus the bonus
    when they lift the capped upper total ``nu`` to 63."""
    if category < N_UPPER and nu < BONUS_THRESHOLD <= nu + points:
        return points + BONUS_POINTS
    return points
