"""The estimate a page without the chunks shows, against the chance it shows with every file.

    python bench/bench_estimate.py [--positions N] [--seed S]

N random positions per goal and variant (default 200: 800 in all), my sheet with 0–7 categories
filled (5–12 free: beyond the exact range, where the goal reads chunks), roll 1–3: with a rival
(o=, their sheet with as many categories filled or one more) or a target (t=, around the
expected final score: ± 25 points, one standard deviation). Each is answered by
``yacht.api.advise_query`` three times: with every file (the page's chance: R for a target, the
chunks' calibrated blend for a rival); BEFORE, without the chunks nor the quantiles file
(``Tables.set_unavailable`` of every file of those kinds: the spread table's normal law, ``goal.APPROXIMATION``); AFTER,
without the chunks (their curves rebuilt from the quantiles file, ``goal.ESTIMATED``). It checks
that each answer says the method it claims, then prints, per goal, variant and model, the error
of the position's chance (the best option's) in percentage points (mean |error|, mean signed,
worst) and how often the estimate's best option is one the full answer ranks first.
"""

import argparse
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from yacht.api import advise_query  # noqa: E402
from yacht.chances.goal import APPROXIMATION, ESTIMATED  # noqa: E402
from yacht.core.position import Position, format_query  # noqa: E402
from yacht.core.rules import VARIANTS, Variant, possible_scores  # noqa: E402
from yacht.loader import DEFAULT_TABLES, Tables, every_file  # noqa: E402

MODELS = {"before": (["reach", "law", "quantiles"], APPROXIMATION), "after": (["reach", "law"], ESTIMATED)}
"""Per model: the kinds its tables go without, and the ``"method"`` its answers must say."""


def random_sheet(rng: random.Random, variant: Variant, filled: int) -> tuple:
    sheet: list[int | None] = [None] * 12
    for c in rng.sample(range(12), filled):
        sheet[c] = rng.choice(possible_scores(variant)[c])
    return tuple(sheet)


def random_query(rng: random.Random, variant: Variant, goal: str, tables: Tables) -> str:
    """A random position with a rival (``goal`` "o") or a target ("t"), my sheet 5–12 free."""
    filled = rng.randint(0, 7)
    dice = tuple(rng.randint(1, 6) for _ in range(5))
    mine = Position(random_sheet(rng, variant, filled), dice, rng.randint(1, 3), variant)
    if goal == "o":
        return format_query(mine._replace(opponent=random_sheet(rng, variant, filled + rng.randint(0, 1))))
    expected = advise_query(format_query(mine), tables)["expected"]
    return format_query(mine._replace(target=max(0, int(expected + rng.gauss(0, 25)))))


def chance(answer: dict) -> float:
    return answer["win"] + answer["draw"] / 2 if "win" in answer else answer["reach"]


def firsts(answer: dict) -> set:
    """The options the answer ranks first, as (keep, category)."""
    return {(tuple(o.get("keep", ())), o.get("category")) for o in answer["options"] if o["rank"] == 1}


def measure(positions: int, seed: int) -> dict[tuple[str, str, str], tuple[list[float], int]]:
    """(goal, variant, model) → (the errors in pp, the positions whose best option by the model
    is a best of the full answer)."""
    full = Tables(DEFAULT_TABLES)
    tables = {model: Tables(DEFAULT_TABLES) for model in MODELS}
    for model, (without, _) in MODELS.items():
        for name in VARIANTS:
            tables[model].set_unavailable(name, every_file(*without))
    rng = random.Random(seed)
    results: dict[tuple[str, str, str], tuple[list[float], int]] = {}
    for variant in VARIANTS.values():
        for goal in ("o", "t"):
            errors: dict[str, list[float]] = {model: [] for model in MODELS}
            same = dict.fromkeys(MODELS, 0)
            for _ in range(positions):
                query = random_query(rng, variant, goal, full)
                exact = advise_query(query, full)
                for model, (_, method) in MODELS.items():
                    answer = advise_query(query, tables[model])
                    assert answer["exact"] is False and answer["method"].startswith(method), (query, answer["method"])
                    errors[model].append(100 * (chance(answer) - chance(exact)))
                    first = answer["options"][0]
                    same[model] += (tuple(first.get("keep", ())), first.get("category")) in firsts(exact)
            for model in MODELS:
                results[goal, variant.name, model] = (errors[model], same[model])
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=200, help="positions per goal and variant")
    parser.add_argument("--seed", type=int, default=43)
    args = parser.parse_args()
    results = measure(args.positions, args.seed)
    print(f"The estimate without chunks against the chance with every file, {args.positions} positions each:")
    print("| goal | variant | model | mean abs error (pp) | mean signed (pp) | worst (pp) | same best option |")
    print("|---|---|---|---:|---:|---:|---:|")
    for (goal, variant, model), (errors, same) in results.items():
        label = "o= win + draw/2" if goal == "o" else "t= reach"
        print(
            f"| {label} | {variant} | {model} | {statistics.fmean(map(abs, errors)):.2f} | "
            f"{statistics.fmean(errors):+.2f} | {max(errors, key=abs):+.2f} | {same} of {len(errors)} |"
        )


if __name__ == "__main__":
    main()
