"""The position format: the CLI's QUERY and the page's URL query string.

    s=3,,9,,,18,,,,,30,&d=14466&r=2&v=strict

``s``  the sheet: twelve comma-separated fields in category order (see
       ``categories``), empty where unfilled; each value must be one some roll
       can score in that category under the variant. Absent: an empty sheet.
``d``  the five dice as digits 1–6, in any order (the order is kept).
``r``  the roll: 0 (before the turn's first roll), 1, 2 or 3 (after it).
       Absent: 0. ``d`` is required for r = 1–3; with r = 0 it may be given and
       is then only checked, not used.
``v``  ``strict`` for the strict rules; ``official`` or absent: the official.
``o``  the opponent's sheet, twelve fields as ``s``: advice then plays to win
       (see ``goal``). Players alternate, so at my turn the opponent has
       filled as many categories as I have (I play first) or one more (I play
       second); with my sheet full, 11 or 12. Any other pair is rejected.
``t``  a score to reach, a whole number 0–999: advice then plays for
       P(final ≥ t). Not together with ``o``.

Parameters may come in any order, each at most once (a malformed part or an
unknown name is reported under the field name ``query``); names and values
may be percent-encoded; a leading ``?`` or a whole URL is accepted (its
``#fragment`` is not part of the query); whitespace around the whole query is
ignored. A full sheet is a valid position with r = 0 (the game is over; no
roll can follow). Every bad input raises ``PositionError`` whose message
names the field and the reason; text from the input is quoted with ``repr``,
so a message never carries a control character.
"""

import re
from typing import Final, NamedTuple
from urllib.parse import unquote_plus

from .categories import N_CATEGORIES, NAMES_EN
from .dice import N_DICE
from .rules import DEFAULT_VARIANT, VARIANTS, Variant, possible_scores

PARAMETERS: Final = ("s", "d", "r", "v")
GOAL_PARAMETERS: Final = ("o", "t")
"""The goal of play, read by ``parse_query`` only (a game record has none)."""
_TARGET_RE: Final = re.compile(r"[0-9]{1,3}")
_SCORE_RE: Final = re.compile(r"[0-9]{1,3}")
_DICE_RE: Final = re.compile(r"[1-6]{5}")


class GoalUnavailable(ValueError):
    """The goal's values cannot be computed for this position (outside the exact
    range, with no approximation available). ``field``: the parameter concerned.
    Defined here, beside ``PositionError``, so that what answers queries can name it
    without importing the goal's modules (``yacht.chances.goal`` raises it)."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field


class PositionError(ValueError):
    """A position that cannot be read. ``field`` is the parameter at fault."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason

    def to_json(self) -> dict:
        """What the CLI's ``--json`` and the worker say of it: ``{"field", "message"}``."""
        return {"field": self.field, "message": str(self)}


class Position(NamedTuple):
    """A moment of a game.

    ``sheet``: 12 entries in category order, ``None`` where unfilled.
    ``dice``: five values 1–6 as entered, or ``None`` before the first roll.
    ``roll``: 0–3. ``variant``: the rules.
    """

    sheet: tuple[int | None, ...]
    dice: tuple[int, ...] | None
    roll: int
    variant: Variant = DEFAULT_VARIANT
    opponent: tuple[int | None, ...] | None = None
    target: int | None = None

    @property
    def is_over(self) -> bool:
        return all(v is not None for v in self.sheet)


def free_categories(sheet: tuple[int | None, ...]) -> int:
    """How many categories of ``sheet`` are still free."""
    return sum(v is None for v in sheet)


def split_query(query: str, known: tuple[str, ...] = PARAMETERS) -> dict[str, str]:
    """The parameters of a query string (or URL), each at most once and all ``known``."""
    query = query.split("#", 1)[0]  # a fragment is not part of the query, whatever it holds
    if "?" in query:
        query = query.split("?", 1)[1]
    elif "://" in query:  # a whole URL without a query: the empty query
        query = ""
    params: dict[str, str] = {}
    for part in query.split("&"):
        if not part:
            continue
        if "=" not in part:
            raise PositionError("query", f"{unquote_plus(part)!r} is not name=value")
        name, value = (unquote_plus(x) for x in part.split("=", 1))
        if not name:
            raise PositionError("query", f"{part!r} has no parameter name")
        if name not in known:
            raise PositionError("query", f"unknown parameter {name!r} (known: {', '.join(known)})")
        if name in params:
            raise PositionError(name, "given more than once")
        params[name] = value
    return params


def parse_sheet(text: str, variant: Variant, field_name: str = "s") -> tuple[int | None, ...]:
    """The ``s`` (or ``o``) value: 12 entries, ``None`` where unfilled."""
    fields = text.split(",")
    if len(fields) != N_CATEGORIES:
        raise PositionError(field_name, f"expected {N_CATEGORIES} comma-separated fields, got {len(fields)}")
    sheet: list[int | None] = []
    for c, field in enumerate(fields):
        where = f"field {c + 1} ({NAMES_EN[c]})"
        if field == "":
            sheet.append(None)
            continue
        if not _SCORE_RE.fullmatch(field):
            raise PositionError(field_name, f"{where}: {field!r} is not a number")
        value = int(field)
        allowed = possible_scores(variant)[c]
        if value not in allowed:
            raise PositionError(
                field_name,
                f"{where}: {NAMES_EN[c]} cannot score {value} under {variant.name} rules (possible: {ranges(allowed)})",
            )
        sheet.append(value)
    return tuple(sheet)


