"""Hypothesis strategies for sheets, dice and positions, and games played for the tests (one place for all)."""

import numpy as np
from hypothesis import strategies as st
from yacht.core.categories import N_CATEGORIES
from yacht.core.options import advise
from yacht.core.position import Position
from yacht.core.rules import VARIANTS, possible_scores
from yacht.play.practice import Practice

variants = st.sampled_from(list(VARIANTS.values()))
dice = st.tuples(*[st.integers(1, 6)] * 5)


@st.composite
def sheets(draw, variant=None, min_filled: int = 0, max_filled: int = N_CATEGORIES):
    """A valid sheet for ``variant``: 12 entries, None where unfilled."""
    variant = variant or draw(variants)
    filled = draw(st.sets(st.integers(0, N_CATEGORIES - 1), min_size=min_filled, max_size=max_filled))
    scores = possible_scores(variant)
    return tuple(draw(st.sampled_from(scores[c])) if c in filled else None for c in range(N_CATEGORIES))


@st.composite
def positions(draw, rolls=(0, 1, 2, 3), max_filled: int = N_CATEGORIES):
    variant = draw(variants)
    roll = draw(st.sampled_from(rolls))
    if roll > 0:  # a full sheet has no roll to come
        max_filled = min(max_filled, N_CATEGORIES - 1)
    sheet = draw(sheets(variant, max_filled=max_filled))
    roll_dice = draw(dice) if roll > 0 else draw(st.none() | dice)
    return Position(sheet=sheet, dice=roll_dice, roll=roll, variant=variant)


def play_game(tilde, variant, rng, *, turns: int = 12, mistake_at: int | None = None, start=None):
    """A legal game record played by the advisor's best choices, dice from ``rng``, from
    the sheet ``start`` (default: empty; ``turns`` at most its free categories).

    With ``mistake_at`` = k, the k-th decision (0-based) takes the worst
    option instead.
    """
    from yacht.core.options import advise
    from yacht.core.position import Position
    from yacht.core.rules import score_table
    from yacht.play.game import Game, Turn

    scores = score_table(variant)
    sheet: list = list(start or [None] * N_CATEGORIES)
    record = []
    decision = 0
    for _ in range(turns):
        dice = tuple(int(x) for x in rng.integers(1, 7, 5))
        rolls, keeps, category = [dice], [], None
        for roll in (1, 2, 3):
            advice = advise(Position(tuple(sheet), dice, roll, variant), tilde)
            option = advice.options[-1 if decision == mistake_at else 0]
            decision += 1
            if option.keep is None or len(option.keep) == 5:
                category = option.category
                break
            keeps.append(option.keep)
            dice = option.keep + tuple(int(x) for x in rng.integers(1, 7, 5 - len(option.keep)))
            rolls.append(dice)
        from yacht.core.dice import roll_index

        sheet[category] = int(scores[roll_index(dice), category])
        record.append(Turn(tuple(rolls), tuple(keeps), category))
    return Game(sheet=tuple(start or [None] * N_CATEGORIES), turns=tuple(record), variant=variant)


