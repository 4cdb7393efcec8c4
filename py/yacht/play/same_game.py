"""When two game records are one game: the identity of a game kept on the device.

The page keeps each game once (``web/page/model/saved.js``): a reload, Back or Forward, a link opened
again or in a second tab continue the game kept, and copies of one game found on the device are
merged into the longest. Which records are one game is decided here:

- ``a`` is a *step* of ``b`` when both start alike (the sheet, the roll of the first dice, the
  rules, the opponent's sheet or none, the score to reach, the practice seed: everything but the
  turns) and ``a``'s turns are ``b``'s first ones, ``a``'s last turn possibly cut short (its first
  rolls and keeps, no category yet), and the opponent's turns of ``a`` are ``b``'s first ones.
  Every record is a step of itself.
- ``a`` and ``b`` are *the same game* when one is a step of the other. Two games that share a
  start and then differ (other dice, another keep or category, another score of the opponent)
  are two games: neither is a step of the other.

On canonical queries (``format_game``) this is a prefix rule per parameter: every parameter but
``h`` and ``oh`` equal, and ``h`` and ``oh`` of ``a`` each the beginning of ``b``'s, ending where
a roll, a category or an opponent's turn ends (the character after it in ``b``'s is no digit).
The page's ``isStepOf`` (``web/app/formats.js``) is that, held to ``is_step`` by the golden cases
(``tests/golden/format_cases.py``).
"""

from dataclasses import replace

from .game import Game


def is_step(a: Game, b: Game) -> bool:
    """Whether record ``a`` is ``b`` at one of its moments (see the module docstring)."""
    if replace(a, turns=(), opponent_turns=()) != replace(b, turns=(), opponent_turns=()):
        return False
    if len(a.turns) > len(b.turns) or a.opponent_turns != b.opponent_turns[: len(a.opponent_turns)]:
        return False
    if not a.turns:
        return True
    *done, last = a.turns
    if tuple(done) != b.turns[: len(done)]:
        return False
    theirs = b.turns[len(done)]
    cut = last.category is None and last.rolls == theirs.rolls[: len(last.rolls)]
    return last == theirs or (cut and last.keeps == theirs.keeps[: len(last.keeps)])


def same_game(a: Game, b: Game) -> bool:
    """Whether ``a`` and ``b`` are one game: either is a step of the other."""
    return is_step(a, b) or is_step(b, a)
