"""Golden cases of the position and game formats, generated from the Python package.

The page keeps JavaScript copies of what ``yacht.core.position`` and ``yacht.play.game`` define (reading a
link at once, writing the URL on every change: ``web/app/formats.js``), and names the part at
fault of a bad link from the package's messages (``web/app/view-error.js``). These cases tie
them together: ``tests/browser/test_formats.py`` runs the page's code on them, and
``tests/test_format_cases.py`` checks that ``format_cases.json`` is what this script writes
today, so a change of the formats fails a test until the cases are written again::

    .venv/bin/python tests/golden/format_cases.py      # rewrite format_cases.json

The cases (a fixed seed: byte-identical from run to run):

- ``positions``: ``{query, canonical}``: a valid position query, in varied spellings (order of
  the parameters, ``v=official`` spelled out, no ``s``, dice with ``r=0``, an opponent's sheet
  ``o`` or a score to reach ``t``), and
  ``yacht.core.position.format_query`` of it;
- ``games``: ``{query, canonical}``: a legal game record (random play from a random sheet; then
  some with an opponent's record, ``o`` and ``oh``, and the last ones with a score to reach
  ``t``, in varied spellings) and
  ``yacht.play.game.format_game`` of it;
- ``games`` also holds practice records (``p``: the seed's dice, random keeps and categories, half
  with an opponent's record);
- ``practice_dice``: ``{seed, player, turn, roll, faces}``: ``yacht.play.practice_dice.faces`` for
  random seeds (their text), players, turns and rolls;
- ``bad_games``: ``{query, field, message}``: records ``yacht.play.game.parse_game`` or ``replay``
  rejects, with the field and message of the ``GameError``;
- ``bad_positions``: ``{query, field, message}``: queries ``yacht.core.position.parse_query``
  rejects;
- ``same_games``: ``{a, b, step}``: two legal records (canonical) and
  ``yacht.play.same_game.is_step`` of them: a record and its steps (cut after a roll, a keep, a
  category, an opponent's turn), and records that share a start and then differ (other dice,
  another category, another score of the opponent), or that start apart (the sheet, the rules,
  the score to reach), in both orders.
"""

import json
import random
import re
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "py"))

from yacht.core.categories import N_CATEGORIES  # noqa: E402
from yacht.core.dice import roll_index  # noqa: E402
from yacht.core.position import PositionError, format_query, parse_query  # noqa: E402
from yacht.core.rules import VARIANTS, possible_scores, score_table  # noqa: E402
from yacht.play.game import Game, GameError, Turn, format_game, parse_game, replay  # noqa: E402
from yacht.play.practice_dice import ME, SEED_LIMIT, faces, format_seed, practice_roll  # noqa: E402
from yacht.play.same_game import is_step  # noqa: E402

CASES = Path(__file__).with_name("format_cases.json")
SEED = 20261123


def random_sheet(rng: random.Random, variant: str, filled: int) -> list[int | None]:
    allowed = possible_scores(VARIANTS[variant])
    sheet: list[int | None] = [None] * N_CATEGORIES
    for c in rng.sample(range(N_CATEGORIES), filled):
        sheet[c] = rng.choice(allowed[c])
    return sheet


def sheet_text(sheet: list[int | None]) -> str:
    return ",".join("" if v is None else str(v) for v in sheet)


def dice(rng: random.Random, n: int = 5) -> tuple[int, ...]:
    return tuple(rng.randint(1, 6) for _ in range(n))


def position_queries(rng: random.Random) -> list[str]:
    queries = []
    for i in range(40):
        variant = rng.choice(["official", "strict"])
        sheet = random_sheet(rng, variant, rng.randint(0, N_CATEGORIES))
        roll = rng.randint(0, 3) if None in sheet else 0  # a full sheet has no roll to advise on
        parts = []
        if any(v is not None for v in sheet) or rng.random() < 0.5:
            parts.append(f"s={sheet_text(sheet)}")
        if roll or rng.random() < 0.3:  # with r=0 the dice are only checked
            parts.append("d=" + "".join(map(str, dice(rng))))
        if roll or rng.random() < 0.5:
            parts.append(f"r={roll}")
        if variant == "strict" or rng.random() < 0.3:
            parts.append(f"v={variant}")
        if i % 4 == 1:  # the opponent's sheet: as many categories filled as mine, or one more
            mine = sum(v is not None for v in sheet)
            theirs = rng.choice([mine - 1, mine] if mine == N_CATEGORIES else [mine, mine + 1])
            parts.append(f"o={sheet_text(random_sheet(rng, variant, theirs))}")
        elif i % 4 == 2:
            parts.append(f"t={rng.randint(0, 999)}")
        if i % 3 == 0:
            rng.shuffle(parts)
        queries.append("&".join(parts))
    return queries


