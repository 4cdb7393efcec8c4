"""The coach: what an option plays for, what it changes for the rest of the game, and why
the best option beats another — all exact, under the advisor's play (``policy.expected_policy``).

Per state s = (mask, ν), solved offline beside Ẽ by the same backward induction, one turn per
state under the advisor's play, as the law S is (``law.end_chances``: the chance that the turn
ends with each roll, scored in the advisor's category):

    B(s)    = P(the upper bonus is earned by the game's end)          (a chance, 0–1)
    E_c(s)  = E[points scored in category c by the game's end]        (points, bonus excluded;
                                                                       0 where c is filled)

with, at roll 3 with the dice τ and the advisor's category c* (s′ = the state after scoring it):

    B3[τ]    = B(s′)                       B(full sheet, ν) = 1 if ν = 63 else 0
    E_c3[τ]  = points(c*, τ) if c = c*, else E_c(s′)

and V(s) = Σ_τ P(the turn ends with τ)·V3[τ] (the turn backwards through the advisor's keeps). The offline values are
the (4096, 64, 13) float64 array ``coach`` indexed [mask, ν, channel], channel 0 = B,
channel 1 + c = E_c (``empty_coach``, ``coach_states``).

For a position at roll 1 or 2, every keep is explained by one turn of the same kind from the
position's state with 49 channels (``CHANNELS``): P(this turn ends in c), P(ends in c)·points,
P(ends scratching c: scoring 0 in it), B after the turn, and E_c after the turn. ``play_turn``'s
keep rows are then, for every keep at once, the expectation under the advisor's play after that
keep (``keeps2`` at roll 2, ``keeps1`` at roll 1; keeping all five is stopping with the advisor's
category). A roll-3 option is one category, scored now.
"""

from typing import TYPE_CHECKING, Final, NamedTuple

import numpy as np

from ..core.categories import BONUS_POINTS, BONUS_THRESHOLD, FULL_MASK, N_CATEGORIES
from ..core.dice import KEEP_DICE, N_ROLLS, ROLL_OFFSET, keep_index, roll_index, subkeeps
from ..core.options import Advice, sheet_state
from ..core.policy import expected_policy, successor
from ..core.position import Position
from ..core.rules import score_table
from ..core.solver import CHUNK
from ..core.states import N_MASKS, N_NU, states_with_filled
from .law import end_chances
from .outcome import play_turn

if TYPE_CHECKING:
    from .goal import GoalTurn

N_COACH: Final = 1 + N_CATEGORIES
"""Channels of the offline values: B, then E_c for c = 0 … 11."""
BONUS: Final = 0
AIM, AIM_POINTS, SCRATCH = 0, N_CATEGORIES, 2 * N_CATEGORIES
_BONUS, _EXPECT = 3 * N_CATEGORIES, 3 * N_CATEGORIES + 1
CHANNELS: Final = 4 * N_CATEGORIES + 1
"""Channels of a position's turn: P(end in c) ×12, P(end in c)·points ×12, P(end scratching c)
×12, B after, E_c after ×12."""
SHOWN_SHARE: Final = 0.8
"""The why's words show the largest terms that carry at least this share of its gross movement
(Σ |points|), and always one in favour of the best."""


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
    after = coach[next_masks, next_nus]  # a copy
    points = np.take_along_axis(scores, category, axis=1)
    np.put_along_axis(after, 1 + category[..., None], points[..., None], axis=2)
    return after


def coach_states(tilde: np.ndarray, scores: np.ndarray, coach: np.ndarray, masks: np.ndarray, nus: np.ndarray) -> None:
    """Solve B and E_c of the states (``masks``, ``nus``, each (B,)) into ``coach`` (``empty_coach``
    layout, their successors solved), in place, under the advisor's play on ``tilde``: the law
    solve's turn (``law.end_chances``: the chance that the turn ends with each roll τ, scored in
    the advisor's category) applied to the 13 channels at roll 3, V(s) = Σ_τ chance[τ]·V3[τ] (the
    same as ``play_turn`` on them, to rounding)."""
    policy = expected_policy(tilde, scores, masks, nus)
    end = _turn_end(coach, scores, masks, nus, policy.category)
    coach[masks, nus] = np.einsum("tb,tbc->bc", end_chances(policy), end)


