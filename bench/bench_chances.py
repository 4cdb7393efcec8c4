"""How close the chances of winning (o=) are to the exact ones beyond the exact range, and which
estimate to ship; a figure benchmark (not a timed test).

    python bench/bench_chances.py [--positions N] [--seed S] [--save FILE.pickle]
    python bench/bench_chances.py --load FILE.pickle

(``--save``: the positions with every value found and the timings, for study or for ``--load``,
which prints the figures again without solving, the shipped answers asked again: a change of
the shipped chance is measured in seconds.)

N positions (default 128) come from simulated games of the expected-score player
(``yacht.core.advisor.advise`` on real random dice): 5–8 free categories of mine, both variants, a
roll 1–3 with its dice and an opponent's sheet from another such game with as many free
categories or one fewer. Half of them
(seed S) calibrate the fitted constants, the other half (seed S + 1) is where every error
printed is measured (the test half), each half split evenly over variants and stages.

Printed:

1. The exact values and what they cost: for every option, win + draw/2 by the goal DP
   (``winning.solve_goal_after``, every free category) against the opponent's exact law
   (``goal.opponent_law(..., exact_free=12)``), and for t= at the median and the 90th
   percentile of my exact final-score law under the best-average play
   (``outcome.solve_outcome``): time per stage of each exact solve (opponent laws and my own
   laws are kept by state).
2. t=: the shipped chance (``yacht.api.advise_query``, exact through the reach chunks) against
   the exact DP: mean and max |difference| over every option, and the decision time.
3. o=: each candidate estimate of every option's win + draw/2 against the exact value on the
   test half (points = percentage points): mean |error|, max |error|, mean signed error,
   positions where the estimate's best option is not an exact best one, the mean and worst
   chance lost by following it, and the time of one decision (median, p90; goal plans cold;
   chunks decoded on first use, so mostly warm). Candidates: "shipped now", what
   ``advise_query`` answers: the chance shown (``goal.BLEND``'s blend with ``goal.CALIBRATION``'s
   shift of the logit; the shift is fitted on duel games, not on this DP), and the same with the
   shift taken off (the blend alone); A the normal law
   after one exact turn (the chance shipped before the law chunks); B the R upper bound after
   one exact turn; C blends λ·B + (1 − λ)·A of the channels after each category, λ fixed or
   fitted on the calibration half (one λ, or one per stage); D two exact turns, then the normal
   law (D1), R (D2), their blend (D3) or λ·B + (1 − λ)·D1 (D4); E the opponent's law exact up
   to 6 free categories with A, B and the fitted blend; F (diagnostic only, slow) the opponent's
   exact law with A, B and the blend: the part of the error that is the opponent's. G and H use
   G(s, k) = P(X ≥ k), X the points still to come from state s under the best-average play
   (the "law" chunks), for my next states and, as a law, for the opponent's sheet: G1 one exact
   turn, then G; G2 two exact turns, then G; H1 ``chance_after``: one exact turn, then
   λ·R + (1 − λ)·G (λ fitted, one or one per stage); H2 λ·(B with the opponent's exact law) +
   (1 − λ)·G2. Checks: H1 and the shipped chance with its shift taken off against the blend they
   should equal, and the law chunks against the exact laws.
4. Mean |error| (and max) of the main candidates by stage and by variant (test half).
"""

from __future__ import annotations

import argparse
import pickle
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from yacht.api import advise_query  # noqa: E402
from yacht.chances import goal  # noqa: E402
from yacht.chances.goal import opponent_law  # noqa: E402
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
from yacht.chances.reach_table import Chunk, chunks_for  # noqa: E402
from yacht.chances.winning import (  # noqa: E402
    CHUNK_COLUMNS,
    _level_pairs,
    _root_after,
    approximate_goal_after,
    goal_plan,
    normal_points,
    option_values,
    reach_payoff,
    root_turns,
    solve_goal_after,
    win_payoff,
)
from yacht.core.advisor import advise, sheet_state  # noqa: E402
from yacht.core.categories import BONUS_THRESHOLD, FULL_MASK, N_CATEGORIES  # noqa: E402
from yacht.core.dice import roll_index  # noqa: E402
from yacht.core.policy import expected_policy, successor  # noqa: E402
from yacht.core.position import Position, format_sheet  # noqa: E402
from yacht.core.rules import VARIANTS, Variant, score_table  # noqa: E402
from yacht.loader import DEFAULT_TABLES, Tables  # noqa: E402