def random_game(rng: random.Random) -> Game:
    """A legal game: random keeps and free categories, from a random start."""
    variant = rng.choice(["official", "strict"])
    sheet = random_sheet(rng, variant, rng.randint(0, 6))
    scores = score_table(VARIANTS[variant])
    first_roll = rng.randint(1, 3)
    filled = list(sheet)
    turns = []
    for i in range(rng.randint(0, N_CATEGORIES - sum(v is not None for v in sheet))):
        roll = first_roll if i == 0 else 1
        rolls = [dice(rng)]
        keeps = []
        while roll < 3 and rng.random() < 0.6:
            kept = tuple(sorted(rng.sample(rolls[-1], rng.randint(0, 4))))
            keeps.append(kept)
            rolls.append(kept + dice(rng, 5 - len(kept)))
            roll += 1
        free = [c for c in range(N_CATEGORIES) if filled[c] is None]
        last = i == N_CATEGORIES - 1 or rng.random() < 0.15
        category = None if last and rng.random() < 0.5 else rng.choice(free)
        if category is not None:
            filled[category] = int(scores[roll_index(rolls[-1]), category])
        turns.append(Turn(tuple(rolls), tuple(keeps), category))
        if category is None:
            break
    return Game(tuple(sheet), tuple(turns), VARIANTS[variant], first_roll)


def with_opponent(rng: random.Random, game: Game) -> Game:
    """``game`` with an opponent: their start sheet (as many categories filled as mine, or
    one more: I sit first or second) and a random turn after each of my finished turns (the
    last one may be missing)."""
    mine = sum(v is not None for v in game.sheet)
    seat = 1 if mine == N_CATEGORIES or rng.random() < 0.5 else 2
    theirs = random_sheet(rng, game.variant.name, mine + seat - 1)
    allowed = possible_scores(game.variant)
    turns = []
    finished = sum(t.category is not None for t in game.turns)
    # Their turn after my last one may be missing, only when that turn of mine is finished (an
    # open turn of mine started after theirs).
    last_done = bool(game.turns) and game.turns[-1].category is not None
    for _ in range(finished - (last_done and rng.random() < 0.4)):
        free = [c for c in range(N_CATEGORIES) if theirs[c] is None]
        if not free:
            break
        c = rng.choice(free)
        theirs[c] = rng.choice(allowed[c])
        turns.append((c, theirs[c]))
    start = list(theirs)
    for c, _ in turns:
        start[c] = None
    return replace(game, opponent=tuple(start), opponent_turns=tuple(turns))


def random_practice(rng: random.Random) -> Game:
    """A legal practice record: the seed's dice, random keeps and free categories; half of them
    with an opponent (I sit first; their turn after each of mine, the last one may be missing)."""
    variant = VARIANTS[rng.choice(["official", "strict"])]
    seed = rng.randrange(SEED_LIMIT)
    scores = score_table(variant)
    filled: list[int | None] = [None] * N_CATEGORIES
    turns = []
    for number in range(1, rng.randint(1, N_CATEGORIES) + 1):
        rolls = [practice_roll(seed, ME, number, 1)]
        keeps = []
        while len(rolls) < 3 and rng.random() < 0.6:
            kept = tuple(rng.sample(rolls[-1], rng.randint(0, 4)))
            keeps.append(tuple(sorted(kept)))
            rolls.append(practice_roll(seed, ME, number, len(rolls) + 1, kept))
        category = None if rng.random() < 0.1 else rng.choice([c for c in range(N_CATEGORIES) if filled[c] is None])
        if category is not None:
            filled[category] = int(scores[roll_index(rolls[-1]), category])
        turns.append(Turn(tuple(rolls), tuple(keeps), category))
        if category is None:
            break
    game = Game(turns=tuple(turns), variant=variant, practice=seed)
    if rng.random() < 0.5:
        return game
    finished = sum(t.category is not None for t in turns)
    allowed = possible_scores(variant)
    free = list(range(N_CATEGORIES))
    rng.shuffle(free)
    theirs = tuple((c, rng.choice(allowed[c])) for c in free[: finished - (finished > 0 and rng.random() < 0.3)])
    return replace(game, opponent=(None,) * N_CATEGORIES, opponent_turns=theirs)


def spelled(rng: random.Random, query: str) -> str:
    """A game query in another spelling: parameters shuffled, leading zeros on points."""
    parts = query.split("&")
    rng.shuffle(parts)
    return "&".join(re.sub(r"(oh=|[a-l])([0-9])", r"\g<1>0\g<2>", p) if p.startswith("oh=") else p for p in parts)


