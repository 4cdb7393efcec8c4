"""The coach: what an option plays for, what it changes for the rest of the game, and why
the best option beats another — all exact, under the advisor's play (``policy.expected_policy``).

Per state s = (mask, ν), solved offline beside Ẽ by the same backward induction, one turn per
state under the advisor's play, as the law S is (``reach.end_chances``: the chance that the turn
ends with each roll, scored in the advisor's category):

    B(s)    = P(the upper bonus is earned by the game's end)          (a chance, 0–1)
    E_c(s)  = E[points scored in category c by the game's end]        (points, bonus excluded;
                                                                       0 where c is filled)

with, at roll 3 with the dice τ and the advisor's category c* (s′ = the state after scoring it):

    B3[τ]    = B(s′)                       B(full sheet, ν) = 1 if ν = 63 else 0
    E_c3[τ]  = points(c*, τ) if c = c*, else E_c(s′)

and V(s) = Σ_τ P(the turn ends with τ)·V3[τ] (the turn backwards through the advisor's keeps). The offline values are
the (4096, 64, 13) float64 array ``coach`` indexed [mask, ν, channel], channel 0 = B,
channel 1 + c = E_c (``empty_coach``, ``coach_chunk``).

For a position at roll 1 or 2, every keep is explained by one turn of the same kind from the
position's state with 37 channels (``CHANNELS``): P(this turn ends in c), P(ends in c)·points,
B after the turn, and E_c after the turn. ``play_turn``'s keep rows are then, for every keep at
once, the expectation under the advisor's play after that keep (``keeps2`` at roll 2, ``keeps1``
at roll 1; keeping all five is stopping with the advisor's category). A roll-3 option is one
category, scored now.
"""

from typing import TYPE_CHECKING, Final, NamedTuple

import numpy as np

from ..core.advisor import Advice, sheet_state
from ..core.categories import BONUS_POINTS, BONUS_THRESHOLD, FULL_MASK, N_CATEGORIES
from ..core.dice import KEEP_DICE, N_ROLLS, ROLL_OFFSET, keep_index, roll_index, subkeeps
from ..core.policy import expected_policy, successor
from ..core.position import Position
from ..core.rules import score_table
from ..core.solver import CHUNK
from ..core.states import N_MASKS, N_NU, states_with_filled
from .outcome import play_turn
from .reach import end_chances

if TYPE_CHECKING:
    from .goal import GoalTurn

N_COACH: Final = 1 + N_CATEGORIES
"""Channels of the offline values: B, then E_c for c = 0 … 11."""
BONUS: Final = 0
_AIM, _AIM_POINTS, _BONUS, _EXPECT = 0, N_CATEGORIES, 2 * N_CATEGORIES, 2 * N_CATEGORIES + 1
CHANNELS: Final = 3 * N_CATEGORIES + 1
"""Channels of a position's turn: P(end in c) ×12, P(end in c)·points ×12, B after, E_c after ×12."""
WHY_COUNT: Final = 3
"""The differences ``why`` returns at most."""


def empty_coach() -> np.ndarray:
    """(4096, 64, 13) float64 [mask, ν, channel] to solve into: 0, except B = 1 at the full
    sheet with ν = 63 (every E_c of the full sheet is 0: nothing is left to score)."""
    coach = np.zeros((N_MASKS, N_NU, N_COACH))
    coach[FULL_MASK, BONUS_THRESHOLD, BONUS] = 1.0
    return coach


def _turn_end(
    coach: np.ndarray, scores: np.ndarray, masks: np.ndarray, nus: np.ndarray, category: np.ndarray
) -> np.ndarray:
    """(252, B, 13) the channels after roll 3 with the dice τ (rows) scored in ``category``
    ((252, B) int, or broadcastable to it): B(s′), and per c the points now if c is the one
    scored, else E_c(s′)."""
    category = np.broadcast_to(category, (N_ROLLS, len(masks)))
    next_masks, next_nus, _ = successor(scores, masks, nus, category)
    after = coach[next_masks, next_nus].copy()
    points = np.take_along_axis(scores, category, axis=1)
    scored = np.arange(N_CATEGORIES) == category[..., None]
    after[..., 1:] = np.where(scored, points[..., None], after[..., 1:])
    return after


