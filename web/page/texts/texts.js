// The page's texts in English and Japanese, the language chosen, and how numbers are written.

import { COACH_TEXTS } from "./texts-coach.js";
import { ERROR_TEXTS } from "./texts-errors.js";
import { NOTE_TEXTS } from "./texts-notes.js";
import { GAMES_TEXTS } from "./texts-games.js";
import { GOAL_TEXTS } from "./texts-goal.js";
import { PRACTICE_TEXTS } from "./texts-practice.js";
import { REVIEW_TEXTS } from "./texts-review.js";

export const MINUS = "\u2212";

export const TEXTS = {
  en: {
    title: "Yacht advisor",
    titleShort: "Yacht",
    language: "Language",
    turn: "This turn",
    roll: "Roll",
    roll1: "Roll 1",
    roll2: "Roll 2",
    roll3: "Roll 3",
    dice: "Dice",
    keypad: "Add a die",
    addDie: (face) => `Add ${face}`,
    removeDie: (i, face) => `Remove die ${i} (${face})`,
    keptDie: (face) => `${face}, kept`,
    clearDice: "Clear dice",
    rollForMe: "Roll for me",
    rollForMeShort: "Roll",
    diceHintEmpty: "Tap the faces you rolled",
    diceHintMore: (n) => `${n} more to enter`,
    diceHintFull: "Tap a die to remove it",
    diceHintKept: (n) => `Kept dice stay; ${n} more to enter`,
    diceHintChoice: "Tap a new die to correct it",
    advice: "Advice",
    loadingNote: "Loading the advisor… You can enter a position meanwhile.",
    steps: {
      page: "Page data",
      runtime: "Python runtime (Pyodide)",
      numpy: "NumPy",
      package: "Advisor package",
      table: "Table",
    },
    stepStates: { start: "loading…", done: "done", failed: "failed" },
    retry: "Retry",
    loadFailed: (step, message) => `Could not load the advisor (${step}): ${message}`,
    linkError: (message) => `This link is not a valid position. ${message}`,
    gameLinkError: (message) => `This link is not a valid game. ${message}`,
    internalError: (message) => `The advisor failed: ${message}`,
    waiting: "Advice appears once the advisor has loaded.",
    beforeRoll: (expected, score) => `Before rolling: expected final score ${expected} (now ${score})`,
    needDice: (n, expected) => `Enter ${n} more ${n === 1 ? "die" : "dice"} for advice (expected ${expected})`,
    bestPlay: (expected, score) => `Expected final score ${expected} (now ${score})`,
    over: "Game over.",
    enterTurn: (turn) => `Turn ${turn}: enter the five dice you rolled`,
    enterKept: (kept, n) => `Kept ${kept}: enter the ${n === 1 ? "die" : `${n} dice`} you rolled again`,
    enterRerollAll: "Rerolling all: enter the five dice you rolled",
    expectedNow: (expected) => `(expected ${expected})`,
    keepNone: "Reroll all dice",
    keep: (dice) => `Keep ${dice}`,
    stop: (category, points) => `Stop: ${category} ${points}`,
    scoreAs: (category, points) => `${category} ${points}`,
    bonusPoints: (points) => `${points} +35 bonus`,
    expectedLabel: "expected final score",
    lossLabel: "loss",
    best: "best",
    applyKeep: "Keep",
    applyKeepName: (dice) => `Keep ${dice} and roll again`,
    applyReroll: "Reroll",
    applyRerollName: "Reroll all dice",
    applyScore: "Score",
    applyScoreName: (category) => `Score ${category}`,
    scoreHere: (points, category) => `Score ${points} in ${category}`,
    sheet: "Scoresheet",
    rules: "Rules",
    official: "Official",
    strict: "Strict",
    variantHint: "Strict: five of a kind is not a Full House.",
    sheetLocked: "The sheet and the rules follow the game: use Undo to change them.",
    sheetLockedPractice:
      "In a practice game a choice once made cannot be undone or changed. To go on, score this turn's dice in a category still free.",
    rulesInGame: "The rules follow the game: start a new game to change them.",
    subtotal: "Subtotal",
    bonus: "Bonus",
    total: "Total",
    bonusNeed: (n) => `${n} more for +35`,
    bonusMissed: "no bonus",
    emptyCell: "–",
    preview: (points) => `→ ${points}`,
    previewName: (points) => `these dice score ${points}`,
    actions: "Actions",
    share: "Share",
    newGame: "New game",
    startHeading: "Start a new game",
    startNote: "The game shown stays on this device (Games on this device).",
    startAlone: "Alone",
    startFirst: "Against a rival: I start",
    startSecond: "Against a rival: they start",
    startPractice: "Practice",
    theyStart: "The rival starts: tap their column to enter their first score.",
    cancel: "Cancel",
    copied: "Link copied.",
    shared: "Shared.",
    copyFailed: "Copy the link below.",
    linkLabel: "Link to this position",
    linkLabelGame: "Link to this game",
    keys: "Keys: 1–6 add a die, Backspace deletes it, R changes the roll, Ctrl+Z undoes, Ctrl+Shift+Z redoes.",
    variantCleared: (names) => `Cleared ${names}: not a possible score under these rules.`,
    gameGroup: "Game",
    undo: "Undo",
    redo: "Redo",
    review: "Review",
    playHint: "Act on an option to play along: every roll, keep and score goes into the link.",
    playing: (turn, roll) => `Playing along: turn ${turn}, roll ${roll}.`,
    playingOver: "Playing along: the game is over.",
    playingTheirs: "Playing along: the rival's turn.",
    backToGame: "Back to game",
    details: "Details",
    allOptions: "Every option",
    close: "Close",
    emptyName: "empty",
    scoreEndsTurn: "This ends the turn now.",
    scoreStartsGame: "Scoring starts playing along: the game goes into the link (Undo takes it back).",
    pickerDice: (points) => `These dice score ${points}.`,
    pickerValues: (name) => `Scores ${name} can take`,
    clearCell: (name) => `Clear ${name}`,
    clearScore: "Clear",
    setCell: (name, value) => `${name}: ${value}`,
    verdictStop: (name, points) => `Stop here: ${name} ${points}`,
    verdictScore: (name, points) => `Score ${name}: ${points}`,
    verdictKeep: (kept, rerolled) =>
      `Keep ${kept} — reroll\u00a0${rerolled.length === 1 ? `the\u00a0${rerolled[0]}` : rerolled.join("\u00a0")}`,
    verdictMargin: (margin, next) => `Next best: ${next},\u00a0${margin}`,
    verdictTied: (n) => `Tied with ${n} other ${n === 1 ? "option" : "options"} (the simplest shown)`,
    reviewGame: "Review",
    reviewGameName: "Review this game",
    playAgain: "Play again",
    skipToVerdict: "Skip to the advice",
    skipToSheet: "Skip to the sheet",
    bestAction: (text) => `${text} (the best)`,
    rerollMark: "reroll",
  },
  ja: {
    title: "ヨット アドバイザー",
    titleShort: "ヨット",
    language: "言語",
    turn: "このターン",
    roll: "何投目",
    roll1: "1投目",
    roll2: "2投目",
    roll3: "3投目",
    dice: "サイコロ",
    keypad: "サイコロを追加",
    addDie: (face) => `${face}を追加`,
    removeDie: (i, face) => `${i}個目のサイコロ (${face}) を削除`,
    keptDie: (face) => `${face} (残したサイコロ)`,
    clearDice: "サイコロを消す",
    rollForMe: "代わりに振る",
    rollForMeShort: "振る",
    diceHintEmpty: "出た目をタップ",
    diceHintMore: (n) => `あと${n}個`,
    diceHintFull: "タップで削除",
    diceHintKept: (n) => `残したサイコロはそのまま。あと${n}個`,
    diceHintChoice: "新しいサイコロはタップで修正",
    advice: "アドバイス",
    loadingNote: "アドバイザーを読み込み中… その間も入力できます。",
    steps: {
      page: "ページのデータ",
      runtime: "Python 実行環境 (Pyodide)",
      numpy: "NumPy",
      package: "アドバイザー",
      table: "期待値表",
    },
    stepStates: { start: "読み込み中…", done: "完了", failed: "失敗" },
    retry: "再試行",
    loadFailed: (step, message) => `アドバイザーを読み込めませんでした (${step}): ${message}`,
    linkError: (message) => `このリンクの局面は正しくありません。${message}`,
    gameLinkError: (message) => `このリンクのゲーム記録は正しくありません。${message}`,
    internalError: (message) => `アドバイザーでエラーが起きました: ${message}`,
    waiting: "読み込みが終わるとアドバイスが出ます。",
    beforeRoll: (expected, score) => `振る前: 期待値 ${expected} (現在 ${score}点)`,
    needDice: (n, expected) => `あと${n}個入力でアドバイス (期待値 ${expected})`,
    bestPlay: (expected, score) => `最終得点の期待値 ${expected} (現在 ${score}点)`,
    over: "ゲーム終了。",
    enterTurn: (turn) => `${turn}ターン目: 出た5個の目を入力`,
    enterKept: (kept, n) => `${kept} を残した: 振り直した${n}個の目を入力`,
    enterRerollAll: "全部振り直し: 出た5個の目を入力",
    expectedNow: (expected) => `(期待値 ${expected})`,
    keepNone: "全部振り直す",
    keep: (dice) => `${dice} を残す`,
    stop: (category, points) => `止めて ${category} ${points}点`,
    scoreAs: (category, points) => `${category} ${points}点`,
    bonusPoints: (points) => `${points} + ボーナス35`,
    expectedLabel: "最終得点の期待値",
    lossLabel: "損失",
    best: "最善",
    applyKeep: "残す",
    applyKeepName: (dice) => `${dice} を残す (振り直し)`,
    applyReroll: "振る",
    applyRerollName: "全部振る",
    applyScore: "記入",
    applyScoreName: (category) => `${category}に記入`,
    scoreHere: (points, category) => `${category}に${points}点を記入`,
    sheet: "スコアシート",
    rules: "ルール",
    official: "公式",
    strict: "厳格",
    variantHint: "厳格: 5つ同じ目はフルハウスになりません。",
    sheetLocked: "スコアシートとルールはゲームの記録どおりです。変えるには「元に戻す」を使います。",
    sheetLockedPractice:
      "練習では、一度した選択を取り消すことも変えることもできません。続けるには、このターンのサイコロをまだ空いている役に記入します。",
    rulesInGame: "ルールはゲームの記録どおりです。変えるには新しいゲームを始めます。",
    subtotal: "小計",
    bonus: "ボーナス",
    total: "合計",
    bonusNeed: (n) => `あと${n}点で+35`,
    bonusMissed: "ボーナスなし",
    emptyCell: "–",
    preview: (points) => `→ ${points}`,
    previewName: (points) => `この目なら${points}点`,
    actions: "操作",
    share: "共有",
    newGame: "新しいゲーム",
    startHeading: "新しいゲームを始める",
    startNote: "表示中のゲームはこの端末に残ります (この端末のゲーム)。",
    startAlone: "ひとりで",
    startFirst: "相手と対戦: 自分が先攻",
    startSecond: "相手と対戦: 相手が先攻",
    startPractice: "練習",
    theyStart: "相手が先攻です。相手の列をタップして最初の得点を入れてください。",
    cancel: "キャンセル",
    copied: "リンクをコピーしました。",
    shared: "共有しました。",
    copyFailed: "下のリンクをコピーしてください。",
    linkLabel: "この局面へのリンク",
    linkLabelGame: "このゲームへのリンク",
    keys: "キー: 1〜6 でサイコロを追加、Backspace で消す、R で何投目かを切り替え、Ctrl+Z で元に戻す、Ctrl+Shift+Z でやり直す。",
    variantCleared: (names) => `${names}を消しました (このルールではありえない得点)。`,
    gameGroup: "ゲーム",
    undo: "元に戻す",
    redo: "やり直す",
    review: "振り返り",
    playHint: "選択肢を選ぶとゲームの記録が始まります。振った目・残した目・記入はすべてリンクに入ります。",
    playing: (turn, roll) => `記録中: ${turn}ターン目、${roll}投目`,
    playingOver: "記録中: ゲーム終了",
    playingTheirs: "記録中: 相手の番",
    backToGame: "ゲームに戻る",
    details: "詳細",
    allOptions: "すべての選択肢",
    close: "閉じる",
    emptyName: "空き",
    scoreEndsTurn: "このターンはここで終わります。",
    scoreStartsGame: "記入するとゲームの記録が始まります (「元に戻す」で取り消せます)。",
    pickerDice: (points) => `この目なら${points}点。`,
    pickerValues: (name) => `${name}の得点`,
    clearCell: (name) => `${name}を消す`,
    clearScore: "消す",
    setCell: (name, value) => `${name}: ${value}点`,
    verdictStop: (name, points) => `ここで止めて${name}に${points}点`,
    verdictScore: (name, points) => `${name}に${points}点を記入`,
    verdictKeep: (kept, rerolled) => `${kept} を残して ${rerolled.join("\u00a0")} を振り直す`,
    verdictMargin: (margin, next) => `次善: ${next}、\u2060${margin}`,
    verdictTied: (n) => `ほかの${n}つと同点 (いちばん簡単な手を表示)`,
    reviewGame: "振り返る",
    reviewGameName: "このゲームを振り返る",
    playAgain: "もう一度",
    skipToVerdict: "アドバイスへ移動",
    skipToSheet: "スコアシートへ移動",
    bestAction: (text) => `${text} (最善)`,
    rerollMark: "振る",
  },
};