BAD_GAMES = [
    "h=14466-55-55123",
    "h=14466g.12345g",
    "s=1,2,3,4,5,6,7,8,9,15,30,&h=11111l.12345",
    "h=14466-66-66123-66-66456-66-66111",
    "h=hello",
    "d=12345&h=12345",
    "h=12345.23456a",
    "h=12345-66-66123",
    "h=1234a",
    "h=12345-12345-12345",
    "r=3&h=12345-1-12345",
    "r=4&h=12345",
    "v=house&h=12345",
    "s=6,,,,,,,,,,,&h=12345",
    "s=,,,,,,,,,,&h=12345",
    "h=12345-6-61234",
    "h=12345m",
    "h=14466g&oh=c9e20",
    "h=14466g.12345&oh=",
    "h=14466&oh=c9",
    "h=14466g&oh=x9",
    "h=14466g&oh=9",
    "h=14466g&oh=g",
    "h=14466g&oh=g3",
    "h=14466g&oh=g1000",
    "h=14466g.12345a&oh=c9.c9",
    "o=1,,,,,,,,,,,&h=14466g.12345&oh=a2",
    "o=1,2,,,,,,,,,,&h=12345",
    "o=1,,,&h=12345",
    "o=7,,,,,,,,,,,&h=12345",
    "s=1,2,3,4,5,6,7,8,9,15,30,&o=1,2,3,4,5,6,7,8,9,15,30,50&h=11111l&oh=l0",
    "s=1,2,3,4,5,6,7,8,9,15,30,50&o=1,2,3,4,5,6,7,8,9,15,30,&h=&oh=l50k30",
    "h=12345&oh=&oh=",
    "t=abc&h=12345",
    "t=1000&h=12345",
    "t=150&oh=&h=12345",
    "o=,,,,,,,,,,,&t=5&h=12345",
    "t=5&t=5&h=12345",
    "p=k3x9q&h=12345",
    "p=k3x9q&h=54436-44-44123",
    "p=K3X9Q&h=",
    "p=1234567&h=",
    "p=k3x9q&s=1,,,,,,,,,,,&h=",
    "p=k3x9q&r=2&h=",
    "p=k3x9q&t=200&h=",
    "p=k3x9q&o=1,,,,,,,,,,,&h=&oh=",
]

BAD_POSITIONS = [
    "s=,,,,,,,,,,,&x=1",
    "s=6,,,,,,,,,,,&d=12345&r=1",
    "s=,,,,,,,,,,,&d=1234&r=1",
    "s=,,,,,,,,,,,&d=12345&r=7",
    "s=,,,,,,,,,,,&d=12345&r=1&v=house",
    "s=,,,,,,,,,,,&r=2",
    "s=,,,,&r=1",
    "s=,,,,,,,,,,,a&r=0",
    "s=,,,,,,,,25,,,&d=22255&r=3&v=strict",
    "d=12345&d=12345&r=1",
    "d=12378&r=1",
    "=1",
    "s",
    "s=,,,,,,,,,,,&r=0&o=5,4,,,,,,,,,,",
    "s=,,,,,,,,,,,&r=0&o=7,,,,,,,,,,,",
    "s=,,,,,,,,,,,&r=0&o=,,,,,,,,,,",
    "s=,,,,,,,,,,,&r=0&t=1000",
    "s=,,,,,,,,,,,&r=0&t=-5",
    "s=,,,,,,,,,,,&r=0&t=200&o=,,,,,,,,,,,",
]


def legal(game: Game) -> str | None:
    """The canonical query of ``game``, or None when it is not a legal record."""
    try:
        query = format_game(game)
        replay(parse_game(query))
    except GameError:
        return None
    return query


def steps(rng: random.Random, game: Game) -> list[Game]:
    """Some legal steps of ``game``: its turns cut after a roll or a category, with as many of the
    opponent's turns as the cut allows (each count tried, the legal ones kept)."""
    cuts = [replace(game, turns=(), opponent_turns=())]
    for i, turn in enumerate(game.turns):
        for j in range(1, len(turn.rolls) + 1):
            cuts.append(replace(game, turns=(*game.turns[:i], Turn(turn.rolls[:j], turn.keeps[: j - 1], None))))
        if turn.category is not None:
            cuts.append(replace(game, turns=game.turns[: i + 1]))
    found = []
    for cut in rng.sample(cuts, min(len(cuts), 4)):
        for n in range(len(game.opponent_turns) + 1):
            step = replace(cut, opponent_turns=game.opponent_turns[:n])
            if legal(step) is not None:
                found.append(step)
    return found


