"""The coach's explanation in words (English, Japanese), from the JSON of ``api.explain_query``:
the only place its structured data (``chances.coach``: aims, plan, why) becomes text on the command
line. The page draws the same words from the same JSON (``web/page/views/coach-lines.js``, its
templates ``web/page/texts/texts-coach.js``), held equal to these by the browser tests.

    Keep 4 4 (not 4 4 6 6): +2.4 bonus, +0.9 Yacht, −4.2 Full House … = +0.76 pts
    4 4 を残す(4 4 6 6 ではなく): ボーナス +2.4、ヨット +0.9、フルハウス −4.2 … = +0.76 点
    plays for Choice 67 % (avg 22.8), Full House 33 %, scratch Yacht 3 %; bonus 64 %

An aim is told as a score ("Fours 49 % (avg 13.4)": how often the turn ends scoring in Fours, the
mean of those scores) and a scratch ("scratch Yacht 20 %": how often it ends scoring 0 there), each
in its place by how often it happens; at most ``MOST_ENTRIES``, those of at least 0.5 %. A why
shows the terms its JSON says (``"shown"``: the largest, carrying most of the movement, with one
in favour of the best), signed, then the total: the gap in expected final score.
"""

import math
from decimal import ROUND_HALF_UP, Decimal
from typing import Final

from ..core.categories import NAMES_EN, NAMES_JA
from ..core.position import parse_query
from ..core.rules import VARIANTS, possible_scores

LANGUAGES: Final = ("en", "ja")
MOST_ENTRIES: Final = 4
"""Entries an aims line names at most (then "…")."""
LEAST_CHANCE: Final = 0.005
"""An entry happening less often than this (under 1 % once rounded) is not named."""
MINUS: Final = "\u2212"

TEMPLATES: Final = {
    "en": {
        "keep": "Keep {dice}",
        "reroll": "Reroll all",
        "stop": "Score {category} now",
        "score": "Score {category}",
        "not": "{option} (not {other})",
        "same": "{option}: the same as the best",
        "plays": "plays for",
        "plays_win": "to win, plays for",
        "plays_reach": "to reach {target}, plays for",
        "plays_average": "on average, plays for",
        "draw": "a straight draw:",
        "draw_else": "else",
        "entry": "{category} {p}",
        "entry_avg": "{category} {p} (avg {avg})",
        "scratch": "ends by scratching",
        "scores": "scores {points} in {category}",
        "scratches": "scratches {category}",
        "bonus": "bonus {p}",
        "more": "…",
        "join": ", ",
        "then": "; ",
        "bonus_term": "bonus",
        "term": "{points} {name}",
        "total": "= {total}\u00a0pts",
        "open": "keeps {category} open ({later}\u00a0pts later vs {now} now)",
        "dump": "scores {now} in {category} to keep the rest open",
        "dump_scratch": "scratches {category} to keep the rest open",
        "goal_win": "to win {best} vs {other}; on average",
        "goal_reach": "to reach the target {best} vs {other}; on average",
        "why_best": "Why the best",
    },
    "ja": {
        "keep": "{dice} を残す",
        "reroll": "全部振り直す",
        "stop": "今 {category} に記入",
        "score": "{category} に記入",
        "not": "{option}({other} ではなく)",
        "same": "{option}: 最善と同じ",
        "plays": "狙い",
        "plays_win": "勝つための狙い",
        "plays_reach": "{target} 点に届くための狙い",
        "plays_average": "平均での狙い",
        "draw": "ストレート狙い:",
        "draw_else": "ほかに",
        "entry": "{category} {p}",
        "entry_avg": "{category} {p}(平均 {avg})",
        "scratch": "最後に0点で消す",
        "scores": "{category}に{points}点",
        "scratches": "{category}を0点で消す",
        "bonus": "ボーナス {p}",
        "more": "…",
        "join": "、",
        "then": "; ",
        "bonus_term": "ボーナス",
        "term": "{name} {points}",
        "total": "= {total}\u00a0点",
        "open": "{category}を残す(後で{later}点、今なら{now}点)",
        "dump": "{category}に{now}点を入れて他を残す",
        "dump_scratch": "{category}を0点で消して他を残す",
        "goal_win": "勝率 {best} 対 {other}; 平均では",
        "goal_reach": "目標到達 {best} 対 {other}; 平均では",
        "why_best": "最善の理由",
    },
}
_NAMES: Final = {"en": NAMES_EN, "ja": NAMES_JA}