/** The language the texts are in ("en" or "ja"): set by the page (main.js) when it changes. */
let language = "en";

export function setLanguage(value) {
  language = value;
}

export const currentLanguage = () => language;

/** The text of `key` in the current language (a function's text with `args`). */
export const t = (key, ...args) => {
  const text = Object.hasOwn(TEXTS[language], key) ? TEXTS[language][key] : key;
  return typeof text === "function" ? text(...args) : text;
};

for (const language of Object.keys(TEXTS)) {
  Object.assign(
    TEXTS[language],
    GOAL_TEXTS[language],
    ERROR_TEXTS[language],
    GAMES_TEXTS[language],
    PRACTICE_TEXTS[language],
    REVIEW_TEXTS[language],
    COACH_TEXTS[language],
    NOTE_TEXTS[language],
  );
}

export const formatExpected = (x) => x.toFixed(2);
/** A loss in points of expected score: "−0.84"; "0.00" for none, "< 0.01" when it rounds to zero. */
export const formatLoss = (x) => (x <= 0 ? "0.00" : x < 0.005 ? "< 0.01" : `${MINUS}${x.toFixed(2)}`);
/** A loss in percentage points of a chance (x: 0–100): "−1.2"; "0.0" for none, "< 0.1" when it
 * rounds to zero. */
