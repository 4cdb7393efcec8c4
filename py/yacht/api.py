"""From a query string to JSON-ready results: what the CLI and the browser worker both call.

``advise_query(query, tables, with_distribution=False)``: a position (``position`` format) → the
ranked options (``Advice.to_json()``) plus the canonical ``query`` and the ``variant``; with ``o=``
or ``t=`` the goal's chances and ranking (``goal.goal_advice``); ``with_distribution``: also
``"distribution"`` under the advised play (``goal.goal_distribution`` where the goal is exact, else
``average_distribution.distribution``; its ``"play"`` says which). Outside the exact range the goal
needs the sd table: ``tables.spread(variant)`` where ``tables`` has that method (the CLI's does),
else ``goal.GoalUnavailable``.

``distribution_query(query, tables)``: a position → its final-score distribution alone (as
``with_distribution``), with ``query`` and ``variant``; ``distribution_query_steps``: the same in
steps (``core.steps``), as the page's worker runs it.

``game_query(query, tables)``: a game record (``game`` format) → where it stands: the canonical
``query``, the current ``position`` query (with the opponent's sheet ``o=`` when the record has one
and it is my turn; without it when their turn is next), its ``advice`` (with the chances of winning,
as ``advise_query`` gives them, when it has ``o=``) and the number of ``turns`` recorded.

``review_query(query, tables)``: a game record → its review (``Review.to_json()``) plus ``query``,
``variant`` and ``position``. With the opponent's record (``o=``, ``oh=``) and tables that have
``spread`` (the CLI's and the worker's ``Tables``), every decision is also graded by the chance of
winning (``review``); a plain mapping of tables gives the plain review.

``grade_query(query, tables)``: a game record → its last decision graded as the review grades it
(``review.grade_last``: ``Decision.to_json()``, or ``None`` before any decision) as ``"decision"``,
with ``query``, ``variant`` and ``position``: what a practice game shows after each choice.

``opponent_query(query, tables)``: a practice record (``p=``, with ``v=`` as needed; ``h=`` may be
empty) → the simulated opponent's twelve turns (``practice.OpponentTurn.to_json()``) as ``"turns"``,
with ``query``, ``variant`` and ``seed``.

``explain_query(query, tables)``: a position → ``advise_query``'s answer with the coach's
explanation (``chances.coach``) on every option: ``"aims"``, ``"bonus"``, ``"categories"`` and
``"why"`` (that option against the first), and the answer's ``"why"`` (the first against the
second); with o= or t= also ``"goal_aims"``, the aims under the goal's play after the option
(``coach.goal_aims``, from the same goal solve as the ranking). ``review_query(query, tables,
explain=True)`` adds the same to every decision's ``chosen`` and ``best`` (with the decision's
``"why"``, best against chosen; ``"goal_aims"`` where the decision was graded by a goal);
``explain_decision_query(query, tables, index=-1)``: one decision of a record explained so (what the
page's review and practice show on demand: ``"decision"``, graded as the review grades it). They
need the coach's files: ``tables.coach(variant)``, which raises ``CoachMissing`` where the caller
has not loaded them (the worker), or ``TableError`` naming a damaged file.

A practice record's opponent turns are checked against the simulated opponent's wherever a record is
read (``practice.check_opponent``).

All of them answer with one shape, the same for the CLI (``--json``) and the worker: a dict of JSON
values with the canonical ``query`` and the ``variant`` beside what was asked for. A position's
advice (``advise_query`` itself, ``game_query``'s ``advice``) is ``Advice.to_json()``, with the
goal's fields when the position has o= or t=; an option anywhere (in advice, or a review decision's
``chosen`` and ``best``) is ``Option.to_json()``. A bad query raises (below); the CLI and the worker
turn that into the same ``{"field", "message"}``.

``tables`` maps a variant name to its ``Table``. A caller that loads files lazily (the worker)
passes a ``Tables``: a file it has not loaded yet raises ``TableMissing`` or ``SpreadMissing``
naming the variant, so that it loads the file and asks again; a mapping that loads on lookup (the
CLI's) never lets them through. The query is parsed once: the variant it asks for is the one whose
table is looked up. Bad input raises ``position.PositionError``, ``game.GameError`` or
``position.GoalUnavailable`` (ValueErrors with a ``field``).
"""

