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

Every bad record raises ``GameError`` naming the turn and what is wrong; one whose turns break
(``h`` or ``oh``) carries its legal start (``LegalStart``: the longest legal game of its first
turns), found in the one replay that checks it (``replay``: ``GameError.stop``).
"""

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from ..core.categories import N_CATEGORIES, NAMES_EN
from ..core.dice import N_DICE
from ..core.position import PARAMETERS as POSITION_PARAMETERS
from ..core.position import (
    PositionError,
    check_turn_order,
    format_sheet,
    parse_sheet,
    parse_target,
    ranges,
    split_query,
)
from ..core.rules import DEFAULT_VARIANT, VARIANTS, Variant, possible_scores
from .practice_dice import SeedError, format_seed, parse_seed
from .record import MAX_ROLLS, Game, GameError, Step, Turn
from .replay import replay

__all__ = ["MAX_ROLLS", "Game", "GameError", "Step", "Turn", "replay"]  # the record's types and its replay

CATEGORY_LETTERS: Final = "abcdefghijkl"
DIGITS: Final = "0123456789"
OPPONENT_PARAMETERS: Final = ("o", "oh")
"""The opponent's sheet at the start and their turns (see the module docstring)."""


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
    before the fault (``LegalStart``), or ``None`` when not one turn is legal. The record
    is replayed once: its turns before the first that cannot be read, or all of them."""
    start, params = read_start(query)
    mine: list[Turn] = []
    theirs: list[tuple[int, int]] = []
    readers: dict[str, Callable[[], object]] = {
        "h": lambda: parse_turns(params["h"], mine),
        "oh": lambda: _their_turns(start, params, theirs),
    }
    unread = {name: e for name, read in readers.items() if (e := _error_of(read)) is not None}
    game = replace(start, turns=tuple(mine), opponent_turns=tuple(theirs))
    try:
        replay(game)
    except GameError as e:
        assert e.stop is not None  # replay says where it stops
        fault, kept = next(iter(unread.values()), e), (e.stop.mine, e.stop.theirs)
    else:
        if not unread:
            return game
        fault, kept = next(iter(unread.values())), (len(mine), len(theirs))
    all_theirs = len(theirs) + (1 if "oh" in unread else 0)  # an unreadable turn: one more at least
    fault.legal = _legal_start(start, params, fault.field, mine[: kept[0]], theirs[: kept[1]], all_theirs)
    raise fault


def _error_of(read: Callable[[], object]) -> GameError | None:
    """The ``GameError`` that ``read()`` raises, or None."""
    try:
        read()
    except GameError as e:
        return e
    return None


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


def _their_turns(start: Game, params: dict[str, str], read: list[tuple[int, int]]) -> None:
    """Read into ``read`` the opponent's turns of a record whose start is ``start`` (none without
    an opponent); raises for one that cannot be read, those before it read."""
    if start.opponent is not None:
        parse_opponent_turns(params.get("oh", ""), start.variant, _filled(start.opponent), read)


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


@dataclass(frozen=True)
class LegalStart:
    """The legal part of a broken record: ``game`` (its turns, ``mine`` of mine and ``theirs`` of
    the opponent's, counted from the record's start) and the turn at fault: ``who`` ("me" or
    "opponent") and ``turn``, its number in the game (1–12, counting the sheets' filled
    categories at the start).

    A record whose turn cannot be read or breaks the rules is not thrown away whole: its legal
    start keeps the most of my turns, from the record's start, that replay legally with as many
    of the opponent's turns as fit them (the turns before an unreadable one only), as the one
    replay of ``parse_game`` finds them (``GameError.stop``)."""

    game: Game
    mine: int
    theirs: int
    who: str
    turn: int

    def to_json(self) -> dict:
        """``{"query": the legal game's canonical query, "turns", "opponent_turns",
        "through_turn": the number of my last turn kept (0: none), "dropped": {"who", "turn"}}``."""
        return {
            "query": format_game(self.game),
            "turns": self.mine,
            "opponent_turns": self.theirs,
            "through_turn": _filled(self.game.sheet) + self.mine if self.mine else 0,
            "dropped": {"who": self.who, "turn": self.turn},
        }


def _legal_start(
    start: Game, params: dict[str, str], fault: str, mine: list[Turn], theirs: list[tuple[int, int]], all_theirs: int
) -> LegalStart | None:
    """The legal start of the record ``params`` (its ``h`` and ``oh``) from ``start``
    (``read_start``), whose fault is in field ``fault`` ("h": my turn, "oh": the opponent's):
    its turns ``mine`` and ``theirs``, of the record's ``all_theirs`` of the opponent's; ``None``
    when not one turn of either is legal."""
    k, j = len(mine), len(theirs)
    if (k, j) == (0, 0):
        return None
    game = replace(start, turns=tuple(mine), opponent_turns=tuple(theirs))
    all_mine = len(params["h"].split(".")) if params["h"] else 0
    # the turn dropped first: the only side that lost turns, else the side at fault
    mine_lost, theirs_lost = k < all_mine, j < all_theirs
    if theirs_lost and (not mine_lost or fault == "oh"):
        return LegalStart(game, k, j, "opponent", _filled(start.opponent) + j + 1)
    return LegalStart(game, k, j, "me", _filled(start.sheet) + k + 1)


def _filled(sheet: tuple[int | None, ...] | None) -> int:
    return sum(v is not None for v in sheet or ())