def ranges(values: tuple[int, ...]) -> str:
    """'0, 5–28, 30' for a sorted tuple of ints."""
    parts: list[str] = []
    start = prev = values[0]
    for v in (*values[1:], None):
        if v is not None and v == prev + 1:
            prev = v
            continue
        parts.append(str(start) if start == prev else f"{start}–{prev}" if prev > start + 1 else f"{start}, {prev}")
        if v is not None:
            start = prev = v
    return ", ".join(parts)


def parse_query(query: str) -> Position:
    """Read a position from its query string (see the module docstring)."""
    params = split_query(query.strip(), (*PARAMETERS, *GOAL_PARAMETERS))
    variant_name = params.get("v", DEFAULT_VARIANT.name)
    if variant_name not in VARIANTS:
        raise PositionError("v", f"unknown rule variant {variant_name!r} (known: {', '.join(VARIANTS)})")
    variant = VARIANTS[variant_name]
    sheet = parse_sheet(params["s"], variant) if "s" in params else (None,) * N_CATEGORIES
    roll_text = params.get("r", "0")
    if roll_text not in ("0", "1", "2", "3"):
        raise PositionError("r", f"{roll_text!r} is not a roll (0, 1, 2 or 3)")
    roll = int(roll_text)
    dice = None
    if "d" in params:
        text = params["d"]
        if len(text) != N_DICE:
            count = f"{len(text)} character{'s' * (len(text) != 1)}"
            raise PositionError("d", f"expected {N_DICE} dice, got {count} in {text!r}")
        if not _DICE_RE.fullmatch(text):
            raise PositionError("d", f"{text!r}: each die is a digit 1–6")
        dice = tuple(int(ch) for ch in text)
    elif roll > 0:
        raise PositionError("d", f"missing: the dice are needed for r={roll}")
    if roll > 0 and all(v is not None for v in sheet):
        raise PositionError("r", f"the sheet is full (the game is over): there is no roll {roll} to advise on")
    opponent, target = _parse_goal(params, variant, sheet)
    return Position(sheet=sheet, dice=dice, roll=roll, variant=variant, opponent=opponent, target=target)


def _parse_goal(
    params: dict[str, str], variant: Variant, sheet: tuple[int | None, ...]
) -> tuple[tuple[int | None, ...] | None, int | None]:
    """The ``o`` and ``t`` values (each ``None`` when absent), checked against ``sheet``."""
    if "o" in params and "t" in params:
        raise PositionError("t", "give either o= (the opponent's sheet) or t= (a score to reach), not both")
    target = parse_target(params["t"]) if "t" in params else None
    opponent = None
    if "o" in params:
        opponent = parse_sheet(params["o"], variant, "o")
        check_turn_order(sheet, opponent)
    return opponent, target


def parse_target(text: str) -> int:
    """The ``t`` value: a score to reach, 0–999 (``PositionError`` on field ``t`` otherwise)."""
    if not _TARGET_RE.fullmatch(text):
        raise PositionError("t", f"{text!r} is not a score to reach (a whole number 0–999)")
    return int(text)


def check_turn_order(sheet: tuple[int | None, ...], opponent: tuple[int | None, ...], when: str = "") -> None:
    """Raise ``PositionError`` (field ``o``) unless it can be my turn: players alternate, so
    the opponent has filled as many categories as I have (I play first) or one more (I play
    second); with my sheet full, 11 or 12. ``when``: words placed after "you N" (e.g. where a
    game record starts)."""
    mine = sum(v is not None for v in sheet)
    theirs = sum(v is not None for v in opponent)
    allowed = (11, 12) if mine == N_CATEGORIES else (mine, mine + 1)
    if theirs not in allowed:
        raise PositionError(
            "o",
            f"the opponent has filled {theirs} categories and you {mine}{when}: players take turns, so at your "
            f"turn the opponent has filled {allowed[0]} (you play first) or {allowed[1]} (you play second)",
        )


def format_sheet(sheet: tuple[int | None, ...]) -> str:
    """The ``s`` (or ``o``) value of a sheet."""
    return ",".join("" if v is None else str(v) for v in sheet)


def format_query(position: Position) -> str:
    """The canonical query string of a position (``s`` always, ``v`` only if strict)."""
    parts = ["s=" + format_sheet(position.sheet)]
    if position.dice is not None:
        parts.append("d=" + "".join(str(d) for d in position.dice))
    parts.append(f"r={position.roll}")
    if position.variant != DEFAULT_VARIANT:
        parts.append(f"v={position.variant.name}")
    if position.opponent is not None:
        parts.append("o=" + format_sheet(position.opponent))
    if position.target is not None:
        parts.append(f"t={position.target}")
    return "&".join(parts)
