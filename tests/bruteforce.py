"""Slow, independent references for the exactness tests: plain recursion over
real sheets (values, not (mask, ν)), every throw of the dice enumerated one by
one, no shared operators. Scores come from ``rules.scores_of`` on one roll."""

from collections import Counter
from functools import cache
from itertools import product

import numpy as np
from yacht.core.categories import BONUS_POINTS, BONUS_THRESHOLD, N_UPPER
from yacht.core.rules import scores_of


@cache
def throws(n: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every multiset of ``n`` thrown dice with its probability, by enumerating the 6^n throws."""
    counts = Counter(tuple(sorted(t)) for t in product(range(1, 7), repeat=n))
    return tuple((dice, c / 6**n) for dice, c in counts.items())


def final_score(sheet: tuple[int | None, ...]) -> int:
    upper = sum(sheet[:N_UPPER])
    return sum(sheet) + (BONUS_POINTS if upper >= BONUS_THRESHOLD else 0)


@cache
def _points(dice: tuple[int, ...], category: int, yacht_is_full_house: bool) -> int:
    from yacht.core.rules import Variant

    counts = np.bincount(dice, minlength=7)[1:]
    return int(scores_of(counts, Variant("x", yacht_is_full_house))[0, category])


def score(sheet: tuple[int | None, ...], dice: tuple[int, ...], category: int, variant) -> tuple[int | None, ...]:
    new = list(sheet)
    new[category] = _points(tuple(sorted(dice)), category, variant.yacht_is_full_house)
    return tuple(new)


def sub_multisets(dice: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every distinct sub-multiset of the dice (ascending tuples)."""
    return sorted(
        {tuple(sorted(d for d, keep in zip(dice, bits, strict=True) if keep)) for bits in product((0, 1), repeat=5)}
    )


def expected_play_distribution(sheet, variant, tilde, roll=0, dice=None) -> dict[int, float]:
    """P(final score) following the advisor's first-ranked option at every decision."""
    from yacht.core.options import advise
    from yacht.core.position import Position

    @cache
    def at_turn(sheet, roll, dice) -> dict[int, float]:
        if roll == 0:
            if all(v is not None for v in sheet):
                return {final_score(sheet): 1.0}
            return mix((at_turn(sheet, 1, d), p) for d, p in throws(5))
        best = advise(Position(sheet, dice, roll, variant), tilde).options[0]
        if best.keep is None or len(best.keep) == 5:
            return at_turn(score(sheet, dice, best.category, variant), 0, None)
        return mix((at_turn(sheet, roll + 1, tuple(sorted(best.keep + t))), p) for t, p in throws(5 - len(best.keep)))

    return at_turn(tuple(sheet), roll, None if dice is None else tuple(sorted(dice)))


def mix(parts) -> dict[int, float]:
    out: dict[int, float] = {}
    for dist, p in parts:
        for k, v in dist.items():
            out[k] = out.get(k, 0.0) + p * v
    return out


def goal_value(sheet, variant, payoff, roll=0, dice=None) -> float:
    """max over every decision of E[payoff(final score)]: every keep and category tried."""
    free = [c for c, v in enumerate(sheet) if v is None]

    @cache
    def at_turn(sheet, roll, dice) -> float:
        if roll == 0:
            if all(v is not None for v in sheet):
                return payoff(final_score(sheet))
            return sum(p * at_turn(sheet, 1, d) for d, p in throws(5))
        best = max(at_turn(score(sheet, dice, c, variant), 0, None) for c in free if sheet[c] is None)
        if roll < 3:
            for keep in sub_multisets(dice):
                if len(keep) < 5:
                    value = sum(p * at_turn(sheet, roll + 1, tuple(sorted(keep + t))) for t, p in throws(5 - len(keep)))
                    best = max(best, value)
        return best

    return at_turn(tuple(sheet), roll, None if dice is None else tuple(sorted(dice)))


def coach_options(sheet, variant, tilde, roll, dice):
    """``option(keep=None, category=None)``: what one option of the position (``sheet``, ``roll``,
    ``dice``) plays for, by plain recursion following the advisor's first option at every later
    decision (``advise(...).options[0]``): (aims {category: (p, mean points, P(scratching it: ending
    there with 0 points))} of this turn,
    P(upper bonus by the end), {free category: its expected points by the end}). The option keeps
    ``keep`` (fewer than five dice: the rest are thrown) or scores ``category`` now. The options
    of one position share the recursion's memo."""
    from yacht.core.options import advise
    from yacht.core.position import Position

    def final(sheet) -> np.ndarray:
        return np.array([float(sum(sheet[:N_UPPER]) >= BONUS_THRESHOLD), *sheet], dtype=float)

    @cache
    def at_turn(sheet, roll, dice) -> np.ndarray:
        """(13,) [P(bonus), E[final points of each category]] from here, the advisor playing."""
        if roll == 0:
            if all(v is not None for v in sheet):
                return final(sheet)
            return sum(p * at_turn(sheet, 1, d) for d, p in throws(5))
        best = advise(Position(sheet, dice, roll, variant), tilde).options[0]
        if best.keep is None or len(best.keep) == 5:
            return at_turn(score(sheet, dice, best.category, variant), 0, None)
        return sum(p * at_turn(sheet, roll + 1, tuple(sorted(best.keep + t))) for t, p in throws(5 - len(best.keep)))

    @cache
    def aims(sheet, roll, dice) -> dict[int, tuple[float, float, float]]:
        """{category: (P(this turn ends in it), P · its points, P(it ends there with 0))} from here,
        the advisor playing."""
        best = advise(Position(sheet, dice, roll, variant), tilde).options[0]
        if best.keep is None or len(best.keep) == 5:
            points = float(score(sheet, dice, best.category, variant)[best.category])
            return {best.category: (1.0, points, float(points == 0))}
        return mix_aims((aims(sheet, roll + 1, tuple(sorted(best.keep + t))), p) for t, p in throws(5 - len(best.keep)))

    sheet, dice = tuple(sheet), tuple(sorted(dice))
    free = [c for c, v in enumerate(sheet) if v is None]

    def option(keep=None, category=None):
        if category is not None:
            after = score(sheet, dice, category, variant)
            points = float(after[category])
            turn, rest = {category: (1.0, points, float(points == 0))}, at_turn(after, 0, None)
        else:
            keep = tuple(sorted(keep))
            parts = [(tuple(sorted(keep + t)), p) for t, p in throws(5 - len(keep))]
            turn = mix_aims((aims(sheet, roll + 1, d), p) for d, p in parts)
            rest = sum(p * at_turn(sheet, roll + 1, d) for d, p in parts)
        return (
            {c: (p, weighted / p, scratch) for c, (p, weighted, scratch) in turn.items() if p > 0},
            float(rest[0]),
            {c: float(rest[1 + c]) for c in free},
        )

    return option


def mix_aims(parts) -> dict[int, tuple[float, ...]]:
    """The aims of a mix of positions (``parts``: (aims, probability)): each channel weighted."""
    out: dict[int, tuple[float, ...]] = {}
    for aims, p in parts:
        for c, values in aims.items():
            old = out.get(c, (0.0,) * len(values))
            out[c] = tuple(o + p * v for o, v in zip(old, values, strict=True))
    return out