def diverged(rng: random.Random, game: Game) -> list[Game]:
    """Legal records from ``game``'s start that differ from it at one turn: other first dice (not
    in a practice game, whose dice are the seed's), another category, or another score of the
    opponent; the turns after it dropped."""
    out = []
    for i, turn in enumerate(game.turns):
        others = [replace(turn, rolls=(dice(rng),), keeps=(), category=None)] if game.practice is None else []
        filled = {t.category for t in game.turns[:i]} | {c for c, v in enumerate(game.sheet) if v is not None}
        free = [c for c in range(N_CATEGORIES) if c not in filled and c != turn.category]
        if free:
            others.append(replace(turn, category=rng.choice(free)))
        for other in others:
            for n in (i, i + 1):
                candidate = replace(game, turns=(*game.turns[:i], other), opponent_turns=game.opponent_turns[:n])
                if other.rolls != turn.rolls[:1] and legal(candidate) is not None:
                    out.append(candidate)
                    break
    for k, (c, points) in enumerate(game.opponent_turns):
        for other in possible_scores(game.variant)[c]:
            candidate = replace(game, opponent_turns=(*game.opponent_turns[:k], (c, other)))
            if other != points and legal(candidate) is not None:
                out.append(candidate)
                break
    return rng.sample(out, min(len(out), 2))


def same_game_cases(rng: random.Random) -> list[dict]:
    games = [random_game(rng) for _ in range(8)]
    games += [with_opponent(rng, random_game(rng)) for _ in range(8)]
    games += [replace(random_game(rng), target=rng.randint(0, 999)) for _ in range(3)]
    games += [random_practice(rng) for _ in range(6)]
    pairs = []
    for game in games:
        if legal(game) is None:
            continue
        others = steps(rng, game) + diverged(rng, game)
        if game.target is not None:
            others.append(replace(game, target=(game.target + 1) % 1000))
        if game.practice is None and not any(v is not None for v in game.sheet) and game.turns:
            others.append(replace(game, sheet=(0, *game.sheet[1:])))  # another start
        for other in others:
            if legal(other) is None:
                continue
            a, b = (game, other) if rng.random() < 0.5 else (other, game)
            pairs.append((a, b))
            pairs.append((b, a))
    return [{"a": format_game(a), "b": format_game(b), "step": is_step(a, b)} for a, b in pairs]


def failure(parse, query: str) -> dict:
    try:
        game = parse(query)
        if isinstance(game, Game):
            replay(game)
    except (PositionError, GameError) as e:
        return {"query": query, "field": e.field, "message": str(e)}
    raise AssertionError(f"{query!r} was accepted")


def cases() -> dict:
    rng = random.Random(SEED)
    positions = [{"query": q, "canonical": format_query(parse_query(q))} for q in position_queries(rng)]
    games = []
    for _ in range(40):
        query = format_game(random_game(rng))
        replay(parse_game(query))  # legal
        games.append({"query": query, "canonical": format_game(parse_game(query))})
    for _ in range(20):
        query = spelled(rng, format_game(with_opponent(rng, random_game(rng))))
        replay(parse_game(query))  # legal
        games.append({"query": query, "canonical": format_game(parse_game(query))})
    for _ in range(10):
        query = spelled(rng, format_game(replace(random_game(rng), target=rng.randint(0, 999))))
        replay(parse_game(query))  # legal
        games.append({"query": query, "canonical": format_game(parse_game(query))})
    for _ in range(12):
        query = format_game(random_practice(rng))
        replay(parse_game(query))  # legal
        games.append({"query": query, "canonical": format_game(parse_game(query))})
    practice_dice = []
    for _ in range(40):
        seed, player, turn, roll = rng.randrange(SEED_LIMIT), rng.randint(1, 2), rng.randint(1, 12), rng.randint(1, 3)
        practice_dice.append(
            {
                "seed": format_seed(seed),
                "player": player,
                "turn": turn,
                "roll": roll,
                "faces": faces(seed, player, turn, roll),
            }
        )
    return {
        "positions": positions,
        "games": games,
        "practice_dice": practice_dice,
        "bad_games": [failure(parse_game, q) for q in BAD_GAMES],
        "bad_positions": [failure(parse_query, q) for q in BAD_POSITIONS],
        "same_games": same_game_cases(rng),
    }


def cases_json() -> str:
    return json.dumps(cases(), ensure_ascii=False, indent=1) + "\n"


if __name__ == "__main__":
    CASES.write_text(cases_json())
    print(f"wrote {CASES.relative_to(ROOT)}")