from collections.abc import Mapping

import numpy as np

from .available import Reads, chunks_ahead_query, graded_from_what_is_loaded
from .core.options import advise
from .core.position import (
    GoalUnavailable,
    Position,
    PositionError,
    check_turn_order,
    format_query,
    free_categories,
    parse_query,
)
from .core.steps import Steps, finish
from .core.table import Table
from .core.table_kinds import Unavailable
from .loader import CoachMissing, ReachMissing, SpreadMissing, TableMissing, Tables

__all__ = [
    "CoachMissing",
    "ReachMissing",
    "SpreadMissing",
    "TableMissing",
    "Tables",
    "advise_query",
    "chunks_ahead_query",
    "distribution_query",
    "explain_decision_query",
    "explain_query",
    "game_query",
    "grade_query",
    "opponent_query",
    "review_query",
]

# The goal (yacht.chances.goal and the modules it uses), the game records (yacht.play.game) and the review
# (yacht.play.review) are imported where first used: the page's first answer, a position without a
# goal, needs none of them, and the worker starts without them.


def _tilde(tables: Mapping[str, Table], variant: str) -> np.ndarray:
    """Ẽ of ``variant``: (4096, 64) float64, indexed [mask, ν]."""
    try:
        return tables[variant].tilde
    except KeyError:
        raise TableMissing(variant) from None


def _advice(position: Position, tables: Mapping[str, Table], solved=None, reads: Reads | None = None) -> dict:
    """The advisor's JSON for a position, with the goal's chances when it has o= or t=
    (``solved``: the goal's ``solve_turn`` of the position, when already computed, with the
    ``reads`` it was computed with). Where the loader refused files its caller could not fetch
    now and the chance is not exact, the answer says so in ``"estimate"``: ``"lacking"``, the
    kinds of the files refused (``available.Reads``), and ``"chance"``: the chance from what is
    loaded (true), or none (false: the options by expected score alone) when not even the
    spread table is."""
    variant = position.variant.name
    result = advise(position, _tilde(tables, variant)).to_json()
    if position.opponent is not None or position.target is not None:
        from .chances.goal import goal_advice

        reads = reads or Reads(tables, variant)
        try:
            result = goal_advice(position, _tilde(tables, variant), result, reads.spread, solved, reads.chunks)
        except GoalUnavailable:
            if not reads.refused:
                raise
            return {**result, "exact": False, "estimate": {"lacking": reads.went_without(), "chance": False}}
        if reads.refused and not result["exact"]:
            result["estimate"] = {"lacking": reads.went_without(), "chance": True}
    return result


def _solve_turn(position: Position, tables: Mapping[str, Table]):
    """The goal's ``solve_turn`` of ``position`` from what is loaded and the ``Reads`` it read
    with, or (None, reads) where the chance needs a file its caller could not fetch (``_advice``
    then says so)."""
    from .chances.goal import solve_turn

    reads = Reads(tables, position.variant.name)
    try:
        return solve_turn(position, _tilde(tables, position.variant.name), reads.spread, reads.chunks), reads
    except GoalUnavailable:
        if not reads.refused:
            raise
        return None, reads


def advise_query(query: str, tables: Mapping[str, Table], *, with_distribution: bool = False) -> dict:
    position = parse_query(query)
    variant = position.variant.name
    result = _advice(position, tables)
    if with_distribution:
        result["distribution"] = finish(_distribution(position, tables))
    result["query"] = format_query(position)
    result["variant"] = variant
    return result


