"""Shared fixtures: float64 solves of both variants and the shipped tables; the CLI's review
of one record as text, checked against its JSON."""

import fcntl
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import settings
from yacht.core.rules import VARIANTS
from yacht.core.table import Table, decode, file_name

from build_table.solve import solve, solve_spread

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "public" / "tables"

settings.register_profile("default", deadline=None, max_examples=100)
settings.load_profile("default")

LONGEST_FIRST = [
    f"tests/{name}.py"
    for name in (
        "browser/test_page",
        "test_reach",
        "browser/test_engines",
        "browser/test_page_entry",
        "browser/test_coach",
        "browser/test_one_screen",
        "browser/test_warm_start",
        "browser/test_hardening",
        "browser/test_practice",
        "browser/test_saved",
        "browser/test_phone",
        "browser/test_play",
        "browser/test_offline",
        "browser/test_layout",
        "browser/test_rival_game",
        "browser/test_loading_failures",
        "browser/test_touch_history",
        "browser/test_runtime",
        "browser/test_goal",
        "test_coach",
        "browser/test_accessibility",
        "test_goal",
        "test_duel",
        "browser/test_coach_decisions",
    )
]
"""The modules that take longest (``pytest --durations``, summed per module), run first: with
``pytest -n 2 --dist loadscope --no-loadscope-reorder`` (``make test``) each worker takes the next
module as it finishes one, so the long ones do not start last and keep one worker busy alone. The
second is a Python module: the first worker's first browser test takes the run's snapshot
(``warm_snapshot``, a first visit) while the second one solves, instead of waiting for it."""


SLOWEST_FIRST = [
    f"tests/{name}.py"
    for name in (
        "test_reach",
        "browser/test_layout",
        "browser/test_core_order",
        "browser/test_engines_first_visits",
        "test_chunk_writer",
        "test_build_shared",
        "test_duel",
        "browser/test_rival_game",
        "browser/test_page",
        "browser/test_runtime",
        "browser/test_one_screen",
        "browser/test_coach_words",
    )
]
"""``LONGEST_FIRST`` of ``make test-slow`` (``-m slow``): its modules by the time of their slow
tests. The first is a Python module, for the same reason."""


ALL_FIRST = SLOWEST_FIRST + [module for module in LONGEST_FIRST if module not in SLOWEST_FIRST]
"""The order of a run of every test, slow or not (``make test SLOW=1``: CI): the modules with slow
tests hold the most time of all, then the others of ``LONGEST_FIRST``."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    marks = config.getoption("markexpr")
    order = SLOWEST_FIRST if marks == "slow" else LONGEST_FIRST if marks else ALL_FIRST
    rank = {module: i for i, module in enumerate(order)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))


def solved_once(folder: Path, name: str, solve_it: Callable[[], np.ndarray]) -> np.ndarray:
    """``solve_it()``, solved once per run: with pytest-xdist the first worker to ask saves it as
    ``folder/name.npy`` (float64, exact) under a lock and the others load it."""
    path = folder / f"{name}.npy"
    with open(folder / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            part = folder / f"{name}.part.npy"
            np.save(part, solve_it())
            part.replace(path)  # whole or not there, even if a run is stopped
    return np.load(path)


@pytest.fixture(scope="session")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run's temporary folder: with pytest-xdist the one its workers share (the parent of
    their own), else this process's own (its parent holds earlier runs' folders)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def solved(run_folder: Path) -> dict[str, np.ndarray]:
    """Ẽ of each variant from a float64 solve (in-process, no fork), once per run."""
    return {
        name: solved_once(run_folder, f"solved-{name}", lambda v=variant: solve(v, workers=1))
        for name, variant in VARIANTS.items()
    }


class _Spreads(dict[str, np.ndarray]):
    def __init__(self, solved: dict[str, np.ndarray], folder: Path) -> None:
        super().__init__()
        self.solved = solved
        self.folder = folder

    def __missing__(self, name: str) -> np.ndarray:
        spread = lambda: solve_spread(VARIANTS[name], self.solved[name], workers=1)  # noqa: E731
        self[name] = solved_once(self.folder, f"spread-{name}", spread)
        return self[name]


@pytest.fixture(scope="session")
def spreads(solved: dict[str, np.ndarray], run_folder: Path) -> dict[str, np.ndarray]:
    """σ[mask, ν] of each variant (``build_table.solve.solve_spread``, float64), solved the first
    time a test of the run asks for that variant."""
    return _Spreads(solved, run_folder)


@pytest.fixture(scope="session")
def shipped() -> dict[str, Table]:
    """The tables in public/tables (``make tables`` writes them; ``make test`` does it first)."""
    tables = {}
    for name in VARIANTS:
        path = TABLES / file_name(name)
        if not path.exists():
            pytest.fail(f"{path} is missing: run `make tables` (or `python -m build_table`) first")
        tables[name] = decode(path.read_bytes(), source=str(path), variant=name)
    return tables


def review_lines(query: str, tables) -> list[str]:
    """``python -m yacht review QUERY`` as text lines, after checking that ``--json`` prints
    ``yacht.api.review_query(query, tables)`` and both exit 0."""
    from yacht.api import review_query

    def review(*args: str) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "yacht", "review", *args, query]
        return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)

    as_json = review("--json")
    assert as_json.returncode == 0, as_json.stderr
    assert json.loads(as_json.stdout) == json.loads(json.dumps(review_query(query, tables)))
    text = review()
    assert text.returncode == 0, text.stderr
    return text.stdout.splitlines()


def goal_chance(option: dict) -> float:
    """What an answer or option with a goal is ranked by: win + draw/2, or reach."""
    return option["reach"] if "reach" in option else option["win"] + option["draw"] / 2


def chance_in_advice(option: dict, answer: dict, at_roll3: dict) -> float:
    """The goal chance of a review option in the advice of its position: a keep of fewer than
    five dice from the roll's advice (``answer``), a category (at roll 3 or stopping early)
    from roll 3's (``at_roll3``)."""
    if "keep" in option and len(option["keep"]) < 5:
        return goal_chance(next(o for o in answer["options"] if o.get("keep") == option["keep"]))
    return goal_chance(next(o for o in at_roll3["options"] if o["category"] == option["category"]))


def check_review_chances(result: dict, tables) -> None:
    """Each decision of a review with a goal (o= or t=) is graded as ``python -m yacht advise``
    ranks its position: the best option, the chances of the option chosen and of the
    best-average one, the loss in chance, whether the aims differ, and exactness."""
    from yacht.api import advise_query

    for d in result["decisions"]:
        w = d["winning"]
        answer = advise_query(d["query"], tables)
        at_roll3 = advise_query(d["query"].replace(f"r={d['roll']}", "r=3"), tables)
        best = answer["options"][0]
        fields = {"reach", "chance"} if "reach" in best else {"win", "draw", "chance"}
        assert answer["exact"] is w["exact"]
        assert w["best"] == {**best, "chance": pytest.approx(goal_chance(best), abs=1e-15)}
        assert set(w["chosen"]) == set(w["best_average"]) == fields
        assert w["chosen"]["chance"] == pytest.approx(chance_in_advice(d["chosen"], answer, at_roll3), abs=1e-12)
        assert w["best_average"]["chance"] == pytest.approx(chance_in_advice(d["best"], answer, at_roll3), abs=1e-12)
        assert w["loss"] == pytest.approx(max(0.0, goal_chance(best) - w["chosen"]["chance"]), abs=1e-6)
        assert w["aims_differ"] == (goal_chance(best) - w["best_average"]["chance"] > 1e-6)
