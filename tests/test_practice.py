"""Practice games: the seeded dice, practice records, the simulated opponent, the grading of each
choice (the review's), and ``python -m yacht practice`` played from a script."""

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import advisor_practice
from yacht.api import grade_query, opponent_query, review_query
from yacht.core.categories import NAMES_EN
from yacht.core.options import advise
from yacht.core.position import Position
from yacht.core.rules import VARIANTS
from yacht.loader import Tables
from yacht.play.game import CATEGORY_LETTERS, GameError, format_game, parse_game
from yacht.play.graded import LOSS_BINS, STRONG_PLAY, loss_bin
from yacht.play.practice import Practice, check_opponent, kept_in_order, opponent_game
from yacht.play.practice_dice import (
    ME,
    OPPONENT,
    SEED_LIMIT,
    SeedError,
    faces,
    format_seed,
    parse_seed,
    practice_roll,
)

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "public" / "tables"


@pytest.fixture(scope="module")
def tables() -> Tables:
    return Tables(TABLES)


@given(st.integers(0, SEED_LIMIT - 1))
def test_a_seed_reads_back_from_its_text(seed):
    text = format_seed(seed)
    assert parse_seed(text) == seed
    assert 1 <= len(text) <= 6 and text == text.lower() and (text == "0" or not text.startswith("0"))


@pytest.mark.parametrize("text", ["", "1234567", "K3X9Q", "ab-c", "a b", "é"])
def test_a_bad_seed_is_refused_with_what_a_seed_is(text):
    with pytest.raises(SeedError, match="practice seed: 1–6 characters 0-9 and a-z"):
        parse_seed(text)


def test_the_faces_are_fair_and_differ_by_player_turn_and_roll():
    counts = Counter()
    blocks = set()
    for seed in range(0, 400_000, 997):
        for player in (ME, OPPONENT):
            for turn in range(1, 13):
                for roll in (1, 2, 3):
                    block = faces(seed, player, turn, roll)
                    counts.update(block)
                    blocks.add((seed, block))
    total = sum(counts.values())
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    for face in range(1, 7):  # 288,720 faces: each within 5 standard deviations of 1/6
        assert abs(counts[face] / total - 1 / 6) < 5 * (1 / 6 * 5 / 6 / total) ** 0.5
    assert len(blocks) > 0.95 * 402 * 72  # different (player, turn, roll) give different dice


def test_a_reroll_keeps_the_kept_dice_and_throws_the_first_faces():
    seed = parse_seed("k3x9q")
    assert practice_roll(seed, ME, 4, 1) == faces(seed, ME, 4, 1)
    assert practice_roll(seed, ME, 4, 2, (6, 6)) == (6, 6, *faces(seed, ME, 4, 2)[:3])
    assert kept_in_order((5, 4, 4, 3, 6), (3, 4)) == (4, 3)


@pytest.mark.parametrize("variant", ["official", "strict"])
def test_a_practice_record_reads_back_and_its_dice_are_the_seeds(tables, variant):
    tilde = tables[variant].tilde
    game = advisor_practice(tilde, VARIANTS[variant], parse_seed("7rq2"), opponent=True)
    query = game.query
    assert query.startswith(("p=7rq2&h=", "v=strict&p=7rq2&h="))
    assert parse_game(query) == game.game and format_game(parse_game(query)) == query
    for i, turn in enumerate(game.game.turns):
        assert turn.rolls[0] == faces(parse_seed("7rq2"), ME, i + 1, 1)
    # Another seed's record is refused, naming the turn and the roll.
    with pytest.raises(GameError, match=r"^h: turn 1, roll 1: the dice \d{5} are not the practice's \(seed 7rq3"):
        parse_game(query.replace("p=7rq2", "p=7rq3"))


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("p=ab&s=1,,,,,,,,,,,&h=", "s", "starts from an empty sheet: your sheet"),
        ("p=ab&o=5,,,,,,,,,,,&h=&oh=", "o", "the opponent's sheet is not empty"),
        ("p=ab&t=200&h=", "t", "no score to reach"),
        ("p=ab&r=2&h=", "r", "starts at roll 1"),
        ("p=AB&h=", "p", "not a practice seed"),
    ],
)
def test_a_practice_record_that_does_not_start_a_practice_is_refused(query, field, message):
    with pytest.raises(GameError) as raised:
        parse_game(query)
    assert raised.value.field == field and message in raised.value.reason