def explain_query(query: str, tables: Tables, *, with_distribution: bool = False) -> dict:
    """``advise_query``'s answer with the coach's explanation of every option (``_explain``)."""
    position = parse_query(query)
    solved, reads = None, None
    if (position.opponent is not None or position.target is not None) and position.roll and not position.is_over:
        solved, reads = _solve_turn(position, tables)
    result = _advice(position, tables, solved, reads)
    goal = None
    if solved is not None and all("win" in o or "reach" in o for o in result["options"]):
        from .play.graded import Chance

        measure = "win" if position.opponent is not None else "reach"
        goal = {"measure": measure, "chances": [Chance.of(o).chance for o in result["options"]]}
    _explain(position, tables, result["options"], result, goal)
    if solved is not None:  # the aims under the goal's play too, from the same solve
        from .chances.coach import goal_aims

        aims = goal_aims(position, solved)
        for option in result["options"]:
            key = _option_key(option)
            key = ("stop",) if key[0] == "keep" and len(key[1]) == 5 else key[:2]
            option["goal_aims"] = [a.to_json() for a in aims[key]]
    if with_distribution:
        result["distribution"] = finish(_distribution(position, tables))
    result["query"] = format_query(position)
    result["variant"] = position.variant.name
    return result


def _option_key(option: dict) -> tuple:
    """What identifies an option of a position in JSON: its keep (and the category it scores when
    all five are kept), else its category."""
    if "keep" in option:
        return ("keep", tuple(option["keep"]), option.get("category"))
    return ("category", option["category"])


def _explain(position: Position, tables: Tables, options: list[dict], answer: dict, goal: dict | None = None) -> None:
    """Add the coach's fields to the JSON ``options`` of ``position`` (in place; they may be in any
    order, and any of its options; the first is the one the others are explained against):
    ``"aims"``, ``"bonus"``, ``"categories"``, ``"plan"`` (``coach.plan``) and, on every option
    but the first, ``"why"`` (``_why``); ``answer["why"]``: the second option's (None with fewer
    than two). ``goal``: {"measure": "win" | "reach", "chances": [the chance of each option, in
    the order of ``options``]} when the options were ranked by a goal's chance."""
    from .chances.coach import explain, explain_category, plan

    variant = position.variant.name
    tilde = _tilde(tables, variant)
    coach = tables.coach(variant)
    advice = advise(position, tilde)
    explained = {
        _option_key(o.to_json()): e for o, e in zip(advice.options, explain(advice, tilde, coach), strict=True)
    }
    for option in options:
        key = _option_key(option)
        if key not in explained:  # stopping early in a category the advice would not take (a review)
            explained[key] = explain_category(position, coach, option["category"])
        option.update(explained[key].to_json())
        option["plan"] = plan(option, explained[key])
    for i, option in enumerate(options[1:], 1):
        chances = None if goal is None else (goal["measure"], goal["chances"][0], goal["chances"][i])
        option["why"] = _why(options[0], option, explained, chances)
    answer["why"] = options[1]["why"] if len(options) > 1 else None


def _why(best: dict, other: dict, explained: dict, chances: tuple | None) -> dict:
    """``coach.why`` of the JSON option ``best`` against ``other`` (``explained``: their
    ``Explained`` by option key) with what the words need: ``"versus"``, the best's keep (or its
    category when it scores without a keep); ``"open"``: {"category", "later", "now"} when
    ``other`` scores a category now that ``best`` keeps open (its expected points by the end
    under ``best``, the points ``other`` scores now); ``"dump"``: {"category", "now", "later"}
    when ``best`` scores fewer points in a category now than ``other`` expects from it by the
    end; ``"goal"``: {"measure", "best", "other"} (the chances) when the options were ranked by a
    goal's."""
    from .chances.coach import why

    mine, theirs = explained[_option_key(best)], explained[_option_key(other)]
    out = {"versus": best["keep"] if "keep" in best else best["category"]}
    out |= why(mine, theirs, best["expected"] - other["expected"])
    later = dict(mine.categories)
    their_later = dict(theirs.categories)
    scored, their_scored = _scored_now(best), _scored_now(other)
    out["open"] = None
    if their_scored is not None and their_scored != scored:
        now = next(a.mean_points for a in theirs.aims if a.category == their_scored)
        out["open"] = {"category": their_scored, "later": later[their_scored], "now": now}
    out["dump"] = None
    if scored is not None and scored != their_scored:
        now = next(a.mean_points for a in mine.aims if a.category == scored)
        if now < their_later[scored]:
            out["dump"] = {"category": scored, "now": now, "later": their_later[scored]}
    out["goal"] = None if chances is None else dict(zip(("measure", "best", "other"), chances, strict=True))
    return out