def coach_chunk(tilde: np.ndarray, scores: np.ndarray, coach: np.ndarray, n_filled: int, start: int) -> None:
    """Solve B and E_c of the states ``start : start + CHUNK`` of a level (``states_with_filled``)
    into ``coach`` (``empty_coach`` layout, the later levels solved), in place, under the
    advisor's play on ``tilde``: the law solve's turn (``reach.end_chances``: the chance that the
    turn ends with each roll τ, scored in the advisor's category) applied to the 13 channels at
    roll 3, V(s) = Σ_τ chance[τ]·V3[τ] (the same as ``play_turn`` on them, to rounding)."""
    masks, nus = states_with_filled(n_filled)
    masks, nus = masks[start : start + CHUNK], nus[start : start + CHUNK]
    policy = expected_policy(tilde, scores, masks, nus)
    end = _turn_end(coach, scores, masks, nus, policy.category)
    coach[masks, nus] = np.einsum("tb,tbc->bc", end_chances(policy), end)


def solve_coach_states(tilde: np.ndarray, scores: np.ndarray, coach: np.ndarray, lowest: int = 0) -> None:
    """Every level of ``coach_chunk`` in this process, 11 filled down to ``lowest`` (the tests'
    solve of the states near the end; ``build_table.coach`` solves all, over processes)."""
    for n_filled in range(N_CATEGORIES - 1, lowest - 1, -1):
        for start in range(0, len(states_with_filled(n_filled)[0]), CHUNK):
            coach_chunk(tilde, scores, coach, n_filled, start)


class Explained(NamedTuple):
    """What one option plays for and what it leaves: ``aims`` [(category, p, mean points)] by p
    descending (p > 0, summing to 1; points of the category alone, bonus excluded), ``bonus``
    P(upper bonus by the end), ``categories`` [(c, expected points of c by the end)] per free c
    in category order (the points it scores this turn or later)."""

    aims: tuple[tuple[int, float, float], ...]
    bonus: float
    categories: tuple[tuple[int, float], ...]

    def to_json(self) -> dict:
        return {
            "aims": [{"category": c, "p": p, "mean_points": m} for c, p, m in self.aims],
            "bonus": self.bonus,
            "categories": [{"category": c, "expected_points": e} for c, e in self.categories],
        }


def _position_end(coach: np.ndarray, scores: np.ndarray, mask: int, nu: int, category: np.ndarray) -> np.ndarray:
    """(252, 1, 37) a position's channels after roll 3 (``CHANNELS``), ``category`` (252, 1)."""
    masks, nus = np.array([mask]), np.array([nu])
    after = _turn_end(coach, scores, masks, nus, category)
    category = np.broadcast_to(category, (N_ROLLS, 1))
    aim = (np.arange(N_CATEGORIES) == category[..., None]).astype(float)
    points = np.take_along_axis(scores, category, axis=1)[..., None]
    return np.concatenate([aim, aim * points, after], axis=-1)


def _explained(channels: np.ndarray, free: list[int]) -> Explained:
    """An ``Explained`` from the 37 channels of one option."""
    aims = [
        (c, float(channels[_AIM + c]), float(channels[_AIM_POINTS + c] / channels[_AIM + c]))
        for c in range(N_CATEGORIES)
        if channels[_AIM + c] > 0
    ]
    aims.sort(key=lambda a: (-a[1], a[0]))
    categories = tuple((c, float(channels[_EXPECT + c])) for c in free)
    return Explained(tuple(aims), float(channels[_BONUS]), categories)


def explain_category(position: Position, coach: np.ndarray, category: int) -> Explained:
    """The ``Explained`` of scoring the free ``category`` now with ``position``'s dice (at any roll:
    a roll-3 option, or stopping early in a category the advice would not take)."""
    mask, nu, _ = sheet_state(position.sheet)
    free = [c for c in range(N_CATEGORIES) if not mask >> c & 1]
    end = _position_end(coach, score_table(position.variant), mask, nu, np.full((N_ROLLS, 1), category))
    return _explained(end[roll_index(position.dice), 0], free)


def explain(advice: Advice, tilde: np.ndarray, coach: np.ndarray) -> tuple[Explained, ...]:
    """The ``Explained`` of each of ``advice``'s options, in its order; () at roll 0 or when the
    game is over. ``tilde``: the (4096, 64) Ẽ the advice was ranked on; ``coach``: (4096, 64, 13)."""
    position = advice.position
    if position.is_over or position.roll == 0 or position.dice is None or not advice.options:
        return ()
    mask, nu, _ = sheet_state(position.sheet)
    scores = score_table(position.variant)
    free = [c for c in range(N_CATEGORIES) if not mask >> c & 1]
    if position.roll == 3:  # a category scored now
        return tuple(explain_category(position, coach, o.category) for o in advice.options)
    policy = expected_policy(tilde, scores, np.array([mask]), np.array([nu]))
    turn = play_turn(_position_end(coach, scores, mask, nu, policy.category), policy)
    keeps = (turn.keeps1 if position.roll == 1 else turn.keeps2)[:, 0]
    return tuple(_explained(keeps[keep_index(o.keep)], free) for o in advice.options)


