"""Replaying a game record (``play.game``): every choice in order, the position it ends in, and,
for a record that breaks the rules, where it stops being legal (``GameError.stop``)."""

from contextlib import suppress
from copy import copy
from typing import NamedTuple

from ..core.categories import NAMES_EN
from ..core.dice import N_DICE, roll_index
from ..core.position import Position
from ..core.rules import score_table
from .practice_dice import ME, faces, format_seed
from .record import MAX_ROLLS, Game, GameError, Step, Stop, Turn


def replay(game: Game) -> tuple[list[Step], Position]:
    """Every choice of the game in order, and the position it ends in. With an
    opponent, each position carries their sheet at that moment (``opponent``),
    the end position too, even when their turn is next; with a score to reach,
    each carries it (``target``).

    Raises ``GameError`` for a keep not in the dice, dice that lack the kept
    ones, a category already filled, a turn after the sheet is full, or a
    turn left unfinished before another; with an opponent, for an opponent's
    turn missing before my next turn, one the record has no place for, or a
    category of theirs already filled. The error's ``stop`` (a ``Stop``) says
    where the record stops being legal: the turn at fault, and the longest
    legal game of the record's first turns, found in this one replay.
    """
    state = _Replay(game)
    try:
        for i, turn in enumerate(game.turns):
            state.play(i, turn)
        state.end()
    except GameError as e:
        e.stop = state.stop(e.field)
        raise
    return state.steps, state.position._replace(opponent=state.rival.sheet)


class _Cut(NamedTuple):
    """The record cut after my ``mine`` turns: the opponent then (a copy of the ``_Rival``), my
    sheet's ``filled`` categories, and whether my last turn there scored one (``finished``; True
    when there is none)."""

    mine: int
    rival: "_Rival"
    filled: int
    finished: bool


class _Replay:
    """A replay under way: my sheet, the steps so far, the opponent (``_Rival``), the position
    reached, the number of my turn being played, and ``cut``: the longest legal game met so far,
    the record cut after the last of my turns that a legal game may end with."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.sheet = list(game.sheet)
        self.scores = score_table(game.variant)
        self.steps: list[Step] = []
        self.rival = _Rival(game)
        self.number = _turn_number(game.sheet, 0)
        self.position = self._at(None, 0)
        self.cut = _Cut(0, copy(self.rival), _filled(self.sheet), True)

    def _at(self, dice: tuple[int, ...] | None, roll: int) -> Position:
        game = self.game
        return Position(tuple(self.sheet), dice, roll, game.variant, self.rival.sheet, game.target)

    def play(self, i: int, turn: Turn) -> None:
        """My turn ``i`` (0-based in the record), after the opponent's turn due before it."""
        game, sheet = self.game, self.sheet
        self.number = number = _turn_number(game.sheet, i)
        where = f"turn {number}"
        if all(v is not None for v in sheet):
            raise GameError("h", f"{where}: the sheet is full, the game ended after turn {number - 1}")
        if i > 0:
            self.rival.play_before(number)
        roll = game.first_roll if i == 0 else 1
        if turn.category is None and i < len(game.turns) - 1:
            with suppress(GameError):  # as the record's last turn it would be legal
                self._rolls(turn, roll, [])
                self.cut = _Cut(i + 1, copy(self.rival), _filled(sheet), False)
            raise GameError("h", f"{where}: no category scored before the next turn")
        dice, roll = self._rolls(turn, roll, self.steps)
        self.position = self._at(dice, roll)
        if turn.category is not None:
            c = turn.category
            if sheet[c] is not None:
                raise GameError("h", f"{where}: {NAMES_EN[c]} is already filled")
            self.steps.append(Step(number, self.position, category=c))
            sheet[c] = int(self.scores[roll_index(dice), c])
            self.position = self._at(None, 0)
        self.cut = _Cut(i + 1, copy(self.rival), _filled(sheet), turn.category is not None)

    def _rolls(self, turn: Turn, roll: int, steps: list[Step]) -> tuple[tuple[int, ...], int]:
        """Check the rolls and keeps of my current turn, its first dice from roll ``roll``, adding
        a step for each keep to ``steps``; the last dice and their roll."""
        where = f"turn {self.number}"
        if roll + len(turn.rolls) - 1 > MAX_ROLLS:
            raise GameError("h", f"{where}: more than {MAX_ROLLS} rolls")
        dice = turn.rolls[0]
        for keep, next_dice in zip(turn.keeps, turn.rolls[1:], strict=True):
            if not _contains(dice, keep):
                raise GameError("h", f"{where}, roll {roll}: keep {_digits(keep)} is not in the dice {_digits(dice)}")
            if not _contains(next_dice, keep):
                raise GameError(
                    "h", f"{where}, roll {roll + 1}: the dice {_digits(next_dice)} lack the kept {_digits(keep)}"
                )
            steps.append(Step(self.number, self._at(dice, roll), keep=keep, next_dice=next_dice))
            dice, roll = next_dice, roll + 1
        if self.game.practice is not None:
            _check_practice_dice(self.game.practice, self.number, turn)
        return dice, roll

    def end(self) -> None:
        """After my last recorded turn: the opponent's turns that follow it."""
        last = self.game.turns[-1] if self.game.turns else None
        self.rival.play_after(_filled(self.sheet), last is None or last.category is not None)

    def stop(self, field: str) -> Stop:
        """Where the record stops being legal, the error being in ``field`` ("h" or "oh"): the
        turn being played on that side, and the longest legal game, ``cut`` with the opponent's
        next turn when it may follow there."""
        mine, rival, filled, finished = self.cut
        theirs = rival.played + (1 if rival.may_end_with_next(filled, finished) else 0)
        return Stop(self.number if field == "h" else self.rival.next_turn, mine, theirs)