STAGES = (5, 6, 7, 8)
"""My free categories at the positions."""
FIXED_LAMBDAS = (0.25, 0.5, 0.75)
LAMBDA_GRID = np.linspace(0.0, 1.0, 41)
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


# ---------------------------------------------------------------- positions


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


# ---------------------------------------------------------------- values of the options


def option_table(after: After, case: Case, weights: np.ndarray = WEIGHTS) -> dict[Key, float]:
    """The objective (win + draw/2, or reach) of every option of the case's roll."""
    root = root_turns([after], weights)
    out = {}
    for keep, category, channels in option_values(root, after, weights, case.roll, case.dice):
        out[("keep", keep) if keep is not None else ("category", category)] = float(channels @ weights)
    return out


def shipped_table(answer: dict, name: str) -> dict[Key, float]:
    """Every option's chance as ``advise_query`` gives it."""
    out = {}
    for option in answer["options"]:
        value = option["win"] + option["draw"] / 2 if name == "o" else option["reach"]
        out[("keep", tuple(option["keep"])) if "keep" in option else ("category", option["category"])] = value
    return out


def blend(first: After, second: After, weight: float) -> After:
    """weight · first + (1 − weight) · second, category by category."""
    return {c: weight * first[c] + (1 - weight) * second[c] for c in first}


def payoff_of(case: Case, law: Distribution) -> np.ndarray:
    mask, nu, sigma = case.state
    return win_payoff(law, sigma + max_future(case.variant, mask, nu) + 1)[0]


def law_of(tables: Tables, case: Case, exact_free: int, memo: dict | None = None) -> Distribution:
    name = case.variant.name
    return opponent_law(
        tables[name].tilde, lambda: tables.spread(name), case.variant, *case.opponent_state, exact_free, memo
    )[0]


def normal_after(tables: Tables, case: Case, law: Distribution) -> After:
    """A's channels: one exact turn, then the normal law of my future points."""
    name, (mask, nu, sigma) = case.variant.name, case.state
    return approximate_goal_after(
        tables[name].tilde, tables.spread(name), case.variant, mask, nu, sigma, payoff_of(case, law)
    )


def reach_values(
    tables: Tables | LawChunks, variant: Variant, level: tuple, pairs: object, sigma: int, law: Distribution
) -> np.ndarray:
    """(P, 2) [Σ_y p_y R(s, y + 1 − σ − g), Σ_y p_y (R(s, y − σ − g) − R(s, y + 1 − σ − g))]
    for the pairs (s, g) of a level: the win and draw channels with each indicator replaced by R
    (``tables``: the reach chunks) or by G (``LawChunks``: the best-average law)."""
    masks, nus = level
    support = np.flatnonzero(law.points > 1e-15)
    chance, need = law.points[support], law.score + support - sigma
    out = np.empty((len(pairs.rows), 2))
    pair_masks = masks[pairs.rows]
    unique = np.unique(pair_masks).tolist()
    chunks = tables.reach(variant.name, [m for m in unique if m != FULL_MASK])
    for m in unique:
        at = np.flatnonzero(pair_masks == m)
        needs = need[None, :] - pairs.points[at, None]
        if m == FULL_MASK:
            at_least, above = (needs <= 0) @ chance, (needs + 1 <= 0) @ chance
        else:
            state_nus = nus[pairs.rows[at]][:, None]
            at_least, above = chunks[m].at(state_nus, needs) @ chance, chunks[m].at(state_nus, needs + 1) @ chance
        out[at, 0], out[at, 1] = above, at_least - above
    return out


