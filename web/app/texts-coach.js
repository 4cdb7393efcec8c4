// The texts of the coach (the "Why?" panel under the verdict and in every option, a practice
// choice's and a review decision's), in English and Japanese, from the same templates as the
// command line's (py/yacht/cli/coach_text.py); texts.js adds them to its tables. The numbers come
// from yacht.api.explain_query and explain_decision_query.

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
    playsToWin: "To win, plays for",
    playsToReach: (target) => `To reach ${target}, plays for`,
    playsOnAverage: "On average, plays for",
    coachBest: (what) => `Best (${what}) plays for`,
    coachBestAverage: (what) => `Best on average (${what}) plays for`,
    coachYours: (what) => `Yours (${what}) plays for`,
    coachAlsoAverage: "Your choice is the best on average too: it gave up only the goal's chance.",
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
    playsToWin: "勝つための狙い",
    playsToReach: (target) => `${target} 点に届くための狙い`,
    playsOnAverage: "平均での狙い",
    coachBest: (what) => `最善（${what}）の狙い`,
    coachBestAverage: (what) => `平均で最善（${what}）の狙い`,
    coachYours: (what) => `あなたの手（${what}）の狙い`,
    coachAlsoAverage: "あなたの手は平均でも最善です。目標の確率だけを落としました。",
  },
};