export const formatChanceLoss = (x) => (x <= 0 ? "0.0" : x < 0.05 ? "< 0.1" : `${MINUS}${x.toFixed(1)}`);
/** A decision's grade (yacht.play.review's JSON "grade": {measure, loss}) with its unit: "−0.84 pts",
 * "−1.2 pp" (en), "−0.84点", "−1.2ポイント" (ja). */
export const formatGrade = (grade) =>
  grade.measure === "score" ? t("lossPoints", formatLoss(grade.loss)) : t("lossChance", formatChanceLoss(grade.loss));
/** A change of the expected score with its sign: "+6.59", "−12.15", "0.00". */
export const formatSigned = (x) =>
  Math.abs(x) < 0.005 ? "0.00" : x > 0 ? `+${x.toFixed(2)}` : `${MINUS}${(-x).toFixed(2)}`;

const LANGUAGE_KEY = "yacht.language";

/** The language saved on this device, else the browser's (Japanese or English). Site data may be
 * blocked (localStorage then throws): the browser's language is used and nothing is saved. */
export function initialLanguage() {
  let saved = null; // (not `language`: the module's own)
  try {
    saved = localStorage.getItem(LANGUAGE_KEY);
  } catch {
    // no site data: nothing saved
  }
  if (saved !== null && Object.hasOwn(TEXTS, saved)) return saved;
  const preferred = navigator.languages?.[0] ?? navigator.language ?? "en";
  return preferred.toLowerCase().startsWith("ja") ? "ja" : "en";
}

/** Remember the language on this device, where site data is allowed. */
export function saveLanguage(language) {
  try {
    localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    // no site data: the choice lasts as long as the page
  }
}

/** Outside text (a name or value from a link) quoted as Python's repr quotes a string: in single
 * quotes (double when it holds a single quote and no double), with backslashes, quotes and every
 * control, format, separator or other unprintable character escaped, so a message can never
 * hold a line break, a terminal escape or invisible text. Long text is cut at `max` characters. */
export function quote(text, max = 60) {
  let value = String(text);
  const cut = value.length > max;
  if (cut) value = value.slice(0, max);
  const q = value.includes("'") && !value.includes('"') ? '"' : "'";
  let out = "";
  for (const ch of value) {
    const code = ch.codePointAt(0);
    if (ch === "\\" || ch === q) out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch !== " " && /[\p{C}\p{Z}]/u.test(ch)) {
      out +=
        code < 0x100
          ? `\\x${code.toString(16).padStart(2, "0")}`
          : code < 0x10000
            ? `\\u${code.toString(16).padStart(4, "0")}`
            : `\\U${code.toString(16).padStart(8, "0")}`;
    } else out += ch;
  }
  return `${q}${out}${q}${cut ? "…" : ""}`;
}