def reach_after(tables: Tables | LawChunks, case: Case, law: Distribution) -> After:
    """B's channels: one exact turn, then R (or G) of each next state against the opponent's law."""
    mask, nu, sigma = case.state
    plan = goal_plan(case.variant, mask, nu, 1)
    return _root_after(reach_values(tables, case.variant, plan.levels[1], plan.pairs[1], sigma, law), plan)


def normal_values(tables: Tables, case: Case, level: tuple, pairs: object, payoff: np.ndarray) -> np.ndarray:
    """(P, 2) the channels of a level's pairs under the normal law of the future points."""
    name, sigma = case.variant.name, case.state[2]
    tilde, spread = tables[name].tilde, tables.spread(name)
    futures = [
        normal_points(float(tilde[m, n]), float(spread[m, n]), max_future(case.variant, m, n))
        for m, n in zip(*(a.tolist() for a in level), strict=True)
    ]
    table = np.zeros((len(futures), max(len(f) for f in futures)))
    for b, future in enumerate(futures):
        table[b, : len(future)] = future
    finals = np.minimum(sigma + pairs.points[:, None] + np.arange(table.shape[1]), len(payoff) - 1)
    return np.einsum("plk,pl->pk", payoff[finals], table[pairs.rows])


def normal_last(tables: Tables, case: Case, law: Distribution) -> Callable[[tuple, object], np.ndarray]:
    payoff = payoff_of(case, law)
    return lambda level, pairs: normal_values(tables, case, level, pairs, payoff)


def reach_last(tables: Tables | LawChunks, case: Case, law: Distribution) -> Callable[[tuple, object], np.ndarray]:
    return lambda level, pairs: reach_values(tables, case.variant, level, pairs, case.state[2], law)


