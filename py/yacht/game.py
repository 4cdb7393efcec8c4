"""A game record: every roll, keep and category since a starting position.

This is the page's ``h=`` URL parameter (with ``s=``, ``r=`` and ``v=``):

    s=<sheet at the start>&r=<roll of the first dice>&v=<variant>&h=<turns>

``s`` and ``v`` are as in ``position`` (absent: an empty sheet, official
rules). ``r`` (1–3, absent: 1) is the roll the record's first dice come from,
so a record can start mid-turn from a shared position; every later turn
starts at roll 1. ``d`` is not used with ``h`` (the dice are in the record).

``h`` lists the turns, separated by ``.``; a turn is

    <dice> [-<keep>-<dice>] [-<keep>-<dice>] [<category>]

``dice``: the five dice after a roll, digits 1–6 in the order shown.
``keep``: the dice kept for the next roll, 0–4 digits (a sub-multiset of the
dice before it; written in ascending order; empty to reroll all). The dice
after it must contain the kept ones. ``category``: the category scored, one
letter, ``a`` (Aces) … ``l`` (Yacht) in category order, ending the turn;
only the last turn may lack it (still in progress). A turn has at most three
rolls. Example, two turns (Choice 21, then Sixes 18 after two rerolls):

    h=14466-4466-24466g.12356-6-16663-666-66634f

Twelve turns take at most 12 × 28 + 11 = 347 characters. Every bad record
raises ``GameError`` naming the turn and what is wrong.
"""

from dataclasses import dataclass, field
from typing import Final

from .categories import N_CATEGORIES, NAMES_EN
from .dice import N_DICE, roll_index
from .position import PARAMETERS as POSITION_PARAMETERS
from .position import Position, PositionError, parse_sheet, split_query
from .rules import DEFAULT_VARIANT, VARIANTS, Variant, score_table

CATEGORY_LETTERS: Final = "abcdefghijkl"
MAX_ROLLS: Final = 3


class GameError(PositionError):
    """A record that cannot be read or replayed. ``field`` is the parameter at fault."""


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


@dataclass(frozen=True)
class Step:
    """A moment of a replayed game: the position when a choice was made,
    and the choice (a keep, or a category)."""

    turn: int  # 1–12, the game's turn number
    position: Position
    keep: tuple[int, ...] | None = None
    category: int | None = None
    next_dice: tuple[int, ...] | None = field(default=None)


def _turn_number(sheet: tuple[int | None, ...], index: int) -> int:
    return sum(v is not None for v in sheet) + index + 1


def _contains(dice: tuple[int, ...], part: tuple[int, ...]) -> bool:
    rest = list(dice)
    for d in part:
        if d not in rest:
            return False
        rest.remove(d)
    return True


def _parse_turn(part: str, where: str) -> Turn:
    body, letter = (part[:-1], part[-1]) if part[-1:].isalpha() else (part, "")
    if letter and letter not in CATEGORY_LETTERS:
        raise GameError("h", f"{where}: {letter!r} is not a category (a = Aces … l = Yacht)")
    pieces = body.split("-")
    for piece in pieces:
        if not set(piece) <= set("123456"):
            raise GameError("h", f"{where}: {piece!r}: dice are digits 1–6")
    if len(pieces) % 2 == 0:
        raise GameError("h", f"{where}: {part!r} ends with a keep: the dice rolled after it are missing")
    rolls, keeps = pieces[0::2], pieces[1::2]
    if len(rolls) > MAX_ROLLS:
        raise GameError("h", f"{where}: {len(rolls)} rolls; a turn has at most {MAX_ROLLS}")
    for dice in rolls:
        if len(dice) != N_DICE:
            raise GameError("h", f"{where}: {dice!r} is not five dice")
    for keep in keeps:
        if len(keep) > N_DICE:
            raise GameError("h", f"{where}: keep {keep!r} has {len(keep)} dice; a roll has {N_DICE}")
        if len(keep) == N_DICE:
            raise GameError("h", f"{where}: keeping all five dice is not a reroll; score a category instead")
    return Turn(
        rolls=tuple(tuple(int(c) for c in d) for d in rolls),
        keeps=tuple(tuple(sorted(int(c) for c in k)) for k in keeps),
        category=CATEGORY_LETTERS.index(letter) if letter else None,
    )