def fixed(x: float, digits: int) -> str:
    """``x`` with ``digits`` decimals, rounded as JavaScript's toFixed rounds (the exact binary
    value, a half away from zero), so that the page's words are these to the letter."""
    return str(Decimal(x).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


NBSP: Final = "\u00a0"
"""Between a number and its unit ("38 %", "0.76 pts"): the unit never wraps alone to a line."""


def percent(chance: float) -> str:
    """A chance in whole percent: "38 %" (a no-break space before the sign)."""
    return f"{fixed(100 * chance, 0)}{NBSP}%"


def percents_apart(a: float, b: float) -> tuple[str, str]:
    """Two chances in percent with the fewest decimals, one at least and three at most, that tell
    them apart: "8.2 %" and "8.0 %", "31.25 %" and "31.24 %"."""
    for digits in (1, 2, 3):
        x, y = fixed(100 * a, digits), fixed(100 * b, digits)
        if x != y:
            break
    return f"{x}{NBSP}%", f"{y}{NBSP}%"


def signed(x: float, digits: int) -> str:
    """``x`` with its sign ("+2.4", "−4.2"; the minus sign U+2212)."""
    negative = x < 0 or math.copysign(1.0, x) < 0
    return f"{MINUS if negative else '+'}{fixed(abs(x), digits)}"


def whole(x: float) -> str:
    """Points scored now: "24" (a score is a whole number)."""
    return fixed(x, 0)


def option_words(option: dict, lang: str = "en", short: bool = False) -> str:
    """An option as a short phrase: "Keep 4 4", "Reroll all", "Score Choice now", "Score Choice";
    ``short``: a keep as its dice alone ("4 4")."""
    words, names = TEMPLATES[lang], _NAMES[lang]
    if "keep" not in option:
        return words["score"].format(category=names[option["category"]])
    if len(option["keep"]) == 5 and "category" in option:
        return words["stop"].format(category=names[option["category"]])
    if not option["keep"]:
        return words["reroll"]
    dice = " ".join(str(d) for d in option["keep"])
    return dice if short else words["keep"].format(dice=dice)


def other_words(best: dict, other: dict, lang: str = "en") -> str:
    """The option ``best`` is set against, as the words in "(not …)" say it: its dice alone when
    both keep dice ("Keep 2 3 (not 1 2 3)"), else its whole phrase, in English in lower case
    ("Score Yacht now (not keep 1 1 1 1)")."""
    if _keeps_dice(best) and _keeps_dice(other):
        return option_words(other, lang, short=True)
    words = option_words(other, lang)
    return words[0].lower() + words[1:] if lang == "en" else words


def _keeps_dice(option: dict) -> bool:
    return bool(option.get("keep")) and "category" not in option


def _entries(aims: list[dict], variant: str, lang: str, kind: str) -> list[str]:
    """The aims of ``kind`` as entries, most likely first: "score", a score (with its mean where
    the category has more than one score above 0), or "scratch", a scratch; those under
    ``LEAST_CHANCE`` left out."""
    words, names = TEMPLATES[lang], _NAMES[lang]
    possible = possible_scores(VARIANTS[variant])
    found = []
    for a in aims:
        c, scratch = a["category"], a.get("scratch", 0.0)
        scored = a["p"] - scratch
        if kind == "score" and scored >= LEAST_CHANCE:
            several = sum(v > 0 for v in possible[c]) > 1
            mean = a["p"] * a["mean_points"] / scored
            key = "entry_avg" if several else "entry"
            found.append((-scored, c, words[key].format(category=names[c], p=percent(scored), avg=fixed(mean, 1))))
        if kind == "scratch" and scratch >= LEAST_CHANCE:
            found.append((-scratch, c, words["entry"].format(category=names[c], p=percent(scratch))))
    found.sort()
    return [text for *_, text in found]


def _parts(aims: list[dict], variant: str, lang: str) -> list[str]:
    """The scores played for, then the scratches the game ends by ("ends by scratching Yacht 17 %")."""
    words = TEMPLATES[lang]
    scores, scratches = (_entries(aims, variant, lang, kind) for kind in ("score", "scratch"))
    parts = [_listed(scores, lang)] if scores or not scratches else []
    return parts + ([f"{words['scratch']} {_listed(scratches, lang)}"] if scratches else [])


def _listed(entries: list[str], lang: str) -> str:
    words = TEMPLATES[lang]
    shown = entries[:MOST_ENTRIES]
    text = words["join"].join(shown)
    return f"{text}{words['join']}{words['more']}" if len(entries) > MOST_ENTRIES else text


def aims_body(option: dict, variant: str, lang: str = "en", key: str = "aims") -> str:
    """What an option plays for, after its lead words: "Fours 49 % (avg 13.4); ends by scratching
    Yacht 20 %; bonus 72 %"; a score now "scores 24 in Choice; bonus 64 %" or "scratches Yacht; …"; a straight
    draw "B.Straight 31 %, S.Straight 40 %; else Deuces 47 % (avg 3.0); bonus 12 %" (its lead says
    it is a draw). ``key`` "goal_aims": the aims under the goal's play, with no bonus chance (it is
    the average play's)."""
    words, names = TEMPLATES[lang], _NAMES[lang]
    plan = option.get("plan") if key == "aims" else None
    bonus = [] if key == "goal_aims" else [words["bonus"].format(p=percent(option["bonus"]))]
    if plan and plan["kind"] in ("score", "scratch"):
        c = names[plan["category"]]
        now = words["scratches"].format(category=c) if plan["kind"] == "scratch" else None
        now = now or words["scores"].format(points=whole(plan["points"]), category=c)
        return words["then"].join([now, *bonus])
    aims = option[key]
    if plan and plan["kind"] == "draw":
        straights = [a for a in aims if a["category"] in plan["categories"]]
        rest = [a for a in aims if a["category"] not in plan["categories"]]
        parts = _parts(straights, variant, lang)
        others = _parts(rest, variant, lang)
        if any(others):
            parts.append(f"{words['draw_else']} {words['then'].join(others)}")
        return words["then"].join([*parts, *bonus])
    return words["then"].join([*_parts(aims, variant, lang), *bonus])


def aims_lead(
    option: dict, lang: str = "en", key: str = "aims", target: int | None = None, goal: str = "", beside: bool = False
) -> str:
    """The lead words of an aims line: "plays for" ("on average, plays for" ``beside`` a line
    under the goal's play), "a straight draw:", or with ``key`` "goal_aims" "to win, plays for" /
    "to reach 200, plays for" (``goal``: "win" or "reach")."""
    words = TEMPLATES[lang]
    if key == "goal_aims":
        return words["plays_win"] if goal == "win" else words["plays_reach"].format(target=target)
    plan = option.get("plan")
    if plan and plan["kind"] == "draw":
        return words["draw"]
    if plan and plan["kind"] in ("score", "scratch"):
        return ""
    return words["plays_average" if beside else "plays"]


def aims_words(option: dict, variant: str, lang: str = "en", key: str = "aims", **lead) -> str:
    """The whole aims line: its lead (``aims_lead``) and body (``aims_body``)."""
    head = aims_lead(option, lang, key, **lead)
    body = aims_body(option, variant, lang, key)
    return f"{head} {body}" if head else body


def why_words(best: dict, other: dict, why: dict | None, lang: str = "en") -> str:
    """Why ``best`` beats ``other`` (``why``: ``other``'s JSON why, ``coach.why`` and the api's
    clauses): "Keep 4 4 (not 4 4 6 6): +2.4 bonus, +0.9 Yacht, −4.2 Full House … = +0.76 pts";
    with a goal, the chances first ("to win 32 % vs 31 %; on average …"); a category kept open
    ("keeps Four Dice open (13.2 pts later vs 30 now)") or a dump ("scores 2 in Aces to keep the
    rest open") before the terms."""
    words, names = TEMPLATES[lang], _NAMES[lang]
    what = words["not"].format(option=option_words(best, lang), other=other_words(best, other, lang))
    if not why or not why["shown"]:
        return words["same"].format(option=what)
    parts = []
    if why.get("goal"):
        goal = why["goal"]
        key = "goal_win" if goal["measure"] == "win" else "goal_reach"
        best_p, other_p = percents_apart(goal["best"], goal["other"])
        parts.append(words[key].format(best=best_p, other=other_p) + " ")
    clauses = []
    if why.get("dump"):
        d = why["dump"]
        key = "dump_scratch" if d["now"] == 0 else "dump"
        clauses.append(words[key].format(now=whole(d["now"]), category=names[d["category"]]))
    if why.get("open"):
        o = why["open"]
        clauses.append(
            words["open"].format(category=names[o["category"]], later=fixed(o["later"], 1), now=whole(o["now"]))
        )
    if clauses:
        parts.append(words["then"].join(clauses) + words["then"])
    terms = why["terms"]
    shown = [terms[i] for i in why["shown"]]
    named = [
        words["term"].format(
            points=signed(t["points"], 1),
            name=words["bonus_term"] if t["category"] == "bonus" else names[t["category"]],
        )
        for t in shown
    ]
    text = words["join"].join(named)
    if len(shown) < len(terms):
        text += f" {words['more']}"
    parts.append(f"{text} {words['total'].format(total=signed(why['total'], 2))}")
    return f"{what}: {''.join(parts)}"


def render_explanation(result: dict, lang: str = "en") -> list[str]:
    """The lines the advice's text gains with ``--explain``: why the first option beats the
    second, then what each option plays for (and, with a goal, under the goal's play) and why
    the first beats it."""
    options = result.get("options", [])
    if not options:
        return []
    variant = result["variant"]
    position = parse_query(result["query"])
    goal, target = ("win" if position.opponent is not None else "reach"), position.target
    lines = []
    if len(options) > 1:
        lines.append(f"{TEMPLATES[lang]['why_best']}: {why_words(options[0], options[1], options[1]['why'], lang)}")
    for rank, option in enumerate(options, 1):
        beside = "goal_aims" in option
        lines.append(f"{rank:>3}  {option_words(option, lang)}: {aims_words(option, variant, lang, beside=beside)}")
        if "goal_aims" in option:
            lines.append(f"     {aims_words(option, variant, lang, 'goal_aims', target=target, goal=goal)}")
        if rank > 1:
            lines.append(f"     {why_words(options[0], option, option['why'], lang)}")
    return lines
