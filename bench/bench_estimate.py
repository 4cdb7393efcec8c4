"""The estimate a page without the chunks shows, against the chance it shows with every file.

    python bench/bench_estimate.py [--positions N] [--seed S]

N random positions per goal and variant (default 200: 800 in all), my sheet with 0–7 categories
filled (5–12 free: beyond the exact range, where the goal reads chunks), roll 1–3: with a rival
(o=, their sheet with as many categories filled or one more) or a target (t=, around the
expected final score: ± 25 points, one standard deviation). Each is answered by
``yacht.api.advise_query`` three times: with every file (the page's chance: R for a target, the
chunks' calibrated blend for a rival); BEFORE, as the page was without the chunks nor the
quantiles file (``Tables.set_unavailable`` of every file of those kinds: the spread table's normal
law, ``goal.APPROXIMATION``, and a target solved by the goal DP only in the exact range); AFTER,
as it is without the chunks (a target at up to ``goal.REACH_SOLVED_FREE`` free categories solved
exactly, beyond their curves rebuilt from the quantiles file, ``goal.ESTIMATED``). It checks that
each answer is exact where it should be and otherwise says the method it claims, then prints,
per goal, variant and model, the error of the position's chance (the best option's) in
percentage points (mean |error|, mean signed, worst), how many answers were exact, and how often
the model's best option is one the full answer ranks first.
"""

import argparse
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from yacht.api import advise_query  # noqa: E402
from yacht.chances import goal  # noqa: E402
from yacht.chances.goal import APPROXIMATION, ESTIMATED, REACH_SOLVED_FREE  # noqa: E402
from yacht.chances.winning import EXACT_FREE  # noqa: E402
from yacht.core.position import Position, format_query, free_categories, parse_query  # noqa: E402
from yacht.core.rules import VARIANTS, Variant, possible_scores  # noqa: E402
from yacht.loader import DEFAULT_TABLES, Tables, every_file  # noqa: E402

MODELS = {
    "before": (["reach", "law", "quantiles"], APPROXIMATION, EXACT_FREE),
    "after": (["reach", "law"], ESTIMATED, REACH_SOLVED_FREE),
}
"""Per model: the kinds its tables go without, the ``"method"`` its answers must say beyond the
free categories where a target is solved exactly, and that many (``goal.REACH_SOLVED_FREE``)."""


def random_sheet(rng: random.Random, variant: Variant, filled: int) -> tuple:
    sheet: list[int | None] = [None] * 12
    for c in rng.sample(range(12), filled):
        sheet[c] = rng.choice(possible_scores(variant)[c])
    return tuple(sheet)


def random_query(rng: random.Random, variant: Variant, kind: str, tables: Tables) -> str:
    """A random position with a rival (``kind`` "o") or a target ("t"), my sheet 5–12 free."""
    filled = rng.randint(0, 7)
    dice = tuple(rng.randint(1, 6) for _ in range(5))
    mine = Position(random_sheet(rng, variant, filled), dice, rng.randint(1, 3), variant)
    if kind == "o":
        return format_query(mine._replace(opponent=random_sheet(rng, variant, filled + rng.randint(0, 1))))
    expected = advise_query(format_query(mine), tables)["expected"]
    return format_query(mine._replace(target=max(0, int(expected + rng.gauss(0, 25)))))


def chance(answer: dict) -> float:
    return answer["win"] + answer["draw"] / 2 if "win" in answer else answer["reach"]


def firsts(answer: dict) -> set:
    """The options the answer ranks first, as (keep, category)."""
    return {(tuple(o.get("keep", ())), o.get("category")) for o in answer["options"] if o["rank"] == 1}


def answered(query: str, tables: Tables, solved_free: int) -> dict:
    """``advise_query`` with a target solved by the goal DP up to ``solved_free`` free categories
    when its chunks cannot be fetched (``goal.REACH_SOLVED_FREE`` for the time of the call)."""
    shipped = goal.REACH_SOLVED_FREE
    goal.REACH_SOLVED_FREE = solved_free
    try:
        return advise_query(query, tables)
    finally:
        goal.REACH_SOLVED_FREE = shipped


def measure(positions: int, seed: int) -> dict[tuple[str, str, str], tuple[list[float], int, int]]:
    """(goal, variant, model) → (the errors in pp, the positions whose best option by the model
    is a best of the full answer, the answers that were exact)."""
    full = Tables(DEFAULT_TABLES)
    tables = {model: Tables(DEFAULT_TABLES) for model in MODELS}
    for model, (without, _, _) in MODELS.items():
        for name in VARIANTS:
            tables[model].set_unavailable(name, every_file(*without))
    rng = random.Random(seed)
    results: dict[tuple[str, str, str], tuple[list[float], int, int]] = {}
    for variant in VARIANTS.values():
        for kind in ("o", "t"):
            errors: dict[str, list[float]] = {model: [] for model in MODELS}
            same = dict.fromkeys(MODELS, 0)
            solved = dict.fromkeys(MODELS, 0)
            for _ in range(positions):
                query = random_query(rng, variant, kind, full)
                exact = advise_query(query, full)
                free = free_categories(parse_query(query).sheet)
                for model, (_, method, solved_free) in MODELS.items():
                    answer = answered(query, tables[model], solved_free)
                    if kind == "t" and free <= solved_free:
                        assert answer["exact"] is True and "estimate" not in answer, (query, answer["method"])
                        solved[model] += 1
                    else:
                        said = answer["method"]
                        assert answer["exact"] is False and said.startswith(method), (query, said)
                    errors[model].append(100 * (chance(answer) - chance(exact)))
                    first = answer["options"][0]
                    same[model] += (tuple(first.get("keep", ())), first.get("category")) in firsts(exact)
            for model in MODELS:
                results[kind, variant.name, model] = (errors[model], same[model], solved[model])
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=200, help="positions per goal and variant")
    parser.add_argument("--seed", type=int, default=43)
    args = parser.parse_args()
    results = measure(args.positions, args.seed)
    print(f"The estimate without chunks against the chance with every file, {args.positions} positions each:")
    print("| goal | variant | model | mean abs error (pp) | mean signed (pp) | worst (pp) | exact | same best option |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for (kind, variant, model), (errors, same, solved) in results.items():
        label = "o= win + draw/2" if kind == "o" else "t= reach"
        print(
            f"| {label} | {variant} | {model} | {statistics.fmean(map(abs, errors)):.2f} | "
            f"{statistics.fmean(errors):+.2f} | {max(errors, key=abs):+.2f} | {solved} | {same} of {len(errors)} |"
        )


if __name__ == "__main__":
    main()