AIM_MARGIN: Final = 0.005
"""A category whose chance of being scored this turn differs by at least this much between two
options is reported as an aim (``"kind": "aim"``), else by its expected points (``"category"``)."""


def why(best: Explained, other: Explained, count: int = WHY_COUNT) -> list[dict]:
    """The differences that carry most of the gap between two options of one position, largest
    contribution first, at most ``count``, each a dict with ``"contribution"``: points of expected
    final score it adds to ``best`` over ``other`` (negative: what ``best`` gives up).

    The gap splits exactly: the points still to come are Σ_c E_c + 35·(B − [bonus earned now]),
    so best − other = Σ_c ΔE_c + 35·ΔB, one term per free category and one for the bonus:

    ``{"kind": "bonus", "best", "other", "contribution"}``: B of each (chances 0–1);
    ``{"kind": "aim", "category", "best", "other", "contribution"}``: the chance of scoring the
    category this turn, when it differs by ``AIM_MARGIN`` or more (its contribution is still ΔE_c);
    ``{"kind": "category", "category", "best", "other", "contribution"}``: E_c of each (points).
    Terms under 1e-9 points are left out."""
    best_aims = {c: p for c, p, _ in best.aims}
    other_aims = {c: p for c, p, _ in other.aims}
    other_points = dict(other.categories)
    terms = [
        {
            "kind": "bonus",
            "best": best.bonus,
            "other": other.bonus,
            "contribution": BONUS_POINTS * (best.bonus - other.bonus),
        }
    ]
    for c, expected in best.categories:
        p, q = best_aims.get(c, 0.0), other_aims.get(c, 0.0)
        aim = abs(p - q) >= AIM_MARGIN
        terms.append(
            {
                "kind": "aim" if aim else "category",
                "category": c,
                "best": p if aim else expected,
                "other": q if aim else other_points[c],
                "contribution": expected - other_points[c],
            }
        )
    terms = [t for t in terms if abs(t["contribution"]) > 1e-9]
    terms.sort(key=lambda t: -abs(t["contribution"]))
    return terms[:count]


def goal_aims(position: Position, solved: "GoalTurn") -> dict[tuple, tuple[tuple[int, float, float], ...]]:
    """What each option of ``position`` (with o= or t=) plays for under the goal's play after it:
    the aims as in ``Explained`` (category, p, mean points), by option key — ("keep", dice) for
    a keep of fewer than five, ("stop",) for keeping all five (the goal's category for these
    dice), ("category", c) for scoring c now. ``solved``: the goal's turn (``goal.solve_turn``),
    whose per-category channels after this turn (``after``) decide the goal's play; the aim
    channels ([c* = c], [c* = c]·points) ride along with weight 0, so every choice stays the
    goal's (``winning.root_turns``): one more turn, no other solve."""
    from .winning import root_turns

    scores = score_table(position.variant)
    roll = roll_index(position.dice)
    identity = np.eye(N_CATEGORIES)
    after = {
        c: np.concatenate(
            [values, np.broadcast_to(identity[c], (N_ROLLS, N_CATEGORIES)), identity[c] * scores[:, [c]]], 1
        )
        for c, values in solved.after.items()
    }
    goal = len(solved.weights)
    turn = root_turns([after], np.concatenate([solved.weights, np.zeros(2 * N_CATEGORIES)]))
    free = list(solved.after)
    out: dict[tuple, tuple[tuple[int, float, float], ...]] = {}
    for c in free:
        out["category", c] = ((c, 1.0, float(scores[roll, c])),)
    if position.roll in (1, 2):
        keeps = (turn.keeps1 if position.roll == 1 else turn.keeps2)[:, 0, goal:]
        for k in subkeeps(position.dice):
            channels = np.concatenate([keeps[k], np.zeros(CHANNELS - 2 * N_CATEGORIES)])
            key = ("stop",) if k >= ROLL_OFFSET else ("keep", KEEP_DICE[k])
            out[key] = _explained(channels, free).aims
    return out
