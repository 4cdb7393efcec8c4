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

Twelve turns take at most 12 × 28 + 11 = 347 characters.

The opponent (optional): ``o`` is their sheet when the record starts
(twelve fields as ``s``; absent: empty) and ``oh`` their turns since then,
each the category's letter and the points it scored, with nothing between
turns (no category scores 100, so at most three characters a turn, 36 for
twelve):

    o=<their sheet at the start>&oh=<letter><points><letter><points>…
    h=14466-4466-24466g.12356-6-16663-666-66634f&oh=c9e20

Either parameter makes a record with an opponent (canonically ``oh`` is
always written then, ``o`` only when a field is filled). Players alternate
and the record starts at my turn, so who sat first follows from the
sheets at the start, as in ``position``: the opponent has filled as many
categories as I have (I sit first) or one more (I sit second; with my sheet
full, 11 or 12). From there whose turn it is follows from the counts: the
opponent's i-th recorded turn comes after my i-th, and must be in the
record before my next turn starts; it may be missing only after my last
turn. Points are checked against what the category can score (the
opponent's dice are not recorded).

A score to reach (optional): ``t``, as in ``position`` (0–999; not with an
opponent): every position of the record plays for P(final ≥ t), so advice
along the game and the review give the chance of reaching it.

    t=<score>&h=…

A practice game (optional): ``p``, a seed (``practice_dice``): the record starts from an empty
sheet at roll 1 (and the opponent's, if any, empty too, with me in the first seat; no ``t``), and
the dice of every roll are the seed's: the dice kept and the first faces of that roll (compared
as multisets; the order shown is free). The opponent's turns are those of the simulated opponent
(``practice.check_opponent``, which needs the table; not checked here).

    v=<variant>&p=<seed>&h=…&oh=…

Every bad record raises ``GameError`` naming the turn and what is wrong.
"""

from dataclasses import replace
from typing import Final

from ..core.categories import N_CATEGORIES, NAMES_EN
from ..core.dice import N_DICE, roll_index
from ..core.position import PARAMETERS as POSITION_PARAMETERS
from ..core.position import (
    Position,
    PositionError,
    check_turn_order,
    format_sheet,
    parse_sheet,
    parse_target,
    ranges,
    split_query,
)
from ..core.rules import DEFAULT_VARIANT, VARIANTS, Variant, possible_scores, score_table
from .practice_dice import ME, SeedError, faces, format_seed, parse_seed
from .record import Game, GameError, Step, Turn

__all__ = ["Game", "GameError", "Step", "Turn"]  # the record's types, read and written here

CATEGORY_LETTERS: Final = "abcdefghijkl"
MAX_ROLLS: Final = 3
DIGITS: Final = "0123456789"
OPPONENT_PARAMETERS: Final = ("o", "oh")
"""The opponent's sheet at the start and their turns (see the module docstring)."""


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


def parse_turns(text: str, read: list[Turn] | None = None) -> list[Turn]:
    """The turns of an ``h`` value (structure only; ``replay`` checks the rules). ``read``: a
    list that gets each turn as it is read (those before a fault, when it raises)."""
    turns: list[Turn] = [] if read is None else read
    for i, part in enumerate(text.split(".") if text else []):
        turns.append(_parse_turn(part, f"turn {i + 1} of the record"))
    return turns


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


def parse_opponent_turns(
    text: str, variant: Variant, filled: int = 0, read: list[tuple[int, int]] | None = None
) -> list[tuple[int, int]]:
    """The (category, points) turns of an ``oh`` value, each checked against what the
    category can score under ``variant``; ``filled``: categories the opponent had filled
    at the start (their turns are numbered from there). ``replay`` checks the order.
    ``read``: a list that gets each turn as it is read (those before a fault, when it raises)."""
    turns: list[tuple[int, int]] = [] if read is None else read
    start = 0
    while start < len(text):
        end = start + 1
        while end < len(text) and text[end] in DIGITS:
            end += 1
        entry = text[start:end]
        where = f"the opponent's turn {filled + len(turns) + 1}"
        letter, points = entry[0], entry[1:]
        if letter in DIGITS:
            raise GameError("oh", f"{where}: {entry!r} lacks its category: write its letter, then the points (g22)")
        if letter not in CATEGORY_LETTERS:
            raise GameError("oh", f"{where}: {letter!r} is not a category (a = Aces … l = Yacht)")
        category = CATEGORY_LETTERS.index(letter)
        if not points:
            raise GameError("oh", f"{where}: {entry!r} lacks the points {NAMES_EN[category]} scored (e.g. {letter}0)")
        allowed = possible_scores(variant)[category]
        if len(points) > 3 or int(points) not in allowed:
            raise GameError(
                "oh",
                f"{where}: {NAMES_EN[category]} cannot score {points} under {variant.name} rules "
                f"(possible: {ranges(allowed)})",
            )
        turns.append((category, int(points)))
        start = end
    return turns


def format_opponent_turns(turns: tuple[tuple[int, int], ...] | list[tuple[int, int]]) -> str:
    """The canonical ``oh`` value."""
    return "".join(f"{CATEGORY_LETTERS[c]}{points}" for c, points in turns)


def parse_game(query: str) -> Game:
    """Read a game from its query string (``s``, ``r``, ``v``, ``h``; ``o`` and ``oh``
    with an opponent, or ``t``) and check it is a legal game (see ``replay``). A record
    whose turns break (``h`` or ``oh``) raises with ``legal`` set: the longest legal game
    before the fault (``legal_start``), or ``None`` when not one turn is legal."""
    start, params = read_start(query)
    try:
        game = replace(start, turns=tuple(parse_turns(params["h"])), opponent_turns=tuple(_their_turns(start, params)))
        replay(game)
    except GameError as e:
        from .legal_start import legal_start  # it reads records with this module

        if e.field in ("h", "oh"):
            e.legal = legal_start(start, params, e.field)
        raise
    return game


def read_start(query: str) -> tuple[Game, dict[str, str]]:
    """A record's start (every field but its turns, which are empty) and the query's
    parameters; raises ``GameError`` for a start that cannot be read."""
    try:
        params = split_query(query.strip(), (*POSITION_PARAMETERS, "h", *OPPONENT_PARAMETERS, "t", "p"))
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
    first_roll = params.get("r", "1")
    opponent = None
    try:
        sheet = parse_sheet(params["s"], variant) if "s" in params else (None,) * N_CATEGORIES
        if first_roll not in ("1", "2", "3"):
            raise GameError("r", f"{first_roll!r} is not the roll of the record's first dice (1, 2 or 3)")
        if "o" in params or "oh" in params:
            opponent = parse_sheet(params["o"], variant, "o") if "o" in params else (None,) * N_CATEGORIES
            check_turn_order(sheet, opponent, " where the record starts")
        target = None
        if "t" in params:
            if opponent is not None:
                raise GameError("t", "give either the opponent's record (o=, oh=) or t= (a score to reach), not both")
            target = parse_target(params["t"])
    except GameError:
        raise
    except PositionError as e:
        raise GameError(e.field, e.reason) from None
    practice = _parse_practice(params)
    return Game(sheet, (), variant, int(first_roll), opponent, (), target, practice), params


def _their_turns(start: Game, params: dict[str, str]) -> list[tuple[int, int]]:
    """The opponent's turns of a record whose start is ``start`` (none without an opponent)."""
    if start.opponent is None:
        return []
    filled = sum(v is not None for v in start.opponent)
    return parse_opponent_turns(params.get("oh", ""), start.variant, filled)


def _parse_practice(params: dict[str, str]) -> int | None:
    """The seed of a practice record (``p``), checking what a practice game starts from."""
    if "p" not in params:
        return None
    try:
        seed = parse_seed(params["p"])
    except SeedError as e:
        raise GameError("p", str(e)) from None
    for name, what in (("s", "your sheet"), ("o", "the opponent's sheet")):
        if name in params and params[name].strip(","):
            raise GameError(name, f"a practice game (p=) starts from an empty sheet: {what} is not empty")
    if params.get("r", "1") != "1":
        raise GameError("r", "a practice game (p=) starts at roll 1")
    if "t" in params:
        raise GameError("t", "a practice game (p=) has no score to reach")
    return seed


def format_game(game: Game) -> str:
    """The canonical query string of a game."""
    parts = []
    if any(v is not None for v in game.sheet):
        parts.append("s=" + format_sheet(game.sheet))
    if game.first_roll != 1:
        parts.append(f"r={game.first_roll}")
    if game.variant != DEFAULT_VARIANT:
        parts.append(f"v={game.variant.name}")
    if game.practice is not None:
        parts.append(f"p={format_seed(game.practice)}")
    if game.opponent is not None and any(v is not None for v in game.opponent):
        parts.append("o=" + format_sheet(game.opponent))
    if game.target is not None:
        parts.append(f"t={game.target}")
    parts.append("h=" + format_turns(game.turns))
    if game.opponent is not None:
        parts.append("oh=" + format_opponent_turns(game.opponent_turns))
    return "&".join(parts)


def replay(game: Game) -> tuple[list[Step], Position]:
    """Every choice of the game in order, and the position it ends in. With an
    opponent, each position carries their sheet at that moment (``opponent``),
    the end position too, even when their turn is next; with a score to reach,
    each carries it (``target``).

    Raises ``GameError`` for a keep not in the dice, dice that lack the kept
    ones, a category already filled, a turn after the sheet is full, or a
    turn left unfinished before another; with an opponent, for an opponent's
    turn missing before my next turn, one the record has no place for, or a
    category of theirs already filled.
    """
    sheet = list(game.sheet)
    scores = score_table(game.variant)
    steps: list[Step] = []
    rival = _Rival(game)
    position = Position(tuple(sheet), None, 0, game.variant, rival.sheet, game.target)
    for i, turn in enumerate(game.turns):
        number = _turn_number(game.sheet, i)
        where = f"turn {number}"
        if all(v is not None for v in sheet):
            raise GameError("h", f"{where}: the sheet is full, the game ended after turn {number - 1}")
        if i > 0:
            rival.play_before(number)
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
            at = Position(tuple(sheet), dice, roll, game.variant, rival.sheet, game.target)
            steps.append(Step(number, at, keep=keep, next_dice=next_dice))
            dice, roll = next_dice, roll + 1
        if game.practice is not None:
            _check_practice_dice(game.practice, number, turn)
        position = Position(tuple(sheet), dice, roll, game.variant, rival.sheet, game.target)
        if turn.category is not None:
            c = turn.category
            if sheet[c] is not None:
                raise GameError("h", f"{where}: {NAMES_EN[c]} is already filled")
            steps.append(Step(number, position, category=c))
            sheet[c] = int(scores[roll_index(dice), c])
            position = Position(tuple(sheet), None, 0, game.variant, rival.sheet, game.target)
    last = game.turns[-1] if game.turns else None
    rival.play_after(sum(v is not None for v in sheet), last is None or last.category is not None)
    return steps, position._replace(opponent=rival.sheet)


class _Rival:
    """The opponent's side of ``replay``: their sheet, and their recorded turns played in
    the order the record implies (their i-th after my i-th)."""

    def __init__(self, game: Game) -> None:
        self.sheet = game.opponent
        self.turns = list(game.opponent_turns)
        self.played = 0
        self.filled = 0 if game.opponent is None else sum(v is not None for v in game.opponent)
        self.seat = game.seat

    def _play(self) -> None:
        category, points = self.turns[self.played]
        assert self.sheet is not None
        where = f"the opponent's turn {self.filled + self.played + 1}"
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
            number = self.filled + self.played + 1
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
        theirs = self.filled + self.played
        if finished and theirs < mine + (0 if self.seat == 1 else 1):
            self._play()
        if self.played < len(self.turns):
            if all(v is not None for v in self.sheet):
                self._play()  # their sheet is full: the game is over
            number = self.filled + self.played + 1
            why = "which is not finished" if not finished else "which the record does not have"
            raise GameError("oh", f"the opponent's turn {number} comes after your turn {mine + 1}, {why}")


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


def _digits(dice: tuple[int, ...]) -> str:
    return "".join(map(str, dice)) or "(none)"
