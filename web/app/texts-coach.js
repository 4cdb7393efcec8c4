// The texts of the coach (the "Why?" panel under the verdict and in every option), in English and
// Japanese, from the same templates as the command line's (py/yacht/cli/coach_text.py); texts.js
// adds them to its tables. The numbers come from yacht.api.explain_query.

/** "38 %": a chance in whole percent, as the command line writes it. */
export const formatPercent = (p) => `${(100 * p).toFixed(0)} %`;

export const COACH_TEXTS = {
  en: {
    why: "Why?",
    explainLoading: "Working out why…",
    explainFailed: (what) => `The explanation could not be loaded: ${what}`,
    playsFor: "Plays for",
    aimWords: (name, p, avg) => (avg === null ? `${name} ${p}` : `${name} ${p} (avg ${avg})`),
    bonusChance: (p) => `Upper bonus ${p}`,
    coachKeep: (dice) => `Keep ${dice}`,
    coachReroll: "Reroll all",
    coachStop: (name) => `Score ${name} now`,
    coachScore: (name) => `Score ${name}`,
    coachNot: (option, other) => `${option} (not ${other})`,
    coachVs: (name, best, other) => `${name} ${best} vs ${other}`,
    coachPoints: (x) => `${x.toFixed(1)} pts`,
    coachBonus: "bonus",
    coachJoin: ", ",
    coachSame: (option) => `${option}: the same as the best`,
    coachOnly: "The only option.",
  },
  ja: {
    why: "なぜ？",
    explainLoading: "理由を計算中…",
    explainFailed: (what) => `説明を読み込めませんでした: ${what}`,
    playsFor: "狙い",
    aimWords: (name, p, avg) => (avg === null ? `${name} ${p}` : `${name} ${p}(平均 ${avg})`),
    bonusChance: (p) => `ボーナス ${p}`,
    coachKeep: (dice) => `${dice} を残す`,
    coachReroll: "全部振り直す",
    coachStop: (name) => `今 ${name} に記入`,
    coachScore: (name) => `${name} に記入`,
    coachNot: (option, other) => `${option}(${other} ではなく)`,
    coachVs: (name, best, other) => `${name} ${best} 対 ${other}`,
    coachPoints: (x) => `${x.toFixed(1)} 点`,
    coachBonus: "ボーナス",
    coachJoin: "、",
    coachSame: (option) => `${option}: 最善と同じ`,
    coachOnly: "選択肢は一つだけです。",
  },
};
