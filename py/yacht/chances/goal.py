"""Advice with a goal: the chance of winning against an opponent's sheet
(``o=``), or of reaching a score (``t=``), for the position and every option,
and the final-score distribution under the goal's play.

``goal_advice(position, tilde, advice)`` adds to the advisor's JSON
(``Advice.to_json()``):

with o=  ``"win"`` = P(my final > theirs) and ``"draw"`` = P(equal), on the
         answer and on every option; options ranked by win + draw/2.
with t=  ``"reach"`` = P(my final ≥ t), on the answer and every option;
         options ranked by it.

The order is ``ranking.rank``'s on (the chance, the expected final score): chances within
``ranking.TIE`` are equal and the better expected final score comes first, then the simpler
option. Every option carries ``"rank"`` (in this order, shared by options tied on both),
``"average_rank"`` (its rank by the expected final score alone, the same rule; the answer's
``"average_order"`` lists the options' indices in that order: the page's "Average" view) and
``"chance_loss"`` (the best's chance minus its own, 0–1). ``"decided"`` (on the answer): every
option's chance is certain (each channel 0 or 1) and the same, so the goal cannot choose and
the order is the expected final score's ("the game is decided"); at roll 0, the position's own
chance is certain. ``"expected"`` and ``"loss"`` keep their meaning (the expected final score
under optimal-expected play after the option, and its loss against the best of them). Keeping
all five dice names the category best for the goal. The answer's values are the best option's
(roll 1–3) or the position's own (roll 0). ``"exact"``: true when every value is exact
(``winning.EXACT_FREE`` free categories of mine at most, and for o= the opponent's distribution
exact: ``outcome.EXACT_FREE`` at most); otherwise ``"method"`` names the approximation (see
``spread``; beyond the exact range with the chunks loaded: ``calibration``). The opponent's
law: ``opponent``.

``goal_distribution(position, tilde)``: with o= or t= and the goal exact (see ``"exact"``
above), the final-score distribution under the goal's play (its best option, as ``goal_advice``
ranks them, then the goal's choices at every later roll): ``"play": "goal"``; ``None`` where the
goal is not exact. (With t= beyond that, up to six free categories: ``reach_play``.)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import numpy as np

from ..core.categories import FULL_MASK, N_CATEGORIES
from ..core.dice import roll_index
from ..core.options import advise, sheet_state
from ..core.policy import successor
from ..core.position import Position, free_categories
from ..core.ranking import TIE, rank, simplicity
from ..core.rules import Variant, score_table
from ..core.steps import Steps, finish
from ..core.table_kinds import Unavailable
from .calibration import BLEND, CALIBRATED, calibrated_channels, calibration_shift
from .opponent import OPPONENT_EXACT_FREE, opponent_law, required_spread
from .outcome import Distribution, Turn, max_future
from .quantiles import ESTIMATED
from .reach_table import Chunk, Reach, chunk_of, chunks_for
from .winning import (
    EXACT_FREE,
    approximate_goal_after,
    option_values,
    reach_payoff,
    root_turns,
    solve_goal,
    solve_goal_after_steps,
    win_payoff,
)

BLENDED: Final = "blended"
"""``goal_after``'s second value where my future's chance blends the chunks (not exact, not the
normal law): the answer's method is then ``calibration.CALIBRATED``."""
REACH_SOLVED_FREE: Final = 5
"""The most free categories (mine) for which a score to reach (t=) is solved on request by the goal
DP when its chunks cannot be fetched: the answer is then exact, as with them. A time limit (docs/
benchmarks.md, "Without the chunks"): in Pyodide the solve takes up to about 0.2 s at five free
categories and 0.85 s at six; beyond, the chunks' curves rebuilt from the quantiles file stand in."""
APPROXIMATION: Final = "one exact turn, then a normal law of the future points (mean Ẽ, sd from the spread table)"
"""``"method"`` of an answer whose chance is approximate without chunks nor quantiles (the spread table's law)."""


