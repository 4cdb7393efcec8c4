"""The coach's explanation in words (English, Japanese), from the JSON of ``api.explain_query``:
the only place its structured data (``chances.coach.why``) becomes text on the command line.

    Keep 4 4 6 6 (not 4 4): Full House 33 % vs 6 %, bonus 64 % vs 67 %, Yacht 0 % vs 20 %
    4 4 6 6 を残す(4 4 ではなく): フルハウス 33 % 対 6 %、ボーナス 64 % 対 67 %、ヨット 0 % 対 20 %
"""

from typing import Final

from ..core.categories import NAMES_EN, NAMES_JA

LANGUAGES: Final = ("en", "ja")
TEMPLATES: Final = {
    "en": {
        "keep": "Keep {dice}",
        "reroll": "Reroll all",
        "stop": "Score {category} now",
        "score": "Score {category}",
        "not": "{option} (not {other})",
        "vs": "{best} vs {other}",
        "points": "{value:.1f} pts",
        "bonus": "bonus",
        "join": ", ",
        "header": "{what}: {why}",
        "same": "{option}: the same as the best",
        "plays": "plays for {aims}; bonus {bonus}",
        "aim": "{category} {p} ({points:.1f})",
        "why_best": "Why the best",
        "goal": "for the goal: {aims}",
    },
    "ja": {
        "keep": "{dice} を残す",
        "reroll": "全部振り直す",
        "stop": "今 {category} に記入",
        "score": "{category} に記入",
        "not": "{option}({other} ではなく)",
        "vs": "{best} 対 {other}",
        "points": "{value:.1f} 点",
        "bonus": "ボーナス",
        "join": "、",
        "header": "{what}: {why}",
        "same": "{option}: 最善と同じ",
        "plays": "狙い {aims}; ボーナス {bonus}",
        "aim": "{category} {p} ({points:.1f})",
        "why_best": "最善の理由",
        "goal": "目標のための狙い: {aims}",
    },
}
_NAMES: Final = {"en": NAMES_EN, "ja": NAMES_JA}


def _percent(chance: float) -> str:
    return f"{100 * chance:.0f} %"


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


def difference_words(term: dict, lang: str = "en") -> str:
    """One ``coach.why`` term: "Four Dice 38 % vs 29 %", "bonus 61 % vs 57 %", "Treys 10.1 pts vs 8.3 pts"."""
    words, names = TEMPLATES[lang], _NAMES[lang]
    if term["kind"] == "bonus":
        return f"{words['bonus']} " + words["vs"].format(best=_percent(term["best"]), other=_percent(term["other"]))
    name = names[term["category"]]
    if term["kind"] == "aim":
        return f"{name} " + words["vs"].format(best=_percent(term["best"]), other=_percent(term["other"]))
    best, other = (words["points"].format(value=term[k]) for k in ("best", "other"))
    return f"{name} " + words["vs"].format(best=best, other=other)


def why_words(best: dict, other: dict, terms: list[dict], lang: str = "en") -> str:
    """For ``terms`` (``coach.why`` of ``best`` against ``other``): "Keep 3 3 (not 3 3 5): Four Dice
    38 % vs 29 %, bonus 61 % vs 57 %"."""
    words = TEMPLATES[lang]
    what = words["not"].format(option=option_words(best, lang), other=option_words(other, lang, short=True))
    if not terms:
        return words["same"].format(option=what)
    return words["header"].format(what=what, why=words["join"].join(difference_words(t, lang) for t in terms))


def aims_words(option: dict, lang: str = "en", key: str = "aims") -> str:
    """What an option plays for: "plays for Fours 49 % (13.4), Choice 14 % (21.5); bonus 72 %" (the
    mean points in brackets); ``key`` "goal_aims": "for the goal: Fours 49 % (13.4), …"."""
    words, names = TEMPLATES[lang], _NAMES[lang]
    aims = words["join"].join(
        words["aim"].format(category=names[a["category"]], p=_percent(a["p"]), points=a["mean_points"])
        for a in option[key]
    )
    if key == "goal_aims":
        return words["goal"].format(aims=aims)
    return words["plays"].format(aims=aims, bonus=_percent(option["bonus"]))


def render_explanation(result: dict, lang: str = "en") -> list[str]:
    """The lines the advice's text gains with ``--explain``: why the first option beats the
    second, then what each option plays for."""
    options = result.get("options", [])
    if not options:
        return []
    lines = []
    if len(options) > 1:
        lines.append(f"{TEMPLATES[lang]['why_best']}: {why_words(options[0], options[1], result['why'], lang)}")
    for rank, option in enumerate(options, 1):
        lines.append(f"{rank:>3}  {option_words(option, lang)}: {aims_words(option, lang)}")
        if "goal_aims" in option and option["goal_aims"] != option["aims"]:
            lines.append(f"     {aims_words(option, lang, 'goal_aims')}")
        if rank > 1:
            lines.append(f"     {why_words(options[0], option, option['why'], lang)}")
    return lines
