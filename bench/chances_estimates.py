"""The candidate estimates of ``bench_chances.py``: every option's chance by each candidate
(A–H) and the shipped answers (``estimate_shipped``), each timed, kept on the ``Case``. See
``bench_chances.py`` for what each candidate is.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from chances_positions import WEIGHTS, After, Case, Key, option_table, payoff_of, timed  # noqa: E402
from yacht.api import advise_query  # noqa: E402
from yacht.chances.calibration import calibration_shift  # noqa: E402
from yacht.chances.calibration import shifted as shifted_logit  # noqa: E402
from yacht.chances.opponent import opponent_law  # noqa: E402
from yacht.chances.outcome import (  # noqa: E402
    Distribution,
    canonical_nu,
    max_future,
)
from yacht.chances.reach_table import Chunk, chunks_for  # noqa: E402
from yacht.chances.winning import (  # noqa: E402
    CHUNK_COLUMNS,
    approximate_goal_after,
    goal_plan,
    level_pairs,
    normal_points,
    root_after,
)
from yacht.core.categories import FULL_MASK, N_CATEGORIES  # noqa: E402
from yacht.core.policy import successor  # noqa: E402
from yacht.core.position import format_sheet  # noqa: E402
from yacht.core.rules import Variant, score_table  # noqa: E402
from yacht.loader import Tables  # noqa: E402


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
    return root_after(reach_values(tables, case.variant, plan.levels[1], plan.pairs[1], sigma, law), plan)


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
            level_pairs(
                values, last, plan.successors[1], first.rows[i : i + chunk], first.points[i : i + chunk], WEIGHTS
            )
            for i in range(0, len(first.rows), chunk)
        ]
    )
    return root_after(values, plan)


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


def estimate_shipped(tables: Tables, case: Case, timings: dict[str, list[float]]) -> None:
    """The shipped answers (o=, t= at the median and the 90th percentile), timed."""
    query = f"{case.query}&o={format_sheet(case.opponent)}"
    answer, seconds = timed(lambda: advise_query(query, tables))
    timings.setdefault("shipped", []).append(seconds)
    case.estimates["shipped"] = shipped_table(answer, "o")
    beta = calibration_shift(case.free, 12 - bin(case.opponent_state[0]).count("1"))
    case.estimates["blend"] = {
        k: float(shifted_logit(np.array(v), -beta)) for k, v in case.estimates["shipped"].items()
    }
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