def goal_turn(
    tilde: np.ndarray,
    spread: Callable[[], np.ndarray] | None,
    variant: Variant,
    mask: int,
    nu: int,
    sigma: int,
    payoff: np.ndarray,
    weights: np.ndarray,
    exact_free: int = EXACT_FREE,
    chunks: Reach | None = None,
) -> tuple[Turn, dict[int, np.ndarray], bool]:
    """The goal's root turn of my state (``goal_after``, then every roll and keep), and whether exact."""
    if mask == FULL_MASK:
        return (*solve_goal(tilde, variant, mask, nu, sigma, payoff, weights), True)
    after, exact = goal_after(tilde, spread, variant, mask, nu, sigma, payoff, weights, exact_free, chunks=chunks)
    return root_turns([after], weights), after, exact


def goal_after(
    tilde: np.ndarray,
    spread: Callable[[], np.ndarray] | None,
    variant: Variant,
    mask: int,
    nu: int,
    sigma: int,
    payoff: np.ndarray,
    weights: np.ndarray,
    exact_free: int = EXACT_FREE,
    laws: dict[tuple[int, int], np.ndarray] | None = None,
    chunks: Reach | None = None,
) -> tuple[dict[int, np.ndarray], bool]:
    """``goal_turn``'s channels after each free category (one free at least), and whether
    they are exact:

    - a score to reach (one channel) with ``chunks``: R of the next states, exact always;
      where its caller could not fetch them now, up to ``REACH_SOLVED_FREE`` free categories,
      the goal DP below in their place (exact too);
    - up to ``exact_free`` free categories: the goal DP (``winning.solve_goal_after_steps``), exact;
    - beyond, with ``chunks``: ``blended_after`` (one exact turn, then a blend of the
      advisor's exact law and the reach bound; "exact" is then ``BLENDED``, a true value's
      stand-in that says so);
    - where its caller could not fetch them now (``table_kinds.Unavailable``), their curves
      rebuilt from the quantiles file in their place (``Unavailable.stand_in``): a score to
      reach beyond the exact range as above, a win chance blended (``ESTIMATED``);
    - beyond, without either: the normal law (``winning.approximate_goal_after``; ``laws``: its memo).
    """
    masks = chunks_for(mask)
    free = N_CATEGORIES - bin(mask).count("1")
    in_range = free <= exact_free
    if chunks is not None and weights.size == 1:
        solved = in_range or free <= REACH_SOLVED_FREE
        found, how = _read(lambda: chunks({"reach": masks}), stand_in=not solved)
        if found is not None:
            after = threshold_after(found["reach"], variant, mask, nu, *_thresholds(payoff, sigma))
            return after, True if how is True else ESTIMATED
        in_range = solved
    if in_range:
        return finish(solve_goal_after_steps(variant, mask, nu, sigma, payoff, weights)), True
    if chunks is not None and weights.size == 2:
        found, how = _read(lambda: chunks({"law": masks, "reach": masks}))
        if found is not None:
            return blended_after(found, variant, mask, nu, sigma, payoff), BLENDED if how is True else ESTIMATED
    sd = required_spread(spread, "o" if weights.size == 2 else "t")
    return approximate_goal_after(tilde, sd, variant, mask, nu, sigma, payoff, laws), False


def _read(load: Callable[[], dict], stand_in: bool = True) -> tuple[dict | None, bool | str]:
    """``(load(), True)``; where its caller could not fetch them now (``table_kinds.Unavailable``:
    the loader has recorded so), ``(their stand-in, ESTIMATED)`` with ``stand_in`` (the curves
    rebuilt from the quantiles file), else ``(None, False)``."""
    try:
        return load(), True
    except Unavailable as error:
        found = error.stand_in_for() if stand_in else None
        return found, ESTIMATED if found is not None else False


