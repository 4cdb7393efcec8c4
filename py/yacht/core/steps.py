"""Long computations in steps, so that an edge can answer other requests between them.

``Steps[T]`` is a generator that yields ``None`` after each step of its work and returns its
value (a ``T``) when done; a step is one level, turn or chunk of a solve (at most a few tenths of
a second in CPython). A caller that wants the value at once runs it to the end (``finish``); the
page's worker runs one step at a time (web/worker/worker.js ``answerInSteps``), so that the
advice of a new position waits for one step of a chart, never for the whole chart."""

from collections.abc import Generator
from typing import TypeVar

T = TypeVar("T")

Steps = Generator[None, None, T]
"""Work in steps: yields ``None`` after each step, returns its value."""


def finish(steps: Steps[T]) -> T:
    """Run ``steps`` to the end: its value."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value
