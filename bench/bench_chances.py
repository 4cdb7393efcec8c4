"""How close the chances of winning (o=) are to the exact ones beyond the exact range, and which
estimate to ship; a figure benchmark (not a timed test).

    python bench/bench_chances.py [--positions N] [--seed S] [--save FILE.pickle]
    python bench/bench_chances.py --load FILE.pickle

(``--save``: the positions with every value found and the timings, for study or for ``--load``,
which prints the figures again without solving, the shipped answers asked again: a change of
the shipped chance is measured in seconds.)

N positions (default 128) come from simulated games of the expected-score player
(``yacht.core.options.advise`` on real random dice): 5–8 free categories of mine, both variants, a
roll 1–3 with its dice and an opponent's sheet from another such game with as many free
categories or one fewer. Half of them
(seed S) calibrate the fitted constants, the other half (seed S + 1) is where every error
printed is measured (the test half), each half split evenly over variants and stages.

Printed:

1. The exact values and what they cost: for every option, win + draw/2 by the goal DP
   (``winning.solve_goal_after``, every free category) against the opponent's exact law
   (``opponent.opponent_law(..., exact_free=12)``), and for t= at the median and the 90th
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
   ``advise_query`` answers: the chance shown (``calibration.BLEND``'s blend with ``calibration.CALIBRATION``'s
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

What it measures is in two modules beside it: ``chances_positions.py`` (the positions, their
exact values and the exact solves' times) and ``chances_estimates.py`` (every candidate and the
shipped answers, timed); this one fits the blends' λ on the calibration half (the shipped
``calibration.BLEND`` is H1's) and prints the figures.
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from chances_estimates import LawChunks, blend, estimate, estimate_shipped, law_candidates  # noqa: E402
from chances_positions import STAGES, Case, ExactTimes, Key, option_table, sample_cases, solve_exact  # noqa: E402
from yacht.chances.calibration import BLEND as SHIPPED_BLEND  # noqa: E402
from yacht.chances.reach_table import chunks_for  # noqa: E402
from yacht.core.rules import VARIANTS  # noqa: E402
from yacht.loader import DEFAULT_TABLES, Tables  # noqa: E402

FIXED_LAMBDAS = (0.25, 0.5, 0.75)


LAMBDA_GRID = np.linspace(0.0, 1.0, 41)


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
    shipped_blend = SHIPPED_BLEND
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