@pytest.mark.parametrize("variant", ["official", "strict"])
def test_the_opponent_plays_the_advisors_best_option_with_its_own_dice(tables, variant):
    tilde = tables[variant].tilde
    rules = VARIANTS[variant]
    seed = parse_seed("zz01")
    turns = opponent_game(tilde, rules, seed)
    sheet: list = [None] * 12
    for number, turn in enumerate(turns, 1):
        assert turn.rolls[0] == faces(seed, OPPONENT, number, 1)
        for roll, dice in enumerate(turn.rolls, 1):
            best = advise(Position(tuple(sheet), dice, roll, rules), tilde).options[0]
            if roll < len(turn.rolls):
                kept = kept_in_order(dice, best.keep)
                assert best.keep == turn.keeps[roll - 1]
                assert turn.rolls[roll] == practice_roll(seed, OPPONENT, number, roll + 1, kept)
            else:
                assert best.category == turn.category
        sheet[turn.category] = turn.points
    assert None not in sheet
    # A record whose opponent scored otherwise is refused, naming their turn.
    game = advisor_practice(tilde, rules, seed, opponent=True)
    c, points = game.game.opponent_turns[2]
    other = next(v for v in (0, 5, 10, 15, 20, 25, 30, 50) if v != points and _can_score(rules, c, v))
    wrong = game.query.replace(f"{CATEGORY_LETTERS[c]}{points}", f"{CATEGORY_LETTERS[c]}{other}", 1)
    with pytest.raises(GameError, match=r"the opponent.s turn 3: .* is not what the practice.s opponent played"):
        check_opponent(parse_game(wrong), tilde)
    answer = opponent_query(f"{'v=strict&' * (variant == 'strict')}p=zz01&h=", tables)
    assert [(t["category"], t["points"]) for t in answer["turns"]] == [(t.category, t.points) for t in turns]


def _can_score(rules, category: int, value: int) -> bool:
    from yacht.core.rules import possible_scores

    return value in possible_scores(rules)[category]


def test_each_choice_is_graded_as_the_review_grades_it(tables):
    """grade_query after every choice gives the review's decision for it, the goal's chances too."""
    tilde = tables["official"].tilde
    game = Practice(tilde, VARIANTS["official"], parse_seed("q1"), opponent=True)
    graded = []
    n = 0
    while not game.over:
        options = advise(game.position, tilde).options
        option = options[min(n % 4, len(options) - 1)]
        n += 1
        if option.keep is not None and len(option.keep) < 5:
            game.keep(option.keep)
        else:
            game.score(option.category)
        graded.append(grade_query(game.query, tables)["decision"])
    result = review_query(game.query, tables)
    assert json.loads(json.dumps(graded)) == json.loads(json.dumps(result["decisions"]))
    assert all("winning" in d for d in graded)
    counts = result["counts"]
    assert list(counts) == [name for name, _ in LOSS_BINS]
    assert sum(counts.values()) == len(result["decisions"])
    expected = dict.fromkeys((name for name, _ in LOSS_BINS), 0)
    for d in result["decisions"]:
        expected[loss_bin(d["grade"]["loss"])] += 1  # graded by the chance of winning
    assert counts == expected
    assert counts["optimal"] < len(result["decisions"])  # some choices were second, third or fourth best


@pytest.mark.parametrize(
    ("loss", "name"), [(0.0, "optimal"), (0.05, "below_0.1"), (0.1, "0.1_to_1"), (4.99, "1_to_5"), (5.0, "above_5")]
)
def test_a_loss_falls_in_its_bin(loss, name):
    assert loss_bin(loss) == name


