"""The 12 scoring categories, in the fixed order that is part of every format.

Index order (used by tables, positions, JSON and the page):
    0 Aces, 1 Deuces, 2 Treys, 3 Fours, 4 Fives, 5 Sixes,
    6 Choice, 7 Four Dice, 8 Full House, 9 S.Straight, 10 B.Straight, 11 Yacht.

A set of filled categories is a 12-bit *mask*: bit ``c`` set means category
``c`` is filled. The upper section is categories 0–5 (face ``c + 1``).
"""

from typing import Final

N_CATEGORIES: Final = 12
N_UPPER: Final = 6
FULL_MASK: Final = (1 << N_CATEGORIES) - 1
UPPER_MASK: Final = (1 << N_UPPER) - 1

ACES, DEUCES, TREYS, FOURS, FIVES, SIXES = range(6)
CHOICE, FOUR_DICE, FULL_HOUSE, S_STRAIGHT, B_STRAIGHT, YACHT = range(6, 12)

BONUS_THRESHOLD: Final = 63
"""Upper total (points) at which the bonus is earned."""
BONUS_POINTS: Final = 35

NAMES_EN: Final = (
    "Aces",
    "Deuces",
    "Treys",
    "Fours",
    "Fives",
    "Sixes",
    "Choice",
    "Four Dice",
    "Full House",
    "S.Straight",
    "B.Straight",
    "Yacht",
)
NAMES_JA: Final = (
    "エース",
    "デュース",
    "トレイ",
    "フォー",
    "ファイブ",
    "シックス",
    "チョイス",
    "フォーダイス",
    "フルハウス",
    "S.ストレート",
    "B.ストレート",
    "ヨット",
)