def two_turn_after(case: Case, last_values: Callable[[tuple, object], np.ndarray]) -> After:
    """Two exact turns: the pairs two turns on get ``last_values(level, pairs)``, then the DP."""
    mask, nu, _ = case.state
    plan = goal_plan(case.variant, mask, nu, 2)
    values, first, last = last_values(plan.levels[2], plan.pairs[2]), plan.pairs[1], plan.pairs[2]
    chunk = max(64, CHUNK_COLUMNS * 2 // values.shape[1])
    values = np.concatenate(
        [
            _level_pairs(
                values, last, plan.successors[1], first.rows[i : i + chunk], first.points[i : i + chunk], WEIGHTS
            )
            for i in range(0, len(first.rows), chunk)
        ]
    )
    return _root_after(values, plan)


def timed(function: Callable[[], object]) -> tuple[object, float]:
    """The result of ``function`` and its time, goal plans cold (a decision at a new state)."""
    goal_plan.cache_clear()
    start = time.perf_counter()
    result = function()
    return result, time.perf_counter() - start


class LawChunks:
    """G(mask, ν, k) = P(X ≥ k), X the points still to come under the best-average play: the
    "law" chunks (``loader.Tables.chunks_of``), behind the ``Tables.reach`` signature so that
    ``reach_values`` reads them as it reads R."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    def reach(self, variant: str, masks: list[int]) -> dict[int, Chunk]:
        return self.tables.chunks_of(variant, {"law": masks})["law"]

    def error(self, variant: Variant, memo: dict, masks: np.ndarray, nus: np.ndarray) -> float:
        """The largest |G − P(X ≥ k) of the exact law| over these states (``memo``: exact laws)."""
        worst = 0.0
        for m, n in zip(masks.tolist(), canonical_nu(masks, nus).tolist(), strict=True):
            points = memo[m, n].points
            exact = np.cumsum(points[::-1])[::-1]
            chunk = self.reach(variant.name, [m])[m]
            worst = max(worst, float(np.abs(chunk.at(np.array([n]), np.arange(len(points))) - exact).max()))
        return worst


BLEND = 0.075
"""λ of ``chance_after`` (fitted on the calibration half of this benchmark, seed 1)."""


def chance_after(
    reach: dict[int, Chunk],
    laws: dict[int, Chunk],
    variant: Variant,
    mask: int,
    nu: int,
    sigma: int,
    opponent: Distribution,
    blend: float = BLEND,
) -> dict[int, np.ndarray]:
    """Per free category of (mask, ν) (one free at least), the (252, 2) channels [win, draw] after
    scoring it with each roll, my points still to come from the next state s′ taken as
    S(s′, k) = λ·R(s′, k) + (1 − λ)·G(s′, k) for "at least k" (R: the reach chunks, the most
    P(X ≥ k); G: P(X ≥ k) under the best-average play): with y the opponent's final score,
    win = Σ_y p_y S(s′, y + 1 − σ − gain), draw = Σ_y p_y (S(s′, y − σ − gain) − S(s′, y + 1 − σ − gain)).
    ``reach``, ``laws``: the chunks of ``reach_table.chunks_for(mask)`` of each kind."""
    scores = score_table(variant)
    support = np.flatnonzero(opponent.points > 0)
    chance, need = opponent.points[support], opponent.score + support - sigma  # y − σ
    after = {}
    for c in range(N_CATEGORIES):
        if not mask >> c & 1:
            _, nus, gain = successor(scores, np.array([mask]), np.array([nu]), np.full((1, 1), c))
            following, needs = mask | 1 << c, need[None, :] - gain  # (252, Y)
            at_least = blend * reach[following].at(nus, needs) + (1 - blend) * laws[following].at(nus, needs)
            above = blend * reach[following].at(nus, needs + 1) + (1 - blend) * laws[following].at(nus, needs + 1)
            win = above @ chance
            after[c] = np.stack([win, at_least @ chance - win], axis=1)
    return after


def law_from_chunk(chunk: Chunk, variant: Variant, mask: int, nu: int, sigma: int) -> Distribution:
    """The final-score law of a sheet (mask, ν, σ) under the best-average play, from its G chunk."""
    at_least = chunk.at(np.array([nu]), np.arange(max_future(variant, mask, nu) + 2))
    return Distribution(sigma, -np.diff(at_least), float("nan"))


def law_candidates(
    tables: Tables, laws: LawChunks, memo: dict, case: Case, blends: dict[str, float], timings: dict
) -> None:
    """G and H: the best-average law from the law chunks, for me and the opponent; timed (goal
    plans cold, chunks decoded on first use). Keeps how far the chunks are from the exact laws."""
    variant, name, (mask, nu, sigma) = case.variant, case.variant.name, case.state
    om, on, osigma = case.opponent_state
    if not blends:
        error = max(laws.error(variant, memo, *goal_plan(variant, mask, nu, depth).levels[depth]) for depth in (1, 2))
        case.exact["G error"] = max(error, laws.error(variant, memo, np.array([om]), np.array([on])))

    def opponent() -> Distribution:
        return law_from_chunk(laws.reach(name, [om])[om], variant, om, on, osigma)

    def g1() -> After:
        masks = chunks_for(mask)
        return chance_after(tables.reach(name, masks), laws.reach(name, masks), variant, mask, nu, sigma, opponent(), 0)

    def g2() -> After:
        return two_turn_after(case, reach_last(laws, case, opponent()))

    for label, function in () if blends else (("G1", g1), ("G2", g2)):
        (after, _), seconds = timed(lambda f=function: (after := f(), option_table(after, case)))
        timings.setdefault(label, []).append(seconds)
        case.afters[label] = after
    masks = chunks_for(mask)

    def h1(weight: float) -> After:
        return chance_after(
            tables.reach(name, masks), laws.reach(name, masks), variant, mask, nu, sigma, opponent(), weight
        )

    for label, weight in blends.items():
        (after, _), seconds = timed(lambda w=weight: (after := h1(w), option_table(after, case)))
        timings.setdefault("H1", []).append(seconds)
        case.afters[label] = after


# ---------------------------------------------------------------- exact


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
    after, seconds = timed(lambda: solve_goal_after(variant, mask, nu, sigma, payoff_of(case, law), WEIGHTS))
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
        after, seconds = timed(lambda p=payoff, w=weights: solve_goal_after(variant, mask, nu, sigma, p, w))
        times.add("reach", case.free, seconds)
        case.exact[label] = (target, option_table(after, case, weights))


# ---------------------------------------------------------------- candidates


def estimate_shipped(tables: Tables, case: Case, timings: dict[str, list[float]]) -> None:
    """The shipped answers (o=, t= at the median and the 90th percentile), timed."""
    query = f"{case.query}&o={format_sheet(case.opponent)}"
    answer, seconds = timed(lambda: advise_query(query, tables))
    timings.setdefault("shipped", []).append(seconds)
    case.estimates["shipped"] = shipped_table(answer, "o")
    beta = goal.calibration_shift(case.free, 12 - bin(case.opponent_state[0]).count("1"))
    case.estimates["blend"] = {k: float(goal.shifted(np.array(v), -beta)) for k, v in case.estimates["shipped"].items()}
    for label in ("t50", "t90"):
        target, _ = case.exact[label]
        answer, seconds = timed(lambda t=target: advise_query(f"{case.query}&t={t}", tables))
        timings.setdefault("t=", []).append(seconds)
        case.estimates[label] = shipped_table(answer, "t")


def estimate(tables: Tables, case: Case, timings: dict[str, list[float]]) -> None:
    """Every candidate's afters (channels after each category) and the shipped answers, timed."""
    estimate_shipped(tables, case, timings)

    def law_and(exact_free: int, after: Callable[[Distribution], After]) -> After:
        return after(law_of(tables, case, exact_free))

    def both(law: Distribution, first: Callable, second: Callable) -> After:
        return blend(first(law), second(law), 0.25)

    def normal(law: Distribution) -> After:
        return normal_after(tables, case, law)

    def reach(law: Distribution) -> After:
        return reach_after(tables, case, law)

    def normal2(law: Distribution) -> After:
        return two_turn_after(case, normal_last(tables, case, law))

    def reach2(law: Distribution) -> After:
        return two_turn_after(case, reach_last(tables, case, law))

    for label, exact_free, function in (
        ("A", 4, normal),
        ("B", 4, reach),
        ("AB", 4, lambda law: both(law, reach, normal)),
        ("A6", 6, normal),
        ("B6", 6, reach),
        ("AB6", 6, lambda law: both(law, reach, normal)),
        ("D1", 4, normal2),
        ("D2", 4, reach2),
        ("D12", 4, lambda law: both(law, reach2, normal2)),
        ("BD1", 4, lambda law: both(law, reach, normal2)),
    ):
        (result, _), seconds = timed(
            lambda e=exact_free, f=function: (after := law_and(e, f), option_table(after, case))
        )
        timings.setdefault(label, []).append(seconds)
        if label in ("A", "B", "A6", "B6", "D1", "D2"):
            case.afters[label] = result
    exact_law = case.exact["law"]
    case.afters["A*"] = normal_after(tables, case, exact_law)
    case.afters["B*"] = reach_after(tables, case, exact_law)


# ---------------------------------------------------------------- figures


@dataclass
class Figures:
    mean_abs: float
    max_abs: float
    signed: float
    wrong: int
    positions: int
    mean_lost: float
    worst_lost: float


def figures(cases: list[Case], tables_of: Callable[[Case], dict[Key, float]], kind: str = "o") -> Figures:
    """Errors in points of the estimates ``tables_of(case)`` against ``case.exact[kind]``."""
    errors, wrong, lost = [], 0, []
    for case in cases:
        exact = case.exact[kind] if kind == "o" else case.exact[kind][1]
        guess = tables_of(case)
        errors.extend(guess[k] - exact[k] for k in exact)
        chosen = max(guess, key=lambda k: guess[k])
        loss = max(exact.values()) - exact[chosen]
        wrong += loss > 1e-9
        lost.append(loss)
    err = 100 * np.array(errors)
    return Figures(
        float(np.abs(err).mean()),
        float(np.abs(err).max()),
        float(err.mean()),
        wrong,
        len(cases),
        100 * float(np.mean(lost)),
        100 * float(np.max(lost)),
    )


def blend_table(case: Case, first: str, second: str, weight: float) -> dict[Key, float]:
    key = (first, second, round(weight, 6))
    if key not in case.estimates:
        case.estimates[key] = option_table(blend(case.afters[first], case.afters[second], weight), case)
    return case.estimates[key]


def fit(cases: list[Case], first: str, second: str) -> float:
    """The λ of the grid with the least mean |error| of λ·first + (1 − λ)·second on ``cases``."""
    scores = [figures(cases, lambda c, w=w: blend_table(c, first, second, w)).mean_abs for w in LAMBDA_GRID]
    return float(LAMBDA_GRID[int(np.argmin(scores))])


def quantiles(times: list[float]) -> str:
    ordered = sorted(times)
    return f"{1e3 * statistics.median(ordered):6.1f} / {1e3 * ordered[int(0.9 * (len(ordered) - 1))]:6.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=128, help="positions in all, half of them to calibrate")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", type=Path, help="also pickle the positions with every value found, for study")
    parser.add_argument("--load", type=Path, help="print the figures of a --save run again, shipped answers asked anew")
    args = parser.parse_args()
    tables = Tables(DEFAULT_TABLES)
    for name in VARIANTS:
        tables.spread(name)
    start = time.perf_counter()
    if args.load:
        saved = pickle.loads(args.load.read_bytes())
        for case in saved["cases"]:
            estimate_shipped(tables, case, {})
        report(tables, start, **saved)
        return
    calibration = sample_cases(tables, args.positions // 2, args.seed, "calibration")
    test = sample_cases(tables, args.positions - args.positions // 2, args.seed + 1, "test")
    cases = calibration + test
    print(
        f"== {len(cases)} positions ({len(calibration)} calibration, seed {args.seed}; {len(test)} test, seed "
        f"{args.seed + 1}), my free 5-8, both variants; sampled in {time.perf_counter() - start:.1f} s"
    )

    decode = []
    for case in test[:8]:
        masks = [m for m in chunks_for(case.state[0]) if (case.variant.name, m) not in tables.chunks]
        chunk_start = time.perf_counter()
        tables.reach(case.variant.name, masks)
        decode.append((time.perf_counter() - chunk_start) / max(1, len(masks)))
    print(f"  reach chunk decode (cold, from disk): median {1e3 * statistics.median(decode):.2f} ms per chunk")
    memos: dict[str, dict] = {name: {} for name in VARIANTS}
    exact_times = ExactTimes()
    timings: dict[str, list[float]] = {}
    for i, case in enumerate(cases):
        t0 = time.perf_counter()
        solve_exact(tables, case, memos, exact_times)
        t1 = time.perf_counter()
        estimate(tables, case, timings)
        print(
            f"  [{i + 1}/{len(cases)}] {case.variant.name} free {case.free} (opp "
            f"{12 - bin(case.opponent_state[0]).count('1')}) r{case.roll}: exact {t1 - t0:.1f} s, "
            f"estimates {time.perf_counter() - t1:.1f} s",
            file=sys.stderr,
            flush=True,
        )

    laws = LawChunks(tables)
    for case in cases:
        law_candidates(tables, laws, memos[case.variant.name], case, {}, timings)
    lam_h = fit(calibration, "B*", "G1")
    lam_h_stage = {f: fit([c for c in calibration if c.free == f], "B*", "G1") for f in STAGES}
    for case in cases:
        law_candidates(
            tables, laws, memos[case.variant.name], case, {"H1": lam_h, "H1s": lam_h_stage[case.free]}, timings
        )
    saved = {"calibration": calibration, "test": test, "memos": memos, "exact_times": exact_times, "timings": timings}
    if args.save:
        args.save.write_bytes(pickle.dumps({**saved, "cases": cases}))
    report(tables, start, **saved)


def report(
    tables: Tables,
    start: float,
    calibration: list[Case],
    test: list[Case],
    memos: dict[str, dict],
    exact_times: ExactTimes,
    timings: dict[str, list[float]],
    cases: list[Case] | None = None,
) -> None:
    """Print the figures (see the module docstring) of the cases solved."""
    cases = calibration + test
    lam_h = fit(calibration, "B*", "G1")
    lam_h_stage = {f: fit([c for c in calibration if c.free == f], "B*", "G1") for f in STAGES}
    lam_h2 = fit(calibration, "B*", "G2")
    print("\n== Exact solves, seconds by my (or the opponent's) free categories: median / max")
    for label, kind in (
        ("opponent's law (new states)", "opponent"),
        ("my law (distribution)", "mine_law"),
        ("o= goal DP (2 channels)", "win"),
        ("t= goal DP (1 channel)", "reach"),
    ):
        by = getattr(exact_times, kind)
        parts = [f"{f}: {statistics.median(by[f]):5.2f} / {max(by[f]):5.2f}" for f in sorted(by)]
        print(f"  {label:28} " + "   ".join(parts))

    print("\n== t= (shipped: exact via R) against the exact DP, every option, all positions")
    for label in ("t50", "t90"):
        f = figures(cases, lambda c, lb=label: c.estimates[lb], label)
        print(
            f"  t at my {label[1:]}th percentile: mean |diff| {f.mean_abs:.5f} points, max {f.max_abs:.5f}, "
            f"best differs {f.wrong}/{f.positions}"
        )
    print(f"  decision time, median / p90: {quantiles(timings['t='])} ms")

    lam = fit(calibration, "B", "A")
    lam6 = fit(calibration, "B6", "A6")
    lam_d = fit(calibration, "D2", "D1")
    lam_bd = fit(calibration, "B", "D1")
    lam_star = fit(calibration, "B*", "A*")
    lam_stage = {f: fit([c for c in calibration if c.free == f], "B", "A") for f in STAGES}
    rows: list[tuple[str, Callable[[Case], dict[Key, float]], str]] = [
        ("shipped now (advise_query), shown", lambda c: c.estimates["shipped"], quantiles(timings["shipped"])),
        ("shipped, the shift taken off", lambda c: c.estimates["blend"], quantiles(timings["shipped"])),
        ("A  normal after 1 turn (before)", lambda c: option_table(c.afters["A"], c), quantiles(timings["A"])),
        ("B  R bound after 1 turn", lambda c: option_table(c.afters["B"], c), quantiles(timings["B"])),
    ]
    for w in FIXED_LAMBDAS:
        rows.append(
            (f"C  {w:.2f}*B + {1 - w:.2f}*A", lambda c, w=w: blend_table(c, "B", "A", w), quantiles(timings["AB"]))
        )
    rows.append((f"C  fitted lambda={lam:.3f}", lambda c: blend_table(c, "B", "A", lam), quantiles(timings["AB"])))
    stage_text = ",".join(f"{lam_stage[f]:.2f}" for f in STAGES)
    rows.append(
        (
            f"C  lambda/stage ({stage_text})",
            lambda c: blend_table(c, "B", "A", lam_stage[c.free]),
            quantiles(timings["AB"]),
        )
    )
    rows += [
        ("D1 2 turns, then normal", lambda c: option_table(c.afters["D1"], c), quantiles(timings["D1"])),
        ("D2 2 turns, then R", lambda c: option_table(c.afters["D2"], c), quantiles(timings["D2"])),
        (f"D3 lambda={lam_d:.3f} D2 + rest D1", lambda c: blend_table(c, "D2", "D1", lam_d), quantiles(timings["D12"])),
        (f"D4 lambda={lam_bd:.3f} B + rest D1", lambda c: blend_table(c, "B", "D1", lam_bd), quantiles(timings["BD1"])),
        ("E  A, opponent exact <=6", lambda c: option_table(c.afters["A6"], c), quantiles(timings["A6"])),
        ("E  B, opponent exact <=6", lambda c: option_table(c.afters["B6"], c), quantiles(timings["B6"])),
        (
            f"E  lambda={lam6:.3f} blend, opp. <=6",
            lambda c: blend_table(c, "B6", "A6", lam6),
            quantiles(timings["AB6"]),
        ),
        ("F  A, opponent exact (diag.)", lambda c: option_table(c.afters["A*"], c), "  slow"),
        ("F  B, opponent exact (diag.)", lambda c: option_table(c.afters["B*"], c), "  slow"),
        (f"F  lambda={lam_star:.3f} blend, opp. exact", lambda c: blend_table(c, "B*", "A*", lam_star), "  slow"),
        ("G1 1 turn, then G (best-average law)", lambda c: option_table(c.afters["G1"], c), quantiles(timings["G1"])),
        ("G2 2 turns, then G", lambda c: option_table(c.afters["G2"], c), quantiles(timings["G2"])),
        (
            f"H1 lambda={lam_h:.3f} R + rest G, 1 turn",
            lambda c: option_table(c.afters["H1"], c),
            quantiles(timings["H1"]),
        ),
        (
            "H1 lambda by stage (" + ",".join(f"{lam_h_stage[f]:.3f}" for f in STAGES) + ")",
            lambda c: option_table(c.afters["H1s"], c),
            quantiles(timings["H1"]),
        ),
        (
            f"H2 lambda={lam_h2:.3f} B* + rest G2",
            lambda c: blend_table(c, "B*", "G2", lam_h2),
            f"{1e3 * statistics.median(np.add(timings['G2'], timings['H1'][::2])):6.1f}",
        ),
    ]
    print(
        f"\n== o= win + draw/2 against exact, test half ({len(test)} positions, "
        f"{sum(len(c.exact['o']) for c in test)} options); points"
    )
    print(
        f"  {'candidate':44} {'mean|e|':>7} {'max|e|':>7} {'signed':>7} {'best!=':>7} {'lost':>6} {'worst':>6}"
        f"  ms med / p90"
    )
    for label, function, timing in rows:
        f = figures(test, function)
        print(
            f"  {label:44} {f.mean_abs:7.3f} {f.max_abs:7.3f} {f.signed:+7.3f} {f.wrong:>3}/{f.positions:<3} "
            f"{f.mean_lost:6.3f} {f.worst_lost:6.3f}  {timing}"
        )
    for label, first, second, weight in (("C", "B", "A", lam), ("H1", "B*", "G1", lam_h)):
        f = figures(calibration, lambda c, a=first, b=second, w=weight: blend_table(c, a, b, w))
        print(
            f"  (calibration half, {label} fitted: mean |e| {f.mean_abs:.3f}, max {f.max_abs:.3f}, "
            f"signed {f.signed:+.3f})"
        )
    shipped_blend = getattr(goal, "BLEND", BLEND)
    for label, first, second in (
        (f"H1 (chance_after) vs {lam_h:.3f}*B* + rest G1", lambda c: option_table(c.afters["H1"], c), lam_h),
        (f"shipped, shift off, vs {shipped_blend:.3f}*B* + rest G1", lambda c: c.estimates["blend"], shipped_blend),
    ):
        check = max(abs(first(c)[k] - blend_table(c, "B*", "G1", second)[k]) for c in cases for k in c.exact["o"])
        print(f"  (check: {label}, max |diff| {100 * check:.1e} points)")
    worst = max(c.exact["G error"] for c in cases)
    print(f"  (check: law chunks vs the exact laws, states one and two turns on and the opponent's: max {worst:.1e})")

    print("\n== mean |error| (max) by my free categories and by variant, test half; points")
    main_rows = [rows[i] for i in (0, 1, 2, 7, 12, 18, 19, 20, 21, 22, 23)]
    groups = [(f"{s} free", lambda c, s=s: c.free == s) for s in STAGES]
    groups += [(name, lambda c, n=name: c.variant.name == n) for name in VARIANTS]
    print(f"  {'candidate':44} " + "".join(f"{g:>16}" for g, _ in groups))
    for label, function, _ in main_rows:
        parts = []
        for _, belongs in groups:
            group = [c for c in test if belongs(c)]
            f = figures(group, function) if group else None
            parts.append(f"{f.mean_abs:7.3f} ({f.max_abs:5.2f})" if f else "-")
        print(f"  {label:44} " + " ".join(f"{p:>15}" for p in parts))
    print(f"\n  total run {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