def _thresholds(payoff: np.ndarray, sigma: int) -> tuple[np.ndarray, np.ndarray]:
    """A payoff (F, K) over my final score as thresholds: u_k(F) = Σ_j w[j, k]·1[F ≥ j], with
    w[j] = u(j) − u(j − 1); returned as (needs j − σ, w[j]) for the j where some w is not 0."""
    steps = np.diff(payoff, axis=0, prepend=0.0)
    rows = np.flatnonzero(np.any(steps != 0.0, axis=1))
    return rows - sigma, steps[rows]


def blended_after(
    chunks: dict[str, dict[int, Chunk]], variant: Variant, mask: int, nu: int, sigma: int, payoff: np.ndarray
) -> dict[int, np.ndarray]:
    """Per free category, the (252, K) channels of ``payoff`` after scoring it with each roll:
    (1 − ``BLEND``) × their value under the advisor's play from the next state (its exact law,
    the "law" chunks: a lower bound of what the goal's play gets) + ``BLEND`` × the same with
    each threshold played for itself (R, the "reach" chunks: an upper bound)."""
    needs, steps = _thresholds(payoff, sigma)
    law = threshold_after(chunks["law"], variant, mask, nu, needs, steps)
    bound = threshold_after(chunks["reach"], variant, mask, nu, needs, steps)
    return {c: (1.0 - BLEND) * law[c] + BLEND * bound[c] for c in law}


def chunks_needed(position: Position) -> dict[str, list[int]]:
    """The chunks a goal answer of ``position`` reads, by quantity (for a caller that loads
    them ahead: a review asks for all its positions' at once)."""
    mask = sheet_state(position.sheet)[0]
    if position.target is not None:
        return {"reach": chunks_for(mask)}
    wanted: dict[str, list[int]] = {"law": [], "reach": []}
    if position.opponent is not None and free_categories(position.opponent) > OPPONENT_EXACT_FREE:
        wanted["law"].append(sheet_state(position.opponent)[0])
    if free_categories(position.sheet) > EXACT_FREE:
        wanted["law"] += chunks_for(mask)
        wanted["reach"] += chunks_for(mask)
    return wanted


def chunks_ahead(position: Position, rival_next: bool = False) -> list[tuple[str, int]]:
    """The chunks the next decisions of ``position``'s game can read, (quantity, mask) pairs,
    soonest first: those of every position one category later (``chunks_needed`` of each), mine
    (each free category of my sheet filled) and, with a rival, theirs (each of theirs filled):
    mine first at my turn, theirs first when their turn comes next (``rival_next``). What a
    caller fetches ahead while the players think, so that the next decision waits on none."""
    if position.opponent is None and position.target is None:
        return []
    mine = [position._replace(sheet=_filled(position.sheet, c)) for c in _free(position.sheet)]
    theirs = []
    if position.opponent is not None:
        theirs = [position._replace(opponent=_filled(position.opponent, c)) for c in _free(position.opponent)]
    ahead: dict[tuple[str, int], None] = {}
    for later in (theirs + mine) if rival_next else (mine + theirs):
        for quantity, masks in chunks_needed(later).items():
            ahead.update(dict.fromkeys((quantity, mask) for mask in masks))
    return list(ahead)


def _free(sheet: tuple[int | None, ...]) -> list[int]:
    return [c for c, value in enumerate(sheet) if value is None]


def _filled(sheet: tuple[int | None, ...], category: int) -> tuple[int | None, ...]:
    """``sheet`` with ``category`` scored (0: only its mask matters to the chunks)."""
    return tuple(0 if c == category else value for c, value in enumerate(sheet))