def parse_turns(text: str) -> list[Turn]:
    """The turns of an ``h`` value (structure only; ``replay`` checks the rules)."""
    if text == "":
        return []
    return [_parse_turn(part, f"turn {i + 1} of the record") for i, part in enumerate(text.split("."))]


def format_turns(turns: tuple[Turn, ...] | list[Turn]) -> str:
    """The canonical ``h`` value of turns."""
    out = []
    for turn in turns:
        pieces = ["".join(map(str, turn.rolls[0]))]
        for keep, dice in zip(turn.keeps, turn.rolls[1:], strict=True):
            pieces += ["".join(map(str, keep)), "".join(map(str, dice))]
        letter = "" if turn.category is None else CATEGORY_LETTERS[turn.category]
        out.append("-".join(pieces) + letter)
    return ".".join(out)


def parse_game(query: str) -> Game:
    """Read a game from its query string (``s``, ``r``, ``v``, ``h``) and check it
    is a legal game (see ``replay``)."""
    try:
        params = split_query(query.strip(), (*POSITION_PARAMETERS, "h"))
    except PositionError as e:
        raise GameError(e.field, e.reason) from None
    if "h" not in params:
        raise GameError("h", "missing: a game record is the h= parameter")
    if "d" in params:
        raise GameError("d", "not used with h= (the dice are in the record)")
    variant_name = params.get("v", DEFAULT_VARIANT.name)
    if variant_name not in VARIANTS:
        raise GameError("v", f"unknown rule variant {variant_name!r} (known: {', '.join(VARIANTS)})")
    variant = VARIANTS[variant_name]
    try:
        sheet = parse_sheet(params["s"], variant) if "s" in params else (None,) * N_CATEGORIES
    except PositionError as e:
        raise GameError(e.field, e.reason) from None
    first_roll = params.get("r", "1")
    if first_roll not in ("1", "2", "3"):
        raise GameError("r", f"{first_roll!r} is not the roll of the record's first dice (1, 2 or 3)")
    game = Game(sheet, tuple(parse_turns(params["h"])), variant, int(first_roll))
    replay(game)
    return game


def format_game(game: Game) -> str:
    """The canonical query string of a game."""
    parts = []
    if any(v is not None for v in game.sheet):
        parts.append("s=" + ",".join("" if v is None else str(v) for v in game.sheet))
    if game.first_roll != 1:
        parts.append(f"r={game.first_roll}")
    if game.variant != DEFAULT_VARIANT:
        parts.append(f"v={game.variant.name}")
    parts.append("h=" + format_turns(game.turns))
    return "&".join(parts)


def replay(game: Game) -> tuple[list[Step], Position]:
    """Every choice of the game in order, and the position it ends in.

    Raises ``GameError`` for a keep not in the dice, dice that lack the kept
    ones, a category already filled, a turn after the sheet is full, or a
    turn left unfinished before another.
    """
    sheet = list(game.sheet)
    scores = score_table(game.variant)
    steps: list[Step] = []
    position = Position(tuple(sheet), None, 0, game.variant)
    for i, turn in enumerate(game.turns):
        number = _turn_number(game.sheet, i)
        where = f"turn {number}"
        if all(v is not None for v in sheet):
            raise GameError("h", f"{where}: the sheet is full, the game ended after turn {number - 1}")
        if turn.category is None and i < len(game.turns) - 1:
            raise GameError("h", f"{where}: no category scored before the next turn")
        roll = game.first_roll if i == 0 else 1
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
            steps.append(Step(number, Position(tuple(sheet), dice, roll, game.variant), keep=keep, next_dice=next_dice))
            dice, roll = next_dice, roll + 1
        position = Position(tuple(sheet), dice, roll, game.variant)
        if turn.category is not None:
            c = turn.category
            if sheet[c] is not None:
                raise GameError("h", f"{where}: {NAMES_EN[c]} is already filled")
            steps.append(Step(number, position, category=c))
            sheet[c] = int(scores[roll_index(dice), c])
            position = Position(tuple(sheet), None, 0, game.variant)
    return steps, position


def _digits(dice: tuple[int, ...]) -> str:
    return "".join(map(str, dice)) or "(none)"
