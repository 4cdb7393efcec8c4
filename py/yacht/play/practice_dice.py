"""The dice of a practice game: a seed gives every roll's dice, so a friend given the seed
rolls the same dice (the page's ``p=`` parameter, the CLI's ``practice --seed``).

A seed is 1–6 characters ``0-9a-z`` read in base 36 (canonically without leading zeros; 0 is
``0``): 0 … 36⁶ − 1 = 2,176,782,335. ``random_seed()`` draws one.

Player 1 is the one practising, player 2 the simulated opponent; ``turn`` is the player's own turn
number (1–12), ``roll`` 1–3. Each (player, turn, roll) has five faces, in order:

    h_i  = mix(mix(seed) + key_i · 0x9E3779B9 mod 2³²),  key_i = ((player · 16 + turn) · 4 + roll) · 8 + i
    face = 1 + h_i mod 6                                  (i = 0 … 4)

where ``mix`` is the 32-bit "lowbias32" integer hash (x ^= x >> 16; x ·= 0x7FEB352D; x ^= x >> 15;
x ·= 0x846CA68B; x ^= x >> 16, all mod 2³²). ``h mod 6`` favours faces 1–4 by 1 part in 7·10⁸,
far below anything a game can show. A roll keeps the dice kept and throws the others: the dice
after roll r are the kept ones and the first 5 − (number kept) faces of (player, turn, r), so the
same choices meet the same dice and every turn's first roll is the same whatever was chosen
before. The page's JavaScript (``web/page/model/practice-dice.js``) computes the same faces, held to
these by the golden cases (``tests/golden/format_cases.py``).
"""

import os
from typing import Final

from ..core.dice import N_DICE

SEED_DIGITS: Final = "0123456789abcdefghijklmnopqrstuvwxyz"
SEED_LENGTH: Final = 6
SEED_LIMIT: Final = len(SEED_DIGITS) ** SEED_LENGTH
"""Seeds are 0 … SEED_LIMIT − 1."""
ME: Final = 1
OPPONENT: Final = 2
_MASK: Final = 0xFFFFFFFF
_GOLDEN: Final = 0x9E3779B9


class SeedError(ValueError):
    """A seed that is not 1–6 characters 0-9a-z."""


def parse_seed(text: str) -> int:
    """The seed a ``p=`` value (or ``--seed``) names; raises ``SeedError`` saying what is wrong."""
    if not 1 <= len(text) <= SEED_LENGTH or not set(text) <= set(SEED_DIGITS):
        raise SeedError(f"{text!r} is not a practice seed: 1–{SEED_LENGTH} characters 0-9 and a-z (e.g. k3x9q)")
    return int(text, len(SEED_DIGITS))


def format_seed(seed: int) -> str:
    """The canonical text of a seed (base 36, lower case, no leading zeros)."""
    if not 0 <= seed < SEED_LIMIT:
        raise SeedError(f"{seed} is not a practice seed (0 … {SEED_LIMIT - 1})")
    out = ""
    while True:
        seed, digit = divmod(seed, len(SEED_DIGITS))
        out = SEED_DIGITS[digit] + out
        if seed == 0:
            return out


def random_seed() -> int:
    """A new seed, from the system's randomness (``os.urandom``: ``secrets`` is not in the page's
    trimmed standard library; 64 random bits modulo 36⁶ are uniform within 1e-9)."""
    return int.from_bytes(os.urandom(8), "big") % SEED_LIMIT


def _mix(x: int) -> int:
    x &= _MASK
    x ^= x >> 16
    x = (x * 0x7FEB352D) & _MASK
    x ^= x >> 15
    x = (x * 0x846CA68B) & _MASK
    return x ^ (x >> 16)


def faces(seed: int, player: int, turn: int, roll: int) -> tuple[int, ...]:
    """The five faces (1–6) of (player, turn, roll) for ``seed`` (see the module docstring)."""
    base = _mix(seed)
    out = []
    for i in range(N_DICE):
        key = ((player * 16 + turn) * 4 + roll) * 8 + i
        out.append(1 + _mix(base + key * _GOLDEN) % 6)
    return tuple(out)


def practice_roll(seed: int, player: int, turn: int, roll: int, kept: tuple[int, ...] = ()) -> tuple[int, ...]:
    """The dice after roll ``roll`` of ``turn`` when ``kept`` (values, in the order shown) were kept:
    the kept dice, then the first 5 − len(kept) faces of that roll."""
    return (*kept, *faces(seed, player, turn, roll)[: N_DICE - len(kept)])