@dataclass(frozen=True)
class GoalTurn:
    """The goal's values of this turn of a position's sheets, for every roll and keep:
    ``root`` and ``after`` as ``winning.solve_goal`` returns them, ``weights`` of the
    channels named ``names`` (("win", "draw") or ("reach",)), ``exact`` (else the
    approximation ``method``), ``shift``: the logit shift ``goal_advice`` applies to its win
    chances (``calibration_shift``), and the ``payoff`` (F, K) over my final score F they were
    solved for. The dice and the roll are not part of it."""

    root: Turn
    after: dict[int, np.ndarray]
    weights: np.ndarray
    names: tuple[str, ...]
    exact: bool
    payoff: np.ndarray
    method: str | None = None
    shift: float = 0.0


def _goal_payoff(
    position: Position, tilde: np.ndarray, spread: Callable[[], np.ndarray] | None, reach: Reach | None = None
) -> tuple[np.ndarray, np.ndarray, tuple[str, ...], bool]:
    """The goal's payoff (F, K) over my final score F = 0 … σ + the most still to come, its
    channel weights and names, and whether the opponent's law behind it is exact (True for t=)."""
    mask, nu, sigma = sheet_state(position.sheet)
    size = sigma + max_future(position.variant, mask, nu) + 1
    if position.opponent is not None:
        opponent, exact = opponent_law(tilde, spread, position.variant, *sheet_state(position.opponent), chunks=reach)
        return (*win_payoff(opponent, size), ("win", "draw"), exact)
    assert position.target is not None
    return (*reach_payoff(position.target, size), ("reach",), True)


def threshold_after(
    chunks: dict[int, Chunk], variant: Variant, mask: int, nu: int, needs: np.ndarray, weights: np.ndarray
) -> dict[int, np.ndarray]:
    """Per free category of (mask, ν), the (252, K) channels Σ_j weights[j] · R(s', needs[j] − gain)
    after scoring it with each roll: ``needs`` (T,) points still to score, ``weights`` (T, K).
    A channel that is a payoff Σ_j w_j · 1[X ≥ need_j] with w ≥ 0 gets its largest value
    when each threshold is played for itself: an upper bound of the channel under one play."""
    scores = score_table(variant)
    after = {}
    for c in range(N_CATEGORIES):
        if not mask >> c & 1:
            _, nus, gain = successor(scores, np.array([mask]), np.array([nu]), np.full((1, 1), c))
            # Few rolls differ in (ν', gain) (a face's count, a category's distinct scores): each
            # distinct pair is looked up once, then spread over the rolls that share it.
            pairs, row = np.unique(nus[:, 0] * 1024 + gain[:, 0], return_inverse=True)
            chances = chunk_of(chunks, mask | 1 << c).at(pairs[:, None] >> 10, needs[None, :] - (pairs[:, None] & 1023))
            after[c] = (chances @ weights)[row.ravel()]
    return after


def solve_turn(
    position: Position,
    tilde: np.ndarray,
    spread: Callable[[], np.ndarray] | None = None,
    reach: Reach | None = None,
) -> GoalTurn:
    """The goal's turn of ``position``'s sheet against its ``opponent`` (or its ``target``).
    ``reach``: loads chunks (a ``t=`` answer is then exact from any sheet, and a win chance
    blends exact laws; see ``goal_after``)."""
    mask, nu, sigma = sheet_state(position.sheet)
    payoff, weights, names, exact = _goal_payoff(position, tilde, spread, reach)
    root, after, mine = goal_turn(tilde, spread, position.variant, mask, nu, sigma, payoff, weights, chunks=reach)
    if exact is True and mine is True:
        method = None
    elif exact is True and mine == BLENDED:
        method = CALIBRATED
    elif exact is not False and mine in (True, BLENDED, ESTIMATED):
        method = ESTIMATED  # the quantiles file's curves stand in for chunks on one side at least
    else:
        method = APPROXIMATION
    shift = 0.0
    if method in (CALIBRATED, ESTIMATED) and position.opponent is not None:
        shift = calibration_shift(free_categories(position.sheet), free_categories(position.opponent))
    return GoalTurn(root, after, weights, names, method is None, payoff, method, shift)


