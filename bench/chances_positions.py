"""The positions of ``bench_chances.py`` and their exact values: the sampling of the positions
(``Case``, ``sample_cases``) and the exact solves of every option's chance, each timed
(``solve_exact``, ``ExactTimes``; ``timed``: goal plans cold). See ``bench_chances.py``.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from yacht.chances.outcome import (  # noqa: E402
    Distribution,
    Outcome,
    canonical_nu,
    key,
    max_future,
    option_vector,
    play_turn,
    reachable_levels,
    shifted,
    successor_rows,
)
from yacht.chances.winning import (  # noqa: E402
    goal_plan,
    option_values,
    reach_payoff,
    root_turns,
    solve_goal_after_steps,
    win_payoff,
)
from yacht.core.categories import BONUS_THRESHOLD, N_CATEGORIES  # noqa: E402
from yacht.core.dice import roll_index  # noqa: E402
from yacht.core.options import advise, sheet_state  # noqa: E402
from yacht.core.policy import expected_policy  # noqa: E402
from yacht.core.position import Position, format_sheet  # noqa: E402
from yacht.core.rules import VARIANTS, Variant, score_table  # noqa: E402
from yacht.core.steps import finish  # noqa: E402
from yacht.loader import Tables  # noqa: E402

STAGES = (5, 6, 7, 8)
"""My free categories at the positions."""


WEIGHTS = np.array([1.0, 0.5])


Key = tuple
"""An option: ("keep", dice) at roll 1–2, ("category", c) at roll 3."""


After = dict[int, np.ndarray]


@dataclass
class Case:
    """One position: my sheet and the opponent's, the roll and dice, and which half it is in."""

    variant: Variant
    sheet: tuple
    opponent: tuple
    dice: tuple[int, ...]
    roll: int
    half: str
    free: int = 0
    query: str = ""
    state: tuple[int, int, int] = (0, 0, 0)
    opponent_state: tuple[int, int, int] = (0, 0, 0)
    exact: dict = field(default_factory=dict)
    estimates: dict = field(default_factory=dict)
    afters: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.free = sum(v is None for v in self.sheet)
        self.state = sheet_state(self.sheet)
        self.opponent_state = sheet_state(self.opponent)
        dice = "".join(map(str, self.dice))
        strict = "&v=strict" if self.variant.name == "strict" else ""
        self.query = f"s={format_sheet(self.sheet)}&d={dice}&r={self.roll}{strict}"


def play_game_turn(sheet: list, variant: Variant, tilde: np.ndarray, rng: random.Random, stop: int = 0) -> tuple:
    """One turn of the expected-score player on real dice: the sheet is filled in place. With
    ``stop`` (1–3), the dice after that roll are returned instead and the sheet is left alone."""
    dice = tuple(rng.randint(1, 6) for _ in range(5))
    for roll in (1, 2, 3):
        if roll == stop:
            return dice
        best = advise(Position(tuple(sheet), dice, roll, variant), tilde).options[0]
        if roll == 3 or (best.keep is not None and len(best.keep) == 5):
            if not stop:
                sheet[best.category] = int(score_table(variant)[roll_index(dice), best.category])
                return dice
            continue  # keeping all five: the same dice at the next roll
        dice = (*best.keep, *(rng.randint(1, 6) for _ in range(5 - len(best.keep))))
    return dice


def game_sheet(variant: Variant, tilde: np.ndarray, free: int, rng: random.Random) -> tuple:
    """A sheet with ``free`` free categories from a game of the expected-score player."""
    sheet: list = [None] * N_CATEGORIES
    while sum(v is None for v in sheet) > free:
        play_game_turn(sheet, variant, tilde, rng)
    return tuple(sheet)


def sample_cases(tables: Tables, count: int, seed: int, half: str) -> list[Case]:
    """``count`` positions spread evenly over variants and stages, from ``seed``."""
    rng = random.Random(seed)
    cells = [(name, free) for name in VARIANTS for free in STAGES]
    cases = []
    for i in range(count):
        name, free = cells[i % len(cells)]
        variant, tilde = VARIANTS[name], tables[name].tilde
        sheet = game_sheet(variant, tilde, free, rng)
        opponent = game_sheet(variant, tilde, rng.choice([free, free - 1]), rng)
        roll = rng.randint(1, 3)
        dice = play_game_turn(list(sheet), variant, tilde, rng, stop=roll)
        cases.append(Case(variant, sheet, opponent, dice, roll, half))
    return cases


def option_table(after: After, case: Case, weights: np.ndarray = WEIGHTS) -> dict[Key, float]:
    """The objective (win + draw/2, or reach) of every option of the case's roll."""
    root = root_turns([after], weights)
    out = {}
    for keep, category, channels in option_values(root, after, weights, case.roll, case.dice):
        out[("keep", keep) if keep is not None else ("category", category)] = float(channels @ weights)
    return out


def payoff_of(case: Case, law: Distribution) -> np.ndarray:
    mask, nu, sigma = case.state
    return win_payoff(law, sigma + max_future(case.variant, mask, nu) + 1)[0]