def _scored_now(option: dict) -> int | None:
    """The category an option scores now (a category, or all five kept in one), else None."""
    if "keep" not in option or (len(option["keep"]) == 5 and "category" in option):
        return option["category"]
    return None


def distribution_query(query: str, tables: Mapping[str, Table]) -> dict:
    """``distribution_query_steps`` run to the end."""
    return finish(distribution_query_steps(query, tables))


def distribution_query_steps(query: str, tables: Mapping[str, Table]) -> Steps[dict]:
    """The final-score distribution of a position under the advised play (``_distribution``)
    with the canonical ``query`` and the ``variant``: what the page draws as a histogram. In
    steps (``core.steps``): the page's worker answers other requests between them."""
    position = parse_query(query)
    return {
        "query": format_query(position),
        "variant": position.variant.name,
        "distribution": (yield from _distribution(position, tables)),
    }


def _distribution(position: Position, tables: Mapping[str, Table]) -> Steps[dict]:
    """The final-score distribution under the advised play (``"play"``): the goal's where its
    chance is exact and the goal's play can be followed (``goal.goal_distribution``: exact, up
    to 4 free categories; with ``t=`` and the reach chunks, up to ``reach_play.REACH_PLAY_FREE``,
    ``reach_play.reach_play_distribution``: simulated), else the best average's
    (``average_distribution.distribution``)."""
    from .chances.average_distribution import distribution_steps
    from .chances.goal import goal_distribution_steps

    tilde = _tilde(tables, position.variant.name)
    found = yield from goal_distribution_steps(position, tilde)
    reach = Reads(tables, position.variant.name).chunks  # the goal's play follows chunks only
    if found is None and position.target is not None and reach is not None and not position.is_over:
        from .chances.reach_play import REACH_PLAY_FREE, reach_play_distribution_steps

        if free_categories(position.sheet) <= REACH_PLAY_FREE:

            def chunks(masks: list[int]) -> dict:
                return reach({"reach": masks})["reach"]

            try:
                found = yield from reach_play_distribution_steps(position, tilde, chunks)
            except Unavailable:
                pass  # its caller could not fetch them now: the best average's
    return found or (yield from distribution_steps(position, tilde))


def _game(query: str, tables: Mapping[str, Table]):
    """The record of a query, a practice record's opponent checked (``practice.check_opponent``)."""
    from .play.game import parse_game
    from .play.practice import check_opponent

    game = parse_game(query)
    if game.practice is not None:
        check_opponent(game, _tilde(tables, game.variant.name))
    return game


def game_query(query: str, tables: Mapping[str, Table]) -> dict:
    from .play.game import format_game, replay

    game = _game(query, tables)
    _, end = replay(game)
    position = _at_my_turn(end)
    answer = {
        "query": format_game(game),
        "variant": game.variant.name,
        "position": format_query(position),
        "advice": _advice(position, tables),
        "turns": len(game.turns),
    }
    if end.is_over and end.opponent is not None and None in end.opponent:
        # My sheet is full, the rival's last turn is to come: the chance of winning as it goes.
        from .chances.opponent import last_turns_chance

        answer["chance"] = last_turns_chance(end, _tilde(tables, game.variant.name))
    return answer


def review_query(query: str, tables: Mapping[str, Table], *, explain: bool = False) -> dict:
    from .play.game import format_game, replay
    from .play.review import review

    game = _game(query, tables)
    variant = game.variant.name
    graded = graded_from_what_is_loaded(review, game, {variant: _tilde(tables, variant)}, tables)
    result = graded.to_json()
    result["query"] = format_game(game)
    result["variant"] = variant
    result["position"] = format_query(_at_my_turn(replay(game)[1]))
    if explain:
        for decision in result["decisions"]:
            _explain_decision(decision, tables)
    return result