def goal_advice(
    position: Position,
    tilde: np.ndarray,
    advice: dict,
    spread: Callable[[], np.ndarray] | None = None,
    solved: GoalTurn | None = None,
    reach: Reach | None = None,
) -> dict:
    """``advice`` (the advisor's JSON of ``position``) with the goal's values added and
    the options re-ranked (see the module docstring). ``spread``: loads the sd table
    (``table.decode_spread``), called only outside the exact range. ``solved``: this
    turn's ``solve_turn`` of the position, when already computed. ``reach``: loads reach
    chunks (a ``t=`` answer is then exact from any sheet). Returns a new dict."""
    solved = solved or solve_turn(position, tilde, spread, reach)
    names = solved.names
    result = dict(advice)
    result["exact"] = solved.exact
    if not solved.exact:
        result["method"] = solved.method or APPROXIMATION
    roll = position.roll if not position.is_over else 0
    shifted = (lambda v: np.array(calibrated_channels(*v, solved.shift))) if solved.shift else (lambda v: v)
    values = [
        (keep, c, shifted(v))
        for keep, c, v in option_values(solved.root, solved.after, solved.weights, roll, position.dice)
    ]
    if position.roll == 0 or position.is_over:
        result.update(_channels(names, values[0][2]))
        result["decided"] = _certain(result, names)
        return result
    by_option = {("keep", keep) if keep is not None else ("category", c): (c, v) for keep, c, v in values}
    scored_now = _category_options(position, tilde)
    if position.roll < 3:  # stopping scores what roll 3 would rank first: ties on the chance go by the expected score
        by_option[("keep", tuple(sorted(position.dice)))] = _stop(solved, position, names, scored_now, shifted)
    options = []
    for option in advice["options"]:
        if "keep" in option:
            keep = tuple(option["keep"])
            category, channels = by_option[("keep", keep)]
            if len(keep) == 5:  # stopping: the category best for the goal
                loss = advice["expected"] - scored_now[category]["expected"]
                option = {**scored_now[category], "keep": list(keep), "loss": loss}
        else:
            _, channels = by_option[("category", option["category"])]
        options.append({**option, **_channels(names, channels)})
    simpler = [simplicity(o.get("keep"), o.get("category")) for o in options]
    average_order, average_ranks = rank([(o["expected"],) for o in options], simpler)
    for i, r in zip(average_order, average_ranks, strict=True):
        options[i]["average_rank"] = r
    order, ranks = rank([(_objective(o, names), o["expected"]) for o in options], simpler)
    best = _objective(options[order[0]], names)
    result["options"] = [
        {**options[i], "rank": r, "chance_loss": max(0.0, best - _objective(options[i], names))}
        for i, r in zip(order, ranks, strict=True)
    ]
    place = {i: k for k, i in enumerate(order)}
    result["average_order"] = [place[i] for i in average_order]
    result.update({name: result["options"][0][name] for name in names})
    result["decided"] = all(_certain(o, names) for o in result["options"]) and all(
        o["chance_loss"] <= TIE for o in result["options"]
    )
    return result


def _stop(
    solved: GoalTurn, position: Position, names: tuple[str, ...], scored_now: dict[int, dict], shifted: Callable
) -> tuple[int, np.ndarray]:
    """The category keeping all five dice at roll 1 or 2 scores, with its channels (``shifted``):
    the first of roll 3's order for these dice (the chance within ``TIE``, the expected score, then
    ``scored_now``'s order), not the DP's tie rule (the lowest category: ``winning.option_values``)."""
    rolled, categories = roll_index(position.dice), list(scored_now)
    channels = [shifted(solved.after[c][rolled]) for c in categories]
    values = [
        (_objective(_channels(names, channels[i]), names), scored_now[c]["expected"]) for i, c in enumerate(categories)
    ]
    first = rank(values, [0] * len(categories))[0][0]
    return categories[first], channels[first]