def timed(function: Callable[[], object]) -> tuple[object, float]:
    """The result of ``function`` and its time, goal plans cold (a decision at a new state)."""
    goal_plan.cache_clear()
    start = time.perf_counter()
    result = function()
    return result, time.perf_counter() - start


@dataclass
class ExactTimes:
    opponent: dict[int, list[float]] = field(default_factory=dict)
    mine_law: dict[int, list[float]] = field(default_factory=dict)
    win: dict[int, list[float]] = field(default_factory=dict)
    reach: dict[int, list[float]] = field(default_factory=dict)

    def add(self, kind: str, free: int, seconds: float) -> None:
        getattr(self, kind).setdefault(free, []).append(seconds)


def percentiles(law: Distribution) -> tuple[int, int]:
    """My final score's median and 90th percentile (the least F with P(final ≤ F) ≥ ½, ≥ 0.9)."""
    cdf = np.cumsum(law.points)
    return tuple(law.score + int(np.searchsorted(cdf, q - 1e-12)) for q in (0.5, 0.9))


OUTCOME_BATCH = 128
"""States of a level solved at once by ``solve_outcome_batched`` (memory: some 150 MB per array)."""


def solve_outcome_batched(tilde: np.ndarray, variant: Variant, mask: int, nu: int, score: int, laws: dict) -> Outcome:
    """``outcome.solve_outcome`` (the same arithmetic, the same ``laws`` kept) with each level's
    states taken ``OUTCOME_BATCH`` at a time: at 8 free categories the whole-level arrays peak
    at some 4 GB, too much beside other work on the machine."""
    scores = score_table(variant)
    levels = reachable_levels(mask, nu)
    masks, nus = levels[-1]
    values = np.zeros((len(masks), 2))
    values[:, 0], values[:, -1] = 1.0, nus == BONUS_THRESHOLD
    after, root = {}, None
    for m, n, row in zip(masks.tolist(), nus.tolist(), values, strict=True):
        laws[m, n] = Distribution(0, row[:1].copy(), float(row[-1]))
    for j in range(len(levels) - 2, -1, -1):
        masks, nus = levels[j]
        width = max(max_future(variant, m, n) for m, n in zip(masks.tolist(), nus.tolist(), strict=True)) + 2
        next_keys = key(*levels[j + 1])
        if j == 0:
            for c in range(N_CATEGORIES):
                if not mask >> c & 1:
                    rows, gain = successor_rows(scores, masks, nus, np.full((1, 1), c), next_keys)
                    after[c] = shifted(values, rows, gain, width)[:, 0]
        parts = []
        for i in range(0, len(masks), OUTCOME_BATCH):
            part_masks, part_nus = masks[i : i + OUTCOME_BATCH], nus[i : i + OUTCOME_BATCH]
            policy = expected_policy(tilde, scores, part_masks, part_nus)
            rows, gain = successor_rows(scores, part_masks, part_nus, policy.category, next_keys)
            root = play_turn(shifted(values, rows, gain, width), policy)
            parts.append(root.start)
        values = np.concatenate(parts)
        for m, n, row in zip(masks.tolist(), nus.tolist(), values, strict=True):
            laws[m, n] = Distribution(0, row[: max_future(variant, m, n) + 1].copy(), float(row[-1]))
    return Outcome(score, root, after)


def solve_exact(tables: Tables, case: Case, memos: dict, times: ExactTimes) -> None:
    """The exact values of every option: o= and t= at my median and 90th percentile."""
    name, variant, (mask, nu, sigma) = case.variant.name, case.variant, case.state
    tilde, memo = tables[name].tilde, memos[name]
    om, on, osigma = case.opponent_state
    opponent_key = (om, int(canonical_nu(np.array([om]), np.array([on]))[0]))
    if opponent_key not in memo:
        _, seconds = timed(lambda: solve_outcome_batched(tilde, variant, om, on, osigma, memo))
        times.add("opponent", 12 - bin(om).count("1"), seconds)
    case.exact["law"] = law = Distribution(osigma, memo[opponent_key].points, memo[opponent_key].bonus)
    payoff = payoff_of(case, law)
    after, seconds = timed(lambda: finish(solve_goal_after_steps(variant, mask, nu, sigma, payoff, WEIGHTS)))
    times.add("win", case.free, seconds)
    case.afters["exact"] = after
    case.exact["o"] = option_table(after, case)
    outcome, seconds = timed(lambda: solve_outcome_batched(tilde, variant, mask, nu, sigma, memo))
    times.add("mine_law", case.free, seconds)
    best = advise(Position(case.sheet, case.dice, case.roll, variant), tilde).options[0]
    mine = outcome.final(option_vector(outcome, case.roll, case.dice, best.keep, best.category))
    size = sigma + max_future(variant, mask, nu) + 1
    for label, target in zip(("t50", "t90"), percentiles(mine), strict=True):
        payoff, weights = reach_payoff(target, size)
        solve = solve_goal_after_steps(variant, mask, nu, sigma, payoff, weights)
        after, seconds = timed(lambda s=solve: finish(s))
        times.add("reach", case.free, seconds)
        case.exact[label] = (target, option_table(after, case, weights))