def explain_decision_query(query: str, tables: Tables, index: int = -1) -> dict:
    """One decision of a game record explained as ``review_query(query, tables, explain=True)``
    explains it, without grading the rest: ``"decision"`` is the review's decision (``turn``,
    ``roll``, ``dice``, ``query``, ``chosen``, ``best``, ``loss``, ``grade``, and with a goal
    ``winning``: the grade is then the goal's chance, as in the review), its ``chosen`` and
    ``best`` with the coach's fields and ``"why"`` best against chosen, in points from the
    position without its goal, with the goal's chances (as the review's);
    ``index``: 0-based, negative from the last (-1, the default: a practice game's last choice)."""
    from .play.game import format_game
    from .play.review import grade_decision

    game = _game(query, tables)
    variant = game.variant.name
    tildes = {variant: _tilde(tables, variant)}
    decision = graded_from_what_is_loaded(grade_decision, game, tildes, tables, index).to_json()
    _explain_decision(decision, tables)
    return {"query": format_game(game), "variant": variant, "decision": decision}


def _explain_decision(decision: dict, tables: Tables) -> None:
    """The coach's fields on a review decision's ``best`` and ``chosen`` and its ``"why"`` (best
    against chosen), in place, from its position without the goal: in points of the best
    average. Graded by a goal (``"winning"``), the why says the chance each gave too, and both
    options gain ``"goal_aims"``, what each plays for under the goal's play after it."""
    position = parse_query(decision["query"])
    at = position._replace(opponent=None, target=None)
    winning = decision.get("winning")
    goal = None
    if winning is not None and decision["grade"]["measure"] in ("win", "reach"):
        goal = {
            "measure": decision["grade"]["measure"],
            "chances": [winning["best_average"]["chance"], winning["chosen"]["chance"]],
        }
    _explain(at, tables, [decision["best"], decision["chosen"]], decision, goal)
    if goal is not None:
        from .chances.coach import goal_aims

        solved, _ = _solve_turn(position, tables)
        aims = goal_aims(position, solved) if solved is not None else {}
        for option in (decision["best"], decision["chosen"]):
            option["goal_aims"] = [a.to_json() for a in aims.get(_goal_key(option), [])]


def _goal_key(option: dict) -> tuple:
    """An option's key among ``coach.goal_aims``': ("keep", dice) for fewer than five kept,
    ("category", c) for a category scored now (at any roll)."""
    scored = _scored_now(option)
    return ("category", scored) if scored is not None else ("keep", tuple(option["keep"]))


def grade_query(query: str, tables: Mapping[str, Table]) -> dict:
    from .play.game import format_game, replay
    from .play.review import grade_last

    game = _game(query, tables)
    variant = game.variant.name
    graded = graded_from_what_is_loaded(grade_last, game, {variant: _tilde(tables, variant)}, tables)
    return {
        "query": format_game(game),
        "variant": variant,
        "position": format_query(_at_my_turn(replay(game)[1])),
        "decision": None if graded is None else graded.to_json(),
    }


def opponent_query(query: str, tables: Mapping[str, Table]) -> dict:
    from .play.game import GameError, format_game
    from .play.practice import opponent_game
    from .play.practice_dice import format_seed

    game = _game(query, tables)
    if game.practice is None:
        raise GameError("p", "missing: the simulated opponent is a practice game's (p=<seed>)")
    variant = game.variant.name
    turns = opponent_game(_tilde(tables, variant), game.variant, game.practice)
    return {
        "query": format_game(game),
        "variant": variant,
        "seed": format_seed(game.practice),
        "turns": [turn.to_json() for turn in turns],
    }


def _at_my_turn(position: Position) -> Position:
    """Where a record ends, as a position: with the opponent's sheet (``o=``) when it is my
    turn, without it when the opponent's turn comes first (a position is always at my turn)."""
    if position.opponent is not None:
        try:
            check_turn_order(position.sheet, position.opponent)
        except PositionError:
            position = position._replace(opponent=None)
    return position