class _Rival:
    """The opponent's side of ``replay``: their sheet, and their recorded turns played in
    the order the record implies (their i-th after my i-th)."""

    def __init__(self, game: Game) -> None:
        self.sheet = game.opponent
        self.turns = list(game.opponent_turns)
        self.played = 0
        self.filled = 0 if game.opponent is None else _filled(game.opponent)
        self.seat = game.seat

    @property
    def next_turn(self) -> int:
        """The number in the game of their next turn to play."""
        return self.filled + self.played + 1

    def _play(self) -> None:
        category, points = self.turns[self.played]
        assert self.sheet is not None
        where = f"the opponent's turn {self.next_turn}"
        if all(v is not None for v in self.sheet):
            raise GameError("oh", f"{where}: their sheet is full, the game is over")
        if self.sheet[category] is not None:
            raise GameError("oh", f"{where}: {NAMES_EN[category]} is already filled")
        self.sheet = (*self.sheet[:category], points, *self.sheet[category + 1 :])
        self.played += 1

    def play_before(self, mine: int) -> None:
        """The opponent's turn due before my turn number ``mine`` (not my record's first)."""
        if self.sheet is None:
            return
        if self.played == len(self.turns):
            number = self.next_turn
            raise GameError(
                "oh", f"the opponent's turn {number} is missing: it comes before your turn {mine} (players alternate)"
            )
        self._play()

    def play_after(self, mine: int, finished: bool) -> None:
        """The opponent's turns after my last recorded one, when I have filled ``mine``
        categories (``finished``: my last recorded turn scored one, or none is recorded):
        at most one, and only when the counts make it theirs."""
        if self.sheet is None or self.played == len(self.turns):
            return
        if finished and self.filled + self.played < mine + (0 if self.seat == 1 else 1):
            self._play()
        if self.played < len(self.turns):
            if all(v is not None for v in self.sheet):
                self._play()  # their sheet is full: the game is over
            why = "which is not finished" if not finished else "which the record does not have"
            raise GameError("oh", f"the opponent's turn {self.next_turn} comes after your turn {mine + 1}, {why}")

    def may_end_with_next(self, mine: int, finished: bool) -> bool:
        """Whether a record cut here with their next recorded turn kept is legal: ``play_after``
        with that one turn left (``mine``, ``finished`` as there)."""
        if self.sheet is None or self.played == len(self.turns):
            return False
        trial = copy(self)
        trial.turns = self.turns[: self.played + 1]
        try:
            trial.play_after(mine, finished)
        except GameError:
            return False
        return True


def _check_practice_dice(seed: int, number: int, turn: Turn) -> None:
    """Each roll of my turn ``number`` holds the seed's dice: the kept ones and the first faces."""
    for roll, dice in enumerate(turn.rolls, start=1):
        kept = turn.keeps[roll - 2] if roll > 1 else ()
        thrown = faces(seed, ME, number, roll)[: N_DICE - len(kept)]
        if sorted(dice) != sorted((*kept, *thrown)):
            raise GameError(
                "h",
                f"turn {number}, roll {roll}: the dice {_digits(dice)} are not the practice's "
                f"(seed {format_seed(seed)}: {_digits(tuple(kept))} kept and {_digits(thrown)} thrown)",
            )


def _filled(sheet: list[int | None] | tuple[int | None, ...]) -> int:
    return sum(v is not None for v in sheet)


def _turn_number(sheet: tuple[int | None, ...], index: int) -> int:
    return _filled(sheet) + index + 1


def _contains(dice: tuple[int, ...], part: tuple[int, ...]) -> bool:
    rest = list(dice)
    for d in part:
        if d not in rest:
            return False
        rest.remove(d)
    return True


def _digits(dice: tuple[int, ...]) -> str:
    return "".join(map(str, dice)) or "(none)"