@st.composite
def games_with_opponent(draw, max_turns: int = N_CATEGORIES, practice: bool = False, whole: bool = False):
    """A legal game record with the opponent's: random dice, keeps and free categories from
    a random start; my seat drawn; the opponent's turn after each of my finished turns (the
    last may be missing), in free categories with points they can score. ``practice``: a
    practice record instead (a drawn seed ``p``): from empty sheets at roll 1, me first, my dice
    the seed's (``parse_game`` does not check the opponent's turns against the seed's). ``whole``:
    the record has every turn of the number drawn (only its last may be unfinished or lack the
    opponent's turn after it), not fewer."""
    from yacht.core.dice import roll_index
    from yacht.core.rules import score_table
    from yacht.play.game import Game, Turn
    from yacht.play.practice_dice import ME, SEED_LIMIT, practice_roll

    variant = draw(variants)
    seed = draw(st.integers(0, SEED_LIMIT - 1)) if practice else None
    sheet = (None,) * N_CATEGORIES if practice else draw(sheets(variant, max_filled=N_CATEGORIES - 1))
    mine = sum(v is not None for v in sheet)
    seat = 1 if practice else draw(st.sampled_from((1, 2)))
    theirs = list(draw(sheets(variant, min_filled=mine + seat - 1, max_filled=mine + seat - 1)))
    start = tuple(theirs)
    first_roll = 1 if practice else draw(st.integers(1, 3))
    scores, allowed = score_table(variant), possible_scores(variant)
    filled, turns, opponent_turns = list(sheet), [], []

    def roll(number: int, roll: int, keep: tuple[int, ...]) -> tuple[int, ...]:
        if seed is not None:
            return practice_roll(seed, ME, number, roll, keep)
        return keep + draw(st.tuples(*[st.integers(1, 6)] * (5 - len(keep))))

    n = draw(st.integers(0, min(max_turns, N_CATEGORIES - mine)))
    for i in range(n):
        may_end = not whole or i == n - 1
        rolls, keeps = [roll(mine + i + 1, 1, ())], []
        for _ in range(3 - (first_roll if i == 0 else 1)):
            if not draw(st.booleans()):
                break
            keep = tuple(sorted(draw(st.permutations(rolls[-1]))[: draw(st.integers(0, 4))]))
            keeps.append(keep)
            rolls.append(roll(mine + i + 1, len(rolls) + 1, keep))
        free = [c for c in range(N_CATEGORIES) if filled[c] is None]
        category = draw(st.none() | st.sampled_from(free) if may_end else st.sampled_from(free))
        turns.append(Turn(tuple(rolls), tuple(keeps), category))
        if category is None:
            break
        filled[category] = int(scores[roll_index(rolls[-1]), category])
        free_theirs = [c for c in range(N_CATEGORIES) if theirs[c] is None]
        if not free_theirs or (may_end and draw(st.integers(0, 4)) == 0):  # their turn not recorded yet: the last one
            break
        c = draw(st.sampled_from(free_theirs))
        theirs[c] = draw(st.sampled_from(allowed[c]))
        opponent_turns.append((c, theirs[c]))
    return Game(tuple(sheet), tuple(turns), variant, first_roll, start, tuple(opponent_turns), practice=seed)


@st.composite
def damaged_records(draw) -> str:
    """The query of a legal record (``games_with_opponent``, a practice one or not, or one of those
    without the opponent's side, then with a score to reach or not) whose turns are damaged, in
    ``h``, ``oh`` or both, one to three times each: a turn dropped, doubled, swapped with
    another or (mine) its category letter dropped; the record's turns repeated; a character
    changed, dropped or added; the text cut short."""
    from dataclasses import replace

    from yacht.play.game import format_game

    game = draw(games_with_opponent(practice=draw(st.booleans()), whole=True))
    if draw(st.booleans()):
        free = game.practice is None and draw(st.booleans())
        game = replace(game, opponent=None, opponent_turns=(), target=draw(st.integers(0, 400)) if free else None)
    params = dict(part.split("=", 1) for part in format_game(game).split("&"))
    for name in draw(st.sampled_from([("h",), ("oh",), ("h", "oh")] if "oh" in params else [("h",)])):
        params[name] = draw(_damaged(params[name], name))
    return "&".join(f"{name}={value}" for name, value in params.items())


TURN_DAMAGES = ("drop", "double", "swap", "repeat", "unfinish")
"""What ``damaged_records`` may do to whole turns (then to the text: ``TEXT_DAMAGES``)."""
TEXT_DAMAGES = ("change", "delete", "add", "cut")


