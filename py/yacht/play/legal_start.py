"""What of a broken game record is legal: the longest game its turns make before the fault.

A record (``play.game``) whose turn cannot be read or breaks the rules is not thrown away whole:
``legal_start`` keeps the most of my turns, from the record's start, that replay legally with as
many of the opponent's turns as fit them (the turns before an unreadable one only), and says whose
turn was at fault. It replays shorter records, longest first: at most 13 × 14 replays of at most
12 turns, a few milliseconds.
"""

from dataclasses import dataclass, replace

from .game import Game, GameError, format_game, parse_opponent_turns, parse_turns, replay
from .record import Turn


@dataclass(frozen=True)
class LegalStart:
    """The legal part of a broken record: ``game`` (its turns, ``mine`` of mine and ``theirs`` of
    the opponent's, counted from the record's start) and the turn at fault: ``who`` ("me" or
    "opponent") and ``turn``, its number in the game (1–12, counting the sheets' filled
    categories at the start)."""

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
            "through_turn": sum(v is not None for v in self.game.sheet) + self.mine if self.mine else 0,
            "dropped": {"who": self.who, "turn": self.turn},
        }


def legal_start(start: Game, params: dict[str, str], fault: str) -> LegalStart | None:
    """The longest legal game of the record ``params`` (its ``h`` and ``oh``) from ``start``
    (``game.read_start``), whose replay failed in field ``fault`` ("h": my turn, "oh": the
    opponent's); ``None`` when not one turn of either is legal."""
    mine: list[Turn] = []
    theirs: list[tuple[int, int]] = []
    all_mine = len(params["h"].split(".")) if params["h"] else 0
    try:
        parse_turns(params["h"], mine)
    except GameError:
        pass
    all_theirs = 0
    if start.opponent is not None:
        try:
            all_theirs = len(parse_opponent_turns(params.get("oh", ""), start.variant, _filled(start.opponent), theirs))
        except GameError:
            all_theirs = len(theirs) + 1
    for k in range(len(mine), -1, -1):
        for j in range(min(len(theirs), k + 1), -1, -1):
            game = replace(start, turns=tuple(mine[:k]), opponent_turns=tuple(theirs[:j]))
            if (k, j) == (0, 0) or not _legal(game):
                continue
            # the turn dropped first: the only side that lost turns, else the side at fault
            mine_lost, theirs_lost = k < all_mine, j < all_theirs
            if theirs_lost and (not mine_lost or fault == "oh"):
                return LegalStart(game, k, j, "opponent", _filled(start.opponent) + j + 1)
            return LegalStart(game, k, j, "me", _filled(start.sheet) + k + 1)
    return None


def _filled(sheet: tuple[int | None, ...] | None) -> int:
    return sum(v is not None for v in sheet or ())


def _legal(game: Game) -> bool:
    try:
        replay(game)
    except GameError:
        return False
    return True
