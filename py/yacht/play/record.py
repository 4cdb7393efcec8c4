"""A game record's types: its turns, the game, a replayed step, the error of a record that
cannot be read and where it stops being legal (the format: ``play.game``; the replay:
``play.replay``)."""

from dataclasses import dataclass, field
from typing import Final

from ..core.categories import N_CATEGORIES
from ..core.position import Position, PositionError
from ..core.rules import DEFAULT_VARIANT, Variant

MAX_ROLLS: Final = 3
"""The rolls of a turn, at most."""


@dataclass(frozen=True)
class Stop:
    """Where a record stops being legal (``GameError.stop``, set by ``replay``). ``turn``: the
    number in the game (1–13) of the turn at fault, mine or the opponent's as the error's
    ``field`` says ("h" or "oh"). ``mine``, ``theirs``: the longest legal game the record's turns
    make from its start is its first ``mine`` of my turns with its first ``theirs`` of the
    opponent's (the most of mine, then the most of theirs that fit them; 0 and 0: no turn)."""

    turn: int
    mine: int
    theirs: int


class GameError(PositionError):
    """A record that cannot be read or replayed. ``field`` is the parameter at fault;
    ``stop`` (set by ``replay``): where the record stops being legal, a ``Stop``; ``legal`` (set
    by ``parse_game``): what of the record is legal, a ``game.LegalStart``."""

    stop: Stop | None = None
    legal = None

    def to_json(self) -> dict:
        return {**super().to_json(), **({"legal": self.legal.to_json()} if self.legal else {})}


@dataclass(frozen=True)
class Turn:
    """One turn: ``rolls[i]`` the dice after the i-th recorded roll,
    ``keeps[i]`` (ascending) the dice kept before roll ``i + 1``, ``category``
    the one scored (``None`` while the turn goes on)."""

    rolls: tuple[tuple[int, ...], ...]
    keeps: tuple[tuple[int, ...], ...] = ()
    category: int | None = None


@dataclass(frozen=True)
class Game:
    """A record from a starting sheet. ``first_roll``: the roll (1–3) of the
    first turn's first dice."""

    sheet: tuple[int | None, ...] = (None,) * N_CATEGORIES
    turns: tuple[Turn, ...] = ()
    variant: Variant = DEFAULT_VARIANT
    first_roll: int = 1
    opponent: tuple[int | None, ...] | None = None
    """The opponent's sheet when the record starts; ``None``: no opponent recorded."""
    opponent_turns: tuple[tuple[int, int], ...] = ()
    """(category, points) of each of the opponent's turns since the start, in order."""
    target: int | None = None
    """A score to reach (``t``); ``None``: none. Never with an opponent."""
    practice: int | None = None
    """A practice game's seed (``p``); ``None``: not a practice game."""

    @property
    def seat(self) -> int | None:
        """1 when I sit first, 2 when second (the sheets at the start say which), ``None``
        without an opponent."""
        if self.opponent is None:
            return None
        mine = sum(v is not None for v in self.sheet)
        theirs = sum(v is not None for v in self.opponent)
        return 1 if theirs == mine or theirs < N_CATEGORIES == mine else 2


@dataclass(frozen=True)
class Step:
    """A moment of a replayed game: the position when a choice was made,
    and the choice (a keep, or a category)."""

    turn: int  # 1–12, the game's turn number
    position: Position
    keep: tuple[int, ...] | None = None
    category: int | None = None
    next_dice: tuple[int, ...] | None = field(default=None)
