// The texts of playing to win (the goal card, the chances in the verdict and the options), in
// English and Japanese; texts.js adds them to its tables.

/** "62.3 %": a chance in percent, one decimal. */
export const formatChance = (p) => `${(100 * p).toFixed(1)} %`;

export const GOAL_TEXTS = {
  en: {
    goalHeading: "Play to win",
    goalKind: "Goal",
    goalNone: "No goal",
    goalOpponent: "Opponent",
    goalTarget: "Target score",
    goalHint: "Enter the opponent's sheet (or a score to reach): the advice then plays for the chance.",
    goalInGame: "While playing along the advice plays for the best average (games do not carry a goal yet).",
    opponentSheet: "Opponent's sheet",
    opponentCell: (name) => `Opponent's ${name}`,
    opponentSums: (total, upper, bonus) => `Opponent: total ${total} (subtotal ${upper} / 63${bonus ? ", +35" : ""})`,
    opponentTurns: (theirs, mine, first, second) =>
      `The opponent has filled ${theirs} and you ${mine}: at your turn they have ${first} (you play first) or ${second} (you play second).`,
    targetLabel: "Score to reach",
    aim: "Rank the options by",
    aimWin: "Chance",
    aimAverage: "Average",
    winChance: (p, draw) => `Chance of winning ${p}${draw ? ` (a draw, ${draw}, counts half)` : ""}`,
    reachChance: (target, p) => `Chance of reaching ${target}: ${p}`,
    approximate: "approximate",
    exact: "exact",
    chanceLabel: "chance",
    verdictMarginChance: (diff, next) => `${diff} points of chance over the next best (${next})`,
    errOpponent: "This link's opponent sheet does not fit yours.",
    errTarget: "This link's score to reach is not valid.",
    fixGoal: "Drop the goal",
  },
  ja: {
    goalHeading: "勝ちにいく",
    goalKind: "目標",
    goalNone: "なし",
    goalOpponent: "対戦相手",
    goalTarget: "目標点",
    goalHint: "相手のスコア表(または目標点)を入れると、その確率が最大になる手を示します。",
    goalInGame: "ゲーム進行中は平均最大の手を示します(ゲーム記録はまだ目標を持てません)。",
    opponentSheet: "相手のスコア表",
    opponentCell: (name) => `相手の${name}`,
    opponentSums: (total, upper, bonus) => `相手: 合計 ${total}点 (小計 ${upper} / 63${bonus ? "、+35" : ""})`,
    opponentTurns: (theirs, mine, first, second) =>
      `相手は${theirs}枠、あなたは${mine}枠記入済みです。あなたの番では相手は${first}枠(あなたが先手)か${second}枠(後手)です。`,
    targetLabel: "目標点",
    aim: "並べ方",
    aimWin: "確率",
    aimAverage: "平均",
    winChance: (p, draw) => `勝率 ${p}${draw ? ` (引き分け ${draw} は半分に数える)` : ""}`,
    reachChance: (target, p) => `${target}点以上の確率 ${p}`,
    approximate: "近似",
    exact: "厳密",
    chanceLabel: "確率",
    verdictMarginChance: (diff, next) => `次善 (${next}) より確率 ${diff} ポイント上`,
    errOpponent: "このリンクの相手のスコア表があなたの表と合いません。",
    errTarget: "このリンクの目標点が正しくありません。",
    fixGoal: "目標を外す",
  },
};