def solve_coach_states(tilde: np.ndarray, scores: np.ndarray, coach: np.ndarray, lowest: int = 0) -> None:
    """``coach_states`` of every level in this process, 11 filled down to ``lowest``, ``CHUNK``
    states at a time (the tests' solve of the states near the end; ``build_table.coach`` solves
    all, over processes)."""
    for n_filled in range(N_CATEGORIES - 1, lowest - 1, -1):
        masks, nus = states_with_filled(n_filled)
        for start in range(0, len(masks), CHUNK):
            coach_states(tilde, scores, coach, masks[start : start + CHUNK], nus[start : start + CHUNK])


class Aim(NamedTuple):
    """How often this turn ends in ``category``: ``p`` (0–1), the ``mean_points`` it scores there
    (bonus excluded; 0s included), and ``scratch``, how often it ends scoring 0 there (0 ≤ scratch
    ≤ p)."""

    category: int
    p: float
    mean_points: float
    scratch: float

    def to_json(self) -> dict:
        return {"category": self.category, "p": self.p, "mean_points": self.mean_points, "scratch": self.scratch}


class Explained(NamedTuple):
    """What one option plays for and what it leaves: ``aims`` (``Aim``) by p descending (p > 0,
    summing to 1), ``bonus`` P(upper bonus by the end), ``categories`` [(c, expected points of c
    by the end)] per free c in category order (the points it scores this turn or later)."""

    aims: tuple[Aim, ...]
    bonus: float
    categories: tuple[tuple[int, float], ...]

    def to_json(self) -> dict:
        return {
            "aims": [a.to_json() for a in self.aims],
            "bonus": self.bonus,
            "categories": [{"category": c, "expected_points": e} for c, e in self.categories],
        }


def _position_end(coach: np.ndarray, scores: np.ndarray, mask: int, nu: int, category: np.ndarray) -> np.ndarray:
    """(252, 1, 49) a position's channels after roll 3 (``CHANNELS``), ``category`` (252, 1)."""
    masks, nus = np.array([mask]), np.array([nu])
    after = _turn_end(coach, scores, masks, nus, category)
    category = np.broadcast_to(category, (N_ROLLS, 1))
    aim = (np.arange(N_CATEGORIES) == category[..., None]).astype(float)
    points = np.take_along_axis(scores, category, axis=1)[..., None]
    return np.concatenate([aim, aim * points, aim * (points == 0), after], axis=-1)


def _explained(channels: np.ndarray, free: list[int]) -> Explained:
    """An ``Explained`` from the 49 channels of one option."""
    aims = [
        Aim(
            c,
            float(channels[AIM + c]),
            float(channels[AIM_POINTS + c] / channels[AIM + c]),
            min(float(channels[SCRATCH + c]), float(channels[AIM + c])),
        )
        for c in range(N_CATEGORIES)
        if channels[AIM + c] > 0
    ]
    aims.sort(key=lambda a: (-a.p, a.category))
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


def why(best: Explained, other: Explained, total: float) -> dict:
    """Why ``best`` beats ``other``, in points of expected final score.

    The points still to come are Σ_c E_c + 35·(B − [bonus earned now]), so the gap splits exactly
    into one term per free category and one for the bonus: ``"terms"`` [{"category": c, "points":
    E_c(best) − E_c(other)}, …, {"category": "bonus", "points": 35·(B(best) − B(other))}], every
    one, largest |points| first (ties: the bonus, then category order), summing to ``"total"``,
    ``total``: best's expected final score less other's as the advice gives them (on the loader's
    coach values, ``coach_table.consistent``, to float rounding; on a float64 solve, to 1e-9);
    ``"shown"``: the indices of the terms the words show (``shown_terms``)."""
    other_points = dict(other.categories)
    terms = [{"category": "bonus", "points": BONUS_POINTS * (best.bonus - other.bonus)}]
    terms += [{"category": c, "points": expected - other_points[c]} for c, expected in best.categories]
    order = sorted(range(len(terms)), key=lambda i: (-abs(terms[i]["points"]), i))
    terms = [terms[i] for i in order]
    return {"terms": terms, "total": total, "shown": shown_terms([t["points"] for t in terms])}


