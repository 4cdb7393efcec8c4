"""The page states the layout check runs over, generated from whole games: practice games (seeded
dice) played by a chooser (the advice's first option, or now and then a worse one), alone or
against the simulated rival. From each game: the game played along at several turns, finished
(its result) and reviewed; the practice game itself mid-way and its summary; positions of it
entered by hand, with the rival's sheet or a score to reach (and its histogram)."""

import re
from dataclasses import dataclass

from yacht.api import advise_query, game_query
from yacht.core.position import format_query
from yacht.core.rules import VARIANTS
from yacht.loader import Tables
from yacht.play.practice import Practice


@dataclass(frozen=True)
class State:
    """A page state: ``query`` (the URL's), ``review``: the review panel open, ``what``: its name."""

    what: str
    query: str
    review: bool = False


@dataclass(frozen=True)
class Run:
    """A practice game to play: its rules, seed, rival, and every how-many-th decision is not the
    best (0: none)."""

    variant: str
    seed: int
    rival: bool
    mistake_every: int


RUNS = (
    Run("official", 3, True, 0),
    Run("strict", 8, True, 3),
    Run("official", 5, False, 4),
    Run("official", 11, True, 2),
    Run("strict", 21, False, 0),
)

GAME_SAMPLES = 4
"""Game states sampled along each game (as played along, the dice of that moment)."""


def play(tables: Tables, run: Run) -> list[str]:
    """The practice game's record (p= query) after each decision, first to last."""
    practice = Practice(tables[run.variant].tilde, VARIANTS[run.variant], run.seed, run.rival)
    records = [practice.query]
    n = 0
    while not practice.over:
        options = advise_query(format_query(practice.position), tables)["options"]
        n += 1
        worse = run.mistake_every and n % run.mistake_every == 0
        option = options[min(1 + n % 3, len(options) - 1)] if worse else options[0]
        if "category" in option:
            practice.score(option["category"])
        else:
            practice.keep(tuple(option["keep"]))
        records.append(practice.query)
    return records


def played_along(query: str) -> str:
    """A practice record as a game played along: the same record without its seed."""
    return re.sub(r"(^|&)p=[^&]*", "", query).lstrip("&")


def states(tables: Tables) -> list[State]:
    """Every state of every run (see the module's docstring)."""
    out: list[State] = []
    for run in RUNS:
        name = f"{run.variant}-{run.seed}{'-rival' if run.rival else ''}"
        records = play(tables, run)
        last = len(records) - 1
        picks = sorted({round(i * last / GAME_SAMPLES) for i in range(GAME_SAMPLES)})
        for i in picks:
            out.append(State(f"{name} game at decision {i}", played_along(records[i])))
        out.append(State(f"{name} game over", played_along(records[-1])))
        out.append(State(f"{name} game over, reviewed", played_along(records[-1]), review=True))
        out.append(State(f"{name} practice at decision {picks[1]}", records[picks[1]]))
        out.append(State(f"{name} practice at decision {picks[2]}, reviewed", records[picks[2]], review=True))
        out.append(State(f"{name} practice over, reviewed", records[-1], review=True))
        at = game_query(played_along(records[picks[-1]]), tables)
        out.append(State(f"{name} position", at["position"]))
        alone = re.sub(r"&o=[^&]*", "", at["position"])
        target = int(at["advice"]["expected"]) + 10
        out.append(State(f"{name} position to reach {target}", f"{alone}&t={target}"))
    return out