@st.composite
def _damaged(draw, text: str, name: str) -> str:
    """``text``, an ``h`` or ``oh`` value, with one to three damages (``damaged_records``)."""
    import re

    pieces = text.split(".") if name == "h" else re.findall(r"[a-l]\d+", text)
    kinds = [k for k in (*TURN_DAMAGES, *TEXT_DAMAGES) if name == "h" or k != "unfinish"]
    done = sorted(draw(st.lists(st.sampled_from(kinds), min_size=1, max_size=3)), key=kinds.index)
    for kind in (k for k in done if k in TURN_DAMAGES and pieces):
        i, j = (draw(st.integers(0, len(pieces) - 1)) for _ in range(2))
        if kind == "drop":
            del pieces[i]
        elif kind == "double":
            pieces.insert(j, pieces[i])
        elif kind == "swap":
            pieces[i], pieces[j] = pieces[j], pieces[i]
        elif kind == "repeat":
            pieces += pieces * draw(st.integers(1, 2))
        else:
            pieces[i] = pieces[i].rstrip("abcdefghijkl")
    text = ("." if name == "h" else "").join(pieces)
    alphabet = "123456-.aglz0" if name == "h" else "abglx0123456789"
    for kind in (k for k in done if k in TEXT_DAMAGES):
        i = draw(st.integers(0, len(text)))
        if kind == "add":
            text = text[:i] + draw(st.sampled_from(alphabet)) + text[i:]
        elif kind == "cut":
            text = text[:i]
        elif i < len(text):
            text = text[:i] + (draw(st.sampled_from(alphabet)) if kind == "change" else "") + text[i + 1 :]
    return text


def advisor_practice(tilde, variant, seed: int, opponent: bool, mistakes: bool = True) -> Practice:
    """A practice game played by the advisor, with a second-best choice every fifth decision."""
    game = Practice(tilde, variant, seed, opponent)
    n = 0
    while not game.over:
        options = advise(game.position, tilde).options
        option = options[1] if mistakes and n % 5 == 4 and len(options) > 1 else options[0]
        n += 1
        if option.keep is not None and len(option.keep) < 5:
            game.keep(option.keep)
        else:
            game.score(option.category)
    return game


@st.composite
def chunk_values(draw) -> tuple[str, str, int, np.ndarray]:
    """(variant name, quantity, mask, values) for ``reach_table.encode_chunk``: values (64, width)
    float64 indexed [ν, k], each stored row q / 65535 for integers q falling along k from
    q(0) = 65535 (k = 0) — rows smooth, random, in a few big steps (a drop of 65535 among them) or
    flat, mixed within a chunk so that a row can be far from the one before it."""
    from yacht.chances.reach import canonical_states
    from yacht.chances.reach_table import SCALE, row_lengths

    variant = draw(st.sampled_from(list(VARIANTS)))
    quantity = draw(st.sampled_from(["reach", "law"]))
    mask = draw(st.integers(0, 4094))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    lengths = row_lengths(VARIANTS[variant], mask)
    values = np.zeros((64, int(lengths.max()) + 2))
    for nu, n in zip(canonical_states(mask).tolist(), lengths.tolist(), strict=True):
        style = rng.integers(4)
        if style == 0:  # smooth: a normal law's upper tail, rounded
            k = np.arange(1, n + 1)
            q = np.rint(SCALE * 0.5 * (1 - np.tanh((k - rng.uniform(0, n)) / rng.uniform(1, n / 2 + 1))))
        elif style == 1:  # random drops
            q = SCALE - np.sort(rng.integers(0, SCALE + 1, n))
        elif style == 2:  # a few big steps, one of them possibly the whole 65535 at once
            q = np.full(n, SCALE)
            for at in rng.integers(0, n, rng.integers(1, 4)):
                q[at:] = rng.integers(0, q[at] + 1) if rng.integers(2) else 0
        else:  # flat: 1 all along, or a constant tail
            q = np.full(n, SCALE if rng.integers(2) else int(rng.integers(0, SCALE + 1)))
        values[nu, 0] = 1.0
        values[nu, 1 : n + 1] = np.asarray(q, dtype=np.int64) / SCALE
    return variant, quantity, mask, values