def practice(*args: str, stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "yacht", "practice", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _script(tables, seed: str, opponent: bool) -> str:
    """The choices of an advisor game with mistakes, as the CLI reads them."""
    tilde = tables["official"].tilde
    game = Practice(tilde, VARIANTS["official"], parse_seed(seed), opponent)
    lines = ["# a scripted practice game", ""]
    n = 0
    while not game.over:
        options = advise(game.position, tilde).options
        option = options[1] if n % 5 == 4 and len(options) > 1 else options[0]
        n += 1
        if option.keep is not None and len(option.keep) < 5:
            lines.append(f"keep {''.join(map(str, option.keep))}" if option.keep else "keep")
            game.keep(option.keep)
        else:
            name = NAMES_EN[option.category].lower()
            lines.append(CATEGORY_LETTERS[option.category] if n % 2 else f"score {name}")
            game.score(option.category)
    return "\n".join(lines) + "\n"


def test_the_cli_plays_a_seeded_game_from_a_script_and_its_summary_is_the_review(tables):
    script = _script(tables, "5eed", opponent=True)
    # A line not understood and a keep not in the dice are reported and skipped.
    script = script.replace("\n\n", "\nkeep 9\nhello\n", 1)
    text = practice("--seed", "5eed", "--opponent", stdin=script)
    assert text.returncode == 0, text.stderr
    assert "'keep 9': dice to keep are digits 1-6" in text.stderr and "'hello': not a choice" in text.stderr
    record = text.stdout.splitlines()[-1].removeprefix("Record: ")
    result = review_query(record, tables)
    lines = text.stdout.splitlines()
    assert lines[0] == "Practice 5eed (official rules; against the exact player). Replay these dice: --seed 5eed"
    assert f"Final score {result['final']}, the opponent " in text.stdout
    # Against the opponent every grade is in percentage points of the chance of winning: so are the
    # mean, the total and the yardstick.
    assert result["measure"] == "win" and result["strong_play"] == STRONG_PLAY["win"]
    assert (
        f"Mean loss {result['mean_grade']:.3f} pp a decision over {len(result['decisions'])} decisions "
        f"(total {result['total_grade']:.3f} pp; below {STRONG_PLAY['win']} pp is strong play)"
    ) in text.stdout
    assert "pts" not in next(line for line in lines if line.startswith("Mean loss"))
    counts = ", ".join(
        f"{label}: {result['counts'][name]}"
        for name, label in zip([n for n, _ in LOSS_BINS], ["optimal", "< 0.1", "0.1–1", "1–5", "> 5"], strict=True)
    )
    assert f"Decisions by loss: {counts}" in text.stdout
    costliest = [line for line in lines if line.startswith(("  1. ", "  2. ", "  3. "))]
    assert len(costliest) == len(result["costliest"]) > 0
    for line, i in zip(costliest, result["costliest"], strict=True):
        assert line.endswith(result["decisions"][i]["query"])
    # After each choice: the grade of that choice (each decision's loss is printed where it lost).
    assert text.stdout.count("  yours: ") == sum(d["loss"] > 0 for d in result["decisions"])
    assert text.stdout.count("chance of winning: yours") == len(result["decisions"])
    # The same game as JSON: the review of the same record, with the seed.
    as_json = practice("--seed", "5eed", "--opponent", "--json", "--feedback", "end", stdin=script)
    assert as_json.returncode == 0, as_json.stderr
    assert json.loads(as_json.stdout) == json.loads(json.dumps({**result, "seed": "5eed"}))
    # Only at the end: no grade before the summary.
    at_end = practice("--seed", "5eed", "--opponent", "--feedback", "end", stdin=script)
    assert "  best" not in at_end.stdout.split("Final score")[0]
    assert at_end.stdout.splitlines()[-1] == f"Record: {record}"


def test_the_cli_stops_with_the_record_so_far_at_the_end_of_input():
    seed = parse_seed("abc")
    first = "".join(map(str, faces(seed, ME, 1, 1)))
    out = practice("--seed", "abc", stdin=f"keep {first[:2]}\n")
    assert out.returncode == 1
    assert "stopped at turn 1; the record so far: p=abc&h=" in out.stderr
    bad = practice("--seed", "ABC", stdin="")
    assert bad.returncode == 2 and "not a practice seed" in bad.stderr