def shown_terms(points: list[float]) -> list[int]:
    """Which of the why's ``points`` (largest |points| first) its words show: the first terms that
    carry at least ``SHOWN_SHARE`` of the gross movement Σ |points|, and the largest term in favour
    of the best (points > 0) when none of those is; [] when nothing moves (1e-9)."""
    gross = sum(abs(x) for x in points)
    if gross <= 1e-9:
        return []
    shown, carried = [], 0.0
    for i, x in enumerate(points):
        if carried >= SHOWN_SHARE * gross - 1e-12:
            break
        shown.append(i)
        carried += abs(x)
    favour = next((i for i, x in enumerate(points) if x > 1e-9), None)
    if favour is not None and all(points[i] <= 1e-9 for i in shown):
        shown.append(favour)
    return shown


STRAIGHTS: Final = (9, 10)
"""S.Straight and B.Straight."""
STRAIGHT_WINDOWS: Final = (
    frozenset({1, 2, 3, 4, 5}),
    frozenset({2, 3, 4, 5, 6}),
    frozenset({1, 2, 3, 4}),
    frozenset({2, 3, 4, 5}),
    frozenset({3, 4, 5, 6}),
)
"""The dice of each straight: a keep inside one of them, with no face twice, draws to it."""
DRAW_CHANCE: Final = 0.1
"""A straight draw's free straights are played for at least this often."""


def plan(option: dict, explained: Explained) -> dict | None:
    """What an option of a position is, in a player's words, when it is one of the common kinds
    (``option``: its JSON, with ``keep`` and/or ``category``): ``{"kind": "draw", "categories":
    [straights by p, descending]}`` for a keep of 3–4 different dice inside a straight whose free
    straights it ends in at least ``DRAW_CHANCE`` of the time; ``{"kind": "scratch", "category": c}``
    for scoring 0 now; ``{"kind": "score", "category": c, "points": x}`` for scoring x now (the
    why says when that is a dump); else None."""
    keep = option.get("keep")
    if keep is None or (len(keep) == 5 and "category" in option):
        c = option["category"]
        points = next(a.mean_points for a in explained.aims if a.category == c)
        return {"kind": "scratch", "category": c} if points == 0 else {"kind": "score", "category": c, "points": points}
    faces = set(keep)
    if not 3 <= len(keep) <= 4 or len(faces) != len(keep) or not any(faces <= w for w in STRAIGHT_WINDOWS):
        return None
    straights = [a for a in explained.aims if a.category in STRAIGHTS]
    if sum(a.p for a in straights) < DRAW_CHANCE:
        return None
    return {"kind": "draw", "categories": [a.category for a in straights]}


def goal_aims(position: Position, solved: "GoalTurn") -> dict[tuple, tuple[Aim, ...]]:
    """What each option of ``position`` (with o= or t=) plays for under the goal's play after it:
    the aims as in ``Explained`` (``Aim``), by option key — ("keep", dice) for
    a keep of fewer than five, ("stop",) for keeping all five (the goal's category for these
    dice), ("category", c) for scoring c now. ``solved``: the goal's turn (``goal.solve_turn``),
    whose per-category channels after this turn (``after``) decide the goal's play; the aim
    channels ([c* = c], [c* = c]·points, [c* = c]·[points = 0]) ride along with weight 0, so every choice stays the
    goal's (``winning.root_turns``): one more turn, no other solve."""
    from .winning import root_turns

    scores = score_table(position.variant)
    roll = roll_index(position.dice)
    identity = np.eye(N_CATEGORIES)
    after = {
        c: np.concatenate(
            [
                values,
                np.broadcast_to(identity[c], (N_ROLLS, N_CATEGORIES)),
                identity[c] * scores[:, [c]],
                identity[c] * (scores[:, [c]] == 0),
            ],
            1,
        )
        for c, values in solved.after.items()
    }
    goal = len(solved.weights)
    turn = root_turns([after], np.concatenate([solved.weights, np.zeros(3 * N_CATEGORIES)]))
    free = list(solved.after)
    out: dict[tuple, tuple[Aim, ...]] = {}
    for c in free:
        points = float(scores[roll, c])
        out["category", c] = (Aim(c, 1.0, points, float(points == 0)),)
    if position.roll in (1, 2):
        keeps = (turn.keeps1 if position.roll == 1 else turn.keeps2)[:, 0, goal:]
        for k in subkeeps(position.dice):
            channels = np.concatenate([keeps[k], np.zeros(CHANNELS - 3 * N_CATEGORIES)])
            key = ("stop",) if k >= ROLL_OFFSET else ("keep", KEEP_DICE[k])
            out[key] = _explained(channels, free).aims
    return out
