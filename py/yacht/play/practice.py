"""Practice games: the simulated opponent and a game played one choice at a time.

A practice game is a game record with a seed (``game``: ``p=``); its dice are the seed's
(``practice_dice``). The advice stays hidden while the player chooses; each choice is graded as
``review`` grades it (``review.grade_last``) and the finished game by ``review.review``, so a
practice game's grades are those of ``python -m yacht review`` on its record.

The opponent (optional) plays the option of the highest expected final score (``options.first_by_value``:
exact ties in index order, fixed so that records replay) with its own dice from the same seed (player 2): its whole game
follows from the seed and the rules alone, whatever I choose, so ``opponent_game`` computes it
once. I sit first: their i-th turn comes after my i-th.
"""

from dataclasses import dataclass, replace
from typing import Final

import numpy as np

from ..core.categories import N_CATEGORIES, NAMES_EN
from ..core.dice import N_DICE, roll_index
from ..core.options import first_by_value
from ..core.position import Position
from ..core.rules import Variant, score_table
from .game import format_game
from .practice_dice import ME, OPPONENT, practice_roll
from .record import MAX_ROLLS, Game, GameError, Turn
from .replay import replay


@dataclass(frozen=True)
class OpponentTurn:
    """One turn of the simulated opponent: the dice after each roll, the dice kept before each
    reroll (ascending), the category scored and its points (without the bonus, as ``oh=`` has them)."""

    rolls: tuple[tuple[int, ...], ...]
    keeps: tuple[tuple[int, ...], ...]
    category: int
    points: int

    def to_json(self) -> dict:
        return {
            "rolls": [list(d) for d in self.rolls],
            "keeps": [list(k) for k in self.keeps],
            "category": self.category,
            "points": self.points,
        }


def kept_in_order(dice: tuple[int, ...], keep: tuple[int, ...]) -> tuple[int, ...]:
    """The dice of ``keep`` (a sub-multiset of ``dice``) in the order they are shown in ``dice``."""
    rest = list(keep)
    out = []
    for d in dice:
        if d in rest:
            rest.remove(d)
            out.append(d)
    return tuple(out)


_GAMES: dict[tuple[int, str, int], tuple[OpponentTurn, ...]] = {}
_GAMES_KEPT: Final = 64
"""Opponent games remembered (by table, variant and seed): a page asks for the same one often."""


def opponent_game(tilde: np.ndarray, variant: Variant, seed: int) -> tuple[OpponentTurn, ...]:
    """The simulated opponent's twelve turns for ``seed`` under ``variant`` (Ẽ: ``tilde``)."""
    key = (id(tilde), variant.name, seed)
    if key in _GAMES:
        return _GAMES[key]
    scores = score_table(variant)
    sheet: list[int | None] = [None] * N_CATEGORIES
    turns = []
    for number in range(1, N_CATEGORIES + 1):
        dice = practice_roll(seed, OPPONENT, number, 1)
        rolls, keeps = [dice], []
        for roll in range(1, MAX_ROLLS + 1):
            best = first_by_value(Position(tuple(sheet), dice, roll, variant), tilde)
            if best.keep is None or len(best.keep) == N_DICE:
                break
            kept = kept_in_order(dice, best.keep)
            dice = practice_roll(seed, OPPONENT, number, roll + 1, kept)
            rolls.append(dice)
            keeps.append(best.keep)
        assert best.category is not None
        points = int(scores[roll_index(dice), best.category])
        sheet[best.category] = points
        turns.append(OpponentTurn(tuple(rolls), tuple(keeps), best.category, points))
    if len(_GAMES) >= _GAMES_KEPT:
        _GAMES.clear()
    _GAMES[key] = tuple(turns)
    return _GAMES[key]


def check_opponent(game: Game, tilde: np.ndarray) -> None:
    """A practice record's opponent turns are the simulated opponent's, in order; raises
    ``GameError`` (field ``oh``) naming the first that is not."""
    if game.practice is None or game.opponent is None:
        return
    played = opponent_game(tilde, game.variant, game.practice)
    for i, (category, points) in enumerate(game.opponent_turns):
        turn = played[i]
        if (category, points) != (turn.category, turn.points):
            raise GameError(
                "oh",
                f"the opponent's turn {i + 1}: {NAMES_EN[category]} {points} is not what the practice's "
                f"opponent played ({NAMES_EN[turn.category]} {turn.points})",
            )


class Practice:
    """A practice game played one choice at a time (what the CLI drives): the record so far
    (``game``), where it stands (``position``: my sheet, dice and roll, and the opponent's sheet
    at my turn), and the two moves: ``keep`` (reroll the others) and ``score``. With an opponent,
    their turn is recorded as soon as mine is scored."""

    def __init__(self, tilde: np.ndarray, variant: Variant, seed: int, opponent: bool) -> None:
        self.tilde = tilde
        self.opponent = opponent_game(tilde, variant, seed) if opponent else None
        start = (None,) * N_CATEGORIES
        self.game = Game(variant=variant, opponent=start if opponent else None, practice=seed)
        self._roll_next()

    @property
    def position(self) -> Position:
        return replay(self.game)[1]

    @property
    def over(self) -> bool:
        return self.position.is_over

    @property
    def turn(self) -> int:
        """My turn number (1–12) now: the open turn's, or the next one's."""
        return sum(t.category is not None for t in self.game.turns) + 1

    def keep(self, keep: tuple[int, ...]) -> None:
        """Keep ``keep`` (dice values, a sub-multiset of the dice) and roll the others."""
        position = self.position
        if position.dice is None or position.roll >= MAX_ROLLS:
            raise ValueError("this turn has no roll left: score a category")
        ascending = tuple(sorted(keep))
        if len(ascending) == N_DICE:
            raise ValueError("keeping all five dice is not a reroll: score a category")
        kept = kept_in_order(position.dice, ascending)
        if len(kept) != len(ascending):
            raise ValueError(f"{''.join(map(str, ascending))} is not in the dice {''.join(map(str, position.dice))}")
        assert self.game.practice is not None
        dice = practice_roll(self.game.practice, ME, self.turn, position.roll + 1, kept)
        last = self.game.turns[-1]
        turn = Turn((*last.rolls, dice), (*last.keeps, ascending))
        self.game = replace(self.game, turns=(*self.game.turns[:-1], turn))

    def score(self, category: int) -> None:
        """Score ``category`` with the dice; the opponent then plays their turn, and my next
        turn's first roll follows."""
        if self.position.sheet[category] is not None:
            raise ValueError(f"{NAMES_EN[category]} is already filled")
        last = self.game.turns[-1]
        self.game = replace(self.game, turns=(*self.game.turns[:-1], replace(last, category=category)))
        if self.opponent is not None:
            theirs = self.opponent[len(self.game.opponent_turns)]
            self.game = replace(self.game, opponent_turns=(*self.game.opponent_turns, (theirs.category, theirs.points)))
        self._roll_next()

    def _open(self) -> bool:
        return bool(self.game.turns) and self.game.turns[-1].category is None

    def _roll_next(self) -> None:
        if self._open() or self.position.is_over:
            return
        assert self.game.practice is not None
        dice = practice_roll(self.game.practice, ME, self.turn, 1)
        self.game = replace(self.game, turns=(*self.game.turns, Turn((dice,))))

    @property
    def query(self) -> str:
        return format_game(self.game)
