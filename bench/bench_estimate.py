"""The estimate a page without network shows, against the chance it shows with every file.

    python bench/bench_estimate.py [--positions N]

N random positions per variant (default 60: 120 in all) with a rival (o=, both sheets with 0–8
categories filled, in turn order) or a target (t=, 0–8 filled, a target around the expected
final score), roll 1–3, where the goal reads chunks (beyond the exact range): each answered by
``yacht.api.advise_query`` with every file (the page's chance: the chunks' blend) and without the
chunks (``Tables.set_unavailable(variant, every_file("reach", "law"))``: the spread table's normal law,
what the page shows with no network after one visit). Printed: the error of the position's chance
(the best option's) in percentage points, mean and worst, by goal; and how often the best option
by the estimate is one the full answer ranks first.
"""

import argparse
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from yacht.api import advise_query  # noqa: E402
from yacht.core.position import Position, format_query  # noqa: E402
from yacht.core.rules import VARIANTS, possible_scores  # noqa: E402
from yacht.loader import DEFAULT_TABLES, Tables, every_file  # noqa: E402


def random_sheet(rng: random.Random, variant, filled: int) -> tuple:
    sheet: list[int | None] = [None] * 12
    for c in rng.sample(range(12), filled):
        sheet[c] = rng.choice(possible_scores(variant)[c])
    return tuple(sheet)


def random_query(rng: random.Random, variant, tables: Tables) -> str:
    filled = rng.randint(0, 7)
    dice = tuple(rng.randint(1, 6) for _ in range(5))
    sheet = random_sheet(rng, variant, filled)
    mine = Position(sheet, dice, rng.randint(1, 3), variant)
    if rng.random() < 0.6:
        theirs = random_sheet(rng, variant, filled + rng.randint(0, 1))
        return format_query(mine._replace(opponent=theirs))
    expected = advise_query(format_query(mine), tables)["expected"]
    return format_query(mine._replace(target=max(0, int(expected + rng.gauss(0, 25)))))


def chance(answer: dict, option: dict | None = None) -> float:
    values = option or answer
    return values["win"] + values["draw"] / 2 if "win" in values else values["reach"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=60, help="positions per variant")
    args = parser.parse_args()
    full = Tables(DEFAULT_TABLES)
    without = Tables(DEFAULT_TABLES)
    for name in VARIANTS:
        without.set_unavailable(name, every_file("reach", "law"))
    rng = random.Random(43)
    errors: dict[str, list[float]] = {"o": [], "t": []}
    same_best = 0
    for variant in VARIANTS.values():
        done = 0
        while done < args.positions:
            query = random_query(rng, variant, full)
            estimate = advise_query(query, without)
            if "estimate" not in estimate:
                continue  # the exact range: nothing lacking is read
            exact = advise_query(query, full)
            errors["o" if "&o=" in query else "t"].append(100 * (chance(estimate) - chance(exact)))
            best = {(tuple(o.get("keep", ())), o.get("category")) for o in exact["options"] if o["rank"] == 1}
            first = estimate["options"][0]
            same_best += (tuple(first.get("keep", ())), first.get("category")) in best
            done += 1
    total = sum(len(e) for e in errors.values())
    print(f"The estimate without chunks against the chance with every file, {total} positions beyond the exact range:")
    for goal, label in (("o", "o= win + draw/2"), ("t", "t= reach")):
        e = errors[goal]
        if e:
            print(
                f"  {label:16} {len(e):4} positions: mean |error| {statistics.fmean(map(abs, e)):.2f} pp, "
                f"mean signed {statistics.fmean(e):+.2f} pp, worst {max(e, key=abs):+.2f} pp"
            )
    every = [x for e in errors.values() for x in e]
    mean, worst = statistics.fmean(map(abs, every)), max(map(abs, every))
    print(f"  all              mean |error| {mean:.2f} pp, worst {worst:.2f} pp")
    print(f"  the estimate's best option is a best of the full answer in {same_best} of {total} positions")


if __name__ == "__main__":
    main()