def _certain(values: dict, names: tuple[str, ...]) -> bool:
    """Whether every goal channel of ``values`` (an option or an answer) is 0 or 1 (within ``TIE``)."""
    return all(values[name] <= TIE or values[name] >= 1 - TIE for name in names)


def _objective(option: dict, names: tuple[str, ...]) -> float:
    return option["win"] + option["draw"] / 2 if names == ("win", "draw") else option["reach"]


def _channels(names: tuple[str, ...], values: np.ndarray) -> dict:
    return {name: min(1.0, max(0.0, float(v))) for name, v in zip(names, values, strict=True)}


def _category_options(position: Position, tilde: np.ndarray) -> dict[int, dict]:
    """Per free category: the advisor's roll-3 option for these dice (expected, category, points)."""
    advice = advise(Position(position.sheet, position.dice, 3, position.variant), tilde)
    return {o.category: {"expected": o.expected, "category": o.category, "points": o.points} for o in advice.options}


def goal_distribution(position: Position, tilde: np.ndarray) -> dict | None:
    """``goal_distribution_steps`` run to the end."""
    return finish(goal_distribution_steps(position, tilde))


def goal_distribution_steps(position: Position, tilde: np.ndarray) -> Steps[dict | None]:
    """The final-score distribution from ``position`` when playing for its goal (o= or t=), in
    steps (``core.steps``): ``average_distribution.distribution``'s fields with ``"play":
    "goal"``, exact; ``None`` unless the goal is exact here (at most ``EXACT_FREE`` free
    categories of mine, and of the opponent's ``OPPONENT_EXACT_FREE``) and the game goes on.

    One goal solve whose payoff carries, besides the goal's channels, one channel per final
    score (1 where F is that score) and the upper bonus, all of weight 0: every choice is the
    goal's, and those channels follow it (``winning.solve_goal_after_steps``). The option taken now
    is ``goal_advice``'s first, ranked on the goal's channels of that same solve."""
    if position.opponent is None and position.target is None:
        return None
    if position.is_over or free_categories(position.sheet) > EXACT_FREE:
        return None
    if position.opponent is not None and free_categories(position.opponent) > OPPONENT_EXACT_FREE:
        return None
    mask, nu, sigma = sheet_state(position.sheet)
    goal_payoff, goal_weights, names, _ = _goal_payoff(position, tilde, None)
    size, goal = goal_payoff.shape
    finals = np.eye(size)[:, sigma:]  # channel goal + p: F = sigma + p
    weights = np.concatenate([goal_weights, np.zeros(size - sigma + 1)])
    payoff = np.concatenate([goal_payoff, finals], axis=1)
    after = yield from solve_goal_after_steps(position.variant, mask, nu, sigma, payoff, weights, bonus=True)
    root = root_turns([after], weights)
    # The goal's own channels of the same solve: what goal_advice ranks the options by.
    solved = GoalTurn(
        Turn(root.rolls3[..., :goal], root.keeps2[..., :goal], root.keeps1[..., :goal], root.start[..., :goal]),
        {c: values[:, :goal] for c, values in after.items()},
        goal_weights,
        names,
        True,
        goal_payoff,
    )
    rolled = position.roll > 0 and position.dice is not None
    options = option_values(root, after, weights, position.roll if rolled else 0, position.dice)
    if rolled:
        best = goal_advice(position, tilde, advise(position, tilde).to_json(), solved=solved)["options"][0]
        if "keep" in best and len(best["keep"]) < len(position.dice):
            vector = next(v for k, _, v in options if k == tuple(best["keep"]))
        else:  # a category scored now, or all five dice kept: the category goal_advice names
            vector = after[best["category"]][roll_index(position.dice)]
    else:
        vector = options[0][2]
    final = Distribution(sigma, vector[goal:-1].copy(), float(vector[-1]))
    return {**final.to_json(), "expected": final.expected, "exact": True, "play": "goal"}
