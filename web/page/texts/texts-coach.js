// The texts of the coach (the "Why?" panel under the verdict and in every option, a practice
// choice's and a review decision's), in English and Japanese. COACH_WORDS are the command line's
// templates (py/yacht/cli/coach_text.py's TEMPLATES, key for key), so that the page's words equal
// the CLI's (held by tests/browser/test_coach_words.py); COACH_TEXTS are the page's own (texts.js
// adds them to its tables). The numbers come from yacht.api.explain_query and
// explain_decision_query.

/** "38 %": a chance in whole percent, as the command line writes it. */
export const formatPercent = (p) => `${(100 * p).toFixed(0)}${NBSP}%`;

/** Between a number and its unit: the unit never wraps alone to a line (coach_text.NBSP). */
export const NBSP = "\u00a0";

/** Two chances in percent with the fewest decimals, one at least and three at most, that tell them
 * apart (coach_text.percents_apart): ["8.2 %", "8.0 %"]. */
export function percentsApart(a, b) {
  let x, y;
  for (const digits of [1, 2, 3]) {
    [x, y] = [(100 * a).toFixed(digits), (100 * b).toFixed(digits)];
    if (x !== y) break;
  }
  return [`${x}${NBSP}%`, `${y}${NBSP}%`];
}

/** `x` with its sign and `digits` decimals ("+2.4", "−4.2": the minus sign U+2212). */
export const signed = (x, digits) => `${x < 0 || Object.is(x, -0) ? "−" : "+"}${Math.abs(x).toFixed(digits)}`;

/** Points scored now: a whole number. */
export const whole = (x) => x.toFixed(0);

export const COACH_WORDS = {
  en: {
    keep: (dice) => `Keep ${dice}`,
    reroll: "Reroll all",
    stop: (category) => `Score ${category} now`,
    score: (category) => `Score ${category}`,
    not: (option, other) => `${option} (not ${other})`,
    same: (option) => `${option}: the same as the best`,
    plays: "plays for",
    playsWin: "to win, plays for",
    playsReach: (target) => `to reach ${target}, plays for`,
    playsAverage: "on average, plays for",
    draw: "a straight draw:",
    drawElse: "else",
    entry: (category, p) => `${category} ${p}`,
    entryAvg: (category, p, avg) => `${category} ${p} (avg ${avg.toFixed(1)})`,
    scratch: "ends by scratching",
    scores: (points, category) => `scores ${points} in ${category}`,
    scratches: (category) => `scratches ${category}`,
    bonus: (p) => `bonus ${p}`,
    more: "…",
    join: ", ",
    then: "; ",
    bonusTerm: "bonus",
    term: (points, name) => `${points} ${name}`,
    total: (total) => `= ${total}${NBSP}pts`,
    open: (category, later, now) => `keeps ${category} open (${later.toFixed(1)}${NBSP}pts later vs ${now} now)`,
    dump: (now, category) => `scores ${now} in ${category} to keep the rest open`,
    dumpScratch: (category) => `scratches ${category} to keep the rest open`,
    goalWin: (best, other) => `to win ${best} vs ${other}; on average`,
    goalReach: (best, other) => `to reach the target ${best} vs ${other}; on average`,
  },
  ja: {
    keep: (dice) => `${dice} を残す`,
    reroll: "全部振り直す",
    stop: (category) => `今 ${category} に記入`,
    score: (category) => `${category} に記入`,
    not: (option, other) => `${option}(${other} ではなく)`,
    same: (option) => `${option}: 最善と同じ`,
    plays: "狙い",
    playsWin: "勝つための狙い",
    playsReach: (target) => `${target} 点に届くための狙い`,
    playsAverage: "平均での狙い",
    draw: "ストレート狙い:",
    drawElse: "ほかに",
    entry: (category, p) => `${category} ${p}`,
    entryAvg: (category, p, avg) => `${category} ${p}(平均 ${avg.toFixed(1)})`,
    scratch: "最後に0点で消す",
    scores: (points, category) => `${category}に${points}点`,
    scratches: (category) => `${category}を0点で消す`,
    bonus: (p) => `ボーナス ${p}`,
    more: "…",
    join: "、",
    then: "; ",
    bonusTerm: "ボーナス",
    term: (points, name) => `${name} ${points}`,
    total: (total) => `= ${total}${NBSP}点`,
    open: (category, later, now) => `${category}を残す(後で${later.toFixed(1)}点、今なら${now}点)`,
    dump: (now, category) => `${category}に${now}点を入れて他を残す`,
    dumpScratch: (category) => `${category}を0点で消して他を残す`,
    goalWin: (best, other) => `勝率 ${best} 対 ${other}; 平均では`,
    goalReach: (best, other) => `目標到達 ${best} 対 ${other}; 平均では`,
  },
};

export const COACH_TEXTS = {
  en: {
    why: "Why?",
    explainLoading: "Working out why…",
    explainFailed: (what) => `The explanation could not be loaded: ${what}`,
    coachOnly: "The only option.",
    coachBest: (what) => `Best (${what}): `,
    coachBestAverage: (what) => `Best on average (${what}): `,
    coachYours: (what) => `Yours (${what}): `,
    coachAlsoAverage: "Your choice is the best on average too: it gave up only the goal's chance.",
  },
  ja: {
    why: "なぜ？",
    explainLoading: "理由を計算中…",
    explainFailed: (what) => `説明を読み込めませんでした: ${what}`,
    coachOnly: "選択肢は一つだけです。",
    coachBest: (what) => `最善（${what}）: `,
    coachBestAverage: (what) => `平均で最善（${what}）: `,
    coachYours: (what) => `あなたの手（${what}）: `,
    coachAlsoAverage: "あなたの手は平均でも最善です。目標の確率だけを落としました。",
  },
};
